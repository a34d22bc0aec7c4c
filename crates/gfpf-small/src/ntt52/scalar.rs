//! The scalar kernels (any CPU): the arithmetic of the vector ones on u128.

use super::{Tw, mul_lazy, sub_if_ge};

pub(super) fn dif2(lo: &mut [u64], hi: &mut [u64], (w, c): Tw<'_>, q: u64) {
    let two_q = 2 * q;
    for (j, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let (a, b) = (*x, *y);
        *x = sub_if_ge(a + b, two_q);
        *y = mul_lazy(a + two_q - b, w[j], c[j], q);
    }
}

pub(super) fn dit2(lo: &mut [u64], hi: &mut [u64], (w, c): Tw<'_>, q: u64) {
    let two_q = 2 * q;
    for (j, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let t = mul_lazy(*y, w[j], c[j], q);
        let a = *x;
        *x = sub_if_ge(a + t, two_q);
        *y = sub_if_ge(a + two_q - t, two_q);
    }
}
