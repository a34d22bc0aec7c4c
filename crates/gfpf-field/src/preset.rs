//! The preset primes of DESIGN.md §1 (thesis table 3.1 and ISSAC 2019 table 1).

use std::fmt;
use std::str::FromStr;

use crate::FieldError;
use crate::sparse::{MAX_SPARSE_TERMS, SparseRadix, SparseTerm};

/// A named preset prime p = r^k + 1.
///
/// The `t` presets come from the thesis (table 3.1), the `p` presets from the
/// ISSAC 2019 paper (table 1). All are prime; note that t4 and t128 have
/// r > 2^63, so a sum of two digits does not fit in a `u64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Preset {
    T2,
    T4,
    T8,
    T16,
    T32,
    T64,
    T128,
    P4,
    P8,
    P16,
    P32,
    P64,
    P128,
}

/// Calls a macro with the list of every preset, once: `name Variant k`,
/// comma-separated, in [`Preset::ALL`]'s order. The one place test suites and
/// tools that need a module or a const generic per preset take the list from,
/// so that adding a preset touches only this file.
///
/// `for_each_preset!(path::to::callback!(prefix tokens))` expands to
/// `path::to::callback!(prefix tokens t2 T2 2, t4 T4 4, …, p128 P128 128)`.
///
/// ```
/// macro_rules! digit_counts {
///     ($($name:ident $variant:ident $k:literal),*) => { [$(($k, stringify!($name))),*] };
/// }
/// let table = gfpf_field::for_each_preset!(digit_counts!());
/// assert_eq!(table.len(), gfpf_field::Preset::ALL.len());
/// assert_eq!(table[2], (8, "t8"));
/// ```
#[macro_export]
macro_rules! for_each_preset {
    ($($callback:ident)::+ ! ( $($prefix:tt)* )) => {
        $($callback)::+ ! { $($prefix)*
            t2 T2 2, t4 T4 4, t8 T8 8, t16 T16 16, t32 T32 32, t64 T64 64, t128 T128 128,
            p4 P4 4, p8 P8 8, p16 P16 16, p32 P32 32, p64 P64 64, p128 P128 128
        }
    };
}

struct PresetData {
    name: &'static str,
    sparse: SparseRadix,
    k: usize,
    bits: u32,
    two_adicity: u32,
}

const fn sp(a: u32, b_neg: bool, b: u32) -> SparseRadix {
    SparseRadix::from_const(
        [
            SparseTerm::plus(a),
            SparseTerm {
                negative: b_neg,
                exponent: b,
            },
            SparseTerm::plus(0),
        ],
        2,
    )
}

const fn sp3(a: u32, b: u32, c: u32) -> SparseRadix {
    let terms: [SparseTerm; MAX_SPARSE_TERMS] = [SparseTerm::plus(a), SparseTerm::plus(b), SparseTerm::plus(c)];
    SparseRadix::from_const(terms, 3)
}

const fn data(name: &'static str, sparse: SparseRadix, k: usize, bits: u32, two_adicity: u32) -> PresetData {
    PresetData {
        name,
        sparse,
        k,
        bits,
        two_adicity,
    }
}

impl Preset {
    /// Every preset, t-table first.
    pub const ALL: [Preset; 13] = [
        Preset::T2,
        Preset::T4,
        Preset::T8,
        Preset::T16,
        Preset::T32,
        Preset::T64,
        Preset::T128,
        Preset::P4,
        Preset::P8,
        Preset::P16,
        Preset::P32,
        Preset::P64,
        Preset::P128,
    ];

    const fn data(self) -> PresetData {
        match self {
            Preset::T2 => data("t2", sp(63, false, 53), 2, 127, 106),
            Preset::T4 => data("t4", sp(64, true, 50), 4, 256, 200),
            Preset::T8 => data("t8", sp(63, false, 34), 8, 505, 272),
            Preset::T16 => data("t16", sp(62, false, 36), 16, 993, 576),
            Preset::T32 => data("t32", sp(62, false, 56), 32, 1985, 1792),
            Preset::T64 => data("t64", sp(63, true, 40), 64, 4032, 2560),
            Preset::T128 => data("t128", sp(64, true, 28), 128, 8192, 3584),
            Preset::P4 => data("p4", sp3(59, 58, 11), 4, 239, 44),
            Preset::P8 => data("p8", sp3(59, 57, 39), 8, 475, 312),
            Preset::P16 => data("p16", sp3(58, 55, 45), 16, 931, 720),
            Preset::P32 => data("p32", sp3(58, 55, 17), 32, 1862, 544),
            Preset::P64 => data("p64", sp3(57, 56, 11), 64, 3686, 704),
            Preset::P128 => data("p128", sp3(57, 52, 20), 128, 7302, 2560),
        }
    }

    /// The short name, e.g. `"t8"`.
    pub const fn name(self) -> &'static str {
        self.data().name
    }
    /// The number of base-r digits k.
    pub const fn k(self) -> usize {
        self.data().k
    }
    /// r in sparse form.
    pub const fn sparse(self) -> SparseRadix {
        self.data().sparse
    }
    /// The radix r.
    pub fn r(self) -> u64 {
        self.sparse().value() as u64
    }
    /// The bit length of p (from the tables; verified by the tests).
    pub const fn bits(self) -> u32 {
        self.data().bits
    }
    /// The 2-adic valuation of p - 1 (from the tables; verified by the tests).
    pub const fn two_adicity(self) -> u32 {
        self.data().two_adicity
    }

    /// Every preset's name, space-separated, in [`Preset::ALL`]'s order.
    pub fn names() -> String {
        Self::ALL.map(Preset::name).join(" ")
    }

    /// Looks a preset up by name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Self, FieldError> {
        Self::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| FieldError::UnknownPreset(name.to_string()))
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = FieldError;
    fn from_str(s: &str) -> Result<Self, FieldError> {
        Self::from_name(s)
    }
}
