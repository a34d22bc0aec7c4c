//! FFT plans for GF(r^k + 1) in the tensor (Kronecker-product) notation of
//! the thesis and ISSAC 2019, their flattening into executable stage lists,
//! and the unrolled DFT_K codelet generator. No field arithmetic lives here:
//! plans and codelets are sizes, strides and exponents.
//!
//! * [`Formula`]: DFT_n at a root exponent, I_m ⊗ A, A ⊗ I_m, the stride
//!   permutation L^{mn}_m, the twiddle diagonal D_{m,n}, composition;
//!   [`std::fmt::Display`] writes the thesis' notation.
//! * [`Formula::six_step`]: DFT_N rewritten by ISSAC eq. (5) recursively, with
//!   every base DFT of a size dividing 2k (mixed radix for any N = 2^m).
//! * [`Plan`]: the formula flattened into stages (batched base DFTs with
//!   strided or digit-reversed addressing, fused twiddles, N^{-1} scaling),
//!   with exact operation counts.
//! * [`Codelet`]: DFT_K as a straight-line program; [`emit`] writes it as
//!   Rust and CUDA C (`cargo xtask codegen`).
//! * [`evaluate`], [`evaluate_plan`]: naive reference evaluators over any ring
//!   with the canonical roots of unity, for tests.
//!
//! ```
//! use gfpf_plan::{Direction, Formula, Order, Plan};
//!
//! let f = Formula::six_step(256, 16)?;
//! assert_eq!(
//!     f.to_string(),
//!     "L^256_16 (I_16 ⊗ DFT_16) L^256_16 D_16,16 (I_16 ⊗ DFT_16) L^256_16"
//! );
//! // N = 8 with 2k = 16: a single base case.
//! assert_eq!(Formula::six_step(8, 16)?.to_string(), "DFT_8");
//!
//! // The executable form: two stages of 16 DFT_16 each, the second with
//! // 225 non-trivial twiddles ω_256^(ib), of which the 17 with 16 | ib are
//! // pure shifts (ω_256^16 = r), the rest full multiplications.
//! let plan = Plan::try_new(256, 8, Direction::Forward, Order::Natural)?;
//! let c = plan.counts();
//! assert_eq!((c.base_dfts, c.full_muls), (32, 208));
//! # Ok::<(), gfpf_plan::PlanError>(())
//! ```

/// This crate's README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod codelet;
pub mod emit;
mod eval;
mod formula;
mod plan;

pub use codelet::{CODELET_RADICES, Codelet, CodeletOp, CodeletTwiddles};
pub use eval::{RootTower, evaluate, evaluate_plan};
pub use formula::{Formula, PlanError};
pub use plan::{
    Addressing, BaseDftStage, Buffer, Direction, OpCounts, Order, Plan, Stage, StageKind, StageTwiddles,
    TwiddlePlacement,
};
