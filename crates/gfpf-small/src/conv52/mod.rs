//! Products in Z_q[x, y]/(x^N ∓ 1, y^K + 1) for a prime q < 2^50: the
//! word-size half of multiplying polynomials whose coefficients are
//! k-digit numbers Σ d_i·r^i with r^k = −1 (gfpf's big primes).
//!
//! **Layout.** An element is a K × N array stored row after row: row i holds
//! the coefficients of y^i, entry j of a row the coefficient of x^j. For a
//! polynomial over GF(r^K + 1), row i is the i-th digit of every coefficient
//! ("digit-major"), and the product computed here, read with y = r, is the
//! exact integer digit convolution that the big-prime product reduces.
//!
//! **The transform.** Negacyclic in y: row i is multiplied by ψ^i (ψ of order
//! 2K), then a K-point DFT runs down the columns (butterflies between whole
//! rows, vectorised along them); cyclic in x: an N-point [`Plan52`] NTT runs
//! along every row. The column DFT runs in passes of up to three layers on
//! groups of up to eight rows held in registers, the twist in the first
//! pass and the untwist in the last inverse one, and the butterflies whose
//! factor is 1 add and subtract only (t8 products, one thread, against one
//! pass per layer and per twist, alternating, 2-core AMD EPYC VM: AVX2
//! 0.92x / 0.94x / 0.96x at n = 2^12 / 2^14 / 2^16, IFMA 0.95x–1.03x, within
//! the VM's noise; the fused loops had to be written out pair by pair,
//! as a loop LLVM kept them on the stack and took 1.1x). Spectra are kept in Montgomery form (times 2^52, folded
//! into the twist for free) so that a pointwise product is one Montgomery
//! multiplication, and the inverse removes the factor together with ψ^(−i)
//! and K^(−1) in one pass.
//!
//! **Negacyclic rows** ([`RowWrap::Negacyclic`], x^N = −1) twist entry j of
//! every row by φ^j (φ of order 2N) before the row NTT and by φ^(−j) after
//! the inverse, each in the pass that reads the row anyway: a(φx)·b(φx) mod
//! x^N − 1 is (a·b mod x^N + 1)(φx). With a cyclic product of a
//! power-of-two length M ≤ N (x^N + 1 and x^M − 1 are coprime), it gives
//! products of any length up to N + M without padding to 2N
//! ([`BivariateConvolution::join_with_cyclic`]).
//!
//! The steps are public separately ([`BivariateConvolution::forward_columns`]
//! on any range of columns, [`BivariateConvolution::forward_row`] on any
//! row, …) so that a caller can run them on several threads; the whole
//! transforms are [`BivariateConvolution::forward`] and
//! [`BivariateConvolution::inverse`].

use crate::SmallError;
use crate::ntt::for_each_layer_power;
use crate::ntt52::{Accumulate, Isa, MASK52, NTT52_MAX_MODULUS, Plan52, Twiddles, companion52, mul_lazy, sub_if_ge};
use crate::primes::{inv_mod, pow_mod, root_of_unity};

pub(crate) mod columns;
mod garner;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
use columns::vector_pass;
use columns::{ColumnGroup, ColumnPass, column_passes};
pub use garner::{GARNER52_MAX_PRIMES, Garner52};

/// A fixed factor w < q with its Shoup companion ⌊w·2^52/q⌋.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Factor {
    value: u64,
    companion: u64,
}

impl Factor {
    fn new(value: u64, q: u64) -> Self {
        Factor {
            value,
            companion: companion52(value, q),
        }
    }
}

/// How a row (a polynomial in x of length N) wraps around.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowWrap {
    /// x^N = 1: cyclic convolution along the rows.
    Cyclic,
    /// x^N = −1: negacyclic convolution along the rows.
    Negacyclic,
}

/// The negacyclic rows' twist: φ^j and φ^(−j), j < N, with companions.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RowTwist {
    forward: Twiddles,
    inverse: Twiddles,
}

/// Transforms and pointwise products for Z_q[x, y]/(x^N ∓ 1, y^K + 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BivariateConvolution {
    k: usize,
    q: u64,
    rows: Plan52,
    /// `Some` for negacyclic rows.
    row_twist: Option<RowTwist>,
    /// The forward column transform (twist ψ^i·2^52 of row i, twist and
    /// Montgomery form at once, then the K-point DFT), pass by pass.
    columns_forward: Vec<ColumnPass>,
    /// The inverse column transform (K-point inverse DFT, then the untwist
    /// ψ^(−i)·(K·N)^(−1)·2^(−52) of row i), pass by pass.
    columns_inverse: Vec<ColumnPass>,
    /// −q^(−1) mod 2^52.
    q_neg_inv: u64,
    /// 2^(−52) mod q: the Montgomery factor of the AVX2 pointwise product.
    r_inv: u64,
}

impl BivariateConvolution {
    /// For K rows (a power of two) of N columns (a power of two) modulo the
    /// prime q < 2^50 with 2K | q − 1 and 2N | q − 1; cyclic rows.
    pub fn try_new(k: usize, n: usize, q: u64) -> Result<Self, SmallError> {
        Self::try_with_wrap(k, n, q, RowWrap::Cyclic)
    }

    /// The same with rows that wrap as `wrap` says.
    pub fn try_with_wrap(k: usize, n: usize, q: u64, wrap: RowWrap) -> Result<Self, SmallError> {
        if k == 0 || !k.is_power_of_two() {
            return Err(SmallError::LengthNotPowerOfTwo(k));
        }
        let rows = Plan52::try_new(n, q)?;
        debug_assert!(q < NTT52_MAX_MODULUS);
        let psi = root_of_unity(q, k.trailing_zeros() + 1)?;
        let omega = pow_mod(psi, 2, q);
        let two52 = ((1u128 << 52) % q as u128) as u64;
        let mul = |a: u64, b: u64| (a as u128 * b as u128 % q as u128) as u64;
        let psi_inv = inv_mod(psi, q);
        // The rows' inverse NTTs are left unscaled: N^(−1) joins K^(−1) here.
        let k_inv = inv_mod((k as u128 * n as u128 % q as u128) as u64, q);
        let two52_inv = inv_mod(two52, q);
        let (mut twist, mut untwist) = (Vec::with_capacity(k), Vec::with_capacity(k));
        let (mut up, mut down) = (two52, mul(k_inv, two52_inv));
        for _ in 0..k {
            twist.push(Factor::new(up, q));
            untwist.push(Factor::new(down, q));
            up = mul(up, psi);
            down = mul(down, psi_inv);
        }
        let layers = |root: u64| {
            let mut t = Vec::with_capacity(k);
            for_each_layer_power(k, root, q, |w| t.push(Factor::new(w, q)));
            t
        };
        let row_twist = match wrap {
            RowWrap::Cyclic => None,
            RowWrap::Negacyclic => {
                let phi = root_of_unity(q, n.trailing_zeros() + 1)?;
                let powers = |root: u64| {
                    let mut t = Twiddles::default();
                    let mut w = 1;
                    for _ in 0..n {
                        t.push(w, q);
                        w = mul(w, root);
                    }
                    t
                };
                Some(RowTwist {
                    forward: powers(phi),
                    inverse: powers(inv_mod(phi, q)),
                })
            }
        };
        // −q^(−1) mod 2^52 by Newton's iteration (q is odd).
        let mut inv = q;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(q.wrapping_mul(inv)));
        }
        Ok(BivariateConvolution {
            k,
            q,
            rows,
            row_twist,
            columns_forward: column_passes(k, &twist, &layers(omega), true),
            columns_inverse: column_passes(k, &untwist, &layers(inv_mod(omega, q)), false),
            q_neg_inv: inv.wrapping_neg() & MASK52,
            r_inv: two52_inv,
        })
    }

    /// The same transforms on another instruction set; an error if this CPU
    /// lacks it.
    pub fn with_isa(mut self, isa: Isa) -> Result<Self, SmallError> {
        self.rows = self.rows.with_isa(isa)?;
        Ok(self)
    }

    /// The instruction set it runs on.
    pub fn isa(&self) -> Isa {
        self.rows.isa()
    }

    /// How the rows wrap around.
    pub fn wrap(&self) -> RowWrap {
        match self.row_twist {
            None => RowWrap::Cyclic,
            Some(_) => RowWrap::Negacyclic,
        }
    }

    /// K, the number of rows.
    pub fn rows(&self) -> usize {
        self.k
    }

    /// N, the length of a row.
    pub fn row_len(&self) -> usize {
        self.rows.len()
    }

    /// K·N, the length of an element.
    pub fn len(&self) -> usize {
        self.k * self.rows.len()
    }

    /// Never true: K, N ≥ 1.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The modulus q.
    pub fn modulus(&self) -> u64 {
        self.q
    }

    fn check(&self, got: usize, expected: usize) -> Result<(), SmallError> {
        SmallError::check_len(expected, got)
    }

    /// Digit-major projection: for `words` holding groups of K words (say
    /// the K digits of consecutive big numbers), word i of group j goes,
    /// reduced modulo q, into `rows[i][j]` (written, added or subtracted as
    /// `how` says; the rows' values stay below q). `rows` holds K rows, each
    /// at least as long as there are groups. With IFMA, 8 × 8 blocks are
    /// reduced and transposed in registers (K a multiple of 8).
    pub fn project_words(&self, words: &[u64], rows: &mut [&mut [u64]], how: Accumulate) -> Result<(), SmallError> {
        let k = self.k;
        self.check(rows.len(), k)?;
        if !words.len().is_multiple_of(k) {
            return Err(SmallError::LengthMismatch {
                expected: words.len().next_multiple_of(k),
                got: words.len(),
            });
        }
        let count = words.len() / k;
        if let Some(short) = rows.iter().map(|r| r.len()).find(|&l| l < count) {
            return Err(SmallError::LengthMismatch {
                expected: count,
                got: short,
            });
        }
        let q = self.q;
        let isa = self.isa();
        // Blocks of lanes × lanes words (8 with IFMA, 4 with AVX2).
        let split = if k.is_multiple_of(isa.vector_len(8).max(1)) {
            isa.vector_len(count)
        } else {
            0
        };
        #[cfg(target_arch = "x86_64")]
        if split > 0 {
            let words = &words[..split * k];
            match isa {
                // SAFETY: as in `montgomery`; k and split are multiples of
                // 8, the lengths were checked above.
                Isa::Avx512Ifma => unsafe { crate::ntt52::ifma::project_words(words, k, rows, split, q, how) },
                // SAFETY: as above with 4.
                Isa::Avx2Fma => unsafe { crate::ntt52::avx2::project_words(words, k, rows, split, q, how) },
                Isa::Scalar => unreachable!("no vector part in scalar code"),
            }
        }
        let mu = ((1u128 << 64) / q as u128) as u64;
        for (j, group) in words.chunks_exact(k).enumerate().skip(split) {
            for (row, &d) in rows.iter_mut().zip(group) {
                // Barrett with μ = ⌊2^64/q⌋: d − ⌊d·μ/2^64⌋·q lies in [0, 3q).
                let t = d - (((d as u128 * mu as u128) >> 64) as u64) * q;
                let t = sub_if_ge(sub_if_ge(t, q), q);
                let slot = &mut row[j];
                *slot = match how {
                    Accumulate::Store => t,
                    Accumulate::Add => sub_if_ge(*slot + t, q),
                    Accumulate::Subtract => sub_if_ge(*slot + q - t, q),
                };
            }
        }
        Ok(())
    }

    /// The polynomial CRT that joins a negacyclic product with a cyclic one
    /// (`self` is the negacyclic convolution, row length N; the cyclic row
    /// has a power-of-two length M ≤ N): from one row of c₁ = c mod x^N + 1
    /// and the same row of c₂ = c mod x^M − 1 (values < q), for a product c
    /// of length at most N + M: c = c_low + x^N·c_high with deg c_high < M,
    /// c₁ = c_low − c_high and, as M divides N, c₂ = (c₁ mod x^M − 1) +
    /// 2·c_high, so c_high = (c₂ − (c₁ mod x^M − 1))/2. Afterwards
    /// `negacyclic` holds c_j for j < N and `cyclic` c_(N+j).
    pub fn join_with_cyclic(&self, negacyclic: &mut [u64], cyclic: &mut [u64]) -> Result<(), SmallError> {
        if self.wrap() != RowWrap::Negacyclic {
            return Err(SmallError::InvalidBasis(
                "join_with_cyclic needs the negacyclic convolution",
            ));
        }
        let n = self.row_len();
        self.check(negacyclic.len(), n)?;
        let m = cyclic.len();
        if !m.is_power_of_two() {
            return Err(SmallError::LengthNotPowerOfTwo(m));
        }
        if m > n {
            return Err(SmallError::LengthMismatch { expected: n, got: m });
        }
        match self.isa() {
            // SAFETY: the plan holds Avx512Ifma only where the CPU has it
            // (which implies AVX-512F).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { join_avx512(negacyclic, cyclic, self.q) },
            // SAFETY: the plan holds Avx2Fma only where the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { join_avx2(negacyclic, cyclic, self.q) },
            _ => join(negacyclic, cyclic, self.q),
        }
        Ok(())
    }

    /// The whole forward transform of one element (K·N values < q, row
    /// after row) into its spectrum (values < 2q, an order only
    /// [`Self::inverse`] and [`Self::mul_spectra`] need to know).
    pub fn forward(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.check(data.len(), self.len())?;
        let mut rows: Vec<&mut [u64]> = data.chunks_exact_mut(self.row_len()).collect();
        self.forward_columns(&mut rows)?;
        for row in rows {
            self.forward_row(row)?;
        }
        Ok(())
    }

    /// The whole inverse: a spectrum (values < 2q) back to the element
    /// (values < q); `inverse(forward(x)) = x`.
    pub fn inverse(&self, data: &mut [u64]) -> Result<(), SmallError> {
        self.check(data.len(), self.len())?;
        let mut rows: Vec<&mut [u64]> = data.chunks_exact_mut(self.row_len()).collect();
        for row in rows.iter_mut() {
            self.inverse_row(row)?;
        }
        self.inverse_columns(&mut rows)
    }

    /// The first half of [`Self::forward`] on a range of columns: `rows` holds
    /// the same columns of all K rows in order (values < q); afterwards they
    /// are in [0, 2q). Ranges of columns are independent.
    pub fn forward_columns(&self, rows: &mut [&mut [u64]]) -> Result<(), SmallError> {
        self.check(rows.len(), self.k)?;
        let width = rows.first().map_or(0, |r| r.len());
        for row in rows.iter() {
            self.check(row.len(), width)?;
        }
        for pass in &self.columns_forward {
            for group in &pass.groups {
                self.column_group(rows, pass, group, true)?;
            }
        }
        Ok(())
    }

    /// The second half of [`Self::forward`] on one row (values < 2q in and
    /// out). Rows are independent.
    pub fn forward_row(&self, row: &mut [u64]) -> Result<(), SmallError> {
        if let Some(twist) = &self.row_twist {
            self.check(row.len(), self.row_len())?;
            self.mul_table(row, &twist.forward);
        }
        self.rows.forward_lazy(row)
    }

    /// The first half of [`Self::inverse`] on one row (values < 2q in and
    /// out; the scaling is left to [`Self::inverse_columns`]).
    pub fn inverse_row(&self, row: &mut [u64]) -> Result<(), SmallError> {
        self.rows.inverse_unscaled(row)?;
        if let Some(twist) = &self.row_twist {
            self.mul_table(row, &twist.inverse);
        }
        Ok(())
    }

    /// The second half of [`Self::inverse`] on a range of columns of all K
    /// rows (values < 2q in, < q out).
    pub fn inverse_columns(&self, rows: &mut [&mut [u64]]) -> Result<(), SmallError> {
        self.check(rows.len(), self.k)?;
        let width = rows.first().map_or(0, |r| r.len());
        for row in rows.iter() {
            self.check(row.len(), width)?;
        }
        for pass in &self.columns_inverse {
            for group in &pass.groups {
                self.column_group(rows, pass, group, false)?;
            }
        }
        Ok(())
    }

    /// a ← a ⊙ b: the pointwise product of two spectra (or of two equal-length
    /// slices of spectra; values < 2q in, < 2q out), which is the spectrum
    /// of the product of the elements.
    pub fn mul_spectra(&self, a: &mut [u64], b: &[u64]) -> Result<(), SmallError> {
        self.check(b.len(), a.len())?;
        self.montgomery(a, Some(b));
        Ok(())
    }

    /// a ← a ⊙ a: the spectrum of the square.
    pub fn square_spectra(&self, a: &mut [u64]) -> Result<(), SmallError> {
        self.montgomery(a, None);
        Ok(())
    }

    /// a ← a·b·2^(−52) (b = a when `None`): the product of two spectra in
    /// Montgomery form.
    fn montgomery(&self, a: &mut [u64], b: Option<&[u64]>) {
        let (q, q_neg_inv) = (self.q, self.q_neg_inv);
        let split = self.isa().vector_len(a.len());
        #[cfg(target_arch = "x86_64")]
        if split > 0 {
            let (a, b) = (&mut a[..split], b.map(|b| &b[..split]));
            match self.isa() {
                // SAFETY: the plan holds an ISA only where the CPU has it;
                // both slices have `split` elements, a multiple of the lanes.
                Isa::Avx512Ifma => unsafe { crate::ntt52::ifma::mul_montgomery(a, b, q, q_neg_inv) },
                // SAFETY: as above.
                Isa::Avx2Fma => unsafe { crate::ntt52::avx2::mul_pointwise(a, b, self.r_inv, q) },
                Isa::Scalar => unreachable!("no vector part in scalar code"),
            }
        }
        for (j, x) in a.iter_mut().enumerate().skip(split) {
            let y = b.map_or(*x, |b| b[j]);
            let t = *x as u128 * y as u128;
            let (low, high) = (t as u64 & MASK52, (t >> 52) as u64);
            let m = low.wrapping_mul(q_neg_inv) & MASK52;
            *x = high + ((m as u128 * q as u128) >> 52) as u64 + (low != 0) as u64;
        }
    }

    /// x[j] ← x[j]·w[j] mod q in [0, 2q), with the factors' companions.
    fn mul_table(&self, x: &mut [u64], table: &Twiddles) {
        let (q, w, c) = (self.q, &table.value, &table.companion);
        let split = self.isa().vector_len(x.len());
        #[cfg(target_arch = "x86_64")]
        if split > 0 {
            let x = &mut x[..split];
            match self.isa() {
                // SAFETY: as in `montgomery`; the tables have N ≥ x.len() entries.
                Isa::Avx512Ifma => unsafe { crate::ntt52::ifma::mul_table(x, w, c, q) },
                // SAFETY: as above.
                Isa::Avx2Fma => unsafe { crate::ntt52::avx2::mul_table(x, w, q) },
                Isa::Scalar => unreachable!("no vector part in scalar code"),
            }
        }
        for ((v, &w), &c) in x.iter_mut().zip(w).zip(c).skip(split) {
            *v = mul_lazy(*v, w, c, q);
        }
    }

    /// One group of rows through one pass of the column transform
    /// (forward or inverse), for R = 1, 2, 4 or 8 rows.
    fn column_group(
        &self,
        rows: &mut [&mut [u64]],
        pass: &ColumnPass,
        group: &ColumnGroup,
        forward: bool,
    ) -> Result<(), SmallError> {
        match group.rows.len() {
            1 => self.column_group_of::<1>(rows, pass, group, forward),
            2 => self.column_group_of::<2>(rows, pass, group, forward),
            4 => self.column_group_of::<4>(rows, pass, group, forward),
            _ => self.column_group_of::<8>(rows, pass, group, forward),
        }
    }

    fn column_group_of<const R: usize>(
        &self,
        rows: &mut [&mut [u64]],
        pass: &ColumnPass,
        group: &ColumnGroup,
        forward: bool,
    ) -> Result<(), SmallError> {
        let index: [usize; R] = std::array::from_fn(|j| group.rows[j]);
        // The group's rows are distinct and below K = rows.len() (checked by
        // the callers), so this fails only on too few rows.
        let got = rows.len();
        let parts = rows
            .get_disjoint_mut(index)
            .map_err(|_| SmallError::LengthMismatch { expected: self.k, got })?;
        let mut parts: [&mut [u64]; R] = parts.map(|r| &mut **r);
        let (q, two_q) = (self.q, 2 * self.q);
        let (twist, factors) = (&group.twist[..], &group.factors[..]);
        let width = parts[0].len();
        let split = self.isa().vector_len(width);
        #[cfg(target_arch = "x86_64")]
        if split > 0 {
            let heads: [&mut [u64]; R] = parts.each_mut().map(|p| &mut p[..split]);
            let run = match (twist.is_empty(), pass.consecutive) {
                (false, true) => vector_pass::<R, true, true>,
                (false, false) => vector_pass::<R, true, false>,
                (true, true) => vector_pass::<R, false, true>,
                (true, false) => vector_pass::<R, false, false>,
            };
            // SAFETY: the plan holds an ISA only where the CPU has it; the
            // rows have `split` columns, a multiple of the lanes; a group
            // has R twist factors or none and R/2·log2 R butterfly factors;
            // `consecutive` passes have consecutive rows.
            unsafe { run(self.isa(), forward, heads, twist, factors, q) };
        }
        for j in split..width {
            let mut v: [u64; R] = std::array::from_fn(|i| parts[i][j]);
            if forward {
                for (x, &(w, c)) in v.iter_mut().zip(twist) {
                    *x = mul_lazy(*x, w, c, q);
                }
                for (&(lo, hi), &(w, c)) in pass.butterflies.iter().zip(factors) {
                    let (x, y) = (v[lo], v[hi]);
                    v[lo] = sub_if_ge(x + y, two_q);
                    v[hi] = mul_lazy(x + two_q - y, w, c, q);
                }
            } else {
                for (&(lo, hi), &(w, c)) in pass.butterflies.iter().zip(factors) {
                    let (x, y) = (v[lo], mul_lazy(v[hi], w, c, q));
                    v[lo] = sub_if_ge(x + y, two_q);
                    v[hi] = sub_if_ge(x + two_q - y, two_q);
                }
                for (x, &(w, c)) in v.iter_mut().zip(twist) {
                    *x = sub_if_ge(mul_lazy(*x, w, c, q), q);
                }
            }
            for (row, x) in parts.iter_mut().zip(v) {
                row[j] = x;
            }
        }
        Ok(())
    }
}

/// The body of [`BivariateConvolution::join_with_cyclic`]: c₁ (length N)
/// and g = c₂ (length M, a power of two dividing N) in place, in plain loops
/// that vectorise.
#[inline(always)]
fn join(c1: &mut [u64], g: &mut [u64], q: u64) {
    let m = g.len();
    // g ← c₂ − (c₁ mod x^M − 1), chunk by chunk of c₁ (values < q).
    for chunk in c1.chunks_exact(m) {
        for (x, &y) in g.iter_mut().zip(chunk) {
            *x = sub_if_ge(*x + q - y, q);
        }
    }
    for (x, low) in g.iter_mut().zip(&mut c1[..m]) {
        // t/2 mod q: (t + q)/2 when t is odd.
        let half = (*x + ((*x & 1).wrapping_neg() & q)) >> 1;
        *x = half;
        *low = sub_if_ge(*low + half, q);
    }
}

/// [`join`] compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn join_avx2(c1: &mut [u64], g: &mut [u64], q: u64) {
    join(c1, g, q)
}

/// [`join`] compiled for AVX-512 (unsigned 64-bit minimum in lanes).
///
/// # Safety
/// The CPU must have AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn join_avx512(c1: &mut [u64], g: &mut [u64], q: u64) {
    join(c1, g, q)
}
