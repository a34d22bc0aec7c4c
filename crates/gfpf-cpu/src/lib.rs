//! The multi-core CPU executor of gfpf: runs [`gfpf_plan::Plan`]s over
//! GF(r^k + 1) on slices of [`gfpf_field::Element`], in place with one
//! scratch buffer, batched, on the current rayon pool or on one thread.
//!
//! Base cases are the generated, unrolled DFT_K codelets ([`codelets`]);
//! twiddle multiplications are fused into them (the plan says where), with
//! w^e = r^q·table\[m\] (a shift and one full multiplication by an entry of a
//! table of N/2k powers, computed once per executor and shared by clones).
//! Where the CPU has AVX2 or AVX-512, a stage's DFTs run eight at a time in
//! SIMD lanes ([`gfpf_field::Lanes`]; [`CpuFft::with_lane_isa`] chooses),
//! their twiddles multiplied in lanes too with AVX-512 IFMA.
//!
//! ```
//! use gfpf_cpu::CpuFft;
//! use gfpf_field::{Field, Preset};
//!
//! let field = Field::<8>::preset(Preset::T8)?;
//! let fft = CpuFft::forward(&field, 1 << 10)?;
//! let ifft = CpuFft::inverse(&field, 1 << 10)?;
//! let x: Vec<_> = (0..1024).map(|i| field.from_u64(i)).collect();
//! let mut y = x.clone();
//! fft.process(&mut y)?;
//! // y[0] is the sum of the inputs.
//! assert_eq!(y[0], field.from_u64(1023 * 1024 / 2));
//! ifft.process(&mut y)?;
//! assert_eq!(y, x);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// This crate's README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod breakdown;
mod cache;
pub mod codelets;
mod error;
mod executor;
mod multimodular;
mod poly;
mod runner;
mod threads;

pub use breakdown::{Breakdown, StageTiming};
pub use error::CpuError;
pub use executor::{CpuFft, LANE_TWIDDLES_MAX_WORDS, twiddle_table};
pub use gfpf_executor::{PreparedFft, Transform, TransformError, TwiddleLayout, TwiddleTable};
pub use gfpf_plan::{Direction, Order};
pub use multimodular::{
    MULTIMODULAR_FRESH_MAX_WORDS, MULTIMODULAR_KEEP_MAX_WORDS, MULTIMODULAR_MAX_LEN, MULTIMODULAR_PARALLEL_MIN_WORDS,
    MULTIMODULAR_PARALLEL_MIN_WORDS_IN_POOL, MultiModular,
};
pub use poly::{MulAlgorithm, PolyMul, auto_schoolbook_max_len};
pub use runner::{
    PARALLEL_MIN_WORDS, PlanArith, SOURCE_ORDER_MIN_WORDS, StridedDfts, TASK_MIN_WORDS, Threading, run_plan,
};
pub use threads::{
    MAX_THREADS_PER_CORE, MIN_THREADS_CAP, available_cores, check_thread_count, install_global_pool, max_threads,
    thread_pool,
};
