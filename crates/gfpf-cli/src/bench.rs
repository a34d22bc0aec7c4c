//! `gfpf bench`: our FFT and polynomial product against GMP arithmetic and
//! the small-prime approach, on this machine, same inputs side by side.

use std::time::{Duration, Instant};

use clap::Args;
use gfpf::cpu::{MulAlgorithm, PolyMul};
use gfpf::field::{LaneArith, LaneIsa};
use gfpf::{Device, Direction, Element, Fft, Field, FieldSpec, FieldVisitor, Order, Preset, Threading};
use gfpf_baselines::gmp_fft::GmpFft;
use gfpf_baselines::peers::{self, Harness};
use gfpf_baselines::poly_baselines::{MultiModularMul, kronecker_mul};
use gfpf_baselines::small_primes::SmallPrimeDft;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rug::Integer;

/// Options of `gfpf bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Small sizes and few repetitions (t8 only unless --prime is given): under a minute.
    #[arg(long)]
    quick: bool,
    /// Primes to time (repeatable; default t8, p8, t16).
    #[arg(long = "prime", value_name = "NAME", value_parser = crate::parse_spec)]
    primes: Vec<FieldSpec>,
    /// cpu: ours against GMP and small primes on the host; cuda: transforms
    /// on the GPU (CUDA events) beside all host cores; auto: cuda when a GPU
    /// is usable.
    #[arg(long, value_enum, default_value_t = crate::DeviceArg::Cpu)]
    device: crate::DeviceArg,
    /// With --device cuda: the time model's figures to print beside the
    /// measured ones, with measured / modelled (the file `cargo xtask
    /// gpu-model --contest` writes: docs/benchmarks/gpu_contest.json for an
    /// H100, gpu_contest_h200.json with `--gpu h200`).
    #[arg(long, value_name = "FILE")]
    model: Option<std::path::PathBuf>,
}

/// One line of the report.
struct Row {
    what: &'static str,
    prime: String,
    size: usize,
    serial: Duration,
    parallel: Duration,
    gmp: Duration,
    /// The small-prime side's time, labelled with its primes (s and their size).
    small: Option<(String, Duration)>,
}

/// How long each measurement first runs untimed. Threads that slept (as
/// while the NTL/FLINT harness ran) take a while to be back: on the
/// project's 2-core VM (2026-11-24) a t8 n = 1024 product on two threads
/// took the one-thread time (320 µs) for its first 20 runs after a second
/// of sleep, then 210 µs.
const WARM_UP: Duration = Duration::from_millis(50);

struct Plan {
    quick: bool,
    /// Threads of rayon's pool (the caller included).
    threads: usize,
    fft_sizes: Vec<usize>,
    mul_sizes: Vec<usize>,
}

impl Plan {
    fn measurements(&self) -> u64 {
        // Ours on one thread and (with more than one) on all, GMP, small
        // primes per size.
        self.measurements_per_size() * (self.fft_sizes.len() + self.mul_sizes.len()) as u64
    }

    fn measurements_per_size(&self) -> u64 {
        if self.threads > 1 { 4 } else { 3 }
    }

    /// `time(threading)` on one thread and on the pool's threads (the
    /// one-thread figure again when the pool has only one).
    fn on_one_and_all(&self, mut time: impl FnMut(Threading) -> Duration) -> (Duration, Duration) {
        let serial = time(Threading::Serial);
        let parallel = if self.threads > 1 {
            time(Threading::Parallel)
        } else {
            serial
        };
        (serial, parallel)
    }

    /// The median of gfpf's product of `a` and `b` (`MulAlgorithm::Auto`).
    fn time_product<const K: usize>(
        &self,
        field: &Field<K>,
        a: &[Element<K>],
        b: &[Element<K>],
        threading: Threading,
    ) -> Duration {
        let pm = PolyMul::new(field).expect("field checked").with_threading(threading);
        self.time(|| {
            pm.mul(a, b, MulAlgorithm::Auto).expect("length checked");
        })
    }

    /// Median of up to `reps` timed runs after a warm-up of at least
    /// [`WARM_UP`], stopping early (after at least 3) when the time budget
    /// is spent.
    fn time(&self, mut f: impl FnMut()) -> Duration {
        let (reps, budget) = if self.quick {
            (5, Duration::from_millis(600))
        } else {
            (11, Duration::from_secs(3))
        };
        let warm_up = Instant::now();
        f();
        while warm_up.elapsed() < WARM_UP {
            f();
        }
        let start = Instant::now();
        let mut times = Vec::with_capacity(reps);
        while times.len() < reps && (times.len() < 3 || start.elapsed() < budget) {
            let t = Instant::now();
            f();
            times.push(t.elapsed());
        }
        times.sort();
        times[times.len() / 2]
    }
}

/// The progress bar's name of a gfpf measurement.
fn gfpf_step(what: &str, threading: Threading) -> String {
    match threading {
        Threading::Serial => format!("{what} gfpf 1 thread"),
        Threading::Parallel => format!("{what} gfpf all threads"),
    }
}

struct Measure<'a> {
    plan: &'a Plan,
    bar: &'a ProgressBar,
}

/// The field's preset name, or its r and k.
pub(crate) fn field_label<const K: usize>(field: &Field<K>) -> String {
    field
        .name()
        .map_or_else(|| format!("({})^{K}+1", field.sparse()), str::to_owned)
}

impl FieldVisitor for Measure<'_> {
    type Output = Vec<Row>;
    fn visit<const K: usize>(self, field: Field<K>) -> Vec<Row> {
        let name = field_label(&field);
        let (plan, bar) = (self.plan, self.bar);
        let mut rows = Vec::new();
        let step = |what: &str, n: usize| {
            bar.set_message(format!("{name} {what} {n}"));
            bar.inc(1);
        };
        for &n in &plan.fft_sizes {
            if n.trailing_zeros() > field.two_adicity() {
                bar.inc(plan.measurements_per_size());
                continue;
            }
            let mut rng = StdRng::seed_from_u64(n as u64);
            let input: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
            let ours = |threading| {
                let fft = Fft::builder(&field, n)
                    .device(Device::Cpu)
                    .threading(threading)
                    .build()
                    .expect("size checked");
                let mut data = input.clone();
                plan.time(|| fft.forward(&mut data).expect("length N"))
            };
            let (serial, parallel) = plan.on_one_and_all(|threading| {
                step(&gfpf_step("FFT", threading), n);
                ours(threading)
            });
            step("FFT GMP", n);
            let gmp_fft = GmpFft::new(&field, n, Direction::Forward, Order::Natural).expect("size checked");
            let mut ints: Vec<Integer> = input.iter().map(|x| field.to_integer(x)).collect();
            let mut scratch = vec![Integer::new(); gmp_fft.scratch_len()];
            let gmp = plan.time(|| {
                gmp_fft
                    .process(&mut ints, &mut scratch, Threading::Serial)
                    .expect("length N")
            });
            step("FFT small primes", n);
            // 62-bit primes on the scalar Plan and 50-bit primes on Plan52
            // (the fastest word-size NTT, more primes): the faster is the
            // opponent.
            let words: Vec<u64> = input.iter().flat_map(|x| field.to_words(x)).collect();
            let time_small = |dft: SmallPrimeDft, label: String| {
                let mut residues = vec![0u64; dft.residue_len()];
                let mut out = vec![0u64; n * dft.primes()];
                (
                    label,
                    plan.time(|| dft.dft_same_output(&words, &mut residues, &mut out, true)),
                )
            };
            let (s62, s50) = (
                SmallPrimeDft::primes_for_bits(field.bits()),
                SmallPrimeDft::primes_for_bits_50(field.bits()),
            );
            let small62 = SmallPrimeDft::new(n, K, s62)
                .ok()
                .map(|dft| time_small(dft, format!("{s62}x62 bits")));
            let small50 = SmallPrimeDft::with_plan52(n, K, s50)
                .ok()
                .map(|dft| time_small(dft, format!("{s50}x50 bits")));
            let small = [small62, small50].into_iter().flatten().min_by_key(|(_, t)| *t);
            rows.push(Row {
                what: "FFT",
                prime: name.clone(),
                size: n,
                serial,
                parallel,
                gmp,
                small,
            });
        }
        for &n in &plan.mul_sizes {
            let mut rng = StdRng::seed_from_u64(n as u64);
            let a: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
            let b: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
            if 2 * n - 1 > 1usize << field.two_adicity().min(40) {
                bar.inc(plan.measurements_per_size());
                continue;
            }
            let (serial, parallel) = plan.on_one_and_all(|threading| {
                step(&gfpf_step("product", threading), n);
                plan.time_product(&field, &a, &b, threading)
            });
            step("product GMP", n);
            let gmp = plan.time(|| {
                kronecker_mul(&field, &a, &b);
            });
            step("product small primes", n);
            let small = MultiModularMul::new(field.bits(), 2 * n - 1, n)
                .and_then(Result::ok)
                .map(|mm| {
                    (
                        format!("s={}", mm.primes()),
                        plan.time(|| {
                            mm.mul(&field, &a, &b, true);
                        }),
                    )
                });
            rows.push(Row {
                what: "product",
                prime: name.clone(),
                size: n,
                serial,
                parallel,
                gmp,
                small,
            });
        }
        rows
    }
}

/// Runs the benchmark and prints the table.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let mut primes = args.primes.clone();
    if primes.is_empty() {
        primes = if args.quick {
            vec![Preset::T8.into()]
        } else {
            vec![Preset::T8.into(), Preset::P8.into(), Preset::T16.into()]
        };
    }
    // The model's file is read first, so that a wrong path or file is named
    // before any timing (and on machines without a GPU).
    let model = args
        .model
        .as_deref()
        .map(crate::model_figures::ModelFigures::read)
        .transpose()?;
    let gpu = match args.device {
        crate::DeviceArg::Cpu => false,
        crate::DeviceArg::Cuda => true,
        crate::DeviceArg::Auto => gfpf::cuda_unavailable_reason().is_none(),
    };
    if gpu {
        return crate::gpu_bench::run(&primes, args.quick, model.as_ref());
    }
    if model.is_some() {
        return Err(
            "--model compares the GPU's times with the time model: it needs --device cuda (or auto, with a GPU)"
                .to_owned(),
        );
    }
    let threads = rayon::current_num_threads();
    let plan = if args.quick {
        Plan {
            quick: true,
            threads,
            fft_sizes: vec![1 << 10, 1 << 12],
            mul_sizes: vec![1 << 8, 1 << 10],
        }
    } else {
        Plan {
            quick: false,
            threads,
            fft_sizes: vec![1 << 12, 1 << 16],
            mul_sizes: vec![1 << 10, 1 << 12, 1 << 14],
        }
    };
    let bar = ProgressBar::new(plan.measurements() * primes.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    );
    let mut rows = Vec::new();
    for spec in &primes {
        rows.extend(
            spec.visit(Measure { plan: &plan, bar: &bar })
                .map_err(|e| e.to_string())?,
        );
    }
    bar.finish_and_clear();
    let all = if threads == 1 {
        "1 thread".to_string()
    } else {
        format!(
            "{threads} threads (the caller and {} other{})",
            threads - 1,
            if threads == 2 { "" } else { "s" }
        )
    };
    println!(
        "gfpf bench{}: medians on this machine, {all}.",
        if args.quick { " --quick" } else { "" }
    );
    println!("  CPU: {}", simd_summary(&primes));
    println!("  FFT: forward DFT_N, natural order; GMP = the same six-step algorithm on rug integers (one thread);");
    println!(
        "       small primes = projection to s primes, s NTTs, mixed-radix reconstruction (same output), the faster of\n         s 62-bit primes (scalar NTTs) and s 50-bit primes (Plan52 NTTs, IFMA/AVX2)."
    );
    println!("  product: n × n coefficients; GMP = Kronecker substitution + one mpz_mul (one thread);");
    println!("       small primes = s NTT convolutions + CRT + reduction mod p.");
    println!(
        "  Ratios are their time / gfpf's on as many threads: GMP / gfpf on 1 thread, small primes / gfpf on {threads}; above 1: gfpf is faster."
    );
    println!();
    let many = threads > 1;
    let gfpf_all = format!("gfpf {threads}T");
    let small_all = format!("small primes {threads}T");
    let small_ratio = format!("small/gfpf {threads}T");
    let mut header = format!("{:<8} {:<6} {:>7} {:>11}", "op", "prime", "N or n", "gfpf 1T");
    if many {
        header.push_str(&format!(" {gfpf_all:>11}"));
    }
    header.push_str(&format!(
        " {:>11} {:>12} {small_all:>24} {small_ratio:>15}",
        "GMP 1T", "GMP/gfpf 1T"
    ));
    println!("{header}");
    for r in &rows {
        let (small, small_ratio) = match r.small {
            Some((ref label, t)) => (format!("{} ({label})", fmt(t)), format!("{:.2}x", ratio(t, r.parallel))),
            None => ("-".into(), "-".into()),
        };
        let mut line = format!("{:<8} {:<6} {:>7} {:>11}", r.what, r.prime, r.size, fmt(r.serial));
        if many {
            line.push_str(&format!(" {:>11}", fmt(r.parallel)));
        }
        line.push_str(&format!(
            " {:>11} {:>12} {small:>24} {small_ratio:>15}",
            fmt(r.gmp),
            format!("{:.2}x", ratio(r.gmp, r.serial))
        ));
        println!("{line}");
    }
    if !plan.mul_sizes.is_empty() {
        print_peers(&primes, &plan)?;
    }
    Ok(())
}

/// What the CPU gives gfpf: the lanes' instruction set and, per prime,
/// whether its multiplications run in lanes (AVX-512 IFMA).
fn simd_summary(primes: &[FieldSpec]) -> String {
    struct InLanes;
    impl FieldVisitor for InLanes {
        type Output = bool;
        fn visit<const K: usize>(self, field: Field<K>) -> bool {
            LaneArith::new(&field, LaneIsa::best()).is_ok_and(|lanes| lanes.mul_in_lanes())
        }
    }
    let isa = LaneIsa::best();
    if isa == LaneIsa::Portable {
        return "no AVX2: gfpf runs one base DFT at a time (portable code)".into();
    }
    #[cfg(target_arch = "x86_64")]
    let ifma = std::arch::is_x86_feature_detected!("avx512ifma");
    #[cfg(not(target_arch = "x86_64"))]
    let ifma = false;
    let mut text = format!(
        "{}{}: gfpf runs its base DFTs eight at a time in SIMD lanes",
        isa.name(),
        if ifma { " with IFMA" } else { " (no IFMA)" }
    );
    let (in_lanes, elementwise): (Vec<_>, Vec<_>) =
        primes.iter().partition(|spec| spec.visit(InLanes).unwrap_or(false));
    let names = |specs: &[&FieldSpec]| specs.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    if !in_lanes.is_empty() {
        text.push_str(&format!(", their multiplications too ({})", names(&in_lanes)));
    }
    if !elementwise.is_empty() {
        text.push_str(&format!(
            ", multiplications one element at a time ({}{})",
            names(&elementwise),
            if ifma {
                ": k above 128 or r below 2^56"
            } else {
                ": no IFMA"
            }
        ));
    }
    text
}

/// gfpf's n × n products against NTL's and FLINT's on the same inputs
/// (checked equal through the harness's checksums), on one thread and on
/// `threads`.
struct PeerRows<'a> {
    harness: &'a Harness,
    plan: &'a Plan,
}

/// One size of that comparison: gfpf's median and each library's, on one
/// thread and on all.
struct PeerRow {
    prime: String,
    n: usize,
    gfpf: [Duration; 2],
    /// (library and version, [1 thread, all threads]) in milliseconds.
    peers: Vec<(String, [f64; 2])>,
}

impl FieldVisitor for PeerRows<'_> {
    type Output = Result<Vec<PeerRow>, String>;
    fn visit<const K: usize>(self, field: Field<K>) -> Self::Output {
        let (plan, name) = (
            self.plan,
            field.name().map_or_else(|| field.sparse().to_string(), str::to_owned),
        );
        let log2_sizes: Vec<u32> = plan.mul_sizes.iter().map(|n| n.trailing_zeros()).collect();
        let min_seconds = if plan.quick { 0.2 } else { 0.5 };
        let mut timings = self.harness.run(field.p(), 1, min_seconds, &log2_sizes)?;
        if plan.threads > 1 {
            timings.extend(self.harness.run(field.p(), plan.threads, min_seconds, &log2_sizes)?);
        }
        let mut rows = Vec::new();
        for &n in &plan.mul_sizes {
            let (a, b) = peers::inputs(&field, n);
            let (serial, parallel) = plan.on_one_and_all(|threading| plan.time_product(&field, &a, &b, threading));
            let gfpf = [serial, parallel];
            let ours = PolyMul::new(&field)
                .and_then(|pm| pm.mul(&a, &b, MulAlgorithm::Auto))
                .map_err(|e| e.to_string())?;
            let expected = peers::checksum(&field, &ours);
            let mut peers: Vec<(String, [f64; 2])> = Vec::new();
            for t in timings.iter().filter(|t| t.n == n) {
                if t.checksum != expected {
                    return Err(format!(
                        "{} {} computed another product than gfpf at {name} n = {n}",
                        t.library, t.version
                    ));
                }
                let label = format!("{} {}", t.library, t.version);
                let slot = usize::from(t.threads > 1);
                match peers.iter_mut().find(|(l, _)| *l == label) {
                    Some((_, times)) => times[slot] = t.median_ms,
                    None => {
                        let mut times = [f64::NAN; 2];
                        times[slot] = t.median_ms;
                        peers.push((label, times));
                    }
                }
            }
            rows.push(PeerRow {
                prime: name.clone(),
                n,
                gfpf,
                peers,
            });
        }
        Ok(rows)
    }
}

/// Times gfpf's products against NTL and FLINT and prints the table, or
/// says why they are not compared and how to add them.
fn print_peers(primes: &[FieldSpec], plan: &Plan) -> Result<(), String> {
    println!();
    let harness = match Harness::build(&peers::cache_dir()) {
        Ok(harness) => harness,
        Err(reason) => {
            println!("NTL and FLINT: not compared here ({reason}).");
            println!("  `sh scripts/setup.sh --peers` installs them; `gfpf bench` then shows them beside gfpf.");
            return Ok(());
        }
    };
    let threads = plan.threads;
    let mut rows = Vec::new();
    for spec in primes {
        rows.extend(
            spec.visit(PeerRows {
                harness: &harness,
                plan,
            })
            .map_err(|e| e.to_string())??,
        );
    }
    let Some(first) = rows.first() else {
        return Ok(());
    };
    let libraries: Vec<String> = first.peers.iter().map(|(l, _)| l.clone()).collect();
    println!("Products against NTL and FLINT: n × n coefficients, the same inputs, every product checked equal.");
    let threads_compared = if threads > 1 {
        format!("(1, then {threads})")
    } else {
        "(1)".to_string()
    };
    println!(
        "  Ratios are the fastest library's time / gfpf's on as many threads {threads_compared}; above 1: gfpf is faster."
    );
    let columns: Vec<usize> = if threads > 1 { vec![0, 1] } else { vec![0] };
    let mut header = format!("{:<6} {:>7}", "prime", "n");
    for &c in &columns {
        let t = if c == 0 { 1 } else { threads };
        header.push_str(&format!(" {:>11}", format!("gfpf {t}T")));
        for l in &libraries {
            header.push_str(&format!(" {:>18}", format!("{l} {t}T")));
        }
        header.push_str(&format!(" {:>16}", format!("fastest/gfpf {t}T")));
    }
    println!("{header}");
    for r in &rows {
        let mut line = format!("{:<6} {:>7}", r.prime, r.n);
        for &c in &columns {
            line.push_str(&format!(" {:>11}", fmt(r.gfpf[c])));
            for l in &libraries {
                let ms = r
                    .peers
                    .iter()
                    .find(|(name, _)| name == l)
                    .map_or(f64::NAN, |(_, t)| t[c]);
                let text = if ms.is_nan() {
                    "-".into()
                } else {
                    fmt(Duration::from_secs_f64(ms / 1e3))
                };
                line.push_str(&format!(" {text:>18}"));
            }
            let fastest = r
                .peers
                .iter()
                .map(|(_, t)| t[c])
                .filter(|t| !t.is_nan())
                .fold(f64::INFINITY, f64::min);
            let text = if fastest.is_finite() {
                format!("{:.2}x", ratio(Duration::from_secs_f64(fastest / 1e3), r.gfpf[c]))
            } else {
                "-".into()
            };
            line.push_str(&format!(" {text:>16}"));
        }
        println!("{line}");
    }
    Ok(())
}

fn ratio(baseline: Duration, ours: Duration) -> f64 {
    baseline.as_secs_f64() / ours.as_secs_f64().max(1e-12)
}

fn fmt(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}
