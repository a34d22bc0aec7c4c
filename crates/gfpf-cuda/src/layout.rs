//! Digit-major layout (thesis §4.1.4): digit d of element j at d·len + j, so
//! that neighbouring threads, which handle neighbouring elements, read
//! neighbouring words (coalesced). Host slices of [`Element`] are
//! element-major; these convert on upload and download.

use gfpf_field::{Element, Field};

use gfpf_executor::{PreparedFft, TransformError};

use crate::CudaError;

/// The digit-major words of `elements` (k·len words).
pub fn to_digit_major<const K: usize>(elements: &[Element<K>]) -> Vec<u64> {
    let mut out = vec![0u64; K * elements.len()];
    fill_digit_major(elements, &mut out);
    out
}

/// As [`to_digit_major`], with the host copy's allocation failing as
/// [`TransformError::TooLarge`] instead of aborting (uploads of huge inputs).
pub fn try_to_digit_major<const K: usize>(elements: &[Element<K>]) -> Result<Vec<u64>, TransformError> {
    let words = K * elements.len();
    let mut out = try_words(words, elements.len(), "elements copied digit-major for the device")?;
    out.resize(words, 0);
    fill_digit_major(elements, &mut out);
    Ok(out)
}

fn fill_digit_major<const K: usize>(elements: &[Element<K>], out: &mut [u64]) {
    let len = elements.len();
    // Blocks of elements keep both sides' accesses in cache.
    const BLOCK: usize = 256;
    for (b, chunk) in elements.chunks(BLOCK).enumerate() {
        for d in 0..K {
            let plane = &mut out[d * len + b * BLOCK..][..chunk.len()];
            for (slot, x) in plane.iter_mut().zip(chunk) {
                *slot = x.digits()[d];
            }
        }
    }
}

/// A prepared transform's twiddle table as the kernels read it:
/// [`crate::params::device_twiddle_entries`] entries, w^e for every e < N
/// where that table is small (no twiddle then takes a shift by r^q), else
/// the plan's M = N/2k (a two-level table multiplied out: the kernels read
/// one entry per twiddle); element-major (entry m is words m·k … m·k + k −
/// 1, so that the k lanes of a warp segment reading one twiddle read
/// neighbouring words: whole sectors); and at least one element (the entry
/// 1 up to N = 2k, where M = 0), so that the device buffer is never empty.
pub fn device_twiddle_table<const K: usize>(fft: &PreparedFft<K>) -> Result<Vec<u64>, TransformError> {
    let table = fft.table();
    let plan = fft.plan();
    let entries = crate::params::device_twiddle_entries(plan.len(), K);
    if table.is_empty() {
        return Ok(fft.field().one().digits().to_vec());
    }
    let owned;
    let m_entries = match table.full() {
        Some(entries) => entries,
        None => {
            owned = table.try_to_full(fft.field())?;
            &owned[..]
        }
    };
    if entries == m_entries.len() {
        return try_to_element_major(m_entries);
    }
    // w^e = w^(q·M + m) = (w^M)^q·w^m, w^M = r^(±1): the plan's entry m
    // shifted by ±q digits (2k − q for an inverse plan).
    let m_len = m_entries.len();
    let inverse = plan.direction() == gfpf_plan::Direction::Inverse;
    let mut out = try_words(K * entries, entries, "twiddle table copied for the device")?;
    for e in 0..entries {
        let (q, m) = (e / m_len, e % m_len);
        let shift = if inverse { (2 * K - q) % (2 * K) } else { q };
        out.extend_from_slice(fft.field().mul_pow_r(&m_entries[m], shift).digits());
    }
    Ok(out)
}

/// The tensor cores' twiddle tables of a launch of `kernel`, a
/// [`gfpf_kernels::Kernel::ElementTeamPairMma`] over DFT_R whose first
/// stage's parameters are `params` (in time or not, both stages or not, as
/// the kernel says), each [`gfpf_kernels::tensor::shared_twiddle_table`] of a power of w
/// (w^e = `device_table`'s entry e mod M times r^(±⌊e/M⌋), as
/// `gfpf_twiddle_exponent` splits it; `device_table` is
/// [`device_twiddle_table`]'s). With u = step/R in time, step
/// in frequency (step the first stage's, `params.step`), and
/// `params.tensor_split_bits` = 0, entry c·R + j (c < s, the smaller
/// stride; j < R) is w^(j·c·R·u), the twiddle a column of the tile shares
/// (in time the first stage's input j, in frequency the second stage's
/// output j, of the super-DFT at column c); with b > 0, entry e0 < 2^b is
/// w^e0 and entry 2^b + e1 is w^(2^b·e1) (e1 < N/2^b), the two factors of
/// w^e the kernel multiplies by in turn. With both stages' (and b = 0)
/// the other stage's follow: entry s·R + c·R + a is w^(a·c·u), then entry
/// 2·s·R + a·R + b is w^(a·b·s·u), the two factors of its twiddle
/// (`gfpf_pair_tensor_row_twiddles`). For
/// [`gfpf_kernels::Kernel::ElementTeamPairRowsMma`] (s = 1) entry a·R + b
/// is w^(a·b·u), B alone. With `params.tensor_scale` the B entries are
/// times N^{-1} (the inverse's scale folded in). For
/// [`gfpf_kernels::Kernel::ElementTeamDftMma`] entry c·R² + j is w^(c·j·u),
/// u its `folded_step` (its pair's column c and j = lo·R + hi). For
/// [`gfpf_kernels::Kernel::ScaleMma`]
/// one table, N^{-1}'s (N = 2^`params.log2_n`).
/// Where the field has no such products
/// ([`gfpf_kernels::tensor::shared_twiddles_available`]), and for other
/// kernels, nothing is read from it: one word.
pub fn tensor_twiddle_table<const K: usize>(
    field: &Field<K>,
    device_table: &[u64],
    params: &crate::params::StageParams,
    kernel: &gfpf_kernels::Kernel,
) -> Result<Vec<u64>, TransformError> {
    use gfpf_kernels::tensor::{SHARED_TWIDDLE_WORDS, shared_twiddle_table, shared_twiddles_available};
    let n_inv = || {
        field
            .inverse(&field.from_u64(1u64 << params.log2_n))
            .expect("N = 2^log2_n is a unit: p is odd")
    };
    if *kernel == gfpf_kernels::Kernel::ScaleMma {
        // One table: N^{-1}'s.
        return Ok(shared_twiddle_table(field, &n_inv()).unwrap_or_else(|| vec![0]));
    }
    let (radix, in_time, both_stages, rows_only) = match *kernel {
        gfpf_kernels::Kernel::ElementTeamPairMma {
            radix,
            in_time,
            both_stages,
        } => (radix, in_time, both_stages, false),
        gfpf_kernels::Kernel::ElementTeamPairRowsMma { radix, in_time } => (radix, in_time, false, true),
        gfpf_kernels::Kernel::ElementTeamDftMma { radix, in_time } => (radix, in_time, false, false),
        _ => return Ok(vec![0]),
    };
    let folded = matches!(kernel, gfpf_kernels::Kernel::ElementTeamDftMma { .. });
    if !shared_twiddles_available(&gfpf_kernels::DeviceConstants::of(field)) {
        return Ok(vec![0]);
    }
    let r = radix as u64;
    // s, the smaller stride: the launch's (its first stage's) in time, R
    // times less in frequency.
    let s = if in_time {
        1u64 << params.log2_stride
    } else {
        (1u64 << params.log2_stride) / r
    };
    // The first stage's step: a rows-only pair's in time is plain (step
    // 0), and would have its blocks as every twiddled stage does (pairs
    // have N ≥ 2k, so in whole exponents).
    let step = if rows_only && in_time {
        1u64 << params.log2_blocks
    } else {
        params.step
    };
    let u = if in_time { step / r } else { step };
    let mut exponents: Vec<u64> = match params.tensor_split_bits {
        // A stride-1 stage's folded twiddles (its pair's column c and j =
        // lo·R + hi): w^(c·j·u), u the pair's.
        _ if folded => {
            let u = params.folded_step;
            (0..r).flat_map(|c| (0..r * r).map(move |j| c * j * u)).collect()
        }
        // s = 1 and c = 0: B = w^(a·b·u) alone.
        _ if rows_only => (0..r).flat_map(|a| (0..r).map(move |b| a * b * s * u)).collect(),
        0 => (0..s).flat_map(|c| (0..r).map(move |j| j * c * r * u)).collect(),
        b => (0..1u64 << b)
            .chain((0..1u64 << (params.log2_n - b)).map(|e1| e1 << b))
            .collect(),
    };
    if both_stages {
        exponents.extend((0..s).flat_map(|c| (0..r).map(move |a| a * c * u)));
        exponents.extend((0..r).flat_map(|a| (0..r).map(move |b| a * b * s * u)));
    }
    // B's entries: every one of a rows-only pair's, the last R² with both
    // stages'; times N^{-1} where the inverse's scale is folded in.
    let b_from = if rows_only {
        0
    } else {
        exponents.len().saturating_sub((r * r) as usize)
    };
    let scale = (params.tensor_scale != 0 && (rows_only || both_stages)).then(n_inv);
    let entries = exponents.len();
    let mut out = try_words(entries * SHARED_TWIDDLE_WORDS, entries, "tensor-core twiddle tables")?;
    out.resize(entries * SHARED_TWIDDLE_WORDS, 0);
    let mask = (1u64 << params.twiddle_bits) - 1;
    // Table i into its words.
    let fill = |i: usize, words: &mut [u64]| {
        let e = exponents[i];
        let (q, m) = ((e >> params.twiddle_bits) as usize, (e & mask) as usize);
        let shift = match q {
            0 => 0,
            q if params.inverse != 0 => 2 * K - q,
            q => q,
        };
        let digits: [u64; K] = device_table[m * K..(m + 1) * K].try_into().expect("K words an entry");
        let entry = field.element(digits).expect("the device table's entries are canonical");
        let mut w = field.mul_pow_r(&entry, shift);
        if let Some(n_inv) = scale.filter(|_| i >= b_from) {
            w = field.mul(&w, &n_inv);
        }
        words.copy_from_slice(&shared_twiddle_table(field, &w).expect("available for the field, checked above"));
    };
    // On every host core where there are many, as the twiddle table is
    // filled (crate::prepared): t8 2^20's streamed 65536 took 145 ms on one
    // core, 89 ms on both of this project's 2-core VM (release build,
    // 2026-11-28).
    const PER_THREAD_MIN: usize = 1024;
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(entries.div_ceil(PER_THREAD_MIN))
        .max(1);
    let per_thread = entries.div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (t, part) in out.chunks_mut(per_thread * SHARED_TWIDDLE_WORDS).enumerate() {
            let fill = &fill;
            scope.spawn(move || {
                for (j, words) in part.chunks_mut(SHARED_TWIDDLE_WORDS).enumerate() {
                    fill(t * per_thread + j, words);
                }
            });
        }
    });
    Ok(out)
}

/// An empty vector with room for `words` words, the allocation failing as
/// [`TransformError::TooLarge`] (with `n` and `what`) instead of aborting.
fn try_words(words: usize, n: usize, what: &'static str) -> Result<Vec<u64>, TransformError> {
    let mut out = Vec::new();
    out.try_reserve_exact(words)
        .map_err(|_| TransformError::TooLarge { n, what })?;
    Ok(out)
}

/// The words of `elements`, element by element, the allocation failing as
/// [`TransformError::TooLarge`] instead of aborting.
fn try_to_element_major<const K: usize>(elements: &[Element<K>]) -> Result<Vec<u64>, TransformError> {
    let mut out = try_words(
        K * elements.len(),
        elements.len(),
        "twiddle table copied for the device",
    )?;
    out.extend(elements.iter().flat_map(|e| e.digits().iter().copied()));
    Ok(out)
}

/// Elements from digit-major words, each checked to be canonical (the
/// device must only ever produce canonical values; this catches a broken
/// kernel rather than passing garbage on).
pub fn from_digit_major<const K: usize>(field: &Field<K>, words: &[u64]) -> Result<Vec<Element<K>>, CudaError> {
    if !words.len().is_multiple_of(K) {
        return Err(CudaError::DigitMajorLength {
            words: words.len(),
            k: K,
        });
    }
    let len = words.len() / K;
    let mut out = Vec::with_capacity(len);
    let r = field.r();
    for j in 0..len {
        let digits: [u64; K] = std::array::from_fn(|d| words[d * len + j]);
        let top_is_r = digits[K - 1] == r;
        let canonical = if top_is_r {
            digits[..K - 1].iter().all(|&d| d == 0)
        } else {
            digits.iter().all(|&d| d < r)
        };
        if !canonical {
            return Err(CudaError::NotCanonical { index: j });
        }
        out.push(Element::from_digits_unchecked(digits));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::Preset;
    use rand::{SeedableRng, rngs::StdRng};

    #[test]
    fn round_trip_and_layout() {
        let f = Field::<4>::preset(Preset::T4).unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        let mut xs: Vec<Element<4>> = (0..700).map(|_| f.random(&mut rng)).collect();
        xs[0] = f.minus_one();
        let words = to_digit_major(&xs);
        assert_eq!(words.len(), 4 * 700);
        assert_eq!(words[2 * 700 + 5], xs[5].digits()[2]);
        assert_eq!(words[3 * 700], f.r(), "p - 1 keeps its top digit r");
        assert_eq!(from_digit_major(&f, &words).unwrap(), xs);
    }

    /// The tensor cores' tables of t8 2^12's pair (strides 16 and 256),
    /// one a (c, lo) twiddle and split by the exponent's six low and six
    /// high bits: each entry the table of the power of ω_N that the
    /// kernel's index names, in both directions.
    #[test]
    fn tensor_twiddle_tables_hold_the_twiddles_they_index() {
        use gfpf_kernels::tensor::{SHARED_TWIDDLE_WORDS, shared_twiddle_table};
        use gfpf_plan::{Direction, Order};
        let f = Field::<8>::preset(Preset::T8).unwrap();
        for direction in [Direction::Forward, Direction::Inverse] {
            let prepared = crate::prepared::Prepared::new(&f, 1 << 12, direction, Order::Natural).unwrap();
            let device_table = device_twiddle_table(&prepared.fft).unwrap();
            let launch = crate::params::launches(prepared.plan(), 256)
                .into_iter()
                .find(|l| crate::params::tensor_stage_params(l).is_some())
                .expect("a batch of 256 x 2^12 pairs on the tensor cores");
            let mut params = launch.params;
            let omega = f.root_of_unity(12).unwrap();
            let w = if direction == Direction::Inverse {
                f.inverse(&omega).unwrap()
            } else {
                omega
            };
            let entry = |table: &[u64], i: usize| table[i * SHARED_TWIDDLE_WORDS..][..SHARED_TWIDDLE_WORDS].to_vec();
            let of = |e: u64| shared_twiddle_table(&f, &f.pow_u64(&w, e)).unwrap();
            let first_only = gfpf_kernels::Kernel::ElementTeamPairMma {
                radix: 16,
                in_time: true,
                both_stages: false,
            };
            let direct = tensor_twiddle_table(&f, &device_table, &params, &first_only).unwrap();
            assert_eq!(direct.len(), 16 * 16 * SHARED_TWIDDLE_WORDS);
            for (c, lo) in [(0u64, 0u64), (1, 1), (5, 11), (15, 15)] {
                assert_eq!(
                    entry(&direct, (c * 16 + lo) as usize),
                    of(lo * c * params.step),
                    "{direction:?} ({c}, {lo})"
                );
            }
            params.tensor_split_bits = 6;
            let split = tensor_twiddle_table(&f, &device_table, &params, &first_only).unwrap();
            assert_eq!(split.len(), (64 + 64) * SHARED_TWIDDLE_WORDS);
            for e in [0u64, 1, 37, 63] {
                assert_eq!(entry(&split, e as usize), of(e), "{direction:?} low {e}");
                assert_eq!(entry(&split, 64 + e as usize), of(e << 6), "{direction:?} high {e}");
            }
            // Both stages', in time (u = step/R) and in frequency (to
            // digit-reversed order; u = the first stage's step, whose stride
            // is R·s): the columns' (c, j) at w^(j·c·R·u), the rows' A at
            // w^(a·c·u), B at w^(a·b·s·u).
            let s = 16u64;
            for order in [Order::Natural, Order::DigitReversed] {
                let prepared = crate::prepared::Prepared::new(&f, 1 << 12, direction, order).unwrap();
                let device_table = device_twiddle_table(&prepared.fft).unwrap();
                // Each pair with its own column and row twiddles.
                let unfolding = crate::params::DeviceShape {
                    fold_pair_twiddles: false,
                    ..crate::params::DeviceShape::H100
                };
                let launches = crate::params::launches_on(prepared.plan(), 256, &unfolding);
                // Both inverses fold their scale into B's tables (below).
                assert!(launches.iter().all(|l| l.kernel != gfpf_kernels::Kernel::ScaleMma));
                // The inverse's pair of s = 1 from digit-reversed order (first
                // stage plain): B alone, ω_(R²)^(a·b) = w^(a·b·N/R²).
                let rows = launches
                    .iter()
                    .find(|l| matches!(l.kernel, gfpf_kernels::Kernel::ElementTeamPairRowsMma { .. }));
                assert_eq!(
                    rows.is_some(),
                    (direction, order) == (Direction::Inverse, Order::DigitReversed)
                );
                // The inverse's B tables carry N^{-1} (its scale folded in).
                let n_inv = f.inverse(&f.from_u64(1 << 12)).unwrap();
                let scaled = |params: &crate::params::StageParams, e: u64| {
                    assert_eq!(params.tensor_scale, u64::from(direction == Direction::Inverse));
                    let w_e = f.pow_u64(&w, e);
                    let w_e = if params.tensor_scale != 0 {
                        f.mul(&w_e, &n_inv)
                    } else {
                        w_e
                    };
                    shared_twiddle_table(&f, &w_e).unwrap()
                };
                if let Some(rows) = rows {
                    let table = tensor_twiddle_table(&f, &device_table, &rows.params, &rows.kernel).unwrap();
                    assert_eq!(table.len(), 256 * SHARED_TWIDDLE_WORDS);
                    for (a, b) in [(0u64, 0u64), (1, 1), (3, 7), (7, 3), (15, 15)] {
                        assert_eq!(
                            entry(&table, (a * 16 + b) as usize),
                            scaled(&rows.params, a * b * 16),
                            "B({a}, {b})"
                        );
                    }
                }
                let Some(launch) = launches
                    .into_iter()
                    .find(|l| matches!(l.kernel, gfpf_kernels::Kernel::ElementTeamPairMma { .. }))
                else {
                    assert_eq!((direction, order), (Direction::Inverse, Order::DigitReversed));
                    continue;
                };
                let params = launch.params;
                let in_time = order == Order::Natural;
                assert_eq!(
                    launch.kernel,
                    gfpf_kernels::Kernel::ElementTeamPairMma {
                        radix: 16,
                        in_time,
                        both_stages: true
                    }
                );
                let u = if in_time { params.step / 16 } else { params.step };
                let both = tensor_twiddle_table(&f, &device_table, &params, &launch.kernel).unwrap();
                assert_eq!(both.len(), (2 * 256 + 256) * SHARED_TWIDDLE_WORDS);
                for (c, j) in [(0u64, 0u64), (3, 7), (15, 15)] {
                    let what = format!("{direction:?}, in time {in_time}, ({c}, {j})");
                    assert_eq!(entry(&both, (c * 16 + j) as usize), of(j * c * 16 * u), "{what}");
                    assert_eq!(entry(&both, (256 + c * 16 + j) as usize), of(j * c * u), "{what}");
                    assert_eq!(
                        entry(&both, (512 + c * 16 + j) as usize),
                        scaled(&params, c * j * s * u),
                        "{what}"
                    );
                }
            }
        }
    }

    /// The scale by N^{-1} on the tensor cores where no launch has B tables
    /// to fold it into (t8 2^9's inverse in natural order): one table,
    /// N^{-1}'s.
    #[test]
    fn the_scale_table_is_n_inverses() {
        use gfpf_plan::{Direction, Order};
        let f = Field::<8>::preset(Preset::T8).unwrap();
        let prepared = crate::prepared::Prepared::new(&f, 1 << 9, Direction::Inverse, Order::Natural).unwrap();
        let device_table = device_twiddle_table(&prepared.fft).unwrap();
        let launches = crate::params::launches(prepared.plan(), 1);
        let scale = launches.last().unwrap();
        assert_eq!(scale.kernel, gfpf_kernels::Kernel::ScaleMma);
        let n_inv = f.inverse(&f.from_u64(1 << 9)).unwrap();
        let table = tensor_twiddle_table(&f, &device_table, &scale.params, &scale.kernel).unwrap();
        assert_eq!(Some(table), gfpf_kernels::tensor::shared_twiddle_table(&f, &n_inv));
    }

    #[test]
    fn non_canonical_words_are_errors() {
        let f = Field::<2>::preset(Preset::T2).unwrap();
        let mut words = to_digit_major(&[f.one(), f.one()]);
        words[1] = f.r(); // element 1, digit 0 = r
        assert_eq!(from_digit_major(&f, &words), Err(CudaError::NotCanonical { index: 1 }));
        let words = [0, f.r(), 0, 1]; // element 0 = [0, 0]; element 1 = [r, 1]
        assert_eq!(from_digit_major(&f, &words), Err(CudaError::NotCanonical { index: 1 }));
        assert!(matches!(
            from_digit_major(&f, &[0, 0, 0]),
            Err(CudaError::DigitMajorLength { words: 3, k: 2 })
        ));
    }
}
