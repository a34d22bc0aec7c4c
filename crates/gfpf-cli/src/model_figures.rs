//! The GPU time model's figures, for `gfpf bench --device cuda --model FILE`
//! to print beside what the GPU measures: the file `cargo xtask gpu-model
//! --contest` writes (docs/benchmarks/gpu_contest.json for an H100,
//! gpu_contest_h200.json for an H200), with the modelled
//! forward DFT_N and n × n products of the big prime (and of word-size
//! primes) for t8, p8 and t16, N = 2^12 to 2^24.

use std::path::Path;

use serde_json::Value;

/// One modelled size: the fitted model's time and its floor (ms), for the
/// big prime and, where the word-size primes reach, for them.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRow {
    /// The preset's name.
    pub preset: String,
    /// log2 of the transform's length (a product of n × n coefficients
    /// takes transforms of 2n).
    pub log2_n: u32,
    /// The big prime, fitted and floor.
    pub big_ms: (f64, f64),
    /// The word-size primes, fitted and floor, where enough exist.
    pub small_ms: Option<(f64, f64)>,
}

/// A model file's rows and what it was counted at.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelFigures {
    /// The GPU modelled ("H100 SXM", "H200 SXM"; files without one are
    /// the H100's).
    pub gpu: String,
    /// The commit its kernels were counted at.
    pub commit: String,
    /// The day it was run.
    pub date: String,
    dft: Vec<ModelRow>,
    products: Vec<ModelRow>,
}

impl ModelFigures {
    /// Reads and parses `path`; errors name the file and the problem.
    pub fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| {
            format!(
                "{}: not a GPU model file (cargo xtask gpu-model --contest): {e}",
                path.display()
            )
        })
    }

    /// Parses the JSON `cargo xtask gpu-model --contest` writes.
    pub fn parse(text: &str) -> Result<Self, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let text_of = |key: &str| {
            v.get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| format!("no \"{key}\""))
        };
        let rows = |key: &str| -> Result<Vec<ModelRow>, String> {
            v.get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| format!("no \"{key}\" rows"))?
                .iter()
                .map(|r| row(r).ok_or_else(|| format!("a malformed row of \"{key}\": {r}")))
                .collect()
        };
        Ok(ModelFigures {
            gpu: text_of("gpu").unwrap_or_else(|_| "H100 SXM".to_owned()),
            commit: text_of("commit")?,
            date: text_of("date")?,
            dft: rows("dft")?,
            products: rows("products")?,
        })
    }

    /// Whether the model's GPU is `device_name` (as the driver names it,
    /// "NVIDIA H200"): its first word ("H200") is among the name's.
    pub fn models(&self, device_name: &str) -> bool {
        let model = self.gpu.split_whitespace().next().unwrap_or_default();
        device_name.split_whitespace().any(|w| w.eq_ignore_ascii_case(model))
    }

    /// The modelled forward DFT_N of `preset` (one transform), if any.
    pub fn dft(&self, preset: &str, n: usize) -> Option<&ModelRow> {
        find(&self.dft, preset, n)
    }

    /// The modelled product of n × n coefficients of `preset`, if any.
    pub fn product(&self, preset: &str, n: usize) -> Option<&ModelRow> {
        find(&self.products, preset, 2 * n)
    }
}

fn find<'a>(rows: &'a [ModelRow], preset: &str, n: usize) -> Option<&'a ModelRow> {
    n.is_power_of_two()
        .then(|| {
            rows.iter()
                .find(|r| r.preset == preset && r.log2_n == n.trailing_zeros())
        })
        .flatten()
}

fn row(v: &Value) -> Option<ModelRow> {
    let ms = |key: &str| v.get(key).and_then(Value::as_f64);
    Some(ModelRow {
        preset: v.get("preset")?.as_str()?.to_owned(),
        log2_n: u32::try_from(v.get("log2_n")?.as_u64()?).ok()?,
        big_ms: (ms("big_ms")?, ms("big_floor_ms")?),
        small_ms: ms("small_ms").zip(ms("small_floor_ms")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository's own model file parses, and has t8's rows.
    #[test]
    fn the_repository_model_file_parses() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/benchmarks/gpu_contest.json");
        let figures = ModelFigures::read(&path).unwrap();
        assert_eq!(figures.gpu, "H100 SXM");
        let row = figures.dft("t8", 1 << 20).unwrap();
        // Fitted, then the floor: never below it (equal where the launches
        // are bound by a term the path cost does not enter, as t8 2^20's
        // pairs by their shared memory).
        assert!(row.big_ms.0 >= row.big_ms.1 && row.big_ms.1 > 0.0, "{row:?}");
        assert!(figures.product("t8", 1 << 20).unwrap().small_ms.is_some());
        assert!(figures.product("t8", 1 << 12).is_some());
        assert!(figures.dft("t8", 3 << 10).is_none());
        assert!(figures.dft("t2", 1 << 12).is_none());
    }

    /// The model's GPU against the driver's name for the device.
    #[test]
    fn the_model_names_its_gpu() {
        let h200 = r#"{"gpu": "H200 SXM", "commit": "abc", "date": "2026-11-29", "dft": [], "products": []}"#;
        let figures = ModelFigures::parse(h200).unwrap();
        assert_eq!(figures.gpu, "H200 SXM");
        assert!(figures.models("NVIDIA H200"));
        assert!(!figures.models("NVIDIA H100 80GB HBM3"));
        let h100 = ModelFigures::parse(r#"{"commit": "abc", "date": "d", "dft": [], "products": []}"#).unwrap();
        assert!(h100.models("NVIDIA H100 80GB HBM3"));
        assert!(!h100.models("NVIDIA H200"));
    }

    #[test]
    fn malformed_files_are_named_errors() {
        let ok = r#"{"commit": "abc", "date": "2026-11-26", "dft": [], "products": []}"#;
        assert!(ModelFigures::parse(ok).is_ok());
        for (text, needle) in [
            ("{", "EOF"),
            (r#"{"date": "d", "dft": [], "products": []}"#, "no \"commit\""),
            (r#"{"commit": "c", "date": "d", "products": []}"#, "no \"dft\" rows"),
            (
                r#"{"commit": "c", "date": "d", "dft": [{"preset": "t8"}], "products": []}"#,
                "a malformed row of \"dft\"",
            ),
        ] {
            let e = ModelFigures::parse(text).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
        let e = ModelFigures::read(Path::new("/nonexistent/model.json")).unwrap_err();
        assert!(e.starts_with("/nonexistent/model.json: "), "{e}");
    }
}
