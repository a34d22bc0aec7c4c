//! Presets against the DESIGN table, custom fields, and every error variant.

use gfpf_field::{Element, Field, FieldError, MulMethod, Preset, SparseRadix, SparseTerm};
use rug::Integer;
use rug::integer::IsPrime;
use rug::ops::Pow;

fn preset_matches_table<const K: usize>(preset: Preset) {
    let f = Field::<K>::preset(preset).unwrap();
    assert_eq!(f.name(), Some(preset.name()));
    assert_eq!(f.r() as i128, preset.sparse().value());
    assert_eq!(*f.p(), Integer::from(f.r()).pow(K as u32) + 1u32);
    assert_eq!(f.bits(), preset.bits(), "{preset}: bits");
    assert_eq!(f.two_adicity(), preset.two_adicity(), "{preset}: 2-adicity");
    assert_ne!(f.p().is_probably_prime(30), IsPrime::No, "{preset} must be prime");
    // The same field through the custom path (which runs the primality test).
    let custom = Field::<K>::custom(f.r(), preset.sparse()).unwrap();
    assert_eq!(custom, f);
    assert_eq!(custom.name(), None);
    assert_eq!(custom.omega_max(), f.omega_max());
    assert_eq!(Field::<K>::from_name(&preset.name().to_uppercase()).unwrap(), f);
}

#[test]
fn presets_match_the_design_table_and_are_prime() {
    preset_matches_table::<2>(Preset::T2);
    preset_matches_table::<4>(Preset::T4);
    preset_matches_table::<8>(Preset::T8);
    preset_matches_table::<16>(Preset::T16);
    preset_matches_table::<32>(Preset::T32);
    preset_matches_table::<64>(Preset::T64);
    preset_matches_table::<128>(Preset::T128);
    preset_matches_table::<4>(Preset::P4);
    preset_matches_table::<8>(Preset::P8);
    preset_matches_table::<16>(Preset::P16);
    preset_matches_table::<32>(Preset::P32);
    preset_matches_table::<64>(Preset::P64);
    preset_matches_table::<128>(Preset::P128);
    let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "t2", "t4", "t8", "t16", "t32", "t64", "t128", "p4", "p8", "p16", "p32", "p64", "p128"
        ]
    );
    assert_eq!("p64".parse::<Preset>().unwrap(), Preset::P64);
    assert_eq!(Preset::T4.r(), u64::MAX - (1 << 50) + 1);
}

#[test]
fn sparse_radix_parses_and_prints() {
    let s: SparseRadix = "2^64 - 2^50".parse().unwrap();
    assert_eq!(s.to_string(), "2^64-2^50");
    assert_eq!(s.value_u64(), Some(Preset::T4.r()));
    let s: SparseRadix = "2^59+2^58+2^11".parse().unwrap();
    assert_eq!(s, Preset::P4.sparse());
    assert_eq!(s.terms().len(), 3);
    for bad in [
        "",
        "3^5",
        "2^63+",
        "2^63 2^53",
        "-2^63",
        "2^53+2^63",
        "2^65",
        "2^4+2^3+2^2+2^1",
        "2^x",
    ] {
        assert!(
            matches!(bad.parse::<SparseRadix>(), Err(FieldError::InvalidSparseForm { .. })),
            "{bad:?} must not parse"
        );
    }
    assert!(SparseRadix::new(&[]).is_err());
    assert!(SparseRadix::new(&[SparseTerm::minus(5)]).is_err());
}

#[test]
fn custom_fields_are_checked() {
    // Primes that are no preset (found by a separate search, confirmed by GMP here).
    let sparse: SparseRadix = "2^62+2^29".parse().unwrap();
    let f = Field::<2>::from_sparse(sparse).unwrap();
    assert_eq!(*f.p(), Integer::from((1u64 << 62) + (1 << 29)).pow(2) + 1u32);
    assert_eq!(f.name(), None);
    let x = f.from_u64(123456789);
    assert_eq!(f.mul(&x, &f.inverse(&x).unwrap()), f.one());
    assert_eq!(f.pow_u64(&f.root_of_unity(2).unwrap(), 1), f.r_element());
    let f4 = Field::<4>::custom((1 << 62) - (1 << 35), "2^62-2^35".parse().unwrap()).unwrap();
    assert_eq!(f4.two_adicity(), 4 * 35);
    // Composite: (2^62+2^30)^2 + 1 and (2^62+2^21)^8 + 1 are not prime.
    assert!(matches!(
        Field::<2>::from_sparse("2^62+2^30".parse().unwrap()),
        Err(FieldError::NotPrime { k: 2, .. })
    ));
    assert!(matches!(
        Field::<8>::from_sparse("2^62+2^21".parse().unwrap()),
        Err(FieldError::NotPrime { k: 8, .. })
    ));
    // r odd: r^k + 1 is even.
    let odd: SparseRadix = "2^62+2^0".parse().unwrap();
    assert_eq!(
        Field::<4>::from_sparse(odd),
        Err(FieldError::NotPrime { r: (1 << 62) + 1, k: 4 })
    );
    assert!(matches!(
        Field::<4>::custom(12345, Preset::P4.sparse()),
        Err(FieldError::SparseFormMismatch { r: 12345, .. })
    ));
    assert!(matches!(
        Field::<4>::from_sparse("2^20+2^3".parse().unwrap()),
        Err(FieldError::RadixOutOfRange(_))
    ));
    assert!(matches!(
        Field::<4>::from_sparse("2^64+2^3".parse().unwrap()),
        Err(FieldError::RadixOutOfRange(_))
    ));
    assert_eq!(
        Field::<3>::custom(Preset::P4.r(), Preset::P4.sparse()),
        Err(FieldError::UnsupportedDigitCount(3))
    );
    assert_eq!(
        Field::<1>::custom(Preset::P4.r(), Preset::P4.sparse()),
        Err(FieldError::UnsupportedDigitCount(1))
    );
}

#[test]
fn preset_errors() {
    assert_eq!(Field::<8>::from_name("t9"), Err(FieldError::UnknownPreset("t9".into())));
    assert_eq!(
        Field::<4>::preset(Preset::T8),
        Err(FieldError::DigitCountMismatch {
            preset: "t8",
            preset_k: 8,
            requested_k: 4
        })
    );
}

#[test]
fn conversion_errors() {
    let f = Field::<4>::preset(Preset::T4).unwrap();
    let r = f.r();
    assert_eq!(
        f.element([0, r, 0, 0]),
        Err(FieldError::DigitOutOfRange { index: 1, digit: r, r })
    );
    assert_eq!(f.element([1, 0, 0, r]), Err(FieldError::ValueTooLarge { bits: 256 }));
    assert_eq!(f.element([0, 0, 0, r]), Ok(f.minus_one()));
    assert_eq!(f.from_integer(f.p()), Err(FieldError::ValueTooLarge { bits: 256 }));
    assert_eq!(
        f.from_integer(&(Integer::from(1) << 300)),
        Err(FieldError::ValueTooLarge { bits: 256 })
    );
    assert_eq!(f.from_integer(&Integer::from(-1)), Err(FieldError::NegativeValue));
    assert_eq!(f.from_integer_reduced(&Integer::from(-1)), f.minus_one());
    assert_eq!(f.from_integer_reduced(f.p()), f.zero());
    assert_eq!(
        f.from_le_bytes(&[0; 31]),
        Err(FieldError::WrongByteLength { expected: 32, got: 31 })
    );
    assert_eq!(
        f.from_le_bytes(&[0xff; 32]),
        Err(FieldError::ValueTooLarge { bits: 256 })
    );
    assert_eq!(f.parse(""), Err(FieldError::EmptyNumber));
    assert_eq!(f.parse("  "), Err(FieldError::EmptyNumber));
    assert_eq!(f.parse("0x"), Err(FieldError::EmptyNumber));
    assert_eq!(f.parse("-12"), Err(FieldError::NegativeValue));
    assert_eq!(
        f.parse("12a4"),
        Err(FieldError::InvalidCharacter {
            character: 'a',
            position: 2,
            base: "decimal"
        })
    );
    assert_eq!(
        f.parse(" 0x12g"),
        Err(FieldError::InvalidCharacter {
            character: 'g',
            position: 5,
            base: "hexadecimal"
        })
    );
    assert!(matches!(
        f.parse("+5"),
        Err(FieldError::InvalidCharacter { character: '+', .. })
    ));
    assert!(matches!(
        f.parse("1_000"),
        Err(FieldError::InvalidCharacter { character: '_', .. })
    ));
    assert_eq!(
        f.parse(&f.p().to_string()),
        Err(FieldError::ValueTooLarge { bits: 256 })
    );
    assert_eq!(f.parse(&(f.p().clone() - 1u32).to_string()), Ok(f.minus_one()));
    assert_eq!(f.parse(" 42\n"), Ok(f.from_u64(42)));
    assert_eq!(f.inverse(&f.zero()), Err(FieldError::ZeroInverse { index: 0 }));
    let mut xs = [f.one(), f.zero()];
    assert_eq!(f.batch_inverse(&mut xs), Err(FieldError::ZeroInverse { index: 1 }));
    assert_eq!(
        f.root_of_unity(201),
        Err(FieldError::RootOrderTooLarge {
            log2_n: 201,
            two_adicity: 200
        })
    );
    // Error messages name the problem.
    assert_eq!(
        FieldError::DigitOutOfRange {
            index: 1,
            digit: 7,
            r: 5
        }
        .to_string(),
        "digit 1 = 7 is not below r = 5"
    );
}

#[test]
fn elements_are_plain_data() {
    let f = Field::<8>::preset(Preset::T8).unwrap();
    let xs = [f.from_u64(1), f.minus_one(), f.r_element()];
    let words: &[u64] = bytemuck::cast_slice(&xs);
    assert_eq!(words.len(), 24);
    assert_eq!(words[15], f.r());
    let back: &[Element<8>] = bytemuck::cast_slice(words);
    assert_eq!(back, &xs);
    assert!(Element::<8>::ZERO.is_zero());
    assert!(f.minus_one() > f.from_u64(u64::MAX));
}

#[test]
fn random_is_uniform_enough_and_canonical() {
    use rand::SeedableRng;
    // t2: p - 1 = r^2, so the top digit is uniform on [0, r) (r itself with probability 1/p).
    let f = Field::<2>::preset(Preset::T2).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut bins = [0u32; 8];
    for _ in 0..8000 {
        let x = f.random(&mut rng);
        assert!(f.check(&x).is_ok());
        bins[(x.digits()[1] as u128 * 8 / f.r() as u128) as usize] += 1;
    }
    assert!(bins.iter().all(|&b| (850..1150).contains(&b)), "{bins:?}");
}

fn convolution_primes<const K: usize>(preset: Preset) -> usize {
    match Field::<K>::preset(preset)
        .unwrap()
        .with_convolution()
        .unwrap()
        .mul_method()
    {
        MulMethod::Convolution { primes } => primes,
        other => panic!("{other:?}"),
    }
}

#[test]
fn convolution_uses_the_primes_the_crt_bound_needs() {
    // 2·k·r² < 2^124 for every p-preset (r < 2^60), above it for the t-presets.
    assert_eq!(convolution_primes::<4>(Preset::P4), 2);
    assert_eq!(convolution_primes::<8>(Preset::P8), 2);
    assert_eq!(convolution_primes::<16>(Preset::P16), 2);
    assert_eq!(convolution_primes::<32>(Preset::P32), 2);
    assert_eq!(convolution_primes::<64>(Preset::P64), 2);
    assert_eq!(convolution_primes::<128>(Preset::P128), 2);
    assert_eq!(convolution_primes::<2>(Preset::T2), 3);
    assert_eq!(convolution_primes::<8>(Preset::T8), 3);
    assert_eq!(convolution_primes::<128>(Preset::T128), 3);
    let t8 = Field::<8>::preset(Preset::T8).unwrap();
    assert!(matches!(
        t8.clone().with_mul_method(MulMethod::Convolution { primes: 2 }),
        Err(FieldError::UnsupportedMulMethod { .. })
    ));
    assert!(matches!(
        t8.clone().with_mul_method(MulMethod::Convolution { primes: 4 }),
        Err(FieldError::UnsupportedMulMethod { .. })
    ));
    // Three primes also work where two would do.
    let p8 = Field::<8>::preset(Preset::P8).unwrap();
    let p8_three = p8
        .clone()
        .with_mul_method(MulMethod::Convolution { primes: 3 })
        .unwrap();
    let x = p8.minus_one();
    let y = p8.from_u64(12345);
    let z = p8.sub(&p8.zero(), &p8.from_u64(3));
    assert_eq!(p8_three.mul(&z, &y), p8.mul(&z, &y));
    assert_eq!(p8_three.mul(&x, &y), p8.neg(&y));
}

#[test]
fn default_multiplication_methods() {
    assert_eq!(
        Field::<128>::preset(Preset::P128).unwrap().mul_method(),
        MulMethod::Convolution { primes: 2 }
    );
    assert_eq!(
        Field::<64>::preset(Preset::P64).unwrap().mul_method(),
        MulMethod::Schoolbook
    );
    assert_eq!(
        Field::<128>::preset(Preset::T128).unwrap().mul_method(),
        MulMethod::Schoolbook
    );
    assert_eq!(
        Field::<8>::preset(Preset::T8).unwrap().mul_method(),
        MulMethod::Schoolbook
    );
}

/// Elements made from raw digits that are not canonical: inversion refuses
/// them with the check's error instead of panicking (the value p itself,
/// p + 1, and a digit of r below the top).
#[test]
fn inversion_refuses_non_canonical_elements() {
    let f = Field::<8>::preset(Preset::T8).unwrap();
    let r = f.r();
    let mut p = [0u64; 8];
    p[7] = r;
    p[0] = 1; // r^k + 1 = p, stored with the top digit r
    let mut p_plus_one = p;
    p_plus_one[0] = 2;
    let mut low_digit_r = [0u64; 8];
    low_digit_r[3] = r;
    for digits in [p, p_plus_one, low_digit_r] {
        let x = Element::from_digits_unchecked(digits);
        let e = f.inverse(&x).unwrap_err();
        assert_eq!(Err(e.clone()), f.check(&x), "{digits:?}");
        let mut batch = [f.one(), x];
        assert_eq!(f.batch_inverse(&mut batch), Err(e));
        assert_eq!(batch, [f.one(), x], "left untouched");
    }
    // The edge values that are canonical still invert.
    for x in [f.one(), f.neg(&f.one()), f.from_u64(r - 1), f.r_element()] {
        assert_eq!(f.mul(&x, &f.inverse(&x).unwrap()), f.one());
    }
}
