//! A naive reference evaluator: applies a formula to a vector, term by term,
//! over any ring that provides the canonical roots of unity. For tests only
//! (O(n²) DFTs).

use std::ops::{Add, Mul};

use num_traits::{One, Zero};

use crate::Formula;

/// The roots of unity an evaluation needs: ω_n of the canonical tower for
/// power-of-two n, with ω_{n/2} = ω_n².
pub trait RootTower {
    /// The ring.
    type Elem: Clone + Zero + One + Add<Output = Self::Elem> + Mul<Output = Self::Elem>;
    /// ω_n.
    fn root(&self, n: usize) -> Self::Elem;
}

fn pow<T: Clone + One + Mul<Output = T>>(x: &T, mut e: usize) -> T {
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
