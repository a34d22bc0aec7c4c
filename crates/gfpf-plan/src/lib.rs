//! FFT formulas in the tensor (Kronecker-product) notation of the thesis and
//! ISSAC 2019, and their rewriting to base cases whose roots are powers of r.
//!
//! * [`Formula`]: DFT_n at a root exponent, I_m ⊗ A, A ⊗ I_m, the stride
//!   permutation L^{mn}_m, the twiddle diagonal D_{m,n}, composition;
//!   [`std::fmt::Display`] writes the thesis' notation.
//! * [`Formula::six_step`]: DFT_N rewritten by ISSAC eq. (5) recursively, with
//!   every base DFT of a size dividing 2k (mixed radix for any N = 2^m).
//! * [`evaluate`]: a naive reference evaluator over any ring with the
//!   canonical roots of unity, for tests.
//!
//! ```
//! use gfpf_plan::Formula;
//!
//! let f = Formula::six_step(256, 16)?;
//! assert_eq!(
//!     f.to_string(),
//!     "L^256_16 (I_16 ⊗ DFT_16) L^256_16 D_16,16 (I_16 ⊗ DFT_16) L^256_16"
//! );
//! // N = 8 with 2k = 16: a single base case.
//! assert_eq!(Formula::six_step(8, 16)?.to_string(), "DFT_8");
//! # Ok::<(), gfpf_plan::PlanError>(())
//! ```

mod eval;
mod formula;

pub use eval::{RootTower, evaluate};
pub use formula::{Formula, PlanError};
