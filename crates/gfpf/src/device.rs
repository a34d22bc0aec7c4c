//! Executor choice: the CPU (rayon) or an NVIDIA GPU (CUDA), and the rule
//! [`Device::Auto`] follows.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use gfpf_cuda::{CudaDevice, CudaError};

use crate::Error;

/// The least work (N·k 64-bit words per transform) for which
/// [`Device::Auto`] picks a usable GPU.
///
/// Measured on an NVIDIA H100 against all 16 cores of its host (gfpf-cpu),
/// forward transforms, data resident on the GPU, 2026-11-23: t8 N = 2^12
/// (2^15 words) 0.39 ms on the GPU against 0.56 ms, t8 2^16 0.58 ms against
/// 5.5–12.7 ms, t16 2^16 2.8 against 12.7–16.7 ms, t32 2^16 12 against
/// 36–47 ms. Host slices also pay the copies over PCIe (t8 2^13: 0.5 MB, about
/// 20 µs each way), so the bound sits one size above the smallest point where
/// the GPU won. Those were the one-thread-per-DFT kernels; the traffic model
/// (`cargo xtask gpu-model`, 2026-11-25, lane operations counted from the
/// machine code) puts today's kernels (DFTs shared by teams of lane
/// segments) 10.8x ahead of the 16 cores at t8 N = 2^12 (0.052 ms against
/// 0.56), but a model does not move a measured bound: it stays until a GPU
/// measures the new kernels.
pub const AUTO_CUDA_MIN_WORDS: usize = 1 << 16;

/// The largest k for which [`Device::Auto`] picks a GPU. At k = 64 the
/// kernels measured on an H100 (one thread per base DFT, its elements in
/// local memory) lost to the CPU: t64 N = 2^14 took 49 ms against 10 ms on
/// 16 cores. The kernels that replaced them (digits over lanes, DFTs shared
/// by teams of warps) are modelled at 0.41 ms there (`cargo xtask
/// gpu-model`, 2026-11-25, a model); this bound stays the measured one
/// until a GPU measures them.
pub const AUTO_CUDA_MAX_K: usize = 32;

/// Where transforms run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Device {
    /// The multi-core CPU executor.
    Cpu,
    /// An NVIDIA GPU through CUDA (device 0); an error where none is usable.
    Cuda,
    /// CUDA when a GPU is usable and the transform is large enough to gain
    /// ([`AUTO_CUDA_MIN_WORDS`], [`AUTO_CUDA_MAX_K`]), else the CPU (the
    /// default).
    #[default]
    Auto,
}

impl Device {
    /// The device a transform of size N over k digits runs on here: `Cpu` or
    /// `Cuda`, never `Auto`; an error when CUDA is asked for and not usable.
    pub fn resolve_for(self, k: usize, n: usize) -> Result<Device, Error> {
        match self {
            Device::Cpu => Ok(Device::Cpu),
            Device::Cuda => cuda_device().map(|_| Device::Cuda),
            Device::Auto => Ok(Device::auto_choice(k, n, cuda_device().is_ok())),
        }
    }

    /// [`Device::Auto`]'s rule: the GPU when one is usable, k ≤
    /// [`AUTO_CUDA_MAX_K`] and N·k ≥ [`AUTO_CUDA_MIN_WORDS`].
    pub fn auto_choice(k: usize, n: usize, cuda_usable: bool) -> Device {
        if cuda_usable && k <= AUTO_CUDA_MAX_K && n.saturating_mul(k) >= AUTO_CUDA_MIN_WORDS {
            Device::Cuda
        } else {
            Device::Cpu
        }
    }

    /// The lowercase name (`cpu`, `cuda`, `auto`).
    pub fn name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Cuda => "cuda",
            Device::Auto => "auto",
        }
    }
}

/// The GPU the facade uses (device 0), opened once per process: for users
/// who keep data on it ([`gfpf_cuda::DeviceBuffer`], through
/// [`crate::Fft::cuda`]).
pub fn cuda_device() -> Result<Arc<CudaDevice>, Error> {
    // Opening the device runs no rayon work, so holding the cell meanwhile
    // cannot deadlock (see gfpf-cpu's caches for the case that can).
    static DEVICE: OnceLock<Result<Arc<CudaDevice>, CudaError>> = OnceLock::new();
    DEVICE
        .get_or_init(|| CudaDevice::try_new(0))
        .clone()
        .map_err(|e| match e {
            CudaError::NoCudaDevice { reason } => Error::NoCudaDevice { reason },
            e => Error::Cuda(e),
        })
}

/// `None` when [`Device::Cuda`] can run here, else why not (no driver, no
/// device, the driver refused).
pub fn cuda_unavailable_reason() -> Option<String> {
    cuda_device().err().map(|e| match e {
        Error::NoCudaDevice { reason } => reason,
        e => e.to_string(),
    })
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Device {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cpu" => Ok(Device::Cpu),
            "cuda" | "gpu" => Ok(Device::Cuda),
            "auto" => Ok(Device::Auto),
            _ => Err(Error::UnknownDevice(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_the_gpu_only_where_it_gains() {
        assert_eq!(Device::auto_choice(8, 1 << 16, true), Device::Cuda);
        assert_eq!(Device::auto_choice(8, 1 << 13, true), Device::Cuda);
        assert_eq!(Device::auto_choice(8, 1 << 12, true), Device::Cpu);
        assert_eq!(Device::auto_choice(32, 1 << 11, true), Device::Cuda);
        assert_eq!(Device::auto_choice(64, 1 << 20, true), Device::Cpu);
        assert_eq!(Device::auto_choice(8, 1 << 20, false), Device::Cpu);
        assert_eq!(Device::auto_choice(2, usize::MAX, true), Device::Cuda);
    }
}
