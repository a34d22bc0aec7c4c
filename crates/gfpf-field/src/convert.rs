//! Conversions between elements and integers, bytes and text; validation;
//! uniform sampling.

use std::fmt;

use rug::Integer;
use rug::integer::Order;

use crate::FieldError;
use crate::element::Element;
use crate::field::Field;

/// Up to this many digits [`Field::from_words`] divides word by word (k²
/// dependent divisions); above, it halves the value by r^(m/2) with GMP down
/// to pieces of this many digits. Measured per element (best of 5 over 2000
/// random elements, release build, the project's 2-core AMD EPYC VM,
/// 2026-11-24), word division against halving: k = 8 0.118 against 0.142 µs,
/// 16 0.51 / 0.38, 32 2.23 / 0.77, 64 9.25 / 2.21, 128 38.1 / 6.34.
const WORD_DIVISION_MAX_DIGITS: usize = 8;

/// Up to this many digits [`Field::to_words`] runs Horner's rule (k² word
/// products); above, high·r^(m/2) + low with GMP, Horner on pieces of
/// [`WORD_DIVISION_MAX_DIGITS`] digits. Measured as above, Horner against
/// halving: k = 16 0.084 / 0.142 µs, 32 0.387 / 0.425, 64 1.99 / 1.28,
/// 128 8.28 / 3.85.
const HORNER_MAX_DIGITS: usize = 32;

impl<const K: usize> Field<K> {
    /// Checks that `x` is canonical: every digit below r, or x = p - 1 stored as r^k.
    pub fn check(&self, x: &Element<K>) -> Result<(), FieldError> {
        let d = &x.0;
        if d[K - 1] == self.r {
            return if d[..K - 1].iter().all(|&v| v == 0) {
                Ok(())
            } else {
                Err(FieldError::ValueTooLarge { bits: self.bits })
            };
        }
        match d.iter().position(|&v| v >= self.r) {
            Some(index) => Err(FieldError::DigitOutOfRange {
                index,
                digit: d[index],
                r: self.r,
            }),
            None => Ok(()),
        }
    }

    /// The first element of `xs` that is not canonical, with what
    /// [`Field::check`] finds wrong with it; `None` when all are. About one
    /// comparison per digit: the digits are compared with r in one pass
    /// that vectorises, and only an element with a digit ≥ r (such as p − 1,
    /// whose top digit is r) is looked at closer.
    pub fn first_non_canonical(&self, xs: &[Element<K>]) -> Option<(usize, FieldError)> {
        let r = self.r;
        xs.iter().enumerate().find_map(|(index, x)| {
            let any_at_least_r = x.0.iter().fold(false, |any, &d| any | (d >= r));
            if any_at_least_r {
                self.check(x).err().map(|e| (index, e))
            } else {
                None
            }
        })
    }

    /// The element with these base-r digits (least significant first), checked canonical.
    pub fn element(&self, digits: [u64; K]) -> Result<Element<K>, FieldError> {
        let x = Element(digits);
        self.check(&x)?;
        Ok(x)
    }

    /// A word-sized value (always below p, since p > r^2 ≥ 2^64).
    pub fn from_u64(&self, v: u64) -> Element<K> {
        let (q, rem) = self.r_div.div_rem(0, v);
        let mut d = [0u64; K];
        d[0] = rem;
        d[1] = q;
        Element(d)
    }

    /// The integer value as k little-endian 64-bit words (fits: p < 2^(64k)).
    pub fn to_words(&self, x: &Element<K>) -> [u64; K] {
        let mut words = [0u64; K];
        if K <= HORNER_MAX_DIGITS {
            self.words_by_horner(&x.0, &mut words);
        } else {
            self.value_by_halves(&x.0).write_digits(&mut words, Order::Lsf);
        }
        words
    }

    /// Σ digits[i]·r^i into `words` (long enough): Horner from the top
    /// digit, acc = acc·r + d, k² word products.
    fn words_by_horner(&self, digits: &[u64], words: &mut [u64]) {
        for &digit in digits.iter().rev() {
            let mut carry = digit as u128;
            for w in words.iter_mut() {
                let t = *w as u128 * self.r as u128 + carry;
                *w = t as u64;
                carry = t >> 64;
            }
        }
    }

    /// Σ digits[i]·r^i (m = `digits.len()` a power of two): high·r^(m/2) +
    /// low, recursively, with GMP's products; Horner once the halves are small.
    fn value_by_halves(&self, digits: &[u64]) -> Integer {
        let m = digits.len();
        if m <= WORD_DIVISION_MAX_DIGITS {
            let mut words = [0u64; WORD_DIVISION_MAX_DIGITS];
            self.words_by_horner(digits, &mut words[..m]);
            return Integer::from_digits(&words[..m], Order::Lsf);
        }
        let (low, high) = digits.split_at(m / 2);
        let mut value = self.value_by_halves(high);
        value *= &self.radix_powers[(m / 2).trailing_zeros() as usize];
        value += self.value_by_halves(low);
        value
    }

    /// The element whose integer value has these little-endian words; an error if ≥ p.
    pub fn from_words(&self, words: &[u64; K]) -> Result<Element<K>, FieldError> {
        match words.iter().rev().cmp(self.p_minus_one_words.iter().rev()) {
            std::cmp::Ordering::Greater => Err(FieldError::ValueTooLarge { bits: self.bits }),
            std::cmp::Ordering::Equal => Ok(self.minus_one()),
            std::cmp::Ordering::Less => {
                let mut digits = [0u64; K];
                if K <= WORD_DIVISION_MAX_DIGITS {
                    self.digits_by_word_division(&mut words.clone(), &mut digits);
                } else {
                    self.digits_by_halves(Integer::from_digits(words, Order::Lsf), &mut digits);
                }
                Ok(Element(digits))
            }
        }
    }

    /// The base-r digits of `words` (a value below r^m, m = `digits.len()`):
    /// m − 1 divisions of the shrinking number by r, k² word divisions in all.
    fn digits_by_word_division(&self, words: &mut [u64], digits: &mut [u64]) {
        let mut len = words.len();
        let (last, rest) = digits.split_last_mut().expect("at least one digit");
        for digit in rest {
            while len > 1 && words[len - 1] == 0 {
                len -= 1;
            }
            let mut rem = 0u64;
            for w in words[..len].iter_mut().rev() {
                let (q, r) = self.r_div.div_rem(rem, *w);
                *w = q;
                rem = r;
            }
            *digit = rem;
        }
        *last = words[0];
    }

    /// The base-r digits of `value` (below r^m, m = `digits.len()` a power
    /// of two): split by r^(m/2) into halves, recursively, with GMP's
    /// division; word division once the halves are small.
    fn digits_by_halves(&self, value: Integer, digits: &mut [u64]) {
        let m = digits.len();
        if m <= WORD_DIVISION_MAX_DIGITS {
            let mut words = [0u64; WORD_DIVISION_MAX_DIGITS];
            value.write_digits(&mut words[..m], Order::Lsf);
            self.digits_by_word_division(&mut words[..m], digits);
            return;
        }
        let half = m / 2;
        let (high, low) = value.div_rem(self.radix_powers[half.trailing_zeros() as usize].clone());
        let (low_digits, high_digits) = digits.split_at_mut(half);
        self.digits_by_halves(low, low_digits);
        self.digits_by_halves(high, high_digits);
    }

    /// The integer value in [0, p).
    pub fn to_integer(&self, x: &Element<K>) -> Integer {
        Integer::from_digits(&self.to_words(x), Order::Lsf)
    }

    /// The element of value `v`; an error if v < 0 or v ≥ p (nothing is reduced).
    pub fn from_integer(&self, v: &Integer) -> Result<Element<K>, FieldError> {
        if v.is_negative() {
            return Err(FieldError::NegativeValue);
        }
        if v.significant_bits() > 64 * K as u32 {
            return Err(FieldError::ValueTooLarge { bits: self.bits });
        }
        let mut words = [0u64; K];
        v.write_digits(&mut words, Order::Lsf);
        self.from_words(&words)
    }

    /// v mod p for any integer v, negative or large.
    pub fn from_integer_reduced(&self, v: &Integer) -> Element<K> {
        let mut reduced = Integer::from(v % &self.p);
        if reduced.is_negative() {
            reduced += &self.p;
        }
        self.from_integer(&reduced).expect("reduced into [0, p)")
    }

    /// The value as exactly 8k little-endian bytes.
    pub fn to_le_bytes(&self, x: &Element<K>) -> Vec<u8> {
        self.to_words(x).iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The element whose value has these 8k little-endian bytes; an error for
    /// another length or a value ≥ p.
    pub fn from_le_bytes(&self, bytes: &[u8]) -> Result<Element<K>, FieldError> {
        if bytes.len() != 8 * K {
            return Err(FieldError::WrongByteLength {
                expected: 8 * K,
                got: bytes.len(),
            });
        }
        let mut words = [0u64; K];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(chunk.try_into().expect("chunks of 8"));
        }
        self.from_words(&words)
    }

    /// Parses decimal (`"12345"`) or hexadecimal (`"0x3f"`, either case) text,
    /// surrounding whitespace ignored. Signs, separators and values ≥ p are errors.
    pub fn parse(&self, text: &str) -> Result<Element<K>, FieldError> {
        let start = text.len() - text.trim_start().len();
        let trimmed = text.trim();
        let (negative, unsigned, sign_len) = match trimmed.strip_prefix('-') {
            Some(rest) => (true, rest, 1),
            None => (false, trimmed, 0),
        };
        let (body, radix, prefix_len) = match unsigned.strip_prefix("0x").or_else(|| unsigned.strip_prefix("0X")) {
            Some(hex) => (hex, 16, 2),
            None => (unsigned, 10, 0),
        };
        if body.is_empty() {
            return Err(FieldError::EmptyNumber);
        }
        if let Some((offset, character)) = body.char_indices().find(|(_, c)| !c.is_digit(radix)) {
            return Err(FieldError::InvalidCharacter {
                character,
                position: start + sign_len + prefix_len + offset,
                base: if radix == 16 { "hexadecimal" } else { "decimal" },
            });
        }
        if negative {
            return Err(FieldError::NegativeValue);
        }
        let v = Integer::from_str_radix(body, radix as i32).expect("validated digits");
        self.from_integer(&v)
    }

    /// The value in decimal.
    pub fn to_decimal(&self, x: &Element<K>) -> String {
        self.to_integer(x).to_string()
    }

    /// The value in lowercase hexadecimal with a `0x` prefix.
    pub fn to_hex(&self, x: &Element<K>) -> String {
        format!("{:#x}", self.to_integer(x))
    }

    /// A value that displays `x` in decimal (`{}`) or hexadecimal (`{:x}`, `{:#x}`).
    pub fn display<'a>(&'a self, x: &'a Element<K>) -> DisplayElement<'a, K> {
        DisplayElement { field: self, x }
    }

    /// A uniformly random element of [0, p).
    pub fn random<R: rand_core::Rng + ?Sized>(&self, rng: &mut R) -> Element<K> {
        loop {
            let mut d = [0u64; K];
            for digit in d.iter_mut().take(K - 1) {
                *digit = below(rng, self.r);
            }
            // Top digit in [0, r]: r only with all other digits 0 (p - 1), so each
            // of the p accepted outcomes has the same probability.
            let top = below(rng, self.r + 1);
            if top == self.r && d.iter().any(|&v| v != 0) {
                continue;
            }
            d[K - 1] = top;
            return Element(d);
        }
    }
}

/// Uniform in [0, n) (Lemire's multiply-and-reject; n > 0).
fn below<R: rand_core::Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = rng.next_u64() as u128 * n as u128;
        if m as u64 >= threshold {
            return (m >> 64) as u64;
        }
    }
}

/// Displays an element with its field: decimal by `{}`, hexadecimal by `{:x}`.
pub struct DisplayElement<'a, const K: usize> {
    field: &'a Field<K>,
    x: &'a Element<K>,
}

impl<const K: usize> fmt::Display for DisplayElement<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.field.to_integer(self.x), f)
    }
}

impl<const K: usize> fmt::LowerHex for DisplayElement<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.field.to_integer(self.x), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Preset;

    /// Both conversions by halves agree with the word-level ones (and round
    /// trip) on edge values and random ones, at every k that takes them.
    fn halves_agree_with_word_arithmetic<const K: usize>(preset: Preset) {
        let f = Field::<K>::preset(preset).unwrap();
        let mut rng = rand::rng();
        let mut elements: Vec<Element<K>> =
            vec![f.zero(), f.one(), f.minus_one(), f.r_element(), f.from_u64(f.r() - 1)];
        elements.push(f.sub(&f.minus_one(), &f.one()));
        elements.extend((0..K).map(|i| f.mul_pow_r(&f.one(), i)));
        elements.extend((0..200).map(|_| f.random(&mut rng)));
        for x in &elements {
            let mut horner = [0u64; K];
            f.words_by_horner(&x.0, &mut horner);
            let mut halves = [0u64; K];
            f.value_by_halves(&x.0).write_digits(&mut halves, Order::Lsf);
            assert_eq!(horner, halves, "to_words of {:?}", x.0);
            assert_eq!(f.to_words(x), horner);
            if *x == f.minus_one() {
                continue; // r^k: not below r^k, handled before either division
            }
            let mut by_words = [0u64; K];
            f.digits_by_word_division(&mut horner.clone(), &mut by_words);
            let mut by_halves = [0u64; K];
            f.digits_by_halves(Integer::from_digits(&horner, Order::Lsf), &mut by_halves);
            assert_eq!(by_words, x.0);
            assert_eq!(by_halves, x.0);
            assert_eq!(f.from_words(&horner).unwrap(), *x);
        }
    }

    #[test]
    fn conversions_by_halves_match_word_arithmetic() {
        halves_agree_with_word_arithmetic::<16>(Preset::T16);
        halves_agree_with_word_arithmetic::<32>(Preset::P32);
        halves_agree_with_word_arithmetic::<64>(Preset::T64);
        halves_agree_with_word_arithmetic::<128>(Preset::P128);
    }
}
