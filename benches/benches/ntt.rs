//! Word-size NTTs: gfpf-small against the `concrete-ntt` crate (0.2, stable
//! Rust), same prime, forward + inverse (both scaled back to the input),
//! one thread (Plan52 also on all threads from NTT52_PARALLEL_MIN_LEN),
//! side by side in one group.
//!
//! Throughput is reported in butterflies: a transform of length n has
//! (n/2)·log2(n) of them, so forward + inverse is n·log2(n).
//!
//! ```text
//! cargo bench -p gfpf-benches --bench ntt
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gfpf_small::primes::{FP_PRIMES_50, NTT_PRIMES_31, NTT_PRIMES_62};
use std::time::Instant;

use gfpf_small::{Isa, NTT52_PARALLEL_MIN_LEN, Plan, Plan52};

/// Sizes 2^10 … 2^22.
const LOG2_SIZES: std::ops::RangeInclusive<usize> = 10..=22;

fn ntt(c: &mut Criterion) {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    for (label, q) in [
        ("q62", NTT_PRIMES_62[0]),
        ("q50", FP_PRIMES_50[0]),
        ("q31", NTT_PRIMES_31[2]),
    ] {
        let mut group = c.benchmark_group(format!("ntt/{label}"));
        for log2n in LOG2_SIZES.step_by(2) {
            let n = 1usize << log2n;
            let input: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) % q)
                .collect();
            group.throughput(Throughput::Elements((n * log2n) as u64));
            let plan = Plan::try_new(n, q).expect("plan");
            let mut data = input.clone();
            group.bench_with_input(BenchmarkId::new("forward_inverse", n), &n, |b, _| {
                b.iter(|| {
                    plan.forward(black_box(&mut data)).expect("length");
                    plan.inverse(black_box(&mut data)).expect("length");
                })
            });
            // 52-bit lanes (AVX-512 IFMA) and f64 lanes (AVX2 + FMA) for
            // q < 2^50, on every vector instruction set this CPU has, on one
            // thread (a one-thread pool: long Plan52 transforms otherwise use
            // rayon's threads); the fastest also on all threads where it
            // uses them.
            for isa in Isa::available().into_iter().filter(|&isa| isa != Isa::Scalar) {
                let Ok(plan52) = Plan52::try_new(n, q).and_then(|p| p.with_isa(isa)) else {
                    continue;
                };
                let mut data = input.clone();
                group.bench_with_input(BenchmarkId::new(format!("lanes52_{isa:?}"), n), &n, |b, _| {
                    b.iter_custom(|iters| {
                        one_thread.install(|| {
                            let start = Instant::now();
                            for _ in 0..iters {
                                plan52.forward(black_box(&mut data)).expect("length");
                                plan52.inverse(black_box(&mut data)).expect("length");
                            }
                            start.elapsed()
                        })
                    })
                });
                if isa == Isa::best() && n >= NTT52_PARALLEL_MIN_LEN && rayon::current_num_threads() > 1 {
                    group.bench_with_input(BenchmarkId::new("lanes52_all_threads", n), &n, |b, _| {
                        b.iter(|| {
                            plan52.forward(black_box(&mut data)).expect("length");
                            plan52.inverse(black_box(&mut data)).expect("length");
                        })
                    });
                }
            }
            // The same transform pair by concrete-ntt (its inverse leaves the
            // factor n, which `normalize` removes, as ours does).
            let peer = concrete_ntt::prime64::Plan::try_new(n, q).expect("concrete-ntt plan");
            let mut data = input.clone();
            peer.fwd(&mut data);
            peer.inv(&mut data);
            peer.normalize(&mut data);
            assert_eq!(data, input, "concrete-ntt round trip");
            group.bench_with_input(BenchmarkId::new("concrete_ntt", n), &n, |b, _| {
                b.iter(|| {
                    peer.fwd(black_box(&mut data));
                    peer.inv(black_box(&mut data));
                    peer.normalize(black_box(&mut data));
                })
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = gfpf_benches::criterion_config(10);
    targets = ntt
}
criterion_main!(benches);
