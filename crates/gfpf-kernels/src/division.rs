//! The short division of the kernels' carry chains (`gfpf_div_rem_small_high`
//! in kernels/gfpf_field.cuh).
//!
//! A product's carry chain divides numbers n = u1·2^64 + u0 by d, the
//! normalised r (r shifted until its top bit is set), twice or three times a
//! digit: the column sum plus the carry (two words and a small third), its
//! quotient, the carry past the top digit. Möller–Granlund's division
//! takes any u1 < d, at about 40 SASS instructions (a 64-bit high product
//! is four 32-bit multiplies on the GPU). But in all of those divisions but
//! one a digit, u1 is small: the column sums are below 2^137 for every
//! preset, so the high word of the first division and of a quotient's
//! division is at most a few hundred. Where d is close to 2^63 or to 2^64,
//! as for every t-preset (r = 2^a ± 2^b with a ≥ 62), such a division is a
//! product of u1 by a short constant and two corrections:
//!
//! * d ≥ 2^63, δ = 2d − 2^64 small ([`SmallHighDivision::TwiceLess`]):
//!   n = 2·u1·d + (u0 − u1·δ), the remainder u0 − u1·δ in (−d, 2^64);
//! * e = 2^64 − d small ([`SmallHighDivision::OnceMore`]):
//!   n = u1·d + (u0 + u1·e), the remainder in [0, 2^64 + d).
//!
//! Each is exact where u1·δ (or u1·e) stays below d for every u1 the
//! kernels can meet (then the remainder is below 2^64 < 2d before its last
//! correction); [`SmallHighDivision::of`] proves that bound from the
//! field's constants, and the kernels keep Möller–Granlund's division where
//! it does not hold (the p-presets, r ≈ 2^59).

use rug::Integer;
use rug::integer::Order;

use crate::DeviceConstants;

/// How the kernels divide a number whose high word is small by the
/// normalised r: the form and its constant, as `#define`s of the prelude
/// (`GFPF_SMALL_HIGH_FORM`, `GFPF_SMALL_HIGH_CONST`, `GFPF_SMALL_HIGH_MAX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SmallHighDivision {
    /// No short form is exact for every high word the kernels meet:
    /// Möller–Granlund's division.
    MollerGranlund,
    /// q = 2·u1, remainder u0 − u1·δ (δ = 2d − 2^64), one correction each
    /// way.
    TwiceLess {
        /// δ = 2d − 2^64.
        delta: u64,
        /// The largest high word the kernels divide.
        high_max: u64,
    },
    /// q = u1, remainder u0 + u1·e (e = 2^64 − d), one or two corrections.
    OnceMore {
        /// e = 2^64 − d.
        e: u64,
        /// The largest high word the kernels divide.
        high_max: u64,
    },
}

impl SmallHighDivision {
    /// The form for `constants`' field: a short one where the largest high
    /// word times its constant stays below d, δ's form first.
    pub fn of(constants: &DeviceConstants) -> Self {
        let Some(high_max) = largest_small_high_word(constants) else {
            return SmallHighDivision::MollerGranlund;
        };
        let d = constants.mul.r_normalized;
        let fits = |c: u64| u128::from(high_max) * u128::from(c) < u128::from(d);
        let delta = (2 * u128::from(d) - (1u128 << 64)) as u64;
        let e = ((1u128 << 64) - u128::from(d)) as u64;
        if fits(delta) {
            SmallHighDivision::TwiceLess { delta, high_max }
        } else if fits(e) {
            SmallHighDivision::OnceMore { e, high_max }
        } else {
            SmallHighDivision::MollerGranlund
        }
    }

    /// The `#define`s of the prelude: form 0 (Möller–Granlund), 1
    /// ([`SmallHighDivision::TwiceLess`]) or 2 ([`SmallHighDivision::OnceMore`]),
    /// its constant and the bound on the high word (which the host emulator
    /// checks at every division).
    pub fn defines(&self) -> String {
        let (form, constant, high_max) = match *self {
            SmallHighDivision::MollerGranlund => (0, 0, 0),
            SmallHighDivision::TwiceLess { delta, high_max } => (1, delta, high_max),
            SmallHighDivision::OnceMore { e, high_max } => (2, e, high_max),
        };
        format!(
            "#define GFPF_SMALL_HIGH_FORM {form}\n#define GFPF_SMALL_HIGH_CONST {constant:#x}ull\n#define GFPF_SMALL_HIGH_MAX {high_max:#x}ull\n"
        )
    }

    /// (n div d, n mod d) for n = u1·2^64 + u0 as the kernels compute it,
    /// or `None` where u1 is past the form's bound (the kernels' contract).
    /// The Rust mirror of `gfpf_div_rem_small_high`, for tests.
    pub fn div_rem(&self, d: u64, u1: u64, u0: u64) -> Option<(u64, u64)> {
        match *self {
            SmallHighDivision::MollerGranlund => {
                let n = (u128::from(u1) << 64) | u128::from(u0);
                (u1 < d).then(|| ((n / u128::from(d)) as u64, (n % u128::from(d)) as u64))
            }
            SmallHighDivision::TwiceLess { delta, high_max } => {
                if u1 > high_max {
                    return None;
                }
                let t = u1 * delta;
                let borrow = u0 < t;
                let rem = u0.wrapping_sub(t).wrapping_add(if borrow { d } else { 0 });
                let q = 2 * u1 - u64::from(borrow);
                let over = rem >= d;
                Some((q + u64::from(over), if over { rem - d } else { rem }))
            }
            SmallHighDivision::OnceMore { e, high_max } => {
                if u1 > high_max {
                    return None;
                }
                let t = u1 * e;
                let (mut v, carry) = u0.overflowing_add(t);
                if carry {
                    v += e;
                }
                let q = u1 + u64::from(carry);
                let over = v >= d;
                Some((q + u64::from(over), if over { v - d } else { v }))
            }
        }
    }
}

/// The largest high word u1 the kernels divide with the short division, or
/// `None` past 64 bits: the larger of the first division of a column's
/// chain, ⌊n·2^s / 2^128⌋, and of a quotient's, ⌊⌊n/r⌋·2^s / 2^64⌋, for n
/// up to the largest column sum plus carry. A column sum is below offset +
/// k·(r − 1)² (its subtracted products only lower it; an operand −1 takes
/// its own path), and a carry below that over r − 1.
fn largest_small_high_word(c: &DeviceConstants) -> Option<u64> {
    let offset = |w: [u64; 3]| Integer::from_digits(&w, Order::Lsf);
    let offset = offset(c.mul.offset_first).max(offset(c.mul.offset_rest));
    let column = offset + Integer::from(c.k) * Integer::from(c.r - 1).square();
    let n = Integer::from(&column / (c.r - 1)) + column + 2u32;
    let s = c.mul.r_shift;
    let first = Integer::from(&n << s) >> 128u32;
    let quotient = (Integer::from(&n / c.r) << s) >> 64u32;
    first.max(quotient).to_u64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::{Field, Preset, for_each_preset};

    /// Every preset's name and constants.
    fn presets() -> Vec<(&'static str, DeviceConstants)> {
        macro_rules! all {
            ($($name:ident $preset:ident $k:literal),*) => {
                vec![$((stringify!($name), DeviceConstants::of(&Field::<$k>::preset(Preset::$preset).unwrap()))),*]
            };
        }
        for_each_preset!(all!())
    }

    /// Every t-preset (r = 2^a ± 2^b, a ≥ 62) takes a short form, every
    /// p-preset (r ≈ 2^59) Möller–Granlund's division.
    #[test]
    fn t_presets_take_a_short_form() {
        for (name, c) in presets() {
            let form = SmallHighDivision::of(&c);
            let short = !matches!(form, SmallHighDivision::MollerGranlund);
            assert_eq!(short, name.starts_with('t'), "{name}: {form:?}");
        }
    }

    /// The short forms against u128 division at the edges of their
    /// corrections: u1 at 0, 1 and its bound; u0 around u1·δ (or u1·e), d
    /// and 2^64 − 1.
    #[test]
    fn short_forms_divide_exactly() {
        for (name, c) in presets() {
            let form = SmallHighDivision::of(&c);
            let d = c.mul.r_normalized;
            let (constant, high_max) = match form {
                SmallHighDivision::MollerGranlund => continue,
                SmallHighDivision::TwiceLess { delta, high_max } => (delta, high_max),
                SmallHighDivision::OnceMore { e, high_max } => (e, high_max),
            };
            for u1 in [0, 1, 2, high_max / 2, high_max - 1, high_max] {
                let t = u1 * constant;
                for u0 in [
                    0,
                    1,
                    t.saturating_sub(1),
                    t,
                    t + 1,
                    d - 1,
                    d,
                    d + 1,
                    u64::MAX - t,
                    u64::MAX,
                ] {
                    let n = (u128::from(u1) << 64) | u128::from(u0);
                    let want = ((n / u128::from(d)) as u64, (n % u128::from(d)) as u64);
                    assert_eq!(form.div_rem(d, u1, u0), Some(want), "{name}: {u1} {u0}");
                }
            }
            assert_eq!(form.div_rem(d, high_max + 1, 0), None);
        }
    }
}
