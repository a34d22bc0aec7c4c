//! The CUDA executor of gfpf: runs the same [`gfpf_plan::Plan`]s as gfpf-cpu
//! on an NVIDIA GPU, bit for bit the same results.
//!
//! * Data live on the device digit-major ([`DeviceBuffer`], thesis §4.1.4),
//!   converted on upload and download; transforms work in place on the
//!   device, asynchronously on the device's stream, so they chain without
//!   host copies.
//! * One kernel per stage: one thread per base DFT_K through the generated
//!   CUDA codelets (kernels/generated/codelets.cuh), twiddles fused as the
//!   plan says, the field's arithmetic (kernels/gfpf_field.cuh) specialised
//!   to k and r at compile time.
//! * Kernels are compiled at run time with NVRTC (or nvcc), or loaded from
//!   prebuilt PTX (`GFPF_PTX_DIR`, `cargo xtask build-kernels`), once per
//!   device, field and set of base sizes.
//! * cudarc loads the driver dynamically: this crate builds everywhere, and
//!   [`CudaDevice::try_new`] returns [`CudaError::NoCudaDevice`] where there
//!   is no driver or GPU.
//! * [`EmulatedFft`] runs the same kernels compiled as C++ on the host, so the
//!   kernels are tested without a GPU.
//!
//! ```no_run
//! use gfpf_cuda::{CudaDevice, CudaFft};
//! use gfpf_field::{Field, Preset};
//! use gfpf_plan::{Direction, Order};
//!
//! let field = Field::<8>::preset(Preset::T8)?;
//! let device = CudaDevice::try_new(0)?; // Err(NoCudaDevice) without a GPU
//! let fft = CudaFft::try_new(&device, &field, 1 << 16, Direction::Forward, Order::Natural)?;
//! let mut data = vec![field.one(); 1 << 16];
//! fft.process(&mut data)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod device;
mod emulator;
mod error;
mod fft;
mod layout;
pub mod params;
mod prepared;
pub mod source;

pub use device::{CudaDevice, PTX_DIR_ENV, PtxCompiler, cuda_unavailable};
pub use emulator::{EmulatedFft, HostKernels, emulator_unavailable, host_compiler};
pub use error::CudaError;
pub use fft::{CudaFft, DeviceBuffer, THREADS_PER_BLOCK};
pub use layout::{from_digit_major, to_digit_major};
pub use source::Kernel;
