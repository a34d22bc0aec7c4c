//! The small-prime approach of the thesis, chapter 7, on the CPU with
//! gfpf-small: an N-point DFT over Z/mZ, m = q_1⋯q_s a product of word-size
//! NTT primes, by projection of every multi-word input to its s residues, s
//! word-size NTTs, and mixed-radix reconstruction (thesis §7.1, the
//! representation that compares lexicographically) of every output.
//!
//! Two sets of primes: 62-bit primes on the scalar [`Plan`]
//! ([`SmallPrimeDft::new`]), and 50-bit primes on [`Plan52`]
//! ([`SmallPrimeDft::with_plan52`]), the project's fastest word-size NTT
//! (AVX-512 IFMA or AVX2 lanes, chosen at run time): more primes, each
//! transform 3–4x faster. The `small_primes` bench and `gfpf bench` compare
//! the big-prime FFT against the faster of the two.
//!
//! * Benchmark 1 (same output): s is the least count with m > p, so every
//!   element of GF(p) is represented exactly and the output has the same size
//!   as the big-prime DFT's.
//! * Benchmark 2 (same input bytes): k NTTs of size N over 62-bit primes read
//!   the k·N words that N elements of GF(r^k + 1) occupy, and do nothing else.
//!
//! The NTTs leave their output in bit-reversed order (what convolutions use);
//! the big-prime side is timed in natural order, which costs it a permutation.

use gfpf_small::primes::{NTT_PRIMES_50, NTT_PRIMES_62};
use gfpf_small::{Plan, Plan52, RnsBasis, SmallError};
use rayon::prelude::*;

/// The word-size transforms, one per prime.
enum Plans {
    /// 62-bit primes, scalar code.
    Word62(Vec<Plan>),
    /// 50-bit primes on [`Plan52`], which spreads one transform over rayon's
    /// threads by itself; `serial` is a one-thread pool for the serial runs.
    Word50 {
        plans: Vec<Plan52>,
        serial: rayon::ThreadPool,
    },
}

/// A planned small-prime DFT of size N over s primes.
pub struct SmallPrimeDft {
    n: usize,
    words: usize,
    basis: RnsBasis,
    plans: Plans,
}

impl SmallPrimeDft {
    /// Plans for N-point transforms of values of `words` 64-bit words over the
    /// first `primes` of [`NTT_PRIMES_62`].
    pub fn new(n: usize, words: usize, primes: usize) -> Result<Self, SmallError> {
        let qs = &NTT_PRIMES_62[..primes];
        Ok(SmallPrimeDft {
            n,
            words,
            basis: RnsBasis::new(qs)?,
            plans: Plans::Word62(qs.iter().map(|&q| Plan::try_new(n, q)).collect::<Result<_, _>>()?),
        })
    }

    /// The same over the first `primes` of [`NTT_PRIMES_50`] on [`Plan52`]
    /// (the fastest instruction set of this CPU); at most 32 primes.
    pub fn with_plan52(n: usize, words: usize, primes: usize) -> Result<Self, SmallError> {
        let qs = NTT_PRIMES_50
            .get(..primes)
            .ok_or(SmallError::InvalidBasis("at most 32 primes of 50 bits"))?;
        let serial = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(|_| SmallError::InvalidBasis("cannot start a one-thread pool"))?;
        Ok(SmallPrimeDft {
            n,
            words,
            basis: RnsBasis::new(qs)?,
            plans: Plans::Word50 {
                plans: qs.iter().map(|&q| Plan52::try_new(n, q)).collect::<Result<_, _>>()?,
                serial,
            },
        })
    }

    /// The least number of 62-bit NTT primes whose product exceeds 2^bits.
    pub fn primes_for_bits(bits: u32) -> usize {
        Self::count_for_bits(&NTT_PRIMES_62, bits)
    }

    /// The least number of 50-bit primes ([`Self::with_plan52`]) whose
    /// product exceeds 2^bits.
    pub fn primes_for_bits_50(bits: u32) -> usize {
        Self::count_for_bits(&NTT_PRIMES_50, bits)
    }

    fn count_for_bits(primes: &[u64], bits: u32) -> usize {
        let mut total = 0.0f64;
        primes
            .iter()
            .take_while(|&&q| {
                let enough = total > bits as f64;
                total += (q as f64).log2();
                !enough
            })
            .count()
    }

    /// s.
    pub fn primes(&self) -> usize {
        self.basis.primes().len()
    }

    /// Residues: s rows of N (prime-major, so each NTT is contiguous).
    pub fn residue_len(&self) -> usize {
        self.n * self.primes()
    }

    /// Projection: `input` holds N values of `words` little-endian words;
    /// row i of `residues` gets them modulo q_i (Horner from the top word).
    /// Parallel over rows and chunks of a row.
    pub fn project(&self, input: &[u64], residues: &mut [u64], parallel: bool) {
        let (n, w) = (self.n, self.words);
        let chunk = 1024;
        let primes = self.basis.primes();
        let chunk = chunk.min(n);
        let run = |(c, out): (usize, &mut [u64])| {
            let (row, start) = (c * chunk / n, c * chunk % n);
            let q = primes[row] as u128;
            for (j, v) in out.iter_mut().enumerate() {
                let value = &input[(start + j) * w..(start + j + 1) * w];
                *v = value
                    .iter()
                    .rev()
                    .fold(0u64, |acc, &d| ((((acc as u128) << 64) | d as u128) % q) as u64);
            }
        };
        if parallel {
            residues.par_chunks_mut(chunk).enumerate().for_each(run);
        } else {
            residues.chunks_mut(chunk).enumerate().for_each(run);
        }
    }

    /// The s forward NTTs (bit-reversed output).
    pub fn ntts(&self, residues: &mut [u64], parallel: bool) {
        match &self.plans {
            Plans::Word62(plans) => {
                let run = |(row, plan): (&mut [u64], &Plan)| plan.forward(row).expect("row length is N");
                if parallel {
                    residues.par_chunks_mut(self.n).zip(plans.par_iter()).for_each(run);
                } else {
                    residues.chunks_mut(self.n).zip(plans.iter()).for_each(run);
                }
            }
            Plans::Word50 { plans, serial } => {
                let run = |(row, plan): (&mut [u64], &Plan52)| plan.forward(row).expect("row length is N");
                if parallel && plans.len() >= 2 * rayon::current_num_threads() {
                    // Enough rows for every thread: each transform on the
                    // thread that took it. (Each one spread over the threads
                    // as well, nested, made two threads slower than one.)
                    residues
                        .par_chunks_mut(self.n)
                        .zip(plans.par_iter())
                        .for_each(|(row, plan)| plan.forward_one_thread(row).expect("row length is N"));
                } else if parallel {
                    residues.par_chunks_mut(self.n).zip(plans.par_iter()).for_each(run);
                } else {
                    serial.install(|| residues.chunks_mut(self.n).zip(plans.iter()).for_each(run));
                }
            }
        }
    }

    /// The s inverse NTTs (bit-reversed input), for round-trip tests.
    pub fn inverse_ntts(&self, residues: &mut [u64]) {
        let rows = residues.chunks_mut(self.n);
        match &self.plans {
            Plans::Word62(plans) => rows
                .zip(plans)
                .for_each(|(row, p)| p.inverse(row).expect("row length is N")),
            Plans::Word50 { plans, .. } => rows
                .zip(plans)
                .for_each(|(row, p)| p.inverse(row).expect("row length is N")),
        }
    }

    /// Mixed-radix reconstruction: `out` gets N integers of s words.
    pub fn reconstruct(&self, residues: &[u64], out: &mut [u64], parallel: bool) {
        let (n, s) = (self.n, self.primes());
        let one = |(j, dst): (usize, &mut [u64])| {
            let r: Vec<u64> = (0..s).map(|i| residues[i * n + j]).collect();
            let digits = self.basis.mixed_radix(&r);
            let words = self.basis.from_mixed_radix(&digits);
            dst.fill(0);
            dst[..words.len()].copy_from_slice(&words);
        };
        if parallel {
            out.par_chunks_mut(s).enumerate().for_each(one);
        } else {
            out.chunks_mut(s).enumerate().for_each(one);
        }
    }

    /// Benchmark 1: projection, s NTTs, reconstruction.
    pub fn dft_same_output(&self, input: &[u64], residues: &mut [u64], out: &mut [u64], parallel: bool) {
        self.project(input, residues, parallel);
        self.ntts(residues, parallel);
        self.reconstruct(residues, out, parallel);
    }
}
