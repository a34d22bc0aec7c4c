//! FFTs and polynomial products over big prime fields GF(p), p = r^k + 1
//! with r a sparse word-size radix (128 to 8192 bits), on all CPU cores.
//!
//! Everything a user needs is here; the layers underneath are re-exported
//! for those who want only one ([`small`] word-size NTTs, [`field`]
//! arithmetic, [`plan`] FFT plans and codelets, [`cpu`] the executor).
//!
//! 1. Pick a field: `Field::<8>::preset(Preset::T8)`, a custom prime
//!    `Field::<8>::from_sparse("2^63+2^34".parse()?)`, or at run time a
//!    [`FieldSpec`] (`"t8"`, `"(2^63+2^34)^8+1"`) with a [`FieldVisitor`].
//! 2. Transforms: [`Fft::new`]`(&field, n)` plans DFT_N once (device
//!    [`Device::Auto`], natural order); [`Fft::forward`] / [`Fft::inverse`]
//!    run in place on slices or batches (lengths multiple of N).
//! 3. Polynomials: a [`PolyRing`] makes [`Polynomial`]s; `a.mul(&b)` works
//!    for any lengths (schoolbook when short, truncated FFT otherwise).
//! 4. Every failure is an [`Error`] naming the problem.
//! 5. Threads: the transforms and products run on the current rayon pool;
//!    [`install_global_pool`]`(Some(t))` makes it `t` threads (the caller
//!    one of them), refusing a count the machine cannot use.
//!
//! ```
//! use gfpf::{Fft, Field, PolyRing, Preset};
//!
//! let field = Field::<8>::preset(Preset::T8)?;        // a 505-bit prime
//! let fft = Fft::new(&field, 1 << 10)?;               // plan once
//! let x: Vec<_> = (0..1024).map(|i| field.from_u64(i)).collect();
//! let mut y = x.clone();
//! fft.forward(&mut y)?;
//! fft.inverse(&mut y)?;
//! assert_eq!(y, x);
//!
//! let ring = PolyRing::new(&field)?;
//! let a = ring.poly_from_u64(&[1, 2, 3]);             // 1 + 2x + 3x^2
//! let b = ring.poly_from_u64(&[5, 7]);                // 5 + 7x
//! assert_eq!(a.mul(&b)?, ring.poly_from_u64(&[5, 17, 29, 21]));
//! # Ok::<(), gfpf::Error>(())
//! ```

/// The repository README's examples, compiled and run as doctests (the
/// `cfg` comes first, so the file outside this crate is read only when
/// doctesting in the repository, never when building the package).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// This crate's README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;

mod device;
mod error;
mod fft;
mod poly;
mod spec;

pub use device::{AUTO_CUDA_MAX_K, AUTO_CUDA_MIN_WORDS, Device, cuda_device, cuda_unavailable_reason};
pub use error::Error;
pub use fft::{Fft, FftBuilder};
pub use poly::{PolyRing, Polynomial, RingOptions};
pub use spec::{FieldSpec, FieldVisitor, SUPPORTED_K};

pub use gfpf_cpu as cpu;
pub use gfpf_cuda as cuda;
pub use gfpf_executor as executor;
pub use gfpf_field as field;
pub use gfpf_plan as plan;
pub use gfpf_small as small;

pub use gfpf_cpu::{MulAlgorithm, Threading, auto_schoolbook_max_len, install_global_pool, max_threads, thread_pool};
pub use gfpf_executor::TwiddleLayout;
pub use gfpf_field::{Element, Field, FieldError, Preset, SparseRadix};
pub use gfpf_plan::{Direction, Order};
