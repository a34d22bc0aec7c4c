//! gfpf-baselines' integration tests, one binary: the six-step FFT on GMP
//! integers, the product baselines, and the NTL/FLINT harness, against gfpf.

mod gmp_fft;
mod peers;
mod poly_baselines;
