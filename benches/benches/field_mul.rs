//! Field multiplication against GMP, per preset (DESIGN §5.1, issue: field_mul).
//!
//! Each iteration runs one operation on each of `BATCH` random pairs (the same
//! pairs for gfpf and GMP); throughput is reported per operation.
//! GMP's side is rug `mpz_mul` + `mpz_tdiv_r` (`(a*b) % p`) into a reused integer.
//! `gfpf_mul` is the field's default method (see `Field::mul_method`); the other
//! method is timed too, as `gfpf_mul_schoolbook` or `gfpf_mul_convolution`.
//! `gfpf_mul_lanes4` is the same products four at a time (`Field::mul_lanes`,
//! what the FFT's twiddle rows use without SIMD lanes). `gfpf_mul_simd8` is
//! the same products eight at a time in SIMD lanes
//! ([`LaneArith::mul_assign_each`] on the CPU's best lane instruction set:
//! with AVX-512 IFMA four blocks of eight at a time, their carry chains
//! interleaved, else four at a time), what the FFT's twiddles use where the
//! CPU can; each iteration multiplies the blocks in place by the same
//! factors (a twiddle-like fixed operand).
//!
//! ```text
//! cargo bench -p gfpf-benches --bench field_mul [-- t8]
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gfpf_benches::random_pairs;
use gfpf_field::{Field, LANES, LaneArith, LaneIsa, Lanes, MulMethod, Preset};
use rug::{Assign, Integer};

const BATCH: usize = 1024;

fn bench_preset<const K: usize>(c: &mut Criterion, preset: Preset) {
    let f = Field::<K>::preset(preset).expect("preset");
    let (xs, ys) = random_pairs(&f, BATCH, 2019);
    let xi: Vec<Integer> = xs.iter().map(|x| f.to_integer(x)).collect();
    let yi: Vec<Integer> = ys.iter().map(|y| f.to_integer(y)).collect();
    let p = f.p().clone();

    let mut group = c.benchmark_group(format!("field_mul/{}", preset.name()));
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("gfpf_mul", |b| {
        b.iter(|| {
            for (x, y) in xs.iter().zip(&ys) {
                black_box(f.mul(black_box(x), black_box(y)));
            }
        })
    });
    group.bench_function("gfpf_mul_lanes4", |b| {
        b.iter(|| {
            for (x, y) in xs.chunks_exact(4).zip(ys.chunks_exact(4)) {
                black_box(f.mul_lanes(
                    black_box([&x[0], &x[1], &x[2], &x[3]]),
                    black_box([&y[0], &y[1], &y[2], &y[3]]),
                ));
            }
        })
    });
    let lanes = LaneArith::new(&f, LaneIsa::best()).expect("the best lane ISA is available");
    let blocks = |v: &[gfpf_field::Element<K>]| -> Vec<Lanes<K>> {
        v.chunks_exact(LANES).map(|c| Lanes::from_fn(|l| c[l])).collect()
    };
    let (mut xb, yb) = (blocks(&xs), blocks(&ys));
    // In place, so that no copy is timed: the blocks stay random elements.
    group.bench_function("gfpf_mul_simd8", |b| {
        b.iter(|| {
            lanes.mul_assign_each(black_box(&mut xb), black_box(&yb));
        })
    });
    group.bench_function("gfpf_square", |b| {
        b.iter(|| {
            for x in &xs {
                black_box(f.square(black_box(x)));
            }
        })
    });
    // The method the field did not choose, for the threshold's record.
    let (other, other_name) = match f.mul_method() {
        MulMethod::Schoolbook => (
            f.clone().with_convolution().expect("convolution"),
            "gfpf_mul_convolution",
        ),
        _ => (
            f.clone().with_mul_method(MulMethod::Schoolbook).expect("schoolbook"),
            "gfpf_mul_schoolbook",
        ),
    };
    group.bench_function(other_name, |b| {
        b.iter(|| {
            for (x, y) in xs.iter().zip(&ys) {
                black_box(other.mul(black_box(x), black_box(y)));
            }
        })
    });
    let mut t = Integer::new();
    group.bench_function("gmp_mulmod", |b| {
        b.iter(|| {
            for (x, y) in xi.iter().zip(&yi) {
                t.assign(x * y);
                t %= &p;
                black_box(&t);
            }
        })
    });
    group.bench_function("gfpf_add", |b| {
        b.iter(|| {
            for (x, y) in xs.iter().zip(&ys) {
                black_box(f.add(black_box(x), black_box(y)));
            }
        })
    });
    group.bench_function("gfpf_mul_pow_r", |b| {
        b.iter(|| {
            for (i, x) in xs.iter().enumerate() {
                black_box(f.mul_pow_r(black_box(x), i % (2 * K)));
            }
        })
    });
    group.finish();
}

fn field_mul(c: &mut Criterion) {
    for preset in Preset::ALL {
        gfpf_field::dispatch_k!(preset.k(), K => bench_preset::<K>(c, preset), _ => {
            unreachable!("every preset's k is compiled")
        })
    }
}

criterion_group! {
    name = benches;
    config = gfpf_benches::criterion_config(20);
    targets = field_mul
}
criterion_main!(benches);
