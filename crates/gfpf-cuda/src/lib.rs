//! The CUDA executor of gfpf: runs the same [`gfpf_plan::Plan`]s as gfpf-cpu
//! on an NVIDIA GPU, bit for bit the same results.
//!
//! * Data live on the device digit-major ([`DeviceBuffer`], thesis §4.1.4),
//!   converted on upload and download; transforms work in place on the
//!   device, asynchronously on the device's stream, so they chain without
//!   host copies.
//! * One kernel per stage: one thread per base DFT_K through the generated
//!   CUDA codelets of gfpf-kernels, twiddles fused as the
//!   plan says, the field's arithmetic (gfpf-kernels) specialised
//!   to k and r at compile time.
//! * Kernels are compiled at run time with NVRTC (or nvcc), or loaded from
//!   prebuilt PTX (`GFPF_PTX_DIR`, `cargo xtask build-kernels`), once per
//!   device, field and set of base sizes.
//! * Products ([`CudaPolyMul`]) by padded big-prime transforms, or through
//!   word-size primes ([`CudaMultiModular`] over the 31-bit NTTs of
//!   [`ntt`]); [`CudaMulAlgorithm::Auto`] picks by the time model.
//! * cudarc loads the driver dynamically: this crate builds everywhere, and
//!   [`CudaDevice::try_new`] returns [`CudaError::NoCudaDevice`] where there
//!   is no driver or GPU.
//! * The test kit's `EmulatedFft` runs the same kernels and launches
//!   compiled as C++ on the host, so they are tested without a GPU.
//!
//! ```
//! use gfpf_cuda::{CudaDevice, CudaError, CudaFft};
//! use gfpf_field::{Field, Preset};
//! use gfpf_plan::{Direction, Order};
//!
//! let field = Field::<8>::preset(Preset::T8)?;
//! match CudaDevice::try_new(0) {
//!     Ok(device) => {
//!         let fft = CudaFft::try_new(&device, &field, 1 << 16, Direction::Forward, Order::Natural)?;
//!         let mut data = vec![field.one(); 1 << 16];
//!         fft.process(&mut data)?;
//!         assert_eq!(data[0], field.from_u64(1 << 16)); // the sum of the inputs
//!     }
//!     // No driver or no GPU here: a typed error, never a panic.
//!     Err(CudaError::NoCudaDevice { reason }) => println!("no GPU: {reason}"),
//!     Err(e) => return Err(e.into()),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod device;
mod error;
mod fft;
mod layout;
pub mod multimodular;
pub mod ntt;
pub mod params;
mod poly;
mod prepared;
pub mod product_contest;
pub mod resources;
mod timing;

pub use device::{
    CudaDevice, KERNEL_CACHE_ENV, PTX_DIR_ENV, PtxCompiler, cache_file_name, cuda_unavailable, kernel_cache_dir,
};
pub use error::CudaError;
pub use fft::{CudaFft, DeviceBuffer};
pub use gfpf_kernels::Kernel;
pub use layout::{device_twiddle_table, from_digit_major, tensor_twiddle_table, to_digit_major, try_to_digit_major};
pub use multimodular::CudaMultiModular;
pub use params::{THREADS_PER_BLOCK, block_threads, dynamic_shared_bytes};
pub use poly::{AUTO_MULTIMODULAR_MIN_N, CudaMulAlgorithm, CudaPolyMul, ModelledProduct};
pub use timing::median;
