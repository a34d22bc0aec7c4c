//! Forward DFT: gfpf-cpu (one thread, all threads) against the same six-step
//! plan on GMP arithmetic (ISSAC 2019 tables 4–5), N = K² and K³ with K = 2k,
//! plus t8 at 2^16 for the parallel speedup. Same inputs side by side.
//!
//! `cargo bench -p gfpf-benches --bench fft [-- FILTER]`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gfpf_benches::criterion_config;
use gfpf_benches::gmp_fft::GmpFft;
use gfpf_cpu::{CpuFft, Threading};
use gfpf_field::{Field, Preset};
use gfpf_plan::{Direction, Order};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rug::Integer;

/// Transforms larger than this many words (N·k) are left out of the sweep: one
/// iteration would take tens of seconds on the development machine. K³ for
/// k = 64 (N = 2^21) is measured by the `fft_breakdown` target instead:
/// `cargo bench -p gfpf-benches --bench fft_breakdown -- --preset p64 --log2n 21
/// --gmp --no-stages --repeat 1` (about 3 minutes per thread count on 2 cores).
const MAX_WORDS: usize = 1 << 23;

fn bench_preset<const K: usize>(c: &mut Criterion, preset: Preset, sizes: &[usize]) {
    let field = Field::<K>::preset(preset).unwrap();
    let mut group = c.benchmark_group(format!("fft_{}", preset.name()));
    for &n in sizes {
        if n * K > MAX_WORDS {
            continue;
        }
        let mut rng = StdRng::seed_from_u64(n as u64);
        let input: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
        for threading in [Threading::Serial, Threading::Parallel] {
            let label = match threading {
                Threading::Serial => "serial",
                Threading::Parallel => "parallel",
            };
            let fft = CpuFft::forward(&field, n).unwrap().with_threading(threading);
            let mut data = input.clone();
            let mut scratch = vec![field.zero(); fft.scratch_len()];
            group.bench_function(BenchmarkId::new(format!("gfpf_{label}"), n), |b| {
                b.iter(|| fft.process_with_scratch(&mut data, &mut scratch).unwrap())
            });
            let gmp = GmpFft::new(&field, n, Direction::Forward, Order::Natural).unwrap();
            let mut data: Vec<Integer> = input.iter().map(|x| field.to_integer(x)).collect();
            let mut scratch = vec![Integer::new(); gmp.scratch_len()];
            group.bench_function(BenchmarkId::new(format!("gmp_{label}"), n), |b| {
                b.iter(|| gmp.process(&mut data, &mut scratch, threading).unwrap())
            });
        }
    }
    group.finish();
}

fn fft(c: &mut Criterion) {
    let cube = |k: usize| [4 * k * k, 8 * k * k * k];
    bench_preset::<4>(c, Preset::P4, &cube(4));
    bench_preset::<8>(c, Preset::P8, &cube(8));
    bench_preset::<16>(c, Preset::P16, &cube(16));
    bench_preset::<32>(c, Preset::P32, &cube(32));
    bench_preset::<64>(c, Preset::P64, &cube(64));
    bench_preset::<8>(c, Preset::T8, &[1 << 8, 1 << 12, 1 << 16]);
}

criterion_group! {
    name = benches;
    config = criterion_config(10);
    targets = fft
}
criterion_main!(benches);
