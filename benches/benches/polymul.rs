//! Polynomial products over GF(p) (DESIGN §5.4): gfpf (TFT above the
//! schoolbook threshold) against GMP (Kronecker substitution, one mpz_mul)
//! and the small-prime approach (s NTT convolutions + CRT), same inputs side
//! by side; the schoolbook/TFT crossover; and the TFT's smoothness between
//! powers of two.
//!
//! `cargo bench -p gfpf-benches --bench polymul [-- FILTER]`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gfpf_benches::criterion_config;
use gfpf_benches::poly_baselines::{MultiModularMul, kronecker_mul};
use gfpf_cpu::{MulAlgorithm, PolyMul, Threading};
use gfpf_field::{Element, Field, Preset};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn operands<const K: usize>(field: &Field<K>, n: usize) -> (Vec<Element<K>>, Vec<Element<K>>) {
    let mut rng = StdRng::seed_from_u64(n as u64);
    let a = (0..n).map(|_| field.random(&mut rng)).collect();
    let b = (0..n).map(|_| field.random(&mut rng)).collect();
    (a, b)
}

/// n × n products: ours (one thread, all threads), GMP, small primes.
fn versus<const K: usize>(c: &mut Criterion, preset: Preset, sizes: &[usize]) {
    let field = Field::<K>::preset(preset).unwrap();
    let mut group = c.benchmark_group(format!("polymul_{}", preset.name()));
    for &n in sizes {
        let (a, b) = operands(&field, n);
        for threading in [Threading::Serial, Threading::Parallel] {
            let pm = PolyMul::new(&field).unwrap().with_threading(threading);
            let label = if threading == Threading::Serial {
                "gfpf_serial"
            } else {
                "gfpf_parallel"
            };
            group.bench_function(BenchmarkId::new(label, n), |bch| {
                bch.iter(|| pm.mul(&a, &b, MulAlgorithm::Auto).unwrap())
            });
        }
        group.bench_function(BenchmarkId::new("gmp_kronecker", n), |bch| {
            bch.iter(|| kronecker_mul(&field, &a, &b))
        });
        if let Some(mm) = MultiModularMul::new(field.bits(), 2 * n - 1, n) {
            let mm = mm.unwrap();
            for (label, parallel) in [("small_primes_serial", false), ("small_primes_parallel", true)] {
                group.bench_function(BenchmarkId::new(format!("{label}_{}", mm.primes()), n), |bch| {
                    bch.iter(|| mm.mul(&field, &a, &b, parallel))
                });
            }
        }
    }
    group.finish();
}

/// Schoolbook against TFT on one thread, n × n, around the threshold.
fn threshold<const K: usize>(c: &mut Criterion, preset: Preset) {
    let field = Field::<K>::preset(preset).unwrap();
    let pm = PolyMul::new(&field).unwrap().with_threading(Threading::Serial);
    let mut group = c.benchmark_group(format!("polymul_threshold_{}", preset.name()));
    for n in [8, 12, 16, 20, 24, 32, 48, 64] {
        let (a, b) = operands(&field, n);
        for algorithm in [MulAlgorithm::Schoolbook, MulAlgorithm::Tft] {
            group.bench_function(BenchmarkId::new(format!("{algorithm:?}").to_lowercase(), n), |bch| {
                bch.iter(|| pm.mul(&a, &b, algorithm).unwrap())
            });
        }
    }
    group.finish();
}

/// Product lengths between two powers of two, one thread: TFT against the
/// padded power-of-two FFT it replaces (the time at the next power of two).
fn smoothness(c: &mut Criterion) {
    let field = Field::<8>::preset(Preset::T8).unwrap();
    let pm = PolyMul::new(&field).unwrap().with_threading(Threading::Serial);
    let mut group = c.benchmark_group("polymul_smooth_t8");
    // Operand lengths n give products of 2n − 1: from just above 2^12 to 2^13.
    for n in [2049, 2304, 2560, 2816, 3072, 3584, 4096] {
        let (a, b) = operands(&field, n);
        group.bench_function(BenchmarkId::new("gfpf_serial", n), |bch| {
            bch.iter(|| pm.mul(&a, &b, MulAlgorithm::Tft).unwrap())
        });
    }
    group.finish();
}

fn all(c: &mut Criterion) {
    threshold::<8>(c, Preset::T8);
    threshold::<8>(c, Preset::P8);
    threshold::<16>(c, Preset::T16);
    smoothness(c);
    versus::<8>(c, Preset::T8, &[1 << 8, 1 << 10, 1 << 12, 1 << 14, 1 << 16]);
    versus::<8>(c, Preset::P8, &[1 << 8, 1 << 10, 1 << 12, 1 << 14]);
    versus::<16>(c, Preset::T16, &[1 << 8, 1 << 10, 1 << 12]);
}

criterion_group! {
    name = benches;
    config = criterion_config(10);
    targets = all
}
criterion_main!(benches);
