//! Conversions between elements and integers, bytes and text; validation;
//! uniform sampling.

use std::fmt;

use rug::Integer;
use rug::integer::Order;

use crate::FieldError;
use crate::element::Element;
use crate::field::Field;

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
        // Horner from the top digit: acc = acc·r + d.
        let mut acc = [0u64; K];
        for &digit in x.0.iter().rev() {
            let mut carry = digit as u128;
            for w in acc.iter_mut() {
                let t = *w as u128 * self.r as u128 + carry;
                *w = t as u64;
                carry = t >> 64;
            }
        }
        acc
    }

    /// The element whose integer value has these little-endian words; an error if ≥ p.
    pub fn from_words(&self, words: &[u64; K]) -> Result<Element<K>, FieldError> {
        match words.iter().rev().cmp(self.p_minus_one_words.iter().rev()) {
            std::cmp::Ordering::Greater => Err(FieldError::ValueTooLarge { bits: self.bits }),
            std::cmp::Ordering::Equal => Ok(self.minus_one()),
            std::cmp::Ordering::Less => {
                // value < r^k: k - 1 divisions by r give the digits.
                let mut n = *words;
                let mut digits = [0u64; K];
                for digit in digits.iter_mut().take(K - 1) {
                    let mut rem = 0u64;
                    for w in n.iter_mut().rev() {
                        let (q, r) = self.r_div.div_rem(rem, *w);
                        *w = q;
                        rem = r;
                    }
                    *digit = rem;
                }
                digits[K - 1] = n[0];
                Ok(Element(digits))
            }
        }
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
