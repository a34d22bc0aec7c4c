//! The time model's instruction charges for the element teams' operations
//! on whole elements in shared memory (kernels/gfpf_fft.cu `gfpf_tile_*`),
//! each beside its shared-memory words, which the model charges apart (2
//! instructions a word): `cargo xtask gpu-model` charges them, and `cargo
//! xtask kernels --probe` prints them beside what probe kernels' machine
//! code gives ([`crate::probes`]).

/// An element teams' operation the model charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileOp {
    /// `gfpf_tile_mul`: a product by a twiddle on the threads.
    Mul,
    /// `gfpf_tile_stage_twiddles`: a lane's share of staging its warp's
    /// twiddles.
    StageTwiddles,
    /// `gfpf_tile_add_sub`: a butterfly.
    AddSub,
    /// `gfpf_tile_mul_pow_r`: a shift by r^i.
    MulPowR,
    /// `gfpf_tile_add_sub_mul_pow_r`: a butterfly with its difference's
    /// shift.
    AddSubMulPowR,
    /// `gfpf_tile_add_sub_shift`: the same with the shift the warp's and
    /// fixed in the code (its arm; the branch to it is
    /// [`uniform_shift_branch`]).
    AddSubShift,
    /// `gfpf_tile_mul_shared_twiddles<4>`: a product on the tensor cores,
    /// four lanes a twiddle.
    MulShared4,
    /// The same, eight lanes a twiddle.
    MulShared8,
    /// The same, sixteen lanes a twiddle (two sets of eight columns at once).
    MulShared16,
}

impl TileOp {
    /// The operation a probe kernel (`gfpf_probe_NAME`, xtask/src/probes.cu)
    /// runs, by NAME.
    pub fn of_probe(name: &str) -> Option<TileOp> {
        Some(match name {
            "tile_mul" => TileOp::Mul,
            "tile_stage_twiddles" => TileOp::StageTwiddles,
            "tile_add_sub" => TileOp::AddSub,
            "tile_mul_pow_r" => TileOp::MulPowR,
            "tile_add_sub_mul_pow_r" => TileOp::AddSubMulPowR,
            "tile_add_sub_shift" => TileOp::AddSubShift,
            "tile_mul_shared4" => TileOp::MulShared4,
            "tile_mul_shared8" => TileOp::MulShared8,
            "tile_mul_shared16" => TileOp::MulShared16,
            _ => return None,
        })
    }
}

/// The element teams' operations on the threads by field kind: k, whether
/// the field's carry chains take the short division (the t-presets) or
/// Möller–Granlund's (the p-presets), and [product by a twiddle, a lane's
/// share of staging its warp's twiddles, butterfly, shift by r^i, butterfly
/// with its shift]. The charges `cargo xtask kernels --probe` gives (the
/// common path's instructions less 2 a shared word, each rare branch's test
/// counted) on t2, t4, t8, t16 (short division) and p4, p8, p16 (NVRTC
/// 12.9, sm_90, nvdisasm 13.5, 2026-11-29); k = 2 has no p-preset and
/// takes t2's. The butterflies' figures are those since they take the
/// sum's carry past the top (and a plain butterfly's borrow) at digit 0,
/// the walk over the digits a rare branch, the butterfly with its
/// shift reads each digit once, and the shifts' increment (r^k = −1 added
/// once too many) carries past a digit in a rare branch
/// (`gfpf_tile_increment`, 2026-11-30, the device's code the same: t8's
/// shift 140 and butterfly with its shift 222 before, the increment's k
/// steps counted); the butterfly with its shift's since its two chains are
/// the fixed shift's (`gfpf_tile_add_sub_shift_chains`, 2026-11-30: t8 179
/// before, t16 315), and the butterfly whose shift is its warp's is new
/// (t8 61); the staging's since its loads take two words each (16 bytes:
/// t2 23, t4 and p4 37, t8 and p8 65, t16 and p16 121 before, 2026-11-30)
/// (t8: butterfly 236 instructions on 57 words
/// before, 111 on 34; with its shift 344 on 75, 322 on 50; charges 122 and
/// 194 before). Before, ptxas dropped the rare branches' tests from the
/// probes (an empty asm took the condition; t8's product 1042 where its
/// tests make it 1060), and the probes ran under 64 registers at every k,
/// where k = 16's kernels have 128: there they spilled, and their local
/// loads and stores counted (t16's product 3365, or 3780 with its tests,
/// where it is 2887; its butterfly 277 where 217). Before that, the charges were
/// instructions less one a word, beside the model's two a word (t8's
/// butterfly with its shift 266 where 193), and one figure for both kinds
/// of a k (p4's butterflies, whose r has a low half and so no PTX carry
/// chains, take 146 and 188 where t4's take 81 and 125).
pub const THREAD_CHARGES: &[(usize, bool, [f64; 6])] = &[
    (2, true, [215.0, 7.0, 20.0, 32.0, 76.0, 39.0]),
    (4, true, [436.0, 23.0, 27.0, 53.0, 108.0, 46.0]),
    (8, true, [1060.0, 35.0, 43.0, 95.0, 175.0, 61.0]),
    (16, true, [2887.0, 59.0, 62.0, 179.0, 304.0, 93.0]),
    (4, false, [590.0, 23.0, 100.0, 88.0, 180.0, 121.0]),
    (8, false, [1262.0, 35.0, 43.0, 95.0, 175.0, 61.0]),
    (16, false, [3170.0, 59.0, 62.0, 179.0, 304.0, 93.0]),
];

/// The tensor cores' products (k = 8, `gfpf_tile_mul_shared_twiddles`) by
/// whether the field's carry chains take the short division: [four, eight,
/// sixteen lanes a twiddle], the charges of `cargo xtask kernels --probe`
/// on t8 and p8 (NVRTC 12.9, sm_90, 2026-11-30). Sixteen lanes a twiddle
/// run two sets of eight columns at once, each of the table's A'
/// fragments read once for both: t8 631 on 56 words, p8 805 on 56, where
/// the twiddle as the B operand and the elements as A's rows took 803 and
/// 900 (its fragments of the elements copied into place for each
/// product). Every product closes in registers, 65 to 134 instructions
/// more than closed in shared memory for 16 words fewer (t8 four and eight
/// lanes a twiddle 590 and 460 closed there, p8 770 and 640). A table's
/// staging makes its 7 complemented rows from the other 8 (512 bytes of
/// device memory where 960 were read): sixteen and eight lanes a twiddle 6
/// and 26 instructions more (t8 625 and 602 before; p8 799 and 774), four
/// 145 more, its two tables staged in a rolled loop (unrolled, t8's and
/// p8's pair kernels with both stages' twiddles spilled 8 bytes on sm_90;
/// t8 675 before, p8 847). Earlier:
/// eight lanes a twiddle 418 at t8 before the rare branches' tests were
/// counted, 436 before a table's stores took rows four apart.
pub const TENSOR_CHARGES: &[(bool, [f64; 3])] = &[(true, [820.0, 628.0, 631.0]), (false, [992.0, 800.0, 805.0])];

/// What one warp alone takes to run each operation as its machine code is
/// scheduled, by k and division as [`THREAD_CHARGES`]: (cycles at
/// [`crate::probes::ASSUMED_LATENCIES`], cycles at
/// [`crate::probes::SLOW_LATENCIES`], shared words) of [product, staging
/// share, butterfly, shift, butterfly with its shift], the `cycles`, `slow`
/// and `shared` columns of `cargo xtask kernels --probe` (ptxas's stall
/// counts and barriers, variable latencies assumed; NVRTC 12.9, sm_90,
/// nvdisasm 13.5, 2026-11-30). The cycles include the operation's shared
/// words' latencies. At t8 they are 2.2 (product, butterfly) to 3.4
/// (butterfly with its shift) cycles an instruction, where the fitted path
/// term charges 11.9 and the floor 4 (words 8 each).
pub const THREAD_SCHEDULE: &[(usize, bool, [Scheduled; 6])] = &[
    (
        2,
        true,
        [
            (537.0, 575.0, 6.0),
            (265.0, 395.0, 2.0),
            (167.0, 182.0, 10.0),
            (220.0, 250.0, 6.0),
            (342.0, 379.0, 11.0),
            (249.0, 279.0, 10.0),
        ],
    ),
    (
        4,
        true,
        [
            (1004.0, 1049.0, 13.0),
            (276.0, 406.0, 4.0),
            (193.0, 208.0, 18.0),
            (249.0, 279.0, 10.0),
            (498.0, 567.0, 19.0),
            (388.0, 448.0, 18.0),
        ],
    ),
    (
        8,
        true,
        [
            (2467.0, 2505.0, 25.0),
            (289.0, 419.0, 8.0),
            (250.0, 258.0, 34.0),
            (317.0, 337.0, 18.0),
            (826.0, 948.0, 35.0),
            (667.0, 787.0, 34.0),
        ],
    ),
    (
        16,
        true,
        [
            (7988.0, 8233.0, 72.0),
            (337.0, 467.0, 16.0),
            (498.0, 506.0, 66.0),
            (493.0, 523.0, 34.0),
            (1511.0, 1711.0, 67.0),
            (1245.0, 1472.0, 66.0),
        ],
    ),
    (
        4,
        false,
        [
            (1300.0, 1345.0, 13.0),
            (276.0, 406.0, 4.0),
            (314.0, 329.0, 18.0),
            (305.0, 335.0, 10.0),
            (593.0, 659.0, 19.0),
            (495.0, 555.0, 18.0),
        ],
    ),
    (
        8,
        false,
        [
            (2959.0, 2997.0, 25.0),
            (289.0, 419.0, 8.0),
            (250.0, 258.0, 34.0),
            (317.0, 337.0, 18.0),
            (826.0, 948.0, 35.0),
            (667.0, 787.0, 34.0),
        ],
    ),
    (
        16,
        false,
        [
            (9003.0, 9228.0, 72.0),
            (337.0, 467.0, 16.0),
            (498.0, 506.0, 66.0),
            (493.0, 523.0, 34.0),
            (1511.0, 1711.0, 67.0),
            (1245.0, 1472.0, 66.0),
        ],
    ),
];

/// One warp alone's cycles for an operation at the assumed and at the slow
/// latencies, and its shared words.
pub type Scheduled = (f64, f64, f64);

/// The same for the tensor cores' products, by division as
/// [`TENSOR_CHARGES`]: [four, eight, sixteen lanes a twiddle]. Their sets'
/// table reads from L2 (assumed 260 cycles) are on a warp's path once a set
/// (t8: 2.8, 3.5 and 4.0 cycles an instruction for sixteen, eight and
/// four lanes a twiddle).
pub const TENSOR_SCHEDULE: &[(bool, [Scheduled; 3])] = &[
    (
        true,
        [(4716.0, 6044.0, 176.0), (2840.0, 3580.0, 96.0), (2055.0, 2469.0, 56.0)],
    ),
    (
        false,
        [(5000.0, 6364.0, 176.0), (3124.0, 3920.0, 96.0), (2347.0, 2761.0, 56.0)],
    ),
];

/// One warp alone's cycles for `op` (at the assumed latencies, or the slow
/// ones where `slow`) and its shared words ([`THREAD_SCHEDULE`],
/// [`TENSOR_SCHEDULE`]); `None` where the model has no count.
pub fn scheduled(op: TileOp, k: usize, short_division: bool, slow: bool) -> Option<(f64, f64)> {
    let (cycles, slow_cycles, words) = by_op(op, k, short_division, THREAD_SCHEDULE, TENSOR_SCHEDULE)?;
    Some((if slow { slow_cycles } else { cycles }, words))
}

/// `op`'s entry at k digits and the division: the threads' operations from
/// `threads` (by k and division, else by k alone), the tensor cores' from
/// `tensor` (k = 8 alone).
fn by_op<T: Copy>(
    op: TileOp,
    k: usize,
    short_division: bool,
    threads: &[(usize, bool, [T; 6])],
    tensor: &[(bool, [T; 3])],
) -> Option<T> {
    let thread = |i: usize| {
        threads
            .iter()
            .find(|(digits, short, _)| *digits == k && *short == short_division)
            .or_else(|| threads.iter().find(|(digits, _, _)| *digits == k))
            .map(|(_, _, entries)| entries[i])
    };
    let tensor = |i: usize| {
        (k == 8).then(|| {
            tensor
                .iter()
                .find(|(short, _)| *short == short_division)
                .map(|(_, entries)| entries[i])
        })?
    };
    match op {
        TileOp::Mul => thread(0),
        TileOp::StageTwiddles => thread(1),
        TileOp::AddSub => thread(2),
        TileOp::MulPowR => thread(3),
        TileOp::AddSubMulPowR => thread(4),
        TileOp::AddSubShift => thread(5),
        TileOp::MulShared4 => tensor(0),
        TileOp::MulShared8 => tensor(1),
        TileOp::MulShared16 => tensor(2),
    }
}

/// Whether a field's carry chains take the short division
/// ([`gfpf_kernels::SmallHighDivision`]) rather than Möller–Granlund's: the
/// charges depend on it.
pub fn short_division(c: &gfpf_kernels::DeviceConstants) -> bool {
    !matches!(
        gfpf_kernels::SmallHighDivision::of(c),
        gfpf_kernels::SmallHighDivision::MollerGranlund
    )
}

/// Instructions of the branch to a butterfly's arm where its shift is the
/// warp's ([`TileOp::AddSubShift`], `gfpf_tile_add_sub_uniform_shift`),
/// which its probe leaves out (one arm alone there): a test and a branch
/// for each halving of the k shifts, as t8's pair kernels' machine code
/// takes them (NVRTC 12.9, sm_90, 2026-11-30).
#[cfg_attr(not(feature = "model"), allow(dead_code))]
pub fn uniform_shift_branch(k: usize) -> f64 {
    2.0 * (k as f64).log2()
}

/// The model's charge for `op` at k digits, where the field's carry chains
/// take the short division or not; `None` where the model has no count
/// (the element teams run at k = 2 … 16, the tensor cores' products at
/// k = 8).
pub fn charge(op: TileOp, k: usize, short_division: bool) -> Option<f64> {
    by_op(op, k, short_division, THREAD_CHARGES, TENSOR_CHARGES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_read_the_tables_by_k_and_division() {
        assert_eq!(charge(TileOp::AddSubMulPowR, 8, true), Some(175.0));
        assert_eq!(charge(TileOp::AddSubShift, 8, true), Some(61.0));
        assert_eq!(charge(TileOp::AddSubShift, 4, false), Some(121.0));
        assert_eq!(uniform_shift_branch(8), 6.0);
        assert_eq!(scheduled(TileOp::AddSubShift, 16, true, true), Some((1472.0, 66.0)));
        assert_eq!(charge(TileOp::Mul, 8, true), Some(1060.0));
        assert_eq!(charge(TileOp::Mul, 8, false), Some(1262.0));
        assert_eq!(charge(TileOp::AddSub, 4, false), Some(100.0));
        // No p2: t2's.
        assert_eq!(charge(TileOp::Mul, 2, false), Some(215.0));
        assert_eq!(charge(TileOp::MulShared16, 8, true), Some(631.0));
        assert_eq!(charge(TileOp::MulShared16, 8, false), Some(805.0));
        assert_eq!(charge(TileOp::MulShared16, 16, true), None);
        assert_eq!(charge(TileOp::AddSub, 32, true), None);
        assert_eq!(TileOp::of_probe("tile_mul_shared8"), Some(TileOp::MulShared8));
        assert_eq!(TileOp::of_probe("empty"), None);
        assert_eq!(scheduled(TileOp::MulShared16, 8, true, false), Some((2055.0, 56.0)));
        assert_eq!(scheduled(TileOp::MulShared16, 8, true, true), Some((2469.0, 56.0)));
        assert_eq!(scheduled(TileOp::Mul, 8, false, false), Some((2959.0, 25.0)));
        assert_eq!(scheduled(TileOp::Mul, 2, false, false), Some((537.0, 6.0)));
        assert_eq!(scheduled(TileOp::MulShared8, 16, true, false), None);
    }
}
