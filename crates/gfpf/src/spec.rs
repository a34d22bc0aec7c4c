//! Choosing a field at run time: a preset name or a custom (r, k), and
//! dispatch to the `Field<K>` of the right digit count.

use std::fmt;
use std::str::FromStr;

use gfpf_field::{Field, Preset, SparseRadix};

use crate::Error;

/// The digit counts k for which gfpf compiles its arithmetic (p has 64 to
/// 8192 bits).
pub const SUPPORTED_K: [usize; 7] = gfpf_field::DIGIT_COUNTS;

/// A field named at run time: one of the 13 presets, or a custom p = r^k + 1
/// with r given in sparse form (checked prime when built).
///
/// Parses from `t8`, `p16`, ... or `(2^63+2^34)^8+1` (spaces allowed).
///
/// ```
/// use gfpf::{FieldSpec, FieldVisitor, Field};
///
/// struct Bits;
/// impl FieldVisitor for Bits {
///     type Output = u32;
///     fn visit<const K: usize>(self, field: Field<K>) -> u32 {
///         field.bits()
///     }
/// }
/// let spec: FieldSpec = "t8".parse()?;
/// assert_eq!(spec.visit(Bits)?, 505);
/// let custom: FieldSpec = "(2^63+2^34)^8+1".parse()?; // t8 again, as a custom field
/// assert_eq!(custom.visit(Bits)?, 505);
/// assert!("(2^63+2^34)^6+1".parse::<FieldSpec>().is_err()); // k not a power of two
/// # Ok::<(), gfpf::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldSpec {
    /// A preset of DESIGN.md §1.
    Preset(Preset),
    /// p = r^k + 1 with r the value of `radix`.
    Custom {
        /// r in sparse form.
        radix: SparseRadix,
        /// k.
        k: usize,
    },
}

/// Code generic over the digit count, run by [`FieldSpec::visit`] with the
/// field built at the right `K`.
pub trait FieldVisitor {
    /// What the visit returns.
    type Output;
    /// Called once with the field.
    fn visit<const K: usize>(self, field: Field<K>) -> Self::Output;
}

impl FieldSpec {
    /// k, the number of base-r digits.
    pub fn k(&self) -> usize {
        match self {
            FieldSpec::Preset(p) => p.k(),
            FieldSpec::Custom { k, .. } => *k,
        }
    }

    /// Builds the field (checking a custom one) and runs `visitor` on it.
    pub fn visit<V: FieldVisitor>(&self, visitor: V) -> Result<V::Output, Error> {
        gfpf_field::dispatch_k!(
            self.k(),
            K => Ok(visitor.visit(self.field::<K>()?)),
            _ => Err(Error::UnsupportedDigitCount(self.k())),
        )
    }

    /// The field with K digits; an error if K is not this spec's k.
    pub fn field<const K: usize>(&self) -> Result<Field<K>, Error> {
        match *self {
            FieldSpec::Preset(p) => Ok(Field::preset(p)?),
            FieldSpec::Custom { radix, k } => {
                if k != K {
                    return Err(Error::UnsupportedDigitCount(k));
                }
                Ok(Field::from_sparse(radix)?)
            }
        }
    }
}

impl From<Preset> for FieldSpec {
    fn from(p: Preset) -> Self {
        FieldSpec::Preset(p)
    }
}

impl fmt::Display for FieldSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldSpec::Preset(p) => write!(f, "{p}"),
            FieldSpec::Custom { radix, k } => write!(f, "({radix})^{k}+1"),
        }
    }
}

impl FromStr for FieldSpec {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self, Error> {
        let invalid = |reason: String| Error::InvalidFieldSpec {
            text: text.to_owned(),
            reason,
        };
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if !compact.starts_with('(') {
            return Preset::from_name(&compact)
                .map(FieldSpec::Preset)
                .map_err(|e| invalid(e.to_string()));
        }
        let (radix, rest) = compact[1..]
            .split_once(")^")
            .ok_or_else(|| invalid("expected (R)^K+1, e.g. (2^63+2^34)^8+1".into()))?;
        let k = rest
            .strip_suffix("+1")
            .ok_or_else(|| invalid("expected (R)^K+1: missing +1".into()))?;
        let k: usize = k.parse().map_err(|_| invalid(format!("k = {k:?} is not a number")))?;
        if !SUPPORTED_K.contains(&k) {
            return Err(invalid(Error::UnsupportedDigitCount(k).to_string()));
        }
        let radix: SparseRadix = radix
            .parse()
            .map_err(|e: gfpf_field::FieldError| invalid(e.to_string()))?;
        Ok(FieldSpec::Custom { radix, k })
    }
}
