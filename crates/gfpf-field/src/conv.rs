//! Multiplication through negacyclic convolutions over word-size primes
//! (ISSAC 2019, Algorithm 1): the digit vectors are convolved modulo
//! X^k + 1 over s NTT primes, the coefficients u_i (|u_i| < k·r²) recovered by
//! a centred CRT, and the rest is the same normalisation as the schoolbook
//! product. s is the least number of primes whose product exceeds 2·k·r²
//! (two for the p-presets, three for the t-presets), computed per field.

use gfpf_small::primes::NTT_PRIMES_62;
use gfpf_small::{Crt2, Crt3, Plan};
use rug::Integer;

use crate::wide::Acc192;

/// How products are formed (the normalisation is shared).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MulMethod {
    /// k² word products (exact 128/192-bit sums).
    Schoolbook,
    /// Negacyclic convolutions of length k over this many 62-bit NTT primes,
    /// joined by CRT.
    Convolution {
        /// The number of primes (2 or 3).
        primes: usize,
    },
}

impl MulMethod {
    /// A short description.
    pub fn describe(self) -> String {
        match self {
            MulMethod::Schoolbook => "schoolbook".to_string(),
            MulMethod::Convolution { primes } => format!("convolution over {primes} primes + CRT"),
        }
    }
}

#[derive(Debug, Clone)]
enum Crt {
    Two(Crt2),
    Three(Crt3),
}

/// The precomputed NTT plans and CRT of the convolution method.
#[derive(Debug, Clone)]
pub(crate) struct Convolution {
    plans: Vec<Plan>,
    crt: Crt,
}

impl Convolution {
    /// The least number of [`NTT_PRIMES_62`] whose product exceeds 2·k·r², or
    /// `None` when even three do not suffice.
    pub(crate) fn primes_needed(k: usize, r: u64) -> Option<usize> {
        let bound = Integer::from(r).square() * (2 * k as u64);
        let mut product = Integer::from(1);
        for (s, &q) in NTT_PRIMES_62.iter().take(3).enumerate() {
            product *= q;
            if product > bound {
                return Some(s + 1);
            }
        }
        None
    }

    pub(crate) fn new(k: usize, primes: usize) -> Option<Self> {
        let plans = NTT_PRIMES_62[..primes]
            .iter()
            .map(|&q| Plan::try_new(k, q).ok())
            .collect::<Option<Vec<_>>>()?;
        let q = &NTT_PRIMES_62;
        let crt = match primes {
            2 => Crt::Two(Crt2::new(q[0], q[1]).ok()?),
            3 => Crt::Three(Crt3::new(q[0], q[1], q[2]).ok()?),
            _ => return None,
        };
        Some(Self { plans, crt })
    }

    /// The negacyclic coefficients u_i of x·y (x² when `y` is `None`) mod
    /// (X^k + 1) over Z, each added to its offset (which makes it non-negative).
    #[inline]
    pub(crate) fn offset_coefficients<const K: usize>(
        &self,
        x: &[u64; K],
        y: Option<&[u64; K]>,
        offset_first: Acc192,
        offset_rest: Acc192,
    ) -> [Acc192; K] {
        let mut residues = [[0u64; K]; 3];
        for (plan, res) in self.plans.iter().zip(&mut residues) {
            *res = *x;
            match y {
                Some(y) => plan.negacyclic_convolution_in_place(res, &mut y.clone()),
                None => plan.negacyclic_square_in_place(res),
            }
            .expect("plans are built for length k");
        }
        let mut z = [Acc192::default(); K];
        for (i, zi) in z.iter_mut().enumerate() {
            let offset = if i == 0 { offset_first } else { offset_rest };
            // u_i as 192-bit two's complement; z_i = offset + u_i ≥ 0.
            let (lo, hi) = match &self.crt {
                Crt::Two(crt) => {
                    let u = crt.reconstruct(residues[0][i], residues[1][i]);
                    (u as u128, (u >> 127) as u64)
                }
                Crt::Three(crt) => {
                    let u = crt.reconstruct([residues[0][i], residues[1][i], residues[2][i]]);
                    (u[0] as u128 | (u[1] as u128) << 64, u[2])
                }
            };
            let (sum, carry) = offset.lo.overflowing_add(lo);
            *zi = Acc192::new(sum, offset.hi.wrapping_add(hi).wrapping_add(carry as u64));
        }
        z
    }
}
