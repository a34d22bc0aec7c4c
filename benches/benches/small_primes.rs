//! Big prime against small primes (thesis chapter 7, DESIGN §5.3): our
//! forward DFT over GF(p) against (benchmark 1) projection + s NTTs +
//! mixed-radix reconstruction with m > p, the same output, over 62-bit
//! primes on the scalar `Plan` (`bench1_`) and over 50-bit primes on
//! `Plan52`, the fastest word-size transform of the project (AVX-512 IFMA
//! or AVX2 lanes; `bench1p52_`): more primes, faster
//! NTTs, and whichever is faster is the opponent. Benchmark 2: k `Plan52`
//! NTTs alone over the same input bytes. One thread and all threads; same
//! inputs side by side.
//!
//! `cargo bench -p gfpf-benches --bench small_primes [-- FILTER]`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gfpf_benches::criterion_config;
use gfpf_benches::small_primes::SmallPrimeDft;
use gfpf_cpu::{CpuFft, Threading};
use gfpf_field::{Field, Preset};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn bench_preset<const K: usize>(c: &mut Criterion, preset: Preset, sizes: &[usize]) {
    let field = Field::<K>::preset(preset).unwrap();
    let (s1, s50) = (
        SmallPrimeDft::primes_for_bits(field.bits()),
        SmallPrimeDft::primes_for_bits_50(field.bits()),
    );
    let mut group = c.benchmark_group(format!("big_vs_small_{}", preset.name()));
    for &n in sizes {
        let mut rng = StdRng::seed_from_u64(n as u64);
        let input: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
        let words: Vec<u64> = input.iter().flat_map(|x| field.to_words(x)).collect();
        let same_output = SmallPrimeDft::new(n, K, s1).unwrap();
        let same_output_52 = SmallPrimeDft::with_plan52(n, K, s50).unwrap();
        let same_input = SmallPrimeDft::with_plan52(n, K, K).unwrap();
        for (label, threading) in [("serial", Threading::Serial), ("parallel", Threading::Parallel)] {
            let parallel = threading == Threading::Parallel;
            let fft = CpuFft::forward(&field, n).unwrap().with_threading(threading);
            let mut data = input.clone();
            let mut scratch = vec![field.zero(); fft.scratch_len()];
            group.bench_function(BenchmarkId::new(format!("gfpf_{label}"), n), |b| {
                b.iter(|| fft.process_with_scratch(&mut data, &mut scratch).unwrap())
            });
            let mut residues = vec![0u64; same_output.residue_len()];
            let mut out = vec![0u64; n * s1];
            group.bench_function(BenchmarkId::new(format!("bench1_{s1}primes_{label}"), n), |b| {
                b.iter(|| same_output.dft_same_output(&words, &mut residues, &mut out, parallel))
            });
            let mut residues = vec![0u64; same_output_52.residue_len()];
            let mut out = vec![0u64; n * s50];
            group.bench_function(BenchmarkId::new(format!("bench1p52_{s50}primes_{label}"), n), |b| {
                b.iter(|| same_output_52.dft_same_output(&words, &mut residues, &mut out, parallel))
            });
            // Values below every 50-bit prime (NTT inputs must be reduced).
            let mut residues: Vec<u64> = words.iter().map(|w| w >> 15).collect();
            group.bench_function(BenchmarkId::new(format!("bench2_{K}ntts_{label}"), n), |b| {
                b.iter(|| same_input.ntts(&mut residues, parallel))
            });
        }
    }
    group.finish();
}

fn big_vs_small(c: &mut Criterion) {
    bench_preset::<8>(c, Preset::T8, &[1 << 8, 1 << 12, 1 << 16, 1 << 20]);
    bench_preset::<8>(c, Preset::P8, &[1 << 8, 1 << 12, 1 << 16, 1 << 20]);
    bench_preset::<16>(c, Preset::T16, &[1 << 8, 1 << 12, 1 << 16, 1 << 20]);
}

criterion_group! {
    name = benches;
    config = criterion_config(10);
    targets = big_vs_small
}
criterion_main!(benches);
