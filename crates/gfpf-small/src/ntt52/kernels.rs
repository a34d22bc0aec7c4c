//! The kernel table: one instruction set's butterflies for one modulus,
//! dispatched to the module of that instruction set.

use super::{Isa, Tw, Twiddles, mul_lazy, part, scalar, sub_if_ge};
#[cfg(target_arch = "x86_64")]
use super::{avx2, ifma};

/// The butterfly kernels of one instruction set for one modulus. The
/// vector ones need slices of a multiple of 16 words (the plan guarantees
/// it: n ≥ 16, blocks and strips are powers of two ≥ 16).
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    pub(super) isa: Isa,
    pub(super) q: u64,
}

impl Kernels {
    /// (lo, hi) ← (lo + hi, (lo − hi)·w), lazy.
    pub(super) fn dif2(self, lo: &mut [u64], hi: &mut [u64], w: Tw<'_>) {
        match self.isa {
            // SAFETY: the plan holds a vector ISA only where the CPU has it;
            // the lengths are equal multiples of 16.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dif2(lo, hi, w, self.q) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dif2(lo, hi, w, self.q) },
            _ => scalar::dif2(lo, hi, w, self.q),
        }
    }

    /// (lo, hi) ← (lo + hi·w, lo − hi·w), lazy.
    pub(super) fn dit2(self, lo: &mut [u64], hi: &mut [u64], w: Tw<'_>) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dit2(lo, hi, w, self.q) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dit2(lo, hi, w, self.q) },
            _ => scalar::dit2(lo, hi, w, self.q),
        }
    }

    /// Two forward layers on the quarters a, b, c, d of a block: (a, c) and
    /// (b, d) with `w_ac` and `w_bd`, then (a, b) and (c, d) with `w_in`.
    pub(super) fn dif4(self, [a, b, c, d]: [&mut [u64]; 4], w_ac: Tw<'_>, w_bd: Tw<'_>, w_in: Tw<'_>) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dif4([a, b, c, d], w_ac, w_bd, w_in, self.q) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dif4([a, b, c, d], w_ac, w_bd, w_in, self.q) },
            _ => {
                self.dif2(a, c, w_ac);
                self.dif2(b, d, w_bd);
                self.dif2(a, b, w_in);
                self.dif2(c, d, w_in);
            }
        }
    }

    /// Two inverse layers on the quarters: (a, b) and (c, d) with `w_in`,
    /// then (a, c) and (b, d) with `w_ac` and `w_bd`.
    pub(super) fn dit4(self, [a, b, c, d]: [&mut [u64]; 4], w_in: Tw<'_>, w_ac: Tw<'_>, w_bd: Tw<'_>) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::dit4([a, b, c, d], w_in, w_ac, w_bd, self.q) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::dit4([a, b, c, d], w_in, w_ac, w_bd, self.q) },
            _ => {
                self.dit2(a, b, w_in);
                self.dit2(c, d, w_in);
                self.dit2(a, c, w_ac);
                self.dit2(b, d, w_bd);
            }
        }
    }

    /// The forward layers h = `top` … 1 on every 2·`top` words of `chunk`.
    pub(super) fn forward_inner(self, tw: &Twiddles, chunk: &mut [u64], top: usize) {
        let mut h = top;
        while h >= 1 {
            match self.isa {
                Isa::Scalar => {}
                _ if h >= 16 => {
                    let (outer, inner) = (tw.layer(h), tw.layer(h / 2));
                    let quarter = h / 2;
                    for block in chunk.chunks_exact_mut(2 * h) {
                        let (lo, hi) = block.split_at_mut(h);
                        let (a, b) = lo.split_at_mut(quarter);
                        let (c, d) = hi.split_at_mut(quarter);
                        self.dif4(
                            [a, b, c, d],
                            part(outer, 0, quarter),
                            part(outer, quarter, quarter),
                            inner,
                        );
                    }
                    h /= 4;
                    continue;
                }
                _ if h == 4 && self.smallest_layers(tw, chunk, true) => break,
                _ => {}
            }
            let w = tw.layer(h);
            for block in chunk.chunks_exact_mut(2 * h) {
                let (lo, hi) = block.split_at_mut(h);
                self.dif2(lo, hi, w);
            }
            h /= 2;
        }
    }

    /// The three smallest layers in registers (forward: h = 4, 2, 1;
    /// inverse: h = 1, 2, 4), where this ISA has those kernels (true), else
    /// nothing (false: the caller runs them one by one).
    pub(super) fn smallest_layers(self, tw: &Twiddles, chunk: &mut [u64], forward: bool) -> bool {
        let order = if forward { [4, 2, 1] } else { [1, 2, 4] };
        let small = order.map(|h| tw.layer(h));
        #[cfg(target_arch = "x86_64")]
        {
            type Kernel = for<'a, 'b> unsafe fn(&'a mut [u64], [Tw<'b>; 3], u64);
            let kernel: Kernel = match (self.isa, forward) {
                (Isa::Avx512Ifma, true) => ifma::forward_last3 as Kernel,
                (Isa::Avx512Ifma, false) => ifma::inverse_first3 as Kernel,
                (Isa::Avx2Fma, true) => avx2::forward_last3 as Kernel,
                (Isa::Avx2Fma, false) => avx2::inverse_first3 as Kernel,
                (Isa::Scalar, _) => return false,
            };
            // SAFETY: as in dif2 (the kernel's ISA is the plan's, which this
            // CPU has); the chunk is a multiple of 16.
            unsafe { kernel(chunk, small, self.q) };
            true
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (small, chunk);
            false
        }
    }

    /// The inverse layers h = 1 … `top` on every 2·`top` words of `chunk`.
    pub(super) fn inverse_inner(self, tw: &Twiddles, chunk: &mut [u64], top: usize) {
        let mut h = 1;
        while h <= top {
            match self.isa {
                Isa::Scalar => {}
                _ if h == 1 && self.smallest_layers(tw, chunk, false) => {
                    h = 8;
                    continue;
                }
                _ if 2 * h <= top => {
                    let (inner, outer) = (tw.layer(h), tw.layer(2 * h));
                    for block in chunk.chunks_exact_mut(4 * h) {
                        let (lo, hi) = block.split_at_mut(2 * h);
                        let (a, b) = lo.split_at_mut(h);
                        let (c, d) = hi.split_at_mut(h);
                        self.dit4([a, b, c, d], inner, part(outer, 0, h), part(outer, h, h));
                    }
                    h *= 4;
                    continue;
                }
                _ => {}
            }
            let w = tw.layer(h);
            for block in chunk.chunks_exact_mut(2 * h) {
                let (lo, hi) = block.split_at_mut(h);
                self.dit2(lo, hi, w);
            }
            h *= 2;
        }
    }

    /// The forward layers of half-size ≥ `block` on one strip: `strip[r]`
    /// is row r's columns from `c0`. Layer h = H·block pairs rows r and
    /// r + H with the twiddles of positions (r mod 2H)·block + column.
    pub(super) fn forward_outer(self, tw: &Twiddles, strip: &mut [&mut [u64]], block: usize, c0: usize) {
        let (rows, width) = (strip.len(), strip[0].len());
        let mut big = rows / 2;
        while big >= 2 {
            let (outer, inner) = (tw.layer(big * block), tw.layer(big * block / 2));
            let quarter = big / 2;
            for base in (0..rows).step_by(2 * big) {
                for t in 0..quarter {
                    let (j, jb) = (t * block + c0, (t + quarter) * block + c0);
                    let Ok([a, b, c, d]) = strip.get_disjoint_mut([
                        base + t,
                        base + t + quarter,
                        base + t + big,
                        base + t + big + quarter,
                    ]) else {
                        unreachable!("four distinct rows of the strip");
                    };
                    self.dif4(
                        [a, b, c, d],
                        part(outer, j, width),
                        part(outer, jb, width),
                        part(inner, j, width),
                    );
                }
            }
            big /= 4;
        }
        if big == 1 {
            let w = part(tw.layer(block), c0, width);
            for pair in strip.chunks_exact_mut(2) {
                let [lo, hi] = pair else { unreachable!("pairs") };
                self.dif2(lo, hi, w);
            }
        }
    }

    /// The inverse layers of half-size ≥ `block` on one strip (the mirror
    /// of [`Self::forward_outer`]).
    pub(super) fn inverse_outer(self, tw: &Twiddles, strip: &mut [&mut [u64]], block: usize, c0: usize) {
        let (rows, width) = (strip.len(), strip[0].len());
        let mut big = 1;
        while big < rows {
            if 4 * big <= rows {
                let (inner, outer) = (tw.layer(big * block), tw.layer(2 * big * block));
                for base in (0..rows).step_by(4 * big) {
                    for t in 0..big {
                        let (j, jb) = (t * block + c0, (t + big) * block + c0);
                        let Ok([a, b, c, d]) =
                            strip.get_disjoint_mut([base + t, base + t + big, base + t + 2 * big, base + t + 3 * big])
                        else {
                            unreachable!("four distinct rows of the strip");
                        };
                        self.dit4(
                            [a, b, c, d],
                            part(inner, j, width),
                            part(outer, j, width),
                            part(outer, jb, width),
                        );
                    }
                }
                big *= 4;
            } else {
                let w = tw.layer(big * block);
                for base in (0..rows).step_by(2 * big) {
                    for t in 0..big {
                        let Ok([lo, hi]) = strip.get_disjoint_mut([base + t, base + t + big]) else {
                            unreachable!("two distinct rows of the strip");
                        };
                        self.dit2(lo, hi, part(w, t * block + c0, width));
                    }
                }
                big *= 2;
            }
        }
    }

    /// x ← x·n^(−1) for the inverse's scaling (lazy; (w, c) are the f64
    /// pair with [`Isa::Avx2Fma`]).
    pub(super) fn scale(self, data: &mut [u64], (w, c): (u64, u64)) {
        match self.isa {
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Ifma => unsafe { ifma::scale(data, w, c, self.q, false) },
            // SAFETY: as in dif2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2Fma => unsafe { avx2::scale(data, (w, c), self.q) },
            _ => data.iter_mut().for_each(|x| *x = mul_lazy(*x, w, c, self.q)),
        }
    }

    /// Words < 2^52 to f64 (the AVX2 path's representation).
    pub(super) fn to_float(self, data: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if self.isa == Isa::Avx2Fma {
            // SAFETY: as in dif2.
            unsafe { avx2::to_float(data) };
        }
        let _ = data;
    }

    /// The end of a transform: f64 back to words in [0, q) with
    /// [`Isa::Avx2Fma`], else a reduction to [0, q) when `reduce`.
    pub(super) fn finish(self, data: &mut [u64], reduce: bool) {
        #[cfg(target_arch = "x86_64")]
        if self.isa == Isa::Avx2Fma {
            // SAFETY: as in dif2.
            unsafe { avx2::to_words(data, self.q) };
            return;
        }
        if reduce {
            let q = self.q;
            data.iter_mut().for_each(|x| *x = sub_if_ge(*x, q));
        }
    }
}
