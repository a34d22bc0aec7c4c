//! What gfpf is measured against, computing exactly what gfpf computes:
//!
//! * [`gmp_fft::GmpFft`]: the same six-step plans, driver and codelets as
//!   gfpf-cpu with every operation a rug (GMP) integer operation (ISSAC 2019's
//!   GMP variant, its tables 4–5);
//! * [`small_primes::SmallPrimeDft`]: the same DFT through s word-size primes:
//!   projection, s NTTs, mixed-radix reconstruction (the thesis' chapter 7,
//!   benchmark 1), or the s NTTs alone (benchmark 2);
//! * [`poly_baselines`]: polynomial products by Kronecker substitution and one
//!   GMP multiplication, and by multi-modular NTT convolutions with the CRT;
//! * [`peers`]: NTL's and FLINT's products, through a C++ harness built at
//!   run time against the system's libraries (skipped, saying why, where
//!   they are missing).
//!
//! The `gfpf bench` program and the criterion benches (gfpf-benches) both use
//! this crate; neither links the other.
//!
//! ```
//! use gfpf_baselines::gmp_fft::GmpFft;
//! use gfpf_cpu::{CpuFft, Threading};
//! use gfpf_field::{Field, Preset};
//! use gfpf_plan::{Direction, Order};
//!
//! let field = Field::<4>::preset(Preset::P4)?;
//! let x: Vec<_> = (0..64).map(|i| field.from_u64(i * i)).collect();
//! let gmp = GmpFft::new(&field, 64, Direction::Forward, Order::Natural)?;
//! let mut big: Vec<_> = x.iter().map(|e| field.to_integer(e)).collect();
//! let mut scratch = big.clone();
//! gmp.process(&mut big, &mut scratch, Threading::Serial)?;
//! let mut y = x.clone();
//! CpuFft::forward(&field, 64)?.process(&mut y)?;
//! assert_eq!(big, y.iter().map(|e| field.to_integer(e)).collect::<Vec<_>>());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod gmp_fft;
pub mod peers;
pub mod poly_baselines;
pub mod small_primes;
