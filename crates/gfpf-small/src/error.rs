//! The one error type of this crate.

use thiserror::Error;

/// What can go wrong when building word-size arithmetic or an NTT plan.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SmallError {
    /// The modulus is outside the range the chosen arithmetic supports.
    #[error("modulus {q} is out of range for {what} (needs {requirement})")]
    ModulusOutOfRange {
        /// The modulus.
        q: u64,
        /// The arithmetic or plan that rejected it.
        what: &'static str,
        /// The range it needs.
        requirement: &'static str,
    },
    /// The modulus is not prime.
    #[error("modulus {0} is not prime")]
    NotPrime(u64),
    /// A transform length that is not a power of two (or is zero).
    #[error("transform length {0} is not a power of two")]
    LengthNotPowerOfTwo(usize),
    /// No root of unity of the needed order: `order` does not divide q - 1.
    #[error("no root of unity of order {order} modulo {q} (the 2-adicity of q - 1 is {two_adicity})")]
    NoRootOfUnity {
        /// The modulus.
        q: u64,
        /// The order needed.
        order: u64,
        /// The 2-adic valuation of q - 1.
        two_adicity: u32,
    },
    /// A buffer has the wrong length.
    #[error("buffer of length {got} where {expected} was expected")]
    LengthMismatch {
        /// The length needed.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An instruction set was asked for that this CPU does not have.
    #[error("this CPU cannot run the {0} instruction set")]
    IsaUnavailable(String),
    /// CRT moduli that are not pairwise coprime, or a basis that is empty or too large.
    #[error("invalid CRT basis: {0}")]
    InvalidBasis(&'static str),
}

impl SmallError {
    /// `Ok` when a buffer of `got` elements has the `expected` length, else
    /// [`SmallError::LengthMismatch`].
    pub(crate) fn check_len(expected: usize, got: usize) -> Result<(), SmallError> {
        if got == expected {
            Ok(())
        } else {
            Err(SmallError::LengthMismatch { expected, got })
        }
    }
}
