//! Errors of the CPU executor.

use gfpf_field::FieldError;
use gfpf_plan::PlanError;
use thiserror::Error;

/// Why a transform could not be planned or run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CpuError {
    /// The size is not a power of two (or the base size is invalid).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A field operation failed while building the plan's constants.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// N = 2^m needs a primitive N-th root of unity, which exists only for
    /// m ≤ v, the 2-adicity of p − 1.
    #[error("transform size {n} exceeds 2^{two_adicity}, the largest power of two dividing p - 1")]
    AboveTwoAdicity {
        /// N.
        n: usize,
        /// v.
        two_adicity: u32,
    },
    /// N elements (or the twiddle table) cannot be allocated on this machine.
    #[error("transform size {n} needs more memory than can be allocated ({what})")]
    TooLarge {
        /// N.
        n: usize,
        /// What could not be allocated.
        what: &'static str,
    },
    /// A batch's length must be a multiple of N.
    #[error("data length {len} is not a multiple of the transform size {n}")]
    LengthNotMultiple {
        /// The slice length.
        len: usize,
        /// N.
        n: usize,
    },
    /// The caller's scratch buffer is shorter than [`crate::CpuFft::scratch_len`].
    #[error("scratch buffer has {len} elements, the plan needs {needed}")]
    ScratchTooShort {
        /// Its length.
        len: usize,
        /// What the plan needs.
        needed: usize,
    },
    /// A truncated transform of `n` values on a buffer of `size` elements
    /// needs size a power of two and 1 ≤ n ≤ size.
    #[error(
        "truncated transform of {n} values on a buffer of {size} elements: the buffer must be a power of two long and hold 1 to {size} values"
    )]
    TruncatedLength {
        /// Values asked for.
        n: usize,
        /// The buffer length.
        size: usize,
    },
}
