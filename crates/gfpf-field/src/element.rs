//! The element type: k base-r digits, plain data.

use std::cmp::Ordering;
use std::fmt;

use bytemuck::{Pod, Zeroable};

/// An element of GF(r^k + 1) as `K` base-r digits, least significant first.
///
/// The value is `Σ digits[i]·r^i`. In canonical form every digit is below r,
/// except for p - 1 = r^k, stored with top digit r and all other digits 0.
/// Every operation of [`crate::Field`] takes and returns canonical elements,
/// so equality, hashing and ordering (by value) are plain digit comparisons.
///
/// An element does not know its field: build and check elements through a
/// [`crate::Field`]. It is `Pod`, so a slice of elements casts to `&[u64]` at
/// no cost (`bytemuck::cast_slice`); elements made that way should be checked
/// with [`crate::Field::check`] before use. Arithmetic on non-canonical
/// elements gives unspecified values but never panics in release builds.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Element<const K: usize>(pub(crate) [u64; K]);

// SAFETY: `Element<K>` is `repr(transparent)` over `[u64; K]`, which is
// zeroable (all-zero bits are a valid `[u64; K]`, and represent 0).
unsafe impl<const K: usize> Zeroable for Element<K> {}
// SAFETY: `repr(transparent)` over `[u64; K]`, which is `Pod`: no padding, every
// bit pattern valid, `Copy + 'static`.
unsafe impl<const K: usize> Pod for Element<K> {}

impl<const K: usize> Element<K> {
    /// The zero element (valid in every field with k = K).
    pub const ZERO: Self = Self([0; K]);

    /// The base-r digits, least significant first.
    #[inline]
    pub const fn digits(&self) -> &[u64; K] {
        &self.0
    }

    /// Whether this is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&d| d == 0)
    }

    /// Builds an element from raw digits without any check. Use
    /// [`crate::Field::element`] unless the digits are known canonical.
    #[inline]
    pub const fn from_digits_unchecked(digits: [u64; K]) -> Self {
        Self(digits)
    }
}

impl<const K: usize> Default for Element<K> {
    fn default() -> Self {
        Self::ZERO
    }
}

/// Orders canonical elements by their integer value in [0, p).
impl<const K: usize> Ord for Element<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Canonical base-r digits compare like the integers they denote, from
        // the top digit down; p - 1 has the largest top digit (r).
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl<const K: usize> PartialOrd for Element<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const K: usize> fmt::Debug for Element<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Element{:x?}", self.0)
    }
}
