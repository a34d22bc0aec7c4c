//! The thesis's contest on the GPU, as the time model gives it: written by
//! `cargo xtask gpu-model --contest` into docs/benchmarks/gpu_contest.json
//! (the model's figures and how they were made) and rendered into
//! docs/BENCHMARKS.md, both by that task and by every later report.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::time_ms;
#[cfg(any(feature = "model", test))]
use serde_json::json;

/// The section's heading, by which the report and the model task find it
/// (the H100's contest: the GPU the model was fitted on).
pub const HEADING: &str = "## Big prime against small primes on the GPU (thesis chapter 7, model)";

/// The GPUs whose contests the model writes: name (as the model's
/// `Gpu::name` and the JSON's "gpu"), the data file in docs/benchmarks,
/// the section's heading, and the `gpu-model` flag that writes it.
pub const GPUS: &[(&str, &str, &str, &str)] = &[
    ("H100 SXM", "gpu_contest.json", HEADING, ""),
    (
        "H200 SXM",
        "gpu_contest_h200.json",
        "## Big prime against small primes on an H200 (thesis chapter 7, model)",
        " --gpu h200",
    ),
];

/// `gpu`'s entry of [`GPUS`] (the H100's for a name it lacks).
fn gpu_entry(gpu: &str) -> &'static (&'static str, &'static str, &'static str, &'static str) {
    GPUS.iter().find(|(name, ..)| *name == gpu).unwrap_or(&GPUS[0])
}

/// The heading the section goes before when BENCHMARKS.md has none yet.
#[cfg(any(feature = "model", test))]
const NEXT_HEADING: &str = "## Polynomial products against GMP and small primes";

/// One size of one contest: the big prime's time and the small primes'
/// (none where too few word-size primes have the 2-adicity), fitted and
/// floor.
#[derive(Debug, Clone, PartialEq)]
pub struct ContestRow {
    /// Preset name.
    pub preset: String,
    /// log2 of N (the transform's size; the product's padded length).
    pub log2_n: u32,
    /// The big prime: fitted model, ms.
    pub big_ms: f64,
    /// The big prime at the floor, ms.
    pub big_floor_ms: f64,
    /// The small primes, fitted model, ms.
    pub small_ms: Option<f64>,
    /// The small primes at the floor, ms.
    pub small_floor_ms: Option<f64>,
    /// Primes the small-prime side needs.
    pub primes: usize,
    /// Primes of that width with 2^log2_n dividing q − 1 (at most the
    /// needed).
    pub primes_available: usize,
    /// Bits of the small primes: 31 (32-bit words), or 50 (FP64) or 62
    /// (64-bit words) where too few 31-bit primes reach the row.
    pub prime_bits: u32,
}

/// The model's contest: the DFT (benchmark 1) and the products.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuContest {
    /// The GPU modelled (a name of [`GPUS`]).
    pub gpu: String,
    /// What the figures are (the model's description and constants).
    pub model: String,
    /// The commit the kernels were counted at.
    pub commit: String,
    /// The day it was run (UTC, YYYY-MM-DD).
    pub date: String,
    /// Benchmark 1: forward DFT_N against projection, s NTTs, join.
    pub dft: Vec<ContestRow>,
    /// Products of N/2 × N/2 coefficients.
    pub products: Vec<ContestRow>,
}

#[cfg(any(feature = "model", test))]
fn row_json(r: &ContestRow) -> Value {
    json!({
        "preset": r.preset,
        "log2_n": r.log2_n,
        "big_ms": r.big_ms,
        "big_floor_ms": r.big_floor_ms,
        "small_ms": r.small_ms,
        "small_floor_ms": r.small_floor_ms,
        "primes": r.primes,
        "primes_available": r.primes_available,
        "prime_bits": r.prime_bits,
    })
}

fn row_of(v: &Value) -> Option<ContestRow> {
    let count = |key: &str| v.get(key)?.as_u64().map(|x| x as usize);
    Some(ContestRow {
        preset: v.get("preset")?.as_str()?.to_owned(),
        log2_n: v.get("log2_n")?.as_u64()? as u32,
        big_ms: v.get("big_ms")?.as_f64()?,
        big_floor_ms: v.get("big_floor_ms")?.as_f64()?,
        small_ms: v.get("small_ms").and_then(Value::as_f64),
        small_floor_ms: v.get("small_floor_ms").and_then(Value::as_f64),
        primes: count("primes")?,
        primes_available: count("primes_available")?,
        // Rows written before 62-bit primes were modelled are all 31-bit.
        prime_bits: v.get("prime_bits").and_then(Value::as_u64).map_or(31, |b| b as u32),
    })
}

impl GpuContest {
    /// The JSON the report reads back (written by `gpu-model --contest`).
    #[cfg(any(feature = "model", test))]
    pub fn to_json(&self) -> String {
        let v = json!({
            "gpu": self.gpu,
            "model": self.model,
            "commit": self.commit,
            "date": self.date,
            "dft": self.dft.iter().map(row_json).collect::<Vec<_>>(),
            "products": self.products.iter().map(row_json).collect::<Vec<_>>(),
        });
        serde_json::to_string_pretty(&v).expect("plain JSON values") + "\n"
    }

    /// Parses the output of `GpuContest::to_json` (built with the `model`
    /// feature: `gpu-model --contest` writes it).
    pub fn from_json(text: &str) -> Result<Self, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let text_of = |key: &str| {
            v.get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| format!("no {key}"))
        };
        let rows = |key: &str| -> Result<Vec<ContestRow>, String> {
            v.get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| format!("no {key}"))?
                .iter()
                .map(|r| row_of(r).ok_or_else(|| format!("a malformed row in {key}: {r}")))
                .collect()
        };
        Ok(GpuContest {
            // Files written before the H200 was modelled are the H100's.
            gpu: text_of("gpu").unwrap_or_else(|_| GPUS[0].0.to_owned()),
            model: text_of("model")?,
            commit: text_of("commit")?,
            date: text_of("date")?,
            dft: rows("dft")?,
            products: rows("products")?,
        })
    }
}

/// Where `gpu`'s contest data live.
pub fn data_path(root: &Path, gpu: &str) -> PathBuf {
    root.join("docs").join("benchmarks").join(gpu_entry(gpu).1)
}

/// The contests' data the model task has written, in [`GPUS`]' order.
pub fn load(root: &Path) -> Result<Vec<GpuContest>, String> {
    let mut contests = Vec::new();
    for (gpu, ..) in GPUS {
        let path = data_path(root, gpu);
        match std::fs::read_to_string(&path) {
            Ok(text) => contests.push(GpuContest::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
    }
    Ok(contests)
}

fn table(md: &mut String, rows: &[ContestRow], size_header: &str, size: &impl Fn(u32) -> String) {
    let _ = writeln!(
        md,
        "| preset | {size_header} | big prime | floor | small primes | floor | primes | small / big |"
    );
    md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let (small, small_floor, ratio) = match (r.small_ms, r.small_floor_ms) {
            (Some(s), Some(f)) => (time_ms(s), time_ms(f), format!("{:.2}", s / r.big_ms)),
            _ => (
                format!("— ({} of {} primes)", r.primes_available, r.primes),
                "—".to_owned(),
                "—".to_owned(),
            ),
        };
        let primes = if r.prime_bits == 31 {
            r.primes.to_string()
        } else {
            format!("{} × {}-bit", r.primes, r.prime_bits)
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {small} | {small_floor} | {primes} | {ratio} |",
            r.preset,
            size(r.log2_n),
            time_ms(r.big_ms),
            time_ms(r.big_floor_ms),
        );
    }
    md.push('\n');
}

/// Where each side wins, in a sentence per preset (sizes as `size` names
/// them).
fn verdict(rows: &[ContestRow], size: &impl Fn(u32) -> String) -> String {
    let mut presets: Vec<&str> = Vec::new();
    for r in rows {
        if !presets.contains(&r.preset.as_str()) {
            presets.push(&r.preset);
        }
    }
    let mut out = String::new();
    for p in presets {
        let pow = |r: &&ContestRow| size(r.log2_n);
        let of: Vec<&ContestRow> = rows.iter().filter(|r| r.preset == p).collect();
        let small: Vec<String> = of
            .iter()
            .filter(|r| r.small_ms.is_some_and(|s| s < r.big_ms))
            .map(pow)
            .collect();
        let big: Vec<String> = of
            .iter()
            .filter(|r| r.small_ms.is_some_and(|s| s >= r.big_ms))
            .map(pow)
            .collect();
        let none: Vec<String> = of.iter().filter(|r| r.small_ms.is_none()).map(pow).collect();
        let list = |v: &[String]| if v.is_empty() { "none".to_owned() } else { v.join(", ") };
        let missing = if none.is_empty() {
            String::new()
        } else {
            format!("; not enough word-size primes at {}", list(&none))
        };
        let _ = writeln!(
            out,
            "- **{p}**: small primes faster at {}; big prime faster at {}{missing}.",
            list(&small),
            list(&big),
        );
    }
    out
}

/// The section's markdown.
pub fn section(c: &GpuContest) -> String {
    let mut md = String::new();
    let (_, file, heading, flag) = gpu_entry(&c.gpu);
    let _ = writeln!(md, "{heading}\n");
    let _ = writeln!(
        md,
        "**Modelled, not measured**: no GPU was at hand. {} Kernels counted in the block-level emulator at \
         commit {}, {}. Reproduce: `cargo xtask gpu-model --contest{flag}` (rewrites this section and \
         `docs/benchmarks/{file}`). Each time is given on the model's fitted path cost and at \
         its floor (the path term at 4 cycles an instruction), since the fit was made on the old \
         one-thread-per-DFT kernels; with the element teams' operations on the path as ptxas \
         scheduled them (`cargo xtask gpu-model --transform`, docs/DESIGN.md), no launch counted is \
         bound by its path, and the floor stands.\n",
        c.model, c.commit, c.date
    );
    md.push_str(
        "Small primes: 31-bit primes q with 2^log2(N) dividing q − 1, Montgomery and Shoup products on the \
         32-bit multiplier (kernels/gfpf_ntt.cu, kernels/gfpf_multimodular.cuh). 41 such primes reach N = \
         2^21, 18 reach 2^22, 7 reach 2^24; where fewer exist than a row needs, the row takes primes c·2^32 \
         + 1 below 2^50 whose NTTs run in FP64, as an H100 or H200 does (its FP64 rate is its integer rate; marked \
         \"50-bit\": 0.6 times as many primes, 1.5 times the work an NTT butterfly); a GPU without fast \
         FP64 takes primes c·2^32 + 1 below 2^62 in 64-bit integers there (\"62-bit\": half as many \
         primes, four times the work a butterfly; `cargo xtask gpu-model` prints both).\n\n",
    );
    md.push_str(
        "### The DFT (benchmark 1)\n\nThe big prime's forward DFT_N (natural order, the device's kernels) \
         against the small-prime pipeline for an output of the same size: the N values projected onto s \
         primes (enough for every value below p, with 2^10 of room), s forward NTTs of size N, and the N \
         values joined back by the explicit CRT. The CPU's contest is in the section above.\n\n",
    );
    let n = |l: u32| format!("2^{l}");
    table(&mut md, &c.dft, "N", &n);
    md.push_str(&verdict(&c.dft, &n));
    md.push_str(
        "\n### Products\n\nProducts of n × n coefficients (N = 2n): the big prime's whole product as the \
         device runs it (two forward transforms of N to digit-reversed order, in frequency, the pointwise \
         product, and the inverse from it) against the whole small-prime product \
         (two projections, two forward NTTs, the inverse NTT whose first launch makes the pointwise product, \
         the join), s primes for \
         n·p².\n\n",
    );
    let half = |l: u32| format!("2^{}", l - 1);
    table(&mut md, &c.products, "n", &half);
    md.push_str(&verdict(&c.products, &half));
    md.push('\n');
    md
}

/// Rewrites `gpu`'s section in `benchmarks_md` (replacing the old one, or
/// inserting it before the products against GMP, or at the end).
#[cfg(any(feature = "model", test))]
pub fn splice(benchmarks_md: &str, gpu: &str, section: &str) -> String {
    let heading = gpu_entry(gpu).2;
    if let Some(start) = benchmarks_md.find(heading) {
        let rest = &benchmarks_md[start + heading.len()..];
        let end = rest
            .find("\n## ")
            .map_or(benchmarks_md.len(), |i| start + heading.len() + i + 1);
        return format!("{}{section}{}", &benchmarks_md[..start], &benchmarks_md[end..]);
    }
    match benchmarks_md.find(NEXT_HEADING) {
        Some(at) => format!("{}{section}{}", &benchmarks_md[..at], &benchmarks_md[at..]),
        None => format!("{benchmarks_md}\n{section}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contest() -> GpuContest {
        let row = |log2_n, small: Option<f64>| ContestRow {
            preset: "t8".into(),
            log2_n,
            big_ms: 1.0,
            big_floor_ms: 0.5,
            small_ms: small,
            small_floor_ms: small.map(|s| s / 2.0),
            primes: 18,
            primes_available: if small.is_some() { 18 } else { 10 },
            prime_bits: if log2_n == 23 { 62 } else { 31 },
        };
        GpuContest {
            gpu: "H100 SXM".into(),
            model: "H100".into(),
            commit: "abc".into(),
            date: "2026-11-25".into(),
            dft: vec![row(12, Some(0.5)), row(14, Some(2.0)), row(24, None)],
            products: vec![row(13, Some(0.7)), row(23, Some(0.9))],
        }
    }

    #[test]
    fn json_round_trip_and_section() {
        let c = contest();
        assert_eq!(GpuContest::from_json(&c.to_json()).unwrap(), c);
        let md = section(&c);
        assert!(
            md.contains("| t8 | 2^12 | 1.00 ms | 500 µs | 500 µs | 250 µs | 18 | 0.50 |"),
            "{md}"
        );
        assert!(md.contains("— (10 of 18 primes)"));
        assert!(
            md.contains("small primes faster at 2^12; big prime faster at 2^14; not enough word-size primes at 2^24.")
        );
        assert!(
            md.contains("| t8 | 2^22 | 1.00 ms | 500 µs | 900 µs | 450 µs | 18 × 62-bit | 0.90 |"),
            "{md}"
        );
        // A preset that every row's primes reach says nothing of missing ones.
        assert!(
            md.contains("small primes faster at 2^12, 2^22; big prime faster at none.\n"),
            "{md}"
        );
        assert!(GpuContest::from_json("{}").is_err());
        // Rows without prime_bits (written before 62-bit primes) are 31-bit.
        let old = c.to_json().replace("\"prime_bits\": 31,", "");
        assert_eq!(GpuContest::from_json(&old).unwrap().dft[0].prime_bits, 31);
        // Files without a GPU (written before the H200 was modelled) are the
        // H100's.
        let old = c.to_json().replace("\"gpu\": \"H100 SXM\",", "");
        assert!(!old.contains("\"gpu\""));
        assert_eq!(GpuContest::from_json(&old).unwrap().gpu, "H100 SXM");
    }

    /// Each GPU's contest has its own heading, file and flag, and an
    /// H200's section goes after the H100's, before the products.
    #[test]
    fn each_gpu_has_its_section() {
        let h100 = contest();
        let h200 = GpuContest {
            gpu: "H200 SXM".into(),
            ..contest()
        };
        let md = section(&h200);
        assert!(md.starts_with(GPUS[1].2), "{md}");
        assert!(md.contains("`cargo xtask gpu-model --contest --gpu h200`"), "{md}");
        assert!(md.contains("`docs/benchmarks/gpu_contest_h200.json`"), "{md}");
        assert!(section(&h100).contains("`cargo xtask gpu-model --contest` (rewrites"));
        assert_eq!(
            data_path(Path::new("r"), "H200 SXM"),
            Path::new("r/docs/benchmarks/gpu_contest_h200.json")
        );
        assert_eq!(
            data_path(Path::new("r"), "H100 SXM"),
            Path::new("r/docs/benchmarks/gpu_contest.json")
        );
        let doc = format!("# b\n\n{NEXT_HEADING}\n\ny\n");
        let both = splice(&splice(&doc, "H100 SXM", &section(&h100)), "H200 SXM", &md);
        let at = |h: &str| both.find(h).unwrap();
        assert!(
            at(HEADING) < at(GPUS[1].2) && at(GPUS[1].2) < at(NEXT_HEADING),
            "{both}"
        );
        // Rewriting one leaves the other.
        let again = splice(&both, "H100 SXM", &section(&h100));
        assert_eq!(again, both);
    }

    #[test]
    fn splice_replaces_or_inserts() {
        let doc = format!("# b\n\n## A\n\nx\n\n{NEXT_HEADING}\n\ny\n");
        let once = splice(&doc, "H100 SXM", &format!("{HEADING}\n\nold\n\n"));
        assert!(once.find(HEADING).unwrap() < once.find(NEXT_HEADING).unwrap());
        let twice = splice(&once, "H100 SXM", &format!("{HEADING}\n\nnew\n\n"));
        assert!(
            twice.contains("new") && !twice.contains("old") && twice.contains("## A\n\nx") && twice.contains("\ny\n")
        );
        assert_eq!(twice.matches(HEADING).count(), 1);
    }
}
