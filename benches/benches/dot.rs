//! Exact dot products modulo a 50-bit prime: f64 + FMA (λ-algorithm and the
//! (α, β, γ, δ) splitting) against an integer Montgomery dot product, on the
//! same inputs, one thread.
//!
//! ```text
//! cargo bench -p gfpf-benches --bench dot
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gfpf_small::primes::FP_PRIMES_50;
use gfpf_small::{FpModulus, Montgomery64};

fn dot(c: &mut Criterion) {
    let q = FP_PRIMES_50[0];
    let fp = FpModulus::new(q).expect("q < 2^50");
    let mont = Montgomery64::new(q).expect("odd q");
    let mut group = c.benchmark_group("dot/q50");
    for log2n in (10..=20).step_by(2) {
        let n = 1usize << log2n;
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 8) % q
        };
        let a: Vec<u64> = (0..n).map(|_| next()).collect();
        let b: Vec<u64> = (0..n).map(|_| next()).collect();
        let (af, bf): (Vec<f64>, Vec<f64>) = (
            a.iter().map(|&x| x as f64).collect(),
            b.iter().map(|&x| x as f64).collect(),
        );
        let (am, bm): (Vec<u64>, Vec<u64>) = (
            a.iter().map(|&x| mont.to_montgomery(x)).collect(),
            b.iter().map(|&x| mont.to_montgomery(x)).collect(),
        );
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("f64_lambda", n), &n, |bch, _| {
            bch.iter(|| fp.dot_lambda(black_box(&af), black_box(&bf)).expect("lengths"))
        });
        group.bench_with_input(BenchmarkId::new("f64_split", n), &n, |bch, _| {
            bch.iter(|| fp.dot_split(black_box(&af), black_box(&bf)).expect("lengths"))
        });
        group.bench_with_input(BenchmarkId::new("int_montgomery", n), &n, |bch, _| {
            bch.iter(|| mont.dot(black_box(&am), black_box(&bm)).expect("lengths"))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = gfpf_benches::criterion_config(10);
    targets = dot
}
criterion_main!(benches);
