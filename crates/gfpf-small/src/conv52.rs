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

/// A column pass's group on the vector kernels of `isa`.
///
/// # Safety
/// The CPU has `isa` (not scalar); the rows have one length, a multiple of
/// its lanes; `twist` has R entries when `TWIST`, `factors` R/2·log2 R;
/// `CONSECUTIVE` only for groups of consecutive rows (their butterflies
/// with factor 1 are not multiplied).
#[cfg(target_arch = "x86_64")]
unsafe fn vector_pass<const R: usize, const TWIST: bool, const CONSECUTIVE: bool>(
    isa: Isa,
    forward: bool,
    rows: [&mut [u64]; R],
    twist: &[(u64, u64)],
    factors: &[(u64, u64)],
    q: u64,
) {
    use crate::ntt52::{avx2, ifma};
    // SAFETY: as the caller promises.
    unsafe {
        match (isa, forward) {
            (Isa::Avx512Ifma, true) => ifma::columns_forward::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Avx512Ifma, false) => ifma::columns_inverse::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Avx2Fma, true) => avx2::columns_forward::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Avx2Fma, false) => avx2::columns_inverse::<R, TWIST, CONSECUTIVE>(rows, twist, factors, q),
            (Isa::Scalar, _) => unreachable!("no vector part in scalar code"),
        }
    }
}

/// One pass of a column transform: up to three of its layers, run on groups
/// of 2^m rows with the values in registers (one trip through memory where
/// a layer at a time took m; with the twist or untwist in the same trip).
#[derive(Debug, Clone, PartialEq, Eq)]
struct ColumnPass {
    /// The butterflies of a group as pairs of positions in it, in the
    /// order the kernels run them ([`pass_butterflies`]).
    butterflies: Vec<(usize, usize)>,
    /// Whether its groups are runs of consecutive rows (the pass holding
    /// the layer of half-size 1), whose butterflies (lo, hi) with lo a
    /// multiple of 2(hi − lo) have factor 1.
    consecutive: bool,
    groups: Vec<ColumnGroup>,
}

/// The rows one pass takes together, and their factors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ColumnGroup {
    /// The 2^m rows (base + t0 + j·H, j < 2^m, for the pass's narrowest
    /// half-size H), position j first.
    rows: Vec<usize>,
    /// Row by row, the twist (forward: applied first) or the untwist
    /// (inverse: applied last, reduced into [0, q)) where this pass carries
    /// it; else empty.
    twist: Vec<(u64, u64)>,
    /// The butterflies' factors with their companions, in the pass's order.
    factors: Vec<(u64, u64)>,
}

/// The butterflies of one pass over 2^m rows (m ≤ 3), as positions (lo,
/// hi) in the group, in the order the vector kernels run them
/// ([`crate::ntt52::pass_in_registers`]).
pub(crate) fn pass_butterflies(m: usize, forward: bool) -> Vec<(usize, usize)> {
    fn of<const R: usize>(forward: bool) -> Vec<(usize, usize)> {
        let mut pairs = Vec::with_capacity(12);
        let mut positions: [usize; R] = std::array::from_fn(|j| j);
        crate::ntt52::pass_in_registers(&mut positions, forward, |lo, hi, _, _| {
            pairs.push((lo, hi));
            (lo, hi)
        });
        pairs
    }
    match m {
        0 => Vec::new(),
        1 => of::<2>(forward),
        2 => of::<4>(forward),
        _ => of::<8>(forward),
    }
}

/// The column transform over K rows as passes of at most three layers
/// (log2 K split as evenly as possible: K = 8 one pass, 16 two of two, 128
/// three), in the order they run: forward the widest layers first with the
/// twist in the first pass, inverse the narrowest first with the untwist
/// in the last. `layers` holds the layer of half-size h from offset h − 1
/// (ω_(2h)^t, t < h), `twist` one factor per row.
/// (Measured: see the module docs.)
fn column_passes(k: usize, twist: &[Factor], layers: &[Factor], forward: bool) -> Vec<ColumnPass> {
    let depth = k.trailing_zeros() as usize;
    let count = depth.div_ceil(3).max(1);
    // (narrowest half-size H, layers m) of each pass, widest layers first.
    let mut shapes = Vec::with_capacity(count);
    let mut top = k;
    for p in 0..count {
        let m = depth / count + usize::from(p < depth % count);
        top >>= m;
        shapes.push((top, m));
    }
    if !forward {
        shapes.reverse();
    }
    let last = shapes.len() - 1;
    shapes
        .iter()
        .enumerate()
        .map(|(p, &(narrowest, m))| {
            let r = 1 << m;
            let butterflies = pass_butterflies(m, forward);
            let carries_twist = if forward { p == 0 } else { p == last };
            let mut groups = Vec::with_capacity(k / r);
            for base in (0..k).step_by(narrowest * r) {
                for t0 in 0..narrowest {
                    let rows: Vec<usize> = (0..r).map(|j| base + t0 + j * narrowest).collect();
                    let factors = butterflies
                        .iter()
                        .map(|&(lo, hi)| {
                            let h = (hi - lo) * narrowest;
                            let f = layers[h - 1 + rows[lo] % (2 * h)];
                            (f.value, f.companion)
                        })
                        .collect();
                    let twist = match carries_twist {
                        true => rows.iter().map(|&g| (twist[g].value, twist[g].companion)).collect(),
                        false => Vec::new(),
                    };
                    groups.push(ColumnGroup { rows, twist, factors });
                }
            }
            ColumnPass {
                butterflies,
                consecutive: narrowest == 1,
                groups,
            }
        })
        .collect()
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

/// Garner's mixed-radix conversion for up to 8 primes q < 2^50 within a
/// factor 2 of each other, on columns of residues (eight columns per step
/// with AVX-512 IFMA): x = v_0 + q_0·(v_1 + q_1·(v_2 + …)), 0 ≤ v_l < q_l.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Garner52 {
    primes: Vec<u64>,
    /// inverse[l][m] = q_m^(−1) mod q_l (m < l) with its Shoup companion.
    inverse: Vec<Vec<(u64, u64)>>,
    isa: Isa,
}

/// The most primes a [`Garner52`] takes.
pub const GARNER52_MAX_PRIMES: usize = 8;

impl Garner52 {
    /// For 1 to [`GARNER52_MAX_PRIMES`] distinct primes below 2^50, the
    /// largest less than twice the smallest.
    pub fn try_new(primes: &[u64]) -> Result<Self, SmallError> {
        if primes.is_empty() || primes.len() > GARNER52_MAX_PRIMES {
            return Err(SmallError::InvalidBasis("a Garner52 basis holds 1 to 8 primes"));
        }
        for &q in primes {
            if !(3..NTT52_MAX_MODULUS).contains(&q) {
                return Err(SmallError::ModulusOutOfRange {
                    q,
                    what: "a Garner52 basis",
                    requirement: "3 <= q < 2^50",
                });
            }
            if !crate::primes::is_prime(q) {
                return Err(SmallError::NotPrime(q));
            }
        }
        let (lo, hi) = (primes.iter().min().copied(), primes.iter().max().copied());
        if hi >= lo.map(|q| 2 * q) {
            return Err(SmallError::InvalidBasis(
                "the largest prime must be below twice the smallest",
            ));
        }
        for (i, q) in primes.iter().enumerate() {
            if primes[..i].contains(q) {
                return Err(SmallError::InvalidBasis("the primes must be distinct"));
            }
        }
        let inverse = primes
            .iter()
            .enumerate()
            .map(|(l, &ql)| {
                primes[..l]
                    .iter()
                    .map(|&qm| {
                        let w = inv_mod(qm % ql, ql);
                        (w, companion52(w, ql))
                    })
                    .collect()
            })
            .collect();
        Ok(Garner52 {
            primes: primes.to_vec(),
            inverse,
            isa: Isa::best(),
        })
    }

    /// The same on another instruction set; an error if this CPU lacks it.
    pub fn with_isa(mut self, isa: Isa) -> Result<Self, SmallError> {
        self.isa = isa.ensure_available()?;
        Ok(self)
    }

    /// The primes.
    pub fn primes(&self) -> &[u64] {
        &self.primes
    }

    /// For every column j < len: `digits[l][j]` = v_l of the integer whose
    /// residues are `residues[l][j]` (each below its prime). One slice per
    /// prime in both; each at least `len` long.
    pub fn mixed_radix(&self, residues: &[&[u64]], digits: &mut [&mut [u64]], len: usize) -> Result<(), SmallError> {
        let s = self.primes.len();
        if residues.len() != s || digits.len() != s {
            return Err(SmallError::LengthMismatch {
                expected: s,
                got: residues.len().min(digits.len()),
            });
        }
        if let Some(short) = residues
            .iter()
            .map(|r| r.len())
            .chain(digits.iter().map(|d| d.len()))
            .find(|&l| l < len)
        {
            return Err(SmallError::LengthMismatch {
                expected: len,
                got: short,
            });
        }
        let split = self.isa.vector_len(len);
        #[cfg(target_arch = "x86_64")]
        if split > 0 {
            let (primes, inverse) = (&self.primes, &self.inverse);
            match self.isa {
                // SAFETY: an ISA is only held where the CPU has it; the
                // slices were checked above; `inverse[l]` has l entries.
                Isa::Avx512Ifma => unsafe { crate::ntt52::ifma::mixed_radix(residues, digits, primes, inverse, split) },
                // SAFETY: as above.
                Isa::Avx2Fma => unsafe { crate::ntt52::avx2::mixed_radix(residues, digits, primes, inverse, split) },
                Isa::Scalar => unreachable!("no vector part in scalar code"),
            }
        }
        let mut v = [0u64; GARNER52_MAX_PRIMES];
        for j in split..len {
            for (l, &q) in self.primes.iter().enumerate() {
                let mut t = residues[l][j];
                for (m, &(w, c)) in self.inverse[l].iter().enumerate() {
                    // v_m < q_m < 2q_l: t + 2q_l − v_m lies in (0, 3q_l).
                    t = sub_if_ge(mul_lazy(t + 2 * q - v[m], w, c, q), q);
                }
                v[l] = t;
                digits[l][j] = t;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::primes::FP_PRIMES_50;

    /// The product in Z_q[x, y]/(x^N ∓ 1, y^K + 1), naively.
    fn naive(a: &[u64], b: &[u64], k: usize, n: usize, q: u64, wrap: RowWrap) -> Vec<u64> {
        let mut c = vec![0u64; k * n];
        for i1 in 0..k {
            for j1 in 0..n {
                for i2 in 0..k {
                    for j2 in 0..n {
                        let p = (a[i1 * n + j1] as u128 * b[i2 * n + j2] as u128 % q as u128) as u64;
                        let (i, j) = (i1 + i2, (j1 + j2) % n);
                        // x^N = −1 flips the sign once more for negacyclic rows.
                        let flips = (i >= k) as u32 + (wrap == RowWrap::Negacyclic && j1 + j2 >= n) as u32;
                        let slot = &mut c[(i % k) * n + j];
                        *slot = if flips.is_multiple_of(2) {
                            (*slot + p) % q
                        } else {
                            (*slot + q - p) % q
                        };
                    }
                }
            }
        }
        c
    }

    #[test]
    fn products_match_the_naive_product_on_every_isa() {
        let q = FP_PRIMES_50[1];
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) % q
        };
        // K from 1 to 128: every split of the column transform into passes
        // (one to three, of one to three layers); N = 4 leaves IFMA's rows
        // to the scalar tail.
        let shapes = [
            (1, 1),
            (2, 4),
            (4, 8),
            (8, 16),
            (8, 4),
            (4, 64),
            (16, 8),
            (2, 32),
            (32, 8),
            (64, 4),
            (128, 2),
        ];
        for (isa, wrap) in Isa::available()
            .into_iter()
            .flat_map(|isa| [RowWrap::Cyclic, RowWrap::Negacyclic].map(|w| (isa, w)))
        {
            for (k, n) in shapes {
                let conv = BivariateConvolution::try_with_wrap(k, n, q, wrap)
                    .unwrap()
                    .with_isa(isa)
                    .unwrap();
                assert_eq!(conv.wrap(), wrap);
                let mut a: Vec<u64> = (0..k * n).map(|_| next()).collect();
                let mut b: Vec<u64> = (0..k * n).map(|_| next()).collect();
                // Edge values.
                a[0] = q - 1;
                b[k * n - 1] = q - 1;
                let expected = naive(&a, &b, k, n, q, wrap);
                let original = a.clone();
                conv.forward(&mut a).unwrap();
                let mut round = a.clone();
                conv.inverse(&mut round).unwrap();
                assert_eq!(round, original, "round trip k={k} n={n} {isa:?} {wrap:?}");
                let mut square = a.clone();
                conv.square_spectra(&mut square).unwrap();
                conv.inverse(&mut square).unwrap();
                assert_eq!(
                    square,
                    naive(&original, &original, k, n, q, wrap),
                    "square k={k} n={n} {isa:?} {wrap:?}"
                );
                conv.forward(&mut b).unwrap();
                conv.mul_spectra(&mut a, &b).unwrap();
                conv.inverse(&mut a).unwrap();
                assert_eq!(a, expected, "k={k} n={n} {isa:?} {wrap:?}");
            }
        }
    }

    /// The plan's column passes: every layer once, the twist in the first
    /// forward pass and the untwist in the last inverse one, and factor 1
    /// exactly where the vector kernels skip the product.
    #[test]
    fn column_passes_cover_every_layer_and_skip_only_unit_factors() {
        let q = FP_PRIMES_50[0];
        for log_k in 0..=7 {
            let k = 1 << log_k;
            let conv = BivariateConvolution::try_new(k, 8, q).unwrap();
            for (passes, forward) in [(&conv.columns_forward, true), (&conv.columns_inverse, false)] {
                let layers: usize = passes
                    .iter()
                    .map(|p| p.butterflies.len() * 2 / p.groups[0].rows.len().max(2))
                    .sum();
                assert_eq!(layers, log_k, "k={k}");
                for (i, pass) in passes.iter().enumerate() {
                    let carries = if forward { i == 0 } else { i == passes.len() - 1 };
                    let mut seen = vec![false; k];
                    for group in &pass.groups {
                        assert_eq!(group.twist.len(), if carries { group.rows.len() } else { 0 });
                        for &row in &group.rows {
                            assert!(!std::mem::replace(&mut seen[row], true), "k={k} row {row} twice");
                        }
                        let runs = group.rows.windows(2).all(|w| w[1] == w[0] + 1);
                        assert!(!pass.consecutive || runs, "k={k} pass {i}");
                        for (&(lo, hi), &(w, _)) in pass.butterflies.iter().zip(&group.factors) {
                            if pass.consecutive && lo % (2 * (hi - lo)) == 0 {
                                assert_eq!(w, 1, "k={k} pass {i} ({lo}, {hi})");
                            }
                        }
                    }
                    assert!(seen.iter().all(|&s| s), "k={k}: every row in a group");
                }
            }
        }
    }

    /// The column halves run on any range of columns (vector lanes and a
    /// scalar tail): pieces of widths 5, 11 and 16 give what the whole
    /// width gives.
    #[test]
    fn column_transforms_on_ranges_of_columns_match_the_whole_width() {
        let q = FP_PRIMES_50[2];
        for isa in Isa::available() {
            for k in [2, 8, 16, 128] {
                let n = 32;
                let conv = BivariateConvolution::try_new(k, n, q).unwrap().with_isa(isa).unwrap();
                let data: Vec<u64> = (0..k * n)
                    .map(|i| ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 14) % q)
                    .collect();
                let mut whole = data.clone();
                let mut rows: Vec<&mut [u64]> = whole.chunks_exact_mut(n).collect();
                conv.forward_columns(&mut rows).unwrap();
                let mut back = whole.clone();
                let mut rows: Vec<&mut [u64]> = back.chunks_exact_mut(n).collect();
                conv.inverse_columns(&mut rows).unwrap();
                let mut pieces = data.clone();
                for (start, end) in [(0, 5), (5, 16), (16, 32)] {
                    let mut rows: Vec<&mut [u64]> = pieces.chunks_exact_mut(n).map(|r| &mut r[start..end]).collect();
                    conv.forward_columns(&mut rows).unwrap();
                }
                // Lanes and scalar tail may leave different representatives
                // in [0, 2q).
                let reduced = |v: &[u64]| v.iter().map(|&x| x % q).collect::<Vec<_>>();
                assert_eq!(reduced(&pieces), reduced(&whole), "forward k={k} {isa:?}");
                pieces.clone_from(&whole);
                for (start, end) in [(0, 11), (11, 32)] {
                    let mut rows: Vec<&mut [u64]> = pieces.chunks_exact_mut(n).map(|r| &mut r[start..end]).collect();
                    conv.inverse_columns(&mut rows).unwrap();
                }
                assert_eq!(pieces, back, "inverse k={k} {isa:?}");
                // Without the rows' transforms in between, the inverse
                // undoes the forward up to the factor N^(−1)·2^(−52)·2^52.
                let n_inv = crate::primes::inv_mod(n as u64, q);
                let expected: Vec<u64> = data
                    .iter()
                    .map(|&x| (x as u128 * n_inv as u128 % q as u128) as u64)
                    .collect();
                assert_eq!(back, expected, "round trip k={k} {isa:?}");
            }
        }
    }

    #[test]
    fn pointwise_products_of_extreme_spectra_on_every_isa() {
        // Spectra may hold any value below 2q; the product is a·b·2^(−52).
        for q in [FP_PRIMES_50[0], 7681] {
            let edges = [0, 1, 2, q - 1, q, q + 1, 2 * q - 2, 2 * q - 1];
            let a: Vec<u64> = edges.iter().flat_map(|&x| edges.map(|_| x)).collect();
            let b: Vec<u64> = edges.iter().flat_map(|_| edges).collect();
            let r_inv = inv_mod(((1u128 << 52) % q as u128) as u64, q) as u128;
            for isa in Isa::available() {
                let conv = BivariateConvolution::try_new(2, 8, q).unwrap().with_isa(isa).unwrap();
                for square in [false, true] {
                    let mut c = a.clone();
                    if square {
                        conv.square_spectra(&mut c).unwrap();
                    } else {
                        conv.mul_spectra(&mut c, &b).unwrap();
                    }
                    for (j, &got) in c.iter().enumerate() {
                        let y = if square { a[j] } else { b[j] };
                        let want = a[j] as u128 * y as u128 % q as u128 * r_inv % q as u128;
                        assert!(got < 2 * q, "{isa:?} q={q} {} · {y}: {got} ≥ 2q", a[j]);
                        assert_eq!(got as u128 % q as u128, want, "{isa:?} q={q} {} · {y}", a[j]);
                    }
                }
            }
        }
    }

    #[test]
    fn projected_words_are_reduced_and_transposed_on_every_isa() {
        let q = FP_PRIMES_50[2];
        let mut seed = 11u64;
        for isa in Isa::available() {
            for (k, count) in [(8, 16), (8, 21), (16, 8), (4, 13), (64, 9), (1, 3)] {
                let conv = BivariateConvolution::try_new(k, 8, q).unwrap().with_isa(isa).unwrap();
                let words: Vec<u64> = (0..k * count)
                    .map(|i| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                        // Edge values first: 0, 1, q − 1, q, 2^52 − 1, 2^52, u64::MAX.
                        [0, 1, q - 1, q, (1 << 52) - 1, 1 << 52, u64::MAX]
                            .get(i)
                            .copied()
                            .unwrap_or(seed)
                    })
                    .collect();
                let before: Vec<Vec<u64>> = (0..k)
                    .map(|i| (0..count as u64).map(|j| (i as u64 * 7 + j * q / 5) % q).collect())
                    .collect();
                for how in [Accumulate::Store, Accumulate::Add, Accumulate::Subtract] {
                    let mut rows = before.clone();
                    let mut slices: Vec<&mut [u64]> = rows.iter_mut().map(Vec::as_mut_slice).collect();
                    conv.project_words(&words, &mut slices, how).unwrap();
                    for i in 0..k {
                        for j in 0..count {
                            let (old, d) = (before[i][j] as u128, (words[j * k + i] % q) as u128);
                            let q = q as u128;
                            let want = match how {
                                Accumulate::Store => d,
                                Accumulate::Add => (old + d) % q,
                                Accumulate::Subtract => (old + q - d) % q,
                            };
                            assert_eq!(
                                rows[i][j] as u128, want,
                                "{isa:?} k={k} count={count} {how:?} ({i}, {j})"
                            );
                        }
                    }
                }
                let mut short = vec![vec![0u64; count - 1]; k];
                let mut slices: Vec<&mut [u64]> = short.iter_mut().map(Vec::as_mut_slice).collect();
                assert!(conv.project_words(&words, &mut slices, Accumulate::Store).is_err());
            }
        }
    }

    #[test]
    fn joined_pieces_give_the_product_on_every_isa() {
        let q = FP_PRIMES_50[0];
        for isa in Isa::available() {
            for (n, m) in [
                (2usize, 1usize),
                (8, 4),
                (16, 8),
                (128, 64),
                (128, 16),
                (64, 1),
                (32, 32),
            ] {
                let conv = BivariateConvolution::try_with_wrap(2, n, q, RowWrap::Negacyclic)
                    .unwrap()
                    .with_isa(isa)
                    .unwrap();
                // A product of length n + m with edge values.
                let c: Vec<u64> = (0..(n + m) as u64)
                    .map(|j| [q - 1, 0, 1][j as usize % 3].max(j * 977 % q))
                    .collect();
                let mut c1 = vec![0u64; n];
                let mut c2 = vec![0u64; m];
                for (j, &x) in c.iter().enumerate() {
                    let (t, negative) = (j % n, (j / n) % 2 == 1);
                    c1[t] = if negative { (c1[t] + q - x) % q } else { (c1[t] + x) % q };
                    c2[j % m] = (c2[j % m] + x) % q;
                }
                conv.join_with_cyclic(&mut c1, &mut c2).unwrap();
                assert_eq!([c1, c2].concat(), c, "{isa:?} n={n} m={m}");
            }
        }
        let cyclic = BivariateConvolution::try_new(2, 8, q).unwrap();
        assert!(cyclic.join_with_cyclic(&mut [0; 8], &mut [0; 4]).is_err());
        let negacyclic = BivariateConvolution::try_with_wrap(2, 8, q, RowWrap::Negacyclic).unwrap();
        assert!(matches!(
            negacyclic.join_with_cyclic(&mut [0; 8], &mut [0; 3]),
            Err(SmallError::LengthNotPowerOfTwo(3))
        ));
        assert!(matches!(
            negacyclic.join_with_cyclic(&mut [0; 8], &mut [0; 16]),
            Err(SmallError::LengthMismatch { expected: 8, got: 16 })
        ));
        assert!(negacyclic.join_with_cyclic(&mut [0; 4], &mut [0; 4]).is_err());
    }

    #[test]
    fn mixed_radix_digits_rebuild_the_integer_on_every_isa() {
        let primes = &FP_PRIMES_50[..4];
        let mut seed = 3u64;
        for isa in Isa::available() {
            let garner = Garner52::try_new(primes).unwrap().with_isa(isa).unwrap();
            let len = 19;
            let values: Vec<u128> = (0..len as u128)
                .map(|j| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    match j {
                        0 => 0,
                        1 => u128::MAX,
                        _ => (seed as u128) << 64 | seed.rotate_left(17) as u128,
                    }
                })
                .collect();
            let residues: Vec<Vec<u64>> = primes
                .iter()
                .map(|&q| values.iter().map(|&x| (x % q as u128) as u64).collect())
                .collect();
            let mut digits = vec![vec![0u64; len]; primes.len()];
            let rs: Vec<&[u64]> = residues.iter().map(Vec::as_slice).collect();
            let mut ds: Vec<&mut [u64]> = digits.iter_mut().map(Vec::as_mut_slice).collect();
            garner.mixed_radix(&rs, &mut ds, len).unwrap();
            for (j, &x) in values.iter().enumerate() {
                // x < 2^128 < q_0·q_1·q_2: the last digit is 0.
                let rebuilt = digits[0][j] as u128
                    + primes[0] as u128 * (digits[1][j] as u128 + primes[1] as u128 * digits[2][j] as u128);
                assert_eq!((rebuilt, digits[3][j]), (x, 0), "{isa:?} column {j}");
            }
        }
        assert!(Garner52::try_new(&[FP_PRIMES_50[0], 3]).is_err());
        assert!(Garner52::try_new(&[]).is_err());
        assert!(Garner52::try_new(&[FP_PRIMES_50[0], FP_PRIMES_50[0]]).is_err());
    }

    #[test]
    fn bad_shapes_are_errors() {
        let q = FP_PRIMES_50[0];
        assert!(matches!(
            BivariateConvolution::try_new(3, 8, q),
            Err(SmallError::LengthNotPowerOfTwo(3))
        ));
        assert!(BivariateConvolution::try_new(4, 8, 101).is_err());
        let conv = BivariateConvolution::try_new(4, 8, q).unwrap();
        assert!(matches!(
            conv.forward(&mut [0; 31]),
            Err(SmallError::LengthMismatch { expected: 32, got: 31 })
        ));
        let mut a = [0u64; 8];
        assert!(conv.mul_spectra(&mut a, &[0; 7]).is_err());
    }
}
