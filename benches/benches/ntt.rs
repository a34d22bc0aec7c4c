//! Word-size NTTs (gfpf-small): forward + inverse, one thread.
//!
//! Throughput is reported in butterflies: a transform of length n has
//! (n/2)·log2(n) of them, so forward + inverse is n·log2(n).
//!
//! ```text
//! cargo bench -p gfpf-benches --bench ntt
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gfpf_small::Plan;
use gfpf_small::primes::{NTT_PRIMES_31, NTT_PRIMES_62};

fn ntt(c: &mut Criterion) {
    for (label, q) in [("q62", NTT_PRIMES_62[0]), ("q31", NTT_PRIMES_31[2])] {
        let mut group = c.benchmark_group(format!("ntt/{label}"));
        for log2n in (10..=20).step_by(2) {
            let n = 1usize << log2n;
            let plan = Plan::try_new(n, q).expect("plan");
            let mut data: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) % q)
                .collect();
            group.throughput(Throughput::Elements((n * log2n) as u64));
            group.bench_with_input(BenchmarkId::new("forward_inverse", n), &n, |b, _| {
                b.iter(|| {
                    plan.forward(black_box(&mut data)).expect("length");
                    plan.inverse(black_box(&mut data)).expect("length");
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
