//! The one error type of the facade.

use gfpf_cpu::{CpuError, TransformError};
use gfpf_cuda::CudaError;
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
    /// A refusal every executor shares: a size above the 2-adicity or beyond
    /// memory, a batch that is not a multiple of N, a short scratch.
    #[error(transparent)]
    Transform(TransformError),
    /// The CPU executor refused (a truncated-transform length).
    #[error(transparent)]
    Cpu(CpuError),
    /// The CUDA executor failed: the driver, out of device memory, a kernel
    /// that did not compile.
    #[error(transparent)]
    Cuda(CudaError),
    /// CUDA was asked for but cannot be used here.
    #[error("no usable CUDA device: {reason}")]
    NoCudaDevice {
        /// Why.
        reason: String,
    },
    /// The operation does not run on that device (products on the GPU are not
    /// written yet; device buffers need a transform planned on the GPU).
    #[error("{what} do not run on {device}")]
    NotOnDevice {
        /// The operation.
        what: &'static str,
        /// The device asked for.
        device: crate::Device,
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
    /// One value of a transform's input is not a canonical element.
    #[error("value {index}: {source}")]
    Value {
        /// Its index in the slice.
        index: usize,
        /// What is wrong with it.
        source: FieldError,
    },
    /// One coefficient of a polynomial is not a canonical element.
    #[error("coefficient {index}: {source}")]
    Coefficient {
        /// Its index.
        index: usize,
        /// What is wrong with it.
        source: FieldError,
    },
}

/// Plan and field errors surface as themselves, whichever layer met them,
/// and the refusals every executor shares as [`Error::Transform`].
impl From<TransformError> for Error {
    fn from(e: TransformError) -> Self {
        match e {
            TransformError::Plan(e) => Error::Plan(e),
            TransformError::Field(e) => Error::Field(e),
            e => Error::Transform(e),
        }
    }
}

impl From<CpuError> for Error {
    fn from(e: CpuError) -> Self {
        match e {
            CpuError::Transform(e) => e.into(),
            e => Error::Cpu(e),
        }
    }
}

impl From<CudaError> for Error {
    fn from(e: CudaError) -> Self {
        match e {
            CudaError::Transform(e) => e.into(),
            CudaError::NoCudaDevice { reason } => Error::NoCudaDevice { reason },
            e => Error::Cuda(e),
        }
    }
}
