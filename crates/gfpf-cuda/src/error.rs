//! Errors of the CUDA executor.

use gfpf_executor::{ExecutorError, TransformError};
use gfpf_field::FieldError;
use gfpf_plan::PlanError;
use thiserror::Error;

/// Why a transform could not be planned, compiled or run: what every
/// executor can refuse ([`TransformError`]), or a cause of this executor's own.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CudaError {
    /// No usable CUDA driver or device (checked before any cudarc call,
    /// since cudarc panics when libcuda is missing).
    #[error("no CUDA device: {reason}")]
    NoCudaDevice {
        /// What is missing.
        reason: String,
    },
    /// A refusal every executor shares: size, 2-adicity, memory, batch
    /// length, scratch length.
    #[error(transparent)]
    Transform(#[from] TransformError),
    /// A word-size NTT refused its plan or its data.
    #[error(transparent)]
    Ntt(#[from] crate::ntt::NttError),
    /// Operands a multi-modular plan does not cover: empty, a product
    /// longer than its N, or coefficients beyond its primes' product.
    #[error("a multi-modular plan of N = {n} over {primes} primes cannot multiply {len_a} by {len_b} coefficients")]
    OperandLengths {
        /// The first operand's length.
        len_a: usize,
        /// The second's.
        len_b: usize,
        /// The plan's N.
        n: usize,
        /// The plan's number of primes.
        primes: usize,
    },
    /// The buffer and the transform are over different fields.
    #[error("the device buffer holds {buffer} digits per element, the transform {transform}")]
    DigitsMismatch {
        /// k of the buffer.
        buffer: usize,
        /// k of the transform.
        transform: usize,
    },
    /// A digit-major host buffer is not k·len words long.
    #[error("a digit-major buffer of {words} words does not hold whole elements of {k} digits")]
    DigitMajorLength {
        /// Its length in words.
        words: usize,
        /// k.
        k: usize,
    },
    /// A value read back from the device is not a canonical element (a
    /// digit ≥ r, or a top digit r with other digits non-zero).
    #[error("element {index} read back from the device is not canonical")]
    NotCanonical {
        /// Its index.
        index: usize,
    },
    /// The device has too little free memory.
    #[error("out of device memory: {what} needs {bytes} bytes")]
    OutOfDeviceMemory {
        /// What was being allocated.
        what: &'static str,
        /// Its size.
        bytes: usize,
    },
    /// A launch needs more blocks than a grid can hold.
    #[error("a launch of {threads} threads exceeds the grid limit")]
    TooManyThreads {
        /// Threads asked for.
        threads: usize,
    },
    /// NVRTC or the host compiler rejected the kernel source.
    #[error("compiling the {module} kernels failed: {log}")]
    Compile {
        /// The module.
        module: String,
        /// The compiler's log.
        log: String,
    },
    /// The device is older than a kernel needs.
    #[error("{what} needs compute capability {}.{}; the device has {}.{}", needs.0, needs.1, has.0, has.1)]
    ComputeCapability {
        /// The kernel or feature.
        what: &'static str,
        /// The least compute capability it runs on.
        needs: (i32, i32),
        /// The device's.
        has: (i32, i32),
    },
    /// A launch needs a kernel the transform did not load (a bug: every
    /// kernel any batch takes is loaded with the plan).
    #[error("kernel {0} was not loaded with the transform's plan")]
    MissingKernel(String),
    /// A CUDA driver call failed.
    #[error("CUDA driver error in {call}: {message}")]
    Driver {
        /// What was being done.
        call: &'static str,
        /// The driver's message.
        message: String,
    },
}

impl CudaError {
    /// Wraps a cudarc driver error, telling out-of-memory apart.
    pub(crate) fn driver(call: &'static str, bytes: usize, e: cudarc::driver::DriverError) -> Self {
        if e.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            CudaError::OutOfDeviceMemory { what: call, bytes }
        } else {
            CudaError::Driver {
                call,
                message: format!("{e:?}"),
            }
        }
    }
}

impl From<PlanError> for CudaError {
    fn from(e: PlanError) -> Self {
        CudaError::Transform(e.into())
    }
}

impl From<FieldError> for CudaError {
    fn from(e: FieldError) -> Self {
        CudaError::Transform(e.into())
    }
}

impl ExecutorError for CudaError {
    fn common(&self) -> Option<&TransformError> {
        match self {
            CudaError::Transform(e) => Some(e),
            _ => None,
        }
    }
}
