//! Arithmetic on canonical elements: add, sub, shifts by powers of r,
//! multiplication, squaring, powers and inverses.
//!
//! Multiplication follows ISSAC 2019 §3: the negacyclic product of the digit
//! vectors gives k coefficients u_i with |u_i| < k·r²; each is made
//! non-negative by adding an offset vector whose value is 0 mod p, and one
//! carry chain in base r (word divisions by the invariant r, Möller–Granlund)
//! brings the sum to digits, the carry out of r^k wrapping with a minus sign
//! (r^k = -1). ISSAC's split u_i = c_i·r² + h_i·r + l_i is the same computation
//! with three additions instead of one chain; it measured slower here (more
//! instructions, and this code is instruction-bound). So did dividing every
//! z_i by r independently and splitting each quotient once more, which cuts
//! the chain of dependent divisions but adds k of them (t16 468 → 618 ns):
//! in a stream of products the chain's latency overlaps the next product.
//! One level of Karatsuba on the 128-bit kernels (x = x0 + r^(k/2)·x1, three
//! half products with column loops) ran 22% more instructions per product
//! than the two-coefficients-per-pass schoolbook loops at p32 (14.8k against
//! 12.1k per multiplication): the saved quarter of the products does not pay
//! for the rolled loops' worse code and the recombination.
//!
//! The field picks one of three kernels from exact bounds (`MulKernel`): with
//! r < 2^60 (the p-presets) coefficient sums fit a `u128`, and for small k a
//! coefficient plus carry is below r·2^64, so one division per digit suffices.

use crate::FieldError;
use std::hint::select_unpredictable;

use crate::element::Element;
use crate::field::Field;
use crate::field::MulKernel;
use crate::wide::{Acc192, HalfSums, ProductAccumulator, ProductSum, WideAccumulator, shl_words};

impl<const K: usize> Field<K> {
    /// Whether `x` is p - 1, the one value with a digit equal to r.
    #[inline(always)]
    fn is_minus_one(&self, x: &[u64; K]) -> bool {
        x[K - 1] == self.r
    }

    /// x + y.
    #[inline]
    pub fn add(&self, x: &Element<K>, y: &Element<K>) -> Element<K> {
        let r = self.r;
        let (x, y) = (&x.0, &y.0);
        let mut out = [0u64; K];
        let mut carry = 0u64;
        for i in 0..K {
            // The true sum is below 2r + 1 < 2^65: at most one of the two adds
            // overflows, and `s - r` (wrapping) is then exact.
            let (s1, o1) = x[i].overflowing_add(y[i]);
            let (s, o2) = s1.overflowing_add(carry);
            // The carry of each digit is data-dependent and unpredictable: a
            // branch would mispredict half the time. A plain mask or select is
            // turned back into a branch by LLVM's x86 cmov conversion once the
            // loop stays rolled (k ≥ 32); `select_unpredictable` keeps the cmov.
            let over = o1 | o2 | (s >= r);
            out[i] = select_unpredictable(over, s.wrapping_sub(r), s);
            carry = over as u64;
        }
        if carry != 0 {
            // A carry out of digit k-1 is r^k = -1.
            self.decrement(&mut out);
        }
        Element(out)
    }

    /// (x + y, x − y): an FFT butterfly in one pass over the digits, the two
    /// carry chains interleaved (faster than `add` then `sub`).
    #[inline]
    pub fn add_sub(&self, x: &Element<K>, y: &Element<K>) -> (Element<K>, Element<K>) {
        let r = self.r;
        let (x, y) = (&x.0, &y.0);
        let mut sum = [0u64; K];
        let mut diff = [0u64; K];
        let mut carry = 0u64;
        let mut borrow = 0u64;
        for i in 0..K {
            // As in `add` and `sub_digits`.
            let (s1, o1) = x[i].overflowing_add(y[i]);
            let (s, o2) = s1.overflowing_add(carry);
            let over = o1 | o2 | (s >= r);
            sum[i] = select_unpredictable(over, s.wrapping_sub(r), s);
            carry = over as u64;
            let (d1, b1) = x[i].overflowing_sub(y[i]);
            let (d, b2) = d1.overflowing_sub(borrow);
            let under = b1 | b2;
            diff[i] = select_unpredictable(under, d.wrapping_add(r), d);
            borrow = under as u64;
        }
        if carry != 0 {
            self.decrement(&mut sum);
        }
        if borrow != 0 {
            self.increment(&mut diff);
        }
        (Element(sum), Element(diff))
    }

    /// (x, y) ← (x + y, x − y) in place: [`Field::add_sub`] without moving the
    /// elements (for large k, returning two elements by value costs two
    /// copies of k words, a fair share of the butterfly itself).
    #[inline]
    pub fn add_sub_assign(&self, x: &mut Element<K>, y: &mut Element<K>) {
        let r = self.r;
        let (x, y) = (&mut x.0, &mut y.0);
        let mut carry = 0u64;
        let mut borrow = 0u64;
        for i in 0..K {
            let (xi, yi) = (x[i], y[i]);
            // As in `add_sub`.
            let (s1, o1) = xi.overflowing_add(yi);
            let (s, o2) = s1.overflowing_add(carry);
            let over = o1 | o2 | (s >= r);
            x[i] = select_unpredictable(over, s.wrapping_sub(r), s);
            carry = over as u64;
            let (d1, b1) = xi.overflowing_sub(yi);
            let (d, b2) = d1.overflowing_sub(borrow);
            let under = b1 | b2;
            y[i] = select_unpredictable(under, d.wrapping_add(r), d);
            borrow = under as u64;
        }
        if carry != 0 {
            self.decrement(x);
        }
        if borrow != 0 {
            self.increment(y);
        }
    }

    /// 2x.
    #[inline]
    pub fn double(&self, x: &Element<K>) -> Element<K> {
        self.add(x, x)
    }

    /// x - y.
    #[inline]
    pub fn sub(&self, x: &Element<K>, y: &Element<K>) -> Element<K> {
        Element(self.sub_digits(&x.0, &y.0))
    }

    /// -x.
    #[inline]
    pub fn neg(&self, x: &Element<K>) -> Element<K> {
        Element(self.sub_digits(&[0; K], &x.0))
    }

    /// x - y on digit vectors with digits below r, except that the top digit
    /// may be r when the vector is r^k; the result is canonical.
    #[inline(always)]
    pub(crate) fn sub_digits(&self, x: &[u64; K], y: &[u64; K]) -> [u64; K] {
        let r = self.r;
        let mut out = [0u64; K];
        let mut borrow = 0u64;
        for i in 0..K {
            // x_i - y_i - borrow lies in [-r, r]: adding r back is exact.
            let (d1, b1) = x[i].overflowing_sub(y[i]);
            let (d, b2) = d1.overflowing_sub(borrow);
            let under = b1 | b2;
            out[i] = select_unpredictable(under, d.wrapping_add(r), d);
            borrow = under as u64;
        }
        if borrow != 0 {
            // A borrow out of digit k-1 added r^k = -1: add 1 back.
            self.increment(&mut out);
        }
        out
    }

    /// out -= 1 for a digit vector with digits below r except possibly a top
    /// digit r; the result is canonical (0 - 1 gives p - 1).
    #[inline(always)]
    fn decrement(&self, out: &mut [u64; K]) {
        for d in out.iter_mut() {
            if *d != 0 {
                *d -= 1;
                return;
            }
            *d = self.r - 1;
        }
        *out = [0; K];
        out[K - 1] = self.r;
    }

    /// out += 1 for a digit vector with digits below r; r^k - 1 + 1 gives the
    /// canonical p - 1.
    #[inline(always)]
    fn increment(&self, out: &mut [u64; K]) {
        for d in out.iter_mut() {
            if *d + 1 < self.r {
                *d += 1;
                return;
            }
            *d = 0;
        }
        out[K - 1] = self.r;
    }

    /// x · r^i for any i (r has order 2k, so i is taken modulo 2k).
    ///
    /// A negacyclic digit shift and one subtraction: O(k) word operations,
    /// no multiplication (thesis §3.4).
    #[inline]
    pub fn mul_pow_r(&self, x: &Element<K>, i: usize) -> Element<K> {
        let (s, negate) = Self::split_shift(i);
        let x = &x.0;
        if self.is_minus_one(x) {
            return Element(self.minus_pow_r(s, negate));
        }
        // x·r^s = A - B: A holds the digits shifted up, B those that wrapped past r^k.
        let mut a = [0u64; K];
        let mut b = [0u64; K];
        a[s..].copy_from_slice(&x[..K - s]);
        b[..s].copy_from_slice(&x[K - s..]);
        Element(if negate {
            self.sub_digits(&b, &a)
        } else {
            self.sub_digits(&a, &b)
        })
    }

    /// x ← x · r^i in place: [`Field::mul_pow_r`] without moving the element
    /// (for large k the copy in and out costs as much as the shift).
    #[inline]
    pub fn mul_pow_r_assign(&self, x: &mut Element<K>, i: usize) {
        let (s, negate) = Self::split_shift(i);
        let x = &mut x.0;
        if self.is_minus_one(x) {
            *x = self.minus_pow_r(s, negate);
            return;
        }
        // After the rotation the digits that wrapped past r^k (B) sit at
        // 0..s, those shifted up (A) at s..k; the result is A - B, or B - A
        // when negated: one part is subtracted from zero, the other only
        // passes the borrow on.
        x.rotate_right(s);
        let r = self.r;
        let mut borrow = 0u64;
        for (j, d) in x.iter_mut().enumerate() {
            let (plus, minus) = if (j < s) != negate { (0, *d) } else { (*d, 0) };
            // As in `sub_digits`.
            let (d1, b1) = plus.overflowing_sub(minus);
            let (v, b2) = d1.overflowing_sub(borrow);
            let under = b1 | b2;
            *d = select_unpredictable(under, v.wrapping_add(r), v);
            borrow = under as u64;
        }
        if borrow != 0 {
            self.increment(x);
        }
    }

    /// i mod 2k as (s, negate) with r^i = ±r^s, s < k (r^k = -1).
    #[inline(always)]
    fn split_shift(i: usize) -> (usize, bool) {
        let i = i % (2 * K);
        if i >= K { (i - K, true) } else { (i, false) }
    }

    /// (p − 1)·r^i = −r^i for r^i = ±r^s: r^s when negated (i ≥ k), else −r^s.
    #[inline(always)]
    fn minus_pow_r(&self, s: usize, negate: bool) -> [u64; K] {
        let mut unit = [0u64; K];
        unit[s] = 1;
        if negate { unit } else { self.sub_digits(&[0; K], &unit) }
    }

    /// x · y.
    #[inline]
    pub fn mul(&self, x: &Element<K>, y: &Element<K>) -> Element<K> {
        let (xd, yd) = (&x.0, &y.0);
        if self.is_minus_one(xd) {
            return self.neg(y);
        }
        if self.is_minus_one(yd) {
            return self.neg(x);
        }
        if let Some(conv) = &self.convolution {
            return Element(self.normalize(&conv.offset_coefficients(
                xd,
                Some(yd),
                self.offset_first,
                self.offset_rest,
            )));
        }
        Element(match self.mul_kernel {
            MulKernel::NarrowSingle => self.normalize_narrow_single(&self.offset(product_sums::<u128, K>(xd, yd))),
            MulKernel::Narrow => self.normalize_narrow(&self.offset(product_sums::<u128, K>(xd, yd))),
            MulKernel::Wide if K <= FULL_UNROLL_MAX_K => self.wide_from(product_sums::<HalfSums, K>(xd, yd)),
            MulKernel::Wide => self.wide_from(product_sums::<ProductSum, K>(xd, yd)),
        })
    }

    /// L independent products at once: [x_e·y_e, e < L]. The same results
    /// as L calls of [`Self::mul`]; the L normalisations (chains of
    /// dependent divisions) are interleaved so that the CPU overlaps them.
    ///
    /// Tried and dropped (alternating runs on the project VM):
    /// Shoup companions ⌊w_j·2^64/r⌋ for a fixed factor w, which split every
    /// digit product x_i·w_j = Q·r + R on the spot and leave sums with small
    /// quotients (no division): 0.63x as fast as [`Self::mul`] at t8 and
    /// 0.34–0.67x elsewhere. Three multiplications per digit product cost
    /// more than the divisions they remove; the divisions' latency, which
    /// this method hides, was the real cost.
    #[inline]
    pub fn mul_lanes<const L: usize>(&self, x: [&Element<K>; L], y: [&Element<K>; L]) -> [Element<K>; L] {
        let plain = |e: &Element<K>| !self.is_minus_one(&e.0);
        if K > MUL_LANES_MAX_K || self.convolution.is_some() || !x.iter().chain(&y).all(|e| plain(e)) {
            return std::array::from_fn(|e| self.mul(x[e], y[e]));
        }
        match self.mul_kernel {
            MulKernel::NarrowSingle => {
                let z: [[u128; K]; L] = std::array::from_fn(|e| self.offset(product_sums::<u128, K>(&x[e].0, &y[e].0)));
                self.normalize_narrow_single_lanes(&z).map(Element)
            }
            MulKernel::Narrow => {
                let z: [[u128; K]; L] = std::array::from_fn(|e| self.offset(product_sums::<u128, K>(&x[e].0, &y[e].0)));
                self.normalize_narrow_lanes(&z).map(Element)
            }
            MulKernel::Wide if K <= FULL_UNROLL_MAX_K => {
                let z: [[Acc192; K]; L] = std::array::from_fn(|e| {
                    self.offset(product_sums::<HalfSums, K>(&x[e].0, &y[e].0))
                        .map(|z| z.value())
                });
                self.normalize_wide_lanes(&z).map(Element)
            }
            MulKernel::Wide => {
                let z: [[Acc192; K]; L] = std::array::from_fn(|e| {
                    self.offset(product_sums::<ProductSum, K>(&x[e].0, &y[e].0))
                        .map(|z| z.value())
                });
                self.normalize_wide_lanes(&z).map(Element)
            }
        }
    }

    /// [`Self::normalize_narrow`] for L elements, their chains interleaved.
    /// The three `*_lanes` forms stay apart from the one-element ones on
    /// purpose: making those call these with L = 1 slowed t8 `mul` from 120
    /// to 152 ns and its lanes from 85 to 117 ns (alternating run).
    #[inline(always)]
    fn normalize_narrow_lanes<const L: usize>(&self, z: &[[u128; K]; L]) -> [[u64; K]; L] {
        let mut out = [[0u64; K]; L];
        let mut carry = [0u128; L];
        for i in 0..K {
            for e in 0..L {
                (out[e][i], carry[e]) = self.divide_by_r(0, z[e][i] + carry[e]);
            }
        }
        std::array::from_fn(|e| self.subtract_wrapped_carry(out[e], carry[e]))
    }

    /// [`Self::normalize_narrow_single`] for L elements, their chains
    /// interleaved.
    #[inline(always)]
    pub(crate) fn normalize_narrow_single_lanes<const L: usize>(&self, z: &[[u128; K]; L]) -> [[u64; K]; L] {
        let s = self.r_div.shift();
        let mut out = [[0u64; K]; L];
        let mut carry = [0u64; L];
        for i in 0..K {
            for e in 0..L {
                let t = z[e][i] + carry[e] as u128;
                let (q, rem) = self
                    .r_div
                    .div_rem_scaled(shl_words((t >> 64) as u64, t as u64, s), (t as u64) << s);
                out[e][i] = rem >> s;
                carry[e] = q;
            }
        }
        std::array::from_fn(|e| self.subtract_wrapped_carry(out[e], carry[e] as u128))
    }

    /// [`Self::normalize_wide`] for L elements, their chains interleaved.
    #[inline(always)]
    fn normalize_wide_lanes<const L: usize>(&self, z: &[[Acc192; K]; L]) -> [[u64; K]; L] {
        let mut out = [[0u64; K]; L];
        let mut carry = [0u128; L];
        for i in 0..K {
            for e in 0..L {
                let mut t = z[e][i];
                t.add(carry[e]);
                (out[e][i], carry[e]) = self.divide_by_r(t.hi, t.lo);
            }
        }
        std::array::from_fn(|e| self.subtract_wrapped_carry(out[e], carry[e]))
    }

    /// x².
    #[inline]
    pub fn square(&self, x: &Element<K>) -> Element<K> {
        let xd = &x.0;
        if self.is_minus_one(xd) {
            return self.one();
        }
        if let Some(conv) = &self.convolution {
            return Element(self.normalize(&conv.offset_coefficients(xd, None, self.offset_first, self.offset_rest)));
        }
        Element(match self.mul_kernel {
            MulKernel::NarrowSingle => self.normalize_narrow_single(&self.offset(square_sums::<u128, K>(xd))),
            MulKernel::Narrow => self.normalize_narrow(&self.offset(square_sums::<u128, K>(xd))),
            MulKernel::Wide if K <= FULL_UNROLL_MAX_K => self.wide_from(square_sums::<HalfSums, K>(xd)),
            MulKernel::Wide => self.wide_from(square_sums::<ProductSum, K>(xd)),
        })
    }

    /// Adds the offset vector (value G·p ≡ 0) that makes every coefficient
    /// non-negative: z_i = u_i + offset_i ∈ [0, 2^138).
    #[inline(always)]
    fn offset<S: ProductAccumulator>(&self, mut u: [S; K]) -> [S; K] {
        u[0].add_wide(self.offset_first);
        for z in &mut u[1..] {
            z.add_wide(self.offset_rest);
        }
        u
    }

    /// Normalisation when every z_i + carry < r·2^64 (`MulKernel::NarrowSingle`):
    /// one word division per coefficient, the carry a single word.
    ///
    /// Tried and dropped (alternating runs on the project VM): a
    /// split form without the chain of dependent divisions (z_i = h_i·r +
    /// l_i and h_i = e_i·r + f_i, 2K independent divisions, then carries of
    /// 0–2 by compares) was 0.91x as fast on p8 multiplications and 0.94–0.96x
    /// on multi-modular products (t8, p8, t16, t64): twice the divisions cost
    /// more than the shorter chain saved. Overlapping the chains of
    /// independent elements instead keeps one division per digit and wins
    /// ([`Self::mul_lanes`], [`Self::reduce_narrow_digit_sums_lanes`]).
    #[inline(always)]
    pub(crate) fn normalize_narrow_single(&self, z: &[u128; K]) -> [u64; K] {
        let s = self.r_div.shift();
        let mut out = [0u64; K];
        let mut carry = 0u64;
        for i in 0..K {
            let t = z[i] + carry as u128;
            let (q, rem) = self
                .r_div
                .div_rem_scaled(shl_words((t >> 64) as u64, t as u64, s), (t as u64) << s);
            out[i] = rem >> s;
            carry = q;
        }
        self.subtract_wrapped_carry(out, carry as u128)
    }

    /// Normalisation when every z_i + carry < 2^128 (`MulKernel::Narrow`).
    #[inline(always)]
    fn normalize_narrow(&self, z: &[u128; K]) -> [u64; K] {
        let mut out = [0u64; K];
        let mut carry = 0u128;
        for i in 0..K {
            (out[i], carry) = self.divide_by_r(0, z[i] + carry);
        }
        self.subtract_wrapped_carry(out, carry)
    }

    /// Normalisation with 192-bit coefficients (`MulKernel::Wide`).
    #[inline(always)]
    fn normalize_wide(&self, z: &[Acc192; K]) -> [u64; K] {
        let mut out = [0u64; K];
        let mut carry = 0u128;
        for i in 0..K {
            let mut t = z[i];
            t.add(carry);
            (out[i], carry) = self.divide_by_r(t.hi, t.lo);
        }
        self.subtract_wrapped_carry(out, carry)
    }

    /// The element Σ z_i·r^i mod p for non-negative digit sums z_i given as
    /// 192-bit little-endian words, each below (r − 1)·r² (so every carry of
    /// the normalisation stays below r², two digits): how a caller that
    /// computed an integer digit convolution itself (for instance by small
    /// primes and CRT) gets back into the field. An error names the first
    /// sum out of range.
    pub fn reduce_digit_sums(&self, sums: &[[u64; 3]; K]) -> Result<Element<K>, FieldError> {
        let limit = Acc192::mul_u64_u128(self.r, (self.r as u128 - 1) * self.r as u128);
        let mut z = [Acc192::new(0, 0); K];
        for (i, (s, slot)) in sums.iter().zip(z.iter_mut()).enumerate() {
            let lo = s[0] as u128 | (s[1] as u128) << 64;
            if (s[2], lo) >= (limit.hi, limit.lo) {
                return Err(FieldError::DigitSumTooLarge { index: i, r: self.r });
            }
            *slot = Acc192::new(lo, s[2]);
        }
        Ok(Element(self.normalize_wide(&z)))
    }

    /// The element Σ z_i·r^i mod p for non-negative digit sums z_i below
    /// (r − 1)·2^64: the fast case of [`Self::reduce_digit_sums`], one word
    /// division per digit. An error names the first sum out of range.
    pub fn reduce_narrow_digit_sums(&self, sums: &[u128; K]) -> Result<Element<K>, FieldError> {
        let limit = (self.r as u128 - 1) << 64;
        if let Some(i) = sums.iter().position(|&z| z >= limit) {
            return Err(FieldError::DigitSumTooLarge { index: i, r: self.r });
        }
        Ok(Element(self.normalize_narrow_single(sums)))
    }

    /// [`Self::reduce_narrow_digit_sums`] for L elements at once, their
    /// chains of divisions interleaved (as in [`Self::mul_lanes`]); the error
    /// names the first sum out of range of the first element that has one.
    pub fn reduce_narrow_digit_sums_lanes<const L: usize>(
        &self,
        sums: [&[u128; K]; L],
    ) -> Result<[Element<K>; L], FieldError> {
        let limit = (self.r as u128 - 1) << 64;
        for z in sums {
            if let Some(i) = z.iter().position(|&z| z >= limit) {
                return Err(FieldError::DigitSumTooLarge { index: i, r: self.r });
            }
        }
        let z: [[u128; K]; L] = sums.map(|z| *z);
        Ok(self.normalize_narrow_single_lanes(&z).map(Element))
    }

    /// Offsets and normalises 192-bit product sums.
    #[inline(always)]
    fn wide_from<S: WideAccumulator>(&self, u: [S; K]) -> [u64; K] {
        self.normalize_wide(&self.offset(u).map(|z| z.value()))
    }

    /// Normalises offset coefficients given in 192 bits with the field's kernel
    /// (the narrow kernels know they fit 128 bits).
    #[inline(always)]
    fn normalize(&self, z: &[Acc192; K]) -> [u64; K] {
        match self.mul_kernel {
            MulKernel::NarrowSingle => self.normalize_narrow_single(&z.map(|t| t.lo)),
            MulKernel::Narrow => self.normalize_narrow(&z.map(|t| t.lo)),
            MulKernel::Wide => self.normalize_wide(z),
        }
    }

    /// (t mod r, t div r) for t = hi·2^128 + lo < 2^(192 - shift) with a
    /// quotient below 2^128: the dividend is shifted once, then two 2-by-1
    /// divisions by the normalised r.
    #[inline(always)]
    fn divide_by_r(&self, hi: u64, lo: u128) -> (u64, u128) {
        let s = self.r_div.shift();
        let (w1, w0) = ((lo >> 64) as u64, lo as u64);
        let (q_hi, rem) = self.r_div.div_rem_scaled(shl_words(hi, w1, s), shl_words(w1, w0, s));
        let (q_lo, rem) = self.r_div.div_rem_scaled(rem, w0 << s);
        (rem >> s, ((q_hi as u128) << 64) | q_lo as u128)
    }

    /// The last step of every normalisation: `carry·r^k = -carry`, so subtract
    /// carry = a·r + b (a < r) as a two-digit number.
    #[inline(always)]
    fn subtract_wrapped_carry(&self, out: [u64; K], carry: u128) -> [u64; K] {
        let (a, b) = self.r_div.div_rem((carry >> 64) as u64, carry as u64);
        let mut s = [0u64; K];
        s[0] = b;
        s[1] = a;
        self.sub_digits(&out, &s)
    }

    /// x^e for a little-endian multi-word exponent e (x^0 = 1, also for x = 0).
    pub fn pow(&self, x: &Element<K>, exponent: &[u64]) -> Element<K> {
        let mut acc = self.one();
        for &word in exponent.iter().rev() {
            for bit in (0..64).rev() {
                acc = self.square(&acc);
                if (word >> bit) & 1 == 1 {
                    acc = self.mul(&acc, x);
                }
            }
        }
        acc
    }

    /// x^e for a word exponent.
    pub fn pow_u64(&self, x: &Element<K>, exponent: u64) -> Element<K> {
        self.pow(x, &[exponent])
    }

    /// x^(-1); an error for zero, or for an element that is not canonical
    /// (as [`Field::check`] finds it: a digit ≥ r, or a value ≥ p).
    ///
    /// Uses GMP's extended gcd (through the integer conversion): far cheaper
    /// than x^(p-2) for the large presets.
    pub fn inverse(&self, x: &Element<K>) -> Result<Element<K>, FieldError> {
        self.check(x)?;
        if x.is_zero() {
            return Err(FieldError::ZeroInverse { index: 0 });
        }
        // A canonical non-zero value is below p and prime to it.
        let inv = self
            .to_integer(x)
            .invert(&self.p)
            .map_err(|_| FieldError::ZeroInverse { index: 0 })?;
        self.from_integer(&inv)
    }

    /// Replaces every element by its inverse with one inversion and 3(n-1)
    /// multiplications (Montgomery's trick). If any element is zero or not
    /// canonical the slice is left untouched and the error names the first
    /// such problem.
    pub fn batch_inverse(&self, xs: &mut [Element<K>]) -> Result<(), FieldError> {
        if let Some((_, e)) = self.first_non_canonical(xs) {
            return Err(e);
        }
        if let Some(index) = xs.iter().position(Element::is_zero) {
            return Err(FieldError::ZeroInverse { index });
        }
        if xs.is_empty() {
            return Ok(());
        }
        // prefix[i] = x_0 ··· x_{i-1}
        let mut prefix = Vec::with_capacity(xs.len());
        let mut acc = self.one();
        for x in xs.iter() {
            prefix.push(acc);
            acc = self.mul(&acc, x);
        }
        let mut inv = self.inverse(&acc)?;
        for (x, before) in xs.iter_mut().zip(prefix).rev() {
            let x_inv = self.mul(&inv, &before);
            inv = self.mul(&inv, x);
            *x = x_inv;
        }
        Ok(())
    }
}

/// The negacyclic product coefficients
/// u_i = Σ_{j≤i} x_j·y_{i-j} - Σ_{j>i} x_j·y_{i+k-j}, as signed (wrapping) sums.
/// The sign of each term depends only on (i, j), never on the data.
#[inline(always)]
fn product_sums<S: ProductAccumulator, const K: usize>(xd: &[u64; K], yd: &[u64; K]) -> [S; K] {
    let mut u = [S::default(); K];
    if K <= FULL_UNROLL_MAX_K {
        for (i, ui) in u.iter_mut().enumerate() {
            for j in 0..K {
                if j <= i {
                    ui.add_product(xd[j], yd[i - j]);
                } else {
                    ui.sub_product(xd[j], yd[i + K - j]);
                }
            }
        }
        return u;
    }
    // Rolled loops over zipped slices (free of bounds checks and of a
    // per-term sign test), two coefficients per pass: each x_j is loaded once
    // for u_i and u_{i+1}, and the loop overhead is shared (7 instructions
    // per product instead of 9; both accumulators stay in registers).
    for i in (0..K).step_by(2) {
        let (mut even, mut odd) = (S::default(), S::default());
        // j ≤ i: both terms positive.
        for ((&x, &y_even), &y_odd) in xd[..=i]
            .iter()
            .zip(yd[..=i].iter().rev())
            .zip(yd[1..=i + 1].iter().rev())
        {
            even.add_product(x, y_even);
            odd.add_product(x, y_odd);
        }
        // j = i + 1: wraps for u_i, not for u_{i+1}.
        even.sub_product(xd[i + 1], yd[K - 1]);
        odd.add_product(xd[i + 1], yd[0]);
        // j > i + 1: both wrap.
        for ((&x, &y_even), &y_odd) in xd[i + 2..]
            .iter()
            .zip(yd[i + 1..K - 1].iter().rev())
            .zip(yd[i + 2..].iter().rev())
        {
            even.sub_product(x, y_even);
            odd.sub_product(x, y_odd);
        }
        (u[i], u[i + 1]) = (even, odd);
    }
    u
}

/// Up to this k the product loops are written with fixed trip counts, which
/// LLVM unrolls completely (t8: 1621 instructions per product, against 1799
/// with slice loops; above it the slice loops are shorter, t16: 5570 vs 6915,
/// and fully unrolled t16 took 616 ns against 482 ns rolled). Above it the
/// rolled loops form two coefficients per pass (t16 556 → 413 ns, t128 18.3 →
/// 13.4 µs, best of 4 runs, Xeon 2.8 GHz).
/// For the same reason squaring reuses those loops up to this k (p8: 823
/// against 1138 instructions with the halved cross-product loops), and the
/// 192-bit kernel uses the two-halves accumulator there.
const FULL_UNROLL_MAX_K: usize = 8;

/// Above this k, [`Field::mul_lanes`] multiplies one element after the
/// other: at k = 128 the interleaved form was 0.94x as fast (t128, 10.3
/// against 9.64 µs per product, field_mul bench), at k = 64 1.09x (t64,
/// 2.41 against 2.63 µs) and at k ≤ 16 1.3–1.5x.
const MUL_LANES_MAX_K: usize = 64;

/// [`product_sums`] for y = x: the cross products x_j·x_l (j < l) appear
/// twice, so each coefficient sums them once (in registers, one pass per
/// coefficient), doubles, and adds its square term. (Summing row by row into
/// the coefficient array, as before, cost a load and a store per product:
/// t16 486 → 399 ns, t128 12.9 → 11.4 µs.)
#[inline(always)]
fn square_sums<S: ProductAccumulator, const K: usize>(xd: &[u64; K]) -> [S; K] {
    // Fully unrolled product loops beat the halved ones (see FULL_UNROLL_MAX_K).
    if K <= FULL_UNROLL_MAX_K {
        return product_sums(xd, xd);
    }
    let mut u = [S::default(); K];
    for (i, ui) in u.iter_mut().enumerate() {
        let mut acc = S::default();
        // Pairs j < l = i - j (no wrap): j < i/2.
        let half = i.div_ceil(2);
        for (&a, &b) in xd[..half].iter().zip(xd[i + 1 - half..=i].iter().rev()) {
            acc.add_product(a, b);
        }
        // Pairs i < j < l = i + k - j (wrapped, negative): j < (i + k)/2.
        let end = (i + K).div_ceil(2);
        for (&a, &b) in xd[i + 1..end].iter().zip(xd[i + K + 1 - end..].iter().rev()) {
            acc.sub_product(a, b);
        }
        acc.double();
        // The squares x_j² land on 2j (j < k/2) or wrap to 2j - k.
        if i % 2 == 0 {
            acc.add_product(xd[i / 2], xd[i / 2]);
            acc.sub_product(xd[(i + K) / 2], xd[(i + K) / 2]);
        }
        *ui = acc;
    }
    u
}
