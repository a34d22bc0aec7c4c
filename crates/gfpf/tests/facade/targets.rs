//! The fuzz targets: one per parser a user's bytes reach (decimal and hex
//! values, the binary element format, field specifications). Each takes
//! arbitrary bytes, must never panic, and checks what it parsed against an
//! independent oracle (rug) and a round trip. Run by the stable driver in
//! `fuzz.rs` (the test command) and by libFuzzer through `fuzz/` (nightly,
//! `cargo fuzz run <target>`).

use gfpf::{Field, FieldSpec, FieldVisitor, Preset};
use rug::Integer;
use rug::integer::Order;
use rug::ops::Pow;

/// A fuzz target: arbitrary bytes in, a panic when something is wrong.
pub type Target = fn(&[u8]);

/// The targets by name (the corpus folder of each is `fuzz/corpus/<name>`).
pub const TARGETS: [(&str, Target); 3] = [("values", values), ("binary", binary), ("field_spec", field_spec)];

/// A value as text (`Field::parse`, the text format's lines), in fields with
/// r above and below 2^63 (t4's digit sums overflow a word) and p − 1's
/// top digit r in every one.
pub fn values(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    value_in(&field::<2>(Preset::T2), text);
    value_in(&field::<4>(Preset::T4), text);
    value_in(&field::<4>(Preset::P4), text);
    value_in(&field::<8>(Preset::T8), text);
}

fn value_in<const K: usize>(f: &Field<K>, text: &str) {
    let parsed = f.parse(text);
    match (expected_value(text), &parsed) {
        (Some(v), Ok(x)) if v < *f.p() => {
            assert_eq!(f.check(x), Ok(()), "{text:?}: not canonical");
            assert_eq!(f.to_integer(x), v, "{text:?}");
            assert_eq!(
                f.parse(&f.to_decimal(x)).as_ref(),
                Ok(x),
                "{text:?}: decimal round trip"
            );
            assert_eq!(f.parse(&f.to_hex(x)).as_ref(), Ok(x), "{text:?}: hex round trip");
        }
        (Some(v), Err(_)) if v >= *f.p() => {}
        (None, Err(e)) => assert!(!e.to_string().is_empty()),
        (v, _) => panic!("{text:?}: oracle {v:?}, parsed {parsed:?}"),
    }
}

/// The oracle of `Field::parse`: surrounding whitespace, an optional `0x`
/// or `0X`, then one or more ASCII digits of that base (no sign), read by
/// GMP.
fn expected_value(text: &str) -> Option<Integer> {
    let t = text.trim();
    let (body, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (t, 10),
    };
    if body.is_empty() || !body.chars().all(|c| c.is_ascii() && c.is_digit(radix)) {
        return None;
    }
    Integer::from_str_radix(body, radix as i32).ok()
}

/// Elements in the binary format (`Field::from_le_bytes`, k·8 little-endian
/// bytes each): the input cut into elements of t8 and of p4.
pub fn binary(data: &[u8]) {
    binary_in(&field::<8>(Preset::T8), data);
    binary_in(&field::<4>(Preset::P4), data);
}

fn binary_in<const K: usize>(f: &Field<K>, data: &[u8]) {
    let got = f.from_le_bytes(data);
    if data.len() != 8 * K {
        assert!(got.is_err(), "{} bytes accepted", data.len());
    }
    for chunk in data.chunks(8 * K) {
        let parsed = f.from_le_bytes(chunk);
        if chunk.len() != 8 * K {
            assert!(parsed.is_err());
            continue;
        }
        let v = Integer::from_digits(chunk, Order::Lsf);
        match parsed {
            Ok(x) => {
                assert!(v < *f.p());
                assert_eq!(f.check(&x), Ok(()));
                assert_eq!(f.to_integer(&x), v);
                assert_eq!(f.to_le_bytes(&x), chunk);
            }
            Err(_) => assert!(v >= *f.p(), "{v} refused"),
        }
    }
}

/// A field specification (`t8`, `(2^63+2^34)^8+1`): what parses prints
/// back to itself, and a custom one of up to 16 digits is built (its
/// primality checked) as `r^k + 1`.
pub fn field_spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let spec = match text.parse::<FieldSpec>() {
        Ok(spec) => spec,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    assert_eq!(spec.to_string().parse::<FieldSpec>().as_ref(), Ok(&spec), "{text:?}");
    if let FieldSpec::Custom { radix, k } = spec
        && k <= 16
    {
        struct Modulus;
        impl FieldVisitor for Modulus {
            type Output = Integer;
            fn visit<const K: usize>(self, field: Field<K>) -> Integer {
                field.p().clone()
            }
        }
        if let Ok(p) = spec.visit(Modulus) {
            let r = Integer::from(radix.value());
            assert_eq!(p, r.pow(k as u32) + 1u32, "{text:?}");
        }
    }
}

fn field<const K: usize>(preset: Preset) -> Field<K> {
    Field::preset(preset).expect("a preset")
}
