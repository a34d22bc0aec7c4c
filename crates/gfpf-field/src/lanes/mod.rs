//! Eight elements side by side ([`Lanes`]), digit-major, and the arithmetic
//! of an FFT on them in SIMD lanes: one vector instruction does one digit
//! step of eight elements. The instruction set is chosen at run time
//! ([`LaneIsa`]); every form computes exactly what the one-element methods
//! of [`Field`] compute (the oracle tests hold them to each other and to GMP,
//! on every instruction set the CPU has).
//!
//! * Butterflies and shifts by powers of r ([`LaneArith::add_sub_assign`],
//!   [`LaneArith::mul_pow_r_assign`], and with a shift per lane
//!   [`LaneArith::mul_pow_r_each_assign`]) are plain loops over the lanes,
//!   written so that LLVM turns each into vector code (compares into masks,
//!   selects into blends); the [`LaneIsa`] forms are the same bodies compiled
//!   with AVX2 or AVX-512 enabled, [`LaneIsa::Portable`] with the build's
//!   baseline.
//! * Multiplication ([`LaneArith::mul_assign`]) runs in lanes with AVX-512
//!   IFMA: digits split into 52-bit limbs (a digit is below 2^64, so its top
//!   limb has 12 bits), the negacyclic product columns by 52-bit
//!   multiply-adds, and the base-r carry chain with quotients estimated in f64
//!   and made exact by limb arithmetic. Per element, eight at a time on the
//!   project VM (AMD EPYC, alternating runs): t8 50 ns and p8 50 ns, against
//!   89 and 51 ns for four interleaved one-element products
//!   ([`Field::mul_lanes`]). Without IFMA, or above [`LANE_MUL_MAX_K`], it
//!   multiplies element by element.
//! * Many products ([`LaneArith::mul_assign_each`]) run four blocks at a
//!   time: their columns one block after the other, then their four carry
//!   chains step by step together, so that the chains' latencies overlap
//!   (the chain of one block is a run of dependent divisions that the core's
//!   reorder window cannot overlap with the next block's columns). Per
//!   element, one block at a time against four (same binary, alternating):
//!   t4 19.4 → 12.9 ns (two blocks) → 14.4 (four), t8 42 → 31 → 27 ns, p8
//!   42 → 31 → 27 ns, t16 112 → 90 → 82 ns, p16 110 → 82 ns; eight blocks
//!   gave what four give.
//!
//! * From k = 16 on, the product's columns come from Karatsuba steps
//!   (x = x0 + x1·R^(k/2): three half products, A + (C − A − B)·R^(k/2) +
//!   B·R^k) down to schoolbook products of eight digits, limb by limb in
//!   signed 64-bit sums, carried between steps; then folded negacyclically.
//!   Per element with four blocks at a time, against the schoolbook (same
//!   binary kind, alternating): t16 84 → 74 ns, t32 312 → 208, t64 1361 →
//!   610, p64 1358 → 608, and k = 128 1.8 µs (whole-element products took
//!   6.5–9.0). Down to products of four digits was slower at k ≥ 32 (t32
//!   227 against 210 ns) and at k = 8 (38 against 36 ns): below eight
//!   digits the additions cost what the multiply-adds save. The schoolbook
//!   of all k digits at k = 64 kept 256 vectors of operand limbs live and
//!   spilled them.
//!
//! Tried and dropped: splitting every column on its own as
//! z_m = (f_m·r + e_m)·r + d_m, then d + r·e + r²·f by two shifts and two
//! additions in lanes (no chain of dependent divisions, twice the divisions):
//! t8 63 against 50 ns per element, t16 152 against 123 ns; the chain's
//! latency overlaps the next product's columns.

use crate::{Element, Field, FieldError};

/// How many elements a [`Lanes`] block holds.
pub const LANES: usize = 8;

/// The largest k whose multiplication runs in SIMD lanes
/// ([`LaneArith::mul_assign`]): every preset. Columns stay below 2^140 up to
/// k = 128 (the offset and the product are each below k·r²). Measured per
/// element with [`LaneArith::mul_assign_each`] against four one-element
/// products at a time ([`Field::mul_lanes`]), same binary: t32 316 against
/// 706 ns, p32 380 against 756, t64 1.32 against 2.23 µs, p64 1.32 against
/// 1.83 (before the Karatsuba steps; with them t64 0.61 µs). k = 128 joined
/// with the Karatsuba steps: 1.8 µs per element against 9.0 (t128) and 6.5
/// (p128) for whole-element products; the FFT at 2^12, one thread,
/// alternating: t128 37.5 → 16.6 ms, p128 31.7 → 20.5 (before them, p128
/// had been 1.06x slower in lanes).
pub const LANE_MUL_MAX_K: usize = 128;

/// The least r whose multiplication runs in SIMD lanes: quotients by r of
/// the product columns (below 2^140) then stay below 2^84, two 52-bit limbs
/// with a 30-bit top.
pub const LANE_MUL_MIN_R: u64 = 1 << 56;

/// Eight elements of GF(r^k + 1), digit-major: `digits[i][l]` is digit i of
/// element l (the layout in which one vector holds one digit of all eight).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Lanes<const K: usize> {
    /// Digit i of element l at `[i][l]`.
    pub digits: [[u64; LANES]; K],
}

impl<const K: usize> Default for Lanes<K> {
    fn default() -> Self {
        Self {
            digits: [[0; LANES]; K],
        }
    }
}

impl<const K: usize> std::fmt::Debug for Lanes<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries((0..LANES).map(|l| self.lane(l))).finish()
    }
}

impl<const K: usize> Lanes<K> {
    /// The block whose lane l is `element(l)`.
    #[inline]
    pub fn from_fn(mut element: impl FnMut(usize) -> Element<K>) -> Self {
        let mut out = Self::default();
        for l in 0..LANES {
            out.set_lane(l, &element(l));
        }
        out
    }

    /// Element l (l < [`LANES`]).
    #[inline]
    pub fn lane(&self, l: usize) -> Element<K> {
        Element(std::array::from_fn(|i| self.digits[i][l]))
    }

    /// Sets element l (l < [`LANES`]).
    #[inline]
    pub fn set_lane(&mut self, l: usize, x: &Element<K>) {
        for (row, &d) in self.digits.iter_mut().zip(&x.0) {
            row[l] = d;
        }
    }
}

/// The instruction set the lane arithmetic runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LaneIsa {
    /// The build's baseline (any CPU; SSE2 on x86-64, NEON on aarch64).
    Portable,
    /// AVX2: each digit row of eight lanes in two 256-bit vectors.
    Avx2,
    /// AVX-512 (F, VL, BW, DQ): each digit row in one 512-bit vector, compares
    /// into mask registers.
    Avx512,
}

impl LaneIsa {
    /// Every instruction set this CPU can run, slowest first (the tests run
    /// each).
    pub fn available() -> Vec<LaneIsa> {
        [LaneIsa::Portable, LaneIsa::Avx2, LaneIsa::Avx512]
            .into_iter()
            .filter(|isa| isa.is_available())
            .collect()
    }

    /// Its name as CPU manuals write it: "AVX-512", "AVX2", or "portable".
    pub fn name(self) -> &'static str {
        match self {
            LaneIsa::Portable => "portable",
            LaneIsa::Avx2 => "AVX2",
            LaneIsa::Avx512 => "AVX-512",
        }
    }

    /// The fastest instruction set this CPU has.
    pub fn best() -> LaneIsa {
        *LaneIsa::available().last().unwrap_or(&LaneIsa::Portable)
    }

    /// Whether this CPU can run it (no allocation: std caches the CPU's
    /// features).
    pub fn is_available(self) -> bool {
        match self {
            LaneIsa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            LaneIsa::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            LaneIsa::Avx512 => {
                use std::arch::is_x86_feature_detected as has;
                has!("avx512f") && has!("avx512vl") && has!("avx512bw") && has!("avx512dq")
            }
            #[cfg(not(target_arch = "x86_64"))]
            LaneIsa::Avx2 | LaneIsa::Avx512 => false,
        }
    }

    /// `Ok(self)` when this CPU can run it, else
    /// [`FieldError::LaneIsaUnavailable`].
    pub fn ensure_available(self) -> Result<LaneIsa, FieldError> {
        if self.is_available() {
            Ok(self)
        } else {
            Err(FieldError::LaneIsaUnavailable(format!("{self:?}")))
        }
    }
}

/// The lane arithmetic of one field on one instruction set, checked
/// available when built.
#[derive(Debug, Clone, Copy)]
pub struct LaneArith<'f, const K: usize> {
    field: &'f Field<K>,
    isa: LaneIsa,
    /// The constants of the AVX-512 IFMA multiplication, when this field
    /// and CPU can run it (see [`LaneArith::mul_assign`]).
    #[cfg(target_arch = "x86_64")]
    ifma: Option<x86::MulConsts>,
}

/// Calls `$body` (an `#[inline(always)]` function generic over `K`) through
/// a wrapper compiled for the instruction set; the arguments are local
/// variables named as the parameters.
macro_rules! on_isa {
    ($isa:expr, $body:ident($($arg:ident: $ty:ty),*)) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2")]
            fn avx2<const K: usize>($($arg: $ty),*) {
                $body::<K>($($arg),*)
            }
            #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq")]
            fn avx512<const K: usize>($($arg: $ty),*) {
                $body::<K>($($arg),*)
            }
            match $isa {
                // SAFETY: a `LaneArith` is built only for an instruction set
                // that `LaneIsa::available` reported (`LaneArith::new`).
                LaneIsa::Avx2 => unsafe { avx2::<K>($($arg),*) },
                // SAFETY: as above.
                LaneIsa::Avx512 => unsafe { avx512::<K>($($arg),*) },
                LaneIsa::Portable => $body::<K>($($arg),*),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = $isa;
            $body::<K>($($arg),*)
        }
    }};
}

impl<'f, const K: usize> LaneArith<'f, K> {
    /// The lane arithmetic of `field` on `isa`; an error when this CPU
    /// cannot run `isa`.
    pub fn new(field: &'f Field<K>, isa: LaneIsa) -> Result<Self, FieldError> {
        let isa = isa.ensure_available()?;
        Ok(Self {
            field,
            isa,
            #[cfg(target_arch = "x86_64")]
            ifma: (isa == LaneIsa::Avx512
                && std::arch::is_x86_feature_detected!("avx512ifma")
                && K <= LANE_MUL_MAX_K
                && field.r >= LANE_MUL_MIN_R)
                .then(|| x86::MulConsts::new(field)),
        })
    }

    /// Whether [`Self::mul_assign`] multiplies in SIMD lanes (AVX-512 IFMA)
    /// rather than element by element.
    pub fn mul_in_lanes(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.ifma.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        return false;
    }

    /// x ← x·y lane by lane: [`Field::mul`] on eight pairs. With AVX-512
    /// IFMA ([`Self::mul_in_lanes`]: k ≤ [`LANE_MUL_MAX_K`], r ≥
    /// [`LANE_MUL_MIN_R`]) in SIMD lanes: digits split into 52-bit limbs,
    /// the negacyclic product columns by IFMA, and the base-r carry chain
    /// with quotients estimated in f64 and corrected exactly. Otherwise
    /// through [`Field::mul_lanes`], four elements at a time. For many
    /// blocks, [`Self::mul_assign_each`] is faster.
    #[inline]
    pub fn mul_assign(&self, x: &mut Lanes<K>, y: &Lanes<K>) {
        #[cfg(target_arch = "x86_64")]
        if let Some(consts) = &self.ifma {
            // SAFETY: `ifma` is set only when this CPU has AVX-512F, DQ and
            // IFMA (`LaneArith::new`).
            unsafe { x86::mul_ifma(consts, x, y) };
            return;
        }
        let f = self.field;
        let (xs, ys): ([Element<K>; LANES], [Element<K>; LANES]) =
            (std::array::from_fn(|l| x.lane(l)), std::array::from_fn(|l| y.lane(l)));
        for quad in 0..LANES / 4 {
            let at = |e: usize| 4 * quad + e;
            let products = f.mul_lanes(
                [&xs[at(0)], &xs[at(1)], &xs[at(2)], &xs[at(3)]],
                [&ys[at(0)], &ys[at(1)], &ys[at(2)], &ys[at(3)]],
            );
            for (e, product) in products.iter().enumerate() {
                x.set_lane(at(e), product);
            }
        }
    }

    /// x_e ← x_e·y_e for every pair of blocks: [`Self::mul_assign`] on each,
    /// in SIMD lanes four blocks at a time where the field multiplies in
    /// lanes (their carry chains interleaved, so that their latencies
    /// overlap: t8 27 against 42 ns per element). Pairs run as far as the
    /// shorter slice goes; the rest of `xs` is left alone.
    pub fn mul_assign_each(&self, xs: &mut [Lanes<K>], ys: &[Lanes<K>]) {
        let len = xs.len().min(ys.len());
        let (xs, ys) = (&mut xs[..len], &ys[..len]);
        #[cfg(target_arch = "x86_64")]
        if let Some(consts) = &self.ifma {
            let mut pairs = xs.chunks_exact_mut(4);
            let mut factors = ys.chunks_exact(4);
            for (x, y) in (&mut pairs).zip(&mut factors) {
                if let ([x0, x1, x2, x3], [y0, y1, y2, y3]) = (x, y) {
                    // SAFETY: `ifma` is set only when this CPU has AVX-512F,
                    // DQ and IFMA (`LaneArith::new`).
                    unsafe { x86::mul_ifma_n::<K, 4>(consts, [x0, x1, x2, x3], [y0, y1, y2, y3]) };
                }
            }
            // The last one to three blocks together as well.
            match (pairs.into_remainder(), factors.remainder()) {
                ([x0, x1, x2], [y0, y1, y2]) => {
                    // SAFETY: as above.
                    unsafe { x86::mul_ifma_n::<K, 3>(consts, [x0, x1, x2], [y0, y1, y2]) }
                }
                ([x0, x1], [y0, y1]) => {
                    // SAFETY: as above.
                    unsafe { x86::mul_ifma_n::<K, 2>(consts, [x0, x1], [y0, y1]) }
                }
                ([x0], [y0]) => {
                    // SAFETY: as above.
                    unsafe { x86::mul_ifma_n::<K, 1>(consts, [x0], [y0]) }
                }
                _ => {}
            }
            return;
        }
        for (x, y) in xs.iter_mut().zip(ys) {
            self.mul_assign(x, y);
        }
    }

    /// `out[j]` ← Σ_i sums\[j\]\[i\]·r^i mod p for non-negative digit sums
    /// below (r − 1)·2^64: [`Field::reduce_narrow_digit_sums`] on every
    /// coefficient (`out` and `sums` of one length). Where the field
    /// multiplies in lanes ([`Self::mul_in_lanes`]), eight coefficients a
    /// block and four blocks at a time, their carry chains interleaved;
    /// else four at a time ([`Field::reduce_narrow_digit_sums_lanes`]). An
    /// error names the first sum out of range; `out` is then unchanged.
    pub fn reduce_narrow_digit_sums(&self, sums: &[[u128; K]], out: &mut [Element<K>]) -> Result<(), FieldError> {
        let f = self.field;
        if sums.len() != out.len() {
            return Err(FieldError::LengthMismatch {
                what: "outputs for the digit sums",
                expected: sums.len(),
                got: out.len(),
            });
        }
        let limit = (f.r as u128 - 1) << 64;
        if let Some(i) = sums.iter().find_map(|z| z.iter().position(|&z| z >= limit)) {
            return Err(FieldError::DigitSumTooLarge { index: i, r: f.r });
        }
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if let Some(consts) = &self.ifma {
            const GROUP: usize = 4 * LANES;
            let mut blocks = [Lanes::<K>::default(); 4];
            for (z, x) in sums.chunks_exact(GROUP).zip(out.chunks_exact_mut(GROUP)) {
                let [b0, b1, b2, b3] = &mut blocks;
                let part = |e: usize| &z[e * LANES..][..LANES];
                // SAFETY: `ifma` is set only when this CPU has AVX-512F, DQ
                // and IFMA (`LaneArith::new`); the sums are below 2^128.
                unsafe {
                    x86::reduce_sums_ifma_n::<K, 4>(consts, [part(0), part(1), part(2), part(3)], [b0, b1, b2, b3])
                };
                for (block, chunk) in blocks.iter().zip(x.chunks_exact_mut(LANES)) {
                    let mut slots = chunk.iter_mut();
                    self.scatter(
                        block,
                        std::array::from_fn(|_| slots.next().expect("eight coefficients")),
                    );
                }
            }
            done = sums.len() / GROUP * GROUP;
            for (z, x) in sums[done..]
                .chunks_exact(LANES)
                .zip(out[done..].chunks_exact_mut(LANES))
            {
                let mut block = Lanes::<K>::default();
                // SAFETY: as above.
                unsafe { x86::reduce_sums_ifma_n::<K, 1>(consts, [z], [&mut block]) };
                let mut slots = x.iter_mut();
                self.scatter(
                    &block,
                    std::array::from_fn(|_| slots.next().expect("eight coefficients")),
                );
            }
            done = sums.len() / LANES * LANES;
        }
        // The sums were checked above: the normalisations themselves.
        let mut quads = out[done..].chunks_exact_mut(4);
        let mut sum_quads = sums[done..].chunks_exact(4);
        for (x, z) in (&mut quads).zip(&mut sum_quads) {
            if let Some(z) = z.first_chunk::<4>() {
                for (x, digits) in x.iter_mut().zip(f.normalize_narrow_single_lanes(z)) {
                    *x = Element(digits);
                }
            }
        }
        for (x, z) in quads.into_remainder().iter_mut().zip(sum_quads.remainder()) {
            *x = Element(f.normalize_narrow_single(z));
        }
        Ok(())
    }

    /// The field.
    pub fn field(&self) -> &'f Field<K> {
        self.field
    }

    /// The instruction set.
    pub fn isa(&self) -> LaneIsa {
        self.isa
    }

    /// (x, y) ← (x + y, x − y), lane by lane: [`Field::add_sub_assign`] on
    /// eight pairs at once.
    #[inline]
    pub fn add_sub_assign(&self, x: &mut Lanes<K>, y: &mut Lanes<K>) {
        let r = self.field.r;
        on_isa!(self.isa, add_sub_body(r: u64, x: &mut Lanes<K>, y: &mut Lanes<K>))
    }

    /// (x, y) ← (x + y, (x − y)·r^i), lane by lane: [`Self::add_sub_assign`]
    /// then [`Self::mul_pow_r_assign`] on y (the butterfly of a
    /// decimation-in-frequency DFT with its root power), in two carry
    /// chains instead of three: the shifted difference is formed from the
    /// digits in their moved places (i is taken modulo 2k).
    #[inline]
    pub fn add_sub_mul_pow_r_assign(&self, x: &mut Lanes<K>, y: &mut Lanes<K>, i: usize) {
        let r = self.field.r;
        on_isa!(self.isa, add_sub_mul_pow_r_body(r: u64, x: &mut Lanes<K>, y: &mut Lanes<K>, i: usize))
    }

    /// x ← x·r^i in every lane: [`Field::mul_pow_r_assign`] on eight elements
    /// at once (i is taken modulo 2k).
    #[inline]
    pub fn mul_pow_r_assign(&self, x: &mut Lanes<K>, i: usize) {
        let r = self.field.r;
        on_isa!(self.isa, mul_pow_r_body(r: u64, x: &mut Lanes<K>, i: usize))
    }

    /// Lane l of x ← x_l·r^(i_l): [`Self::mul_pow_r_assign`] with a shift
    /// of its own in every lane (each taken modulo 2k), as the twiddles of
    /// eight DFTs of different columns need. Shifts that agree take the
    /// one-shift form (nothing at all when they are all 0 mod 2k).
    #[inline]
    pub fn mul_pow_r_each_assign(&self, x: &mut Lanes<K>, i: [usize; LANES]) {
        let i = i.map(|i| i % (2 * K));
        if i.iter().all(|&il| il == i[0]) {
            if i[0] != 0 {
                self.mul_pow_r_assign(x, i[0]);
            }
            return;
        }
        let r = self.field.r;
        on_isa!(self.isa, mul_pow_r_each_body(r: u64, x: &mut Lanes<K>, i: [usize; LANES]))
    }
}

impl<const K: usize> LaneArith<'_, K> {
    /// The block whose lane l is `elements[l]`: a transpose of eight
    /// elements (with AVX-512, 8 × 8 digit tiles in registers).
    #[inline]
    pub fn gather(&self, elements: [&Element<K>; LANES]) -> Lanes<K> {
        let mut out = Lanes::default();
        #[cfg(target_arch = "x86_64")]
        if self.isa == LaneIsa::Avx512 && K.is_multiple_of(8) {
            // SAFETY: `LaneArith::new` checked that this CPU has AVX-512F.
            unsafe { x86::gather_avx512(elements, &mut out) };
            return out;
        }
        for (l, x) in elements.into_iter().enumerate() {
            out.set_lane(l, x);
        }
        out
    }

    /// Writes lane l of `x` to `elements[l]`: the inverse of [`Self::gather`].
    #[inline]
    pub fn scatter(&self, x: &Lanes<K>, elements: [&mut Element<K>; LANES]) {
        #[cfg(target_arch = "x86_64")]
        if self.isa == LaneIsa::Avx512 && K.is_multiple_of(8) {
            // SAFETY: `LaneArith::new` checked that this CPU has AVX-512F.
            unsafe { x86::scatter_avx512(x, elements) };
            return;
        }
        for (l, out) in elements.into_iter().enumerate() {
            *out = x.lane(l);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86;

/// One digit of a sum: (x + y + carry mod r, the carry out), for digits
/// below r (a top digit r of p − 1 included) and a carry of 0 or 1. As in
/// `Field::add`: the true sum is below 2r + 1 < 2^65, so at most one add
/// overflows and `s − r` (wrapping) is exact. Written with masks, not
/// branches, so that a loop over lanes becomes vector code.
#[inline(always)]
fn add_digit(r: u64, x: u64, y: u64, carry: u64) -> (u64, u64) {
    let s1 = x.wrapping_add(y);
    let s = s1.wrapping_add(carry);
    let over = ((s1 < x) | (s < s1) | (s >= r)) as u64;
    (s.wrapping_sub(r & over.wrapping_neg()), over)
}

/// One digit of a difference: (x − y − borrow mod r, the borrow out); the
/// difference lies in [−r, r], so adding r back is exact.
#[inline(always)]
fn sub_digit(r: u64, x: u64, y: u64, borrow: u64) -> (u64, u64) {
    let d1 = x.wrapping_sub(y);
    let d = d1.wrapping_sub(borrow);
    let under = ((x < y) | (d1 < borrow)) as u64;
    (d.wrapping_add(r & under.wrapping_neg()), under)
}

/// The butterfly of [`LaneArith::add_sub_assign`]: the two carry chains of
/// `Field::add_sub` with every lane's selects as masks.
#[inline(always)]
fn add_sub_body<const K: usize>(r: u64, x: &mut Lanes<K>, y: &mut Lanes<K>) {
    let mut carry = [0u64; LANES];
    let mut borrow = [0u64; LANES];
    for i in 0..K {
        let (xs, ys) = (&mut x.digits[i], &mut y.digits[i]);
        for l in 0..LANES {
            let (xi, yi) = (xs[l], ys[l]);
            (xs[l], carry[l]) = add_digit(r, xi, yi, carry[l]);
            (ys[l], borrow[l]) = sub_digit(r, xi, yi, borrow[l]);
        }
    }
    // A carry out of digit k − 1 is r^k = −1, a borrow +1.
    decrement_lanes(r, x, carry);
    increment_lanes(r, y, borrow);
}

/// [`LaneArith::add_sub_mul_pow_r_assign`] in two carry chains, not three:
/// r^s·(x − y) = Σ_t (x_(t−s) − y_(t−s))·r^t for t ≥ s, plus the digits
/// moved past r^k = −1, Σ_(t<s) (y_(t+k−s) − x_(t+k−s))·r^t (the other way
/// round when i ≥ k negates), one borrow chain over digit pairs taken from
/// their places; then the sum's carry chain. Where a lane holds p − 1 (top
/// digit r, which the moved pairs must not carry below the top) the
/// butterfly and the shift run one after the other.
#[inline(always)]
fn add_sub_mul_pow_r_body<const K: usize>(r: u64, x: &mut Lanes<K>, y: &mut Lanes<K>, i: usize) {
    let i = i % (2 * K);
    let top = K - 1;
    if (0..LANES).any(|l| (x.digits[top][l] == r) | (y.digits[top][l] == r)) {
        add_sub_body(r, x, y);
        mul_pow_r_body(r, y, i);
        return;
    }
    let (s, negate) = if i >= K { (i - K, true) } else { (i, false) };
    let ys = y.digits;
    let mut borrow = [0u64; LANES];
    for (t, out) in y.digits.iter_mut().enumerate() {
        let (j, swapped) = if t < s { (t + K - s, !negate) } else { (t - s, negate) };
        let (plus, minus) = if swapped {
            (&ys[j], &x.digits[j])
        } else {
            (&x.digits[j], &ys[j])
        };
        for l in 0..LANES {
            (out[l], borrow[l]) = sub_digit(r, plus[l], minus[l], borrow[l]);
        }
    }
    // A borrow out of the top digit is −r^k = +1.
    increment_lanes(r, y, borrow);
    let mut carry = [0u64; LANES];
    for (xs, ys) in x.digits.iter_mut().zip(&ys) {
        for l in 0..LANES {
            (xs[l], carry[l]) = add_digit(r, xs[l], ys[l], carry[l]);
        }
    }
    // A carry out of the top digit is r^k = −1.
    decrement_lanes(r, x, carry);
}

/// The shift of [`LaneArith::mul_pow_r_assign`]: the digit rows moved into
/// place and one borrow chain (A − B or B − A, as in
/// `Field::mul_pow_r_assign`); lanes holding p − 1 (top digit r) take the
/// constant −r^i instead.
#[inline(always)]
fn mul_pow_r_body<const K: usize>(r: u64, x: &mut Lanes<K>, i: usize) {
    let i = i % (2 * K);
    let (s, negate) = if i >= K { (i - K, true) } else { (i, false) };
    let minus_one: [bool; LANES] = std::array::from_fn(|l| x.digits[K - 1][l] == r);
    // Digit j comes from j − s, or wrapped from j + k − s; each row is
    // subtracted from zero or passes the borrow on as a whole (a branch per
    // row, not a select per lane).
    let src = x.digits;
    let mut borrow = [0u64; LANES];
    for (j, out) in x.digits.iter_mut().enumerate() {
        let (row, from_zero) = if j < s {
            (&src[j + K - s], !negate)
        } else {
            (&src[j - s], negate)
        };
        if from_zero {
            for l in 0..LANES {
                (out[l], borrow[l]) = sub_digit(r, 0, row[l], borrow[l]);
            }
        } else {
            for l in 0..LANES {
                (out[l], borrow[l]) = sub_digit(r, row[l], 0, borrow[l]);
            }
        }
    }
    increment_lanes(r, x, borrow);
    if minus_one.iter().any(|&m| m) {
        let value = minus_one_times_pow_r::<K>(r, s, negate);
        for l in (0..LANES).filter(|&l| minus_one[l]) {
            for (row, &d) in x.digits.iter_mut().zip(&value) {
                row[l] = d;
            }
        }
    }
}

/// [`mul_pow_r_body`] with a shift of its own in every lane: digit j of lane
/// l comes from j − s_l, or wrapped from j + k − s_l (its row read per
/// lane), and each lane chooses by its own s_l and sign which side is
/// subtracted from zero and which only passes the borrow on.
#[inline(always)]
fn mul_pow_r_each_body<const K: usize>(r: u64, x: &mut Lanes<K>, i: [usize; LANES]) {
    let i = i.map(|i| i % (2 * K));
    let negate = i.map(|i| i >= K);
    let s = i.map(|i| if i >= K { i - K } else { i });
    let minus_one: [bool; LANES] = std::array::from_fn(|l| x.digits[K - 1][l] == r);
    let src = x.digits;
    let mut borrow = [0u64; LANES];
    for (j, row) in x.digits.iter_mut().enumerate() {
        for l in 0..LANES {
            let moved = src[if j >= s[l] { j - s[l] } else { j + K - s[l] }][l];
            let from_zero = (j < s[l]) != negate[l];
            let (plus, minus) = if from_zero { (0, moved) } else { (moved, 0) };
            (row[l], borrow[l]) = sub_digit(r, plus, minus, borrow[l]);
        }
    }
    increment_lanes(r, x, borrow);
    for l in (0..LANES).filter(|&l| minus_one[l]) {
        let value = minus_one_times_pow_r::<K>(r, s[l], negate[l]);
        for (row, &d) in x.digits.iter_mut().zip(&value) {
            row[l] = d;
        }
    }
}

/// The digits of (p − 1)·r^i = −r^i, i = s (+ k when `negate`): r^s when
/// negated, else p − r^s, whose digits are 1, then 0 up to s, then r − 1
/// (p − 1 itself when s = 0). The shifts' borrow chains do not cover an
/// input whose top digit is r.
fn minus_one_times_pow_r<const K: usize>(r: u64, s: usize, negate: bool) -> [u64; K] {
    let mut value = [0u64; K];
    if negate {
        value[s] = 1;
    } else if s == 0 {
        value[K - 1] = r;
    } else {
        value[0] = 1;
        value[s..].fill(r - 1);
    }
    value
}

/// x ← x − (low + high·r) mod p in every lane (low, high below r; K ≥ 2):
/// the two digits, then the borrow rippled up only as far as a lane still
/// borrows (a digit or two), then out of the top added back (r^k = −1).
/// The IFMA products end with it: a whole borrow chain over K digits, with
/// a block of zeros above the two to clear first, made p16 2^10 and t8 256
/// 1.02–1.03x slower, p32 2^12 1.04x (one thread, alternating). Always
/// inlined, as the other lane bodies are: outlined, such a body was
/// compiled for the baseline instruction set (9% of p8 256 in one build).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sub_two_digits_body<const K: usize>(r: u64, x: &mut Lanes<K>, low: [u64; LANES], high: [u64; LANES]) {
    let mut borrow = [0u64; LANES];
    for (row, subtrahend) in x.digits.iter_mut().zip([low, high]) {
        for l in 0..LANES {
            (row[l], borrow[l]) = sub_digit(r, row[l], subtrahend[l], borrow[l]);
        }
    }
    for row in x.digits.iter_mut().skip(2) {
        if borrow == [0; LANES] {
            return;
        }
        for l in 0..LANES {
            (row[l], borrow[l]) = sub_digit(r, row[l], 0, borrow[l]);
        }
    }
    increment_lanes(r, x, borrow);
}

/// x −= 1 in the lanes whose `borrow` is 1 (digits below r, except possibly
/// a top digit r); 0 − 1 gives the canonical p − 1. Stops as soon as no lane
/// borrows (after the first digit, nearly always).
#[inline(always)]
fn decrement_lanes<const K: usize>(r: u64, x: &mut Lanes<K>, mut borrow: [u64; LANES]) {
    for row in x.digits.iter_mut() {
        if borrow == [0; LANES] {
            return;
        }
        for l in 0..LANES {
            let (d, b) = (row[l], borrow[l]);
            let zero = (d == 0) as u64;
            // d − 1, or r − 1 when d = 0 (0 − 1 + r, wrapping).
            row[l] = d.wrapping_sub(b).wrapping_add(r & (b & zero).wrapping_neg());
            borrow[l] = b & zero;
        }
    }
    for l in (0..LANES).filter(|&l| borrow[l] != 0) {
        for row in x.digits.iter_mut() {
            row[l] = 0;
        }
        x.digits[K - 1][l] = r;
    }
}

/// x += 1 in the lanes whose `carry` is 1 (digits below r); r^k − 1 + 1 gives
/// the canonical p − 1. Stops as soon as no lane carries.
#[inline(always)]
fn increment_lanes<const K: usize>(r: u64, x: &mut Lanes<K>, mut carry: [u64; LANES]) {
    for row in x.digits.iter_mut() {
        if carry == [0; LANES] {
            return;
        }
        for l in 0..LANES {
            let t = row[l].wrapping_add(carry[l]);
            let wrap = (t == r) as u64;
            row[l] = t & wrap.wrapping_sub(1);
            carry[l] = wrap;
        }
    }
    for l in 0..LANES {
        if carry[l] != 0 {
            x.digits[K - 1][l] = r;
        }
    }
}
