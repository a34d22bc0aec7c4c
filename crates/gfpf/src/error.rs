//! The one error type of the facade.

use gfpf_cpu::CpuError;
use gfpf_field::FieldError;
use gfpf_plan::PlanError;
use thiserror::Error;

/// Everything that can go wrong in gfpf, with the layer's own error inside.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A field, an element or its text/bytes was invalid.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// A transform size could not be planned.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The CPU executor refused the size, the lengths or the memory.
    #[error(transparent)]
    Cpu(CpuError),
    /// CUDA was asked for but cannot be used here.
    #[error("no usable CUDA device: {reason}")]
    NoCudaDevice {
        /// Why.
        reason: String,
    },
    /// A device name other than `cpu`, `cuda` or `auto`.
    #[error("unknown device {0:?} (expected cpu, cuda or auto)")]
    UnknownDevice(String),
    /// Text that names no field: neither a preset nor `(R)^K+1`.
    #[error("invalid field {text:?}: {reason}")]
    InvalidFieldSpec {
        /// The text.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A k for which gfpf has no compiled field arithmetic.
    #[error("k = {0} is not supported: k must be one of 2, 4, 8, 16, 32, 64, 128")]
    UnsupportedDigitCount(usize),
    /// An operation mixed polynomials of two different fields.
    #[error("polynomials over different fields (r = {left} and r = {right})")]
    FieldMismatch {
        /// r of the left operand's field.
        left: u64,
        /// r of the right operand's field.
        right: u64,
    },
    /// One coefficient (or input value) is not a canonical element.
    #[error("coefficient {index}: {source}")]
    Coefficient {
        /// Its index.
        index: usize,
        /// What is wrong with it.
        source: FieldError,
    },
}

/// Plan and field errors surface as themselves, whichever layer met them.
impl From<CpuError> for Error {
    fn from(e: CpuError) -> Self {
        match e {
            CpuError::Plan(e) => Error::Plan(e),
            CpuError::Field(e) => Error::Field(e),
            e => Error::Cpu(e),
        }
    }
}
