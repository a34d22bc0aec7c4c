//! Flattened plans equal the six-step formula and the naive DFT, in every
//! direction and order, for every N up to 2^12; their counts are exact; the
//! codelet programs compute DFT_K.

use crate::common;

use common::*;
use gfpf_plan::{
    Addressing, BaseDftStage, Buffer, CODELET_RADICES, Codelet, CodeletOp, CodeletTwiddles, Direction, Formula, Order,
    Plan, PlanError, RootTower, Stage, StageKind, StageTwiddles, TwiddlePlacement, evaluate, evaluate_plan,
};

const ALL: [(Direction, Order); 4] = [
    (Direction::Forward, Order::Natural),
    (Direction::Forward, Order::DigitReversed),
    (Direction::Inverse, Order::Natural),
    (Direction::Inverse, Order::DigitReversed),
];

/// Checks all four plans of size N = x.len() against the naive DFT `y` of x,
/// with base DFTs up to 2k and, smaller radices, every cap from 2 up
/// ([`Plan::try_with_max_radix`]: twiddles below N = 2k included).
fn check_plans<R: RootTower>(tower: &R, k: usize, x: &[R::Elem], y: &[R::Elem])
where
    R::Elem: PartialEq + std::fmt::Debug,
{
    let n = x.len();
    let caps = (1..=(2 * k).trailing_zeros()).map(|b| 1usize << b);
    for ((direction, order), max_radix) in ALL.into_iter().flat_map(|d| caps.clone().map(move |c| (d, c))) {
        let plan = Plan::try_with_max_radix(n, k, direction, order, max_radix).unwrap();
        assert!(plan.radices().iter().all(|&r| r <= max_radix));
        // The same radices as the host's plan at 2k, the remainder moved
        // outermost (ascending).
        assert!(plan.radices().is_sorted(), "{:?}", plan.radices());
        if max_radix == 2 * k {
            let mut host = Plan::try_new(n, k, direction, order).unwrap().radices().to_vec();
            host.sort_unstable();
            assert_eq!(plan.radices(), &host[..]);
        }
        let reordered = |v: &[R::Elem]| -> Vec<R::Elem> { (0..n).map(|l| v[plan.digit_reverse(l)].clone()).collect() };
        match direction {
            Direction::Forward => {
                let got = evaluate_plan(&plan, tower, x);
                let want = match order {
                    Order::Natural => y.to_vec(),
                    Order::DigitReversed => reordered(y),
                };
                assert_eq!(got, want, "N = {n}, k = {k}, {direction:?} {order:?}: {plan:?}");
            }
            Direction::Inverse => {
                let input = match order {
                    Order::Natural => y.to_vec(),
                    Order::DigitReversed => reordered(y),
                };
                assert_eq!(
                    evaluate_plan(&plan, tower, &input),
                    x,
                    "N = {n}, k = {k}, {direction:?} {order:?}: {plan:?}"
                );
            }
        }
    }
}

#[test]
fn plans_equal_formula_and_naive_dft_over_a_word_field() {
    for log2n in 0..=12 {
        let n = 1usize << log2n;
        let x: Vec<Word> = pseudo_random(n, 11 + log2n as u64)
            .into_iter()
            .map(|v| Word(v % Q))
            .collect();
        let y = evaluate(&Formula::dft(n), &WordTower, &x);
        for k in [1, 2, 4, 8, 16] {
            check_plans(&WordTower, k, &x, &y);
            let formula = Formula::six_step(n, 2 * k).unwrap();
            assert_eq!(evaluate(&formula, &WordTower, &x), y, "formula N = {n}, k = {k}");
        }
    }
}

fn check_preset<R: RootTower>(tower: &R, k: usize, max_log2n: u32, make: impl Fn(u64) -> R::Elem)
where
    R::Elem: PartialEq + std::fmt::Debug,
{
    for log2n in 0..=max_log2n {
        let n = 1usize << log2n;
        let x: Vec<R::Elem> = pseudo_random(n, 5 + log2n as u64).into_iter().map(&make).collect();
        let y = evaluate(&Formula::dft(n), tower, &x);
        check_plans(tower, k, &x, &y);
    }
}

#[test]
fn plans_equal_naive_dft_over_field_presets() {
    check_preset(&T2Tower, 2, 10, |v| T2Elem(t2().from_u64(v)));
    check_preset(&P4Tower, 4, 9, |v| P4Elem(p4().from_u64(v)));
    check_preset(&T8Tower, 8, 9, |v| T8Elem(t8().from_u64(v)));
}

/// The known-answer files of the presets the tests have rings for.
#[test]
fn plans_reproduce_known_answers() {
    fn arrays(file: &str) -> (Vec<String>, Vec<String>) {
        let known = gfpf_testkit::known::known_answer_files()
            .unwrap()
            .into_iter()
            .find(|f| f.file == format!("{file}.json"))
            .unwrap_or_else(|| panic!("{file}.json is not in testdata/"));
        let strings = |v: &[_]| v.iter().map(ToString::to_string).collect();
        (strings(&known.input), strings(&known.output))
    }
    macro_rules! check {
        ($file:literal, $tower:expr, $elem:ident, $field:ident, $k:literal) => {{
            let (input, output) = arrays($file);
            let x: Vec<$elem> = input.iter().map(|s| $elem($field().parse(s).unwrap())).collect();
            let y: Vec<$elem> = output.iter().map(|s| $elem($field().parse(s).unwrap())).collect();
            check_plans(&$tower, $k, &x, &y);
        }};
    }
    check!("dft_t2_n16", T2Tower, T2Elem, t2, 2);
    check!("dft_p4_n64", P4Tower, P4Elem, p4, 4);
    check!("dft_t8_n16", T8Tower, T8Elem, t8, 8);
    check!("dft_t8_n256", T8Tower, T8Elem, t8, 8);
}

#[test]
fn stage_lists_are_exact() {
    let plan = Plan::try_new(512, 8, Direction::Forward, Order::Natural).unwrap();
    assert_eq!(plan.radices(), &[16, 16, 2]);
    let dft = |radix, blocks, stride, twiddles, input| {
        StageKind::BaseDft(BaseDftStage {
            radix,
            blocks,
            stride,
            twiddles,
            input,
        })
    };
    let tw = |step| {
        Some(StageTwiddles {
            placement: TwiddlePlacement::Inputs,
            step,
        })
    };
    assert_eq!(
        plan.stages(),
        &[
            Stage {
                kind: dft(2, 256, 1, None, Addressing::DigitReversed),
                src: Buffer::Data,
                dst: Buffer::Scratch,
            },
            Stage {
                kind: dft(16, 16, 2, tw(16), Addressing::Natural),
                src: Buffer::Scratch,
                dst: Buffer::Scratch,
            },
            Stage {
                kind: dft(16, 1, 32, tw(1), Addressing::Natural),
                src: Buffer::Scratch,
                dst: Buffer::Data,
            },
        ]
    );
    assert_eq!(plan.scratch_len(), 512);
    assert_eq!(plan.twiddle_table_len(), 32);

    // Digit-reversed forward: decimation in frequency, in place, no scratch.
    let dif = Plan::try_new(512, 8, Direction::Forward, Order::DigitReversed).unwrap();
    assert_eq!(dif.scratch_len(), 0);
    assert!(
        dif.stages()
            .iter()
            .all(|s| s.src == Buffer::Data && s.dst == Buffer::Data)
    );
    // Inverse: the same decimation-in-time stages, then N^{-1}.
    let inv = Plan::try_new(512, 8, Direction::Inverse, Order::DigitReversed).unwrap();
    assert_eq!(inv.stages().len(), 4);
    assert_eq!(inv.stages()[3].kind, StageKind::Scale);
    assert_eq!(inv.counts().full_muls, plan.counts().full_muls + 512);

    // A single base case needs no scratch, twiddles or permutation; N = 1 nothing.
    let one = Plan::try_new(16, 8, Direction::Forward, Order::Natural).unwrap();
    assert_eq!(one.stages().len(), 1);
    assert_eq!(one.scratch_len(), 0);
    assert_eq!(one.twiddle_table_len(), 0);
    assert!(
        Plan::try_new(1, 8, Direction::Inverse, Order::Natural)
            .unwrap()
            .stages()
            .is_empty()
    );

    // Mixed radix as the issue states it: k = 8, 2^20 = 16^5, 2^21 = 16^5·2, 8 = 8.
    let radices = |n| {
        Plan::try_new(n, 8, Direction::Forward, Order::Natural)
            .unwrap()
            .radices()
            .to_vec()
    };
    assert_eq!(radices(1 << 20), vec![16; 5]);
    assert_eq!(radices(1 << 21), vec![16, 16, 16, 16, 16, 2]);
    assert_eq!(radices(8), vec![8]);

    assert_eq!(
        Plan::try_new(24, 8, Direction::Forward, Order::Natural),
        Err(PlanError::SizeNotPowerOfTwo(24))
    );
    assert_eq!(
        Plan::try_new(16, 3, Direction::Forward, Order::Natural),
        Err(PlanError::InvalidBaseSize(6))
    );
    assert_eq!(
        Plan::try_new(16, 0, Direction::Forward, Order::Natural),
        Err(PlanError::InvalidBaseSize(0))
    );
    for max_radix in [0, 1, 12, 32] {
        assert_eq!(
            Plan::try_with_max_radix(16, 8, Direction::Forward, Order::Natural, max_radix),
            Err(PlanError::InvalidMaxRadix { max_radix, base: 16 })
        );
    }
}

/// The closed-form counts equal an enumeration of every twiddle.
#[test]
fn counts_match_enumeration() {
    for log2n in 0..=14 {
        let n = 1usize << log2n;
        for (k, max_radix) in [
            (1, 2),
            (2, 4),
            (4, 8),
            (8, 16),
            (16, 32),
            (64, 128),
            (128, 256),
            (64, 16),
            (128, 8),
        ] {
            for (direction, order) in ALL {
                let plan = Plan::try_with_max_radix(n, k, direction, order, max_radix).unwrap();
                let mut want = (0, 0, 0, 0);
                for stage in plan.stages() {
                    match stage.kind {
                        StageKind::Scale => want.2 += n,
                        StageKind::BaseDft(d) => {
                            let codelet = Codelet::new(d.radix);
                            want.0 += d.blocks * d.stride;
                            want.1 += d.blocks * d.stride * codelet.shifts();
                            if let Some(t) = d.twiddles {
                                for i in 0..d.radix {
                                    for b in 0..d.stride {
                                        let e = i * b * t.step;
                                        assert!(e < n);
                                        let (q, m) = plan.split_exponent(e);
                                        assert!(q < 2 * k && (m == 0 || m < plan.twiddle_table_len()));
                                        want.1 += d.blocks * usize::from(q != 0);
                                        want.2 += d.blocks * usize::from(m != 0);
                                    }
                                }
                            }
                        }
                    }
                    want.3 += n;
                }
                let c = plan.counts();
                assert_eq!(
                    (c.base_dfts, c.shifts, c.full_muls, c.reads),
                    want,
                    "N = {n}, k = {k}, {direction:?} {order:?}"
                );
                assert_eq!(c.reads, c.writes);
                let per_stage: usize = plan.stages().iter().map(|s| plan.stage_counts(s).shifts).sum();
                assert_eq!(per_stage, c.shifts);
            }
        }
    }
}

#[test]
fn codelets_compute_dft_k() {
    let t = WordTower;
    for radix in CODELET_RADICES {
        let x: Vec<Word> = pseudo_random(radix, radix as u64)
            .into_iter()
            .map(|v| Word(v % Q))
            .collect();
        let twiddles: Vec<Word> = pseudo_random(radix, 99).into_iter().map(|v| Word(v % Q)).collect();
        for inverse in [false, true] {
            let rho = if inverse {
                pow(t.root(radix), radix - 1)
            } else {
                t.root(radix)
            };
            let powers: Vec<Word> = (0..radix)
                .scan(Word(1), |acc, _| Some(std::mem::replace(acc, *acc * rho)))
                .collect();
            let naive = |v: &[Word]| -> Vec<Word> {
                (0..radix)
                    .map(|i| (0..radix).fold(Word(0), |acc, j| acc + v[j] * powers[i * j % radix]))
                    .collect()
            };
            for variant in [CodeletTwiddles::None, CodeletTwiddles::Inputs, CodeletTwiddles::Outputs] {
                let c = Codelet::with_twiddles(radix, variant);
                let mut got = x.clone();
                c.run(
                    &mut got,
                    |a, b| *a + *b,
                    |a, b| *a - *b,
                    |a, j| {
                        assert!(j > 0 && j < radix, "trivial or out-of-range root power {j}");
                        *a * powers[j]
                    },
                    |a, slot| *a * twiddles[slot],
                );
                let want = match variant {
                    CodeletTwiddles::None => naive(&x),
                    CodeletTwiddles::Inputs => {
                        let pre: Vec<Word> = (0..radix)
                            .map(|i| if i == 0 { x[0] } else { x[i] * twiddles[i] })
                            .collect();
                        naive(&pre)
                    }
                    CodeletTwiddles::Outputs => naive(&x)
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| if i == 0 { v } else { v * twiddles[i] })
                        .collect(),
                };
                assert_eq!(got, want, "K = {radix}, {variant:?}, inverse {inverse}");
            }
        }
    }
}

/// Shift counts: K/2·log2 K − K + 1, against BPAS's hand-unrolled base cases
/// (ISSAC 2019 / DESIGN §3): equal for K = 16, 128, 256, fewer for 32 and 64.
#[test]
fn codelet_operation_counts() {
    let bpas = [(16, 17), (32, 66), (64, 195), (128, 321), (256, 769)];
    for radix in CODELET_RADICES {
        let c = Codelet::new(radix);
        let log = radix.trailing_zeros() as usize;
        assert_eq!(c.butterflies(), radix / 2 * log);
        assert_eq!(c.shifts(), radix / 2 * log + 1 - radix);
        // Bit reversal as disjoint swaps: (K − palindromes)/2.
        let palindromes = 1usize << log.div_ceil(2);
        assert_eq!(c.swaps(), (radix - palindromes) / 2);
        if let Some(&(_, theirs)) = bpas.iter().find(|(k, _)| *k == radix) {
            assert!(c.shifts() <= theirs, "K = {radix}: {} > BPAS {theirs}", c.shifts());
        }
        // Every swap pair is disjoint from the others.
        let mut seen = vec![false; radix];
        for op in c.ops() {
            if let CodeletOp::Swap { a, b } = *op {
                assert!(!seen[a] && !seen[b]);
                seen[a] = true;
                seen[b] = true;
            }
        }
    }
    assert_eq!(Codelet::new(8).shifts(), 5); // ISSAC Algorithm 3
    assert_eq!(Codelet::new(8).swaps(), 2);
    assert_eq!(Codelet::new(32).shifts(), 49);
    assert_eq!(Codelet::new(64).shifts(), 129);
}

fn pow(x: Word, e: usize) -> Word {
    (0..e).fold(Word(1), |acc, _| acc * x)
}
