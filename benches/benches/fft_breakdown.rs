//! Per-stage breakdown of one transform (like ISSAC 2019 table 6):
//! precomputation, data movement, base DFTs, twiddles, scaling, with the
//! plan's exact operation counts beside them.
//!
//! cargo bench -p gfpf-benches --bench fft_breakdown -- --preset t8 --log2n 16 [--threads 1] [--inverse]
//!
//! With `--gmp` it also times the same plan on GMP arithmetic (ISSAC's
//! variant, as in the `fft` bench) on the same input and prints the ratio;
//! with `--no-stages` it skips the per-stage probes. Together they measure
//! sizes too long for criterion's ten samples, such as K³ for k = 64
//! (`--preset p64 --log2n 21 --gmp --no-stages --repeat 1`).
//!
//! `--speedup` times one thread against all of them instead (and GMP's two,
//! with `--gmp`), alternating the runs round by round and keeping each one's
//! fastest: on a shared machine whose other tenants come and go, that is the
//! comparison that stays stable from run to run.
//!
//! `--twiddles` times the transform with a whole twiddle table against the
//! same transform with a two-level one (rounds alternating; medians, fastest
//! and the ratio) and prints both tables' sizes: the measurement behind
//! `gfpf_executor::FULL_TWIDDLE_TABLE_MAX_BYTES`.

use std::time::Duration;

use clap::Parser;
use gfpf_benches::gmp_fft::GmpFft;
use gfpf_cpu::{CpuFft, Threading, TwiddleLayout};
use gfpf_field::{Field, Preset};
use gfpf_plan::{Direction, Order, StageKind};
use rand::SeedableRng;
use rand::rngs::StdRng;

#[derive(Parser)]
#[command(about = "Time one FFT stage by stage")]
struct Args {
    /// Preset name (t2 … t128, p4 … p128).
    #[arg(long, default_value = "t8")]
    preset: String,
    /// log2 of the transform size.
    #[arg(long, default_value_t = 16)]
    log2n: u32,
    /// Worker threads (0: all cores; 1: the serial code path).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Time the inverse transform.
    #[arg(long)]
    inverse: bool,
    /// Also measure the machine's parallel ceiling: N independent field
    /// multiplications on one thread and on all of them.
    #[arg(long)]
    ceiling: bool,
    /// Also time the same plan on GMP arithmetic (rug) and print ours/GMP.
    #[arg(long)]
    gmp: bool,
    /// Compare one thread with all threads, rounds alternating (see the
    /// module docs); ignores `--threads`.
    #[arg(long)]
    speedup: bool,
    /// Compare whole and two-level twiddle tables, rounds alternating (see
    /// the module docs); uses `--threads`.
    #[arg(long)]
    twiddles: bool,
    /// Time the whole transform only (no per-stage breakdown).
    #[arg(long)]
    no_stages: bool,
    /// Repetitions; the fastest is shown.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Passed by `cargo bench` to every bench target; ignored.
    #[arg(long, hide = true)]
    bench: bool,
    /// Filters meant for the criterion benches (`cargo bench -- t8`); ignored.
    #[arg(hide = true)]
    filters: Vec<String>,
}

/// The fastest of `repeat` (at least one) timed calls.
fn fastest(repeat: usize, mut f: impl FnMut()) -> Duration {
    (0..repeat.max(1))
        .map(|_| {
            let start = std::time::Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .expect("at least one run")
}

fn ms(d: Duration) -> String {
    format!("{:9.3}", d.as_secs_f64() * 1e3)
}

fn run<const K: usize>(preset: Preset, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let field = Field::<K>::preset(preset)?;
    let n = 1usize << args.log2n;
    let direction = if args.inverse {
        Direction::Inverse
    } else {
        Direction::Forward
    };
    let threading = if args.threads == 1 {
        Threading::Serial
    } else {
        Threading::Parallel
    };
    let fft = CpuFft::try_new(&field, n, direction, Order::Natural)?.with_threading(threading);
    let mut rng = StdRng::seed_from_u64(1);
    let input: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
    if args.speedup {
        return speedup(&field, n, direction, &input, args);
    }
    if args.twiddles {
        return twiddle_layouts(&field, n, direction, threading, &input, args);
    }
    // The transform as users run it (no probes), best of `repeat`.
    let mut data = input.clone();
    let mut scratch = vec![field.zero(); fft.scratch_len()];
    let whole = fastest(args.repeat, || {
        fft.process_with_scratch(&mut data, &mut scratch).expect("sizes match")
    });
    drop((data, scratch));
    println!(
        "{} (k = {K}), N = 2^{} = {:?}, {direction:?}, {} thread(s); times in ms",
        preset.name(),
        args.log2n,
        fft.plan().radices(),
        rayon::current_num_threads().min(if args.threads == 1 { 1 } else { usize::MAX })
    );
    println!("whole transform (process_with_scratch): {} ms", ms(whole).trim());
    if args.gmp {
        let gmp = GmpFft::new(&field, n, direction, Order::Natural)?;
        let mut data: Vec<_> = input.iter().map(|x| field.to_integer(x)).collect();
        let mut scratch = vec![rug::Integer::new(); gmp.scratch_len()];
        let time = fastest(args.repeat, || {
            gmp.process(&mut data, &mut scratch, threading).expect("sizes match")
        });
        println!(
            "same plan on GMP (rug): {} ms; ours / GMP = {:.3}",
            ms(time).trim(),
            whole.as_secs_f64() / time.as_secs_f64()
        );
    }
    if !args.no_stages {
        print_stages(&fft, &input, args.repeat)?;
    }
    if args.ceiling {
        use rayon::prelude::*;
        let w = field.random(&mut rng);
        let time = |parallel: bool| {
            let mut data = input.clone();
            let start = std::time::Instant::now();
            for _ in 0..args.repeat.max(1) {
                if parallel {
                    data.par_chunks_mut(256)
                        .for_each(|c| c.iter_mut().for_each(|x| *x = field.mul(x, &w)));
                } else {
                    data.iter_mut().for_each(|x| *x = field.mul(x, &w));
                }
            }
            start.elapsed()
        };
        let (one, all) = (time(false), time(true));
        println!(
            "parallel ceiling: {} independent multiplications x{}: {} ms on one thread, {} ms on {} threads: {:.2}x",
            n,
            args.repeat.max(1),
            ms(one).trim(),
            ms(all).trim(),
            rayon::current_num_threads(),
            one.as_secs_f64() / all.as_secs_f64()
        );
    }
    Ok(())
}

/// One thread against all threads, ours and (with `--gmp`) GMP's: every
/// round runs each configuration once, and each keeps its fastest round.
fn speedup<const K: usize>(
    field: &Field<K>,
    n: usize,
    direction: Direction,
    input: &[gfpf_field::Element<K>],
    args: &Args,
) -> Result<(), Box<dyn std::error::Error>> {
    let ours = |threading| CpuFft::try_new(field, n, direction, Order::Natural).map(|f| f.with_threading(threading));
    let (serial, parallel) = (ours(Threading::Serial)?, ours(Threading::Parallel)?);
    let gmp = args
        .gmp
        .then(|| GmpFft::new(field, n, direction, Order::Natural))
        .transpose()?;
    let mut data = input.to_vec();
    let mut scratch = vec![field.zero(); serial.scratch_len()];
    let mut gmp_data: Vec<_> = input.iter().map(|x| field.to_integer(x)).collect();
    let mut gmp_scratch = vec![rug::Integer::new(); gmp.as_ref().map_or(0, GmpFft::scratch_len)];
    // ours serial, ours parallel, GMP serial, GMP parallel.
    let mut best = [Duration::MAX; 4];
    for _ in 0..args.repeat.max(1) {
        for (slot, fft) in [&serial, &parallel].into_iter().enumerate() {
            let t = fastest(1, || {
                fft.process_with_scratch(&mut data, &mut scratch).expect("sizes match")
            });
            best[slot] = best[slot].min(t);
        }
        if let Some(gmp) = &gmp {
            for (slot, threading) in [(2, Threading::Serial), (3, Threading::Parallel)] {
                let t = fastest(1, || {
                    gmp.process(&mut gmp_data, &mut gmp_scratch, threading)
                        .expect("sizes match")
                });
                best[slot] = best[slot].min(t);
            }
        }
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let threads = rayon::current_num_threads();
    println!(
        "{} N = 2^{}: ours {} ms on 1 thread, {} ms on {threads}: {:.2}x (fastest of {} alternating rounds)",
        args.preset,
        args.log2n,
        ms(best[0]).trim(),
        ms(best[1]).trim(),
        ratio(best[0], best[1]),
        args.repeat.max(1)
    );
    if gmp.is_some() {
        println!(
            "{} N = 2^{}: GMP {} ms on 1 thread, {} ms on {threads}: {:.2}x; ours/GMP {:.3} serial, {:.3} parallel",
            args.preset,
            args.log2n,
            ms(best[2]).trim(),
            ms(best[3]).trim(),
            ratio(best[2], best[3]),
            ratio(best[0], best[2]),
            ratio(best[1], best[3])
        );
    }
    Ok(())
}

/// A whole twiddle table against a two-level one: every round runs each
/// once; medians and fastest of the rounds.
fn twiddle_layouts<const K: usize>(
    field: &Field<K>,
    n: usize,
    direction: Direction,
    threading: Threading,
    input: &[gfpf_field::Element<K>],
    args: &Args,
) -> Result<(), Box<dyn std::error::Error>> {
    let plan = |layout| {
        CpuFft::try_new_with_twiddles(field, n, direction, Order::Natural, layout).map(|f| f.with_threading(threading))
    };
    let ffts = [plan(TwiddleLayout::Full)?, plan(TwiddleLayout::Split)?];
    let mut data = input.to_vec();
    let mut scratch = vec![field.zero(); ffts[0].scratch_len()];
    let mut times = [Vec::new(), Vec::new()];
    // One untimed run each first: the scaled tables and lane blocks are
    // built on first use.
    for round in 0..=args.repeat.max(1) {
        for (fft, times) in ffts.iter().zip(&mut times) {
            let t = fastest(1, || {
                fft.process_with_scratch(&mut data, &mut scratch).expect("sizes match")
            });
            if round > 0 {
                times.push(t);
            }
        }
    }
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let [whole, split] = &mut times;
    let fastest_of = |times: &[Duration]| times.iter().copied().min().expect("a round");
    let (fast_whole, fast_split) = (fastest_of(whole), fastest_of(split));
    let (mid_whole, mid_split) = (median(whole), median(split));
    let mib = |t: &gfpf_cpu::TwiddleTable<K>| {
        (t.stored_len() * size_of::<gfpf_field::Element<K>>()) as f64 / (1 << 20) as f64
    };
    println!(
        "{} N = 2^{}, {direction:?}, {} thread(s), {} alternating rounds: whole table ({:.3} MiB) median {} ms (fastest {}), two-level ({:.3} MiB) median {} ms (fastest {}); two-level / whole {:.3} (medians), {:.3} (fastest)",
        args.preset,
        args.log2n,
        if threading == Threading::Serial {
            1
        } else {
            rayon::current_num_threads()
        },
        args.repeat.max(1),
        mib(ffts[0].twiddles()),
        ms(mid_whole).trim(),
        ms(fast_whole).trim(),
        mib(ffts[1].twiddles()),
        ms(mid_split).trim(),
        ms(fast_split).trim(),
        mid_split.as_secs_f64() / mid_whole.as_secs_f64(),
        fast_split.as_secs_f64() / fast_whole.as_secs_f64(),
    );
    Ok(())
}

/// Runs the probed transform `repeat` times and prints the fastest run's
/// per-stage table.
fn print_stages<const K: usize>(
    fft: &CpuFft<K>,
    input: &[gfpf_field::Element<K>],
    repeat: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut best = None;
    for _ in 0..repeat.max(1) {
        let mut data = input.to_vec();
        let b = fft.breakdown(&mut data)?;
        if best
            .as_ref()
            .is_none_or(|old: &gfpf_cpu::Breakdown| b.transform() < old.transform())
        {
            best = Some(b);
        }
    }
    let b = best.expect("at least one run");
    println!(
        "precomputation (twiddle table of {}): {} ms",
        fft.plan().twiddle_table_len(),
        ms(b.precompute).trim()
    );
    println!(
        "{:>5} {:>28} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "stage", "what", "total", "movement", "base DFT", "twiddles", "scale", "shifts", "full muls"
    );
    let mut sums = [Duration::ZERO; 5];
    for (i, t) in b.stages.iter().enumerate() {
        let what = match t.stage.kind {
            StageKind::BaseDft(d) => format!(
                "{}x DFT_{} stride {}{}{}",
                d.blocks * d.stride,
                d.radix,
                d.stride,
                if d.twiddles.is_some() { " +tw" } else { "" },
                if d.input == gfpf_plan::Addressing::DigitReversed {
                    " +perm"
                } else {
                    ""
                }
            ),
            StageKind::Scale => "scale by 1/N".to_string(),
        };
        let c = fft.plan().stage_counts(&t.stage);
        println!(
            "{i:>5} {what:>28} {} {} {} {} {} {:>9} {:>9}",
            ms(t.total),
            ms(t.movement),
            ms(t.base_dfts),
            ms(t.twiddles),
            ms(t.scale),
            c.shifts,
            c.full_muls
        );
        for (s, v) in sums
            .iter_mut()
            .zip([t.total, t.movement, t.base_dfts, t.twiddles, t.scale])
        {
            *s += v;
        }
    }
    let pct = |d: Duration| 100.0 * d.as_secs_f64() / sums[0].as_secs_f64();
    println!(
        "{:>5} {:>28} {} {} {} {} {}",
        "sum",
        "",
        ms(sums[0]),
        ms(sums[1]),
        ms(sums[2]),
        ms(sums[3]),
        ms(sums[4])
    );
    println!(
        "share of the transform: movement {:.0}%, base DFTs {:.0}%, twiddles {:.0}%, scale {:.0}%",
        pct(sums[1]),
        pct(sums[2]),
        pct(sums[3]),
        pct(sums[4])
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    if args.threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global()?;
    }
    let preset = Preset::from_name(&args.preset)?;
    gfpf_field::dispatch_k!(preset.k(), K => run::<K>(preset, &args), _ => unreachable!("every preset's k is compiled"))
}
