//! Unrolled base-case programs: DFT_K as a straight line of DFT_2
//! butterflies, multiplications by powers of its root (shifts by powers of r
//! in GF(r^k + 1)) and a final swap list (ISSAC 2019 §4.3, Algorithm 3).
//!
//! The program is radix-2 decimation in frequency, in place: stage h
//! (h = K/2, K/4, …, 1) butterflies x[g + j] and x[g + j + h] and multiplies
//! the difference by ρ^(j·K/2h); multiplications by ρ^0 = 1 are never emitted.
//! The result is in bit-reversed order, and bit reversal is an involution, so
//! a list of disjoint swaps restores natural order (ISSAC §4.3.1's "only swap
//! the elements that moved"). That gives K/2·log2 K butterflies and
//! K/2·log2 K − K + 1 shifts, the least any Cooley–Tukey factorisation of
//! DFT_K reaches when every non-trivial twiddle costs one shift (see
//! docs/CODELETS.md for the comparison with BPAS).
//!
//! The same [`Codelet`] value is emitted as Rust and as CUDA C by
//! [`crate::emit`], so CPU and GPU run the same operations in the same order.

/// One operation of a codelet on its K-element working vector x.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeletOp {
    /// (x\[a\], x\[b\]) ← (x\[a\] + x\[b\], x\[a\] − x\[b\]).
    Butterfly {
        /// First position.
        a: usize,
        /// Second position.
        b: usize,
    },
    /// x\[a\] ← x\[a\]·ρ^j, ρ the codelet's primitive K-th root (0 < j < K; in
    /// GF(r^k + 1), ρ = r^(±2k/K), a shift).
    MulRootPower {
        /// Position.
        a: usize,
        /// The power of ρ.
        j: usize,
    },
    /// x\[a\] ← x\[a\]·t_a, t_a the twiddle the caller supplies for slot a.
    Twiddle {
        /// Position, which is also the twiddle's slot.
        a: usize,
    },
    /// x\[a\] ↔ x\[b\].
    Swap {
        /// First position.
        a: usize,
        /// Second position.
        b: usize,
    },
}

/// Where the twiddle-fused variants apply their K − 1 twiddles (slot 0 is
/// always 1 and is skipped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeletTwiddles {
    /// Plain DFT_K.
    None,
    /// x\[a\] ·= t_a before the DFT (decimation-in-time stages, FFTW's t1).
    Inputs,
    /// y\[a\] ·= t_a after the DFT (decimation-in-frequency stages).
    Outputs,
}

/// The base sizes the generator emits (2k for k = 1 … 128).
pub const CODELET_RADICES: [usize; 8] = [2, 4, 8, 16, 32, 64, 128, 256];

/// The unrolled program for DFT_K.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Codelet {
    radix: usize,
    twiddles: CodeletTwiddles,
    ops: Vec<CodeletOp>,
}

impl Codelet {
    /// The plain DFT_K program. `radix` must be a power of two ≥ 1 (1 gives
    /// the empty program).
    pub fn new(radix: usize) -> Self {
        Self::with_twiddles(radix, CodeletTwiddles::None)
    }

    /// DFT_K with K − 1 twiddle multiplications fused on its inputs or outputs.
    pub fn with_twiddles(radix: usize, twiddles: CodeletTwiddles) -> Self {
        assert!(radix.is_power_of_two(), "codelet radix {radix} is not a power of two");
        let mut ops = Vec::new();
        if twiddles == CodeletTwiddles::Inputs {
            ops.extend((1..radix).map(|a| CodeletOp::Twiddle { a }));
        }
        let mut h = radix / 2;
        while h >= 1 {
            for g in (0..radix).step_by(2 * h) {
                for j in 0..h {
                    ops.push(CodeletOp::Butterfly { a: g + j, b: g + j + h });
                    if j != 0 {
                        ops.push(CodeletOp::MulRootPower {
                            a: g + j + h,
                            j: j * (radix / (2 * h)),
                        });
                    }
                }
            }
            h /= 2;
        }
        let bits = radix.trailing_zeros();
        for a in 0..radix {
            let b = if bits == 0 {
                0
            } else {
                a.reverse_bits() >> (usize::BITS - bits)
            };
            if a < b {
                ops.push(CodeletOp::Swap { a, b });
            }
        }
        if twiddles == CodeletTwiddles::Outputs {
            ops.extend((1..radix).map(|a| CodeletOp::Twiddle { a }));
        }
        Codelet { radix, twiddles, ops }
    }

    /// K.
    pub fn radix(&self) -> usize {
        self.radix
    }

    /// Which variant this is.
    pub fn twiddles(&self) -> CodeletTwiddles {
        self.twiddles
    }

    /// The operations, in order.
    pub fn ops(&self) -> &[CodeletOp] {
        &self.ops
    }

    fn count(&self, pred: impl Fn(&CodeletOp) -> bool) -> usize {
        self.ops.iter().filter(|op| pred(op)).count()
    }

    /// DFT_2 butterflies.
    pub fn butterflies(&self) -> usize {
        self.count(|op| matches!(op, CodeletOp::Butterfly { .. }))
    }

    /// Multiplications by ρ^j, j ≠ 0 (shifts by powers of r).
    pub fn shifts(&self) -> usize {
        self.count(|op| matches!(op, CodeletOp::MulRootPower { .. }))
    }

    /// Swaps of the final permutation.
    pub fn swaps(&self) -> usize {
        self.count(|op| matches!(op, CodeletOp::Swap { .. }))
    }

    /// Twiddle multiplications (K − 1 in the fused variants, else 0).
    pub fn twiddle_muls(&self) -> usize {
        self.count(|op| matches!(op, CodeletOp::Twiddle { .. }))
    }

    /// Runs the program on `x` (length K) with the given ring operations: a
    /// reference interpreter for tests.
    pub fn run<T: Clone>(
        &self,
        x: &mut [T],
        add: impl Fn(&T, &T) -> T,
        sub: impl Fn(&T, &T) -> T,
        mul_root_power: impl Fn(&T, usize) -> T,
        twiddle: impl Fn(&T, usize) -> T,
    ) {
        assert_eq!(x.len(), self.radix, "codelet input length");
        for op in &self.ops {
            match *op {
                CodeletOp::Butterfly { a, b } => {
                    let (u, v) = (x[a].clone(), x[b].clone());
                    x[a] = add(&u, &v);
                    x[b] = sub(&u, &v);
                }
                CodeletOp::MulRootPower { a, j } => x[a] = mul_root_power(&x[a], j),
                CodeletOp::Twiddle { a } => x[a] = twiddle(&x[a], a),
                CodeletOp::Swap { a, b } => x.swap(a, b),
            }
        }
    }
}
