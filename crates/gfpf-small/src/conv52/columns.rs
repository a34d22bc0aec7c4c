//! The column transform's passes: up to three layers of the K-point DFT
//! down the columns on groups of up to eight rows held in registers.

use super::Factor;
#[cfg(target_arch = "x86_64")]
use crate::ntt52::Isa;

/// A column pass's group on the vector kernels of `isa`.
///
/// # Safety
/// The CPU has `isa` (not scalar); the rows have one length, a multiple of
/// its lanes; `twist` has R entries when `TWIST`, `factors` R/2·log2 R;
/// `CONSECUTIVE` only for groups of consecutive rows (their butterflies
/// with factor 1 are not multiplied).
#[cfg(target_arch = "x86_64")]
pub(super) unsafe fn vector_pass<const R: usize, const TWIST: bool, const CONSECUTIVE: bool>(
    isa: Isa,
    forward: bool,
    rows: [&mut [u64]; R],
    twist: &[(u64, u64)],
    factors: &[(u64, u64)],
    q: u64,
) {
    use crate::ntt52::{avx2, ifma};
    // SAFETY: as the caller promises.
    unsafe {
        match (isa, forward) {
            (Isa::Avx512Ifma, true) => ifma::columns_forward::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Avx512Ifma, false) => ifma::columns_inverse::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Avx2Fma, true) => avx2::columns_forward::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Avx2Fma, false) => avx2::columns_inverse::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Scalar, _) => unreachable!("no vector part in scalar code"),
        }
    }
}

/// One pass of a column transform: up to three of its layers, run on groups
/// of 2^m rows with the values in registers (one trip through memory where
/// a layer at a time took m; with the twist or untwist in the same trip).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ColumnPass {
    /// The butterflies of a group as pairs of positions in it, in the
    /// order the kernels run them ([`pass_butterflies`]).
    pub(super) butterflies: Vec<(usize, usize)>,
    /// Whether its groups are runs of consecutive rows (the pass holding
    /// the layer of half-size 1), whose butterflies (lo, hi) with lo a
    /// multiple of 2(hi − lo) have factor 1.
    pub(super) consecutive: bool,
    pub(super) groups: Vec<ColumnGroup>,
}

/// The rows one pass takes together, and their factors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ColumnGroup {
    /// The 2^m rows (base + t0 + j·H, j < 2^m, for the pass's narrowest
    /// half-size H), position j first.
    pub(super) rows: Vec<usize>,
    /// Row by row, the twist (forward: applied first) or the untwist
    /// (inverse: applied last, reduced into [0, q)) where this pass carries
    /// it; else empty.
    pub(super) twist: Vec<(u64, u64)>,
    /// The butterflies' factors with their companions, in the pass's order.
    pub(super) factors: Vec<(u64, u64)>,
}

/// The butterflies of one pass over 2^m rows (m ≤ 3), as positions (lo,
/// hi) in the group, in the order the vector kernels run them
/// ([`crate::ntt52::pass_in_registers`]).
pub(crate) fn pass_butterflies(m: usize, forward: bool) -> Vec<(usize, usize)> {
    fn of<const R: usize>(forward: bool) -> Vec<(usize, usize)> {
        let mut pairs = Vec::with_capacity(12);
        let mut positions: [usize; R] = std::array::from_fn(|j| j);
        crate::ntt52::pass_in_registers(&mut positions, forward, |lo, hi, _, _| {
            pairs.push((lo, hi));
            (lo, hi)
        });
        pairs
    }
    match m {
        0 => Vec::new(),
        1 => of::<2>(forward),
        2 => of::<4>(forward),
        _ => of::<8>(forward),
    }
}

/// The column transform over K rows as passes of at most three layers
/// (log2 K split as evenly as possible: K = 8 one pass, 16 two of two, 128
/// three), in the order they run: forward the widest layers first with the
/// twist in the first pass, inverse the narrowest first with the untwist
/// in the last. `layers` holds the layer of half-size h from offset h − 1
/// (ω_(2h)^t, t < h), `twist` one factor per row.
/// (Measured: see the module docs.)
pub(super) fn column_passes(k: usize, twist: &[Factor], layers: &[Factor], forward: bool) -> Vec<ColumnPass> {
    let depth = k.trailing_zeros() as usize;
    let count = depth.div_ceil(3).max(1);
    // (narrowest half-size H, layers m) of each pass, widest layers first.
    let mut shapes = Vec::with_capacity(count);
    let mut top = k;
    for p in 0..count {
        let m = depth / count + usize::from(p < depth % count);
        top >>= m;
        shapes.push((top, m));
    }
    if !forward {
        shapes.reverse();
    }
    let last = shapes.len() - 1;
    shapes
        .iter()
        .enumerate()
        .map(|(p, &(narrowest, m))| {
            let r = 1 << m;
            let butterflies = pass_butterflies(m, forward);
            let carries_twist = if forward { p == 0 } else { p == last };
            let mut groups = Vec::with_capacity(k / r);
            for base in (0..k).step_by(narrowest * r) {
                for t0 in 0..narrowest {
                    let rows: Vec<usize> = (0..r).map(|j| base + t0 + j * narrowest).collect();
                    let factors = butterflies
                        .iter()
                        .map(|&(lo, hi)| {
                            let h = (hi - lo) * narrowest;
                            let f = layers[h - 1 + rows[lo] % (2 * h)];
                            (f.value, f.companion)
                        })
                        .collect();
                    let twist = match carries_twist {
                        true => rows.iter().map(|&g| (twist[g].value, twist[g].companion)).collect(),
                        false => Vec::new(),
                    };
                    groups.push(ColumnGroup { rows, twist, factors });
                }
            }
            ColumnPass {
                butterflies,
                consecutive: narrowest == 1,
                groups,
            }
        })
        .collect()
}
