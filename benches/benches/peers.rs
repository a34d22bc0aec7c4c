//! gfpf against NTL and FLINT: n × n polynomial products
//! over t8, p8, t16 and t64, on one thread and on all threads, same inputs
//! side by side.
//!
//! gfpf is timed by criterion (`peers_<preset>/gfpf_{serial,parallel}/n`);
//! NTL `ZZ_pX` `mul` and FLINT `fmpz_mod_poly_mul` right after it, size by
//! size, by the C++ harness
//! (`benches/peers/peers.cpp`, see `gfpf_benches::peers`), whose timings go to
//! `target/peers/<preset>.json`. Every library's product is checked against
//! gfpf's (a checksum mismatch aborts the run). Without libflint-dev and
//! libntl-dev the comparison is skipped with a message and gfpf is still timed.
//!
//! `cargo bench -p gfpf-benches --bench peers`; sizes 2^8 … 2^18 unless
//! `GFPF_PEERS_LOG2N=lo..=hi`, and for t64 (4 033-bit coefficients) at most
//! 2^[`T64_MAX_LOG2N`]; the harness repeats each product for at least
//! `GFPF_PEERS_MIN_SECONDS` (default 1); `GFPF_PEERS_PRESETS=t16` (comma-separated)
//! re-runs some presets and leaves the others' stored results alone.
//! `FLINT_PREFIX=/opt/flint3` also times the FLINT installed there (Debian 12
//! ships FLINT 2.9; build FLINT 3 with `./configure --enable-avx2
//! --prefix=/opt/flint3`), stored as library `FLINT3`.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode};
use gfpf_benches::criterion_config;
use gfpf_benches::peers::{Harness, PeerLibrary, PeerTiming, checksum, inputs, target_dir};
use gfpf_cpu::{MulAlgorithm, PolyMul, Threading};
use gfpf_field::{Field, Preset};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v} is not a valid value")),
        Err(_) => default,
    }
}

fn log2_sizes() -> Vec<u32> {
    let text = std::env::var("GFPF_PEERS_LOG2N").unwrap_or_else(|_| "8..=18".into());
    let (lo, hi) = text
        .split_once("..=")
        .and_then(|(a, b)| Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?)))
        .filter(|(a, b)| a <= b && *b <= 22)
        .unwrap_or_else(|| panic!("GFPF_PEERS_LOG2N={text}: expected lo..=hi with hi ≤ 22"));
    (lo..=hi).collect()
}

/// The peers' timings and gfpf's checksums for one preset, as xtask reads them.
#[derive(serde::Serialize)]
struct PresetReport {
    preset: &'static str,
    p: String,
    threads_all: usize,
    gfpf_checksums: Vec<(usize, String)>,
    peers: Vec<PeerTiming>,
    skipped: Option<String>,
}

/// The presets this bench compares.
const PRESETS: [Preset; 4] = [Preset::T8, Preset::P8, Preset::T16, Preset::T64];

/// The largest t64 size: at 2^14 one product already takes NTL about a
/// second and FLINT more, and each operand is 8 MiB.
const T64_MAX_LOG2N: u32 = 14;

/// The sizes (log2 n) to compare `preset` at.
fn preset_sizes(preset: Preset) -> Vec<u32> {
    let cap = if preset == Preset::T64 { T64_MAX_LOG2N } else { u32::MAX };
    log2_sizes().into_iter().filter(|&m| m <= cap).collect()
}

/// The presets to run: those `GFPF_PEERS_PRESETS` names (comma-separated),
/// all of [`PRESETS`] when it is unset or empty; a name outside them panics.
fn selected_presets() -> Vec<Preset> {
    let list = std::env::var("GFPF_PEERS_PRESETS").unwrap_or_default();
    let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return PRESETS.to_vec();
    }
    names
        .iter()
        .map(|&name| {
            *PRESETS
                .iter()
                .find(|p| p.name() == name)
                .unwrap_or_else(|| panic!("GFPF_PEERS_PRESETS names `{name}`; this bench compares t8, p8, t16 and t64"))
        })
        .collect()
}

fn compare<const K: usize>(
    c: &mut Criterion,
    preset: Preset,
    harness: &Result<Harness, String>,
    flint_prefix: &Option<Harness>,
) {
    let field = Field::<K>::preset(preset).unwrap();
    let sizes = preset_sizes(preset);
    let threads_all = rayon::current_num_threads();
    let mut group = c.benchmark_group(format!("peers_{}", preset.name()));
    let mut gfpf_checksums = Vec::new();
    // One engine per threading for all sizes: each caches its plans per size,
    // and the serial one's product (already planned) gives the checksum.
    let serial = PolyMul::new(&field).unwrap().with_threading(Threading::Serial);
    let parallel = PolyMul::new(&field).unwrap().with_threading(Threading::Parallel);
    let min_seconds: f64 = env_or("GFPF_PEERS_MIN_SECONDS", 1.0);
    let mut peers = Vec::new();
    // Size by size, gfpf and then the libraries at that size, so that the
    // contenders at one size are timed within seconds of each other (this VM
    // drifts by up to 1.6x within minutes).
    for &m in &sizes {
        let n = 1usize << m;
        let (a, b) = inputs(&field, n);
        if m >= 12 {
            group.sampling_mode(SamplingMode::Flat).sample_size(10);
        }
        for (label, pm) in [("gfpf_serial", &serial), ("gfpf_parallel", &parallel)] {
            group.bench_function(BenchmarkId::new(label, n), |bch| {
                bch.iter(|| pm.mul(&a, &b, MulAlgorithm::Auto).unwrap())
            });
        }
        let product = serial.mul(&a, &b, MulAlgorithm::Auto).unwrap();
        gfpf_checksums.push((n, checksum(&field, &product)));
        if let Ok(h) = harness {
            for threads in [1, threads_all] {
                eprintln!(
                    "peers: NTL and FLINT, {} n = 2^{m} on {threads} thread(s)",
                    preset.name()
                );
                peers.extend(h.run(field.p(), threads, min_seconds, &[m]).unwrap());
                if let Some(other) = flint_prefix {
                    let timings = other.run(field.p(), threads, min_seconds, &[m]).unwrap();
                    // FLINT only (see `main`), labelled with the major version.
                    peers.extend(timings.into_iter().map(|mut t| {
                        t.library = format!("FLINT{}", t.version.split('.').next().unwrap_or(""));
                        t
                    }));
                }
            }
        }
    }
    group.finish();
    let skipped = harness.as_ref().err().cloned();
    for t in &peers {
        let ours = &gfpf_checksums.iter().find(|(n, _)| *n == t.n).unwrap().1;
        assert_eq!(
            &t.checksum,
            ours,
            "{} and gfpf differ on {} at n = {}",
            t.library,
            preset.name(),
            t.n
        );
        eprintln!(
            "peers: {:<5} {} n = {:>6} on {} thread(s): {:.3} ms",
            t.library,
            preset.name(),
            t.n,
            t.threads,
            t.median_ms
        );
    }
    let report = PresetReport {
        preset: preset.name(),
        p: field.p().to_string(),
        threads_all,
        gfpf_checksums,
        peers,
        skipped,
    };
    let dir = target_dir().join("peers");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.json", preset.name()));
    std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
}

fn main() {
    // Two threads mean this one and one other, as for NTL and FLINT.
    assert!(
        gfpf_benches::caller_in_rayon_pool(),
        "peers: rayon's global pool was started before main"
    );
    let mut c = criterion_config(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let presets = selected_presets();
    let harness = Harness::build(&target_dir().join("peers"));
    if let Err(reason) = &harness {
        eprintln!("peers: NTL/FLINT comparison skipped: {reason}");
    }
    // A second FLINT (FLINT 3 where the system has 2.9) when FLINT_PREFIX names one.
    let flint_prefix = std::env::var_os("FLINT_PREFIX").and_then(|prefix| {
        match Harness::build_with_flint(&target_dir().join("peers"), std::path::Path::new(&prefix)) {
            // Its NTL is the system's: the first harness already times it.
            Ok(h) => Some(h.only(PeerLibrary::Flint)),
            Err(reason) => {
                eprintln!("peers: FLINT_PREFIX={}: skipped: {reason}", prefix.to_string_lossy());
                None
            }
        }
    });
    for preset in presets {
        match preset.k() {
            8 => compare::<8>(&mut c, preset, &harness, &flint_prefix),
            16 => compare::<16>(&mut c, preset, &harness, &flint_prefix),
            64 => compare::<64>(&mut c, preset, &harness, &flint_prefix),
            k => unreachable!("PRESETS has k = 8, 16 and 64 only, not {k}"),
        }
    }
    c.final_summary();
}
