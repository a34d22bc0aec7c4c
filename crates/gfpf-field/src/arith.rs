//! Arithmetic on canonical elements: add, sub, shifts by powers of r,
//! multiplication, squaring, powers and inverses.
//!
//! Multiplication follows ISSAC 2019 §3: the negacyclic product of the digit
//! vectors gives k coefficients u_i with |u_i| < k·r²; each is made
//! non-negative by adding an offset vector whose value is 0 mod p, and one
//! carry chain in base r (two word divisions by the invariant r per
//! coefficient) brings the sum to digits, the carry out of r^k wrapping with a
//! minus sign (r^k = -1). ISSAC's split u_i = c_i·r² + h_i·r + l_i is the same
//! computation with three additions instead of one chain; it measured slower
//! here (more instructions, and this code is instruction-bound).

use crate::FieldError;
use crate::element::Element;
use crate::field::Field;
use crate::wide::{Acc192, ProductSum};

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
            // Branch-free: the carry of each digit is data-dependent and
            // unpredictable, a mispredicted branch per digit costs more than the add.
            carry = (o1 | o2 | (s >= r)) as u64;
            out[i] = s.wrapping_sub(r & carry.wrapping_neg());
        }
        if carry != 0 {
            // A carry out of digit k-1 is r^k = -1.
            self.decrement(&mut out);
        }
        Element(out)
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
            borrow = (b1 | b2) as u64;
            out[i] = d.wrapping_add(r & borrow.wrapping_neg());
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
        let i = i % (2 * K);
        let (s, negate) = if i >= K { (i - K, true) } else { (i, false) };
        let x = &x.0;
        if self.is_minus_one(x) {
            // -r^i: r^s for i ≥ k (since r^k = -1), else -(r^s).
            let mut unit = [0u64; K];
            unit[s] = 1;
            return if negate {
                Element(unit)
            } else {
                Element(self.sub_digits(&[0; K], &unit))
            };
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
        let mut coeffs = [Acc192::default(); K];
        for i in 0..K {
            // u_i = Σ_{j≤i} x_j·y_{i-j} - Σ_{j>i} x_j·y_{i+k-j}. Zipped slices
            // (no index arithmetic) keep the loops free of bounds checks.
            let mut pos = ProductSum::default();
            let mut neg = ProductSum::default();
            for (&a, &b) in xd[..=i].iter().zip(yd[..=i].iter().rev()) {
                pos.add(a, b);
            }
            for (&a, &b) in xd[i + 1..].iter().zip(yd[i + 1..].iter().rev()) {
                neg.add(a, b);
            }
            coeffs[i] = self.offset_coefficient(i, &pos, &neg);
        }
        Element(self.normalize(&coeffs))
    }

    /// x².
    #[inline]
    pub fn square(&self, x: &Element<K>) -> Element<K> {
        let xd = &x.0;
        if self.is_minus_one(xd) {
            return self.one();
        }
        let mut coeffs = [Acc192::default(); K];
        for i in 0..K {
            // Cross products x_j·x_l, j < l, appear twice: sum them once and double.
            let mut pos = ProductSum::default();
            let mut neg = ProductSum::default();
            let half = i.div_ceil(2);
            for (&a, &b) in xd[..half].iter().zip(xd[i + 1 - half..=i].iter().rev()) {
                pos.add(a, b);
            }
            // Pairs (j, i+k-j) with i < j < i+k-j < k.
            let wrap = i + K;
            let neg_end = wrap.div_ceil(2);
            for (&a, &b) in xd[i + 1..neg_end].iter().zip(xd[wrap + 1 - neg_end..].iter().rev()) {
                neg.add(a, b);
            }
            pos.double();
            neg.double();
            // k is even, so i + k and i have the same parity: an even i has one
            // diagonal square on each side, an odd i none.
            if i % 2 == 0 {
                pos.add(xd[i / 2], xd[i / 2]);
                neg.add(xd[wrap / 2], xd[wrap / 2]);
            }
            coeffs[i] = self.offset_coefficient(i, &pos, &neg);
        }
        Element(self.normalize(&coeffs))
    }

    /// z_i = offset_i + pos - neg, in [0, 2^137) (see `Field::offset_first`).
    #[inline(always)]
    fn offset_coefficient(&self, i: usize, pos: &ProductSum, neg: &ProductSum) -> Acc192 {
        let mut z = if i == 0 { self.offset_first } else { self.offset_rest };
        z.add_acc(pos.value());
        z.sub_acc(neg.value());
        z
    }

    /// Turns offset negacyclic coefficients z_i (0 ≤ z_i < 2^137, Σ z_i·r^i ≡ the
    /// product) into a canonical digit vector: one carry chain in base r, two
    /// word divisions per coefficient, then the carry out of r^k wraps with a
    /// minus sign (r^k = -1).
    #[inline(always)]
    fn normalize(&self, z: &[Acc192; K]) -> [u64; K] {
        let mut out = [0u64; K];
        // carry < 2^75 always: z_i + carry < 2^138 and r ≥ 2^62 for every
        // preset (and ≥ 2^32 for custom fields, where the words still suffice).
        let mut carry: u128 = 0;
        for i in 0..K {
            let mut t = z[i];
            t.add(carry);
            // t = t_hi·2^64 + t_lo with t_hi < r·2^64: two 2-by-1 divisions.
            let (q_hi, rem) = self.r_div.div_rem(t.hi, (t.lo >> 64) as u64);
            let (q_lo, digit) = self.r_div.div_rem(rem, t.lo as u64);
            out[i] = digit;
            carry = ((q_hi as u128) << 64) | q_lo as u128;
        }
        // carry·r^k = -carry: subtract carry = a·r + b as a two-digit number.
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

    /// x^(-1); an error for zero.
    ///
    /// Uses GMP's extended gcd (through the integer conversion): far cheaper
    /// than x^(p-2) for the large presets.
    pub fn inverse(&self, x: &Element<K>) -> Result<Element<K>, FieldError> {
        if x.is_zero() {
            return Err(FieldError::ZeroInverse { index: 0 });
        }
        let inv = self
            .to_integer(x)
            .invert(&self.p)
            .expect("a non-zero element of a prime field is invertible");
        Ok(self.from_integer(&inv).expect("GMP returns a value in [0, p)"))
    }

    /// Replaces every element by its inverse with one inversion and 3(n-1)
    /// multiplications (Montgomery's trick). If any element is zero the slice
    /// is left untouched and the error names the first zero.
    pub fn batch_inverse(&self, xs: &mut [Element<K>]) -> Result<(), FieldError> {
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
