//! A naive reference evaluator: applies a formula to a vector, term by term,
//! over any ring that provides the canonical roots of unity. For tests only
//! (O(n²) DFTs).

use std::ops::{Add, Mul, Sub};

use num_traits::{One, Zero};

use crate::plan::{Addressing, Buffer, Direction, StageKind, TwiddlePlacement};
use crate::{Formula, Plan};

/// The roots of unity an evaluation needs: ω_n of the canonical tower for
/// power-of-two n, with ω_{n/2} = ω_n².
pub trait RootTower {
    /// The ring.
    type Elem: Clone + Zero + One + Add<Output = Self::Elem> + Sub<Output = Self::Elem> + Mul<Output = Self::Elem>;
    /// ω_n.
    fn root(&self, n: usize) -> Self::Elem;
    /// n^{-1} (n a power of two; the ring has odd characteristic).
    fn inverse_of_size(&self, n: usize) -> Self::Elem;
}

pub(crate) fn pow<T: Clone + One + Mul<Output = T>>(x: &T, mut e: usize) -> T {
    let mut acc = T::one();
    let mut base = x.clone();
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * base.clone();
        }
        base = base.clone() * base;
        e >>= 1;
    }
    acc
}

/// y = F·x for a vector x of length `formula.size()` (naively).
pub fn evaluate<R: RootTower>(formula: &Formula, tower: &R, x: &[R::Elem]) -> Vec<R::Elem> {
    assert_eq!(x.len(), formula.size(), "vector length must equal the formula's size");
    match formula {
        Formula::Dft { n, exponent } => {
            let w = pow(&tower.root(*n), *exponent);
            let powers: Vec<R::Elem> = (0..*n).map(|e| pow(&w, e)).collect();
            (0..*n)
                .map(|i| {
                    x.iter().enumerate().fold(R::Elem::zero(), |acc, (j, xj)| {
                        acc + xj.clone() * powers[(i * j) % n].clone()
                    })
                })
                .collect()
        }
        Formula::IdentityTensor { inner, .. } => x
            .chunks(inner.size())
            .flat_map(|block| evaluate(inner, tower, block))
            .collect(),
        Formula::TensorIdentity { inner, m } => {
            let s = inner.size();
            let mut y = vec![R::Elem::zero(); x.len()];
            for lane in 0..*m {
                let column: Vec<R::Elem> = (0..s).map(|i| x[i * m + lane].clone()).collect();
                for (i, v) in evaluate(inner, tower, &column).into_iter().enumerate() {
                    y[i * m + lane] = v;
                }
            }
            y
        }
        Formula::Stride { n, m } => {
            // y[i·(n/m) + j] = x[j·m + i]: block i gathers stride-m elements from i.
            let cols = n / m;
            let mut y = vec![R::Elem::zero(); *n];
            for i in 0..*m {
                for j in 0..cols {
                    y[i * cols + j] = x[j * m + i].clone();
                }
            }
            y
        }
        Formula::Twiddle { m, n, exponent } => {
            let w = pow(&tower.root(m * n), *exponent);
            let mut y = x.to_vec();
            for i in 0..*m {
                for j in 0..*n {
                    y[i * n + j] = y[i * n + j].clone() * pow(&w, i * j);
                }
            }
            y
        }
        Formula::Compose(parts) => parts.iter().rev().fold(x.to_vec(), |v, p| evaluate(p, tower, &v)),
    }
}

/// Runs a [`Plan`] naively, stage by stage, exactly as an executor must:
/// the same buffers, addressing, twiddle splitting (a table entry w^m times a
/// power of r) and scaling, with each base DFT_K done as an O(K²) sum.
/// Returns the transformed vector (the plan's `Data` buffer at the end).
pub fn evaluate_plan<R: RootTower>(plan: &Plan, tower: &R, x: &[R::Elem]) -> Vec<R::Elem> {
    let n = plan.len();
    assert_eq!(x.len(), n, "vector length must equal the plan's size");
    let inverse = plan.direction() == Direction::Inverse;
    // w = ω_N or ω_N^{-1}; the table holds w^m, m < N/2k; w^(N/2k) = r^(±1).
    let w = if inverse {
        pow(&tower.root(n), n - 1)
    } else {
        tower.root(n)
    };
    let table: Vec<R::Elem> = (0..plan.twiddle_table_len()).map(|m| pow(&w, m)).collect();
    // r^(±1): w^M, or below N = 2k (plans of smaller radices) ω_2k itself.
    let r_unit = if n >= 2 * plan.digits() {
        pow(&w, plan.twiddle_table_len().max(1))
    } else {
        let r = tower.root(2 * plan.digits());
        if inverse { pow(&r, 2 * plan.digits() - 1) } else { r }
    };
    let twiddle = |e: usize| -> R::Elem {
        let (q, m) = plan.split_exponent(e);
        // m = 0 is w^0 = 1, also where the table is empty (N ≤ 2k).
        let entry = if m == 0 { R::Elem::one() } else { table[m].clone() };
        entry * pow(&r_unit, q)
    };
    let mut data = x.to_vec();
    let mut scratch = vec![R::Elem::zero(); plan.scratch_len()];
    for stage in plan.stages() {
        let src = match stage.src {
            Buffer::Data => data.clone(),
            Buffer::Scratch => scratch.clone(),
        };
        let dst = match stage.dst {
            Buffer::Data => &mut data,
            Buffer::Scratch => &mut scratch,
        };
        match stage.kind {
            StageKind::Scale => {
                let s = tower.inverse_of_size(n);
                for (d, v) in dst.iter_mut().zip(src) {
                    *d = v * s.clone();
                }
            }
            StageKind::BaseDft(d) => {
                let k = d.radix;
                let rho = if inverse {
                    pow(&tower.root(k), k - 1)
                } else {
                    tower.root(k)
                };
                let rho_powers: Vec<R::Elem> = (0..k).map(|e| pow(&rho, e)).collect();
                for a in 0..d.blocks {
                    for b in 0..d.stride {
                        let at = |i: usize| a * k * d.stride + i * d.stride + b;
                        let tw = |i: usize| match d.twiddles {
                            Some(t) => twiddle(i * b * t.step),
                            None => R::Elem::one(),
                        };
                        let mut input: Vec<R::Elem> = (0..k)
                            .map(|i| match d.input {
                                Addressing::Natural => src[at(i)].clone(),
                                Addressing::DigitReversed => src[plan.digit_reverse(at(i))].clone(),
                            })
                            .collect();
                        if let Some(t) = d.twiddles
                            && t.placement == TwiddlePlacement::Inputs
                        {
                            input = input.into_iter().enumerate().map(|(i, v)| v * tw(i)).collect();
                        }
                        for i in 0..k {
                            let mut y = (0..k).fold(R::Elem::zero(), |acc, j| {
                                acc + input[j].clone() * rho_powers[(i * j) % k].clone()
                            });
                            if let Some(t) = d.twiddles
                                && t.placement == TwiddlePlacement::Outputs
                            {
                                y = y * tw(i);
                            }
                            dst[at(i)] = y;
                        }
                    }
                }
            }
        }
    }
    data
}
