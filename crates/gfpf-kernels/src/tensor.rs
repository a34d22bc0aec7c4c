//! Tables for products by twiddles on the tensor cores
//! (kernels/gfpf_fft.cu `gfpf_tile_mul_shared_twiddles`, t8).
//!
//! Over x's bytes x_(j,b) (digit j, byte b) and W_b = 2^(8b)·w mod p, a
//! product by w is x·w = Σ_d r^d·col_d with col_d = Σ_(j,b) s·x_(j,b)·
//! W_(b,(d−j) mod k), s = −1 where j > d (r^k = −1). Byte β of col_d's sum
//! is row (d, β) of A'·X, X's column x's bytes and A' a constant u8 matrix
//! of w's: W's byte where j ≤ d, 255 less it where j > d (−x·W = x·(255 −
//! W) − 255·x, taken back from col_d as (2^64 − 1)·S_d, S_d the sum of x's
//! bytes above digit d). So one int8 matrix product serves every element
//! that shares w, and A' holds only the 8 elements W_b, complemented or not.

use gfpf_field::{Element, Field};

use crate::DeviceConstants;

/// Digits of the fields the tensor-core products serve (t8: a 64-byte
/// element is two K-tiles of m16n8k32).
pub const SHARED_TWIDDLE_DIGITS: usize = 8;

/// 64-bit words of one twiddle's table ([`shared_twiddle_table`]): 8 rows
/// × 2 halves × 4 words, 512 bytes. A' takes 15 rows δ; the 7 it takes
/// complemented are the others' bytes, made as a warp stages the table.
pub const SHARED_TWIDDLE_WORDS: usize = SHARED_TWIDDLE_DIGITS * 2 * 4;

/// Words from one row of a table to the next where a warp stages it in
/// shared memory (`GFPF_SHARED_TWIDDLE_ROW_WORDS`): 10 for the rows' 8, so
/// that the rows a set's lanes read at once fall in different banks but
/// for rows δ and δ + 8.
pub const SHARED_TWIDDLE_ROW_WORDS: usize = 10;

/// 64-bit words of shared memory one staged table takes
/// (`GFPF_SHARED_TWIDDLE_STAGED_WORDS`).
pub const SHARED_TWIDDLE_STAGED_WORDS: usize = (2 * SHARED_TWIDDLE_DIGITS - 1) * SHARED_TWIDDLE_ROW_WORDS;

/// Whether a field's kernels have `gfpf_tile_mul_shared_twiddles`: k =
/// [`SHARED_TWIDDLE_DIGITS`] and 2^49 ≤ r ≤ 2^64 − 2^32, so that a column's
/// carry (below 2^81/r) is a 32-bit word and a digit plus a carry fits a
/// 64-bit one (t8 and p8).
pub fn shared_twiddles_available(constants: &DeviceConstants) -> bool {
    constants.k == SHARED_TWIDDLE_DIGITS && (1 << 49..=u64::MAX - u64::from(u32::MAX)).contains(&constants.r)
}

/// The table of twiddle `w` for `gfpf_tile_mul_shared_twiddles`, or `None`
/// where the field has no such kernels ([`shared_twiddles_available`]).
///
/// A' takes, where digit j of x meets column d, row δ = d − j + 7 (0 …
/// 14): the digit m = (d − j) mod 8 of every W_b, as it is where δ ≥ 7 (j
/// ≤ d, m = δ − 7), its bytes complemented where δ < 7 (j > d, m = δ + 1:
/// row δ + 8's bytes complemented). The table holds rows δ = 7 … 14, row m
/// = δ − 7 digit m; a warp stages each of rows 8 … 14 twice, as it is and
/// complemented at δ − 8 (`gfpf_shared_twiddle_row`), so that a table is
/// read from device memory in 512 bytes where the 15 rows took 960. Word
/// (4m + i)·2 + h holds bytes β = 2i (low half) and 2i + 1 (high half) of
/// digit m, each half four bytes: those of W_(4h), …, W_(4h + 3). With the
/// K columns 4q.. and 16 + 4q.. of a K-tile taken as bytes 0..3 and 4..7
/// of one digit, a lane's four A' registers of row tile i are a staged
/// row's words 2i and 2i + 1, 16 bytes together, as the PTX ISA's m16n8k32
/// fragments lay them out.
pub fn shared_twiddle_table<const K: usize>(field: &Field<K>, w: &Element<K>) -> Option<Vec<u64>> {
    if !shared_twiddles_available(&DeviceConstants::of(field)) {
        return None;
    }
    let shifted: Vec<[u64; K]> = (0..8)
        .map(|b| *field.mul(w, &field.from_u64(1 << (8 * b))).digits())
        .collect();
    let mut words = vec![0u64; SHARED_TWIDDLE_WORDS];
    for m in 0..K {
        for half in 0..2 {
            for beta in 0..8 {
                let mut word = 0u32;
                for b in 0..4 {
                    word |= u32::from((shifted[4 * half + b][m] >> (8 * beta)) as u8) << (8 * b);
                }
                words[(m * 4 + beta / 2) * 2 + half] |= u64::from(word) << (32 * (beta % 2));
            }
        }
    }
    Some(words)
}

/// The low bits b of a twiddle exponent e < N = 2^`log2_n` that a pair's
/// split tables take apart, ⌈log2 N / 2⌉: w^e = w^(e mod 2^b)·w^(2^b·⌊e/2^b⌋),
/// two products by tables of 2^b and N/2^b entries
/// (`gfpf_cuda::tensor_twiddle_table` with `tensor_split_bits` = b).
pub fn split_twiddle_bits(log2_n: u32) -> u32 {
    log2_n.div_ceil(2)
}

/// Entries of the split tables of [`split_twiddle_bits`]: 2^b + N/2^b (t8
/// 2^20: 2048, against 65536 for its second pair's (c, lo) twiddles, which
/// a device streams instead: `gfpf_cuda::params::TENSOR_STREAMED_TWIDDLES_MAX`).
pub fn split_twiddle_entries(log2_n: u32) -> usize {
    let b = split_twiddle_bits(log2_n);
    (1usize << b) + (1usize << (log2_n - b))
}

/// The tables of every twiddle of `twiddles` one after another (entry i at
/// word i·[`SHARED_TWIDDLE_WORDS`]), or `None` where K is not
/// [`shared_twiddles_available`].
pub fn shared_twiddle_tables<const K: usize>(field: &Field<K>, twiddles: &[Element<K>]) -> Option<Vec<u64>> {
    let mut words = Vec::with_capacity(twiddles.len() * SHARED_TWIDDLE_WORDS);
    for w in twiddles {
        words.extend(shared_twiddle_table(field, w)?);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    use gfpf_field::Preset;

    /// The kernel's arithmetic on the host, from the table alone: the row
    /// sums of A'·X less (2^64 − 1)·S_d, carried in base r.
    fn product_from_table(field: &Field<8>, table: &[u64], x: &Element<8>) -> Element<8> {
        let byte = |j: usize, b: usize| u128::from((x.digits()[j] >> (8 * b)) as u8);
        // A' as the kernel stages it: row δ = d − j + 7, from the table's
        // row δ − 7, or δ + 1 complemented where δ < 7.
        let a = |d: usize, beta: usize, j: usize, b: usize| {
            let (m, complement) = if d >= j { (d - j, false) } else { (d + 8 - j, true) };
            let word = table[(m * 4 + beta / 2) * 2 + b / 4] >> (32 * (beta % 2));
            let byte = (word >> (8 * (b % 4))) as u8;
            u128::from(if complement { !byte } else { byte })
        };
        let r = u128::from(field.r());
        // Columns as signed sums: Σ_β 2^(8β)·T_β − (2^64 − 1)·S_d.
        let mut columns = [0i128; 8];
        for (d, column) in columns.iter_mut().enumerate() {
            let mut sum = 0i128;
            for beta in 0..8 {
                let mut t = 0u128;
                for j in 0..8 {
                    for b in 0..8 {
                        t += a(d, beta, j, b) * byte(j, b);
                    }
                }
                sum += (t << (8 * beta)) as i128;
            }
            let s: u128 = (d + 1..8)
                .flat_map(|j| (0..8).map(move |b| (j, b)))
                .map(|(j, b)| byte(j, b))
                .sum();
            *column = sum - (s * ((1u128 << 64) - 1)) as i128;
        }
        // Σ_d r^d·col_d mod p, from the top: Horner's rule in the field.
        let mut y = field.from_u64(0);
        for column in columns.iter().rev() {
            let magnitude = column.unsigned_abs();
            let (high, low) = ((magnitude / r) as u64, (magnitude % r) as u64);
            let mut term = field.add(&field.mul_pow_r(&field.from_u64(high), 1), &field.from_u64(low));
            if *column < 0 {
                term = field.neg(&term);
            }
            y = field.add(&field.mul_pow_r(&y, 1), &term);
        }
        y
    }

    #[test]
    fn the_table_reproduces_products_on_edge_values() {
        for preset in [Preset::T8, Preset::P8] {
            let field = Field::<8>::preset(preset).unwrap();
            let r = field.r();
            let mut values = vec![
                field.from_u64(0),
                field.one(),
                field.minus_one(),
                field.from_u64(r - 1),
                field.r_element(),
                field.mul_pow_r(&field.one(), 7),
                field.sub(&field.minus_one(), &field.one()),
            ];
            // Digits spread over their range: squares of a large value.
            let mut v = field
                .element([r - 1, 1 << 40, 0xdead_beef, r / 3, 7, r - 2, r / 5, 12345])
                .unwrap();
            for _ in 0..5 {
                values.push(v);
                v = field.mul(&v, &v);
            }
            for w in &values {
                let table = shared_twiddle_table(&field, w).unwrap();
                assert_eq!(table.len(), SHARED_TWIDDLE_WORDS);
                for x in &values {
                    assert_eq!(product_from_table(&field, &table, x), field.mul(x, w), "{x:?} · {w:?}");
                }
            }
        }
    }

    #[test]
    fn other_fields_have_no_table() {
        let field = Field::<4>::preset(Preset::T4).unwrap();
        assert!(shared_twiddle_table(&field, &field.one()).is_none());
        let p8 = Field::<8>::preset(Preset::P8).unwrap();
        assert!(shared_twiddles_available(&DeviceConstants::of(&p8)));
        assert!(shared_twiddle_tables(&field, &[field.one()]).is_none());
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        let two = [t8.one(), t8.r_element()];
        let tables = shared_twiddle_tables(&t8, &two).unwrap();
        assert_eq!(
            tables[SHARED_TWIDDLE_WORDS..],
            shared_twiddle_table(&t8, &two[1]).unwrap()[..]
        );
    }
}
