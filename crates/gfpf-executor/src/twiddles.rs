//! The twiddle table of a prepared transform: w^m for m < M = N/2k, kept
//! whole or as two levels of about √M entries each.
//!
//! A whole table costs M elements: at t8 and N = 2^31, 2^27 entries of 64
//! bytes, 8 GiB (1/2k of the data). The two-level table keeps w^m =
//! high\[m >> b\] · low\[m mod 2^b\] with b = ⌈log₂ M / 2⌉ (2^14 + 2^13
//! entries, 1.5 MiB, at t8 and N = 2^31) and pays one more product per
//! twiddle, which made forward transforms 1.28–1.36x slower where both fit
//! (t8, 2 threads, project VM, 2026-11-24, `fft_breakdown --twiddles`,
//! medians of 5–7 alternating rounds: N = 2^20 1.36x, 2^22 1.33x, 2^24
//! 1.28x). [`TwiddleLayout::Auto`] therefore keeps a table whole up to
//! [`FULL_TWIDDLE_TABLE_MAX_BYTES`] and while the transform fits in memory
//! with it, and in two levels beyond.

use gfpf_field::{Element, Field};
use gfpf_plan::Direction;

use crate::{TransformError, check_fits};

/// Whole twiddle tables up to this many bytes under [`TwiddleLayout::Auto`];
/// two-level ones above. At t8 the bound is N = 2^28 (M = 2^24 entries,
/// data 16 GiB); at N = 2^31 the table takes 1.5 MiB instead of 8 GiB. The
/// bound trades the two-level table's 1.28x (measured up to N = 2^24, see
/// the module documentation) against memory: above it the table is at
/// least a gigabyte, while the speed cost falls as N grows.
pub const FULL_TWIDDLE_TABLE_MAX_BYTES: usize = 1 << 30;

/// How a twiddle table is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TwiddleLayout {
    /// Whole up to [`FULL_TWIDDLE_TABLE_MAX_BYTES`], two levels above; and
    /// two levels where the whole table would not fit beside the data
    /// (executors that know what else a transform needs use
    /// [`TwiddleLayout::fit`]). The default.
    #[default]
    Auto,
    /// Every entry: M elements, one product per twiddle.
    Full,
    /// Two levels of about √M entries each, two products per twiddle.
    Split,
}

impl TwiddleLayout {
    /// The layout a table of `len` entries of K digits gets: `Auto` resolved.
    pub fn resolve<const K: usize>(self, len: usize) -> TwiddleLayout {
        match self {
            TwiddleLayout::Auto if len.saturating_mul(size_of::<Element<K>>()) > FULL_TWIDDLE_TABLE_MAX_BYTES => {
                TwiddleLayout::Split
            }
            TwiddleLayout::Auto => TwiddleLayout::Full,
            layout => layout,
        }
    }

    /// As [`TwiddleLayout::resolve`], and `Auto` also resolves to `Split`
    /// where `others` elements (the transform's data and scratch) and the
    /// whole table exceed `limit` bytes ([`crate::memory_limit`]) while the
    /// two-level table fits.
    pub fn fit<const K: usize>(self, len: usize, others: u128, limit: Option<u64>) -> TwiddleLayout {
        let resolved = self.resolve::<K>(len);
        let fits = |layout: TwiddleLayout| {
            let elements = others.saturating_add(layout.stored_entries::<K>(len) as u128);
            limit.is_none_or(|limit| elements.saturating_mul(size_of::<Element<K>>() as u128) <= u128::from(limit))
        };
        if self == TwiddleLayout::Auto
            && resolved == TwiddleLayout::Full
            && !fits(resolved)
            && fits(TwiddleLayout::Split)
        {
            TwiddleLayout::Split
        } else {
            resolved
        }
    }

    /// The elements a table of `len` entries stores in this layout.
    pub fn stored_entries<const K: usize>(self, len: usize) -> usize {
        match self.resolve::<K>(len) {
            TwiddleLayout::Split => {
                let low_bits = split_low_bits(len);
                (1 << low_bits) + len.div_ceil(1 << low_bits)
            }
            _ => len,
        }
    }
}

/// b = ⌈log₂ M / 2⌉: the low level has 2^b entries, the high ⌈M / 2^b⌉.
fn split_low_bits(len: usize) -> u32 {
    len.next_power_of_two().trailing_zeros().div_ceil(2)
}

/// Fills a twiddle table in independent chunks (each starts from a power of
/// the table's root), so that an executor may fill them in parallel: see
/// [`crate::PreparedFft::try_new_with`].
pub struct TableFiller<'a, const K: usize> {
    field: &'a Field<K>,
    w: Element<K>,
}

impl<const K: usize> TableFiller<'_, K> {
    /// Entries per chunk: enough work per chunk to pay for a task.
    pub const CHUNK: usize = if 4096 / K > 16 { 4096 / K } else { 16 };

    /// Writes w^m, m = c·CHUNK …, into chunk number `c` of the table (w: the
    /// root of the table, or of the level, being filled).
    pub fn fill(&self, c: usize, chunk: &mut [Element<K>]) {
        let mut acc = self.field.pow_u64(&self.w, (c * Self::CHUNK) as u64);
        for slot in chunk {
            *slot = acc;
            acc = self.field.mul(&acc, &self.w);
        }
    }
}

/// w^m for m < M, w = ω_N (forward) or ω_N^{-1} (inverse): whole, or as two
/// levels (see the module documentation). Cloning copies it; executors
/// share one behind an `Arc`.
#[derive(Clone, PartialEq, Eq)]
pub enum TwiddleTable<const K: usize> {
    /// `entries[m]` = w^m.
    Full(Vec<Element<K>>),
    /// w^m = high\[m >> low_bits\] · low\[m mod 2^low_bits\].
    Split {
        /// w^j, j < 2^low_bits.
        low: Vec<Element<K>>,
        /// w^(i·2^low_bits), i < ⌈len / 2^low_bits⌉.
        high: Vec<Element<K>>,
        /// b.
        low_bits: u32,
        /// M.
        len: usize,
    },
}

impl<const K: usize> std::fmt::Debug for TwiddleTable<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TwiddleTable::Full(entries) => f.debug_struct("Full").field("len", &entries.len()).finish(),
            TwiddleTable::Split { low, high, len, .. } => f
                .debug_struct("Split")
                .field("len", len)
                .field("low", &low.len())
                .field("high", &high.len())
                .finish(),
        }
    }
}

/// A vector of `len` zero elements, its allocation refused as
/// [`TransformError::TooLarge`] (for N = `n`) instead of aborting.
fn try_table<const K: usize>(n: usize, len: usize) -> Result<Vec<Element<K>>, TransformError> {
    let mut table = Vec::new();
    table.try_reserve_exact(len).map_err(|_| TransformError::TooLarge {
        n,
        what: "transform size N (its twiddle table)",
    })?;
    table.resize(len, Element::ZERO);
    Ok(table)
}

impl<const K: usize> TwiddleTable<K> {
    /// The table of `len` entries for DFT_N in `direction`, kept as `layout`
    /// says, its chunks of [`TableFiller::CHUNK`] entries filled by
    /// `fill_table` (once per level; it may fill them in parallel, and must
    /// call `filler.fill(c, chunk)` for every chunk `c` of the slice it is
    /// given). Errors: N above the 2-adicity, or a table that cannot fit.
    pub fn try_build(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        len: usize,
        layout: TwiddleLayout,
        fill_table: impl Fn(&mut [Element<K>], &TableFiller<'_, K>),
    ) -> Result<Self, TransformError> {
        if len == 0 {
            return Ok(TwiddleTable::Full(Vec::new()));
        }
        let mut w = field.root_of_unity(n.trailing_zeros())?;
        if direction == Direction::Inverse {
            w = field.inverse(&w)?;
        }
        let stored = layout.stored_entries::<K>(len);
        check_fits::<K>(n, stored as u128, "transform size N (its twiddle table)")?;
        match layout.resolve::<K>(len) {
            TwiddleLayout::Split => {
                let low_bits = split_low_bits(len);
                let mut low = try_table(n, 1 << low_bits)?;
                fill_table(&mut low, &TableFiller { field, w });
                let mut high = try_table(n, len.div_ceil(1 << low_bits))?;
                let w_high = field.pow_u64(&w, 1 << low_bits);
                fill_table(&mut high, &TableFiller { field, w: w_high });
                Ok(TwiddleTable::Split {
                    low,
                    high,
                    low_bits,
                    len,
                })
            }
            _ => {
                let mut entries = try_table(n, len)?;
                fill_table(&mut entries, &TableFiller { field, w });
                Ok(TwiddleTable::Full(entries))
            }
        }
    }

    /// M, the number of entries (not what is stored: see
    /// [`TwiddleTable::stored_len`]).
    pub fn len(&self) -> usize {
        match self {
            TwiddleTable::Full(entries) => entries.len(),
            TwiddleTable::Split { len, .. } => *len,
        }
    }

    /// Whether M = 0 (N ≤ 2k: every twiddle is a shift).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements kept: M whole, about 2√M in two levels.
    pub fn stored_len(&self) -> usize {
        match self {
            TwiddleTable::Full(entries) => entries.len(),
            TwiddleTable::Split { low, high, .. } => low.len() + high.len(),
        }
    }

    /// [`TwiddleLayout::Full`] or [`TwiddleLayout::Split`].
    pub fn layout(&self) -> TwiddleLayout {
        match self {
            TwiddleTable::Full(_) => TwiddleLayout::Full,
            TwiddleTable::Split { .. } => TwiddleLayout::Split,
        }
    }

    /// Every entry, when the table is whole.
    pub fn full(&self) -> Option<&[Element<K>]> {
        match self {
            TwiddleTable::Full(entries) => Some(entries),
            TwiddleTable::Split { .. } => None,
        }
    }

    /// Entry m (m < M).
    #[inline]
    pub fn get(&self, field: &Field<K>, m: usize) -> Element<K> {
        match self {
            TwiddleTable::Full(entries) => entries[m],
            TwiddleTable::Split {
                low, high, low_bits, ..
            } => field.mul(&high[m >> low_bits], &low[m & ((1 << low_bits) - 1)]),
        }
    }

    /// x · w^m.
    #[inline]
    pub fn mul_entry(&self, field: &Field<K>, x: &Element<K>, m: usize) -> Element<K> {
        match self {
            TwiddleTable::Full(entries) => field.mul(x, &entries[m]),
            TwiddleTable::Split {
                low, high, low_bits, ..
            } => {
                let partial = field.mul(x, &high[m >> low_bits]);
                field.mul(&partial, &low[m & ((1 << low_bits) - 1)])
            }
        }
    }

    /// xs\[l\] · w^ms\[l\] for every lane l, through [`Field::mul_lanes`]
    /// (whose chains of divisions overlap).
    #[inline]
    pub fn mul_entries<const L: usize>(
        &self,
        field: &Field<K>,
        xs: [&Element<K>; L],
        ms: [usize; L],
    ) -> [Element<K>; L] {
        match self {
            TwiddleTable::Full(entries) => field.mul_lanes(xs, ms.map(|m| &entries[m])),
            TwiddleTable::Split {
                low, high, low_bits, ..
            } => {
                let partial = field.mul_lanes(xs, ms.map(|m| &high[m >> low_bits]));
                let mask = (1 << low_bits) - 1;
                field.mul_lanes(std::array::from_fn(|l| &partial[l]), ms.map(|m| &low[m & mask]))
            }
        }
    }

    /// Multiplies every entry by one constant c, given `scale_all`, which
    /// multiplies a slice by c: a whole table gives it every entry, a split
    /// one its high level only (w^m·c = (high·c)·low).
    pub fn scale_with(&mut self, scale_all: impl FnOnce(&mut [Element<K>])) {
        match self {
            TwiddleTable::Full(entries) => scale_all(entries),
            TwiddleTable::Split { high, .. } => scale_all(high),
        }
    }

    /// Every entry: a whole table's own vector, a split one multiplied out
    /// (its allocation refused as [`TransformError::TooLarge`]).
    pub fn into_full(self, field: &Field<K>) -> Result<Vec<Element<K>>, TransformError> {
        match self {
            TwiddleTable::Full(entries) => Ok(entries),
            split => split.try_to_full(field),
        }
    }

    /// Every entry (a split table multiplied out), its allocation refused
    /// as [`TransformError::TooLarge`] rather than aborting.
    pub fn try_to_full(&self, field: &Field<K>) -> Result<Vec<Element<K>>, TransformError> {
        if let TwiddleTable::Full(entries) = self {
            let mut out = try_table(entries.len(), entries.len())?;
            out.copy_from_slice(entries);
            return Ok(out);
        }
        let mut out = try_table(self.len(), self.len())?;
        for (m, slot) in out.iter_mut().enumerate() {
            *slot = self.get(field, m);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::Preset;

    fn build(field: &Field<8>, n: usize, direction: Direction, layout: TwiddleLayout) -> TwiddleTable<8> {
        TwiddleTable::try_build(field, n, direction, n / 16, layout, |table, filler| {
            for (c, chunk) in table.chunks_mut(TableFiller::<8>::CHUNK).enumerate() {
                filler.fill(c, chunk);
            }
        })
        .unwrap()
    }

    #[test]
    fn both_layouts_hold_the_powers_of_w() {
        let f = Field::<8>::preset(Preset::T8).unwrap();
        // M = 2^12 (even log) and 2^11 (odd: the levels differ in length).
        for n in [1usize << 16, 1 << 15] {
            for direction in [Direction::Forward, Direction::Inverse] {
                let mut w = f.root_of_unity(n.trailing_zeros()).unwrap();
                if direction == Direction::Inverse {
                    w = f.inverse(&w).unwrap();
                }
                let full = build(&f, n, direction, TwiddleLayout::Full);
                let split = build(&f, n, direction, TwiddleLayout::Split);
                assert_eq!(split.layout(), TwiddleLayout::Split);
                assert_eq!(split.len(), n / 16);
                assert!(split.stored_len() <= 3 * (n / 16).isqrt(), "{split:?}");
                let entries = full.full().unwrap();
                for m in 0..n / 16 {
                    assert_eq!(entries[m], f.pow_u64(&w, m as u64), "m = {m}");
                    assert_eq!(split.get(&f, m), entries[m], "m = {m}");
                }
                assert_eq!(split.try_to_full(&f).unwrap(), entries);
                let x = f.from_u64(12345);
                let ms = [0, 1, n / 16 - 1, 77];
                let expected = ms.map(|m| f.mul(&x, &entries[m]));
                for table in [&full, &split] {
                    assert_eq!(table.mul_entries(&f, [&x; 4], ms), expected);
                    assert_eq!(ms.map(|m| table.mul_entry(&f, &x, m)), expected);
                }
            }
        }
    }

    #[test]
    fn scaling_a_split_table_scales_every_entry() {
        let f = Field::<8>::preset(Preset::T8).unwrap();
        let c = f.from_u64(3);
        let scale = |xs: &mut [Element<8>]| xs.iter_mut().for_each(|x| *x = f.mul(x, &c));
        let mut full = build(&f, 1 << 14, Direction::Inverse, TwiddleLayout::Full);
        let mut split = build(&f, 1 << 14, Direction::Inverse, TwiddleLayout::Split);
        full.scale_with(scale);
        split.scale_with(scale);
        assert_eq!(split.try_to_full(&f).unwrap(), full.full().unwrap());
    }

    #[test]
    fn auto_splits_only_large_tables_or_where_memory_is_short() {
        assert_eq!(TwiddleLayout::Auto.resolve::<8>(1 << 24), TwiddleLayout::Full);
        assert_eq!(TwiddleLayout::Auto.resolve::<8>(1 << 25), TwiddleLayout::Split);
        assert_eq!(TwiddleLayout::Full.resolve::<8>(1 << 27), TwiddleLayout::Full);
        assert_eq!(TwiddleLayout::Split.resolve::<8>(16), TwiddleLayout::Split);
        // t8, N = 2^27: data and scratch 16 GiB, the whole table 512 MiB.
        let (len, others) = (1 << 23, 2u128 << 27);
        let gib = |g: f64| Some((g * (1u64 << 30) as f64) as u64);
        assert_eq!(
            TwiddleLayout::Auto.fit::<8>(len, others, gib(17.0)),
            TwiddleLayout::Full
        );
        assert_eq!(TwiddleLayout::Auto.fit::<8>(len, others, None), TwiddleLayout::Full);
        assert_eq!(
            TwiddleLayout::Auto.fit::<8>(len, others, gib(16.25)),
            TwiddleLayout::Split
        );
        // Nothing fits: the layout stays, and the transform is refused.
        assert_eq!(
            TwiddleLayout::Auto.fit::<8>(len, others, gib(15.0)),
            TwiddleLayout::Full
        );
        assert_eq!(
            TwiddleLayout::Full.fit::<8>(len, others, gib(16.25)),
            TwiddleLayout::Full
        );
        // t8, N = 2^31: 2^27 entries whole (8 GiB), 2^14 + 2^13 in two levels.
        assert_eq!(TwiddleLayout::Auto.stored_entries::<8>(1 << 27), (1 << 14) + (1 << 13));
        assert_eq!(TwiddleLayout::Full.stored_entries::<8>(1 << 27), 1 << 27);
    }
}
