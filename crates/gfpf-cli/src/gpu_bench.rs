//! `gfpf bench --device cuda`: transforms on the GPU timed with CUDA events
//! (data resident on the device, warm, median of many runs), reported as
//! time and as bytes moved over the stages' passes against the device's own
//! copy bandwidth, with the same transform on all host cores beside it; then
//! n × n products (fields up to k = 16) by both device paths, the big prime
//! and word-size primes, from host slices to a host product, against the
//! host's cores, the three timed round by round; then the word-size NTT
//! alone (8 transforms of N, resident) against the time of copying their
//! words once.

use std::time::Instant;

use gfpf::cpu::PolyMul;
use gfpf::cuda::{CudaDevice, CudaFft, CudaMulAlgorithm, CudaPolyMul, DeviceBuffer, median};
use gfpf::{Device, Direction, Fft, Field, FieldSpec, FieldVisitor, MulAlgorithm, Order, Threading};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::bench::field_label;
use crate::model_figures::ModelFigures;

/// Timed runs per point on the GPU (after one warm-up).
const GPU_RUNS: usize = 20;
/// Bytes of the buffer the copy bandwidth is measured on.
const COPY_BYTES: usize = 256 << 20;

/// Word-size NTT rows: log2 N (the quick run stops at 2^16), each 8
/// forward transforms (2 primes, 4 a prime), data resident, in 32-bit words
/// (primes below 2^31), and in 64-bit words (primes below 2^62) and FP64
/// (primes below 2^50), which also reach 2^26.
const NTT_LOG2_LENS: [u32; 4] = [12, 16, 20, 24];
const NTT64_LOG2_LENS: [u32; 5] = [12, 16, 20, 24, 26];
/// Transforms of one NTT row, and the primes they are over.
const NTT_TRANSFORMS: usize = 8;
const NTT_PRIMES: usize = 2;

/// One word-size NTT row: bits of a word and of its primes (31, 62, or 50
/// in FP64), log2 N, passes over device memory (launches), the median time.
struct NttRow {
    word_bits: u32,
    prime_bits: u32,
    log2_n: u32,
    passes: usize,
    gpu_ms: f64,
}

/// The word-size NTT timed alone: 8 transforms of N at once, forward,
/// resident, median of [`GPU_RUNS`], in each word.
fn measure_ntt(device: &std::sync::Arc<CudaDevice>, quick: bool, bar: &ProgressBar) -> Result<Vec<NttRow>, String> {
    use gfpf::cuda::ntt::{F64Word, NTT_PRIMES_31, NTT_PRIMES_62, ntt50_primes};
    let mut rows = Vec::new();
    for log2_n in NTT_LOG2_LENS.into_iter().filter(|&l| !quick || l <= 16) {
        rows.push(measure_ntt_of::<u32>(
            device,
            log2_n,
            &NTT_PRIMES_31[..NTT_PRIMES],
            bar,
        )?);
    }
    for log2_n in NTT64_LOG2_LENS.into_iter().filter(|&l| !quick || l <= 16) {
        rows.push(measure_ntt_of::<u64>(
            device,
            log2_n,
            &NTT_PRIMES_62[..NTT_PRIMES],
            bar,
        )?);
    }
    let primes50 = ntt50_primes(32, NTT_PRIMES);
    for log2_n in NTT64_LOG2_LENS.into_iter().filter(|&l| !quick || l <= 16) {
        rows.push(measure_ntt_of::<F64Word>(device, log2_n, &primes50, bar)?);
    }
    Ok(rows)
}

/// One row of [`measure_ntt`]: 8 transforms of 2^log2_n words `W` over
/// `primes`.
fn measure_ntt_of<W: gfpf::cuda::ntt::NttWord>(
    device: &std::sync::Arc<CudaDevice>,
    log2_n: u32,
    primes: &[u64],
    bar: &ProgressBar,
) -> Result<NttRow, String> {
    use gfpf::cuda::ntt::{CudaNtt, NttPlan};
    bar.set_message(format!(
        "word-size NTT 2^{log2_n} × {NTT_TRANSFORMS}, {}-bit primes",
        W::PRIME_BITS
    ));
    bar.inc(1);
    let at = |e: gfpf::cuda::CudaError| format!("word-size NTT 2^{log2_n} ({}-bit primes): {e}", W::PRIME_BITS);
    let n = 1usize << log2_n;
    let plan = NttPlan::<W>::try_new(n, primes).map_err(|e| at(e.into()))?;
    let ntt = CudaNtt::try_new(device, plan).map_err(at)?;
    let per_prime = NTT_TRANSFORMS / primes.len();
    // Words below the smaller prime: every transform's input is valid.
    let q = primes.iter().min().copied().unwrap_or(2);
    let words: Vec<W> = (0..(NTT_TRANSFORMS * n) as u64)
        .map(|i| W::from_u64(i.wrapping_mul(2_654_435_761) % q))
        .collect();
    let mut data = device.stream().clone_htod(&words).map_err(|e| e.to_string())?;
    let mut run = || ntt.process_device(&mut data, per_prime, Direction::Forward);
    run().map_err(at)?;
    device.synchronize().map_err(at)?;
    let mut times = Vec::with_capacity(GPU_RUNS);
    for _ in 0..GPU_RUNS {
        times.push(device.time_ms(&mut run).map_err(at)?);
    }
    Ok(NttRow {
        word_bits: W::BITS,
        prime_bits: W::PRIME_BITS,
        log2_n,
        passes: ntt.plan().stage_groups().len(),
        gpu_ms: median(&mut times),
    })
}

/// The NTT rows' table: time, passes, and against the copy of their words
/// (read and written once at `copy` bytes a second, measured here), once
/// and once a pass.
fn ntt_table(rows: &[NttRow], copy: f64) -> String {
    use std::fmt::Write as _;
    let mut out = format!(
        "\nword-size NTT (primes below 2^31 in 32-bit words, below 2^62 in 64-bit words, below 2^50 in FP64), {NTT_TRANSFORMS} forward transforms of N ({NTT_PRIMES} primes), resident, median of {GPU_RUNS}; copy: their words read and written once; x passes: against the copy once a pass:\n{:>5} {:>8} {:>7} {:>11} {:>11} {:>8} {:>9}\n",
        "prime", "N", "passes", "GPU", "copy", "x copy", "x passes"
    );
    for r in rows {
        let copy_ms = 2.0 * (NTT_TRANSFORMS << r.log2_n) as f64 * f64::from(r.word_bits / 8) / copy * 1e3;
        let _ = writeln!(
            out,
            "{:>5} {:>8} {:>7} {:>11} {:>11} {:>7.2}x {:>8.2}x",
            r.prime_bits,
            format!("2^{}", r.log2_n),
            r.passes,
            fmt_ms(r.gpu_ms),
            fmt_ms(copy_ms),
            r.gpu_ms / copy_ms,
            r.gpu_ms / (copy_ms * r.passes as f64)
        );
    }
    out
}

/// One point: N, the batch, and what was measured.
struct Row {
    prime: String,
    n: usize,
    batch: usize,
    gpu_ms: f64,
    passes: usize,
    bytes: f64,
    cpu_ms: f64,
}

struct Measure<'a> {
    device: &'a std::sync::Arc<CudaDevice>,
    points: &'a [(usize, usize)],
    quick: bool,
    bar: &'a ProgressBar,
}

impl FieldVisitor for Measure<'_> {
    type Output = Result<Vec<Row>, String>;
    fn visit<const K: usize>(self, field: Field<K>) -> Self::Output {
        let name = field_label(&field);
        let mut rows = Vec::new();
        for &(n, batch) in self.points {
            self.bar.set_message(format!("{name} N = {n} × {batch}"));
            self.bar.inc(1);
            if n.trailing_zeros() > field.two_adicity() {
                continue;
            }
            let len = n * batch;
            let mut rng = StdRng::seed_from_u64(n as u64);
            let input: Vec<_> = (0..len).map(|_| field.random(&mut rng)).collect();
            let at = |e: gfpf::cuda::CudaError| format!("{name} N = {n} × {batch}: {e}");
            let fft = CudaFft::try_new(self.device, &field, n, Direction::Forward, Order::Natural).map_err(at)?;
            let mut data = DeviceBuffer::upload(self.device, &input).map_err(at)?;
            let mut scratch = DeviceBuffer::zeros(self.device, fft.device_scratch_len(len)).map_err(at)?;
            let mut run = || fft.process_device(&mut data, Some(&mut scratch));
            run().map_err(at)?;
            self.device.synchronize().map_err(at)?;
            let mut times = Vec::with_capacity(GPU_RUNS);
            for _ in 0..GPU_RUNS {
                times.push(self.device.time_ms(&mut run).map_err(at)?);
            }
            let gpu_ms = median(&mut times);
            let passes = fft.plan().stages().len();
            let bytes = (passes * 2 * len * K * 8) as f64;

            let cpu = Fft::builder(&field, n)
                .device(Device::Cpu)
                .threading(Threading::Parallel)
                .build()
                .map_err(|e| e.to_string())?;
            let mut host = input.clone();
            let mut cpu_times = Vec::new();
            let started = Instant::now();
            let (runs, budget) = if self.quick { (3, 1.0) } else { (7, 5.0) };
            while cpu_times.len() < runs && (cpu_times.is_empty() || started.elapsed().as_secs_f64() < budget) {
                let t = Instant::now();
                cpu.forward(&mut host).map_err(|e| e.to_string())?;
                cpu_times.push(t.elapsed().as_secs_f64() * 1e3);
            }
            rows.push(Row {
                prime: name.clone(),
                n,
                batch,
                gpu_ms,
                passes,
                bytes,
                cpu_ms: median(&mut cpu_times),
            });
        }
        Ok(rows)
    }
}

/// One product point: n, and the medians of the three contenders (ms).
struct ProductRow {
    prime: String,
    n: usize,
    big_prime_ms: f64,
    multimodular_ms: Option<f64>,
    /// The word-size primes the device takes: how many, and their bits
    /// (31, or past their reach 50 in FP64 or 62).
    word_size_primes: Option<(usize, u32)>,
    auto: CudaMulAlgorithm,
    cpu_ms: f64,
}

/// Rounds of the product timings (each round runs every contender once).
const PRODUCT_ROUNDS: usize = 7;

/// Rounds of the product timings, fewer with `--quick`.
fn product_rounds(quick: bool) -> usize {
    if quick { 3 } else { PRODUCT_ROUNDS }
}

struct MeasureProducts<'a> {
    device: &'a std::sync::Arc<CudaDevice>,
    lens: &'a [usize],
    quick: bool,
    bar: &'a ProgressBar,
}

impl FieldVisitor for MeasureProducts<'_> {
    type Output = Result<Vec<ProductRow>, String>;
    fn visit<const K: usize>(self, field: Field<K>) -> Self::Output {
        let name = field_label(&field);
        let gpu = CudaPolyMul::new(self.device, &field);
        let cpu = PolyMul::new(&field)
            .map_err(|e| e.to_string())?
            .with_threading(Threading::Parallel);
        let mut rows = Vec::new();
        for &n in self.lens {
            self.bar.set_message(format!("{name} products n = {n}"));
            self.bar.inc(1);
            let mut rng = StdRng::seed_from_u64(n as u64);
            let a: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
            let b: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
            let at = |e: gfpf::cuda::CudaError| format!("{name} products n = {n}: {e}");
            // Warm-up, and every path checked against the host's product.
            let expected = cpu.mul(&a, &b, MulAlgorithm::Auto).map_err(|e| e.to_string())?;
            let big = gpu.mul_with(&a, &b, CudaMulAlgorithm::BigPrime).map_err(at)?;
            let small = match gpu.mul_with(&a, &b, CudaMulAlgorithm::MultiModular) {
                Ok(product) => Some(product),
                Err(gfpf::cuda::CudaError::Ntt(e)) => {
                    eprintln!("{name} n = {n}: no word-size primes on the device: {e}");
                    None
                }
                Err(e) => return Err(at(e)),
            };
            if big != expected || small.as_ref().is_some_and(|s| *s != expected) {
                return Err(format!(
                    "{name} products n = {n}: the device's product differs from the host's"
                ));
            }
            let rounds = product_rounds(self.quick);
            let (mut big_times, mut small_times, mut cpu_times) = (Vec::new(), Vec::new(), Vec::new());
            let timed = |f: &mut dyn FnMut() -> Result<(), String>, into: &mut Vec<f64>| {
                let t = Instant::now();
                f()?;
                into.push(t.elapsed().as_secs_f64() * 1e3);
                Ok::<(), String>(())
            };
            for _ in 0..rounds {
                timed(
                    &mut || gpu.mul_with(&a, &b, CudaMulAlgorithm::BigPrime).map(drop).map_err(at),
                    &mut big_times,
                )?;
                if small.is_some() {
                    timed(
                        &mut || {
                            gpu.mul_with(&a, &b, CudaMulAlgorithm::MultiModular)
                                .map(drop)
                                .map_err(at)
                        },
                        &mut small_times,
                    )?;
                }
                timed(
                    &mut || cpu.mul(&a, &b, MulAlgorithm::Auto).map(drop).map_err(|e| e.to_string()),
                    &mut cpu_times,
                )?;
            }
            rows.push(ProductRow {
                prime: name.clone(),
                n,
                big_prime_ms: median(&mut big_times),
                multimodular_ms: small.map(|_| median(&mut small_times)),
                word_size_primes: gfpf::cuda::multimodular::WordSizePlan::try_new(&field, n, n, gpu.word_sizes())
                    .ok()
                    .map(|plan| (plan.primes(), plan.prime_bits())),
                auto: gpu.resolve(CudaMulAlgorithm::Auto, n, n),
                cpu_ms: median(&mut cpu_times),
            });
        }
        Ok(rows)
    }
}

/// The n of the n × n products timed for a field of k digits (none above
/// k = 16, where the device has no word-size path): at k ≤ 8, 2^21 too,
/// past the 31-bit primes' reach.
fn product_lens(k: usize, quick: bool) -> Vec<usize> {
    match (k <= 16, quick) {
        (false, _) => Vec::new(),
        (true, true) => vec![1 << 12],
        (true, false) if k <= 8 => vec![1 << 12, 1 << 16, 1 << 20, 1 << 21],
        (true, false) => vec![1 << 12, 1 << 16],
    }
}

/// The (N, batch) points timed for a field of k digits.
fn points(k: usize, quick: bool) -> Vec<(usize, usize)> {
    let mut points = if quick {
        vec![(1 << 12, 1), (1 << 16, 1)]
    } else {
        vec![(1 << 12, 1), (1 << 16, 1), (1 << 20, 1)]
    };
    if !quick && k <= 8 {
        points.push((1 << 22, 1));
    }
    if k <= 16 {
        points.push((1 << 12, if quick { 16 } else { 256 }));
    }
    points
}

/// Runs the GPU benchmark over `primes` and prints the table; with `model`,
/// the time model's figures beside the measured ones.
pub fn run(primes: &[FieldSpec], quick: bool, model: Option<&ModelFigures>) -> Result<(), String> {
    let device = gfpf::cuda_device().map_err(|e| e.to_string())?;
    let copy = device.copy_bandwidth(COPY_BYTES, 10).map_err(|e| e.to_string())?;
    let threads = rayon::current_num_threads();
    let ntt_rows = NTT_LOG2_LENS.iter().filter(|&&l| !quick || l <= 16).count()
        + 2 * NTT64_LOG2_LENS.iter().filter(|&&l| !quick || l <= 16).count();
    let total: usize = primes
        .iter()
        .map(|p| points(p.k(), quick).len() + product_lens(p.k(), quick).len())
        .sum::<usize>()
        + ntt_rows;
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    );
    let mut rows = Vec::new();
    for spec in primes {
        let measure = Measure {
            device: &device,
            points: &points(spec.k(), quick),
            quick,
            bar: &bar,
        };
        rows.extend(spec.visit(measure).map_err(|e| e.to_string())??);
    }
    let mut products = Vec::new();
    for spec in primes {
        let measure = MeasureProducts {
            device: &device,
            lens: &product_lens(spec.k(), quick),
            quick,
            bar: &bar,
        };
        products.extend(spec.visit(measure).map_err(|e| e.to_string())??);
    }
    let ntt = measure_ntt(&device, quick, &bar)?;
    bar.finish_and_clear();
    let (shape, (driver_major, driver_minor)) = (device.shape(), device.driver_cuda_version());
    let name = device.name();
    println!(
        "gfpf bench --device cuda{}: {} (compute capability {}.{}, {} SMs, {} KiB of shared memory a block,",
        if quick { " --quick" } else { "" },
        name,
        device.compute_capability().0,
        device.compute_capability().1,
        shape.multiprocessors,
        shape.max_shared_bytes_per_block / 1024
    );
    println!("  driver CUDA {driver_major}.{driver_minor}), forward DFT_N, natural order,");
    println!("  data resident on the device, warm, median of {GPU_RUNS} runs timed with CUDA events;");
    println!(
        "  device-to-device copy bandwidth measured here: {:.0} GB/s (read + write);",
        copy / 1e9
    );
    println!("  bytes over passes = stages × (read + write) of the data; the CPU column is all {threads} host cores.");
    if let Some(m) = model {
        println!(
            "  model: the time model of `cargo xtask gpu-model` (an {}) at commit {}, {}: fitted (floor);",
            m.gpu, m.commit, m.date
        );
        if !m.models(&name) {
            println!(
                "  NOTE: the model is of an {}, this device is {name}: set their times side by side with care \
                 (docs/benchmarks has a model file for each GPU modelled).",
                m.gpu
            );
        }
        println!("  GPU/model = measured over the fitted model (below 1: faster than modelled).");
    }
    println!();
    println!(
        "{:<6} {:>8} {:>6} {:>11} {:>7} {:>12} {:>8} {:>12} {:>9}{}",
        "prime",
        "N",
        "batch",
        "GPU",
        "passes",
        "bytes/time",
        "of copy",
        format!("CPU {threads}T"),
        "CPU/GPU",
        if model.is_some() {
            format!(" {:>22} {:>9}", "model (floor)", "GPU/model")
        } else {
            String::new()
        }
    );
    for r in &rows {
        let rate = r.bytes / (r.gpu_ms * 1e-3);
        // The model's rows are single transforms.
        let modelled = model.and_then(|m| m.dft(&r.prime, r.n)).filter(|_| r.batch == 1);
        println!(
            "{:<6} {:>8} {:>6} {:>11} {:>7} {:>9.0} GB/s {:>7.0}% {:>12} {:>8.1}x{}",
            r.prime,
            format!("2^{}", r.n.trailing_zeros()),
            r.batch,
            fmt_ms(r.gpu_ms),
            r.passes,
            rate / 1e9,
            100.0 * rate / copy,
            fmt_ms(r.cpu_ms),
            r.cpu_ms / r.gpu_ms.max(1e-9),
            model.map_or(String::new(), |_| model_columns(r.gpu_ms, modelled.map(|m| m.big_ms)))
        );
    }
    if !products.is_empty() {
        print_products(&products, threads, quick, model);
    }
    print!("{}", ntt_table(&ntt, copy));
    Ok(())
}

/// The model's columns of a measured time: fitted (floor) and measured over
/// fitted, or dashes where the model has no such row.
fn model_columns(measured_ms: f64, modelled: Option<(f64, f64)>) -> String {
    match modelled {
        Some((fitted, floor)) => format!(
            " {:>22} {:>8.2}x",
            format!("{} ({})", fmt_ms(fitted), fmt_ms(floor)),
            measured_ms / fitted.max(1e-12)
        ),
        None => format!(" {:>22} {:>9}", "-", "-"),
    }
}

fn print_products(rows: &[ProductRow], threads: usize, quick: bool, model: Option<&ModelFigures>) {
    let rounds = product_rounds(quick);
    println!();
    println!("n × n products, host slices in and the product out (uploads and download timed), median of");
    println!("  {rounds} rounds, each running the three in turn: the big prime's padded transforms on the GPU,");
    println!(
        "  word-size primes on the GPU, and gfpf-cpu's Auto on all {threads} host cores; Auto = the device's choice."
    );
    println!("  its primes: the word-size primes' count and bits (31; past their reach 50 in FP64 where this GPU");
    println!("  runs FP64 at its integer rate, else 62).");
    println!();
    if model.is_some() {
        println!("  model columns: the big prime's and the word-size primes' modelled products (the device's work,");
        println!("  not the host's copies), fitted (floor), and measured over fitted.");
    }
    println!(
        "{:<6} {:>8} {:>11} {:>11} {:>11} {:>12} {:>12} {:>10}{}",
        "prime",
        "n",
        "big prime",
        "word-size",
        "its primes",
        "Auto",
        format!("CPU {threads}T"),
        "CPU/best",
        if model.is_some() {
            format!(
                " {:>22} {:>9} {:>22} {:>9}",
                "big prime model", "GPU/model", "word-size model", "GPU/model"
            )
        } else {
            String::new()
        }
    );
    for r in rows {
        let best = r.multimodular_ms.map_or(r.big_prime_ms, |m| m.min(r.big_prime_ms));
        let modelled = model.and_then(|m| m.product(&r.prime, r.n));
        let model_text = model.map_or(String::new(), |_| {
            let small = match (r.multimodular_ms, modelled.and_then(|m| m.small_ms)) {
                (Some(measured), Some(m)) => model_columns(measured, Some(m)),
                _ => model_columns(0.0, None),
            };
            model_columns(r.big_prime_ms, modelled.map(|m| m.big_ms)) + &small
        });
        println!(
            "{:<6} {:>8} {:>11} {:>11} {:>11} {:>12} {:>12} {:>9.1}x{model_text}",
            r.prime,
            format!("2^{}", r.n.trailing_zeros()),
            fmt_ms(r.big_prime_ms),
            r.multimodular_ms.map_or_else(|| "-".to_owned(), fmt_ms),
            r.word_size_primes
                .map_or_else(|| "-".to_owned(), |(count, bits)| format!("{count} × {bits}b")),
            match r.auto {
                CudaMulAlgorithm::MultiModular => "word-size",
                _ => "big prime",
            },
            fmt_ms(r.cpu_ms),
            r.cpu_ms / best.max(1e-9)
        );
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1e3)
    } else if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{:.1} µs", ms * 1e3)
    }
}

#[cfg(test)]
mod tests {
    use super::{NttRow, model_columns, ntt_table};

    #[test]
    fn ntt_rows_are_set_against_the_copy_of_their_words() {
        // 8 transforms of 2^24 words: 512 MiB read and written, 0.358 ms at
        // 3.0 TB/s; twice that is 2x, and in two passes 1x a pass.
        let rows = [
            NttRow {
                word_bits: 32,
                prime_bits: 31,
                log2_n: 24,
                passes: 2,
                gpu_ms: 2.0 * 2.0 * 8.0 * 16_777_216.0 * 4.0 / 3.0e12 * 1e3,
            },
            // 64-bit words: twice the bytes to copy.
            NttRow {
                word_bits: 64,
                prime_bits: 62,
                log2_n: 24,
                passes: 3,
                gpu_ms: 3.0 * 2.0 * 8.0 * 16_777_216.0 * 8.0 / 3.0e12 * 1e3,
            },
        ];
        let table = ntt_table(&rows, 3.0e12);
        let lines: Vec<&str> = table.lines().collect();
        let [.., line32, line64] = lines[..] else {
            panic!("{table}")
        };
        assert!(
            line32.contains("2^24") && line32.contains(" 2.00x") && line32.ends_with(" 1.00x"),
            "{table}"
        );
        assert!(line32.contains("357.9 µs"), "{table}");
        assert!(
            line64.trim_start().starts_with("62") && line64.contains(" 3.00x") && line64.ends_with(" 1.00x"),
            "{table}"
        );
        assert!(line64.contains("715.8 µs"), "{table}");
    }

    #[test]
    fn model_columns_give_measured_over_fitted() {
        assert_eq!(
            model_columns(1.5, Some((3.0, 1.0))),
            format!(" {:>22} {:>8.2}x", "3.00 ms (1.00 ms)", 0.5)
        );
        assert_eq!(
            model_columns(1.5, Some((0.05, 0.03))),
            format!(" {:>22} {:>8.2}x", "50.0 µs (30.0 µs)", 30.0)
        );
        assert_eq!(
            model_columns(1.5, None).split_whitespace().collect::<Vec<_>>(),
            ["-", "-"]
        );
    }
}
