//! Executor choice.

use std::fmt;
use std::str::FromStr;

use crate::Error;

/// Where transforms run.
///
/// This build has the CPU executor (rayon) only: `Cuda` is refused with
/// [`Error::NoCudaDevice`] and `Auto` resolves to `Cpu`. The CUDA executor
/// (gfpf-cuda) will make `Auto` pick a usable GPU.
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

/// Why CUDA cannot be used by this build (it has no CUDA executor yet).
pub fn cuda_unavailable_reason() -> &'static str {
    "this build of gfpf has no CUDA executor (gfpf-cuda is not part of it yet); use --device cpu or auto"
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
