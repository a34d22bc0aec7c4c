//! The formula IR, its notation and the six-step rewrite.

use std::fmt;

use thiserror::Error;

/// Why a formula could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlanError {
    /// Transform sizes are powers of two ≥ 1.
    #[error("transform size {0} is not a power of two")]
    SizeNotPowerOfTwo(usize),
    /// The largest base case 2k must be a power of two ≥ 2.
    #[error("largest base case {0} is not a power of two >= 2")]
    InvalidBaseSize(usize),
    /// A plan's largest radix must be a power of two from 2 up to 2k.
    #[error("largest radix {max_radix} is not a power of two from 2 to {base}")]
    InvalidMaxRadix {
        /// The radix asked for.
        max_radix: usize,
        /// The base size 2k.
        base: usize,
    },
}

/// A linear map on vectors of length [`Formula::size`], in the notation of
/// the thesis (§5) and ISSAC 2019 (eq. 5). Compositions apply right to left,
/// as matrix products do.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Formula {
    /// DFT_n at ω_n^exponent: y_i = Σ_j x_j ω_n^(exponent·i·j), ω_n of the
    /// canonical tower (exponent 1: forward; n - 1: unscaled inverse).
    Dft {
        /// The size n (a power of two).
        n: usize,
        /// The power of ω_n used as the root, in [0, n).
        exponent: usize,
    },
    /// I_m ⊗ A: A applied to m consecutive blocks.
    IdentityTensor {
        /// m.
        m: usize,
        /// A.
        inner: Box<Formula>,
    },
    /// A ⊗ I_m: A applied to m interleaved sub-vectors (stride m).
    TensorIdentity {
        /// A.
        inner: Box<Formula>,
        /// m.
        m: usize,
    },
    /// The stride permutation L^n_m, in gather form: y[i·(n/m) + j] = x[j·m + i]
    /// (i < m, j < n/m). Output block i collects the elements of x at stride m
    /// starting from i; equivalently, the transpose of x read as an (n/m) × m
    /// row-major matrix. This is DESIGN §1's "L^{KJ}_K: x[iJ + j] ↦ x[jK + i]"
    /// read as y[iJ + j] := x[jK + i], the reading under which ISSAC eq. (5)
    /// and A ⊗ I_m = L^{mn}_n (I_m ⊗ A) L^{mn}_m hold (both are tested).
    Stride {
        /// n.
        n: usize,
        /// m, dividing n.
        m: usize,
    },
    /// The twiddle diagonal D_{m,n} (SPIRAL's T^{mn}_n): position i·n + j
    /// (i < m, j < n) is multiplied by ω_{mn}^(exponent·i·j).
    Twiddle {
        /// m.
        m: usize,
        /// n.
        n: usize,
        /// The power of ω_{mn}, as in [`Formula::Dft`].
        exponent: usize,
    },
    /// A_1 A_2 … A_t: A_t is applied first.
    Compose(Vec<Formula>),
}

impl Formula {
    /// DFT_n at its canonical root (forward).
    pub fn dft(n: usize) -> Self {
        Formula::Dft { n, exponent: 1 }
    }

    /// The length of the vectors this formula maps.
    pub fn size(&self) -> usize {
        match self {
            Formula::Dft { n, .. } | Formula::Stride { n, .. } => *n,
            Formula::IdentityTensor { m, inner } | Formula::TensorIdentity { inner, m } => m * inner.size(),
            Formula::Twiddle { m, n, .. } => m * n,
            Formula::Compose(parts) => parts.first().map_or(0, Formula::size),
        }
    }

    /// ISSAC eq. (5) applied recursively: for N = K·J,
    /// DFT_N = L^N_K (I_J ⊗ DFT_K) L^N_J D_{K,J} (I_K ⊗ DFT_J) L^N_K,
    /// with K = `max_base` (= 2k, so that DFT_K's root ω_N^(N/K) is a power of
    /// r and costs only shifts) and DFT_J expanded the same way until it fits
    /// a base case. Any power of two N works (mixed radix: the last factor may
    /// be smaller than 2k).
    pub fn six_step(n: usize, max_base: usize) -> Result<Self, PlanError> {
        if n == 0 || !n.is_power_of_two() {
            return Err(PlanError::SizeNotPowerOfTwo(n));
        }
        if max_base < 2 || !max_base.is_power_of_two() {
            return Err(PlanError::InvalidBaseSize(max_base));
        }
        Ok(Self::six_step_unchecked(n, max_base))
    }

    fn six_step_unchecked(n: usize, max_base: usize) -> Self {
        if n <= max_base {
            return Formula::dft(n);
        }
        let k = max_base;
        let j = n / k;
        Formula::Compose(vec![
            Formula::Stride { n, m: k },
            Formula::IdentityTensor {
                m: j,
                inner: Box::new(Formula::dft(k)),
            },
            Formula::Stride { n, m: j },
            Formula::Twiddle {
                m: k,
                n: j,
                exponent: 1,
            },
            Formula::IdentityTensor {
                m: k,
                inner: Box::new(Self::six_step_unchecked(j, max_base)),
            },
            Formula::Stride { n, m: k },
        ])
    }

    /// The sizes of the base DFTs, with multiplicity, in application order.
    pub fn base_dfts(&self) -> Vec<usize> {
        fn walk(f: &Formula, times: usize, out: &mut Vec<usize>) {
            match f {
                Formula::Dft { n, .. } => out.extend(std::iter::repeat_n(*n, times)),
                Formula::IdentityTensor { m, inner } | Formula::TensorIdentity { inner, m } => {
                    walk(inner, times * m, out)
                }
                Formula::Compose(parts) => parts.iter().rev().for_each(|p| walk(p, times, out)),
                Formula::Stride { .. } | Formula::Twiddle { .. } => {}
            }
        }
        let mut out = Vec::new();
        walk(self, 1, &mut out);
        out
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Formula::Dft { n, exponent: 1 } => write!(f, "DFT_{n}"),
            Formula::Dft { n, exponent } => write!(f, "DFT_{n}[ω^{exponent}]"),
            Formula::IdentityTensor { m, inner } => write!(f, "(I_{m} ⊗ {inner})"),
            Formula::TensorIdentity { inner, m } => write!(f, "({inner} ⊗ I_{m})"),
            Formula::Stride { n, m } => write!(f, "L^{n}_{m}"),
            Formula::Twiddle { m, n, exponent: 1 } => write!(f, "D_{m},{n}"),
            Formula::Twiddle { m, n, exponent } => write!(f, "D_{m},{n}[ω^{exponent}]"),
            Formula::Compose(parts) => {
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}
