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
        let git = |args: &[&str]| {
            Command::new("git")
                .current_dir(root)
                .args(args)
                .output()
                .ok()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
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
fn date(t: SystemTime) -> String {
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

/// A time in milliseconds with three significant digits and its unit.
fn time_ms(ms: f64) -> String {
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

fn products_section(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    md.push_str(
        "## Polynomial products against NTL and FLINT\n\n\
         n × n products over GF(p) (n coefficients per input, product of 2n − 1): gfpf `PolyMul` \
         with `MulAlgorithm::Auto` (schoolbook for the shortest, then the multi-modular engine), NTL `ZZ_pX` `mul`, FLINT `fmpz_mod_poly_mul`, on the same \
         inputs; every library's product is checked against gfpf's (a checksum) in the same run. \
         Bench: `peers`.\n\n",
    );
    let presets: Vec<&'static str> = inputs.peers.iter().map(|(p, _)| *p).collect();
    for preset in presets {
        let group = format!("peers_{preset}");
        let peers = &inputs.peers.iter().find(|(p, _)| *p == preset).unwrap().1;
        let all = peers.threads_all;
        let mut sizes: Vec<u64> = inputs
            .results
            .in_group(&group)
            .filter_map(|(_, p, _)| p.parse().ok())
            .chain(peers.points.iter().map(|p| p.n))
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        if sizes.is_empty() {
            continue;
        }
        let mut when: Vec<SystemTime> = peers.when.into_iter().collect();
        let mut series: Vec<Series> = Vec::new();
        let mut push = |name: String, n: u64, v: Option<f64>| {
            if let Some(v) = v {
                match series.iter_mut().find(|s| s.name == name) {
                    Some(s) => s.points.push((n as f64, v)),
                    None => series.push(Series {
                        name,
                        points: vec![(n as f64, v)],
                    }),
                }
            }
        };
        let libraries = peers.libraries();
        let mut header = String::from("| n | gfpf 1 thread |");
        for (_, name) in &libraries {
            let _ = write!(header, " {name} 1 thread |");
        }
        let _ = write!(header, " gfpf {all} threads |");
        for (_, name) in &libraries {
            let _ = write!(header, " {name} {all} threads |");
        }
        for threads in [1, all] {
            for (_, name) in &libraries {
                let _ = write!(header, " {name} / gfpf ({threads}) |");
            }
        }
        let columns = 2 + 3 * libraries.len() + libraries.len();
        let _ = write!(md, "### {preset}\n\n{header}\n|---|{}\n", "---:|".repeat(columns));
        for n in sizes {
            let mut ours = |f: &str| {
                inputs.results.get(&group, f, &n.to_string()).map(|m| {
                    when.push(m.when);
                    m.median_ns * 1e-6
                })
            };
            let (g1, ga) = (ours("gfpf_serial"), ours("gfpf_parallel"));
            let theirs = |threads: u64| -> Vec<Option<f64>> {
                libraries
                    .iter()
                    .map(|(lib, _)| peers.median_ms(lib, n, threads))
                    .collect()
            };
            let (t1, ta) = (theirs(1), theirs(all));
            let mut row = format!("| {} | {} |", pow2(n), opt_time(g1));
            for &t in &t1 {
                let _ = write!(row, " {} |", opt_time(t));
            }
            let _ = write!(row, " {} |", opt_time(ga));
            for &t in &ta {
                let _ = write!(row, " {} |", opt_time(t));
            }
            for (times, ours) in [(&t1, g1), (&ta, ga)] {
                for &t in times {
                    let _ = write!(row, " {} |", speedup(t, ours));
                }
            }
            let _ = writeln!(md, "{row}");
            push("gfpf, 1 thread".to_string(), n, g1);
            for ((_, name), &t) in libraries.iter().zip(&t1) {
                push(format!("{name}, 1 thread"), n, t);
            }
            push(format!("gfpf, {all} threads"), n, ga);
            for ((_, name), &t) in libraries.iter().zip(&ta) {
                push(format!("{name}, {all} threads"), n, t);
            }
        }
        let _ = writeln!(md, "\n({})\n", measured(when.iter()));
        let title = format!("n x n polynomial product over {preset}");
        md.push_str(&inputs.chart(
            &format!("products_{preset}.svg"),
            Chart {
                title: &title,
                x_label: "n (coefficients per input)",
                y_label: "time (ms)",
                series,
            },
        )?);
        md.push('\n');
    }
    Ok(())
}

fn field_section(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    md.push_str(
        "## Field multiplication against GMP\n\n\
         One multiplication in GF(p), averaged over 1024 random pairs: gfpf's `Field::mul` (the method \
         the field chose: schoolbook digit products or the convolution method) and its squaring, \
         against rug (GMP) `mul` then `%` p; the bench also times the method the field did not \
         choose, the products four at a time (`Field::mul_lanes`, their chains of divisions \
         overlapped) and eight at a time in SIMD lanes (`LaneArith::mul_assign_each` on the CPU's \
         best lane instruction set: with AVX-512 IFMA in lanes for every preset (k ≤ 128, the \
         columns by Karatsuba steps from k = 16), four blocks of eight with their carry chains \
         interleaved, else four at a time; the blocks multiplied in place by fixed factors, as the \
         FFT's twiddles are). Bench: `field_mul`.\n\n\
         | preset | k | method | gfpf mul | other method | gfpf square | gfpf mul, 4 lanes | gfpf mul, SIMD lanes | GMP mulmod | GMP / gfpf | GMP / 4 lanes | GMP / SIMD lanes |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let per_op = |m: &Measurement| m.median_ns * 1e-6 / FIELD_MUL_BATCH;
    let mut when = Vec::new();
    let mut ours = Series {
        name: "gfpf mul".into(),
        points: vec![],
    };
    let mut gmp = Series {
        name: "GMP mulmod".into(),
        points: vec![],
    };
    let mut rows = 0;
    for preset in PRESETS {
        let group = format!("field_mul/{preset}");
        let get = |f: &str| inputs.results.get(&group, f, "");
        let (Some(mul), Some(gm)) = (get("gfpf_mul"), get("gmp_mulmod")) else {
            continue;
        };
        when.extend([mul.when, gm.when]);
        let k: u64 = preset[1..].parse().unwrap_or(0);
        let (m, g) = (per_op(mul), per_op(gm));
        // The bench names the method it times besides the field's own choice.
        let (method, other) = match (get("gfpf_mul_convolution"), get("gfpf_mul_schoolbook")) {
            (Some(conv), _) => ("schoolbook", format!("convolution {}", time_ms(per_op(conv)))),
            (None, Some(school)) => ("convolution", format!("schoolbook {}", time_ms(per_op(school)))),
            (None, None) => ("?", "-".to_string()),
        };
        let lanes = get("gfpf_mul_lanes4").map(per_op);
        let simd = get("gfpf_mul_simd8").map(per_op);
        let ratio = |t: Option<f64>| t.map_or("–".to_string(), |t| format!("{:.2}x", g / t));
        let _ = writeln!(
            md,
            "| {preset} | {k} | {method} | {} | {other} | {} | {} | {} | {} | {:.2}x | {} | {} |",
            time_ms(m),
            opt_time(get("gfpf_square").map(per_op)),
            opt_time(lanes),
            opt_time(simd),
            time_ms(g),
            g / m,
            ratio(lanes),
            ratio(simd)
        );
        if preset.starts_with('p') {
            ours.points.push((k as f64, m * 1e6));
            gmp.points.push((k as f64, g * 1e6));
        }
        rows += 1;
    }
    if rows == 0 {
        md.push_str(
            "| – | | | | | | | | | | | |\n\nNot measured yet: `cargo bench -p gfpf-benches --bench field_mul`.\n\n",
        );
        return Ok(());
    }
    let _ = writeln!(md, "\n({})\n", measured(when.iter()));
    md.push_str(&inputs.chart(
        "field_mul.svg",
        Chart {
            title: "one multiplication in GF(p), p-presets",
            x_label: "k (64-bit digits)",
            y_label: "time (ns)",
            series: vec![ours, gmp],
        },
    )?);
    md.push('\n');
    Ok(())
}

/// A section with one table (and, when `chart` is set, one chart) per preset
/// that has results in the criterion group `<prefix><preset>`.
struct PerPreset<'a> {
    intro: &'a str,
    prefix: &'a str,
    /// Chart title; `{preset}` is replaced.
    title: &'a str,
    columns: Vec<(&'a str, &'a str)>,
    ratios: Vec<(&'a str, usize, usize)>,
    chart: bool,
}

fn per_preset_section(md: &mut String, inputs: &mut Inputs, section: PerPreset<'_>) -> Result<(), String> {
    md.push_str(section.intro);
    for preset in PRESETS {
        let table = GroupTable {
            group: format!("{}{preset}", section.prefix),
            columns: section.columns.clone(),
            ratios: section.ratios.clone(),
            to_ms: ns_to_ms,
        };
        let Some((table_md, series, when)) = table.build(&inputs.results, "N") else {
            continue;
        };
        let _ = write!(md, "### {preset}\n\n{table_md}\n({})\n\n", measured(when.iter()));
        if section.chart {
            let title = section.title.replace("{preset}", preset);
            md.push_str(&inputs.chart(
                &format!("{}{preset}.svg", section.prefix),
                Chart {
                    title: &title,
                    x_label: "N",
                    y_label: "time (ms)",
                    series,
                },
            )?);
            md.push('\n');
        }
    }
    Ok(())
}

fn fft_section(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    per_preset_section(
        md,
        inputs,
        PerPreset {
            intro: "## FFT against the same algorithm on GMP\n\n\
                    Forward DFT of size N, natural order: gfpf's CPU executor against the same six-step \
                    driver and generated codelets running on rug integers (ISSAC 2019's GMP variant). \
                    Bench: `fft`.\n\n",
            prefix: "fft_",
            title: "forward FFT over {preset}",
            columns: vec![
                ("gfpf 1 thread", "gfpf_serial"),
                ("GMP 1 thread", "gmp_serial"),
                ("gfpf all threads", "gfpf_parallel"),
                ("GMP all threads", "gmp_parallel"),
            ],
            ratios: vec![("GMP / gfpf (1)", 1, 0), ("GMP / gfpf (all)", 3, 2)],
            chart: true,
        },
    )
}

fn other_sections(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    per_preset_section(
        md,
        inputs,
        PerPreset {
            intro: "## Big prime against small primes (thesis chapter 7)\n\n\
                    The same GF(p) DFT computed by gfpf and by the small-prime approach: benchmark 1 \
                    projects the input to s word-size primes, runs s NTTs and reconstructs (same output), \
                    over 62-bit primes on the scalar `Plan` (62) and over 50-bit primes on `Plan52` (52: \
                    AVX-512 IFMA or AVX2 lanes, the project's fastest NTT; more primes); benchmark 2 is \
                    k `Plan52` NTTs alone over the same input bytes. Bench: `small_primes`.\n\n",
            prefix: "big_vs_small_",
            title: "GF(p) DFT over {preset}: big prime vs small primes",
            columns: vec![
                ("gfpf 1 thread", "gfpf_serial"),
                ("bench 1 (62), 1 thread", "bench1_*_serial"),
                ("bench 1 (52), 1 thread", "bench1p52_*_serial"),
                ("bench 2, 1 thread", "bench2_*_serial"),
                ("gfpf all threads", "gfpf_parallel"),
                ("bench 1 (62), all threads", "bench1_*_parallel"),
                ("bench 1 (52), all threads", "bench1p52_*_parallel"),
            ],
            ratios: vec![
                ("bench 1 (62) / gfpf (1)", 1, 0),
                ("bench 1 (52) / gfpf (1)", 2, 0),
                ("bench 1 (62) / gfpf (all)", 5, 4),
                ("bench 1 (52) / gfpf (all)", 6, 4),
            ],
            chart: true,
        },
    )?;
    per_preset_section(
        md,
        inputs,
        PerPreset {
            intro: "## Polynomial products against GMP and small primes\n\n\
                    The same products against GMP (Kronecker substitution, one `mpz_mul`) and the \
                    small-prime approach (s NTT convolutions, CRT, reduction mod p); N is the number of \
                    coefficients per input. Bench: `polymul`.\n\n",
            prefix: "polymul_",
            title: "",
            columns: vec![
                ("gfpf 1 thread", "gfpf_serial"),
                ("gfpf all threads", "gfpf_parallel"),
                ("GMP Kronecker", "gmp_kronecker"),
                ("small primes, 1 thread", "small_primes_serial_*"),
                ("small primes, all threads", "small_primes_parallel_*"),
            ],
            ratios: vec![("GMP / gfpf (1)", 2, 0), ("small primes / gfpf (all)", 4, 1)],
            chart: false,
        },
    )?;
    md.push_str(
        "## Word-size layer (gfpf-small)\n\nForward + inverse NTT, one thread (but the last column), ns per butterfly \
         (n/2 · log2 n butterflies each way), against the `concrete-ntt` crate (0.2, stable Rust: \
         AVX2) on the same prime in the same run. `Plan` is the 62-bit-capable scalar code; for \
         q < 2^50, `Plan52` runs in f64 lanes (AVX2 + FMA) or 52-bit integer lanes (AVX-512 IFMA), \
         whichever this CPU has. Bench: `ntt`.\n\n",
    );
    let per_butterfly = |ns: f64, n: u64| ns / (n as f64 * f64::from(n.max(2).trailing_zeros())) * 1e-6;
    let mut ntt_series = Vec::new();
    for q in ["q50", "q62", "q31"] {
        let mut columns = vec![("Plan", "forward_inverse")];
        let mut ratios = vec![("Plan / concrete-ntt", 0, 1)];
        columns.push(("concrete-ntt", "concrete_ntt"));
        if q == "q50" {
            columns.push(("Plan52, AVX2 + FMA", "lanes52_Avx2Fma"));
            columns.push(("Plan52, AVX-512 IFMA", "lanes52_Avx512Ifma"));
            columns.push(("Plan52, all threads", "lanes52_all_threads"));
            ratios.push(("AVX2 / concrete-ntt", 2, 1));
            ratios.push(("IFMA / concrete-ntt", 3, 1));
        }
        let table = GroupTable {
            group: format!("ntt/{q}"),
            columns: columns.clone(),
            ratios,
            to_ms: per_butterfly,
        };
        if let Some((table_md, mut series, when)) = table.build(&inputs.results, "n") {
            let _ = write!(md, "### {q}\n\n{table_md}\n({})\n\n", measured(when.iter()));
            for (line, (header, _)) in series.iter_mut().zip(&columns) {
                line.name = format!("{q} {header}");
                // The chart shows nanoseconds.
                line.points.iter_mut().for_each(|p| p.1 *= 1e6);
            }
            ntt_series.extend(series.into_iter().filter(|line| !line.points.is_empty()));
        }
    }
    if !ntt_series.is_empty() {
        md.push_str(&inputs.chart(
            "ntt.svg",
            Chart {
                title: "word-size NTT, forward + inverse",
                x_label: "n",
                y_label: "ns per butterfly",
                series: ntt_series,
            },
        )?);
        md.push('\n');
    }
    let dot = GroupTable {
        group: "dot/q50".into(),
        columns: vec![
            ("f64 λ-algorithm", "f64_lambda"),
            ("f64 (α, β, γ, δ) split", "f64_split"),
            ("integer Montgomery", "int_montgomery"),
        ],
        ratios: vec![("Montgomery / split", 2, 1)],
        to_ms: ns_to_ms,
    };
    if let Some((table_md, series, when)) = dot.build(&inputs.results, "n") {
        let _ = write!(
            md,
            "### Dot product mod a 50-bit prime\n\n{table_md}\n({})\n\n",
            measured(when.iter())
        );
        md.push_str(&inputs.chart(
            "dot.svg",
            Chart {
                title: "dot product mod q < 2^50",
                x_label: "n",
                y_label: "time (ms)",
                series,
            },
        )?);
        md.push('\n');
    }
    Ok(())
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
