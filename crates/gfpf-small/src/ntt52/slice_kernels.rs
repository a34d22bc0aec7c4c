//! `slice_kernels!`, the butterfly loops on slices shared by the vector
//! instruction sets.

/// The butterfly kernels on slices, `dif2`, `dit2`, `dif4` and `dit4`, for
/// a module of vector kernels: the same loops for every instruction set,
/// written once. The module provides `Lanes::new(q)`, `load`, `store` and
/// the lane butterflies `dif` and `dit` for its vector type; `lanes` is the
/// number of words per vector.
#[cfg(target_arch = "x86_64")]
macro_rules! slice_kernels {
    (lanes = $lanes:literal, features = $features:literal, cpu = $cpu:literal) => {
        #[doc = concat!("(lo, hi) ← (lo + hi, (lo − hi)·w), lazy, ", $lanes, " butterflies a step.")]
        ///
        /// # Safety
        #[doc = concat!("The CPU must have ", $cpu, "; lo, hi and w have the same length, a")]
        #[doc = concat!("multiple of ", $lanes, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dif2(lo: &mut [u64], hi: &mut [u64], w: super::Tw<'_>, q: u64) {
            let l = Lanes::new(q);
            for j in (0..lo.len()).step_by($lanes) {
                // SAFETY: j + lanes ≤ lo.len() = hi.len() = w.0.len() = w.1.len().
                unsafe {
                    let (x, y) = dif(l, load(lo, j), load(hi, j), load(w.0, j), load(w.1, j));
                    store(lo, j, x);
                    store(hi, j, y);
                }
            }
        }

        /// (lo, hi) ← (lo + hi·w, lo − hi·w), lazy.
        ///
        /// # Safety
        /// As [`dif2`].
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dit2(lo: &mut [u64], hi: &mut [u64], w: super::Tw<'_>, q: u64) {
            let l = Lanes::new(q);
            for j in (0..lo.len()).step_by($lanes) {
                // SAFETY: as in dif2.
                unsafe {
                    let (x, y) = dit(l, load(lo, j), load(hi, j), load(w.0, j), load(w.1, j));
                    store(lo, j, x);
                    store(hi, j, y);
                }
            }
        }

        /// Two forward layers on four quarters: (a, c) and (b, d) with `w_ac`
        /// and `w_bd`, then (a, b) and (c, d) with `w_in`, in registers.
        ///
        /// # Safety
        #[doc = concat!("The CPU must have ", $cpu, "; the quarters and twiddles have the same")]
        #[doc = concat!("length, a multiple of ", $lanes, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dif4(
            [a, b, c, d]: [&mut [u64]; 4],
            w_ac: super::Tw<'_>,
            w_bd: super::Tw<'_>,
            w_in: super::Tw<'_>,
            q: u64,
        ) {
            let l = Lanes::new(q);
            for j in (0..a.len()).step_by($lanes) {
                // SAFETY: j + lanes ≤ the common length.
                unsafe {
                    let (a0, c0) = dif(l, load(a, j), load(c, j), load(w_ac.0, j), load(w_ac.1, j));
                    let (b0, d0) = dif(l, load(b, j), load(d, j), load(w_bd.0, j), load(w_bd.1, j));
                    let (wi, ci) = (load(w_in.0, j), load(w_in.1, j));
                    let (a1, b1) = dif(l, a0, b0, wi, ci);
                    let (c1, d1) = dif(l, c0, d0, wi, ci);
                    store(a, j, a1);
                    store(b, j, b1);
                    store(c, j, c1);
                    store(d, j, d1);
                }
            }
        }

        /// Two inverse layers on four quarters: (a, b) and (c, d) with `w_in`,
        /// then (a, c) and (b, d) with `w_ac` and `w_bd`, in registers.
        ///
        /// # Safety
        /// As [`dif4`].
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn dit4(
            [a, b, c, d]: [&mut [u64]; 4],
            w_in: super::Tw<'_>,
            w_ac: super::Tw<'_>,
            w_bd: super::Tw<'_>,
            q: u64,
        ) {
            let l = Lanes::new(q);
            for j in (0..a.len()).step_by($lanes) {
                // SAFETY: j + lanes ≤ the common length.
                unsafe {
                    let (wi, ci) = (load(w_in.0, j), load(w_in.1, j));
                    let (a0, b0) = dit(l, load(a, j), load(b, j), wi, ci);
                    let (c0, d0) = dit(l, load(c, j), load(d, j), wi, ci);
                    let (a1, c1) = dit(l, a0, c0, load(w_ac.0, j), load(w_ac.1, j));
                    let (b1, d1) = dit(l, b0, d0, load(w_bd.0, j), load(w_bd.1, j));
                    store(a, j, a1);
                    store(b, j, b1);
                    store(c, j, c1);
                    store(d, j, d1);
                }
            }
        }
    };
}
