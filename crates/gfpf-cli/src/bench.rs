//! `gfpf bench`: our FFT and polynomial product against GMP arithmetic and
//! the small-prime approach, on this machine, same inputs side by side.

use std::time::{Duration, Instant};

use clap::Args;
use gfpf::cpu::{MulAlgorithm, PolyMul};
use gfpf::{Device, Direction, Fft, Field, FieldSpec, FieldVisitor, Order, Preset, Threading};
use gfpf_baselines::gmp_fft::GmpFft;
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

struct Plan {
    quick: bool,
    fft_sizes: Vec<usize>,
    mul_sizes: Vec<usize>,
}

impl Plan {
    fn measurements(&self) -> u64 {
        // ours ×2, GMP, small primes per size.
        4 * (self.fft_sizes.len() + self.mul_sizes.len()) as u64
    }

    /// Median of up to `reps` timed runs after one warm-up, stopping early
    /// (after at least 3) when the time budget is spent.
    fn time(&self, mut f: impl FnMut()) -> Duration {
        let (reps, budget) = if self.quick {
            (5, Duration::from_millis(600))
        } else {
            (11, Duration::from_secs(3))
        };
        f();
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

struct Measure<'a> {
    plan: &'a Plan,
    bar: &'a ProgressBar,
}

impl FieldVisitor for Measure<'_> {
    type Output = Vec<Row>;
    fn visit<const K: usize>(self, field: Field<K>) -> Vec<Row> {
        let name = field
            .name()
            .map_or_else(|| format!("({})^{K}+1", field.sparse()), str::to_owned);
        let (plan, bar) = (self.plan, self.bar);
        let mut rows = Vec::new();
        let step = |what: &str, n: usize| {
            bar.set_message(format!("{name} {what} {n}"));
            bar.inc(1);
        };
        for &n in &plan.fft_sizes {
            if n.trailing_zeros() > field.two_adicity() {
                bar.inc(4);
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
            step("FFT gfpf 1 thread", n);
            let serial = ours(Threading::Serial);
            step("FFT gfpf all threads", n);
            let parallel = ours(Threading::Parallel);
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
                bar.inc(4);
                continue;
            }
            let ours = |threading| {
                let pm = PolyMul::new(&field).expect("field checked").with_threading(threading);
                plan.time(|| {
                    pm.mul(&a, &b, MulAlgorithm::Auto).expect("length checked");
                })
            };
            step("product gfpf 1 thread", n);
            let serial = ours(Threading::Serial);
            step("product gfpf all threads", n);
            let parallel = ours(Threading::Parallel);
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
    let gpu = match args.device {
        crate::DeviceArg::Cpu => false,
        crate::DeviceArg::Cuda => true,
        crate::DeviceArg::Auto => gfpf::cuda_unavailable_reason().is_none(),
    };
    if gpu {
        return crate::gpu_bench::run(&primes, args.quick);
    }
    let plan = if args.quick {
        Plan {
            quick: true,
            fft_sizes: vec![1 << 10, 1 << 12],
            mul_sizes: vec![1 << 8, 1 << 10],
        }
    } else {
        Plan {
            quick: false,
            fft_sizes: vec![1 << 12, 1 << 16],
            mul_sizes: vec![1 << 10, 1 << 12, 1 << 14],
        }
    };
    let threads = rayon::current_num_threads();
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
    println!(
        "gfpf bench{}: medians on this machine, {threads} threads; GMP is single-threaded.",
        if args.quick { " --quick" } else { "" }
    );
    println!("  FFT: forward DFT_N, natural order; GMP = the same six-step algorithm on rug integers;");
    let lane_isa = gfpf::field::LaneIsa::best();
    println!(
        "       gfpf's base DFTs {} (products in lanes too where the CPU has AVX-512 IFMA and k <= {}).",
        match lane_isa {
            gfpf::field::LaneIsa::Portable => "one at a time (no AVX2 on this CPU)".to_string(),
            isa => format!("eight at a time in {isa:?} lanes"),
        },
        gfpf::field::LANE_MUL_MAX_K
    );
    println!(
        "       small primes = projection to s primes, s NTTs, mixed-radix reconstruction (same output), the faster of\n         s 62-bit primes (scalar NTTs) and s 50-bit primes (Plan52 NTTs, IFMA/AVX2)."
    );
    println!("  product: n × n coefficients; GMP = Kronecker substitution + one mpz_mul;");
    println!("       small primes = s NTT convolutions + CRT + reduction mod p.");
    println!("  Ratios above 1 mean gfpf is faster.");
    println!();
    println!(
        "{:<8} {:<6} {:>7} {:>11} {:>11} {:>11} {:>9} {:>24} {:>10}",
        "op",
        "prime",
        "N or n",
        "gfpf 1T",
        format!("gfpf {threads}T"),
        "GMP 1T",
        "GMP/gfpf",
        format!("small primes {threads}T"),
        "small/gfpf"
    );
    for r in &rows {
        let (small, small_ratio) = match r.small {
            Some((ref label, t)) => (format!("{} ({label})", fmt(t)), format!("{:.2}x", ratio(t, r.parallel))),
            None => ("-".into(), "-".into()),
        };
        println!(
            "{:<8} {:<6} {:>7} {:>11} {:>11} {:>11} {:>9} {:>24} {:>10}",
            r.what,
            r.prime,
            r.size,
            fmt(r.serial),
            fmt(r.parallel),
            fmt(r.gmp),
            format!("{:.2}x", ratio(r.gmp, r.serial)),
            small,
            small_ratio
        );
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
