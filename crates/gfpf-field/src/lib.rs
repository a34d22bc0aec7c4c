//! Arithmetic in the big prime fields GF(p), p = r^k + 1, of gfpf.
//!
//! r is a word-sized *sparse* radix (r = 2^a ± 2^b [± 2^c], 2^32 ≤ r < 2^64)
//! and k a power of two, so p has 128 to 8192 bits for the presets. An element
//! is k base-r digits ([`Element`], plain `[u64; K]` data); r is a primitive
//! 2k-th root of unity (r^k = -1), so multiplying by r^i is a negacyclic digit
//! shift ([`Field::mul_pow_r`]) — the fact the FFTs of gfpf are built on.
//!
//! * [`Preset`]: the 13 named primes of DESIGN.md §1; [`Field::custom`] checks
//!   any other sparse (r, k).
//! * [`Field`]: built once per prime; add, sub, neg, double, `mul_pow_r`, mul,
//!   square, pow, inverse, batch inverse, random sampling, the canonical root
//!   tower ([`Field::root_of_unity`]), and conversions to and from
//!   `rug::Integer`, little-endian bytes and decimal or `0x` hex text.
//! * [`Lanes`] and [`LaneArith`]: eight elements side by side, digit-major,
//!   with butterflies, shifts and products in SIMD lanes (AVX2, AVX-512,
//!   AVX-512 IFMA, chosen at run time; [`LaneIsa`]), equal to the
//!   one-element operations.
//! * [`FieldError`]: every malformed input is an error; nothing is reduced
//!   silently.
//!
//! ```
//! use gfpf_field::{Field, Preset};
//!
//! let f = Field::<8>::preset(Preset::T8)?;           // p = (2^63 + 2^34)^8 + 1, 505 bits
//! let omega = f.root_of_unity(10)?;                  // ω_1024 of the canonical tower
//! // ω_N^(N/2k) = r: here N/2k = 64.
//! assert_eq!(f.pow_u64(&omega, 64), f.r_element());
//! let x = f.parse("0xdeadbeef")?;
//! let y = f.mul(&x, &f.inverse(&x)?);
//! assert_eq!(y, f.one());
//! assert!(f.parse("-5").is_err());                   // no silent reduction
//! # Ok::<(), gfpf_field::FieldError>(())
//! ```

/// This crate's README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod arith;
mod conv;
mod convert;
mod dispatch;
mod element;
mod error;
mod field;
mod lanes;
mod preset;
mod sparse;
mod wide;

pub use conv::MulMethod;
pub use convert::DisplayElement;
pub use dispatch::DIGIT_COUNTS;
pub use element::Element;
pub use error::FieldError;
pub use field::{
    CONVOLUTION_MIN_K_THREE_PRIMES, CONVOLUTION_MIN_K_TWO_PRIMES, Field, MulConstants, MulKernel, ROOT_TABLE_MAX_LOG2,
};
pub use lanes::{LANE_MUL_MAX_K, LANE_MUL_MIN_R, LANES, LaneArith, LaneIsa, Lanes};
pub use preset::Preset;
pub use sparse::{MAX_SPARSE_TERMS, SparseRadix, SparseTerm};
