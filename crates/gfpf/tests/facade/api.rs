//! The facade as a user meets it: field choice at run time, devices, FFTs,
//! polynomials and their errors.

use gfpf::{
    Device, Element, Error, Fft, Field, FieldError, FieldSpec, FieldVisitor, MulAlgorithm, Order, PolyRing, Preset,
    RingOptions, Threading, TwiddleLayout,
};
use gfpf_testkit::oracle::{naive_dft, rug_polynomial_product, sample};
use rand::{SeedableRng, rngs::StdRng};

struct Describe;
impl FieldVisitor for Describe {
    type Output = (usize, u32, u64);
    fn visit<const K: usize>(self, field: Field<K>) -> Self::Output {
        (K, field.bits(), field.r())
    }
}

#[test]
fn every_preset_dispatches_to_its_k() {
    for p in Preset::ALL {
        let spec: FieldSpec = p.name().parse().unwrap();
        assert_eq!(spec, FieldSpec::Preset(p));
        assert_eq!(spec.visit(Describe).unwrap(), (p.k(), p.bits(), p.r()));
        assert_eq!(spec.to_string(), p.name());
    }
}

#[test]
fn custom_fields_parse_check_and_dispatch() {
    let spec: FieldSpec = " (2^63 + 2^34)^8 + 1 ".parse().unwrap();
    assert_eq!(spec.k(), 8);
    assert_eq!(spec.visit(Describe).unwrap(), (8, 505, Preset::T8.r()));
    assert_eq!(spec.to_string().parse::<FieldSpec>().unwrap(), spec);
    for bad in [
        "t9",
        "",
        "(2^63+2^34)^8",
        "(2^63+2^34)^6+1",
        "(2^63+2^34)^256+1",
        "(2^63+x)^8+1",
        "(2^63)^x+1",
    ] {
        let e = bad.parse::<FieldSpec>().unwrap_err();
        assert!(matches!(e, Error::InvalidFieldSpec { .. }), "{bad}: {e}");
    }
    // Parses, but r^k + 1 is not prime: the error comes when it is built.
    let composite: FieldSpec = "(2^63+2^33)^8+1".parse().unwrap();
    let e = composite.visit(Describe).unwrap_err();
    assert!(matches!(e, Error::Field(FieldError::NotPrime { .. })), "{e}");
    assert!(e.to_string().contains("not prime"));
}

#[test]
fn devices() {
    assert_eq!("cpu".parse::<Device>().unwrap(), Device::Cpu);
    assert_eq!("AUTO".parse::<Device>().unwrap(), Device::Auto);
    assert_eq!("cuda".parse::<Device>().unwrap(), Device::Cuda);
    assert!(matches!("tpu".parse::<Device>(), Err(Error::UnknownDevice(_))));
    let f = Field::<4>::preset(Preset::P4).unwrap();
    // Small transforms stay on the CPU under Auto, GPU or not.
    assert_eq!(Device::Auto.resolve_for(4, 16).unwrap(), Device::Cpu);
    assert_eq!(Fft::new(&f, 16).unwrap().device(), Device::Cpu);
    let ring_on_cuda = PolyRing::with_options(
        &f,
        RingOptions {
            device: Device::Cuda,
            ..RingOptions::default()
        },
    );
    match gfpf::cuda_unavailable_reason() {
        // No GPU here (CI): CUDA asked for is a clear error; Auto is the CPU.
        Some(reason) => {
            let e = Fft::builder(&f, 16).device(Device::Cuda).build().unwrap_err();
            assert_eq!(e, Error::NoCudaDevice { reason });
            assert!(e.to_string().starts_with("no usable CUDA device"));
            assert!(matches!(ring_on_cuda, Err(Error::NoCudaDevice { .. })));
            assert_eq!(Device::Auto.resolve_for(8, 1 << 20).unwrap(), Device::Cpu);
            assert_eq!(
                gfpf::cuda_device().unwrap_err(),
                Error::NoCudaDevice {
                    reason: gfpf::cuda_unavailable_reason().unwrap()
                }
            );
        }
        None => {
            let fft = Fft::builder(&f, 1 << 10).device(Device::Cuda).build().unwrap();
            assert_eq!(fft.device(), Device::Cuda);
            assert!(fft.cuda().is_some() && fft.cpu().is_none());
            let ring = ring_on_cuda.unwrap();
            let a = ring.random(1000, &mut rand::rng());
            let cpu = PolyRing::new(&f).unwrap();
            assert!(a.mul(&a).unwrap().coeffs() == cpu.mul_coeffs(a.coeffs(), a.coeffs()).unwrap().as_slice());
            assert_eq!(Device::Auto.resolve_for(8, 1 << 20).unwrap(), Device::Cuda);
        }
    }
}

#[test]
fn fft_matches_the_naive_dft_in_both_orders_and_batches() {
    let f = Field::<8>::preset(Preset::T8).unwrap();
    let n = 64;
    let x = sample(&f, 2 * n, 5);
    let want: Vec<_> = x.chunks(n).flat_map(|c| naive_dft(&f, c, false)).collect();
    let fft = Fft::new(&f, n).unwrap();
    assert_eq!(fft.len(), n);
    assert_eq!(f.pow_u64(&fft.omega(), n as u64), f.one());
    let mut y = x.clone();
    fft.forward(&mut y).unwrap();
    assert!(y == want);
    fft.inverse(&mut y).unwrap();
    assert!(y == x);
    let dr = Fft::builder(&f, n)
        .order(Order::DigitReversed)
        .threading(Threading::Serial)
        .build()
        .unwrap();
    assert_eq!(dr.order(), Order::DigitReversed);
    let mut z = x.clone();
    dr.forward(&mut z).unwrap();
    let mut sorted_z = z.clone();
    sorted_z.sort();
    let mut sorted_want = want.clone();
    sorted_want.sort();
    assert!(sorted_z == sorted_want, "a permutation of the natural output");
    dr.inverse(&mut z).unwrap();
    assert!(z == x);
    // Two-level twiddle tables: the same transform, bit for bit.
    let split = Fft::builder(&f, 1 << 12)
        .device(Device::Cpu)
        .twiddles(TwiddleLayout::Split)
        .build()
        .unwrap();
    let whole = Fft::builder(&f, 1 << 12).device(Device::Cpu).build().unwrap();
    assert_eq!(split.cpu().unwrap().0.twiddles().layout(), TwiddleLayout::Split);
    let x = sample(&f, 1 << 12, 6);
    let (mut a, mut b) = (x.clone(), x.clone());
    split.forward(&mut a).unwrap();
    whole.forward(&mut b).unwrap();
    assert!(a == b);
    split.inverse(&mut a).unwrap();
    assert!(a == x);
}

#[test]
fn fft_errors() {
    let f = Field::<8>::preset(Preset::T8).unwrap();
    assert!(matches!(Fft::new(&f, 12), Err(Error::Plan(_))));
    assert!(matches!(Fft::new(&f, 0), Err(Error::Plan(_))));
    let fft = Fft::new(&f, 8).unwrap();
    let mut x = vec![f.one(); 12];
    let before = x.clone();
    assert!(matches!(fft.forward(&mut x), Err(Error::Transform(_))));
    assert!(x == before, "nothing modified on error");
    let p4 = Field::<4>::preset(Preset::P4).unwrap();
    let e = Fft::new(&p4, 1 << 45).unwrap_err();
    assert!(e.to_string().contains("2^44"), "{e}");
}

#[test]
fn polynomials_against_rug_and_evaluation() {
    let f = Field::<16>::preset(Preset::T16).unwrap();
    let ring = PolyRing::new(&f).unwrap();
    let mut rng = StdRng::seed_from_u64(3);
    for (la, lb) in [(1, 1), (2, 33), (31, 33), (64, 65), (129, 100)] {
        let a = ring.poly(sample(&f, la, la as u64)).unwrap();
        let b = ring.random(lb, &mut rng);
        let c = a.mul(&b).unwrap();
        assert!(c.coeffs() == rug_polynomial_product(&f, a.coeffs(), b.coeffs()).as_slice());
        let x = f.random(&mut rng);
        assert_eq!(c.evaluate(&x), f.mul(&a.evaluate(&x), &b.evaluate(&x)));
        assert_eq!(a.square().unwrap(), a.mul(&a).unwrap());
        let s = a.add(&b).unwrap();
        assert_eq!(s.sub(&b).unwrap(), a);
        assert_eq!(s.add(&s.neg()).unwrap(), ring.zero());
    }
}

#[test]
fn polynomial_shape_and_display() {
    let f = Field::<8>::preset(Preset::P8).unwrap();
    let ring = PolyRing::new(&f).unwrap();
    let a = ring.poly_from_u64(&[3, 0, 1, 0, 0]);
    assert_eq!(a.len(), 3, "trailing zeros dropped");
    assert_eq!(a.degree(), Some(2));
    assert_eq!(a.to_string(), "3 + 1*x^2");
    assert_eq!(ring.zero().degree(), None);
    assert_eq!(ring.zero().to_string(), "0");
    assert!(a.mul(&ring.zero()).unwrap().is_zero());
    // Coefficient vectors keep their length.
    let c = ring.mul_coeffs(&[f.one(), f.zero()], &[f.one(), f.zero()]).unwrap();
    assert_eq!(c.len(), 3);
    assert_eq!(ring.square_coeffs(&[f.zero(); 4]).unwrap().len(), 7);
}

#[test]
fn polynomial_errors() {
    let t8 = Field::<8>::preset(Preset::T8).unwrap();
    let p8 = Field::<8>::preset(Preset::P8).unwrap();
    let (rt, rp) = (PolyRing::new(&t8).unwrap(), PolyRing::new(&p8).unwrap());
    let e = rt.poly_from_u64(&[1, 2]).mul(&rp.poly_from_u64(&[1])).unwrap_err();
    assert!(matches!(e, Error::FieldMismatch { .. }), "{e}");
    assert!(matches!(
        rt.poly_from_u64(&[1]).add(&rp.poly_from_u64(&[1])),
        Err(Error::FieldMismatch { .. })
    ));
    // A digit ≥ r is not an element.
    let bad = Element::from_digits_unchecked([u64::MAX; 8]);
    let e = rt.poly(vec![t8.one(), bad]).unwrap_err();
    assert!(matches!(e, Error::Coefficient { index: 1, .. }), "{e}");
    assert!(matches!(
        rt.mul_coeffs(&[bad], &[t8.one()]),
        Err(Error::Coefficient { index: 0, .. })
    ));
}

/// Transforms refuse elements that are not canonical, whatever is wrong
/// with them, and leave the data as it was; p − 1 (top digit r) and the
/// other edge values are canonical and transform.
#[test]
fn transforms_refuse_non_canonical_values() {
    let f = Field::<8>::preset(Preset::T8).unwrap();
    let r = f.r();
    let fft = Fft::builder(&f, 16).device(Device::Cpu).build().unwrap();
    let mut p = [0u64; 8];
    p[7] = r;
    p[0] = 1;
    let mut digit_r = [0u64; 8];
    digit_r[2] = r;
    for (digits, index) in [(p, 3), (digit_r, 15), ([u64::MAX; 8], 0)] {
        let mut x: Vec<_> = (0..16).map(|i| f.from_u64(i)).collect();
        x[index] = Element::from_digits_unchecked(digits);
        let before = x.clone();
        for e in [fft.forward(&mut x).unwrap_err(), fft.inverse(&mut x).unwrap_err()] {
            assert!(matches!(e, Error::Value { index: i, .. } if i == index), "{e}");
            assert!(e.to_string().starts_with(&format!("value {index}: ")), "{e}");
        }
        assert_eq!(x, before);
    }
    let edges = [f.zero(), f.one(), f.neg(&f.one()), f.from_u64(r - 1), f.r_element()];
    let mut x: Vec<_> = (0..16).map(|i| edges[i % edges.len()]).collect();
    let before = x.clone();
    fft.forward(&mut x).unwrap();
    fft.inverse(&mut x).unwrap();
    assert_eq!(x, before);
}

/// A transform or product that cannot fit in this process's memory is
/// refused at once by name, before its tables are built (Linux would
/// otherwise grant the pages and end the process when they are touched).
#[test]
fn what_cannot_fit_in_memory_is_refused_at_once() {
    let f = Field::<8>::preset(Preset::T8).unwrap();
    // t8, N = 2^31: data and scratch, 128 GiB each; the twiddle table, in two
    // levels at that size, 1.5 MiB.
    let needed: u64 = 256 << 30;
    match gfpf::executor::memory_limit() {
        Some(limit) if limit < needed => {
            let start = std::time::Instant::now();
            let e = Fft::builder(&f, 1 << 31).device(Device::Cpu).build().unwrap_err();
            assert!(
                matches!(e, Error::Transform(gfpf::executor::TransformError::OutOfMemory { n, .. }) if n == 1 << 31),
                "{e}"
            );
            assert!(e.to_string().contains("needs 256.0 GiB at least"), "{e}");
            assert!(
                start.elapsed().as_secs() < 5,
                "refused only after {:?}",
                start.elapsed()
            );
        }
        limit => eprintln!("skipped: memory limit {limit:?} bytes leaves nothing to refuse at N = 2^31"),
    }
}

#[test]
fn options_force_each_algorithm() {
    let f = Field::<4>::preset(Preset::T4).unwrap();
    let a = sample(&f, 40, 1);
    let b = sample(&f, 3, 2);
    let want = rug_polynomial_product(&f, &a, &b);
    for algorithm in [MulAlgorithm::Auto, MulAlgorithm::Schoolbook, MulAlgorithm::Tft] {
        for threading in [Threading::Parallel, Threading::Serial] {
            let ring = PolyRing::with_options(
                &f,
                RingOptions {
                    algorithm,
                    threading,
                    device: Device::Cpu,
                },
            )
            .unwrap();
            assert!(ring.mul_coeffs(&a, &b).unwrap() == want, "{algorithm:?} {threading:?}");
        }
    }
}
