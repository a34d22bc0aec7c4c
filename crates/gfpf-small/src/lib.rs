//! Word-size prime fields for gfpf, usable on their own.
//!
//! * [`Montgomery64`], [`Montgomery32`], [`Barrett64`], [`ShoupFactor`]:
//!   modular multiplication with documented input and output ranges.
//! * [`primes`]: deterministic primality for `u64`, roots of unity, and the
//!   prime tables (the thesis' 30-bit Fourier primes, 62-bit NTT primes, 50-bit
//!   primes for floating point).
//! * [`FpModulus`]: arithmetic modulo q < 2^50 in f64 with FMA (error-free
//!   transformations) and exact dot products (λ-algorithm and the
//!   (α, β, γ, δ) splitting without reductions in the main loop).
//! * [`Plan`]: power-of-two NTTs modulo q < 2^62 (radix-4 passes of Harvey's
//!   lazy butterflies, Shoup twiddles), cyclic and negacyclic convolution.
//! * [`Plan52`]: power-of-two NTTs modulo q < 2^50 in vector lanes (AVX-512
//!   IFMA, else AVX2 + FMA in f64, else scalar, chosen at run time;
//!   cache-blocked; several threads from [`NTT52_PARALLEL_MIN_LEN`] words
//!   with the default feature `parallel`), and
//!   [`BivariateConvolution`] on top of it: products in
//!   Z_q[x, y]/(x^N − 1, y^K + 1), what products over GF(r^K + 1) need.
//! * [`RnsBasis`], [`Crt2`], [`Crt3`]: projection of multi-word integers to
//!   residues, mixed-radix reconstruction, centred CRT.
//!
//! ```
//! use gfpf_small::{Plan, primes::NTT_PRIMES_62};
//!
//! let q = NTT_PRIMES_62[0];
//! let plan = Plan::try_new(4, q)?;
//! // (1 + X)·(1 + X) mod (X^4 + 1) = 1 + 2X + X²
//! let mut out = [0; 4];
//! plan.negacyclic_convolution(&[1, 1, 0, 0], &[1, 1, 0, 0], &mut out)?;
//! assert_eq!(out, [1, 2, 1, 0]);
//! // X³·X = X^4 = -1
//! plan.negacyclic_convolution(&[0, 0, 0, 1], &[0, 1, 0, 0], &mut out)?;
//! assert_eq!(out, [q - 1, 0, 0, 0]);
//! # Ok::<(), gfpf_small::SmallError>(())
//! ```

/// This crate's README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod barrett;
mod conv52;
mod crt;
mod error;
mod fp;
mod montgomery;
mod ntt;
mod ntt52;
pub mod primes;
mod shoup;

pub use barrett::Barrett64;
pub use conv52::{BivariateConvolution, GARNER52_MAX_PRIMES, Garner52, RowWrap};
pub use crt::{Crt2, Crt3, MAX_RNS_PRIMES, RnsBasis};
pub use error::SmallError;
pub use fp::{FP_MAX_MODULUS, FpModulus, SPLIT_CHUNK};
pub use montgomery::{Montgomery32, Montgomery64};
pub use ntt::{NTT_MAX_MODULUS, Plan};
pub use ntt52::{Accumulate, Isa, NTT52_BLOCK_LEN, NTT52_MAX_MODULUS, NTT52_PARALLEL_MIN_LEN, NTT52_STRIP_LEN, Plan52};
pub use primes::root_of_unity;
pub use shoup::ShoupFactor;
