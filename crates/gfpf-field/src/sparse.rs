//! Sparse radices r = 2^a ± 2^b [± 2^c].

use std::fmt;
use std::str::FromStr;

use crate::FieldError;

/// The most terms a sparse radix may have.
pub const MAX_SPARSE_TERMS: usize = 3;

/// One signed power of two in a sparse radix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SparseTerm {
    /// `true` for `- 2^exponent`.
    pub negative: bool,
    /// The exponent.
    pub exponent: u32,
}

impl SparseTerm {
    /// `+2^exponent`.
    pub const fn plus(exponent: u32) -> Self {
        Self {
            negative: false,
            exponent,
        }
    }
    /// `-2^exponent`.
    pub const fn minus(exponent: u32) -> Self {
        Self {
            negative: true,
            exponent,
        }
    }
}

/// A radix written as a short signed sum of powers of two, e.g. `2^63+2^53`.
///
/// The leading term is positive and exponents strictly decrease. The value is
/// not checked against a range here; [`crate::Field::custom`] does that.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SparseRadix {
    terms: [SparseTerm; MAX_SPARSE_TERMS],
    len: u8,
}

impl SparseRadix {
    /// Builds a sparse radix from 1 to [`MAX_SPARSE_TERMS`] terms, leading term
    /// positive, exponents strictly decreasing and at most 64.
    pub fn new(terms: &[SparseTerm]) -> Result<Self, FieldError> {
        let invalid = |reason| FieldError::InvalidSparseForm {
            text: format_terms(terms),
            reason,
        };
        if terms.is_empty() {
            return Err(invalid("no terms"));
        }
        if terms.len() > MAX_SPARSE_TERMS {
            return Err(invalid("more than 3 terms"));
        }
        if terms[0].negative {
            return Err(invalid("the leading term must be positive"));
        }
        if terms.iter().any(|t| t.exponent > 64) {
            return Err(invalid("an exponent exceeds 64"));
        }
        if terms.windows(2).any(|w| w[0].exponent <= w[1].exponent) {
            return Err(invalid("exponents must strictly decrease"));
        }
        let mut all = [SparseTerm::plus(0); MAX_SPARSE_TERMS];
        all[..terms.len()].copy_from_slice(terms);
        Ok(Self {
            terms: all,
            len: terms.len() as u8,
        })
    }

    /// `2^a + sign_b 2^b` etc. in compact form; shorthand used by the presets.
    pub(crate) const fn from_const(terms: [SparseTerm; MAX_SPARSE_TERMS], len: u8) -> Self {
        Self { terms, len }
    }

    /// The terms, leading term first.
    pub fn terms(&self) -> &[SparseTerm] {
        &self.terms[..self.len as usize]
    }

    /// The value as a signed 128-bit integer (exact: exponents are at most 64).
    pub fn value(&self) -> i128 {
        self.terms()
            .iter()
            .map(|t| {
                if t.negative {
                    -(1i128 << t.exponent)
                } else {
                    1i128 << t.exponent
                }
            })
            .sum()
    }

    /// The value if it fits in a `u64`.
    pub fn value_u64(&self) -> Option<u64> {
        u64::try_from(self.value()).ok()
    }
}

fn format_terms(terms: &[SparseTerm]) -> String {
    let mut s = String::new();
    for (i, t) in terms.iter().enumerate() {
        if t.negative {
            s.push('-');
        } else if i > 0 {
            s.push('+');
        }
        s.push_str(&format!("2^{}", t.exponent));
    }
    s
}

impl fmt::Display for SparseRadix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_terms(self.terms()))
    }
}

impl fmt::Debug for SparseRadix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SparseRadix({self})")
    }
}

impl FromStr for SparseRadix {
    type Err = FieldError;

    /// Parses `2^63+2^53`, `2^64 - 2^50`, `2^59+2^58+2^11` (spaces allowed).
    fn from_str(text: &str) -> Result<Self, FieldError> {
        let invalid = |reason| FieldError::InvalidSparseForm {
            text: text.to_string(),
            reason,
        };
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            return Err(invalid("no terms"));
        }
        let mut terms = Vec::new();
        let mut rest = compact.as_str();
        while !rest.is_empty() {
            let negative = match rest.as_bytes()[0] {
                b'+' => {
                    rest = &rest[1..];
                    false
                }
                b'-' => {
                    rest = &rest[1..];
                    true
                }
                _ if terms.is_empty() => false,
                _ => return Err(invalid("terms must be joined by + or -")),
            };
            let body = rest
                .strip_prefix("2^")
                .ok_or_else(|| invalid("each term must be 2^e"))?;
            let end = body.find(['+', '-']).unwrap_or(body.len());
            let exponent: u32 = body[..end]
                .parse()
                .map_err(|_| invalid("an exponent is not a small decimal integer"))?;
            terms.push(SparseTerm { negative, exponent });
            rest = &body[end..];
        }
        Self::new(&terms).map_err(|e| match e {
            FieldError::InvalidSparseForm { reason, .. } => invalid(reason),
            other => other,
        })
    }
}
