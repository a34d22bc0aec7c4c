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
    #[cfg_attr(
        not(feature = "model"),
        expect(dead_code, reason = "charged by gpu-model only: no probe stages twiddles")
    )]
    StageTwiddles,
    /// `gfpf_tile_add_sub`: a butterfly.
    AddSub,
    /// `gfpf_tile_mul_pow_r`: a shift by r^i.
    MulPowR,
    /// `gfpf_tile_add_sub_mul_pow_r`: a butterfly with its difference's
    /// shift.
    AddSubMulPowR,
    /// `gfpf_tile_mul_shared_twiddles<4>`: a product on the tensor cores,
    /// four lanes a twiddle.
    MulShared4,
    /// The same, eight lanes a twiddle.
    MulShared8,
    /// The same, sixteen lanes a twiddle (`gfpf_tile_mul_shared_twiddles_rows`).
    MulShared16,
}

impl TileOp {
    /// The operation a probe kernel (`gfpf_probe_NAME`, xtask/src/probes.cu)
    /// runs, by NAME.
    pub fn of_probe(name: &str) -> Option<TileOp> {
        Some(match name {
            "tile_mul" => TileOp::Mul,
            "tile_add_sub" => TileOp::AddSub,
            "tile_mul_pow_r" => TileOp::MulPowR,
            "tile_add_sub_mul_pow_r" => TileOp::AddSubMulPowR,
            "tile_mul_shared4" => TileOp::MulShared4,
            "tile_mul_shared8" => TileOp::MulShared8,
            "tile_mul_shared16" => TileOp::MulShared16,
            _ => return None,
        })
    }
}

/// SASS instructions of the element teams' operations on whole elements in
/// shared memory by k: a product by a twiddle, a lane's share of staging its
/// warp's twiddles, a butterfly, a shift by r^i (kernels/gfpf_fft.cu
/// `gfpf_tile_mul`, `gfpf_tile_stage_twiddles`, `gfpf_tile_add_sub`,
/// `gfpf_tile_mul_pow_r`), each beside its shared-memory words (charged
/// apart, 2 instructions each: their LDS and STS are subtracted here).
/// Probe kernels that run one operation each, less an empty probe, the
/// x = −1 branches left out, the rest counted once (a carry or borrow out of
/// the top digit runs its one-digit fix-up about every other time): t2, t4,
/// t8, t16 (p8's product 1932), NVRTC 12.9, sm_90, nvdisasm, 2026-11-25;
/// then the digits' sums and differences as PTX carry chains
/// (`gfpf_add_halves`; the product keeps its 64-bit compares, under which
/// ptxas fits it in 64 registers), which the same probes, before and
/// after, put at 33, 73, 158 and 332 instructions fewer a butterfly, 15,
/// 35, 76 and 117 a shift (NVRTC 12.9, sm_90, nvdisasm 13.5, 2026-11-28).
/// Then the product's column sums in 32-bit carry chains
/// (`gfpf_column_mac`), which the same probe of the product, before and
/// after, puts at 16, 138, 549 and 2971 instructions fewer (Möller–Granlund's
/// divisions throughout; p8's 546; NVRTC 12.9, sm_90, nvdisasm 13.5,
/// 2026-11-28). Against a lane product's 574 instructions on each of t8's
/// 8 lanes (4.6k), a butterfly's 121 (968) and a shift's 161 (1.3k).
pub const TILE_OP_INSTRUCTIONS: &[(usize, [f64; 4])] = &[
    (2, [287.0, 31.0, 66.0, 52.0]),
    (4, [561.0, 55.0, 112.0, 93.0]),
    (8, [1286.0, 103.0, 184.0, 173.0]),
    (16, [2701.0, 199.0, 344.0, 381.0]),
];

/// SASS instructions of a butterfly whose difference takes its shift by r^i
/// in the same chains (`gfpf_tile_add_sub_mul_pow_r`) by k, counted as
/// [`TILE_OP_INSTRUCTIONS`] (the x = −1 branch, which runs the two apart,
/// left out): t2 117, t4 219, t8 415, t16 807, with 19, 37, 73 and 145
/// shared-memory words, against the butterfly's and the shift's 105 + 73,
/// 179 + 131, 343 + 239 and 663 + 471 (15 + 7, 29 + 13, 57 + 25, 113 + 49
/// words) in the same probes (NVRTC 12.9, sm_90, nvdisasm 13.5,
/// 2026-11-27); with the PTX carry chains 31, 71, 157 and 326 fewer (same
/// probes, 2026-11-28); then the sum's loads in an order chosen by lane
/// (`y_first`: the order's test and two selects), 8 more at t8 (probes of
/// the operation without its x = −1 test, before and after, NVRTC 12.9,
/// sm_90, nvdisasm 13.5, 2026-11-29), taken at every k as those
/// instructions do not depend on it.
pub const TILE_ADD_SUB_MUL_POW_R_INSTRUCTIONS: &[(usize, f64)] = &[(2, 94.0), (4, 156.0), (8, 266.0), (16, 489.0)];

/// The element teams' product by k where the field's short division serves
/// the first division of every carry digit and the carry past the top
/// (`gfpf_div_rem_small_high`, the t-presets): [`TILE_OP_INSTRUCTIONS`]'
/// products plus the change a probe of `gfpf_tile_mul` under the kernels'
/// register bound (`__launch_bounds__(128, 8)`) measured, before and after
/// (t2 440 → 392, t4 976 → 864, t8 2280 → 2208, t16 7624 → 7712 with the
/// probe's loads and stores; NVRTC 12.9, sm_90, nvdisasm 13.5, 2026-11-26);
/// then with the column sums in 32-bit carry chains, 20, 120, 567 and 3290
/// fewer (the same probe, t2 291 → 271, t4 681 → 561, t8 1904 → 1337, t16
/// 7220 → 3930; 2026-11-28: at t16 the 128-bit sums had ptxas save their
/// carries' predicates in registers, P2R and LOP3).
pub const TILE_MUL_SHORT_DIVISION_INSTRUCTIONS: &[(usize, f64)] = &[(2, 235.0), (4, 467.0), (8, 1196.0), (16, 2470.0)];

/// SASS instructions of a lane's product on the tensor cores by a twiddle
/// four lanes of its warp share (`gfpf_tile_mul_shared_twiddles_sets<4>`,
/// k = 8) beside its 192 shared-memory words (staging its set's two
/// tables, B's and A's loads, its digits' stores, the closing carry chain;
/// 2 instructions each as the model charges them): 989 on a probe's
/// common path less an empty probe's (18 IMMA, 16 16-byte and 2 8-byte
/// loads, two short divisions and the carries' shuffles a set of four, 223
/// an iteration), against 1763 for [`TILE_MUL_SHORT_DIVISION_INSTRUCTIONS`]'
/// t8 product beside its own (probes of one warp's 32 products, NVRTC
/// 12.9, sm_90, nvdisasm 13.5, 2026-11-29; 447 by the probes of
/// 2026-11-28, before the lane was read again where the carries leave).
pub const TILE_MUL_SHARED_INSTRUCTIONS: f64 = 605.0;

/// As [`TILE_MUL_SHARED_INSTRUCTIONS`] with eight lanes a twiddle
/// (`gfpf_tile_mul_shared_twiddles_sets<8>`, the element-team pairs' B
/// pass): one table staged and 10 IMMA a set, 138 instructions an
/// iteration, 680 on the probe's common path less the empty probe's,
/// beside 113 shared words (same probes; 407 on 2026-11-28).
pub const TILE_MUL_SHARED8_INSTRUCTIONS: f64 = 454.0;

/// As [`TILE_MUL_SHARED_INSTRUCTIONS`] with sixteen lanes a twiddle, the
/// twiddle the B operand and the elements A's rows
/// (`gfpf_tile_mul_shared_twiddles_rows`, the pairs' column and A passes):
/// per group of sixteen, a table staged with its words' halves swapped
/// (four loads, shuffles and stores a lane), 22 IMMA, four short
/// divisions, 397 instructions an iteration, 69 of them moves that put a
/// row's digits in A's register order for each product; 876 on the
/// probe's common path less the empty probe's, beside 73 shared words
/// (same probes). More instructions than eight lanes' 454, for half the
/// table reads (a group's sixteen products read its table once).
pub const TILE_MUL_SHARED16_INSTRUCTIONS: f64 = 731.0;

/// The model's charge for `op` at k digits, where the field's carry chains
/// take the short division or not; `None` where the model has no count for
/// k (the element teams run at k = 2 … 16; the tensor-core products at
/// k = 8, their charges one figure).
pub fn charge(op: TileOp, k: usize, short_division: bool) -> Option<f64> {
    // k's entry of a table of one cost by k.
    let at = |table: &[(usize, f64)]| table.iter().find(|(digits, _)| *digits == k).map(|(_, cost)| *cost);
    let [mul, stage, add_sub, shift] = TILE_OP_INSTRUCTIONS
        .iter()
        .find(|(digits, _)| *digits == k)
        .map(|(_, costs)| *costs)?;
    Some(match op {
        TileOp::Mul if short_division => at(TILE_MUL_SHORT_DIVISION_INSTRUCTIONS).unwrap_or(mul),
        TileOp::Mul => mul,
        TileOp::StageTwiddles => stage,
        TileOp::AddSub => add_sub,
        TileOp::MulPowR => shift,
        TileOp::AddSubMulPowR => at(TILE_ADD_SUB_MUL_POW_R_INSTRUCTIONS).unwrap_or(add_sub + shift),
        TileOp::MulShared4 => TILE_MUL_SHARED_INSTRUCTIONS,
        TileOp::MulShared8 => TILE_MUL_SHARED8_INSTRUCTIONS,
        TileOp::MulShared16 => TILE_MUL_SHARED16_INSTRUCTIONS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_read_the_tables_by_k() {
        assert_eq!(charge(TileOp::AddSubMulPowR, 8, true), Some(266.0));
        assert_eq!(charge(TileOp::Mul, 8, true), Some(1196.0));
        assert_eq!(charge(TileOp::Mul, 8, false), Some(1286.0));
        assert_eq!(
            charge(TileOp::MulShared16, 8, true),
            Some(TILE_MUL_SHARED16_INSTRUCTIONS)
        );
        assert_eq!(charge(TileOp::AddSub, 32, true), None);
        assert_eq!(TileOp::of_probe("tile_mul_shared8"), Some(TileOp::MulShared8));
        assert_eq!(TileOp::of_probe("empty"), None);
    }
}
