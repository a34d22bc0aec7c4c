//! The one error type of this crate.

use thiserror::Error;

/// Everything that can go wrong when building a field or bringing a value into it.
///
/// Every variant names the offending input so that a caller can report it as is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FieldError {
    /// The preset name is not one of [`crate::Preset::ALL`].
    #[error("unknown prime preset {0:?} (known: {known})", known = crate::Preset::names())]
    UnknownPreset(String),
    /// The preset has k digits but the element type was instantiated with another count.
    #[error("preset {preset} has k = {preset_k} digits but Field<{requested_k}> was requested")]
    DigitCountMismatch {
        /// Preset name.
        preset: &'static str,
        /// The preset's k.
        preset_k: usize,
        /// The const generic K that was asked for.
        requested_k: usize,
    },
    /// k must be a power of two and at least 2.
    #[error("k = {0} is not supported: k must be a power of two, at least 2")]
    UnsupportedDigitCount(usize),
    /// The radix r is outside [2^32, 2^64).
    #[error("radix r = {0} is out of range: r must satisfy 2^32 <= r < 2^64")]
    RadixOutOfRange(String),
    /// The sparse form given for r does not evaluate to r.
    #[error("sparse form {sparse} equals {sparse_value}, not r = {r}")]
    SparseFormMismatch {
        /// The r given.
        r: u64,
        /// The sparse form, as text.
        sparse: String,
        /// What the sparse form evaluates to.
        sparse_value: String,
    },
    /// The text of a sparse radix such as `2^63+2^53` does not parse, or has too many terms.
    #[error("invalid sparse radix {text:?}: {reason}")]
    InvalidSparseForm {
        /// The offending text or term list.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// r^k + 1 failed the probable-prime test.
    #[error("r^k + 1 with r = {r}, k = {k} is not prime")]
    NotPrime {
        /// The radix.
        r: u64,
        /// The digit count.
        k: usize,
    },
    /// A digit is not below r (and the value is not the special p - 1 = r^k).
    #[error("digit {index} = {digit} is not below r = {r}")]
    DigitOutOfRange {
        /// Position of the digit (0 = least significant).
        index: usize,
        /// The digit.
        digit: u64,
        /// The field's radix.
        r: u64,
    },
    /// The integer value is not below p.
    #[error("value is not below p (a {bits}-bit prime); reduce it explicitly if that is meant")]
    ValueTooLarge {
        /// Bit length of p.
        bits: u32,
    },
    /// A negative value was given where a canonical residue was expected.
    #[error("negative value; reduce it explicitly if that is meant")]
    NegativeValue,
    /// A byte string has the wrong length.
    #[error("expected {expected} bytes (k little-endian u64 words), got {got}")]
    WrongByteLength {
        /// k * 8.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// Text contains a character that is not a digit of its base.
    #[error("invalid character {character:?} at position {position} in {base} number")]
    InvalidCharacter {
        /// The offending character.
        character: char,
        /// Its byte offset in the text.
        position: usize,
        /// "decimal" or "hexadecimal".
        base: &'static str,
    },
    /// Empty text, or a bare `0x` prefix.
    #[error("empty number")]
    EmptyNumber,
    /// Zero has no inverse.
    #[error("zero has no multiplicative inverse (element {index} of the input)")]
    ZeroInverse {
        /// Position of the zero in the input (0 for a single element).
        index: usize,
    },
    /// The multiplication method cannot be used for this field.
    #[error("multiplication method {method} is not available here: {reason}")]
    UnsupportedMulMethod {
        /// The method asked for.
        method: &'static str,
        /// Why not.
        reason: &'static str,
    },
    /// A root of unity of order 2^log2_n was asked for but p - 1 has a smaller 2-adic valuation.
    #[error("no root of unity of order 2^{log2_n}: the 2-adicity of p - 1 is {two_adicity}")]
    RootOrderTooLarge {
        /// log2 of the requested order.
        log2_n: u32,
        /// The 2-adic valuation of p - 1.
        two_adicity: u32,
    },
    /// A digit sum given to [`crate::Field::reduce_digit_sums`] (bound
    /// (r − 1)·r²) or [`crate::Field::reduce_narrow_digit_sums`] (bound
    /// (r − 1)·2^64) is too large.
    #[error("digit sum {index} is above the bound for r = {r}")]
    DigitSumTooLarge {
        /// Position of the sum (0 = coefficient of r^0).
        index: usize,
        /// The field's radix.
        r: u64,
    },
    /// The lane instruction set asked for ([`crate::LaneIsa`]) is not
    /// available on this CPU.
    #[error("lane instruction set {0} is not available on this CPU")]
    LaneIsaUnavailable(String),
    /// Two slices that go together have different lengths.
    #[error("{what}: expected {expected} elements, got {got}")]
    LengthMismatch {
        /// What the slices are.
        what: &'static str,
        /// The length the other slice has.
        expected: usize,
        /// The length given.
        got: usize,
    },
}
