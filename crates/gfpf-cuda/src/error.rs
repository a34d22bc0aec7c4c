//! Errors of the CUDA executor.

use gfpf_field::FieldError;
use gfpf_plan::PlanError;
use thiserror::Error;

/// Why a transform could not be planned, compiled or run.
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
    /// The size is not a power of two (or the base size is invalid).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A field operation failed while building the plan's constants.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// N = 2^m needs m ≤ v, the 2-adicity of p − 1.
    #[error("transform size {n} exceeds 2^{two_adicity}, the largest power of two dividing p - 1")]
    AboveTwoAdicity {
        /// N.
        n: usize,
        /// v.
        two_adicity: u32,
    },
    /// N elements (or the twiddle table) cannot be held in memory.
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
        /// The buffer length in elements.
        len: usize,
        /// N.
        n: usize,
    },
    /// The buffer and the transform are over different fields.
    #[error("the device buffer holds {buffer} digits per element, the transform {transform}")]
    DigitsMismatch {
        /// k of the buffer.
        buffer: usize,
        /// k of the transform.
        transform: usize,
    },
    /// The caller's device scratch is shorter than [`crate::CudaFft::scratch_len`].
    #[error("scratch buffer has {len} elements, the transform needs {needed}")]
    ScratchTooShort {
        /// Its length.
        len: usize,
        /// What the transform needs.
        needed: usize,
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
    /// A CUDA driver call failed.
    #[error("CUDA driver error in {call}: {message}")]
    Driver {
        /// What was being done.
        call: &'static str,
        /// The driver's message.
        message: String,
    },
    /// Loading the host emulator's library failed.
    #[error("host emulator: {0}")]
    Emulator(String),
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
