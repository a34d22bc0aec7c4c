//! Shared helpers for the gfpf criterion benchmarks (`cargo bench -p gfpf-benches`)
//! and the baselines they compare against: the same six-step plans on GMP
//! arithmetic ([`gmp_fft`]), the small-prime approach of the thesis' chapter 7
//! ([`small_primes`]), GMP and multi-modular polynomial products
//! ([`poly_baselines`]) and the NTL/FLINT harness ([`peers`]).
//!
//! A baseline computes what gfpf computes:
//!
//! ```
//! use gfpf_benches::gmp_fft::GmpFft;
//! use gfpf_cpu::{CpuFft, Threading};
//! use gfpf_field::{Field, Preset};
//! use gfpf_plan::{Direction, Order};
//!
//! let field = Field::<4>::preset(Preset::P4)?;
//! let x: Vec<_> = (0..64).map(|i| field.from_u64(i * i)).collect();
//! let gmp = GmpFft::new(&field, 64, Direction::Forward, Order::Natural)?;
//! let mut big: Vec<_> = x.iter().map(|e| field.to_integer(e)).collect();
//! let mut scratch = big.clone();
//! gmp.process(&mut big, &mut scratch, Threading::Serial)?;
//! let mut y = x.clone();
//! CpuFft::forward(&field, 64)?.process(&mut y)?;
//! assert_eq!(big, y.iter().map(|e| field.to_integer(e)).collect::<Vec<_>>());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod gmp_fft;
pub mod peers;
pub mod poly_baselines;
pub mod small_primes;

use gfpf_field::{Element, Field};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// `n` pairs of uniformly random elements from a fixed seed, so every
/// benchmark (ours and the baselines) sees the same inputs from run to run.
pub fn random_pairs<const K: usize>(f: &Field<K>, n: usize, seed: u64) -> (Vec<Element<K>>, Vec<Element<K>>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let xs = (0..n).map(|_| f.random(&mut rng)).collect();
    let ys = (0..n).map(|_| f.random(&mut rng)).collect();
    (xs, ys)
}

/// The criterion settings shared by the gfpf benches: short warm-up and
/// measurement (the suite covers many sizes and presets), `sample_size`
/// samples. Medians are what the reports quote.
pub fn criterion_config(sample_size: usize) -> criterion::Criterion {
    criterion::Criterion::default()
        .sample_size(sample_size)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1))
}
