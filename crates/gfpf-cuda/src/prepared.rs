//! What every executor of this crate builds once per (field, N, direction,
//! order): the plan, its launches, the twiddle table and N^{-1}, digit-major.

#[cfg(test)]
use gfpf_field::Element;
use gfpf_field::Field;
use gfpf_plan::{Direction, Order, Plan};

use crate::CudaError;
use crate::layout::to_digit_major;
use crate::params::{Launch, launches, radices_used};

/// A planned transform's host-side data, ready to upload.
#[derive(Debug, Clone)]
pub(crate) struct Prepared<const K: usize> {
    pub field: Field<K>,
    pub plan: Plan,
    /// The distinct base sizes the plan's stages use.
    pub radices: Vec<usize>,
    /// w^m, m < M (w = ω_N or ω_N^{-1}), digit-major with pitch M (at least
    /// one element, so the device buffer is never empty).
    pub table: Vec<u64>,
    /// N^{-1}, its k digits.
    pub n_inv: [u64; K],
}

impl<const K: usize> Prepared<K> {
    pub fn new(field: &Field<K>, n: usize, direction: Direction, order: Order) -> Result<Self, CudaError> {
        let plan = Plan::try_new(n, K, direction, order)?;
        let v = field.two_adicity();
        if n.trailing_zeros() > v {
            return Err(CudaError::AboveTwoAdicity { n, two_adicity: v });
        }
        if n.checked_mul(K * 8).is_none_or(|b| b > isize::MAX as usize) {
            return Err(CudaError::TooLarge { n, what: "N elements" });
        }
        let len = plan.twiddle_table_len();
        let mut w = field.root_of_unity(n.trailing_zeros())?;
        if direction == Direction::Inverse {
            w = field.inverse(&w)?;
        }
        let mut entries = Vec::new();
        entries.try_reserve_exact(len.max(1)).map_err(|_| CudaError::TooLarge {
            n,
            what: "twiddle table",
        })?;
        let mut acc = field.one();
        for _ in 0..len.max(1) {
            entries.push(acc);
            acc = field.mul(&acc, &w);
        }
        let n_inv = field.inverse(&field.from_u64(n as u64))?;
        Ok(Prepared {
            field: field.clone(),
            radices: radices_used(&plan),
            plan,
            table: to_digit_major(&entries),
            n_inv: *n_inv.digits(),
        })
    }

    /// The launches for `len` elements (a multiple of N; none for 0).
    pub fn launches_for(&self, len: usize) -> Result<Vec<Launch>, CudaError> {
        let n = self.plan.len();
        if len == 0 {
            return Ok(Vec::new());
        }
        if !len.is_multiple_of(n) {
            return Err(CudaError::LengthNotMultiple { len, n });
        }
        Ok(launches(&self.plan, len / n))
    }

    /// Canonical elements of N^{-1} (for the tests of this module).
    #[cfg(test)]
    pub fn n_inv_element(&self) -> Element<K> {
        Element::from_digits_unchecked(self.n_inv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::Preset;

    #[test]
    fn table_and_inverse_size() {
        let f = Field::<8>::preset(Preset::T8).unwrap();
        let p = Prepared::new(&f, 1024, Direction::Inverse, Order::Natural).unwrap();
        assert_eq!(p.table.len(), 8 * 64);
        assert_eq!(f.mul(&p.n_inv_element(), &f.from_u64(1024)), f.one());
        assert!(matches!(
            p.launches_for(1000),
            Err(CudaError::LengthNotMultiple { len: 1000, n: 1024 })
        ));
        assert_eq!(p.launches_for(0).unwrap(), vec![]);
        assert!(matches!(
            Prepared::new(
                &Field::<4>::preset(Preset::P4).unwrap(),
                1 << 45,
                Direction::Forward,
                Order::Natural
            ),
            Err(CudaError::AboveTwoAdicity { .. })
        ));
    }
}
