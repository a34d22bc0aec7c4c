//! The checks of the shared executor suite, generic over the executor and the
//! field; [`crate::executor_suite!`] instantiates them per preset.

use gfpf_executor::{ExecutorError, Transform, TransformError};
use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order};
use rand::{SeedableRng, rngs::StdRng};

use crate::Executor;
use crate::oracle::{self, sample};

/// Largest N checked against the naive O(N²) DFT.
pub const NAIVE_MAX_LOG2: u32 = 9;
/// Largest N checked against the rug radix-2 FFT.
pub const RUG_FFT_MAX_LOG2: u32 = 14;
/// Largest N of the round-trip checks.
pub const ROUND_TRIP_MAX_LOG2: u32 = 12;

fn skip<E: Executor>() -> bool {
    match E::unavailable() {
        Some(why) => {
            eprintln!("SKIPPED ({}): {why}", E::NAME);
            true
        }
        None => false,
    }
}

fn plan<E: Executor, const K: usize>(field: &Field<K>, n: usize, direction: Direction, order: Order) -> E::Fft<K> {
    let fft = E::plan(field, n, direction, order)
        .unwrap_or_else(|e| panic!("{}: N = {n}, {direction:?} {order:?}: {e}", E::NAME));
    assert_eq!(
        (fft.len(), fft.direction(), fft.order()),
        (n, direction, order),
        "{}: the transform describes itself",
        E::NAME
    );
    fft
}

fn run<E: Executor, const K: usize>(
    field: &Field<K>,
    direction: Direction,
    order: Order,
    x: &[Element<K>],
    n: usize,
) -> Vec<Element<K>> {
    let mut data = x.to_vec();
    plan::<E, K>(field, n, direction, order)
        .process(&mut data)
        .unwrap_or_else(|e| panic!("{}: N = {n}, {direction:?} {order:?}: {e}", E::NAME));
    data
}

/// The shared part of a failed call's error ([`TransformError`]), or a panic
/// naming what should have failed.
fn refusal<T, E: ExecutorError>(result: Result<T, E>, what: &str) -> TransformError {
    match result {
        Ok(_) => panic!("{what}: accepted"),
        Err(e) => e
            .common()
            .cloned()
            .unwrap_or_else(|| panic!("{what}: not a shared refusal but {e}")),
    }
}

/// v[P(ℓ)] at position ℓ: natural order → the digit-reversed order of the
/// executor's plan of size v.len() (its radices, which may differ from
/// another executor's: the device's plans for k ≥ 32 use smaller ones).
fn digit_reversed<E: Executor, const K: usize>(field: &Field<K>, v: &[Element<K>]) -> Vec<Element<K>> {
    let fft = plan::<E, K>(field, v.len(), Direction::Forward, Order::DigitReversed);
    let plan = fft.prepared().plan();
    (0..v.len()).map(|l| v[plan.digit_reverse(l)]).collect()
}

fn max_log2<E: Executor, const K: usize>(field: &Field<K>, want: u32) -> u32 {
    want.min(field.two_adicity()).min(E::max_log2(K))
}

/// Every known-answer file of the preset, in all four (direction, order)s.
pub fn known_answers<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for ka in crate::known::known_answers(field).unwrap_or_else(|e| panic!("{e}")) {
        let n = ka.n;
        let what = format!("{} on {}", E::NAME, ka.name);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::Natural, &ka.input, n),
            ka.output,
            "{what}"
        );
        let reversed = digit_reversed::<E, K>(field, &ka.output);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::DigitReversed, &ka.input, n),
            reversed,
            "{what}, digit-reversed"
        );
        assert_eq!(
            run::<E, K>(field, Direction::Inverse, Order::Natural, &ka.output, n),
            ka.input,
            "{what}, inverse"
        );
        assert_eq!(
            run::<E, K>(field, Direction::Inverse, Order::DigitReversed, &reversed, n),
            ka.input,
            "{what}, inverse from digit-reversed"
        );
    }
}

/// Forward and inverse against the O(N²) definition, N = 1 … 2^9.
pub fn naive_dft<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for log2 in 0..=max_log2::<E, K>(field, NAIVE_MAX_LOG2) {
        let n = 1 << log2;
        let x = sample(field, n, 100 + log2 as u64);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::Natural, &x, n),
            oracle::naive_dft(field, &x, false),
            "{}: forward N = {n}",
            E::NAME
        );
        assert_eq!(
            run::<E, K>(field, Direction::Inverse, Order::Natural, &x, n),
            oracle::naive_dft(field, &x, true),
            "{}: inverse N = {n}",
            E::NAME
        );
    }
}

/// Forward against a radix-2 FFT on rug integers, N up to 2^14.
pub fn rug_radix2_fft<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let top = max_log2::<E, K>(field, RUG_FFT_MAX_LOG2);
    // Every size up to 2^8 (each stage structure of the small plans), then
    // the mixed-radix and the largest sizes.
    let mut sizes: Vec<u32> = (0..=top.min(8))
        .chain([11, top].into_iter().filter(|&s| s > 8 && s <= top))
        .collect();
    sizes.dedup();
    for log2 in sizes {
        let n = 1 << log2;
        let x = sample(field, n, 200 + log2 as u64);
        let want = oracle::rug_radix2_fft(field, &x);
        assert_eq!(
            run::<E, K>(field, Direction::Forward, Order::Natural, &x, n),
            want,
            "{}: N = {n}",
            E::NAME
        );
        if log2 == top {
            assert_eq!(
                run::<E, K>(field, Direction::Forward, Order::DigitReversed, &x, n),
                digit_reversed::<E, K>(field, &want),
                "{}: digit-reversed N = {n}",
                E::NAME
            );
        }
    }
}

/// inverse(forward(x)) = x in both orders.
pub fn inverse_undoes_forward<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for log2 in 0..=max_log2::<E, K>(field, ROUND_TRIP_MAX_LOG2) {
        let n = 1 << log2;
        let x = sample(field, n, 300 + log2 as u64);
        for order in [Order::Natural, Order::DigitReversed] {
            let y = run::<E, K>(field, Direction::Forward, order, &x, n);
            assert_eq!(
                run::<E, K>(field, Direction::Inverse, order, &y, n),
                x,
                "{}: N = {n}, {order:?}",
                E::NAME
            );
        }
    }
}

/// inverse(forward(a) · forward(b)) is the cyclic convolution of a and b,
/// through digit-reversed order (what polynomial products use) and natural.
pub fn convolution_theorem<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    for log2 in [0, 3, 6] {
        let n = 1 << log2;
        let a = sample(field, n, 400);
        let b = sample(field, n, 401);
        let want = oracle::cyclic_convolution(field, &a, &b);
        for order in [Order::Natural, Order::DigitReversed] {
            let fa = run::<E, K>(field, Direction::Forward, order, &a, n);
            let fb = run::<E, K>(field, Direction::Forward, order, &b, n);
            let prod: Vec<Element<K>> = fa.iter().zip(&fb).map(|(u, v)| field.mul(u, v)).collect();
            assert_eq!(
                run::<E, K>(field, Direction::Inverse, order, &prod, n),
                want,
                "{}: N = {n}, {order:?}",
                E::NAME
            );
        }
    }
}

/// F(αx + y) = αF(x) + F(y).
pub fn linearity<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let n = 1 << max_log2::<E, K>(field, 8);
    let x = sample(field, n, 500);
    let y = sample(field, n, 501);
    let alpha = field.random(&mut StdRng::seed_from_u64(502));
    let combo: Vec<Element<K>> = x
        .iter()
        .zip(&y)
        .map(|(u, v)| field.add(&field.mul(&alpha, u), v))
        .collect();
    for direction in [Direction::Forward, Direction::Inverse] {
        let fx = run::<E, K>(field, direction, Order::Natural, &x, n);
        let fy = run::<E, K>(field, direction, Order::Natural, &y, n);
        let want: Vec<Element<K>> = fx
            .iter()
            .zip(&fy)
            .map(|(u, v)| field.add(&field.mul(&alpha, u), v))
            .collect();
        assert_eq!(
            run::<E, K>(field, direction, Order::Natural, &combo, n),
            want,
            "{}: {direction:?}",
            E::NAME
        );
    }
}

/// A batch of three equals three single transforms, with a scratch buffer
/// full of garbage: of exactly the length needed in natural order, longer
/// in digit-reversed order (each length in both directions, at every N).
pub fn batches_and_dirty_scratch<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(600);
    for log2 in [0, 1, 5, max_log2::<E, K>(field, 10)] {
        let n = 1 << log2;
        for (direction, order, extra) in [
            (Direction::Forward, Order::Natural, 0),
            (Direction::Forward, Order::DigitReversed, 5),
            (Direction::Inverse, Order::Natural, 0),
            (Direction::Inverse, Order::DigitReversed, 5),
        ] {
            let items: Vec<Vec<Element<K>>> = (0..3).map(|i| sample(field, n, 610 + i)).collect();
            let want: Vec<Element<K>> = items
                .iter()
                .flat_map(|x| run::<E, K>(field, direction, order, x, n))
                .collect();
            let fft = plan::<E, K>(field, n, direction, order);
            let need = fft.scratch_len();
            let mut data: Vec<Element<K>> = items.concat();
            let mut scratch: Vec<Element<K>> = (0..need + extra).map(|_| field.random(&mut rng)).collect();
            fft.process_with_scratch(&mut data, &mut scratch)
                .unwrap_or_else(|e| panic!("{}: batch N = {n}: {e}", E::NAME));
            assert_eq!(
                data,
                want,
                "{}: batch N = {n}, {direction:?} {order:?}, scratch {need} + {extra}",
                E::NAME
            );
        }
    }
}

/// Lengths that are not a multiple of N, N not a power of two, N above the
/// 2-adicity or beyond memory, short scratch: errors, data untouched.
pub fn bad_lengths_are_errors<E: Executor, const K: usize>(field: &Field<K>) {
    if skip::<E>() {
        return;
    }
    let f = Direction::Forward;
    let nat = Order::Natural;
    let x = sample(field, 24, 700);
    let mut data = x.clone();
    let fft16 = plan::<E, K>(field, 16, f, nat);
    assert_eq!(
        refusal(fft16.process(&mut data), "24 elements, N = 16"),
        TransformError::LengthNotMultiple { len: 24, n: 16 }
    );
    assert_eq!(data, x, "data changed by a failed call");
    assert!(matches!(
        refusal(E::plan(field, 12, f, nat), "N = 12"),
        TransformError::Plan(_)
    ));
    assert!(matches!(
        refusal(E::plan(field, 0, f, nat), "N = 0"),
        TransformError::Plan(_)
    ));
    let v = field.two_adicity();
    if v < 62 {
        assert_eq!(
            refusal(E::plan(field, 1 << (v + 1), f, nat), "N above the 2-adicity"),
            TransformError::AboveTwoAdicity {
                n: 1 << (v + 1),
                two_adicity: v
            }
        );
    }
    // Beyond memory (or, for a small 2-adicity, beyond the roots of unity).
    assert!(matches!(
        refusal(E::plan(field, 1 << 62, f, nat), "N = 2^62"),
        TransformError::TooLarge { .. } | TransformError::OutOfMemory { .. } | TransformError::AboveTwoAdicity { .. }
    ));
    // An empty batch is zero transforms.
    assert!(fft16.process(&mut []).is_ok());
    let need = fft16.scratch_len();
    if need > 0 {
        let mut data = x[..16].to_vec();
        let mut scratch = vec![field.zero(); need - 1];
        assert_eq!(
            refusal(fft16.process_with_scratch(&mut data, &mut scratch), "short scratch"),
            TransformError::ScratchTooShort {
                len: need - 1,
                needed: need
            }
        );
        assert_eq!(data, x[..16].to_vec());
    }
}
