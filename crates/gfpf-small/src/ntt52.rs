//! Number-theoretic transforms modulo a prime q < 2^50 in 52-bit lanes: the
//! AVX-512 IFMA instructions (`vpmadd52luq` / `vpmadd52huq`) multiply eight
//! 52-bit words at once with their full 104-bit products, which is exactly
//! what Shoup's multiplication needs, so eight butterflies run per
//! instruction sequence.
//!
//! **Contract** (the same as [`crate::Plan`]'s): [`Plan52::forward`] maps
//! natural-order x (values < q) to the bit-reversed spectrum
//! `y[bitrev(i)] = Σ_j x_j ω^(ij)`, values < q, not scaled;
//! [`Plan52::inverse`] maps it back and scales by n^(-1). ω = θ², θ =
//! [`crate::root_of_unity`]`(q, m + 1)`: the same roots as [`crate::Plan`],
//! so both give identical outputs for the same prime.
//!
//! **Arithmetic.** Harvey's lazy butterflies with values in [0, 2q) between
//! layers (4q < 2^52, hence q < 2^50) and Shoup's multiplication in base
//! 2^52: for a fixed twiddle w < q with companion w' = ⌊w·2^52 / q⌋ and any
//! x < 2^52, q̂ = ⌊x·w' / 2^52⌋ and r = (x·w − q̂·q) mod 2^52 lies in [0, 2q).
//! "Subtract m if ≥ m" is `min(x, x − m)` in unsigned lanes (x − m wraps
//! above x when x < m): no branches, no masks.
//!
//! **Instruction sets**, chosen at run time ([`Isa::best`]): AVX-512 IFMA
//! where the CPU has it, else the scalar path, which runs the same
//! arithmetic on `u128` and is what other CPUs (and aarch64) use.
//! [`Isa::available`] lists what this CPU can run; the tests check every one
//! against [`crate::Plan`]. With IFMA, layers of half-size ≥ 16 go two per
//! pass over memory, h = 8 alone, and the three smallest layers (h = 4, 2, 1)
//! run on 16 elements at a time entirely in registers, the butterflies'
//! inputs gathered and scattered with `vpermt2q`.
//!
//! **Measured** (`cargo bench --bench ntt`, group `ntt/q50`, forward +
//! inverse, one thread, the project's 2-core Xeon VM with IFMA, 2026-11-23,
//! against `concrete-ntt` 0.2 on the same 50-bit prime in the same run; two
//! runs): 0.33–0.49 ns per butterfly from n = 2^10 to 2^20 and 0.73–0.85 ns
//! at 2^22; time ratio to concrete-ntt 0.37–0.56 up to 2^20, 0.73 and 0.83
//! at 2^22 (memory-bound there: no cache blocking yet). History: scalar
//! small layers with radix-2 passes 1.0–1.5x concrete-ntt; two layers per
//! pass 0.78–1.33x; the small layers in registers gave the rest.

use crate::SmallError;
use crate::ntt::{checked_roots, for_each_layer_power};
use crate::primes::inv_mod;

/// The largest modulus (exclusive): lazy values stay below 4q < 2^52.
pub const NTT52_MAX_MODULUS: u64 = 1 << 50;

/// Transforms longer than this run their layers of half-size below it block
/// by block (each block a whole sub-transform that stays in the L2 cache),
/// the larger layers over the whole array: a transform of 2^22 words then
/// makes 4 passes over memory instead of 11.
pub const NTT52_BLOCK_LEN: usize = 1 << 14;

pub(crate) const MASK52: u64 = (1 << 52) - 1;

/// The instruction set a [`Plan52`] runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Isa {
    /// Plain 64-bit code (any CPU).
    Scalar,
    /// AVX-512F with IFMA: eight 52-bit lanes.
    Avx512Ifma,
}

impl Isa {
    /// The fastest instruction set this CPU has.
    pub fn best() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512ifma") {
            return Isa::Avx512Ifma;
        }
        Isa::Scalar
    }

    /// `Ok(self)` when this CPU can run it, else
    /// [`SmallError::IsaUnavailable`]: the check behind every `with_isa`.
    pub fn ensure_available(self) -> Result<Isa, SmallError> {
        if Isa::available().contains(&self) {
            Ok(self)
        } else {
            Err(SmallError::IsaUnavailable(format!("{self:?}")))
        }
    }

    /// How many leading elements of a slice of `len` the vector code takes
    /// (whole groups of eight lanes with IFMA, none in scalar code); the
    /// scalar loop does the rest.
    pub(crate) fn vector_len(self, len: usize) -> usize {
        if self == Isa::Avx512Ifma { len / 8 * 8 } else { 0 }
    }

    /// Every instruction set this CPU can run (the tests run each).
    pub fn available() -> Vec<Isa> {
        let mut out = vec![Isa::Scalar];
        if Isa::best() == Isa::Avx512Ifma {
            out.push(Isa::Avx512Ifma);
        }
        out
    }
}

/// A fixed multiplier w < q and its 52-bit Shoup companion ⌊w·2^52 / q⌋,
/// stored as two parallel tables so that vector code loads eight of each.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Twiddles {
    pub(crate) value: Vec<u64>,
    pub(crate) companion: Vec<u64>,
}

impl Twiddles {
    /// The layer of half-size h: its h values and companions.
    fn layer(&self, h: usize) -> (&[u64], &[u64]) {
        (&self.value[h - 1..2 * h - 1], &self.companion[h - 1..2 * h - 1])
    }

    pub(crate) fn push(&mut self, w: u64, q: u64) {
        self.value.push(w);
        self.companion.push(companion52(w, q));
    }
}

/// The 52-bit Shoup companion ⌊w·2^52 / q⌋ of a fixed multiplier w < q.
#[inline]
pub(crate) fn companion52(w: u64, q: u64) -> u64 {
    (((w as u128) << 52) / q as u128) as u64
}

/// x·w mod q in [0, 2q) for x < 2^52 (Shoup in base 2^52).
#[inline(always)]
pub(crate) fn mul_lazy(x: u64, w: u64, companion: u64, q: u64) -> u64 {
    let estimate = ((x as u128 * companion as u128) >> 52) as u64;
    (x.wrapping_mul(w).wrapping_sub(estimate.wrapping_mul(q))) & MASK52
}

/// x − m if x ≥ m, else x (branch-free).
#[inline(always)]
pub(crate) fn sub_if_ge(x: u64, m: u64) -> u64 {
    x.min(x.wrapping_sub(m))
}

/// A transform of length n modulo q < 2^50, with its twiddle tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan52 {
    n: usize,
    q: u64,
    /// Forward twiddles, layer by layer: the layer of half-size h holds
    /// ω_(2h)^j, j < h, from offset h − 1.
    forward: Twiddles,
    /// Inverse twiddles, same layout, powers of ω^(-1).
    inverse: Twiddles,
    /// n^(-1) and its companion.
    n_inv: (u64, u64),
    isa: Isa,
}

impl Plan52 {
    /// A plan for length n (a power of two ≥ 1) modulo the prime q < 2^50
    /// with 2n | q − 1, on the fastest instruction set of this CPU.
    pub fn try_new(n: usize, q: u64) -> Result<Self, SmallError> {
        let (_, omega) = checked_roots(n, q, NTT52_MAX_MODULUS, "a 52-bit-lane NTT plan", "3 <= q < 2^50")?;
        let layers = |root: u64| {
            let mut t = Twiddles::default();
            for_each_layer_power(n, root, q, |power| t.push(power, q));
            t
        };
        let n_inv = inv_mod(n as u64 % q, q);
        Ok(Plan52 {
            n,
            q,
            forward: layers(omega),
            inverse: layers(inv_mod(omega, q)),
            n_inv: (n_inv, companion52(n_inv, q)),
            isa: Isa::best(),
        })
    }

    /// The same plan on another instruction set; an error if this CPU lacks it.
    pub fn with_isa(mut self, isa: Isa) -> Result<Self, SmallError> {
        self.isa = isa.ensure_available()?;
        Ok(self)
    }

    /// The instruction set it runs on.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// The length n.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether n = 0 (never: plans have n ≥ 1).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The modulus q.
    pub fn modulus(&self) -> u64 {
        self.q
    }

    fn check(&self, data: &[u64]) -> Result<(), SmallError> {
        SmallError::check_len(self.n, data.len())
    }

    /// Forward transform in place: natural order in (values < q),
    /// bit-reversed order out (values < q), not scaled.
    pub fn forward(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.forward_blocked(data, true)
    }

    /// [`Self::forward`] without the final reduction: values < 2q in and out
    /// (for callers whose next step accepts them).
    pub(crate) fn forward_lazy(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.forward_blocked(data, false)
    }

    /// The layers of half-size ≥ the block over the whole array, the rest
    /// block by block while the block stays in cache (and its reduction to
    /// [0, q) with it, when `reduce`).
    fn forward_blocked(&self, data: &mut [u64], reduce: bool) -> Result<(), SmallError> {
        self.check(data)?;
        let block = self.n.min(NTT52_BLOCK_LEN);
        self.forward_layers(data, self.n / 2, block);
        for chunk in data.chunks_exact_mut(block) {
            self.forward_layers(chunk, block / 2, 1);
            if reduce {
                let q = self.q;
                chunk.iter_mut().for_each(|x| *x = sub_if_ge(*x, q));
            }
        }
        Ok(())
    }

    /// The forward (DIF) layers of half-size h = `top`, `top`/2, …, `last`
    /// on `data` (a multiple of 2·`top` long), values < 2q in and out.
    fn forward_layers(&self, data: &mut [u64], top: usize, last: usize) {
        let (q, two_q) = (self.q, 2 * self.q);
        let mut h = top;
        while h >= last && h >= 1 {
            let (w, c) = self.forward.layer(h);
            match self.isa {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512Ifma if h >= 16 && h / 2 >= last => {
                    // Layers h and h/2 in one pass over memory.
                    // SAFETY: the plan holds Avx512Ifma only where the CPU has it.
                    unsafe { ifma::forward_radix4(data, h, (w, c), self.forward.layer(h / 2), q) };
                    h /= 4;
                    continue;
                }
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512Ifma if h >= 8 => {
                    // SAFETY: as above.
                    unsafe { ifma::forward_radix2(data, h, (w, c), q) };
                }
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512Ifma if h == 4 && last == 1 && data.len() >= 16 => {
                    // The last three layers (h = 4, 2, 1) in registers, 16
                    // elements at a time.
                    let small = [self.forward.layer(4), self.forward.layer(2), self.forward.layer(1)];
                    // SAFETY: as above.
                    unsafe { ifma::forward_last3(data, small, q) };
                    break;
                }
                _ => {
                    for block in data.chunks_exact_mut(2 * h) {
                        let (lo, hi) = block.split_at_mut(h);
                        for j in 0..h {
                            let (x, y) = (lo[j], hi[j]);
                            lo[j] = sub_if_ge(x + y, two_q);
                            hi[j] = mul_lazy(x + two_q - y, w[j], c[j], q);
                        }
                    }
                }
            }
            h /= 2;
        }
    }

    /// Inverse transform in place: bit-reversed order in (values < q),
    /// natural order out (values < q), scaled by n^(-1).
    pub fn inverse(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.check(data)?;
        let q = self.q;
        let block = self.n.min(NTT52_BLOCK_LEN);
        // Scaling is linear: it goes first, block by block while the block
        // is in cache anyway; values < 2q after it, as the layers accept.
        let (n_inv, companion) = self.n_inv;
        for chunk in data.chunks_exact_mut(block) {
            chunk.iter_mut().for_each(|x| *x = mul_lazy(*x, n_inv, companion, q));
            self.inverse_layers(chunk, 1, block / 2);
        }
        self.inverse_layers(data, block, self.n / 2);
        data.iter_mut().for_each(|x| *x = sub_if_ge(*x, q));
        Ok(())
    }

    /// [`Self::inverse`] without the scaling by n^(−1): values < 2q in and
    /// out.
    pub(crate) fn inverse_unscaled(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.check(data)?;
        // Block by block for the small layers, then the large ones over the
        // whole array (the mirror of the forward order).
        let block = self.n.min(NTT52_BLOCK_LEN);
        for chunk in data.chunks_exact_mut(block) {
            self.inverse_layers(chunk, 1, block / 2);
        }
        self.inverse_layers(data, block, self.n / 2);
        Ok(())
    }

    /// The inverse (DIT) layers of half-size h = `first`, 2·`first`, …,
    /// `top` on `data` (a multiple of 2·`top` long), values < 2q in and out.
    fn inverse_layers(&self, data: &mut [u64], first: usize, top: usize) {
        let (q, two_q) = (self.q, 2 * self.q);
        let mut h = first;
        while h <= top {
            let (w, c) = self.inverse.layer(h);
            match self.isa {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512Ifma if h == 1 && top >= 4 && data.len() >= 16 => {
                    // The first three layers (h = 1, 2, 4) in registers.
                    let small = [self.inverse.layer(1), self.inverse.layer(2), self.inverse.layer(4)];
                    // SAFETY: the plan holds Avx512Ifma only where the CPU has it.
                    unsafe { ifma::inverse_first3(data, small, q) };
                    h = 8;
                    continue;
                }
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512Ifma if h >= 8 && 2 * h <= top => {
                    // Layers h and 2h in one pass over memory.
                    // SAFETY: as above.
                    unsafe { ifma::inverse_radix4(data, h, (w, c), self.inverse.layer(2 * h), q) };
                    h *= 4;
                    continue;
                }
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512Ifma if h >= 8 => {
                    // SAFETY: as above.
                    unsafe { ifma::inverse_radix2(data, h, (w, c), q) };
                }
                _ => {
                    for block in data.chunks_exact_mut(2 * h) {
                        let (lo, hi) = block.split_at_mut(h);
                        for j in 0..h {
                            let t = mul_lazy(hi[j], w[j], c[j], q);
                            let x = lo[j];
                            lo[j] = sub_if_ge(x + t, two_q);
                            hi[j] = sub_if_ge(x + two_q - t, two_q);
                        }
                    }
                }
            }
            h *= 2;
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma {
    use std::arch::x86_64::*;

    /// The constants of a modulus in lanes.
    #[derive(Clone, Copy)]
    struct Lanes {
        q: __m512i,
        two_q: __m512i,
        mask: __m512i,
        zero: __m512i,
    }

    impl Lanes {
        #[target_feature(enable = "avx512f")]
        fn new(q: u64) -> Self {
            Lanes {
                q: _mm512_set1_epi64(q as i64),
                two_q: _mm512_set1_epi64(2 * q as i64),
                mask: _mm512_set1_epi64(super::MASK52 as i64),
                zero: _mm512_setzero_si512(),
            }
        }
    }

    /// x·w mod q in [0, 2q), eight lanes (Shoup in base 2^52).
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn mul_lazy(l: Lanes, x: __m512i, w: __m512i, c: __m512i) -> __m512i {
        let estimate = _mm512_madd52hi_epu64(l.zero, x, c);
        let low = _mm512_madd52lo_epu64(l.zero, x, w);
        _mm512_and_si512(
            _mm512_sub_epi64(low, _mm512_madd52lo_epu64(l.zero, estimate, l.q)),
            l.mask,
        )
    }

    /// x − 2q where x ≥ 2q (unsigned min against the wrapped difference).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn reduce(l: Lanes, x: __m512i) -> __m512i {
        _mm512_min_epu64(x, _mm512_sub_epi64(x, l.two_q))
    }

    /// The DIF butterfly (x + y, (x − y)·w), lazy.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn dif(l: Lanes, x: __m512i, y: __m512i, w: __m512i, c: __m512i) -> (__m512i, __m512i) {
        let s = reduce(l, _mm512_add_epi64(x, y));
        (s, mul_lazy(l, _mm512_sub_epi64(_mm512_add_epi64(x, l.two_q), y), w, c))
    }

    /// The DIT butterfly (x + y·w, x − y·w), lazy.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn dit(l: Lanes, x: __m512i, y: __m512i, w: __m512i, c: __m512i) -> (__m512i, __m512i) {
        let t = mul_lazy(l, y, w, c);
        (
            reduce(l, _mm512_add_epi64(x, t)),
            reduce(l, _mm512_sub_epi64(_mm512_add_epi64(x, l.two_q), t)),
        )
    }

    /// Eight words at `p + j`.
    ///
    /// # Safety
    /// `p + j + 8` must be within one allocation.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn load(p: &[u64], j: usize) -> __m512i {
        debug_assert!(j + 8 <= p.len());
        // SAFETY: the caller keeps j + 8 ≤ p.len().
        unsafe { _mm512_loadu_si512(p.as_ptr().add(j).cast()) }
    }

    /// Stores eight words at `p + j`.
    ///
    /// # Safety
    /// As [`load`].
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn store(p: &mut [u64], j: usize, v: __m512i) {
        debug_assert!(j + 8 <= p.len());
        // SAFETY: the caller keeps j + 8 ≤ p.len().
        unsafe { _mm512_storeu_si512(p.as_mut_ptr().add(j).cast(), v) }
    }

    /// Forward layers h and h/2 (h ≥ 16) fused: in each block of 2h, the
    /// quarters a, b, c, d; (a, c) and (b, d) with ω_(2h)^j and ω_(2h)^(j+h/2),
    /// then (a, b) and (c, d) with ω_h^j.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; `outer` holds h entries, `inner`
    /// h/2, and `data` a multiple of 2h.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn forward_radix4(
        data: &mut [u64],
        h: usize,
        outer: (&[u64], &[u64]),
        inner: (&[u64], &[u64]),
        q: u64,
    ) {
        let l = Lanes::new(q);
        let quarter = h / 2;
        for block in data.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            let (a, b) = lo.split_at_mut(quarter);
            let (c, d) = hi.split_at_mut(quarter);
            for j in (0..quarter).step_by(8) {
                // SAFETY: j + 8 ≤ h/2, the length of a, b, c, d and inner, and
                // j + h/2 + 8 ≤ h, the length of outer.
                unsafe {
                    let (a0, c0) = dif(l, load(a, j), load(c, j), load(outer.0, j), load(outer.1, j));
                    let (b0, d0) = dif(
                        l,
                        load(b, j),
                        load(d, j),
                        load(outer.0, j + quarter),
                        load(outer.1, j + quarter),
                    );
                    let (wi, ci) = (load(inner.0, j), load(inner.1, j));
                    let (a1, b1) = dif(l, a0, b0, wi, ci);
                    let (c1, d1) = dif(l, c0, d0, wi, ci);
                    store(a, j, a1);
                    store(b, j, b1);
                    store(c, j, c1);
                    store(d, j, d1);
                }
            }
        }
    }

    /// Inverse layers h and 2h (h ≥ 8) fused: in each block of 4h, the
    /// quarters a, b, c, d; (a, b) and (c, d) with the layer-h twiddle j,
    /// then (a, c) and (b, d) with the layer-2h twiddles j and j + h.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; `inner` holds h entries, `outer`
    /// 2h, and `data` a multiple of 4h.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn inverse_radix4(
        data: &mut [u64],
        h: usize,
        inner: (&[u64], &[u64]),
        outer: (&[u64], &[u64]),
        q: u64,
    ) {
        let l = Lanes::new(q);
        for block in data.chunks_exact_mut(4 * h) {
            let (lo, hi) = block.split_at_mut(2 * h);
            let (a, b) = lo.split_at_mut(h);
            let (c, d) = hi.split_at_mut(h);
            for j in (0..h).step_by(8) {
                // SAFETY: j + 8 ≤ h, the length of a, b, c, d and inner, and
                // j + h + 8 ≤ 2h, the length of outer.
                unsafe {
                    let (wi, ci) = (load(inner.0, j), load(inner.1, j));
                    let (a0, b0) = dit(l, load(a, j), load(b, j), wi, ci);
                    let (c0, d0) = dit(l, load(c, j), load(d, j), wi, ci);
                    let (a1, c1) = dit(l, a0, c0, load(outer.0, j), load(outer.1, j));
                    let (b1, d1) = dit(l, b0, d0, load(outer.0, j + h), load(outer.1, j + h));
                    store(a, j, a1);
                    store(b, j, b1);
                    store(c, j, c1);
                    store(d, j, d1);
                }
            }
        }
    }

    /// One forward layer of half-size h (a multiple of 8), eight butterflies
    /// per step.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; `tw` holds h entries and `data` a
    /// multiple of 2h.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn forward_radix2(data: &mut [u64], h: usize, tw: (&[u64], &[u64]), q: u64) {
        let l = Lanes::new(q);
        for block in data.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for j in (0..h).step_by(8) {
                // SAFETY: j + 8 ≤ h, the length of lo, hi and tw.
                unsafe {
                    let (x, y) = dif(l, load(lo, j), load(hi, j), load(tw.0, j), load(tw.1, j));
                    store(lo, j, x);
                    store(hi, j, y);
                }
            }
        }
    }

    /// One inverse layer of half-size h (a multiple of 8).
    ///
    /// # Safety
    /// As [`forward_radix2`].
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn inverse_radix2(data: &mut [u64], h: usize, tw: (&[u64], &[u64]), q: u64) {
        let l = Lanes::new(q);
        for block in data.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for j in (0..h).step_by(8) {
                // SAFETY: j + 8 ≤ h, the length of lo, hi and tw.
                unsafe {
                    let (x, y) = dit(l, load(lo, j), load(hi, j), load(tw.0, j), load(tw.1, j));
                    store(lo, j, x);
                    store(hi, j, y);
                }
            }
        }
    }

    /// The positions, among 16 consecutive elements, of the first inputs
    /// ("lo") of the butterflies of half-size h ∈ {1, 2, 4}, in order; the
    /// second inputs are at position + h.
    const fn lo_positions(h: usize) -> [usize; 8] {
        let mut out = [0; 8];
        let (mut i, mut k) = (0, 0);
        while i < 16 {
            if i % (2 * h) < h {
                out[k] = i;
                k += 1;
            }
            i += 1;
        }
        out
    }

    /// For one half-size h ∈ {1, 2, 4}: index vectors that split two vectors
    /// of 16 consecutive elements into the butterflies' first and second
    /// inputs and merge them back, and the layer's twiddles in lo order.
    struct SmallLayer {
        lo: __m512i,
        hi: __m512i,
        back0: __m512i,
        back1: __m512i,
        w: __m512i,
        c: __m512i,
    }

    impl SmallLayer {
        #[target_feature(enable = "avx512f")]
        fn new(h: usize, tw: (&[u64], &[u64])) -> Self {
            let lo = lo_positions(h);
            let mut back = [0i64; 16];
            let mut w = [0i64; 8];
            let mut c = [0i64; 8];
            for (k, &p) in lo.iter().enumerate() {
                back[p] = k as i64; // lo[k] is element p
                back[p + h] = 8 + k as i64; // hi[k] is element p + h
                w[k] = tw.0[p % (2 * h)] as i64;
                c[k] = tw.1[p % (2 * h)] as i64;
            }
            let vec = |v: [i64; 8]| _mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]);
            let lo_idx: [i64; 8] = std::array::from_fn(|k| lo[k] as i64);
            let hi_idx: [i64; 8] = std::array::from_fn(|k| (lo[k] + h) as i64);
            SmallLayer {
                lo: vec(lo_idx),
                hi: vec(hi_idx),
                back0: vec(std::array::from_fn(|i| back[i])),
                back1: vec(std::array::from_fn(|i| back[8 + i])),
                w: vec(w),
                c: vec(c),
            }
        }

        /// Splits (v0, v1) into the butterflies' inputs.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn split(&self, v0: __m512i, v1: __m512i) -> (__m512i, __m512i) {
            (
                _mm512_permutex2var_epi64(v0, self.lo, v1),
                _mm512_permutex2var_epi64(v0, self.hi, v1),
            )
        }

        /// Merges the butterflies' outputs back into element order.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn merge(&self, lo: __m512i, hi: __m512i) -> (__m512i, __m512i) {
            (
                _mm512_permutex2var_epi64(lo, self.back0, hi),
                _mm512_permutex2var_epi64(lo, self.back1, hi),
            )
        }
    }

    /// The forward layers h = 4, 2, 1 on every 16 elements, in registers.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; each twiddle pair holds its
    /// layer's h entries, and `data` a multiple of 16.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn forward_last3(data: &mut [u64], tw: [(&[u64], &[u64]); 3], q: u64) {
        let l = Lanes::new(q);
        let layers = [
            SmallLayer::new(4, tw[0]),
            SmallLayer::new(2, tw[1]),
            SmallLayer::new(1, tw[2]),
        ];
        for chunk in data.chunks_exact_mut(16) {
            // SAFETY: the chunk holds 16 words: two vectors.
            unsafe {
                let (mut v0, mut v1) = (load(chunk, 0), load(chunk, 8));
                for layer in &layers {
                    let (x, y) = layer.split(v0, v1);
                    let (x, y) = dif(l, x, y, layer.w, layer.c);
                    (v0, v1) = layer.merge(x, y);
                }
                store(chunk, 0, v0);
                store(chunk, 8, v1);
            }
        }
    }

    /// The inverse layers h = 1, 2, 4 on every 16 elements, in registers.
    ///
    /// # Safety
    /// As [`forward_last3`] (twiddles in the order h = 1, 2, 4).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn inverse_first3(data: &mut [u64], tw: [(&[u64], &[u64]); 3], q: u64) {
        let l = Lanes::new(q);
        let layers = [
            SmallLayer::new(1, tw[0]),
            SmallLayer::new(2, tw[1]),
            SmallLayer::new(4, tw[2]),
        ];
        for chunk in data.chunks_exact_mut(16) {
            // SAFETY: the chunk holds 16 words: two vectors.
            unsafe {
                let (mut v0, mut v1) = (load(chunk, 0), load(chunk, 8));
                for layer in &layers {
                    let (x, y) = layer.split(v0, v1);
                    let (x, y) = dit(l, x, y, layer.w, layer.c);
                    (v0, v1) = layer.merge(x, y);
                }
                store(chunk, 0, v0);
                store(chunk, 8, v1);
            }
        }
    }

    /// One column butterfly over whole rows, DIF: (x, y) ← (x + y, (x − y)·w),
    /// lazy (inputs and outputs in [0, 2q)).
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; x and y have the same length, a
    /// multiple of 8.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn rows_dif(x: &mut [u64], y: &mut [u64], w: u64, c: u64, q: u64) {
        let l = Lanes::new(q);
        let (w, c) = (_mm512_set1_epi64(w as i64), _mm512_set1_epi64(c as i64));
        for j in (0..x.len()).step_by(8) {
            // SAFETY: j + 8 ≤ x.len() = y.len().
            unsafe {
                let (a, b) = dif(l, load(x, j), load(y, j), w, c);
                store(x, j, a);
                store(y, j, b);
            }
        }
    }

    /// One column butterfly over whole rows, DIT: (x, y) ← (x + y·w, x − y·w),
    /// lazy.
    ///
    /// # Safety
    /// As [`rows_dif`].
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn rows_dit(x: &mut [u64], y: &mut [u64], w: u64, c: u64, q: u64) {
        let l = Lanes::new(q);
        let (w, c) = (_mm512_set1_epi64(w as i64), _mm512_set1_epi64(c as i64));
        for j in (0..x.len()).step_by(8) {
            // SAFETY: j + 8 ≤ x.len() = y.len().
            unsafe {
                let (a, b) = dit(l, load(x, j), load(y, j), w, c);
                store(x, j, a);
                store(y, j, b);
            }
        }
    }

    /// x ← x·w mod q for x < 2^52: in [0, 2q), or in [0, q) when `full`.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; x.len() is a multiple of 8.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn scale(x: &mut [u64], w: u64, c: u64, q: u64, full: bool) {
        let l = Lanes::new(q);
        let (w, c) = (_mm512_set1_epi64(w as i64), _mm512_set1_epi64(c as i64));
        for j in (0..x.len()).step_by(8) {
            // SAFETY: j + 8 ≤ x.len().
            unsafe {
                let mut v = mul_lazy(l, load(x, j), w, c);
                if full {
                    v = _mm512_min_epu64(v, _mm512_sub_epi64(v, l.q));
                }
                store(x, j, v);
            }
        }
    }

    /// x[j] ← x[j]·w[j] mod q in [0, 2q) for x < 2^52, with the Shoup
    /// companions c[j] of the factors.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; w and c are at least as long as
    /// x, whose length is a multiple of 8.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn mul_table(x: &mut [u64], w: &[u64], c: &[u64], q: u64) {
        let l = Lanes::new(q);
        for j in (0..x.len()).step_by(8) {
            // SAFETY: j + 8 ≤ x.len() ≤ w.len(), c.len().
            unsafe {
                let v = mul_lazy(l, load(x, j), load(w, j), load(c, j));
                store(x, j, v);
            }
        }
    }

    /// rows[i][j] ← (or +=, −=, as `how` says, modulo q) words[j·k + i] mod q,
    /// for i < k and j < count: k-word groups reduced and transposed, an 8 × 8
    /// block of words at a time (values in the rows < q in and out).
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; k and count are multiples of 8,
    /// `words` holds count·k words, `rows` k rows of at least count.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn project_words(
        words: &[u64],
        k: usize,
        rows: &mut [&mut [u64]],
        count: usize,
        q: u64,
        how: crate::conv52::Accumulate,
    ) {
        use crate::conv52::Accumulate;
        let l = Lanes::new(q);
        // x mod q = (x mod 2^52)·1 + ⌊x/2^52⌋·(2^52 mod q), each term by Shoup.
        let one = _mm512_set1_epi64(1);
        let one_c = _mm512_set1_epi64(super::companion52(1, q) as i64);
        let high_w = ((1u128 << 52) % q as u128) as u64;
        let high_c = _mm512_set1_epi64(super::companion52(high_w, q) as i64);
        let high_w = _mm512_set1_epi64(high_w as i64);
        let reduce = |x: __m512i| {
            let low = mul_lazy(l, _mm512_and_si512(x, l.mask), one, one_c);
            let high = mul_lazy(l, _mm512_srli_epi64(x, 52), high_w, high_c);
            let t = reduce(l, _mm512_add_epi64(low, high));
            _mm512_min_epu64(t, _mm512_sub_epi64(t, l.q))
        };
        let pairs_even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
        let pairs_odd = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
        for j in (0..count).step_by(8) {
            for g in (0..k).step_by(8) {
                // SAFETY: (j + e)·k + g + 8 ≤ count·k = words.len().
                let v: [__m512i; 8] = std::array::from_fn(|e| unsafe { load(words, (j + e) * k + g) });
                // 2 × 2 blocks, then 4 × 4 within 256-bit halves, then halves.
                let lo: [__m512i; 4] = std::array::from_fn(|e| _mm512_unpacklo_epi64(v[2 * e], v[2 * e + 1]));
                let hi: [__m512i; 4] = std::array::from_fn(|e| _mm512_unpackhi_epi64(v[2 * e], v[2 * e + 1]));
                // d04[h]: digits 0 and 4 of elements 4h..4h+4, and so on.
                let d04: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(lo[2 * h], pairs_even, lo[2 * h + 1]));
                let d26: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(lo[2 * h], pairs_odd, lo[2 * h + 1]));
                let d15: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(hi[2 * h], pairs_even, hi[2 * h + 1]));
                let d37: [__m512i; 2] =
                    std::array::from_fn(|h| _mm512_permutex2var_epi64(hi[2 * h], pairs_odd, hi[2 * h + 1]));
                let digit = [
                    _mm512_shuffle_i64x2::<0x44>(d04[0], d04[1]),
                    _mm512_shuffle_i64x2::<0x44>(d15[0], d15[1]),
                    _mm512_shuffle_i64x2::<0x44>(d26[0], d26[1]),
                    _mm512_shuffle_i64x2::<0x44>(d37[0], d37[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d04[0], d04[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d15[0], d15[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d26[0], d26[1]),
                    _mm512_shuffle_i64x2::<0xEE>(d37[0], d37[1]),
                ];
                for (i, &x) in digit.iter().enumerate() {
                    let row = &mut *rows[g + i];
                    let t = reduce(x);
                    let v = match how {
                        Accumulate::Store => t,
                        Accumulate::Add | Accumulate::Subtract => {
                            // SAFETY: j + 8 ≤ count ≤ row.len().
                            let old = unsafe { load(row, j) };
                            let s = match how {
                                Accumulate::Add => _mm512_add_epi64(old, t),
                                _ => _mm512_sub_epi64(_mm512_add_epi64(old, l.q), t),
                            };
                            _mm512_min_epu64(s, _mm512_sub_epi64(s, l.q))
                        }
                    };
                    // SAFETY: j + 8 ≤ count ≤ row.len().
                    unsafe { store(row, j, v) };
                }
            }
        }
    }

    /// a ← a·b·2^(−52) mod q in [0, 2q) for a, b < 2q (Montgomery in base
    /// 2^52; `q_neg_inv` = −q^(−1) mod 2^52); b = a when `None`.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; a and b have the same length, a
    /// multiple of 8.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn mul_montgomery(a: &mut [u64], b: Option<&[u64]>, q: u64, q_neg_inv: u64) {
        let l = Lanes::new(q);
        let q_neg_inv = _mm512_set1_epi64(q_neg_inv as i64);
        let one = _mm512_set1_epi64(1);
        for j in (0..a.len()).step_by(8) {
            // SAFETY: j + 8 ≤ a.len() = b.len().
            unsafe {
                let x = load(a, j);
                let y = match b {
                    Some(b) => load(b, j),
                    None => x,
                };
                let low = _mm512_madd52lo_epu64(l.zero, x, y);
                let high = _mm512_madd52hi_epu64(l.zero, x, y);
                let m = _mm512_madd52lo_epu64(l.zero, low, q_neg_inv);
                // low + (m·q mod 2^52) is 0 or 2^52: the carry is low ≠ 0.
                let carry = _mm512_min_epu64(low, one);
                let v = _mm512_madd52hi_epu64(_mm512_add_epi64(high, carry), m, l.q);
                store(a, j, v);
            }
        }
    }

    /// Garner's mixed-radix digits of eight columns at a time: for every
    /// column j, v_l[j] (l < s) from the residues y_l[j] < q_l, with
    /// `inverse[l][m]` = (q_m^(−1) mod q_l, companion) and q_m < 2q_l.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and IFMA; every slice of `residues` and
    /// `digits` has at least `len` elements, `len` a multiple of 8, and
    /// `inverse[l]` has l entries.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(crate) unsafe fn mixed_radix(
        residues: &[&[u64]],
        digits: &mut [&mut [u64]],
        primes: &[u64],
        inverse: &[Vec<(u64, u64)>],
        len: usize,
    ) {
        let mut v = [_mm512_setzero_si512(); 8];
        for j in (0..len).step_by(8) {
            for (l, &q) in primes.iter().enumerate() {
                let lanes = Lanes::new(q);
                // SAFETY: j + 8 ≤ len ≤ residues[l].len().
                let mut t = unsafe { load(residues[l], j) };
                for (m, &(w, c)) in inverse[l].iter().enumerate() {
                    let x = _mm512_sub_epi64(_mm512_add_epi64(t, lanes.two_q), v[m]);
                    let y = mul_lazy(lanes, x, _mm512_set1_epi64(w as i64), _mm512_set1_epi64(c as i64));
                    t = _mm512_min_epu64(y, _mm512_sub_epi64(y, lanes.q));
                }
                v[l] = t;
                // SAFETY: j + 8 ≤ len ≤ digits[l].len().
                unsafe { store(digits[l], j, t) };
            }
        }
    }
}
