//! The six-step rewrite equals the DFT it replaces, for every power-of-two N up
//! to 2^12 and several base sizes, over a word-size field and gfpf presets.

use crate::common;

use common::*;
use gfpf_plan::{Formula, PlanError, RootTower, evaluate};

#[test]
fn six_step_equals_dft_over_a_word_field() {
    for log2n in 0..=12 {
        let n = 1usize << log2n;
        let x: Vec<Word> = pseudo_random(n, log2n as u64)
            .into_iter()
            .map(|v| Word(v % Q))
            .collect();
        let want = evaluate(&Formula::dft(n), &WordTower, &x);
        for base in [2, 4, 8, 16, 32] {
            let f = Formula::six_step(n, base).unwrap();
            assert_eq!(f.size(), n);
            assert!(f.base_dfts().iter().all(|&b| b <= base && base % b == 0));
            assert_eq!(evaluate(&f, &WordTower, &x), want, "N = {n}, base {base}: {f}");
        }
    }
}

fn check_preset<R: RootTower>(tower: &R, k: usize, max_log2n: u32, make: impl Fn(u64) -> R::Elem)
where
    R::Elem: PartialEq + std::fmt::Debug,
{
    for log2n in 0..=max_log2n {
        let n = 1usize << log2n;
        let x: Vec<R::Elem> = pseudo_random(n, 7 + log2n as u64).into_iter().map(&make).collect();
        let want = evaluate(&Formula::dft(n), tower, &x);
        let f = Formula::six_step(n, 2 * k).unwrap();
        assert_eq!(evaluate(&f, tower, &x), want, "k = {k}, N = {n}: {f}");
    }
}

#[test]
fn six_step_equals_dft_over_field_presets() {
    check_preset(&T2Tower, 2, 12, |v| T2Elem(t2().from_u64(v)));
    check_preset(&P4Tower, 4, 10, |v| P4Elem(p4().from_u64(v)));
    check_preset(&T8Tower, 8, 10, |v| T8Elem(t8().from_u64(v)));
}

#[test]
fn six_step_reproduces_the_t8_known_answer() {
    let known = gfpf_testkit::known::known_answers(t8()).unwrap();
    let known = known
        .iter()
        .find(|k| k.n == 256)
        .expect("dft_t8_n256.json in testdata/");
    let array = |v: &[gfpf_field::Element<8>]| -> Vec<T8Elem> { v.iter().map(|&e| T8Elem(e)).collect() };
    let (input, output) = (array(&known.input), array(&known.output));
    let f = Formula::six_step(256, 16).unwrap();
    assert_eq!(evaluate(&f, &T8Tower, &input), output);
}

#[test]
fn notation_and_mixed_radix() {
    let f = Formula::six_step(256, 16).unwrap();
    assert_eq!(
        f.to_string(),
        "L^256_16 (I_16 ⊗ DFT_16) L^256_16 D_16,16 (I_16 ⊗ DFT_16) L^256_16"
    );
    assert_eq!(f.base_dfts(), vec![16; 32]);
    // k = 8: 2^20 = 16^5, 2^21 = 16^5·2 (the last factor smaller).
    assert_eq!(Formula::six_step(1 << 20, 16).unwrap().base_dfts(), vec![16; 5 << 16]);
    let mixed = Formula::six_step(1 << 21, 16).unwrap().base_dfts();
    assert_eq!(mixed.iter().filter(|&&b| b == 2).count(), 1 << 20);
    assert_eq!(mixed.iter().filter(|&&b| b == 16).count(), 5 << 17);
    assert_eq!(Formula::six_step(8, 16).unwrap(), Formula::dft(8));
    assert_eq!(Formula::six_step(12, 16), Err(PlanError::SizeNotPowerOfTwo(12)));
    assert_eq!(Formula::six_step(0, 16), Err(PlanError::SizeNotPowerOfTwo(0)));
    assert_eq!(Formula::six_step(64, 12), Err(PlanError::InvalidBaseSize(12)));
    let t = Formula::TensorIdentity {
        inner: Box::new(Formula::dft(4)),
        m: 2,
    };
    assert_eq!(t.to_string(), "(DFT_4 ⊗ I_2)");
    assert_eq!(t.size(), 8);
}

#[test]
fn tensor_identity_matches_its_stride_form() {
    // A ⊗ I_m = L^{mn}_n (I_m ⊗ A) L^{mn}_m (the commutation rule).
    let n = 4;
    let m = 8;
    let lhs = Formula::TensorIdentity {
        inner: Box::new(Formula::dft(n)),
        m,
    };
    let rhs = Formula::Compose(vec![
        Formula::Stride { n: m * n, m: n },
        Formula::IdentityTensor {
            m,
            inner: Box::new(Formula::dft(n)),
        },
        Formula::Stride { n: m * n, m },
    ]);
    let x: Vec<Word> = pseudo_random(m * n, 3).into_iter().map(|v| Word(v % Q)).collect();
    assert_eq!(evaluate(&lhs, &WordTower, &x), evaluate(&rhs, &WordTower, &x));
    // The inverse DFT at exponent n - 1, scaled, undoes the forward one.
    let inv = Formula::Dft { n: 16, exponent: 15 };
    let y = evaluate(&Formula::dft(16), &WordTower, &x[..16]);
    let back = evaluate(&inv, &WordTower, &y);
    let n_inv = Word(gfpf_small::primes::inv_mod(16, Q));
    assert_eq!(
        back.into_iter().map(|v| v * n_inv).collect::<Vec<_>>(),
        x[..16].to_vec()
    );
}
