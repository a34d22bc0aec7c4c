//! Shared helpers for the gfpf criterion benchmarks (`cargo bench -p
//! gfpf-benches`). The baselines the benches compare against, the NTL/FLINT
//! comparison harness ([`peers`]) included, live in gfpf-baselines (shared
//! with the `gfpf bench` program) and are re-exported here.
//!
//! The bench targets are this crate's examples (`benches/benches/*.rs`, built
//! by CI's clippy run); `cargo bench -p gfpf-benches --bench fft -- --quick`
//! runs one. `cargo test` builds nothing of this crate: its harness
//! dependencies (criterion, concrete-ntt) are a minute of the test build on
//! two cores, for no test of the library.

pub use gfpf_baselines::{gmp_fft, peers, poly_baselines, small_primes};

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

/// Makes the calling thread one of the workers of rayon's global pool
/// (`ThreadPoolBuilder::use_current_thread`, all cores), as NTL's
/// `SetNumThreads` and FLINT's `flint_set_num_threads` pools include theirs:
/// a parallel product started on this thread then runs on it and one other
/// thread on two cores, instead of waiting while two others run it and
/// handing every parallel step over to them. Measured (the project's 2-core
/// VM, multi-modular products on two threads, alternating with the default
/// pool, seven rounds, minimum and median): t8 n = 2^14 4.00 → 3.64 ms
/// (median 4.11 → 3.80), 2^16 21.1 → 20.3 (22.2 → 20.6); p8 2^14 4.28 →
/// 3.80 (4.39 → 4.02); t16 2^15 20.8 → 19.2 (22.9 → 20.5). Call it before
/// anything uses rayon; false if the global pool was already started (it
/// is then left as it is).
pub fn caller_in_rayon_pool() -> bool {
    gfpf_cpu::install_global_pool(None).is_ok()
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
