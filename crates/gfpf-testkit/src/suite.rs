//! The checks of the shared executor suite, generic over the executor and the
//! field; [`crate::executor_suite!`] instantiates them per preset. Each check
//! runs on a `Subject`, the executor behind a trait object, so that its code
//! is instantiated per field alone, not per executor and field (the CPU
//! tests' ten executors on up to fourteen presets built in 87.7 s of CPU so,
//! 76.6 s this way; the emulator's tests 51.8 and 47.6 s; project VM,
//! 2026-11-27).

use gfpf_executor::{ExecutorError, PreparedFft, Transform, TransformError};
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

/// A failed call of the executor under test: its message, and the refusal
/// every executor shares where it is one.
#[derive(Debug)]
pub struct SuiteError {
    message: String,
    common: Option<TransformError>,
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SuiteError {}

impl From<TransformError> for SuiteError {
    fn from(e: TransformError) -> Self {
        SuiteError {
            message: e.to_string(),
            common: Some(e),
        }
    }
}

impl ExecutorError for SuiteError {
    fn common(&self) -> Option<&TransformError> {
        self.common.as_ref()
    }
}

fn erase<E: ExecutorError>(e: E) -> SuiteError {
    SuiteError {
        message: e.to_string(),
        common: e.common().cloned(),
    }
}

/// An executor's transform with its error made a [`SuiteError`]; every
/// method goes to the executor's own.
struct Erased<T>(T);

impl<const K: usize, T: Transform<K>> Transform<K> for Erased<T> {
    type Error = SuiteError;

    fn prepared(&self) -> &PreparedFft<K> {
        self.0.prepared()
    }

    fn scratch_len(&self) -> usize {
        self.0.scratch_len()
    }

    fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), SuiteError> {
        self.0.process_with_scratch(data, scratch).map_err(erase)
    }

    fn process(&self, data: &mut [Element<K>]) -> Result<(), SuiteError> {
        self.0.process(data).map_err(erase)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn direction(&self) -> Direction {
        self.0.direction()
    }

    fn order(&self) -> Order {
        self.0.order()
    }
}

/// A transform of the executor under test.
type SubjectFft<const K: usize> = Box<dyn Transform<K, Error = SuiteError>>;

/// The executor under test on one field, as the checks take it.
struct Subject<'f, const K: usize> {
    name: &'static str,
    field: &'f Field<K>,
    /// `Executor::max_log2(K)`.
    max_log2: u32,
    /// `Executor::plan`, its transform and error erased.
    plan: fn(&Field<K>, usize, Direction, Order) -> Result<SubjectFft<K>, SuiteError>,
}

fn plan_erased<E: Executor, const K: usize>(
    field: &Field<K>,
    n: usize,
    direction: Direction,
    order: Order,
) -> Result<SubjectFft<K>, SuiteError> {
    match E::plan(field, n, direction, order) {
        Ok(fft) => Ok(Box::new(Erased(fft))),
        Err(e) => Err(erase(e)),
    }
}

/// The executor on `field`, or `None` (the reason printed) where it cannot
/// run on this machine.
fn subject<E: Executor, const K: usize>(field: &Field<K>) -> Option<Subject<'_, K>> {
    if let Some(why) = E::unavailable() {
        eprintln!("SKIPPED ({}): {why}", E::NAME);
        return None;
    }
    Some(Subject {
        name: E::NAME,
        field,
        max_log2: E::max_log2(K),
        plan: plan_erased::<E, K>,
    })
}

/// The shared part of a failed call's error ([`TransformError`]), or a panic
/// naming what should have failed.
fn refusal<T>(result: Result<T, SuiteError>, what: &str) -> TransformError {
    match result {
        Ok(_) => panic!("{what}: accepted"),
        Err(e) => e
            .common
            .unwrap_or_else(|| panic!("{what}: not a shared refusal but {}", e.message)),
    }
}

impl<const K: usize> Subject<'_, K> {
    fn plan(&self, n: usize, direction: Direction, order: Order) -> SubjectFft<K> {
        let fft = (self.plan)(self.field, n, direction, order)
            .unwrap_or_else(|e| panic!("{}: N = {n}, {direction:?} {order:?}: {e}", self.name));
        assert_eq!(
            (fft.len(), fft.direction(), fft.order()),
            (n, direction, order),
            "{}: the transform describes itself",
            self.name
        );
        fft
    }

    fn run(&self, direction: Direction, order: Order, x: &[Element<K>], n: usize) -> Vec<Element<K>> {
        let mut data = x.to_vec();
        self.plan(n, direction, order)
            .process(&mut data)
            .unwrap_or_else(|e| panic!("{}: N = {n}, {direction:?} {order:?}: {e}", self.name));
        data
    }

    /// v[P(ℓ)] at position ℓ: natural order → the digit-reversed order of
    /// the executor's plan of size v.len() (its radices, which may differ
    /// from another executor's: the device's plans for k ≥ 32 use smaller
    /// ones).
    fn digit_reversed(&self, v: &[Element<K>]) -> Vec<Element<K>> {
        let fft = self.plan(v.len(), Direction::Forward, Order::DigitReversed);
        let plan = fft.prepared().plan();
        (0..v.len()).map(|l| v[plan.digit_reverse(l)]).collect()
    }

    fn max_log2(&self, want: u32) -> u32 {
        want.min(self.field.two_adicity()).min(self.max_log2)
    }

    /// Every known-answer file of the preset, in all four (direction, order)s.
    fn known_answers(&self) {
        let field = self.field;
        for ka in crate::known::known_answers(field).unwrap_or_else(|e| panic!("{e}")) {
            let n = ka.n;
            let what = format!("{} on {}", self.name, ka.name);
            assert_eq!(
                self.run(Direction::Forward, Order::Natural, &ka.input, n),
                ka.output,
                "{what}"
            );
            let reversed = self.digit_reversed(&ka.output);
            assert_eq!(
                self.run(Direction::Forward, Order::DigitReversed, &ka.input, n),
                reversed,
                "{what}, digit-reversed"
            );
            assert_eq!(
                self.run(Direction::Inverse, Order::Natural, &ka.output, n),
                ka.input,
                "{what}, inverse"
            );
            assert_eq!(
                self.run(Direction::Inverse, Order::DigitReversed, &reversed, n),
                ka.input,
                "{what}, inverse from digit-reversed"
            );
        }
    }

    /// Forward and inverse against the O(N²) definition, N = 1 … 2^9.
    fn naive_dft(&self) {
        let field = self.field;
        for log2 in 0..=self.max_log2(NAIVE_MAX_LOG2) {
            let n = 1 << log2;
            let x = sample(field, n, 100 + log2 as u64);
            assert_eq!(
                self.run(Direction::Forward, Order::Natural, &x, n),
                oracle::naive_dft(field, &x, false),
                "{}: forward N = {n}",
                self.name
            );
            assert_eq!(
                self.run(Direction::Inverse, Order::Natural, &x, n),
                oracle::naive_dft(field, &x, true),
                "{}: inverse N = {n}",
                self.name
            );
        }
    }

    /// Forward against a radix-2 FFT on rug integers, N up to 2^14.
    fn rug_radix2_fft(&self) {
        let field = self.field;
        let top = self.max_log2(RUG_FFT_MAX_LOG2);
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
                self.run(Direction::Forward, Order::Natural, &x, n),
                want,
                "{}: N = {n}",
                self.name
            );
            if log2 == top {
                assert_eq!(
                    self.run(Direction::Forward, Order::DigitReversed, &x, n),
                    self.digit_reversed(&want),
                    "{}: digit-reversed N = {n}",
                    self.name
                );
            }
        }
    }

    /// inverse(forward(x)) = x in both orders.
    fn inverse_undoes_forward(&self) {
        let field = self.field;
        for log2 in 0..=self.max_log2(ROUND_TRIP_MAX_LOG2) {
            let n = 1 << log2;
            let x = sample(field, n, 300 + log2 as u64);
            for order in [Order::Natural, Order::DigitReversed] {
                let y = self.run(Direction::Forward, order, &x, n);
                assert_eq!(
                    self.run(Direction::Inverse, order, &y, n),
                    x,
                    "{}: N = {n}, {order:?}",
                    self.name
                );
            }
        }
    }

    /// inverse(forward(a) · forward(b)) is the cyclic convolution of a and b,
    /// through digit-reversed order (what polynomial products use) and natural.
    fn convolution_theorem(&self) {
        let field = self.field;
        for log2 in [0, 3, 6] {
            let n = 1 << log2;
            let a = sample(field, n, 400);
            let b = sample(field, n, 401);
            let want = oracle::cyclic_convolution(field, &a, &b);
            for order in [Order::Natural, Order::DigitReversed] {
                let fa = self.run(Direction::Forward, order, &a, n);
                let fb = self.run(Direction::Forward, order, &b, n);
                let prod: Vec<Element<K>> = fa.iter().zip(&fb).map(|(u, v)| field.mul(u, v)).collect();
                assert_eq!(
                    self.run(Direction::Inverse, order, &prod, n),
                    want,
                    "{}: N = {n}, {order:?}",
                    self.name
                );
            }
        }
    }

    /// F(αx + y) = αF(x) + F(y).
    fn linearity(&self) {
        let field = self.field;
        let n = 1 << self.max_log2(8);
        let x = sample(field, n, 500);
        let y = sample(field, n, 501);
        let alpha = field.random(&mut StdRng::seed_from_u64(502));
        let combo: Vec<Element<K>> = x
            .iter()
            .zip(&y)
            .map(|(u, v)| field.add(&field.mul(&alpha, u), v))
            .collect();
        for direction in [Direction::Forward, Direction::Inverse] {
            let fx = self.run(direction, Order::Natural, &x, n);
            let fy = self.run(direction, Order::Natural, &y, n);
            let want: Vec<Element<K>> = fx
                .iter()
                .zip(&fy)
                .map(|(u, v)| field.add(&field.mul(&alpha, u), v))
                .collect();
            assert_eq!(
                self.run(direction, Order::Natural, &combo, n),
                want,
                "{}: {direction:?}",
                self.name
            );
        }
    }

    /// A batch of three equals three single transforms, with a scratch buffer
    /// full of garbage: of exactly the length needed in natural order, longer
    /// in digit-reversed order (each length in both directions, at every N).
    fn batches_and_dirty_scratch(&self) {
        let field = self.field;
        let mut rng = StdRng::seed_from_u64(600);
        for log2 in [0, 1, 5, self.max_log2(10)] {
            let n = 1 << log2;
            for (direction, order, extra) in [
                (Direction::Forward, Order::Natural, 0),
                (Direction::Forward, Order::DigitReversed, 5),
                (Direction::Inverse, Order::Natural, 0),
                (Direction::Inverse, Order::DigitReversed, 5),
            ] {
                let items: Vec<Vec<Element<K>>> = (0..3).map(|i| sample(field, n, 610 + i)).collect();
                let want: Vec<Element<K>> = items.iter().flat_map(|x| self.run(direction, order, x, n)).collect();
                let fft = self.plan(n, direction, order);
                let need = fft.scratch_len();
                let mut data: Vec<Element<K>> = items.concat();
                let mut scratch: Vec<Element<K>> = (0..need + extra).map(|_| field.random(&mut rng)).collect();
                fft.process_with_scratch(&mut data, &mut scratch)
                    .unwrap_or_else(|e| panic!("{}: batch N = {n}: {e}", self.name));
                assert_eq!(
                    data, want,
                    "{}: batch N = {n}, {direction:?} {order:?}, scratch {need} + {extra}",
                    self.name
                );
            }
        }
    }

    /// Lengths that are not a multiple of N, N not a power of two, N above the
    /// 2-adicity or beyond memory, short scratch: errors, data untouched.
    fn bad_lengths_are_errors(&self) {
        let field = self.field;
        let f = Direction::Forward;
        let nat = Order::Natural;
        let x = sample(field, 24, 700);
        let mut data = x.clone();
        let fft16 = self.plan(16, f, nat);
        assert_eq!(
            refusal(fft16.process(&mut data), "24 elements, N = 16"),
            TransformError::LengthNotMultiple { len: 24, n: 16 }
        );
        assert_eq!(data, x, "data changed by a failed call");
        assert!(matches!(
            refusal((self.plan)(field, 12, f, nat), "N = 12"),
            TransformError::Plan(_)
        ));
        assert!(matches!(
            refusal((self.plan)(field, 0, f, nat), "N = 0"),
            TransformError::Plan(_)
        ));
        let v = field.two_adicity();
        if v < 62 {
            assert_eq!(
                refusal((self.plan)(field, 1 << (v + 1), f, nat), "N above the 2-adicity"),
                TransformError::AboveTwoAdicity {
                    n: 1 << (v + 1),
                    two_adicity: v
                }
            );
        }
        // Beyond memory (or, for a small 2-adicity, beyond the roots of unity).
        assert!(matches!(
            refusal((self.plan)(field, 1 << 62, f, nat), "N = 2^62"),
            TransformError::TooLarge { .. }
                | TransformError::OutOfMemory { .. }
                | TransformError::AboveTwoAdicity { .. }
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
}

/// Every known-answer file of the preset, in all four (direction, order)s.
pub fn known_answers<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.known_answers();
    }
}

/// Forward and inverse against the O(N²) definition, N = 1 … 2^9.
pub fn naive_dft<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.naive_dft();
    }
}

/// Forward against a radix-2 FFT on rug integers, N up to 2^14.
pub fn rug_radix2_fft<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.rug_radix2_fft();
    }
}

/// inverse(forward(x)) = x in both orders.
pub fn inverse_undoes_forward<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.inverse_undoes_forward();
    }
}

/// inverse(forward(a) · forward(b)) is the cyclic convolution of a and b,
/// through digit-reversed order (what polynomial products use) and natural.
pub fn convolution_theorem<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.convolution_theorem();
    }
}

/// F(αx + y) = αF(x) + F(y).
pub fn linearity<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.linearity();
    }
}

/// A batch of three equals three single transforms, with a scratch buffer
/// full of garbage: of exactly the length needed in natural order, longer
/// in digit-reversed order (each length in both directions, at every N).
pub fn batches_and_dirty_scratch<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.batches_and_dirty_scratch();
    }
}

/// Lengths that are not a multiple of N, N not a power of two, N above the
/// 2-adicity or beyond memory, short scratch: errors, data untouched.
pub fn bad_lengths_are_errors<E: Executor, const K: usize>(field: &Field<K>) {
    if let Some(subject) = subject::<E, K>(field) {
        subject.bad_lengths_are_errors();
    }
}
