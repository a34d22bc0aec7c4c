//! `gfpf bench --device cuda`: transforms on the GPU timed with CUDA events
//! (data resident on the device, warm, median of many runs), reported as
//! time and as bytes moved over the stages' passes against the device's own
//! copy bandwidth, with the same transform on all host cores beside it.

use std::time::Instant;

use gfpf::cuda::{CudaDevice, CudaFft, DeviceBuffer, median};
use gfpf::{Device, Direction, Fft, Field, FieldSpec, FieldVisitor, Order, Threading};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Timed runs per point on the GPU (after one warm-up).
const GPU_RUNS: usize = 20;
/// Bytes of the buffer the copy bandwidth is measured on.
const COPY_BYTES: usize = 256 << 20;

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
        let name = field
            .name()
            .map_or_else(|| format!("({})^{K}+1", field.sparse()), str::to_owned);
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

/// Runs the GPU benchmark over `primes` and prints the table.
pub fn run(primes: &[FieldSpec], quick: bool) -> Result<(), String> {
    let device = gfpf::cuda_device().map_err(|e| e.to_string())?;
    let copy = device.copy_bandwidth(COPY_BYTES, 10).map_err(|e| e.to_string())?;
    let threads = rayon::current_num_threads();
    let total: usize = primes.iter().map(|p| points(p.k(), quick).len()).sum();
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
    bar.finish_and_clear();
    println!(
        "gfpf bench --device cuda{}: {} (compute capability {}.{}), forward DFT_N, natural order,",
        if quick { " --quick" } else { "" },
        device.name(),
        device.compute_capability().0,
        device.compute_capability().1
    );
    println!("  data resident on the device, warm, median of {GPU_RUNS} runs timed with CUDA events;");
    println!(
        "  device-to-device copy bandwidth measured here: {:.0} GB/s (read + write);",
        copy / 1e9
    );
    println!("  bytes over passes = stages × (read + write) of the data; the CPU column is all {threads} host cores.");
    println!();
    println!(
        "{:<6} {:>8} {:>6} {:>11} {:>7} {:>12} {:>8} {:>12} {:>9}",
        "prime",
        "N",
        "batch",
        "GPU",
        "passes",
        "bytes/time",
        "of copy",
        format!("CPU {threads}T"),
        "CPU/GPU"
    );
    for r in &rows {
        let rate = r.bytes / (r.gpu_ms * 1e-3);
        println!(
            "{:<6} {:>8} {:>6} {:>11} {:>7} {:>9.0} GB/s {:>7.0}% {:>12} {:>8.1}x",
            r.prime,
            format!("2^{}", r.n.trailing_zeros()),
            r.batch,
            fmt_ms(r.gpu_ms),
            r.passes,
            rate / 1e9,
            100.0 * rate / copy,
            fmt_ms(r.cpu_ms),
            r.cpu_ms / r.gpu_ms.max(1e-9)
        );
    }
    Ok(())
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
