//! The generated DFT_K codelets ([`generated`]) and the field operations they
//! call.

pub mod generated;

use gfpf_executor::TwiddleTable;
use gfpf_field::{Element, Field, LaneArith, Lanes};
use gfpf_plan::Plan;

/// The operations a generated codelet performs on its K-element working
/// vector. The codelet fixes the positions and powers; the implementation
/// fixes the ring and the direction.
pub trait CodeletOps {
    /// The element type.
    type Elem;
    /// The largest codelet this implementation runs: the lookup compiles
    /// (monomorphises) only codelets up to it, which keeps the generic code
    /// for small fields small.
    const MAX_RADIX: usize = usize::MAX;
    /// (x\[a\], x\[b\]) ← (x\[a\] + x\[b\], x\[a\] − x\[b\]).
    fn butterfly(&self, x: &mut [Self::Elem], a: usize, b: usize);
    /// x\[a\] ← x\[a\]·ρ^j, ρ the primitive `radix`-th root of the transform's
    /// direction.
    fn mul_root_power(&self, x: &mut [Self::Elem], a: usize, j: usize, radix: usize);
    /// (x\[a\], x\[b\]) ← (x\[a\] + x\[b\], (x\[a\] − x\[b\])·ρ^j): a
    /// butterfly whose difference is then multiplied by a root power, as
    /// decimation in frequency pairs them; one call, so that an
    /// implementation can fuse them. The default calls [`Self::butterfly`]
    /// and [`Self::mul_root_power`].
    fn butterfly_root_power(&self, x: &mut [Self::Elem], a: usize, b: usize, j: usize, radix: usize) {
        self.butterfly(x, a, b);
        self.mul_root_power(x, b, j, radix);
    }
    /// x\[a\] ← x\[a\]·t_a, the a-th twiddle of the current call.
    fn twiddle(&self, x: &mut [Self::Elem], a: usize);
    /// x\[a\] ← x\[a\]·t_a for every slot a from 1 on (what a twiddle-fused
    /// codelet does before or after its DFT): one call, so that an
    /// implementation can multiply several elements at once.
    fn twiddle_all(&self, x: &mut [Self::Elem]) {
        for a in 1..x.len() {
            self.twiddle(x, a);
        }
    }
}

/// A generated codelet: runs DFT_K on the first K elements of the slice.
pub type CodeletFn<O> = fn(&O, &mut [<O as CodeletOps>::Elem]);

/// The exponent i of r^i that multiplies by r^(±s) (r has order 2k): s
/// forward, 2k − s inverse.
#[inline(always)]
pub(crate) fn directed_shift<const K: usize>(inverse: bool, s: usize) -> usize {
    if inverse { 2 * K - s } else { s }
}

/// The shift for ρ^j with ρ = r^(±2k/radix), the root of a DFT_radix.
#[inline(always)]
fn root_shift<const K: usize>(inverse: bool, j: usize, radix: usize) -> usize {
    directed_shift::<K>(inverse, j * (2 * K / radix))
}

/// Where a twiddle comes from: w^e = r^(±q)·table[m] for e = i·unit.
#[derive(Clone, Copy)]
pub(crate) struct TwiddleRow<'a, const K: usize> {
    /// w^m, m < M.
    pub table: &'a TwiddleTable<K>,
    /// The plan, which splits exponents as e = q·M + m.
    pub plan: &'a Plan,
    /// b·step: the exponent of slot i is i·unit.
    pub unit: usize,
}

/// GF(r^k + 1) operations for a forward or inverse transform.
pub(crate) struct FieldOps<'a, const K: usize> {
    pub field: &'a Field<K>,
    pub inverse: bool,
    pub twiddles: Option<TwiddleRow<'a, K>>,
}

impl<const K: usize> FieldOps<'_, K> {
    /// x ← x · w^e with w = ω_N^(±1): table entry then shift.
    #[inline]
    fn apply_twiddle(&self, x: &mut Element<K>, row: &TwiddleRow<'_, K>, e: usize) {
        let (q, m) = row.plan.split_exponent(e);
        if m != 0 {
            *x = row.table.mul_entry(self.field, x, m);
        }
        self.mul_r_quotient(x, q);
    }

    /// x ← x·r^(±q), the shift part of a twiddle w^e = r^(±q)·table\[m\].
    #[inline]
    pub(crate) fn mul_r_quotient(&self, x: &mut Element<K>, q: usize) {
        if q != 0 {
            self.shift(x, directed_shift::<K>(self.inverse, q));
        }
    }

    /// x ← x·r^shift: in place from [`IN_PLACE_MIN_K`] on, by value below.
    #[inline]
    fn shift(&self, x: &mut Element<K>, shift: usize) {
        if K >= IN_PLACE_MIN_K {
            mul_pow_r_in_place(self.field, x, shift);
        } else {
            *x = self.field.mul_pow_r(x, shift);
        }
    }
}

impl<const K: usize> CodeletOps for FieldOps<'_, K> {
    type Elem = Element<K>;
    const MAX_RADIX: usize = 2 * K;

    #[inline]
    fn butterfly(&self, x: &mut [Element<K>], a: usize, b: usize) {
        if K >= IN_PLACE_MIN_K {
            butterfly_in_place(self.field, x, a, b);
        } else {
            (x[a], x[b]) = self.field.add_sub(&x[a], &x[b]);
        }
    }

    #[inline]
    fn mul_root_power(&self, x: &mut [Element<K>], a: usize, j: usize, radix: usize) {
        self.shift(&mut x[a], root_shift::<K>(self.inverse, j, radix));
    }

    #[inline]
    fn twiddle(&self, x: &mut [Element<K>], a: usize) {
        if let Some(row) = self.twiddles {
            self.apply_twiddle(&mut x[a], &row, a * row.unit);
        }
    }

    /// Four slots at a time, then two, through [`Field::mul_lanes`], which
    /// overlaps the products' chains of divisions (per product, 4 lanes
    /// against [`Field::mul`]: t8 89 against 130 ns, t16 220 against 309,
    /// p8 51 against 73, p16 158 against 208; alternating run on the
    /// project VM).
    #[inline]
    fn twiddle_all(&self, x: &mut [Element<K>]) {
        let Some(row) = self.twiddles else { return };
        let mut a = 1;
        while a + 4 <= x.len() {
            self.twiddle_lanes::<4>(x, &row, a);
            a += 4;
        }
        if a + 2 <= x.len() {
            self.twiddle_lanes::<2>(x, &row, a);
            a += 2;
        }
        if a < x.len() {
            self.apply_twiddle(&mut x[a], &row, a * row.unit);
        }
    }
}

impl<const K: usize> FieldOps<'_, K> {
    /// The twiddles of several DFTs of one stage, element-major
    /// (`xs[l·radix + a]` is slot a of DFT l): slot a of DFT l is multiplied
    /// by w^(a·units\[l\]). The full multiplications go four at a time
    /// across slots and DFTs alike (no odd ones left per DFT), then each
    /// element takes its shift.
    pub(crate) fn twiddle_dfts(&self, row: &TwiddleRow<'_, K>, radix: usize, units: &[usize], xs: &mut [Element<K>]) {
        let mut pending = [(0usize, 0usize, 0usize); 4];
        let mut filled = 0;
        let flush = |xs: &mut [Element<K>], pending: &[(usize, usize, usize)]| {
            if let [p0, p1, p2, p3] = pending {
                let products = row.table.mul_entries(
                    self.field,
                    [&xs[p0.0], &xs[p1.0], &xs[p2.0], &xs[p3.0]],
                    [p0.2, p1.2, p2.2, p3.2],
                );
                for (&(at, q, _), product) in pending.iter().zip(products) {
                    xs[at] = product;
                    self.mul_r_quotient(&mut xs[at], q);
                }
            } else {
                for &(at, q, m) in pending {
                    xs[at] = row.table.mul_entry(self.field, &xs[at], m);
                    self.mul_r_quotient(&mut xs[at], q);
                }
            }
        };
        for (l, &unit) in units.iter().enumerate().filter(|&(_, &u)| u != 0) {
            for a in 1..radix {
                let at = l * radix + a;
                let (q, m) = row.plan.split_exponent(a * unit);
                if m == 0 {
                    self.mul_r_quotient(&mut xs[at], q);
                    continue;
                }
                pending[filled] = (at, q, m);
                filled += 1;
                if filled == 4 {
                    flush(xs, &pending);
                    filled = 0;
                }
            }
        }
        flush(xs, &pending[..filled]);
    }

    /// Slots first .. first + L through one [`Field::mul_lanes`] when all of
    /// them need a table entry (else one by one), then their shifts.
    #[inline(always)]
    fn twiddle_lanes<const L: usize>(&self, x: &mut [Element<K>], row: &TwiddleRow<'_, K>, first: usize) {
        let split: [(usize, usize); L] = std::array::from_fn(|e| row.plan.split_exponent((first + e) * row.unit));
        if split.iter().any(|&(_, m)| m == 0) {
            for e in 0..L {
                self.apply_twiddle(&mut x[first + e], row, (first + e) * row.unit);
            }
            return;
        }
        let products = row.table.mul_entries(
            self.field,
            std::array::from_fn(|e| &x[first + e]),
            split.map(|(_, m)| m),
        );
        for (e, (product, (q, _))) in products.into_iter().zip(split).enumerate() {
            x[first + e] = product;
            self.mul_r_quotient(&mut x[first + e], q);
        }
    }
}

/// GF(r^k + 1) operations on [`Lanes`]: eight base DFTs of one stage side
/// by side, one per lane, their butterflies and shifts in SIMD lanes
/// ([`LaneArith`]). The DFTs share positions and root powers; their twiddles
/// (which differ per lane) are applied on whole elements outside the codelet,
/// so only plain codelets run here.
pub(crate) struct LaneOps<'a, const K: usize> {
    pub lanes: LaneArith<'a, K>,
    pub inverse: bool,
}

impl<const K: usize> CodeletOps for LaneOps<'_, K> {
    type Elem = Lanes<K>;
    const MAX_RADIX: usize = 2 * K;

    #[inline]
    fn butterfly(&self, x: &mut [Lanes<K>], a: usize, b: usize) {
        let [xa, xb] = x
            .get_disjoint_mut([a, b])
            .expect("codelet butterflies pair two distinct slots");
        self.lanes.add_sub_assign(xa, xb);
    }

    #[inline]
    fn mul_root_power(&self, x: &mut [Lanes<K>], a: usize, j: usize, radix: usize) {
        self.lanes
            .mul_pow_r_assign(&mut x[a], root_shift::<K>(self.inverse, j, radix));
    }

    #[inline]
    fn butterfly_root_power(&self, x: &mut [Lanes<K>], a: usize, b: usize, j: usize, radix: usize) {
        let [xa, xb] = x
            .get_disjoint_mut([a, b])
            .expect("codelet butterflies pair two distinct slots");
        self.lanes
            .add_sub_mul_pow_r_assign(xa, xb, root_shift::<K>(self.inverse, j, radix));
    }

    /// Never called: lane codelets are the plain ones.
    fn twiddle(&self, _: &mut [Lanes<K>], _: usize) {
        unreachable!("twiddles are applied on whole elements, outside the lanes")
    }
}

/// From this k on, butterflies and shifts work on the codelet's vector in
/// place, through the out-of-line helpers below. Returning elements by value
/// copies them (a `memcpy` of k words per element: 17% of a p32 profile);
/// inlining the in-place bodies into every call site of the straight-line
/// codelets took the optimiser minutes per crate, so they are calls (a call
/// costs little next to 2k words of arithmetic). Below it the by-value forms
/// stay in registers.
const IN_PLACE_MIN_K: usize = 16;

/// (x[a], x[b]) ← (x[a] + x[b], x[a] − x[b]), a ≠ b.
#[inline(never)]
fn butterfly_in_place<const K: usize>(field: &Field<K>, x: &mut [Element<K>], a: usize, b: usize) {
    let [xa, xb] = x
        .get_disjoint_mut([a, b])
        .expect("codelet butterflies pair two distinct slots");
    field.add_sub_assign(xa, xb);
}

/// x ← x·r^shift.
#[inline(never)]
fn mul_pow_r_in_place<const K: usize>(field: &Field<K>, x: &mut Element<K>, shift: usize) {
    field.mul_pow_r_assign(x, shift);
}
