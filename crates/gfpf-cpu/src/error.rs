//! Errors of the CPU executor.

use gfpf_executor::{ExecutorError, TransformError};
use gfpf_field::FieldError;
use gfpf_plan::PlanError;
use thiserror::Error;

/// Why a transform or a product could not be planned or run: what every
/// executor can refuse ([`TransformError`]), or a truncated-transform length.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CpuError {
    /// A refusal every executor shares: size, 2-adicity, memory, batch
    /// length, scratch length.
    #[error(transparent)]
    Transform(#[from] TransformError),
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
    /// The word-size arithmetic of the multi-modular products refused
    /// (an instruction set this CPU lacks, or a bad transform shape).
    #[error(transparent)]
    Small(#[from] gfpf_small::SmallError),
    /// A thread count of 0, or beyond what the machine can use
    /// ([`crate::max_threads`]).
    #[error("{requested} threads asked for: between 1 and {max} are allowed on this machine ({cores} cores)")]
    ThreadCount {
        /// The count asked for.
        requested: usize,
        /// The most allowed here.
        max: usize,
        /// The cores the operating system reports.
        cores: usize,
    },
    /// Rayon could not start a pool (or its global pool was started before).
    #[error("cannot start the thread pool: {reason}")]
    ThreadPool {
        /// Rayon's reason.
        reason: String,
    },
}

impl From<PlanError> for CpuError {
    fn from(e: PlanError) -> Self {
        CpuError::Transform(e.into())
    }
}

impl From<FieldError> for CpuError {
    fn from(e: FieldError) -> Self {
        CpuError::Transform(e.into())
    }
}

impl ExecutorError for CpuError {
    fn common(&self) -> Option<&TransformError> {
        match self {
            CpuError::Transform(e) => Some(e),
            CpuError::TruncatedLength { .. }
            | CpuError::Small(_)
            | CpuError::ThreadCount { .. }
            | CpuError::ThreadPool { .. } => None,
        }
    }
}
