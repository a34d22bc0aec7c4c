//! Prints the preset table and times field multiplication against GMP.
//!
//! ```text
//! cargo run --release -p gfpf-field --example field_tour [-- --products N] [--preset NAME] [--compare]
//! ```
//!
//! For every preset: N random products (default 10^6, cycling through 1024
//! random pairs) with `Field::mul`, `Field::square`, and GMP `mpz_mul` +
//! `mpz_tdiv_r` on the same inputs (rug, reusing one output integer); then
//! `add` and `mul_pow_r`. With `--compare`, also the multiplication method
//! the field did not choose (how the thresholds were measured). One timed run per operation, reported per operation;
//! the criterion bench `field_mul` (package gfpf-benches) gives medians.

use std::hint::black_box;
use std::time::Instant;

use gfpf_field::{Element, Field, MulMethod, Preset};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rug::{Assign, Integer};

const POOL: usize = 1024;
/// Nanoseconds per operation of `f(count)` (after a short warm-up).
fn time_per_op(count: usize, mut f: impl FnMut(usize)) -> f64 {
    f(count.min(POOL));
    let start = Instant::now();
    f(count);
    start.elapsed().as_secs_f64() * 1e9 / count as f64
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 1000.0 {
        format!("{:.2} µs", ns / 1000.0)
    } else {
        format!("{ns:.1} ns")
    }
}

fn tour<const K: usize>(preset: Preset, products: usize, compare: bool) {
    let f = Field::<K>::preset(preset).expect("preset");
    let mut rng = StdRng::seed_from_u64(2019);
    let xs: Vec<Element<K>> = (0..POOL).map(|_| f.random(&mut rng)).collect();
    let ys: Vec<Element<K>> = (0..POOL).map(|_| f.random(&mut rng)).collect();
    let (xi, yi): (Vec<Integer>, Vec<Integer>) = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| (f.to_integer(x), f.to_integer(y)))
        .unzip();
    let p = f.p().clone();

    let ours = time_per_op(products, |n| {
        for i in 0..n {
            black_box(f.mul(black_box(&xs[i % POOL]), black_box(&ys[i % POOL])));
        }
    });
    // The method the field did not choose, for comparison.
    let other = compare.then(|| match f.mul_method() {
        MulMethod::Schoolbook => f.clone().with_convolution().expect("convolution"),
        _ => f.clone().with_mul_method(MulMethod::Schoolbook).expect("schoolbook"),
    });
    let other_time = other.as_ref().map(|other| {
        time_per_op(products, |n| {
            for i in 0..n {
                black_box(other.mul(black_box(&xs[i % POOL]), black_box(&ys[i % POOL])));
            }
        })
    });
    let square = time_per_op(products, |n| {
        for i in 0..n {
            black_box(f.square(black_box(&xs[i % POOL])));
        }
    });
    let mut t = Integer::new();
    let gmp = time_per_op(products, |n| {
        for i in 0..n {
            t.assign(&xi[i % POOL] * &yi[i % POOL]);
            t %= &p;
            black_box(&t);
        }
    });
    // Spot check: the same products.
    for i in 0..8 {
        assert_eq!(
            f.to_integer(&f.mul(&xs[i], &ys[i])),
            Integer::from(&xi[i] * &yi[i]) % &p
        );
    }
    let cheap = products.max(1_000_000);
    let add = time_per_op(cheap, |n| {
        for i in 0..n {
            black_box(f.add(black_box(&xs[i % POOL]), black_box(&ys[i % POOL])));
        }
    });
    let shift = time_per_op(cheap, |n| {
        for i in 0..n {
            black_box(f.mul_pow_r(black_box(&xs[i % POOL]), black_box(i % (2 * K))));
        }
    });
    println!(
        "{:<5} {:>22} {:>4} {:>5} {:>5} {:>3} | {:>10} {:>10} {:>10} {:>7.2}x | {:>9} {:>9} | {} ({}){}",
        preset.name(),
        preset.sparse().to_string(),
        K,
        f.bits(),
        f.two_adicity(),
        f.nonresidue(),
        fmt_ns(ours),
        fmt_ns(square),
        fmt_ns(gmp),
        gmp / ours,
        fmt_ns(add),
        fmt_ns(shift),
        f.mul_method().describe(),
        f.mul_kernel().describe(),
        match (&other, other_time) {
            (Some(o), Some(t)) => format!("; {}: {}", o.mul_method().describe(), fmt_ns(t)),
            _ => String::new(),
        },
    );
}

fn main() {
    let mut products = 1_000_000usize;
    let mut only: Option<String> = None;
    let mut compare = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--products" => products = args.next().and_then(|v| v.parse().ok()).expect("--products N"),
            "--preset" => only = args.next(),
            "--compare" => compare = true,
            "--help" | "-h" => {
                println!("usage: field_tour [--products N] [--preset NAME] [--compare]");
                return;
            }
            other => {
                eprintln!("unknown argument {other:?}; usage: field_tour [--products N] [--preset NAME] [--compare]");
                std::process::exit(2);
            }
        }
    }
    println!("gfpf-field tour: {products} products per preset and operation, one thread\n");
    println!(
        "{:<5} {:>22} {:>4} {:>5} {:>5} {:>3} | {:>10} {:>10} {:>10} {:>8} | {:>9} {:>9} | mul method (kernel)",
        "name", "r", "k", "bits", "v", "g", "mul", "square", "GMP mulmod", "GMP/mul", "add", "mul_pow_r"
    );
    for preset in Preset::ALL {
        if only.as_deref().is_some_and(|o| o != preset.name()) {
            continue;
        }
        gfpf_field::dispatch_k!(preset.k(), K => tour::<K>(preset, products, compare), _ => {
            unreachable!("every preset's k is compiled")
        })
    }
}
