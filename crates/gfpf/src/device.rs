//! Executor choice.

use std::fmt;
use std::str::FromStr;

use crate::Error;

/// Where transforms run.
///
/// The facade offers the CPU executor (rayon) only: `Cuda` is refused with
/// [`Error::NoCudaDevice`] and `Auto` resolves to `Cpu`. Once gfpf-cuda has
/// passed its tests on a GPU, `Auto` will pick a usable GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Device {
    /// The multi-core CPU executor.
    Cpu,
    /// An NVIDIA GPU through CUDA.
    Cuda,
    /// CUDA when a GPU is usable, else the CPU (the default).
    #[default]
    Auto,
}

impl Device {
    /// The device this choice runs on here: `Cpu` or `Cuda`, never `Auto`;
    /// an error when CUDA is asked for and not usable.
    pub fn resolve(self) -> Result<Device, Error> {
        match self {
            Device::Cpu | Device::Auto => Ok(Device::Cpu),
            Device::Cuda => Err(Error::NoCudaDevice {
                reason: cuda_unavailable_reason().to_owned(),
            }),
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

/// Why CUDA cannot be used through this facade yet: the gfpf-cuda executor
/// exists but has not passed its tests on a GPU, so it is not offered.
pub fn cuda_unavailable_reason() -> &'static str {
    "the CUDA executor (gfpf-cuda) has not yet been verified on a GPU, so this facade does not offer it; use --device cpu or auto"
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
