//! SVG line charts with logarithmic axes (plotters, SVG backend only).

use std::path::Path;

use plotters::prelude::*;

/// One line of a chart: its legend and its (x, y) points, x ascending.
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points; non-positive values are left out (log scales).
    pub points: Vec<(f64, f64)>,
}

/// A chart: title, axis labels, lines.
pub struct Chart<'a> {
    /// Caption above the plot.
    pub title: &'a str,
    /// Label under the x axis.
    pub x_label: &'a str,
    /// Label beside the y axis.
    pub y_label: &'a str,
    /// The lines.
    pub series: Vec<Series>,
}

impl Chart<'_> {
    /// Writes the chart as an SVG file (both axes logarithmic). A chart with
    /// no points is an error, so a report never links an empty picture.
    pub fn write_svg(&self, path: &Path) -> Result<(), String> {
        let all: Vec<(f64, f64)> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|&(x, y)| x > 0.0 && y > 0.0)
            .collect();
        if all.is_empty() {
            return Err(format!("{}: no points to draw", path.display()));
        }
        let fold = |f: fn(f64, f64) -> f64, pick: fn(&(f64, f64)) -> f64, init: f64| all.iter().map(pick).fold(init, f);
        let (x0, x1) = (fold(f64::min, |p| p.0, f64::MAX), fold(f64::max, |p| p.0, 0.0));
        let (y0, y1) = (fold(f64::min, |p| p.1, f64::MAX), fold(f64::max, |p| p.1, 0.0));
        // A little room around the data on the log scales.
        let (x0, x1) = (x0 / 1.3, x1 * 1.3);
        let (y0, y1) = (y0 / 1.5, y1 * 1.5);
        let draw = || -> Result<(), Box<dyn std::error::Error>> {
            let root = SVGBackend::new(path, (860, 520)).into_drawing_area();
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(self.title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(44)
                .y_label_area_size(72)
                .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
            chart
                .configure_mesh()
                .x_desc(self.x_label)
                .y_desc(self.y_label)
                .x_label_formatter(&|x| format_number(*x))
                .y_label_formatter(&|y| format_number(*y))
                .draw()?;
            for (i, s) in self.series.iter().enumerate() {
                let color = Palette99::pick(i).to_rgba();
                let points: Vec<(f64, f64)> = s.points.iter().copied().filter(|&(x, y)| x > 0.0 && y > 0.0).collect();
                if points.is_empty() {
                    continue;
                }
                chart
                    .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
                    .label(s.name.clone())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
                chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()?;
            root.present()?;
            Ok(())
        };
        draw().map_err(|e| format!("cannot draw {}: {e}", path.display()))
    }
}

/// 1024 → "1024", 65536 → "2^16", 0.5 → "0.5", 1e-3 → "0.001".
pub fn format_number(x: f64) -> String {
    if x >= 1.0 && x.fract() == 0.0 && (x as u64).is_power_of_two() && x >= 4096.0 {
        format!("2^{}", (x as u64).trailing_zeros())
    } else if x >= 1.0 {
        format!("{}", (x * 100.0).round() / 100.0)
    } else {
        format!("{:.3}", x)
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(format_number(1024.0), "1024");
        assert_eq!(format_number(65536.0), "2^16");
        assert_eq!(format_number(2.5), "2.5");
        assert_eq!(format_number(0.25), "0.25");
    }

    #[test]
    fn writes_an_svg_and_refuses_an_empty_chart() {
        let dir = std::env::temp_dir().join(format!("xtask-chart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.svg");
        let chart = Chart {
            title: "t",
            x_label: "n",
            y_label: "ms",
            series: vec![Series {
                name: "ours".into(),
                points: vec![(256.0, 1.0), (1024.0, 5.0)],
            }],
        };
        chart.write_svg(&path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("ours"));
        let empty = Chart {
            series: vec![],
            ..chart
        };
        assert!(empty.write_svg(&dir.join("e.svg")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
