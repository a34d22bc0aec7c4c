//! Polynomial multiplication over GF(p) on the CPU: schoolbook for short
//! operands, otherwise the truncated Fourier transform (van der Hoeven's
//! TFT/ITFT) whose blocks are this crate's power-of-two FFTs.
//!
//! **The TFT used here.** For S = 2^s ≥ n, the TFT of x (zero-padded to S)
//! is the first n values of DFT_S(x) in the radix-2 *decimation order*: the
//! S/2 values at the even powers ω_S^{2i} (= DFT_{S/2}(lo + hi)) come first,
//! then, recursively, the values at the odd powers (= DFT_{S/2}((lo − hi)·ω_S^t)).
//! Recursion stops on a block that is wanted whole, which is one FFT of
//! [`CpuFft`] in digit-reversed order. A product of length L therefore costs
//! FFTs of the sizes in L's binary expansion plus O(S) linear work, rising
//! smoothly with L instead of doubling after each power of two.
//!
//! **The ITFT** recovers x[0..n] from those n values and the known x[n..S]
//! (zero at the top), going down the same recursion: on a level whose first
//! half is wanted whole, one inverse FFT gives lo + hi; the odd half's unknowns
//! are found recursively, then (lo, hi) = ((U + W)/2, (U − W)/2) with
//! W = V·ω_S^{−t}. It preserves the known tail, which the level above uses.

use std::sync::{Arc, OnceLock};

use gfpf_executor::{TransformError, TwiddleLayout, check_fits};
use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order};
use rayon::prelude::*;

use crate::cache::get_or_try_publish;
use crate::executor::twiddle_table;
use crate::runner::{PARALLEL_MIN_WORDS, TASK_MIN_WORDS, Threading};
use crate::{CpuError, CpuFft, MultiModular};

/// The shorter operand's length up to which [`MulAlgorithm::Auto`] keeps
/// schoolbook rather than [`MulAlgorithm::MultiModular`] for a field of K
/// digits: 64/K, between 2 and 8. Measured (one thread, the project's 2-core
/// VM, AMD EPYC with AVX-512 IFMA, 2026-11-23, n × n, multi-modular against
/// schoolbook): t8 n = 4: 8 against 8 µs, n = 8: 17 against 17 µs, n = 16:
/// 21 against 36 µs; p8 n = 8: 19 against 12 µs, n = 16: 21 against 23 µs;
/// t16 n = 4: 16 against 18 µs, n = 8: 35 against 37 µs; t64 n = 2: 50
/// against 45 µs, n = 4: 58 against 125 µs.
pub const fn auto_schoolbook_max_len(k: usize) -> usize {
    let by_size = 64 / if k == 0 { 1 } else { k };
    if by_size < 2 {
        2
    } else if by_size > 8 {
        8
    } else {
        by_size
    }
}

/// How a product is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MulAlgorithm {
    /// The fastest measured engine (the default): schoolbook when the shorter
    /// operand has at most [`auto_schoolbook_max_len`] coefficients,
    /// otherwise multi-modular, which beat the TFT at every measured size
    /// (one thread, alternating, medians; the project's 2-core AMD EPYC VM
    /// with AVX-512 IFMA, 2026-11-24): t8 n = 2^4 / 2^8 / 2^12 / 2^14:
    /// 0.013 / 0.075 / 1.31 / 6.31 ms against the TFT's 0.027 / 0.43 / 7.35
    /// / 32.8 ms; p8 2^12 1.21 against 5.14 ms, t16 2^12 2.88 against 17.5,
    /// t64 2^10 3.76 against 35.4, t128 and p128 2^8 1.87 and 1.78 against
    /// 26.2 and 20.0 (2x to 14x); the TFT only beyond
    /// [`crate::MULTIMODULAR_MAX_LEN`], and schoolbook beyond the field's
    /// 2-adicity too.
    #[default]
    Auto,
    /// O(la·lb) schoolbook, whatever the lengths.
    Schoolbook,
    /// Truncated Fourier transforms over GF(p) itself (the big-prime FFT),
    /// whatever the lengths.
    Tft,
    /// Word-size primes and CRT ([`crate::MultiModular`]), whatever the
    /// lengths (up to [`crate::MULTIMODULAR_MAX_LEN`]).
    MultiModular,
}

impl MulAlgorithm {
    /// What `Auto` resolves to for a product of length `len` whose shorter
    /// operand has `shorter` coefficients, in a field of K digits whose
    /// TFT reaches lengths up to `max_tft_len`.
    pub fn resolve(self, k: usize, shorter: usize, len: usize, max_tft_len: usize) -> MulAlgorithm {
        match self {
            MulAlgorithm::Auto if shorter <= auto_schoolbook_max_len(k) => MulAlgorithm::Schoolbook,
            MulAlgorithm::Auto if len <= crate::MULTIMODULAR_MAX_LEN => MulAlgorithm::MultiModular,
            MulAlgorithm::Auto if len <= max_tft_len => MulAlgorithm::Tft,
            MulAlgorithm::Auto => MulAlgorithm::Schoolbook,
            other => other,
        }
    }
}

/// The FFTs and twiddle vectors of one TFT level of size S = 2^s.
struct Level<const K: usize> {
    /// DFT_S, natural order in, digit-reversed out (in place, no scratch).
    forward: CpuFft<K>,
    /// Inverse of `forward`: digit-reversed in, natural out, scaled by 1/S.
    inverse: CpuFft<K>,
}

/// ω_S^t and ω_S^{−t}/2 for t < S/2: the butterflies joining two halves.
struct Twists<const K: usize> {
    forward: Vec<Element<K>>,
    inverse_half: Vec<Element<K>>,
}

/// Polynomial products over one field: plans and twiddle vectors for every
/// size are built on first use and kept (thread-safe), so repeated products
/// of similar lengths only compute.
pub struct PolyMul<const K: usize> {
    field: Field<K>,
    threading: Threading,
    half: Element<K>,
    /// Built on first use outside the cells (see `crate::cache`: building
    /// runs parallel code, which must not hold a lock).
    levels: Vec<OnceLock<Arc<Level<K>>>>,
    twists: Vec<OnceLock<Arc<Twists<K>>>>,
    multimodular: MultiModular<K>,
}

impl<const K: usize> std::fmt::Debug for PolyMul<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolyMul")
            .field("field", &self.field.name().unwrap_or("custom"))
            .field("threading", &self.threading)
            .finish_non_exhaustive()
    }
}

impl<const K: usize> PolyMul<K> {
    /// Products over `field`; nothing is planned until a size is used.
    pub fn new(field: &Field<K>) -> Result<Self, CpuError> {
        let v = field.two_adicity().min(usize::BITS - 1) as usize;
        let half = field.inverse(&field.from_u64(2))?;
        Ok(PolyMul {
            field: field.clone(),
            threading: Threading::default(),
            half,
            levels: (0..=v).map(|_| OnceLock::new()).collect(),
            twists: (0..=v).map(|_| OnceLock::new()).collect(),
            multimodular: MultiModular::new(field),
        })
    }

    /// The same with the given threading (cached plans are kept).
    pub fn with_threading(mut self, threading: Threading) -> Self {
        self.threading = threading;
        self.multimodular = self.multimodular.with_threading(threading);
        for level in self.levels.iter_mut() {
            if let Some(l) = level.get_mut() {
                *l = Arc::new(Level {
                    forward: l.forward.clone().with_threading(threading),
                    inverse: l.inverse.clone().with_threading(threading),
                });
            }
        }
        self
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        &self.field
    }

    /// The threading mode.
    pub fn threading(&self) -> Threading {
        self.threading
    }

    /// The longest product (la + lb − 1) this field supports: 2^v.
    pub fn max_product_len(&self) -> usize {
        1usize << (self.levels.len() - 1)
    }

    /// The product of two coefficient vectors (lowest degree first): la + lb − 1
    /// coefficients, or none if either is empty. Inputs must be canonical
    /// elements of this field (as the field's constructors make them).
    pub fn mul(
        &self,
        a: &[Element<K>],
        b: &[Element<K>],
        algorithm: MulAlgorithm,
    ) -> Result<Vec<Element<K>>, CpuError> {
        if a.is_empty() || b.is_empty() {
            return Ok(Vec::new());
        }
        let len = a.len() + b.len() - 1;
        match algorithm.resolve(K, a.len().min(b.len()), len, self.max_product_len()) {
            MulAlgorithm::MultiModular => return self.multimodular.mul(a, b),
            MulAlgorithm::Schoolbook => {
                check_fits::<K>(len, len as u128, "product length")?;
                return Ok(self.schoolbook(a, b));
            }
            _ => {}
        }
        let s = self.size_for(len)?;
        // Both operands' buffers, refused at once when they cannot fit.
        check_fits::<K>(s, 2 * s as u128, "TFT size")?;
        let (mut fa, mut fb) = (self.padded(a, s)?, self.padded(b, s)?);
        let (ra, rb) = self.join(
            || self.truncated_forward(&mut fa, a.len(), len),
            || self.truncated_forward(&mut fb, b.len(), len),
        );
        ra?;
        rb?;
        self.for_each_pair(&mut fa[..len], &fb[..len], |x, y| *x = self.field.mul(x, y));
        fa[len..].fill(Element::ZERO);
        self.truncated_inverse(&mut fa, len)?;
        fa.truncate(len);
        Ok(fa)
    }

    /// The square of a coefficient vector: 2·la − 1 coefficients.
    pub fn square(&self, a: &[Element<K>], algorithm: MulAlgorithm) -> Result<Vec<Element<K>>, CpuError> {
        if a.is_empty() {
            return Ok(Vec::new());
        }
        let len = 2 * a.len() - 1;
        match algorithm.resolve(K, a.len(), len, self.max_product_len()) {
            MulAlgorithm::MultiModular => return self.multimodular.square(a),
            MulAlgorithm::Schoolbook => {
                check_fits::<K>(len, len as u128, "product length")?;
                return Ok(self.schoolbook_square(a));
            }
            _ => {}
        }
        let s = self.size_for(len)?;
        check_fits::<K>(s, s as u128, "TFT size")?;
        let mut fa = self.padded(a, s)?;
        self.truncated_forward(&mut fa, a.len(), len)?;
        self.for_each(&mut fa[..len], |x| *x = self.field.square(x));
        fa[len..].fill(Element::ZERO);
        self.truncated_inverse(&mut fa, len)?;
        fa.truncate(len);
        Ok(fa)
    }

    /// The TFT size S = 2^⌈log2 len⌉, checked against the 2-adicity.
    fn size_for(&self, len: usize) -> Result<usize, CpuError> {
        let s = len.checked_next_power_of_two().ok_or(TransformError::TooLarge {
            n: len,
            what: "product length",
        })?;
        if s > self.max_product_len() {
            return Err(TransformError::AboveTwoAdicity {
                n: s,
                two_adicity: self.field.two_adicity(),
            }
            .into());
        }
        Ok(s)
    }

    fn padded(&self, a: &[Element<K>], s: usize) -> Result<Vec<Element<K>>, CpuError> {
        let mut v = Vec::new();
        v.try_reserve_exact(s)
            .map_err(|_| TransformError::TooLarge { n: s, what: "TFT size" })?;
        v.extend_from_slice(a);
        v.resize(s, Element::ZERO);
        Ok(v)
    }

    /// Schoolbook product, parallel over ranges of output coefficients.
    pub fn schoolbook(&self, a: &[Element<K>], b: &[Element<K>]) -> Vec<Element<K>> {
        if a.is_empty() || b.is_empty() {
            return Vec::new();
        }
        let f = &self.field;
        let mut c = vec![Element::ZERO; a.len() + b.len() - 1];
        let fill = |start: usize, part: &mut [Element<K>]| {
            for (offset, slot) in part.iter_mut().enumerate() {
                let m = start + offset;
                // i ranges over a's indices with 0 ≤ m − i < lb.
                let lo = m.saturating_sub(b.len() - 1);
                let hi = m.min(a.len() - 1);
                let mut acc = Element::ZERO;
                for i in lo..=hi {
                    acc = f.add(&acc, &f.mul(&a[i], &b[m - i]));
                }
                *slot = acc;
            }
        };
        self.chunked(&mut c, a.len().min(b.len()), fill);
        c
    }

    /// Schoolbook square: each cross term once, doubled.
    pub fn schoolbook_square(&self, a: &[Element<K>]) -> Vec<Element<K>> {
        if a.is_empty() {
            return Vec::new();
        }
        let f = &self.field;
        let mut c = vec![Element::ZERO; 2 * a.len() - 1];
        let fill = |start: usize, part: &mut [Element<K>]| {
            for (offset, slot) in part.iter_mut().enumerate() {
                let m = start + offset;
                let lo = m.saturating_sub(a.len() - 1);
                let mut acc = Element::ZERO;
                let mut i = lo;
                while 2 * i < m {
                    acc = f.add(&acc, &f.mul(&a[i], &a[m - i]));
                    i += 1;
                }
                acc = f.double(&acc);
                if 2 * i == m {
                    acc = f.add(&acc, &f.square(&a[i]));
                }
                *slot = acc;
            }
        };
        self.chunked(&mut c, a.len().div_ceil(2), fill);
        c
    }

    /// Runs `fill(start, part)` over chunks of `c`, in parallel when the
    /// work (about `terms` products per coefficient) is large enough.
    fn chunked(&self, c: &mut [Element<K>], terms: usize, fill: impl Fn(usize, &mut [Element<K>]) + Sync) {
        let work = c.len() * terms * K;
        if self.threading == Threading::Parallel && work >= PARALLEL_MIN_WORDS {
            let chunk = (TASK_MIN_WORDS / (terms * K).max(1)).max(1);
            c.par_chunks_mut(chunk)
                .enumerate()
                .for_each(|(i, part)| fill(i * chunk, part));
        } else {
            fill(0, c);
        }
    }

    /// The TFT in place: `x` (length S, a power of two; x[z..] must be zero)
    /// becomes its first `n` transform values in decimation order (module
    /// docs) in x[..n]; x[n..] is left unspecified. 1 ≤ n ≤ S.
    pub fn truncated_forward(&self, x: &mut [Element<K>], z: usize, n: usize) -> Result<(), CpuError> {
        self.check_tft_args(x.len(), n)?;
        self.forward_rec(x, z.min(x.len()), n)
    }

    /// The inverse TFT in place: from the `n` transform values in x[..n] and
    /// the known coefficients x[n..] (zero for a polynomial of length n),
    /// x[..n] becomes the coefficients; x[n..] is preserved. 0 ≤ n ≤ S.
    pub fn truncated_inverse(&self, x: &mut [Element<K>], n: usize) -> Result<(), CpuError> {
        if n > 0 {
            self.check_tft_args(x.len(), n)?;
        }
        self.inverse_rec(x, n)
    }

    fn check_tft_args(&self, s: usize, n: usize) -> Result<(), CpuError> {
        if !s.is_power_of_two() || n == 0 || n > s {
            return Err(CpuError::TruncatedLength { n, size: s });
        }
        self.size_for(s).map(|_| ())
    }

    fn forward_rec(&self, x: &mut [Element<K>], z: usize, n: usize) -> Result<(), CpuError> {
        let s = x.len();
        if n == s {
            if s > 1 {
                self.level(s)?.forward.process(x)?;
            }
            return Ok(());
        }
        let m = s / 2;
        let (lo, hi) = x.split_at_mut(m);
        if n <= m {
            // Only even-indexed values: fold hi onto lo (x[z..] is zero).
            if z > m {
                self.for_each_pair(&mut lo[..z - m], &hi[..z - m], |a, b| *a = self.field.add(a, b));
            }
            return self.forward_rec(lo, z.min(m), n);
        }
        let tw = self.twists(s)?;
        let live = z.min(m);
        let f = &self.field;
        self.for_each_butterfly(&mut lo[..live], &mut hi[..live], &tw.forward[..live], |a, b, w| {
            let (sum, diff) = f.add_sub(a, b);
            *a = sum;
            *b = f.mul(&diff, w);
        });
        // Beyond z both halves are zero, so are their sum and twisted difference.
        self.forward_rec(hi, live, n - m)?;
        if s > 2 {
            self.level(m)?.forward.process(lo)?;
        }
        Ok(())
    }

    fn inverse_rec(&self, x: &mut [Element<K>], n: usize) -> Result<(), CpuError> {
        let s = x.len();
        if n == 0 {
            return Ok(());
        }
        if n == s {
            if s > 1 {
                self.level(s)?.inverse.process(x)?;
            }
            return Ok(());
        }
        let m = s / 2;
        let f = &self.field;
        let (lo, hi) = x.split_at_mut(m);
        if n <= m {
            // lo + hi is known beyond n; recover its head, then subtract hi back.
            self.for_each_pair(&mut lo[n..], &hi[n..], |a, b| *a = f.add(a, b));
            self.inverse_rec(lo, n)?;
            self.for_each_pair(lo, hi, |a, b| *a = f.sub(a, b));
            return Ok(());
        }
        let tw = self.twists(s)?;
        if m > 1 {
            self.level(m)?.inverse.process(lo)?;
        }
        // lo = U = lo + hi. Beyond n − m, V = (lo − hi)·ω^t = (U − 2hi)·ω^t is known.
        let rest = n - m;
        self.for_each_butterfly(&mut lo[rest..], &mut hi[rest..], &tw.forward[rest..], |u, h, w| {
            *h = f.mul(&f.sub(u, &f.double(h)), w);
        });
        self.inverse_rec(hi, rest)?;
        // hi = V everywhere: W = V·ω^{−t}, hi = (U − W)/2, lo = U − hi.
        let half = &self.half;
        self.for_each_butterfly(lo, hi, &tw.inverse_half, |u, v, w_half| {
            let w2 = f.mul(v, w_half);
            let h = f.sub(&f.mul(u, half), &w2);
            *v = h;
            *u = f.sub(u, &h);
        });
        Ok(())
    }

    fn level(&self, s: usize) -> Result<Arc<Level<K>>, CpuError> {
        let log = s.trailing_zeros() as usize;
        get_or_try_publish(&self.levels[log], || {
            let forward = CpuFft::try_new(&self.field, s, Direction::Forward, Order::DigitReversed)?
                .with_threading(self.threading);
            let inverse = CpuFft::try_new(&self.field, s, Direction::Inverse, Order::DigitReversed)?
                .with_threading(self.threading);
            Ok(Arc::new(Level { forward, inverse }))
        })
        .cloned()
    }

    fn twists(&self, s: usize) -> Result<Arc<Twists<K>>, CpuError> {
        let log = s.trailing_zeros() as usize;
        get_or_try_publish(&self.twists[log], || {
            // Whole tables: every element takes its own twist.
            let whole = |direction| -> Result<Vec<Element<K>>, CpuError> {
                let table = twiddle_table(&self.field, s, direction, s / 2, TwiddleLayout::Full, self.threading)?;
                Ok(table.into_full(&self.field)?)
            };
            let forward = whole(Direction::Forward)?;
            let mut inverse_half = whole(Direction::Inverse)?;
            self.for_each(&mut inverse_half, |w| *w = self.field.mul(w, &self.half));
            Ok(Arc::new(Twists { forward, inverse_half }))
        })
        .cloned()
    }

    fn join<A: Send, B: Send>(&self, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
        match self.threading {
            Threading::Parallel => rayon::join(a, b),
            Threading::Serial => (a(), b()),
        }
    }

    fn parallel(&self, len: usize) -> bool {
        self.threading == Threading::Parallel && len * K >= PARALLEL_MIN_WORDS
    }

    fn chunk(&self) -> usize {
        (TASK_MIN_WORDS / K).max(16)
    }

    fn for_each(&self, xs: &mut [Element<K>], op: impl Fn(&mut Element<K>) + Sync) {
        if self.parallel(xs.len()) {
            xs.par_chunks_mut(self.chunk()).for_each(|c| c.iter_mut().for_each(&op));
        } else {
            xs.iter_mut().for_each(op);
        }
    }

    fn for_each_pair(
        &self,
        xs: &mut [Element<K>],
        ys: &[Element<K>],
        op: impl Fn(&mut Element<K>, &Element<K>) + Sync,
    ) {
        if self.parallel(xs.len()) {
            let c = self.chunk();
            xs.par_chunks_mut(c)
                .zip(ys.par_chunks(c))
                .for_each(|(xc, yc)| xc.iter_mut().zip(yc).for_each(|(x, y)| op(x, y)));
        } else {
            xs.iter_mut().zip(ys).for_each(|(x, y)| op(x, y));
        }
    }

    fn for_each_butterfly(
        &self,
        xs: &mut [Element<K>],
        ys: &mut [Element<K>],
        ws: &[Element<K>],
        op: impl Fn(&mut Element<K>, &mut Element<K>, &Element<K>) + Sync,
    ) {
        if self.parallel(xs.len()) {
            let c = self.chunk();
            xs.par_chunks_mut(c)
                .zip(ys.par_chunks_mut(c))
                .zip(ws.par_chunks(c))
                .for_each(|((xc, yc), wc)| {
                    for ((x, y), w) in xc.iter_mut().zip(yc).zip(wc) {
                        op(x, y, w);
                    }
                });
        } else {
            for ((x, y), w) in xs.iter_mut().zip(ys).zip(ws) {
                op(x, y, w);
            }
        }
    }
}
