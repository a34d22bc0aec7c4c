//! Shared helpers for the gfpf criterion benchmarks (`cargo bench -p
//! gfpf-benches`) and the NTL/FLINT comparison harness ([`peers`]). The
//! baselines the benches compare against live in gfpf-baselines (shared with
//! the `gfpf bench` program) and are re-exported here.
//!
//! ```
//! use gfpf_benches::random_pairs;
//! use gfpf_field::{Field, Preset};
//!
//! let field = Field::<8>::preset(Preset::T8)?;
//! let (xs, ys) = random_pairs(&field, 4, 1);
//! assert_eq!((xs.len(), ys.len()), (4, 4));
//! assert_eq!(random_pairs(&field, 4, 1).0, xs, "same seed, same inputs");
//! # Ok::<(), gfpf_field::FieldError>(())
//! ```

pub use gfpf_baselines::{gmp_fft, poly_baselines, small_primes};
pub mod peers;

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
