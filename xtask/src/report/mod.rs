//! docs/BENCHMARKS.md: tables of medians and ratios from criterion's stored
//! results and the NTL/FLINT harness, the machine and versions, the commands
//! to reproduce, and SVG charts (docs/benchmarks/*.svg).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use gfpf_field::Preset;

use crate::charts::{Chart, Series};
use crate::criterion_results::{Measurement, Results};

pub mod gpu_contest;
mod sections;
use sections::{fft_section, field_section, other_sections, products_section};

/// The presets of the product comparison.
const PEER_PRESETS: [&str; 4] = ["t8", "p8", "t16", "t64"];

/// Every preset's name, in table order.
const PRESETS: [&str; Preset::ALL.len()] = {
    let mut names = [""; Preset::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Preset::ALL[i].name();
        i += 1;
    }
    names
};

/// Field operations per iteration of the field_mul bench (its `BATCH`).
const FIELD_MUL_BATCH: f64 = 1024.0;

/// Smallest product size the targets speak of (n ≥ 2^8).
const TARGET_MIN_N: u64 = 1 << 8;

/// The harness's libraries, as the peers bench stores them: NTL, the
/// system's FLINT, and a second FLINT (FLINT 3 built from source) when the
/// bench ran with `FLINT_PREFIX`.
const PEER_LIBRARIES: [&str; 3] = ["NTL", "FLINT", "FLINT3"];

/// How the report was produced, for its "reproduce" section.
pub struct Commands {
    quick: bool,
}

impl Commands {
    /// The commands of a full (or `--quick`) run.
    pub fn new(quick: bool) -> Self {
        Self { quick }
    }
}

/// One library's timing from the harness.
#[derive(Debug, Clone)]
struct PeerPoint {
    library: String,
    version: String,
    gmp: String,
    n: u64,
    threads: u64,
    median_ms: f64,
}

/// The harness results for one preset.
#[derive(Debug, Default)]
struct PresetPeers {
    threads_all: u64,
    points: Vec<PeerPoint>,
    skipped: Option<String>,
    when: Option<SystemTime>,
}

fn load_peers(dir: &Path, preset: &str) -> Result<Option<PresetPeers>, String> {
    let path = dir.join(format!("{preset}.json"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let points = json["peers"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| PeerPoint {
                    library: p["library"].as_str().unwrap_or("?").to_string(),
                    version: p["version"].as_str().unwrap_or("?").to_string(),
                    gmp: p["gmp"].as_str().unwrap_or("?").to_string(),
                    n: p["n"].as_u64().unwrap_or(0),
                    threads: p["threads"].as_u64().unwrap_or(0),
                    median_ms: p["median_ms"].as_f64().unwrap_or(f64::NAN),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Some(PresetPeers {
        threads_all: json["threads_all"].as_u64().unwrap_or(0),
        points,
        skipped: json["skipped"].as_str().map(str::to_string),
        when: std::fs::metadata(&path).and_then(|m| m.modified()).ok(),
    }))
}

impl PresetPeers {
    /// The libraries of [`PEER_LIBRARIES`] with results, each with its
    /// label ("FLINT 3.7.0-dev").
    fn libraries(&self) -> Vec<(&'static str, String)> {
        PEER_LIBRARIES
            .iter()
            .filter_map(|&lib| {
                let point = self.points.iter().find(|p| p.library == lib)?;
                let name = lib.trim_end_matches('3');
                Some((lib, format!("{name} {}", point.version)))
            })
            .collect()
    }

    fn median_ms(&self, library: &str, n: u64, threads: u64) -> Option<f64> {
        self.points
            .iter()
            .find(|p| p.library == library && p.n == n && p.threads == threads)
            .map(|p| p.median_ms)
    }
}

/// This machine, as the report describes it.
struct Machine {
    cpu: String,
    threads: usize,
    memory: String,
    os: String,
    rustc: String,
    cxx: String,
    commit: String,
}

fn command_line(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
    })
}

impl Machine {
    fn read(root: &Path) -> Self {
        let file = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let field = |text: &str, key: &str| {
            text.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_once([':', '=']))
                .map(|(_, v)| v.trim().trim_matches('"').to_string())
        };
        let cpuinfo = file("/proc/cpuinfo");
        let memory = field(&file("/proc/meminfo"), "MemTotal")
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or("unknown".into(), |kib| format!("{:.1} GiB", kib / (1024.0 * 1024.0)));
        let git = |args: &[&str]| git(root, args);
        // The report itself (docs/) does not make the measured code dirty.
        let dirty = git(&["status", "--porcelain", "--", ".", ":!docs"]).is_some_and(|s| !s.is_empty());
        let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
        Machine {
            cpu: field(&cpuinfo, "model name").unwrap_or_else(|| "unknown".into()),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory,
            os: field(&file("/etc/os-release"), "PRETTY_NAME").unwrap_or_else(|| std::env::consts::OS.into()),
            rustc: command_line("rustc", &["-V"]).unwrap_or_else(|| "unknown".into()),
            cxx: command_line(&std::env::var("CXX").unwrap_or_else(|_| "g++".into()), &["--version"])
                .unwrap_or_else(|| "not found".into()),
            commit: if dirty {
                format!("{commit} (with uncommitted changes)")
            } else {
                commit
            },
        }
    }
}

/// "YYYY-MM-DD" (UTC) of a file time.
pub(crate) fn date(t: SystemTime) -> String {
    let days = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// "measured 2026-11-21" or "measured 2026-11-20 … 2026-11-21".
fn measured<'a>(times: impl Iterator<Item = &'a SystemTime>) -> String {
    let dates: Vec<String> = times.map(|t| date(*t)).collect();
    match (dates.iter().min(), dates.iter().max()) {
        (Some(a), Some(b)) if a == b => format!("measured {a}"),
        (Some(a), Some(b)) => format!("measured {a} … {b}"),
        _ => "not measured".into(),
    }
}

/// What `git args` prints in `root`, trimmed (none where git cannot run).
pub(crate) fn git(root: &Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .current_dir(root)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// A time in milliseconds with three significant digits and its unit.
pub(crate) fn time_ms(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else if ms >= 1.0 {
        format!("{} ms", sig3(ms))
    } else if ms >= 1e-3 {
        format!("{} µs", sig3(ms * 1e3))
    } else {
        format!("{} ns", sig3(ms * 1e6))
    }
}

fn sig3(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn opt_time(ms: Option<f64>) -> String {
    ms.map_or("–".into(), time_ms)
}

/// `theirs / ours` as "2.31x" (above 1: gfpf is faster).
fn speedup(theirs: Option<f64>, ours: Option<f64>) -> String {
    match (theirs, ours) {
        (Some(t), Some(o)) if o > 0.0 => format!("{:.2}x", t / o),
        _ => "–".into(),
    }
}

fn pow2(n: u64) -> String {
    if n.is_power_of_two() && n >= 1024 {
        format!("2^{}", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

/// Functions of a criterion group matching `pattern` (one `*` allowed).
fn matches(pattern: &str, id: &str) -> bool {
    match pattern.split_once('*') {
        Some((head, tail)) => id.len() >= head.len() + tail.len() && id.starts_with(head) && id.ends_with(tail),
        None => pattern == id,
    }
}

/// A table of one criterion group: one row per numeric parameter, one column
/// per function pattern, then ratio columns (numerator / denominator column).
struct GroupTable<'a> {
    group: String,
    columns: Vec<(&'a str, &'a str)>,
    ratios: Vec<(&'a str, usize, usize)>,
    /// Multiplies the stored nanoseconds into the unit shown (by `time_ms`).
    to_ms: fn(f64, u64) -> f64,
}

impl GroupTable<'_> {
    /// The markdown table, the chart lines (x = parameter) and the dates; None
    /// when the group has no stored results.
    fn build(&self, results: &Results, first_header: &str) -> Option<(String, Vec<Series>, Vec<SystemTime>)> {
        let mut params: Vec<u64> = results
            .in_group(&self.group)
            .filter_map(|(_, p, _)| p.parse().ok())
            .collect();
        params.sort_unstable();
        params.dedup();
        if params.is_empty() {
            return None;
        }
        let lookup = |pattern: &str, n: u64| -> Option<&Measurement> {
            results
                .in_group(&self.group)
                .find(|(f, p, _)| matches(pattern, f) && p.parse() == Ok(n))
                .map(|(_, _, m)| m)
        };
        let mut md = format!("| {first_header} |");
        for (header, _) in &self.columns {
            let _ = write!(md, " {header} |");
        }
        for (header, _, _) in &self.ratios {
            let _ = write!(md, " {header} |");
        }
        md.push_str("\n|---|");
        md.push_str(&"---:|".repeat(self.columns.len() + self.ratios.len()));
        md.push('\n');
        let mut series: Vec<Series> = self
            .columns
            .iter()
            .map(|(h, _)| Series {
                name: h.to_string(),
                points: vec![],
            })
            .collect();
        let mut when = Vec::new();
        for &n in &params {
            let values: Vec<Option<f64>> = self
                .columns
                .iter()
                .map(|(_, pattern)| {
                    lookup(pattern, n).map(|m| {
                        when.push(m.when);
                        (self.to_ms)(m.median_ns, n)
                    })
                })
                .collect();
            let _ = write!(md, "| {} |", pow2(n));
            for (i, v) in values.iter().enumerate() {
                let _ = write!(md, " {} |", opt_time(*v));
                if let Some(v) = v {
                    series[i].points.push((n as f64, *v));
                }
            }
            for &(_, num, den) in &self.ratios {
                let _ = write!(md, " {} |", speedup(values[num], values[den]));
            }
            md.push('\n');
        }
        Some((md, series, when))
    }
}

fn ns_to_ms(ns: f64, _: u64) -> f64 {
    ns * 1e-6
}

/// Everything the report is built from.
struct Inputs {
    results: Results,
    peers: Vec<(&'static str, PresetPeers)>,
    charts_dir: PathBuf,
    written: Vec<PathBuf>,
}

impl Inputs {
    /// Draws a chart into docs/benchmarks/ and returns the markdown link.
    fn chart(&mut self, file: &str, chart: Chart<'_>) -> Result<String, String> {
        let path = self.charts_dir.join(file);
        chart.write_svg(&path)?;
        self.written.push(path);
        Ok(format!("![{}](benchmarks/{file})\n", chart.title))
    }
}

/// Writes docs/BENCHMARKS.md and the charts; the paths written.
pub fn write(root: &Path, commands: &Commands) -> Result<Vec<PathBuf>, String> {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let mut peers = Vec::new();
    for preset in PEER_PRESETS {
        if let Some(p) = load_peers(&target.join("peers"), preset)? {
            peers.push((preset, p));
        }
    }
    let charts_dir = root.join("docs").join("benchmarks");
    std::fs::create_dir_all(&charts_dir).map_err(|e| format!("cannot create {}: {e}", charts_dir.display()))?;
    let mut inputs = Inputs {
        results: Results::load(&target.join("criterion"))?,
        peers,
        charts_dir,
        written: Vec::new(),
    };
    let machine = Machine::read(root);
    let mut md = String::new();
    md.push_str("<!-- generated by `cargo xtask bench`, do not edit -->\n# gfpf benchmarks\n\n");
    md.push_str(
        "Medians of criterion benches (gfpf, GMP through rug, the small-prime approach) and of the \
         NTL/FLINT harness, on the machine below. Ratios are *their time / our time*: above 1 means \
         gfpf is faster. \"1 thread\" is gfpf's serial mode and the libraries limited to one thread; \
         \"all threads\" uses every hardware thread of the machine.\n\n",
    );
    machine_section(&mut md, &machine, &inputs, commands);
    standing_section(&mut md, &inputs);
    products_section(&mut md, &mut inputs)?;
    field_section(&mut md, &mut inputs)?;
    fft_section(&mut md, &mut inputs)?;
    other_sections(&mut md, &mut inputs)?;
    let path = root.join("docs").join("BENCHMARKS.md");
    std::fs::write(&path, md).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    inputs.written.push(path);
    Ok(inputs.written)
}

fn machine_section(md: &mut String, m: &Machine, inputs: &Inputs, commands: &Commands) {
    let versions = |lib: &str| {
        inputs
            .peers
            .iter()
            .flat_map(|(_, p)| &p.points)
            .find(|p| p.library == lib)
            .map(|p| (p.version.clone(), p.gmp.clone()))
    };
    let ntl = versions("NTL");
    let flint = versions("FLINT");
    let flint3 = versions("FLINT3");
    let gmp = ntl.as_ref().or(flint.as_ref()).map_or("–".to_string(), |v| v.1.clone());
    let _ = write!(
        md,
        "## Machine and versions\n\n\
         | | |\n|---|---|\n\
         | CPU | {} |\n| hardware threads | {} |\n| memory | {} |\n| OS | {} |\n\
         | Rust | {} |\n| C++ compiler (harness) | {} |\n| NTL | {} |\n| FLINT (system) | {} |\n\
         | FLINT (`FLINT_PREFIX`, built from source) | {} |\n\
         | GMP (harness; rug builds its own copy) | {gmp} |\n| gfpf commit | {} |\n\n",
        m.cpu,
        m.threads,
        m.memory,
        m.os,
        m.rustc,
        m.cxx,
        ntl.map_or("not installed".into(), |v| v.0),
        flint.map_or("not installed".into(), |v| v.0),
        flint3.map_or("not run (set FLINT_PREFIX)".into(), |v| v.0),
        m.commit,
    );
    let bench = if commands.quick {
        "cargo xtask bench --quick"
    } else {
        "cargo xtask bench"
    };
    let _ = write!(
        md,
        "## Reproduce\n\n```sh\n\
         apt-get install -y m4 g++ libflint-dev libntl-dev   # GMP's build, the NTL/FLINT harness\n\
         cargo xtask verify                                  # every executor against the references\n\
         {bench}                                   # runs the benches, rewrites this file\n\
         ```\n\n\
         One part at a time: `cargo bench -p gfpf-benches --bench <name>` with name in field_mul, ntt, \
         dot, fft, small_primes, polymul, peers (sizes of `peers`: `GFPF_PEERS_LOG2N=8..=18`, t64 up to 2^14), then \
         `cargo xtask bench --report-only`. Without libflint-dev/libntl-dev the peers bench still times \
         gfpf and says why NTL and FLINT were skipped. `FLINT_PREFIX=/opt/flint3` (a FLINT 3 built \
         with `./configure --enable-avx2 --prefix=/opt/flint3`) adds it as a third library.\n\n"
    );
}

fn standing_section(md: &mut String, inputs: &Inputs) {
    md.push_str("## Where we stand\n\n");
    md.push_str(
        "Targets: polynomial products over t8, p8, t16 and t64 faster than every library here \
         at every n ≥ 2^8, on one thread and on all threads; over t8 at most half the time of the \
         faster of NTL and FLINT 3 at n = 2^14 and 2^16.\n\n",
    );
    let mut any = false;
    for (preset, peers) in &inputs.peers {
        if let Some(reason) = &peers.skipped {
            let _ = writeln!(md, "- {preset}: NTL and FLINT were not run: {reason}");
            continue;
        }
        let libraries = peers.libraries();
        for (threads, label, function) in [
            (1, "one thread", "gfpf_serial"),
            (peers.threads_all, "all threads", "gfpf_parallel"),
        ] {
            let group = format!("peers_{preset}");
            // n, then each library's time / ours (None where it did not run).
            let mut rows: Vec<(u64, Vec<Option<f64>>)> = Vec::new();
            let mut sizes: Vec<u64> = peers
                .points
                .iter()
                .map(|p| p.n)
                .filter(|&n| n >= TARGET_MIN_N)
                .collect();
            sizes.sort_unstable();
            sizes.dedup();
            for n in sizes {
                let Some(ours) = inputs
                    .results
                    .get(&group, function, &n.to_string())
                    .map(|m| m.median_ns * 1e-6)
                else {
                    continue;
                };
                let ratios = libraries
                    .iter()
                    .map(|(lib, _)| peers.median_ms(lib, n, threads).map(|t| t / ours))
                    .collect();
                rows.push((n, ratios));
            }
            if rows.is_empty() {
                continue;
            }
            any = true;
            let parts: Vec<String> = libraries
                .iter()
                .enumerate()
                .map(|(i, (_, name))| {
                    let list = |win: bool| -> String {
                        let v: Vec<String> = rows
                            .iter()
                            .filter_map(|(n, r)| r[i].filter(|&x| (x > 1.0) == win).map(|x| (n, x)))
                            .map(|(n, x)| format!("{} ({x:.2}x)", pow2(*n)))
                            .collect();
                        if v.is_empty() { "none".into() } else { v.join(", ") }
                    };
                    format!("Faster than {name} at {}; **slower at {}**", list(true), list(false))
                })
                .collect();
            let _ = writeln!(md, "- **{preset}, {label}** (n ≥ 2^8): {}.", parts.join(". "));
            if *preset == "t8" {
                for r in rows.iter().filter(|r| r.0 == 1 << 14 || r.0 == 1 << 16) {
                    // The faster peer has the smallest time / ours.
                    if let Some(best) = r.1.iter().flatten().copied().reduce(f64::min) {
                        let _ = writeln!(
                            md,
                            "  - t8 at {}, {label}: our time / the fastest library's = {:.2} (target ≤ 0.5): {}.",
                            pow2(r.0),
                            1.0 / best,
                            if 1.0 / best <= 0.5 { "met" } else { "not met" }
                        );
                    }
                }
            }
        }
    }
    if !any {
        md.push_str("No product comparison is stored yet: run `cargo xtask bench`.\n");
    }
    md.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_formats() {
        assert_eq!(date(SystemTime::UNIX_EPOCH), "1970-01-01");
        let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_795_219_200); // 2026-11-21
        assert_eq!(date(t), "2026-11-21");
        assert_eq!(time_ms(34.6), "34.6 ms");
        assert_eq!(time_ms(2040.0), "2.04 s");
        assert_eq!(time_ms(0.1234), "123 µs");
        assert_eq!(speedup(Some(3.0), Some(1.5)), "2.00x");
        assert_eq!(speedup(None, Some(1.0)), "–");
        assert_eq!(pow2(65536), "2^16");
        assert_eq!(pow2(256), "256");
        assert!(matches("bench1_*_serial", "bench1_9primes_serial"));
        assert!(!matches("bench1_*_serial", "bench1_9primes_parallel"));
        assert!(matches("gfpf_mul", "gfpf_mul"));
    }
}
