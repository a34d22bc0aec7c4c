//! `cargo xtask gpu-model`: a traffic and time model of the CUDA executor on
//! an H100 (or, with `--gpu h200`, an H200: [`Gpu`]), from what the
//! block-level emulator counts and what ptxas reports, calibrated on the
//! kernels' one measured table (an H100's). Every time it prints is a
//! model, never a measurement.
//!
//! Per launch (one stage), from the emulator on a sample of blocks scaled to
//! the launch: 32-byte sectors moved in global memory, the field operations
//! run (per thread, per warp, and on the busiest warp's serial path: a
//! warp runs every branch any of its lanes takes, so it runs each
//! operation as often as the lane that runs it most); from ptxas
//! (NVRTC, sm_90): registers, stack frame, theoretical occupancy. Then
//!
//! * issue: warp instructions (the warps' operations × the instruction
//!   estimates of [`instructions`]) at 4 a clock per SM on the SMs the
//!   grid fills, slowed where fewer than [`WARPS_TO_HIDE_LATENCY`] warps a
//!   scheduler are resident;
//! * memory: data sectors moved plus, for kernels with a stack frame, the
//!   bytes their operations move through local memory times the fitted
//!   [`Model::local_dram_factor`], at the GPU's copy bandwidth (the
//!   H100's measured 3.0 TB/s); twiddle-table
//!   sectors at an assumed L2 bandwidth where the table fits half of L2,
//!   the tensor cores' tables' (a few MiB at most) at it always (both
//!   less where the grid fills few SMs);
//! * path: the busiest warp's instructions at the fitted
//!   [`Model::path_cycles_per_instruction`] and its barriers at
//!   [`BARRIER_CYCLES`], once per wave of blocks;
//!
//! and a launch takes the largest of the three plus [`LAUNCH_SECONDS`].
//! The two fitted constants minimise the squared log error over the
//! measured rows of the one-thread-per-DFT kernels ([`MEASURED`]); the
//! report says how far each row lands and which term set it. For the
//! device's kernels it also prints a floor: the same model with the path
//! term at [`DEPENDENT_ISSUE_CYCLES`] a instruction, since the fitted cost
//! may not carry over to kernels without local memory. `--transform` also
//! prints the path as the machine code schedules it ([`Model::scheduled`]):
//! the element teams' operations at the cycles one warp alone takes to run
//! their probe kernels as ptxas scheduled them (stall counts and barriers
//! read from the encodings, variable latencies assumed:
//! [`crate::probes::warp_alone_cycles`]).

use std::time::Duration;

use clap::{Args, Parser};
use gfpf_cuda::Kernel;
use gfpf_cuda::ntt::NttWord;
use gfpf_cuda::params::StageKernels;
use gfpf_cuda::resources::{KernelResources, ModuleResources, SmLimits};
use gfpf_field::{Field, Preset};
use gfpf_plan::{Direction, Order};
use gfpf_testkit::emulator::{EmulatedFft, EmulatedNtt, FieldOps, HostKernels, LaunchTraffic, SharedSite};

use crate::mm_costs::{
    MM_DIGIT_INSTRUCTIONS, MM_DIGIT_SHORT_DIVISION_INSTRUCTIONS, MM_JOIN_PRIME_INSTRUCTIONS, MM_MAC_INSTRUCTIONS,
    MM_PRIME_INSTRUCTIONS, MM_PRODUCT_INSTRUCTIONS, MM_TERM_INSTRUCTIONS, MM62_MAC_INSTRUCTIONS,
    MM62_PRODUCT_INSTRUCTIONS, MM62_TERM_INSTRUCTIONS,
};
use crate::ntt_costs::{
    NTT_BUTTERFLY_INSTRUCTIONS, NTT_FORWARD_BUTTERFLY_INSTRUCTIONS, NTT_GLOBAL_WORD_INSTRUCTIONS,
    NTT_GROUP_INSTRUCTIONS, NTT_MMA_TILE_INSTRUCTIONS, NTT_TILE_WORD_INSTRUCTIONS, NTT50_BUTTERFLY_INSTRUCTIONS,
    NTT50_FORWARD_BUTTERFLY_INSTRUCTIONS, NTT50_GROUP_INSTRUCTIONS, NTT50_TILE_WORD_INSTRUCTIONS,
    NTT62_BUTTERFLY_INSTRUCTIONS, NTT62_FORWARD_BUTTERFLY_INSTRUCTIONS, NTT62_GROUP_INSTRUCTIONS,
    NTT62_TILE_WORD_INSTRUCTIONS,
};
use crate::tile_costs::{self, TileOp};

use gfpf_cuda::multimodular::{MultiModularPlan, WordSizePlan, WordSizes};

use crate::kernel_report::{Families, compile_in_child};
use crate::pipe_mix::{Pipe, PipeMix};
use crate::report::gpu_contest::{self, ContestRow, GpuContest};
use crate::transform_spec::TransformSpec;

/// A GPU as the model sees it: SMs, the clock under load, the
/// device-to-device copy bandwidth (counting read + write), L2's size and
/// read bandwidth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gpu {
    /// What the figures call it.
    pub name: &'static str,
    /// Streaming multiprocessors.
    pub sms: f64,
    /// The clock under load (Hz).
    pub clock_hz: f64,
    /// Device-to-device copy bandwidth, read + write (B/s).
    pub copy_bytes_per_s: f64,
    /// Where the copy bandwidth comes from, for the reports.
    pub copy_source: &'static str,
    /// L2 (bytes).
    pub l2_bytes: f64,
}

/// The H100 SXM the executor's rows were measured on (2026-11-23): 132 SMs,
/// 50 MiB of L2, and the copy bandwidth measured there, 3.0 TB/s (its
/// HBM3's specified 3.35 TB/s).
pub const H100_SXM: Gpu = Gpu {
    name: "H100 SXM",
    sms: 132.0,
    clock_hz: 1.755e9,
    copy_bytes_per_s: 3.0e12,
    copy_source: "measured on one, 2026-11-23",
    l2_bytes: 50.0 * 1024.0 * 1024.0,
};

/// The H200 SXM: the H100's GH100 chip (132 SMs, the same clocks, 50 MiB
/// of L2) with HBM3e specified at 4.8 TB/s. Its copy bandwidth has not been
/// measured: 4.3 TB/s is the H100's measured share of its specified rate
/// (3.0 of 3.35 TB/s) applied to 4.8, an assumption that `gfpf bench
/// --device cuda`, which measures the copy on the device, checks.
pub const H200_SXM: Gpu = Gpu {
    name: "H200 SXM",
    copy_bytes_per_s: 4.8e12 * (3.0 / 3.35),
    copy_source: "assumed: the H100's measured 3.0 of its specified 3.35 TB/s, applied to the H200's 4.8",
    ..H100_SXM
};

/// The GPU `cargo xtask gpu-model --gpu` models.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GpuChoice {
    /// [`H100_SXM`], where the model's fit was measured.
    #[default]
    H100,
    /// [`H200_SXM`]: the same chip with faster memory.
    H200,
}

impl GpuChoice {
    /// The GPU's constants.
    pub fn gpu(self) -> Gpu {
        match self {
            GpuChoice::H100 => H100_SXM,
            GpuChoice::H200 => H200_SXM,
        }
    }
}

/// L2 read bandwidth: an assumption (published microbenchmarks of H100
/// report 5–7 TB/s), not measured here; the H200's L2 is the H100's.
const L2_BYTES_PER_S: f64 = 5.5e12;
/// Warp instructions an SM issues a clock (4 schedulers).
const ISSUE_PER_CLOCK: f64 = 4.0;
/// Shared-memory wavefronts an SM serves a clock: its 32 banks of 4 bytes
/// give 128 bytes a clock (the CUDA C++ Programming Guide's bank model for
/// compute capability 5.0 and later; about 30 TB/s over an H100's 132 SMs
/// at its clock under load). A warp-wide access takes a wavefront for
/// each word its busiest bank serves ([`LaunchTraffic::shared_wavefronts`]).
const SHARED_WAVEFRONTS_PER_CLOCK: f64 = 1.0;
/// Shared-memory wavefronts a warp's shuffle of a 32-bit register takes
/// (a SHFL instruction, [`FieldOps::shuffles`] in a warp's count): the CUDA
/// C++ Programming Guide gives shuffles 32 results a clock an SM on every
/// compute capability from 5.0, a warp a clock as the banks serve a
/// wavefront, and Nsight Compute's guide has the load-store pipe issue them
/// to L1TEX, whose shared-memory path serves the wavefronts. Whether a
/// shuffle and a wavefront share that path clock for clock is not measured
/// here; an assumption until ncu's pipe figures on a GPU settle it.
const SHUFFLE_WAVEFRONTS: f64 = 1.0;
/// Global sectors a wavefront of the L1 data path carries: the path
/// moves 128 bytes a clock, and an SM's global loads and stores pass
/// through it as its shared-memory accesses do (Nsight Compute counts both
/// in `l1tex__data_pipe_lsu_wavefronts`); 4 sectors of 32 bytes a
/// wavefront at best, an assumption beside the emulator's sector counts.
const GLOBAL_SECTORS_A_WAVEFRONT: f64 = 4.0;
/// Resident warps a scheduler needs to issue every clock through the
/// latency of dependent integer instructions (~4 cycles) with some slack.
const WARPS_TO_HIDE_LATENCY: f64 = 6.0;
/// What a launch costs beyond its work (driver and grid start).
const LAUNCH_SECONDS: f64 = 4e-6;
/// Cycles a `__syncthreads()` adds to a thread's path: an assumption (a
/// block barrier whose warps arrive together takes tens of cycles in
/// published microbenchmarks), not measured here.
const BARRIER_CYCLES: f64 = 24.0;
/// Cycles a block's first loads from device memory keep its warps waiting
/// before any operation (the order of device memory's latency published for
/// recent NVIDIA GPUs, 400–600 cycles; an assumption): added once to the
/// path that [`Model::scheduled`] counts.
const TILE_LOAD_LATENCY_CYCLES: f64 = 600.0;
/// Cycles a dependent integer instruction waits (the latency that
/// [`WARPS_TO_HIDE_LATENCY`] assumes): the path term's cost per instruction
/// in the floor of the device kernels' times. The fitted cost (about 12
/// cycles) comes from kernels that wait on local memory; kernels whose
/// elements stay in registers lie between the two until a GPU measures them.
const DEPENDENT_ISSUE_CYCLES: f64 = 4.0;

/// A row of the measured table: preset, log2 N, batch, GPU ms (low, high),
/// all 16 host cores ms (low, high).
type MeasuredRow = (&'static str, u32, usize, (f64, f64), (f64, f64));

/// The measured table (H100 SXM, forward, data resident, median of 20,
/// 2026-11-23): preset, log2 N, batch, GPU ms (low, high), all 16 host
/// cores ms (low, high).
const MEASURED: &[MeasuredRow] = &[
    ("t8", 12, 1, (0.39, 0.39), (0.56, 0.56)),
    ("t8", 16, 1, (0.58, 0.58), (5.5, 12.7)),
    ("t8", 20, 1, (3.6, 3.6), (144.0, 183.0)),
    ("t8", 22, 1, (14.4, 17.6), (692.0, 864.0)),
    ("t8", 12, 256, (2.2, 2.2), (261.0, 309.0)),
    ("t4", 20, 1, (1.3, 1.3), (89.0, 119.0)),
    ("t16", 20, 1, (9.0, 9.0), (241.0, 324.0)),
    ("t32", 16, 1, (12.0, 12.0), (36.0, 47.0)),
    ("t64", 14, 1, (49.0, 49.0), (10.0, 10.0)),
];

/// Sizes the device's kernels are modelled at beyond [`MEASURED`]'s rows
/// (preset, log2 N, batch): k = 64 and 128 from N = 2^16, where no 16-core
/// figure exists to set them against, and t8 2^21, the transforms of a
/// product of 2^20 × 2^20 coefficients (beside the word-size NTT's 34
/// primes at 2^21, [`NTT_ROWS`]).
const MODEL_ONLY: &[(&str, u32, usize)] = &[("t8", 21, 1), ("t64", 16, 1), ("t128", 14, 1), ("t128", 16, 1)];

/// `cargo xtask gpu-model`'s command line.
#[derive(Parser, Debug)]
pub struct GpuModelCli {
    /// The options.
    #[command(flatten)]
    pub args: GpuModelArgs,
}

/// Options of `cargo xtask gpu-model`.
#[derive(Args, Debug)]
pub struct GpuModelArgs {
    /// The GPU modelled: the H100 SXM the fit was measured on, or the
    /// H200 SXM (the same chip, memory 1.43 times as fast; its copy
    /// bandwidth assumed, not measured). `--contest` writes each one's
    /// figures to its own file and section.
    #[arg(long, value_enum, default_value_t = GpuChoice::H100)]
    gpu: GpuChoice,
    /// Blocks of each launch the emulator runs (the rest are alike).
    #[arg(long, default_value_t = 24)]
    sample_blocks: u32,
    /// Stop a kernel module's compile (for ptxas's report) after this many
    /// seconds; its kernels are then modelled at 25% occupancy, flagged.
    #[arg(long, default_value_t = 300)]
    timeout_s: u64,
    /// Print every launch: kernel, threads, sectors, operations, bound.
    #[arg(long)]
    launches: bool,
    /// Only the small primes' rows (the word-size NTT, products through
    /// word-size primes), with the path term at its floor (no fit: the
    /// calibration rows are not counted).
    #[arg(long)]
    small_primes_only: bool,
    /// The thesis's contest on the GPU (t8, p8, t16; N = 2^12 to 2^24): the
    /// big prime's DFT and products against the small primes', on the
    /// fitted model and at its floor; writes docs/benchmarks/gpu_contest.json
    /// and its section of docs/BENCHMARKS.md.
    #[arg(long, conflicts_with = "small_primes_only")]
    contest: bool,
    /// Only these transforms on the device's kernels, every launch printed:
    /// PRESET:LOG2N or PRESET:LOG2NxBATCH (t8:17, t8:12x256), repeatable.
    /// The path term at its floor unless --fit is given too (the fit counts
    /// the measured rows first, which takes minutes).
    #[arg(long, value_name = "PRESET:LOG2N[xBATCH]", conflicts_with_all = ["small_primes_only", "contest"])]
    transform: Vec<TransformSpec>,
    /// With --transform: fit the model on the measured rows as the full
    /// report does, and print the fitted time beside the floor.
    #[arg(long, requires = "transform")]
    fit: bool,
    /// With --transform: the stages' kernels: the device's choice, teams of
    /// segments throughout, or teams of threads on whole elements wherever
    /// they have a tile.
    #[arg(long, value_enum, default_value_t = Family::Device, requires = "transform")]
    family: Family,
    /// With --transform: each launch's N source lines that take the most
    /// shared-memory wavefronts, with their conflict factors (the
    /// emulator's libraries built with line tables; `addr2line`, of
    /// binutils, names the lines).
    #[arg(long, value_name = "N", requires = "transform")]
    sites: Option<usize>,
    /// With --transform: a product of that length as the device runs it
    /// (two forward transforms to digit-reversed order, the pointwise
    /// product, the inverse from it), each one's launches, then their sum
    /// as the contest's product rows count it.
    #[arg(long, requires = "transform")]
    product: bool,
}

/// The stage kernels `--transform` counts.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// What the device runs ([`StageKernels::for_device`]).
    Device,
    /// Teams of segments throughout ([`StageKernels::DftTeams`]).
    Segments,
    /// Teams of threads on whole elements wherever they have a tile
    /// ([`StageKernels::ElementTeams`]).
    Elements,
}

/// SASS instructions one operation takes on a thread (or lane), k digits.
///
/// One thread per DFT: estimates from the algorithms (a 64×64→128 product ≈
/// 4 IMAD.WIDE and 4 adds plus a 3-word accumulate, a Möller–Granlund
/// division ≈ 25), not from the machine code; the measured rows fit the
/// path cost on these.
///
/// Digits over lanes: counted from the machine code of probe kernels that
/// each run one operation (a lane's loads and stores subtracted, loops
/// counted at their trip count, the x = −1 fallback of a product left out:
/// NVRTC 12.9, sm_90, nvdisasm, 2026-11-25; see [`LANE_MUL_STEP`]). A
/// product is S = min(k, 32) column steps of D² products each (D = k/S
/// digits a lane) and a tail of three divisions and two lookaheads a digit:
/// t8 574, t32 1.3k, t64 3.5k, t128 11.0k instructions a lane. A butterfly
/// (both carry chains) is 121, 103, 199 and 378; a shift by r^i 161, 143,
/// 266 and 535. One side of a butterfly (`gfpf_lane_add_or_sub`, the
/// one-element teams'), 104 at one digit a lane (t4, t8, t16) and 168 at
/// two (t64), against 128 and 208 for both sides in the same probe; the
/// other side, the difference and its shift in one chain
/// (`gfpf_lane_sub_mul_pow_r`), 96 and 168 (its path where neither input is
/// −1; the two steps it falls back to there, 224 and 352, left out as a
/// product's −1 case is), against a shift's 168 and 272 alone in that probe;
/// the sum alone, its side known where compiled (`gfpf_lane_add`), 72 and
/// 104 (NVRTC 12.9, sm_90, nvdisasm 13.5, 2026-11-27).
pub fn instructions(ops: &FieldOps, k: f64, short_division: bool) -> f64 {
    let serial_mul = 10.0 * k * k + 60.0 * k;
    let serial_add_sub = 14.0 * k;
    let serial_shift = 12.0 * k;
    let segment = gfpf_kernels::lane_segment(k as usize) as f64;
    let digits = gfpf_kernels::lane_digits(k as usize);
    let step = LANE_MUL_STEP
        .iter()
        .find(|(d, _)| *d == digits)
        .map_or(30.0 * (digits * digits) as f64, |(_, step)| *step);
    let digits = digits as f64;
    let tail = if short_division {
        LANE_MUL_TAIL_SHORT_DIVISION
    } else {
        LANE_MUL_TAIL
    };
    let chains = digits == 1.0 && segment >= 16.0;
    let lane_mul = if chains {
        segment * LANE_MUL_CHAINS_STEP + tail + LANE_MUL_CHAINS_END
    } else {
        segment * step + tail * digits
    };
    ops.mul as f64 * serial_mul
        + ops.add_sub as f64 * serial_add_sub
        + ops.mul_pow_r as f64 * serial_shift
        + ops.lane_mul as f64 * lane_mul
        + ops.lane_add_sub as f64 * (95.0 * digits + 20.0)
        + ops.lane_add_or_sub as f64 * (64.0 * digits + 40.0)
        + ops.lane_sub_mul_pow_r as f64 * (72.0 * digits + 24.0)
        + ops.lane_add as f64 * (32.0 * digits + 40.0)
        + ops.lane_mul_pow_r as f64 * (135.0 * digits + 15.0)
        + ops.shared_words as f64 * 2.0
        + ops.ntt_butterflies as f64 * NTT_BUTTERFLY_INSTRUCTIONS
        + ops.ntt_forward_butterflies as f64 * NTT_FORWARD_BUTTERFLY_INSTRUCTIONS
        + ops.ntt_groups as f64 * NTT_GROUP_INSTRUCTIONS
        + ops.ntt62_butterflies as f64 * NTT62_BUTTERFLY_INSTRUCTIONS
        + ops.ntt62_forward_butterflies as f64 * NTT62_FORWARD_BUTTERFLY_INSTRUCTIONS
        + ops.ntt50_forward_butterflies as f64 * NTT50_FORWARD_BUTTERFLY_INSTRUCTIONS
        + ops.ntt_tile_words as f64 * NTT_TILE_WORD_INSTRUCTIONS
        + ops.ntt62_tile_words as f64 * NTT62_TILE_WORD_INSTRUCTIONS
        + ops.ntt50_tile_words as f64 * NTT50_TILE_WORD_INSTRUCTIONS
        + ops.ntt62_groups as f64 * NTT62_GROUP_INSTRUCTIONS
        + ops.ntt50_butterflies as f64 * NTT50_BUTTERFLY_INSTRUCTIONS
        + ops.ntt50_groups as f64 * NTT50_GROUP_INSTRUCTIONS
        + ops.ntt_mma_tiles as f64 * NTT_MMA_TILE_INSTRUCTIONS
        + ops.ntt_global_words as f64 * NTT_GLOBAL_WORD_INSTRUCTIONS
        + ops.mm62_products as f64 * MM62_PRODUCT_INSTRUCTIONS
        + ops.mm62_macs as f64 * MM62_MAC_INSTRUCTIONS
        + ops.mm62_terms as f64 * MM62_TERM_INSTRUCTIONS
        + ops.mm_products as f64 * MM_PRODUCT_INSTRUCTIONS
        + ops.mm_digits as f64
            * if short_division {
                MM_DIGIT_SHORT_DIVISION_INSTRUCTIONS
            } else {
                MM_DIGIT_INSTRUCTIONS
            }
        + ops.mm_macs as f64 * MM_MAC_INSTRUCTIONS
        + ops.mm_primes as f64 * MM_PRIME_INSTRUCTIONS
        + ops.mm_join_primes as f64 * MM_JOIN_PRIME_INSTRUCTIONS
        + ops.mm_terms as f64 * MM_TERM_INSTRUCTIONS
        + tile_instructions(ops, k as usize, short_division)
        + ops.tile_add_sub_shift as f64 * tile_costs::uniform_shift_branch(k as usize)
}

/// SASS instructions of a lane product's tail a digit (three divisions,
/// two lookaheads), Möller–Granlund's divisions throughout (the p-presets).
const LANE_MUL_TAIL: f64 = 356.0;

/// The same where the field's short division serves two of the three
/// (`gfpf_div_rem_small_high`, the t-presets): 32 instructions fewer a lane
/// product at t4, t8, t16 and t32, 72 at t64's two digits a lane (probe
/// kernels of `gfpf_lane_mul` before and after, NVRTC 12.9, sm_90, nvdisasm
/// 13.5, 2026-11-26).
const LANE_MUL_TAIL_SHORT_DIVISION: f64 = 324.0;

/// The element teams' operations in `ops` as one warp alone runs them, as
/// ptxas scheduled their machine code ([`tile_costs::scheduled`]): their
/// cycles and shared words; `None` where `ops` has none of them or the
/// model no such count.
fn scheduled_tile_path(ops: &FieldOps, k: usize, short_division: bool, latency: Latency) -> Option<(f64, f64)> {
    let counted = tile_op_counts(ops);
    if counted.iter().all(|&(count, _)| count == 0) {
        return None;
    }
    counted
        .iter()
        .filter(|&&(count, _)| count > 0)
        .try_fold((0.0, 0.0), |(cycles, words), &(count, op)| {
            let (c, w) = tile_costs::scheduled(op, k, short_division, latency == Latency::Slow)?;
            Some((cycles + count as f64 * c, words + count as f64 * w))
        })
}

/// Each element-team operation's count in `ops`.
fn tile_op_counts(ops: &FieldOps) -> [(u64, TileOp); 9] {
    [
        (ops.tile_mul, TileOp::Mul),
        (ops.tile_stages, TileOp::StageTwiddles),
        (ops.tile_add_sub, TileOp::AddSub),
        (ops.tile_mul_pow_r, TileOp::MulPowR),
        (ops.tile_add_sub_mul_pow_r, TileOp::AddSubMulPowR),
        (ops.tile_add_sub_shift, TileOp::AddSubShift),
        (ops.tile_mul_shared, TileOp::MulShared4),
        (ops.tile_mul_shared8, TileOp::MulShared8),
        (ops.tile_mul_shared16, TileOp::MulShared16),
    ]
}

/// The element teams' operations in `ops`, charged by
/// [`crate::tile_costs`] (none below k = 2 or above 16: those fields have no
/// element teams).
fn tile_instructions(ops: &FieldOps, k: usize, short_division: bool) -> f64 {
    // Only the operations run are charged: a field has the threads'
    // charges from k = 2 to 16 and the tensor cores' at k = 8 alone.
    tile_op_counts(ops)
        .iter()
        .filter(|&&(count, _)| count > 0)
        .map(|&(count, op)| {
            count as f64
                * tile_costs::charge(op, k, short_division)
                    .unwrap_or_else(|| panic!("no element-team instruction counts for k = {k}"))
        })
        .sum()
}

/// SASS instructions of one column step of a lane product (D² products of
/// 64×64→128 bits, two shuffles a digit, the complement select) by digits
/// a lane D: the loop bodies of the probe kernels at t8/t32 (D = 1), t64
/// and t128 (NVRTC 12.9, sm_90, nvdisasm, 2026-11-25); at D = 1 over 16
/// lanes or 32, [`LANE_MUL_CHAINS_STEP`]. The segment-per-DFT kernels of
/// 16 words a lane branch on the sign instead (50 at D = 1); the model
/// charges every product the branch-free step.
const LANE_MUL_STEP: &[(usize, f64)] = &[(1, 30.0), (2, 89.0), (4, 309.0)];

/// A column step at one digit a lane over 16 lanes or 32 (t16, t32), whose
/// products run in 32-bit carry chains (`gfpf_column_mac`, the operand
/// complemented): 25 against 30, and [`LANE_MUL_CHAINS_END`] once a
/// product (probe kernels' loops and wholes, t8, t16 and t32 alike; NVRTC
/// 12.9, sm_90, nvdisasm 13.5, 2026-11-28).
const LANE_MUL_CHAINS_STEP: f64 = 25.0;

/// SASS instructions such a lane product takes past its steps to join its
/// carry chains' sums and take off the complemented operands'
/// x·(2^64 − 1) (a probe's whole kernel grew by 24 where its loop shrank
/// by 5).
const LANE_MUL_CHAINS_END: f64 = 24.0;

/// Bytes of local memory a thread's operations read and write when its
/// elements live there (one thread per DFT): a product reads two elements
/// and writes one, a butterfly reads and writes two, a shift one each.
fn local_bytes(ops: &FieldOps, k: f64) -> f64 {
    8.0 * k * (3.0 * ops.mul as f64 + 4.0 * ops.add_sub as f64 + 2.0 * ops.mul_pow_r as f64)
}

/// The fitted constants.
#[derive(Debug, Clone, Copy)]
pub struct Model {
    /// DRAM bytes per byte the operations move through local memory.
    pub local_dram_factor: f64,
    /// Cycles per instruction on one thread's serial path (latency-bound
    /// launches: local-memory round trips, dependent chains).
    pub path_cycles_per_instruction: f64,
    /// Whether the issue term takes the ALU and the FMA pipe at half a warp
    /// a clock each ([`LaunchInput::pipe_factor`]): the question Hopper's
    /// documents leave open and a GPU settles. Off in the fit and the
    /// reported figures.
    pub half_rate_pipes: bool,
    /// The GPU modelled: [`H100_SXM`] in the fit (its rows were measured
    /// there), then the one `--gpu` names ([`Model::on`]).
    pub gpu: Gpu,
    /// Whether the path term takes the element teams' operations at the
    /// cycles one warp alone runs them in, as ptxas scheduled their machine
    /// code ([`tile_costs::scheduled`]), and the rest of the path at
    /// [`DEPENDENT_ISSUE_CYCLES`] ([`Model::scheduled`]): at the assumed
    /// latencies or the slow ones. Off (`None`) in the fit and the fitted
    /// and floor figures.
    pub scheduled_path: Option<Latency>,
    /// The fit's kernels' static schedule, cycles an instruction: each
    /// measured row's ([`static_schedule`]), their geometric mean as the
    /// fit weighs the rows (alike, in logs), where their machine code was
    /// read (nvdisasm).
    pub fit_schedule: Option<f64>,
    /// Whether the fitted path cost is carried to each kernel in the ratio
    /// of its static schedule's cycles an instruction to
    /// [`Model::fit_schedule`] ([`Model::transferred`]): the fit's measured
    /// latencies, local memory's among them, kept in proportion to what
    /// each kernel's machine code waits for. Off in the fitted and floor
    /// figures.
    pub transfer_path: bool,
}

/// The variable latencies a scheduled path takes
/// ([`crate::probes::ASSUMED_LATENCIES`] or
/// [`crate::probes::SLOW_LATENCIES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Latency {
    /// The assumed latencies.
    Assumed,
    /// Half as long again.
    Slow,
}

impl Model {
    /// The same model with the path term at [`DEPENDENT_ISSUE_CYCLES`] an
    /// instruction where the fitted cost is higher: the device kernels'
    /// floor.
    fn floor(&self) -> Model {
        Model {
            path_cycles_per_instruction: DEPENDENT_ISSUE_CYCLES.min(self.path_cycles_per_instruction),
            ..*self
        }
    }

    /// The same constants on `gpu`: the fitted path cost and local-memory
    /// factor carry over to a GPU of the same SMs and clock (the H200 is
    /// the H100's chip), the memory term takes its bandwidth.
    fn on(&self, gpu: Gpu) -> Model {
        Model { gpu, ..*self }
    }

    /// The model with the path term at [`DEPENDENT_ISSUE_CYCLES`] and no
    /// fit: what the runs without `--fit` print.
    fn unfitted(gpu: Gpu) -> Model {
        Model {
            local_dram_factor: 1.0,
            path_cycles_per_instruction: DEPENDENT_ISSUE_CYCLES,
            half_rate_pipes: false,
            gpu,
            scheduled_path: None,
            fit_schedule: None,
            transfer_path: false,
        }
    }

    /// The floor with the element teams' operations on the path at the
    /// cycles their machine code's schedule gives one warp alone
    /// ([`Model::scheduled_path`]): what the path term is once the fitted
    /// cost, which kernels waiting on local memory set, is left out and the
    /// dependences' latencies are counted rather than a flat 4 cycles an
    /// instruction.
    fn scheduled(&self, latency: Latency) -> Model {
        Model {
            scheduled_path: Some(latency),
            ..self.floor()
        }
    }

    /// The fitted model with its path cost carried to each kernel by its
    /// static schedule ([`Model::transfer_path`]).
    fn transferred(&self) -> Model {
        Model {
            transfer_path: true,
            ..*self
        }
    }

    /// The same model with the ALU and the FMA pipe at half a warp a clock.
    fn with_half_rate_pipes(&self) -> Model {
        Model {
            half_rate_pipes: true,
            ..*self
        }
    }
}

/// Whether `field`'s carry chains take the short division
/// ([`gfpf_kernels::SmallHighDivision`]), which the instruction counts of
/// the lane, element-team and join kernels depend on.
fn short_division<const K: usize>(field: &Field<K>) -> bool {
    tile_costs::short_division(&gfpf_kernels::DeviceConstants::of(field))
}

/// One launch's inputs to the model.
#[derive(Debug, Clone)]
struct LaunchInput {
    /// The kernel's symbol.
    symbol: String,
    /// Threads launched, threads a block, and what the emulator counted.
    threads: u64,
    threads_per_block: u32,
    traffic: LaunchTraffic,
    resources: Option<KernelResources>,
    k: f64,
    /// Whether the field's carry chains take the short division
    /// ([`gfpf_kernels::SmallHighDivision`]).
    short_division: bool,
    /// The twiddle table's bytes (`device_twiddle_entries` elements of k
    /// words).
    table_bytes: f64,
    /// The tensor cores' tables' bytes (`gfpf_cuda::tensor_twiddle_table`).
    tensor_table_bytes: f64,
    /// The kernel's machine code counted by pipe, where nvdisasm read it
    /// (`kernels --report --pipes`).
    pipes: Option<PipeMix>,
    /// The source lines with the most shared-memory wavefronts (`--sites`;
    /// else none).
    shared_sites: Vec<SharedSite>,
}

/// Which term of a launch's time is the largest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Issue,
    Memory,
    Path,
    /// The shared memory's banks.
    Shared,
}

impl LaunchInput {
    /// Clocks a warp instruction takes to issue, over the model's 1/4 an
    /// SM a clock, where the ALU and the FMA pipe each take half a warp a
    /// clock: 2 × the busier pipe's share of the kernel's instructions, at
    /// least 1 (a static count: each instruction once). 1 without the
    /// kernel's counts.
    fn pipe_factor(&self) -> f64 {
        self.pipes.map_or(1.0, |p| {
            (2.0 * p.share(Pipe::Alu)).max(2.0 * p.share(Pipe::Fma)).max(1.0)
        })
    }

    /// SMs the launch's blocks reach on `gpu`.
    fn sms_used(&self, gpu: &Gpu) -> f64 {
        let blocks = self.threads.div_ceil(u64::from(self.threads_per_block)) as f64;
        blocks.min(gpu.sms)
    }

    /// Wavefronts the SMs' L1 data path serves for the launch: its shared
    /// memory's, its warps' shuffles ([`SHUFFLE_WAVEFRONTS`] each) and its
    /// global sectors ([`GLOBAL_SECTORS_A_WAVEFRONT`] a wavefront).
    fn data_path_wavefronts(&self) -> f64 {
        let tr = &self.traffic;
        tr.shared_wavefronts as f64
            + SHUFFLE_WAVEFRONTS * tr.warp_ops.shuffles as f64
            + (tr.sectors_read + tr.sectors_written) as f64 / GLOBAL_SECTORS_A_WAVEFRONT
    }

    /// Seconds the L1 data path (the shared memory's banks) takes for
    /// [`Self::data_path_wavefronts`] on the SMs the launch reaches.
    fn shared_seconds(&self, m: &Model) -> f64 {
        self.data_path_wavefronts() / (self.sms_used(&m.gpu) * SHARED_WAVEFRONTS_PER_CLOCK * m.gpu.clock_hz)
    }

    fn occupancy(&self) -> f64 {
        match &self.resources {
            Some(r) => SmLimits::SM90.occupancy(r, self.threads_per_block),
            None => 0.25,
        }
    }

    /// Modelled seconds and the bound: the largest of [`Self::terms`], and
    /// the launch's own cost.
    fn seconds(&self, m: &Model) -> (f64, Bound) {
        let (time, bound) = self
            .terms(m)
            .into_iter()
            .fold((0.0, Bound::Issue), |best, t| if t.0 > best.0 { t } else { best });
        (time + LAUNCH_SECONDS, bound)
    }

    /// The path's cycles an instruction under `m`: its own, or where `m`
    /// carries the fit to each kernel, that times this kernel's static
    /// schedule's cycles an instruction over the fit's kernels' (unchanged
    /// where the kernel's schedule is unknown).
    fn path_cycles_per_instruction(&self, m: &Model) -> f64 {
        match (
            m.fit_schedule,
            self.pipes.and_then(|p| p.scheduled_cycles_an_instruction()),
        ) {
            (Some(fit), Some(own)) if m.transfer_path => m.path_cycles_per_instruction * own / fit,
            _ => m.path_cycles_per_instruction,
        }
    }

    /// Seconds `bound`'s term alone would take ([`Self::terms`]).
    fn term(&self, m: &Model, bound: Bound) -> f64 {
        self.terms(m)
            .into_iter()
            .find(|&(_, b)| b == bound)
            .map_or(0.0, |(seconds, _)| seconds)
    }

    /// Seconds each bound alone would take: issue, memory, path, shared.
    fn terms(&self, m: &Model) -> [(f64, Bound); 4] {
        let blocks = self.threads.div_ceil(u64::from(self.threads_per_block)) as f64;
        let resident_threads = self.occupancy() * 2048.0;
        let blocks_per_sm = (resident_threads / f64::from(self.threads_per_block)).floor().max(1.0);
        let gpu = &m.gpu;
        let sms_used = self.sms_used(gpu);
        let warps_per_scheduler =
            (blocks / sms_used).min(blocks_per_sm) * f64::from(self.threads_per_block) / 32.0 / 4.0;
        let issue_efficiency = (warps_per_scheduler / WARPS_TO_HIDE_LATENCY).min(1.0);
        let warp_instructions = instructions(&self.traffic.warp_ops, self.k, self.short_division);
        let pipes = if m.half_rate_pipes { self.pipe_factor() } else { 1.0 };
        let issue = warp_instructions * pipes / (sms_used * ISSUE_PER_CLOCK * gpu.clock_hz * issue_efficiency);
        // Elements in local memory (a stack frame) cost DRAM traffic in
        // proportion to the bytes the operations move through it.
        let stack = self.resources.as_ref().map_or(0.0, |r| f64::from(r.stack_frame_bytes));
        let local = if stack > 0.0 {
            local_bytes(&self.traffic.ops, self.k) * m.local_dram_factor
        } else {
            0.0
        };
        let share = (2.0 * sms_used / gpu.sms).min(1.0);
        let t = &self.traffic;
        let table_bytes = 32.0 * t.table_sectors as f64;
        let data_bytes = t.bytes_moved() as f64 - table_bytes;
        // A table that fits half of L2 is read from there, the tensor
        // cores' as the twiddle table's (theirs up to TENSOR_TWIDDLES_MAX
        // of 512 bytes, 2 MiB, do; streamed ones, up to
        // TENSOR_STREAMED_TWIDDLES_MAX for each stage, 32 MiB, come from
        // DRAM), but for the R² tables every block reads (B's, 128 KiB),
        // which stay in L2 beside any.
        let tensor_table_bytes = 32.0 * t.tensor_table_sectors as f64;
        let resident_bytes = 32.0 * t.tensor_resident_sectors as f64;
        let own_table_bytes = table_bytes - tensor_table_bytes;
        let seconds =
            |bytes: f64, in_l2: bool| bytes / (if in_l2 { L2_BYTES_PER_S } else { gpu.copy_bytes_per_s } * share);
        let table_seconds = seconds(resident_bytes, true)
            + seconds(
                tensor_table_bytes - resident_bytes,
                self.tensor_table_bytes <= gpu.l2_bytes / 2.0,
            )
            + seconds(own_table_bytes, self.table_bytes <= gpu.l2_bytes / 2.0);
        let memory = (data_bytes + local) / (gpu.copy_bytes_per_s * share) + table_seconds;
        let waves = (blocks / (gpu.sms * blocks_per_sm)).ceil();
        let path_ops = &self.traffic.path_ops;
        let all = instructions(path_ops, self.k, self.short_division);
        let scheduled = m
            .scheduled_path
            .and_then(|latency| scheduled_tile_path(path_ops, self.k as usize, self.short_division, latency));
        let path_cycles = match scheduled {
            // The operations as scheduled (their words' latencies in
            // them), the rest at the floor's cost, and the tile's first
            // loads' latency once.
            Some((cycles, words)) => {
                let rest = all - tile_instructions(path_ops, self.k as usize, self.short_division) - 2.0 * words;
                cycles + rest.max(0.0) * m.path_cycles_per_instruction + TILE_LOAD_LATENCY_CYCLES
            }
            _ => all * self.path_cycles_per_instruction(m),
        } + path_ops.barriers as f64 * BARRIER_CYCLES;
        let path = path_cycles / gpu.clock_hz * waves;
        let shared = self.shared_seconds(m);
        [
            (issue, Bound::Issue),
            (memory, Bound::Memory),
            (path, Bound::Path),
            (shared, Bound::Shared),
        ]
    }
}

/// The static schedules' cycles an instruction of `launches`' kernels,
/// weighted by each launch's path instructions ([`LaunchInput::pipes`]);
/// `None` where no kernel's schedule is known.
fn static_schedule<'a>(launches: impl IntoIterator<Item = &'a LaunchInput>) -> Option<f64> {
    let (cycles, weight) = launches
        .into_iter()
        .filter_map(|l| {
            let own = l.pipes.and_then(|p| p.scheduled_cycles_an_instruction())?;
            let path = instructions(&l.traffic.path_ops, l.k, l.short_division);
            Some((own * path, path))
        })
        .fold((0.0, 0.0), |(c, i), (dc, di)| (c + dc, i + di));
    (weight > 0.0).then(|| cycles / weight)
}

/// A transform's launches, counted.
#[derive(Debug, Clone)]
struct Transform {
    launches: Vec<LaunchInput>,
    data_bytes: f64,
}

/// The operations on a path, each with its count and its instructions
/// ([`instructions`] of it alone), the most instructions first; barriers
/// with their count alone (the path charges them cycles).
fn path_breakdown(ops: &FieldOps, k: f64, short_division: bool) -> String {
    let mut parts: Vec<(f64, String)> = ops
        .counts()
        .into_iter()
        .filter(|&(_, count)| count > 0)
        .map(|(name, count)| {
            let alone = FieldOps::only(name, count).expect("a field's own name");
            let instr = instructions(&alone, k, short_division);
            let text = if name == "barriers" {
                format!("{count} {name}")
            } else {
                format!("{count} {name} {:.2}k", instr / 1e3)
            };
            (instr, text)
        })
        .collect();
    parts.sort_by(|a, b| b.0.total_cmp(&a.0));
    parts.into_iter().map(|(_, text)| text).collect::<Vec<_>>().join(", ")
}

impl Transform {
    /// A launch's lines (`--launches`): kernel, threads, sectors, busiest
    /// path, occupancy, modelled time and bound; the path's operations;
    /// its shared memory, where it takes any.
    fn print_launches(&self, m: &Model) {
        for l in &self.launches {
            let tr = &l.traffic;
            let (seconds, bound) = l.seconds(m);
            println!(
                "      {:<24} {:>9} threads, {:>9} sectors ({:>9} of tables), {:>5.1}% used, {:>9.1} k path instr, occupancy {:.0}%: {:.4} ms {bound:?}",
                l.symbol,
                l.threads,
                tr.sectors_read + tr.sectors_written,
                tr.table_sectors,
                100.0 * tr.sector_efficiency(),
                instructions(&tr.path_ops, l.k, l.short_division) / 1e3,
                100.0 * l.occupancy(),
                seconds * 1e3
            );
            let terms = l.terms(m).map(|(s, bound)| format!("{bound:?} {:.4}", s * 1e3));
            println!("        each bound alone (ms): {}", terms.join(", "));
            println!("        path: {}", path_breakdown(&tr.path_ops, l.k, l.short_division));
            if tr.shared_requests > 0 || tr.warp_ops.shuffles > 0 {
                println!(
                    "        shared memory: {} warp-wide accesses, {} wavefronts ({:.2}x the conflict-free {}); with {} shuffles and {:.0} wavefronts of global sectors, {:.4} ms of the L1 data path",
                    tr.shared_requests,
                    tr.shared_wavefronts,
                    tr.shared_wavefronts as f64 / tr.shared_ideal_wavefronts.max(1) as f64,
                    tr.shared_ideal_wavefronts,
                    tr.warp_ops.shuffles,
                    (tr.sectors_read + tr.sectors_written) as f64 / GLOBAL_SECTORS_A_WAVEFRONT,
                    l.shared_seconds(m) * 1e3
                );
                for site in &l.shared_sites {
                    println!(
                        "          {:>5.1}% {:>9} wavefronts ({:.2}x the conflict-free), {:>8} accesses  {}:{}",
                        100.0 * site.wavefronts as f64 / tr.shared_wavefronts.max(1) as f64,
                        site.wavefronts,
                        site.wavefronts as f64 / site.ideal_wavefronts.max(1) as f64,
                        site.requests,
                        site.file,
                        site.line
                    );
                }
            }
        }
    }

    fn seconds(&self, m: &Model) -> (f64, Vec<Bound>) {
        let mut total = 0.0;
        let mut bounds = Vec::new();
        for l in &self.launches {
            let (s, b) = l.seconds(m);
            total += s;
            bounds.push(b);
        }
        (total, bounds)
    }
    fn bytes_moved(&self) -> f64 {
        self.launches.iter().map(|l| l.traffic.bytes_moved() as f64).sum()
    }
    fn bytes_used(&self) -> f64 {
        self.launches
            .iter()
            .map(|l| (l.traffic.bytes_read + l.traffic.bytes_written) as f64)
            .sum()
    }
    /// Sectors of the data (not the tables): bytes moved and bytes used.
    fn data_moved_used(&self) -> (f64, f64) {
        self.launches.iter().fold((0.0, 0.0), |(moved, used), l| {
            let t = &l.traffic;
            (
                moved + (t.bytes_moved() - 32 * t.table_sectors) as f64,
                used + (t.bytes_read + t.bytes_written - t.table_bytes) as f64,
            )
        })
    }
    /// Passes over device memory: data bytes moved over the data's size
    /// read and written once.
    fn passes(&self) -> f64 {
        self.data_moved_used().0 / (2.0 * self.data_bytes)
    }
    /// Data bytes used over data bytes moved.
    fn data_efficiency(&self) -> f64 {
        let (moved, used) = self.data_moved_used();
        used / moved
    }
}

/// ptxas's reports of the modules a set of launches uses, by radix.
struct Reports {
    modules: Vec<(Preset, usize, Result<ModuleResources, String>)>,
    ntt: Option<Result<ModuleResources, String>>,
    timeout: Duration,
    /// Whether the compiles count each kernel's machine code by pipe too
    /// (nvdisasm).
    pipes: bool,
}

impl Reports {
    /// `symbol`'s pipe counts in `report`, where they were counted.
    fn pipes_in(report: &Result<ModuleResources, String>, symbol: &str) -> Option<PipeMix> {
        crate::kernel_report::pipes_of(report.as_ref().ok()?).remove(symbol)
    }

    /// The pipe counts of the kernel `symbol` of `preset`'s DFT_`radix`
    /// module (compiled by [`Reports::kernel`] or [`Reports::field_kernel`]).
    fn kernel_pipes(&self, preset: Preset, radix: usize, symbol: &str) -> Option<PipeMix> {
        let (_, _, report) = self.modules.iter().find(|(p, r, _)| *p == preset && *r == radix)?;
        Self::pipes_in(report, symbol)
    }

    /// The pipe counts of the word-size NTT kernel `symbol` (compiled by
    /// [`Reports::ntt_kernel`]).
    fn ntt_pipes(&self, symbol: &str) -> Option<PipeMix> {
        Self::pipes_in(self.ntt.as_ref()?, symbol)
    }
}

impl Reports {
    fn kernel(&mut self, preset: Preset, radix: usize, kernel: &Kernel) -> Option<KernelResources> {
        if !self.modules.iter().any(|(p, r, _)| *p == preset && *r == radix) {
            eprintln!("  ptxas report: {} DFT_{radix} (all kernel families)", preset.name());
            let report = compile_in_child(preset, radix, "sm_90", Families::All, self.pipes, self.timeout);
            if let Err(e) = &report {
                eprintln!("    {e}: modelled at 25% occupancy");
            }
            self.modules.push((preset, radix, report));
        }
        let (_, _, report) = self.modules.iter().find(|(p, r, _)| *p == preset && *r == radix)?;
        let symbol = kernel.symbol();
        report.as_ref().ok()?.kernels().find(|f| f.name == symbol).cloned()
    }
}

impl Reports {
    /// The report of the word-size NTT kernel `symbol` (its module compiled
    /// once).
    fn ntt_kernel(&mut self, symbol: &str) -> Option<KernelResources> {
        if self.ntt.is_none() {
            eprintln!("  ptxas report: word-size NTT");
            let report = crate::kernel_report::compile_ntt_in_child("sm_90", self.pipes, self.timeout);
            if let Err(e) = &report {
                eprintln!("    {e}: modelled at 25% occupancy");
            }
            self.ntt = Some(report);
        }
        let report = self.ntt.as_ref()?.as_ref().ok()?;
        report.kernels().find(|f| f.name == symbol).cloned()
    }
}

impl Reports {
    /// The report of a kernel named `symbol` in a field's DFT_2 module (the
    /// element-wise kernels are in every module, the multi-modular ones in
    /// those of k ≤ 16).
    fn field_kernel(&mut self, preset: Preset, symbol: &str) -> Option<KernelResources> {
        if !self.modules.iter().any(|(p, r, _)| *p == preset && *r == 2) {
            eprintln!("  ptxas report: {} DFT_2 (all kernel families)", preset.name());
            let report = compile_in_child(preset, 2, "sm_90", Families::All, self.pipes, self.timeout);
            self.modules.push((preset, 2, report));
        }
        let (_, _, report) = self.modules.iter().find(|(p, r, _)| *p == preset && *r == 2)?;
        report.as_ref().ok()?.kernels().find(|f| f.name == symbol).cloned()
    }
}

/// The module a kernel's report comes from: its radix's (the element-wise
/// kernels are in every module; DFT_2's is the smallest).
fn radix_of(kernel: &Kernel) -> usize {
    kernel.radix().unwrap_or(2)
}

/// A launch of a field's kernels as the model takes it: its counts, the
/// kernel's machine-code resources (with the dynamic shared memory the
/// device gives it) and the field's twiddle table of `table_bytes`.
fn field_launch<const K: usize>(
    preset: Preset,
    field: &Field<K>,
    c: gfpf_testkit::emulator::LaunchCounts,
    table_bytes: f64,
    reports: &mut Reports,
) -> LaunchInput {
    LaunchInput {
        resources: reports
            .kernel(preset, radix_of(&c.kernel), &c.kernel)
            .map(|r| r.with_dynamic_shared(gfpf_cuda::dynamic_shared_bytes(&c.kernel, K))),
        pipes: reports.kernel_pipes(preset, radix_of(&c.kernel), &c.kernel.symbol()),
        symbol: c.kernel.symbol(),
        threads: c.threads,
        threads_per_block: c.threads_per_block,
        traffic: c.traffic,
        k: K as f64,
        short_division: short_division(field),
        table_bytes,
        tensor_table_bytes: c.tensor_table_bytes as f64,
        shared_sites: c.shared_sites,
    }
}

#[allow(clippy::too_many_arguments)]
fn counted<const K: usize>(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    stages: StageKernels,
    (direction, order): (Direction, Order),
    (sample_blocks, sites): (u32, usize),
    reports: &mut Reports,
) -> Result<Transform, String> {
    let field = Field::<K>::preset(preset).map_err(|e| e.to_string())?;
    let dir = std::env::temp_dir().join("gfpf-gpu-model");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    // One thread per DFT is what was measured, on the host's plans (base
    // DFTs up to 2k, the remainder innermost); the device's kernels run its
    // plans (gfpf_kernels::device_max_radix, the remainder outermost).
    let radices = match stages {
        StageKernels::ThreadPerDft => gfpf_kernels::base_sizes(K),
        _ => gfpf_kernels::device_base_sizes(K),
    };
    let kernels = if sites > 0 {
        HostKernels::build_from_with_line_tables(gfpf_kernels::FFT_SOURCE, &field, &radices, &dir)
    } else {
        HostKernels::build_from(gfpf_kernels::FFT_SOURCE, &field, &radices, &dir)
    }
    .map_err(|e| e.to_string())?;
    let fft = EmulatedFft::with_kernels(&field, 1 << log2_n, direction, order, kernels)
        .and_then(|f| match stages {
            StageKernels::ThreadPerDft => f.with_host_plan(),
            _ => f.with_max_radix(gfpf_kernels::device_max_radix(K)),
        })
        .map_err(|e| e.to_string())?
        .with_stage_kernels(stages);
    let counts = fft.launch_counts(batch, sample_blocks).map_err(|e| e.to_string())?;
    let table_bytes = gfpf_cuda::params::device_twiddle_entries(1 << log2_n, K) as f64 * K as f64 * 8.0;
    let launches = counts
        .into_iter()
        .map(|mut c| {
            c.shared_sites.truncate(sites);
            field_launch(preset, &field, c, table_bytes, reports)
        })
        .collect();
    Ok(Transform {
        launches,
        data_bytes: (batch << log2_n) as f64 * K as f64 * 8.0,
    })
}

/// Word-size NTT sizes modelled (bits of a prime, log2 N, primes in the
/// batch, one transform a prime). 31-bit primes: 8 from 2^12 to 2^24, and
/// 34 at 2^21, what a t8 product of 2^20 × 2^20 coefficients needs (2^21·p²
/// < 2^1045 < the product of 34 primes near 2^31). 62-bit primes: 4 (the
/// same bits as 8 of 31) from 2^16 to 2^26, and 18 at 2^24, what a t8
/// product of 2^23 × 2^23 coefficients would need (2^24·p² < 2^1048, 18
/// primes near 2^62 with the join's 2^10 of room), past the 31-bit primes'
/// reach. Primes below 2^50 in FP64: 5 (about the same bits again) from
/// 2^16 to 2^26, and 22 at 2^24 (what the 18 of 62 bits do there).
const NTT_ROWS: &[(u32, u32, usize)] = &[
    (31, 12, 8),
    (31, 16, 8),
    (31, 20, 8),
    (31, 21, 34),
    (31, 24, 8),
    (62, 16, 4),
    (62, 20, 4),
    (62, 24, 4),
    (62, 24, 18),
    (62, 26, 4),
    (50, 16, 5),
    (50, 20, 5),
    (50, 24, 5),
    (50, 24, 22),
    (50, 26, 5),
];

/// One prime's transform in words `W` counted in the emulator (sampled
/// blocks, scaled to the launch) and scaled to `primes` primes: their
/// launches run every prime's tiles alike.
fn count_ntt<W: NttWord>(
    log2_n: u32,
    primes: usize,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Transform, String> {
    let dir = std::env::temp_dir().join("gfpf-gpu-model");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let q = *W::primes(log2_n, 1)
        .first()
        .ok_or_else(|| format!("no {}-bit prime reaches 2^{log2_n}", W::PRIME_BITS))?;
    let plan = gfpf_cuda::ntt::NttPlan::<W>::try_new(1 << log2_n, &[q]).map_err(|e| e.to_string())?;
    let ntt = EmulatedNtt::new(plan, &dir).map_err(|e| e.to_string())?;
    let mut data = vec![W::default(); 1 << log2_n];
    let counted = ntt
        .launch_counts(&mut data, None, 1, Direction::Forward, args.sample_blocks)
        .map_err(|e| e.to_string())?;
    let resources = reports.ntt_kernel(W::KERNEL);
    let word_bytes = f64::from(W::BITS / 8);
    let launches = counted
        .into_iter()
        .map(|c| LaunchInput {
            pipes: reports.ntt_pipes(&c.symbol),
            symbol: c.symbol,
            threads: c.threads * primes as u64,
            threads_per_block: c.threads_per_block,
            traffic: c.traffic.scaled(primes as f64),
            resources: resources
                .as_ref()
                .map(|r| r.with_dynamic_shared(c.dynamic_shared_bytes)),
            k: 1.0,
            short_division: false,
            table_bytes: (primes * ntt.plan().twiddle_words_per_prime()) as f64 * word_bytes,
            tensor_table_bytes: 0.0,
            shared_sites: Vec::new(),
        })
        .collect();
    Ok(Transform {
        launches,
        data_bytes: (primes << log2_n) as f64 * word_bytes,
    })
}

/// The word sizes the modelled H100 takes for products through word-size
/// primes: FP64 past the 31-bit primes' reach (its FP64 rate is its
/// integer rate).
const H100_WORD_SIZES: WordSizes = WordSizes::WithFp64;

/// Products through word-size primes modelled (preset, log2 of each
/// operand's length): t8 from 2^12 to 2^20 (a product of 2^20 × 2^20
/// coefficients: the target of 5 ms), and at 2^21 and 2^22 through 62-bit
/// primes (31-bit ones run out), p8 and t16 at 2^16.
const MULTIMODULAR_ROWS: &[(&str, u32)] = &[
    ("t8", 12),
    ("t8", 16),
    ("t8", 20),
    ("t8", 21),
    ("t8", 22),
    ("p8", 16),
    ("t16", 16),
];

/// A product of 2^log2_len × 2^log2_len coefficients through word-size
/// primes (31-bit where enough reach it, else 62-bit: `WordSizePlan`),
/// every launch counted on sampled blocks: the transform, the primes and
/// their bits.
fn count_multimodular<const K: usize>(
    preset: Preset,
    log2_len: u32,
    sizes: WordSizes,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<(Transform, usize, u32), String> {
    let field = Field::<K>::preset(preset).map_err(|e| e.to_string())?;
    let len = 1usize << log2_len;
    let plan = WordSizePlan::try_new(&field, len, len, sizes).map_err(|e| e.to_string())?;
    // The operands in and the product out, once.
    count_word_size(preset, plan, SmallPrimeWork::Product, (3 * len) as f64, args, reports)
}

/// The launches of `plan` in its width, counted as [`count_small_primes`]
/// counts them: the transform, the primes and their bits.
fn count_word_size<const K: usize>(
    preset: Preset,
    plan: WordSizePlan<K>,
    work: SmallPrimeWork,
    data_elements: f64,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<(Transform, usize, u32), String> {
    let (bits, primes) = (plan.prime_bits(), plan.primes());
    let t = match plan {
        WordSizePlan::Words32(plan) => count_small_primes(preset, plan, work, data_elements, args, reports)?,
        WordSizePlan::Words64(plan) => count_small_primes(preset, plan, work, data_elements, args, reports)?,
        WordSizePlan::Fp64(plan) => count_small_primes(preset, plan, work, data_elements, args, reports)?,
    };
    Ok((t, primes, bits))
}

/// What the small primes' launches compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SmallPrimeWork {
    /// A product (EmulatedMultiModular::launch_counts).
    Product,
    /// The thesis's benchmark 1 (EmulatedMultiModular::transform_counts).
    Transform,
}

/// The launches of `plan` counted on sampled blocks, as a transform of
/// `data_elements` elements read or written once.
fn count_small_primes<const K: usize, W: NttWord>(
    preset: Preset,
    plan: MultiModularPlan<K, W>,
    work: SmallPrimeWork,
    data_elements: f64,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Transform, String> {
    let dir = std::env::temp_dir().join("gfpf-gpu-model");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let primes = plan.ntt().primes().len();
    let table_bytes = (primes * plan.ntt().twiddle_words_per_prime()) as f64 * f64::from(W::BITS / 8);
    let short = short_division(&Field::<K>::preset(preset).map_err(|e| e.to_string())?);
    let mm = gfpf_testkit::emulator::EmulatedMultiModular::with_plan(plan, &dir).map_err(|e| e.to_string())?;
    let counted = match work {
        SmallPrimeWork::Product => mm.launch_counts(args.sample_blocks),
        SmallPrimeWork::Transform => mm.transform_counts(args.sample_blocks),
    }
    .map_err(|e| e.to_string())?;
    let ntt = reports.ntt_kernel(W::KERNEL);
    let launches = counted
        .into_iter()
        .map(|c| LaunchInput {
            resources: if c.symbol == W::KERNEL {
                ntt.as_ref().map(|r| r.with_dynamic_shared(c.dynamic_shared_bytes))
            } else {
                reports.field_kernel(preset, &c.symbol)
            },
            pipes: if c.symbol == W::KERNEL {
                reports.ntt_pipes(&c.symbol)
            } else {
                reports.kernel_pipes(preset, 2, &c.symbol)
            },
            symbol: c.symbol,
            threads: c.threads,
            threads_per_block: c.threads_per_block,
            traffic: c.traffic,
            k: K as f64,
            short_division: short,
            table_bytes,
            tensor_table_bytes: 0.0,
            shared_sites: Vec::new(),
        })
        .collect();
    Ok(Transform {
        launches,
        data_bytes: data_elements * K as f64 * 8.0,
    })
}

fn count_multimodular_preset(
    preset: Preset,
    log2_len: u32,
    sizes: WordSizes,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<(Transform, usize, u32), String> {
    match preset.k() {
        8 => count_multimodular::<8>(preset, log2_len, sizes, args, reports),
        16 => count_multimodular::<16>(preset, log2_len, sizes, args, reports),
        k => Err(format!("multi-modular rows are modelled for k = 8 and 16, not {k}")),
    }
}

/// The contest's presets and sizes (log2 N): the thesis's benchmark 1 on
/// t8, p8 and t16, every power of two from N = 2^12 to 2^24 (the big
/// prime's plans differ between odd and even powers).
const CONTEST_PRESETS: [&str; 3] = ["t8", "p8", "t16"];
/// See [`CONTEST_PRESETS`].
const CONTEST_LOG2_N: std::ops::RangeInclusive<u32> = 12..=24;

/// The small primes' side of one contest row: (fitted, floor) seconds, or
/// none where too few primes exist; (primes needed, available); their bits.
type SmallSide = (Option<(f64, f64)>, (usize, usize), u32);

/// The small primes' side of a row, `plan` in the width the device takes
/// (`WordSizePlan`), none where neither width has primes enough.
fn small_side<const K: usize>(
    preset: Preset,
    plan: Result<WordSizePlan<K>, gfpf_cuda::ntt::NttError>,
    work: SmallPrimeWork,
    data_elements: f64,
    model: &Model,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<SmallSide, String> {
    let (t, primes, bits) = match plan {
        Ok(plan) => count_word_size(preset, plan, work, data_elements, args, reports)?,
        Err(gfpf_cuda::ntt::NttError::TooManyPrimes { needed, most }) => return Ok((None, (needed, most), 31)),
        Err(e) => return Err(e.to_string()),
    };
    if args.launches {
        t.print_launches(model);
    }
    Ok((
        Some((t.seconds(model).0, t.seconds(&model.floor()).0)),
        (primes, primes),
        bits,
    ))
}

/// One preset's contest rows: (DFT rows, product rows).
fn contest_preset<const K: usize>(
    preset: Preset,
    model: &Model,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<(Vec<ContestRow>, Vec<ContestRow>), String> {
    let field = Field::<K>::preset(preset).map_err(|e| e.to_string())?;
    let (mut dft, mut products) = (Vec::new(), Vec::new());
    for log2_n in CONTEST_LOG2_N {
        let n = 1usize << log2_n;
        eprintln!("counting the contest {} 2^{log2_n}", preset.name());
        let big = count_device(preset, log2_n, 1, args, reports)?;
        if args.launches {
            big.print_launches(model);
        }
        let (big_s, big_floor) = (big.seconds(model).0, big.seconds(&model.floor()).0);
        let row = |log2_n, big: (f64, f64), small: SmallSide| ContestRow {
            preset: preset.name().to_owned(),
            log2_n,
            big_ms: big.0 * 1e3,
            big_floor_ms: big.1 * 1e3,
            small_ms: small.0.map(|s| s.0 * 1e3),
            small_floor_ms: small.0.map(|s| s.1 * 1e3),
            primes: small.1.0,
            primes_available: small.1.1,
            prime_bits: small.2,
        };
        let small = small_side(
            preset,
            WordSizePlan::transform(&field, n, H100_WORD_SIZES),
            SmallPrimeWork::Transform,
            n as f64,
            model,
            args,
            reports,
        )?;
        dft.push(row(log2_n, (big_s, big_floor), small));
        let small = small_side(
            preset,
            WordSizePlan::try_new(&field, n / 2, n / 2, H100_WORD_SIZES),
            SmallPrimeWork::Product,
            1.5 * n as f64,
            model,
            args,
            reports,
        )?;
        let big_product = product_transforms_seconds(preset, log2_n, model, args, reports)?;
        products.push(row(log2_n, big_product, small));
    }
    Ok((dft, products))
}

/// The contest (`--contest`): every row counted, printed, and written to
/// the GPU's file in docs/benchmarks (gpu_contest.json for the H100,
/// gpu_contest_h200.json) and its section of docs/BENCHMARKS.md; the
/// H100's also regenerates the products' table `Auto` reads (`codegen`).
fn run_contest(model: &Model, args: &GpuModelArgs, reports: &mut Reports) -> Result<(), String> {
    let (mut dft, mut products) = (Vec::new(), Vec::new());
    for name in CONTEST_PRESETS {
        let preset = Preset::from_name(name).map_err(|e| e.to_string())?;
        let (d, p) = match preset.k() {
            8 => contest_preset::<8>(preset, model, args, reports)?,
            16 => contest_preset::<16>(preset, model, args, reports)?,
            k => return Err(format!("the contest is modelled for k = 8 and 16, not {k}")),
        };
        dft.extend(d);
        products.extend(p);
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("xtask has no parent directory")?;
    let commit = crate::report::git(root, &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let gpu = &model.gpu;
    let contest = GpuContest {
        gpu: gpu.name.to_owned(),
        model: format!(
            "The time model of `cargo xtask gpu-model`: {} constants ({} SMs at {:.3} GHz, the copy \
             bandwidth of {:.2} TB/s, {}), machine-code resources from NVRTC for sm_90, path cost \
             fitted on the executor's measured rows of 2026-11-23 on an H100 ({:.1} cycles an instruction, \
             floor {:.0}).",
            gpu.name,
            gpu.sms,
            gpu.clock_hz / 1e9,
            gpu.copy_bytes_per_s / 1e12,
            gpu.copy_source,
            model.path_cycles_per_instruction,
            model.floor().path_cycles_per_instruction
        ),
        commit,
        date: crate::report::date(std::time::SystemTime::now()),
        dft,
        products,
    };
    let section = gpu_contest::section(&contest);
    println!(
        "
{section}"
    );
    let data = gpu_contest::data_path(root, gpu.name);
    std::fs::write(&data, contest.to_json()).map_err(|e| format!("cannot write {}: {e}", data.display()))?;
    let benchmarks = root.join("docs").join("BENCHMARKS.md");
    let old = std::fs::read_to_string(&benchmarks).map_err(|e| format!("cannot read {}: {e}", benchmarks.display()))?;
    std::fs::write(&benchmarks, gpu_contest::splice(&old, gpu.name, &section))
        .map_err(|e| format!("cannot write {}: {e}", benchmarks.display()))?;
    println!("wrote {} and its section of {}", data.display(), benchmarks.display());
    // The device products' Auto reads the H100's table (gfpf-cuda's
    // product_contest), generated from that JSON.
    if gpu.name == gpu_contest::GPUS[0].0 {
        crate::codegen::run(false)?;
    }
    Ok(())
}

fn count(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    stages: StageKernels,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Transform, String> {
    count_oriented(
        preset,
        log2_n,
        batch,
        stages,
        (Direction::Forward, Order::Natural),
        args,
        reports,
    )
}

/// As [`count`], for a transform of the given direction and order.
fn count_oriented(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    stages: StageKernels,
    oriented: (Direction, Order),
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Transform, String> {
    let s = (args.sample_blocks, args.sites.unwrap_or(0));
    gfpf_field::dispatch_k!(
        preset.k(),
        K => counted::<K>(preset, log2_n, batch, stages, oriented, s, reports),
        _ => Err(format!("no preset has k = {}", preset.k())),
    )
}

/// What a big-prime product runs on the device (`gfpf_cuda::CudaPolyMul`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProductPart {
    /// A transform of that direction, digit-reversed order between.
    Transform(Direction),
    /// The pointwise product of the two transforms.
    Pointwise,
}

impl std::fmt::Display for ProductPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProductPart::Transform(direction) => write!(f, "{direction:?} with digit-reversed order"),
            ProductPart::Pointwise => write!(f, "the pointwise product"),
        }
    }
}

/// A big-prime product of 2^`log2_n` as the device runs it
/// (`gfpf_cuda::CudaPolyMul`): two forward transforms to digit-reversed
/// order (in frequency), the pointwise product, and the inverse from it;
/// each counted once, with how many times a product runs it.
fn product_transforms(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    stages: StageKernels,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Vec<(ProductPart, f64, Transform)>, String> {
    let mut parts = [(Direction::Forward, 2.0), (Direction::Inverse, 1.0)]
        .into_iter()
        .map(|(direction, times)| {
            let oriented = (direction, Order::DigitReversed);
            count_oriented(preset, log2_n, batch, stages, oriented, args, reports)
                .map(|t| (ProductPart::Transform(direction), times, t))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let pointwise = count_pointwise(preset, log2_n, batch, args, reports)?;
    parts.insert(1, (ProductPart::Pointwise, 1.0, pointwise));
    Ok(parts)
}

/// The pointwise product of two transforms of batch × 2^`log2_n` as the
/// device runs it (`gfpf_kernels::device_elementwise_kernels`), counted on
/// sampled blocks: two operands read, one written (1.5 passes over one).
fn count_pointwise(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Transform, String> {
    gfpf_field::dispatch_k!(
        preset.k(),
        K => counted_pointwise::<K>(preset, log2_n, batch, args, reports),
        _ => Err(format!("no preset has k = {}", preset.k())),
    )
}

/// [`count_pointwise`] over a field of K digits.
fn counted_pointwise<const K: usize>(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Transform, String> {
    let field = Field::<K>::preset(preset).map_err(|e| e.to_string())?;
    let dir = std::env::temp_dir().join("gfpf-gpu-model");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let len = batch << log2_n;
    let c = gfpf_testkit::emulator::EmulatedPolyMul::new(&field, &dir)
        .pointwise_counts(len, args.sample_blocks)
        .map_err(|e| e.to_string())?;
    Ok(Transform {
        launches: vec![field_launch(preset, &field, c, 0.0, reports)],
        data_bytes: len as f64 * K as f64 * 8.0,
    })
}

/// [`product_transforms`] on the device's kernels, one product a launch:
/// seconds on `model` and at its floor.
fn product_transforms_seconds(
    preset: Preset,
    log2_n: u32,
    model: &Model,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<(f64, f64), String> {
    let stages = StageKernels::for_device(preset.k());
    let mut seconds = (0.0, 0.0);
    for (_, times, t) in product_transforms(preset, log2_n, 1, stages, args, reports)? {
        seconds.0 += times * t.seconds(model).0;
        seconds.1 += times * t.seconds(&model.floor()).0;
    }
    Ok(seconds)
}

/// As [`count`], with the stage kernels the device runs.
fn count_device(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Transform, String> {
    count(
        preset,
        log2_n,
        batch,
        StageKernels::for_device(preset.k()),
        args,
        reports,
    )
}

/// The device's kernels' nearest alternative, for comparison: teams of
/// segments where the device runs teams of threads on whole elements for
/// the stages that fill it (k ≤ 16); above, a segment per DFT.
fn count_alternative(
    preset: Preset,
    log2_n: u32,
    batch: usize,
    args: &GpuModelArgs,
    reports: &mut Reports,
) -> Result<Option<Transform>, String> {
    let alternative = match StageKernels::for_device(preset.k()) {
        StageKernels::Teams => StageKernels::DftTeams,
        StageKernels::DftTeams => StageKernels::DigitsOverLanes,
        _ => return Ok(None),
    };
    count(preset, log2_n, batch, alternative, args, reports).map(Some)
}

/// The constants that fit `measured_rows` (modelled transform, measured seconds)
/// best in squared log error: a grid search over both. With
/// `carried_from`, the fit's kernels' static schedule
/// ([`Model::fit_schedule`]), the path cost is fitted as carried to each
/// row by its own kernels' static schedules ([`Model::transfer_path`]);
/// without, one cost an instruction for every row. Also the fit's
/// root-mean-square log error.
fn fit(measured_rows: &[(Transform, f64)], carried_from: Option<f64>) -> (Model, f64) {
    let model = |a: i32, b: i32| Model {
        local_dram_factor: 0.01 * 1.15f64.powi(a),
        path_cycles_per_instruction: 0.5 * 1.12f64.powi(b),
        half_rate_pipes: false,
        gpu: H100_SXM,
        scheduled_path: None,
        fit_schedule: carried_from,
        transfer_path: carried_from.is_some(),
    };
    let mut best = (f64::INFINITY, model(0, 0));
    for a in 0..=40 {
        for b in 0..=60 {
            let m = model(a, b);
            let err: f64 = measured_rows
                .iter()
                .map(|(t, measured)| (t.seconds(&m).0 / measured).ln().powi(2))
                .sum();
            if err < best.0 {
                best = (err, m);
            }
        }
    }
    (best.1, (best.0 / measured_rows.len().max(1) as f64).sqrt())
}

/// The transform's times with the ALU and the FMA pipe at half a warp a
/// clock each (fitted where there is a fit, and at the floor), or why not.
fn half_rate_line(t: &Transform, floor: &Model, fitted: Option<&Model>) -> String {
    let counted = t.launches.iter().filter(|l| l.pipes.is_some()).count();
    if counted == 0 {
        return format!(
            "with the ALU at half a warp a clock: not counted ({})",
            crate::pipe_mix::NO_NVDISASM
        );
    }
    let factors: Vec<String> = t.launches.iter().map(|l| format!("{:.2}", l.pipe_factor())).collect();
    let fitted_ms = fitted.map_or(String::new(), |m| {
        format!("{:.4} ms fitted, ", t.seconds(&m.with_half_rate_pipes()).0 * 1e3)
    });
    let (at_floor, bounds) = t.seconds(&floor.with_half_rate_pipes());
    format!(
        "with the ALU and the FMA pipe at half a warp a clock (issue × {}; {counted} of {} launches' kernels counted): {fitted_ms}{:.4} ms at the floor ({})",
        factors.join(", "),
        t.launches.len(),
        at_floor * 1e3,
        bound_names(&bounds)
    )
}

fn bound_names(bounds: &[Bound]) -> String {
    let n = |b: Bound| bounds.iter().filter(|&&x| x == b).count();
    format!(
        "issue {} mem {} path {} shared {}",
        n(Bound::Issue),
        n(Bound::Memory),
        n(Bound::Path),
        n(Bound::Shared)
    )
}

/// The model fitted on [`MEASURED`]'s rows of the one-thread-per-DFT
/// kernels (their geometric-mean times), for the runs that print no row
/// beside the fit (`--contest`, `--transform --fit`).
fn fitted_model(args: &GpuModelArgs, reports: &mut Reports) -> Result<Model, String> {
    let mut measured_rows = Vec::new();
    for &(name, log2_n, batch, gpu, _) in MEASURED {
        let preset = Preset::from_name(name).map_err(|e| e.to_string())?;
        eprintln!("counting {name} 2^{log2_n} x{batch}");
        let old = count(preset, log2_n, batch, StageKernels::ThreadPerDft, args, reports)?;
        measured_rows.push((old, (gpu.0 * gpu.1).sqrt() * 1e-3));
    }
    // The rows' schedules as the fit weighs the rows: alike, in logs.
    let mut schedules = Vec::new();
    for ((t, _), &(name, log2_n, batch, ..)) in measured_rows.iter().zip(MEASURED) {
        if let Some(c) = static_schedule(&t.launches) {
            eprintln!("  {name} 2^{log2_n} x{batch}: static schedule {c:.2} cycles an instruction");
            schedules.push(c);
        }
    }
    let fit_schedule = (schedules.len() == measured_rows.len() && !schedules.is_empty())
        .then(|| (schedules.iter().map(|c| c.ln()).sum::<f64>() / schedules.len() as f64).exp());
    let (constant, constant_error) = fit(&measured_rows, None);
    eprintln!(
        "  one path cost for every row: {:.3} local, {:.2} cycles an instruction, rms log error {:.3}",
        constant.local_dram_factor, constant.path_cycles_per_instruction, constant_error
    );
    if let Some(s) = fit_schedule {
        let (carried, carried_error) = fit(&measured_rows, Some(s));
        eprintln!(
            "  carried by each row's schedule: {:.3} local, {:.2} cycles an instruction at {s:.2}, rms log error {:.3}",
            carried.local_dram_factor, carried.path_cycles_per_instruction, carried_error
        );
        for ((t, measured), &(name, log2_n, batch, ..)) in measured_rows.iter().zip(MEASURED) {
            eprintln!(
                "    {name} 2^{log2_n} x{batch}: measured {:.3} ms, one cost {:.3}, carried {:.3}",
                measured * 1e3,
                t.seconds(&constant).0 * 1e3,
                t.seconds(&carried).0 * 1e3
            );
        }
    }
    Ok(Model {
        fit_schedule,
        ..constant
    })
}

/// The transforms named by `--transform`: every launch, then the time at
/// the floor (and fitted with `--fit`).
fn run_transforms(args: &GpuModelArgs, reports: &mut Reports) -> Result<(), String> {
    let gpu = args.gpu.gpu();
    let floor = Model::unfitted(gpu);
    let fitted = if args.fit {
        let model = fitted_model(args, reports)?.on(gpu);
        println!(
            "fitted on the measured one-thread-per-DFT kernels: {:.1} cycles per instruction on a thread's serial path{}",
            model.path_cycles_per_instruction,
            model.fit_schedule.map_or(String::new(), |c| format!(
                "; their static schedules {c:.1} cycles an instruction"
            ))
        );
        Some(model)
    } else {
        println!("no fit (--fit fits first): the path term at {DEPENDENT_ISSUE_CYCLES} cycles an instruction");
        None
    };
    for spec in &args.transform {
        eprintln!("counting {} 2^{} x{}", spec.preset.name(), spec.log2_n, spec.batch);
        let stages = match args.family {
            Family::Device => StageKernels::for_device(spec.preset.k()),
            Family::Segments => StageKernels::DftTeams,
            Family::Elements => StageKernels::ElementTeams,
        };
        let floor = fitted.map_or(floor, |m| m.floor());
        if !args.product {
            let t = count(spec.preset, spec.log2_n, spec.batch, stages, args, reports)?;
            println!("{} 2^{} x{} ({stages:?}):", spec.preset.name(), spec.log2_n, spec.batch);
            print_transform(&t, &floor, fitted.as_ref());
            continue;
        }
        let mut sums = (0.0, 0.0);
        for (part, times, t) in product_transforms(spec.preset, spec.log2_n, spec.batch, stages, args, reports)? {
            println!(
                "{} 2^{} x{} {part} ({stages:?}), {times} a product:",
                spec.preset.name(),
                spec.log2_n,
                spec.batch
            );
            print_transform(&t, &floor, fitted.as_ref());
            sums.0 += times * fitted.map_or(0.0, |m| t.seconds(&m).0);
            sums.1 += times * t.seconds(&floor).0;
        }
        let fitted_ms = fitted.map_or(String::new(), |_| format!("{:.4} ms fitted, ", sums.0 * 1e3));
        println!(
            "  a product (its three transforms and the pointwise product): {fitted_ms}{:.4} ms at the floor",
            sums.1 * 1e3
        );
    }
    Ok(())
}

/// A counted transform's launches (on the fitted model where there is one)
/// and its time, with the ALU at half rate beside.
fn print_transform(t: &Transform, floor: &Model, fitted: Option<&Model>) {
    t.print_launches(fitted.unwrap_or(floor));
    let (at_floor, bounds) = t.seconds(floor);
    let fitted_ms = fitted.map_or(String::new(), |m| format!("{:.4} ms fitted, ", t.seconds(m).0 * 1e3));
    println!(
        "  {} launches, {:.1} passes, {fitted_ms}{:.4} ms at the floor ({})",
        t.launches.len(),
        t.passes(),
        at_floor * 1e3,
        bound_names(&bounds)
    );
    println!("  {}", half_rate_line(t, floor, fitted));
    println!("  {}", scheduled_line(t, floor));
    if let Some(line) = fitted.and_then(|m| transferred_line(t, m)) {
        println!("  {line}");
    }
}

/// The transform's fitted time with the path cost carried to each kernel
/// by its static schedule ([`Model::transferred`]), alone and with the ALU
/// at half a warp a clock; `None` where the fit's or these kernels'
/// schedules are unknown.
fn transferred_line(t: &Transform, fitted: &Model) -> Option<String> {
    let fit = fitted.fit_schedule?;
    let own = static_schedule(&t.launches)?;
    let transferred = fitted.transferred();
    let (alone, bounds) = t.seconds(&transferred);
    let (half, half_bounds) = t.seconds(&transferred.with_half_rate_pipes());
    Some(format!(
        "fitted, the path cost carried by the static schedules ({fit:.1} cycles an instruction the fit's kernels, {own:.1} these): {:.4} ms ({}), with the ALU at half a warp a clock {:.4} ms ({})",
        alone * 1e3,
        bound_names(&bounds),
        half * 1e3,
        bound_names(&half_bounds)
    ))
}

/// The transform's time with the path as its operations' machine code is
/// scheduled ([`Model::scheduled`]), with the ALU at half a warp a clock
/// too, at the assumed latencies and the slow ones; each launch's path
/// term beside the floor's.
fn scheduled_line(t: &Transform, floor: &Model) -> String {
    let path = |l: &LaunchInput, m: &Model| l.term(m, Bound::Path);
    let mut parts = Vec::new();
    for (latency, name) in [(Latency::Assumed, "assumed"), (Latency::Slow, "slow")] {
        let scheduled = floor.scheduled(latency);
        let (alone, bounds) = t.seconds(&scheduled);
        let (half, half_bounds) = t.seconds(&scheduled.with_half_rate_pipes());
        let paths: Vec<String> = t
            .launches
            .iter()
            .map(|l| format!("{:.4}", path(l, &scheduled) * 1e3))
            .collect();
        parts.push(format!(
            "{name} latencies {:.4} ms ({}), ALU at half {:.4} ms ({}), paths {} ms",
            alone * 1e3,
            bound_names(&bounds),
            half * 1e3,
            bound_names(&half_bounds),
            paths.join(", ")
        ));
    }
    let floor_paths: Vec<String> = t
        .launches
        .iter()
        .map(|l| format!("{:.4}", path(l, floor) * 1e3))
        .collect();
    format!(
        "with the path as ptxas scheduled the operations (one warp alone; probes::ASSUMED_LATENCIES, SLOW_LATENCIES): {}; the floor's paths {} ms",
        parts.join("; "),
        floor_paths.join(", ")
    )
}

/// Runs the task.
pub fn run(args: &GpuModelArgs) -> Result<(), String> {
    // Pipe counts only where a figure uses them (--transform), and where
    // nvdisasm is at hand.
    let pipes = !args.transform.is_empty() && crate::pipe_mix::find_nvdisasm().is_some();
    let mut reports = Reports {
        modules: Vec::new(),
        ntt: None,
        timeout: Duration::from_secs(args.timeout_s),
        pipes,
    };
    let gpu = args.gpu.gpu();
    println!(
        "MODEL, not a measurement: {} ({} SMs, {:.3e} Hz, {:.2} TB/s of copy, {})",
        gpu.name,
        gpu.sms,
        gpu.clock_hz,
        gpu.copy_bytes_per_s / 1e12,
        gpu.copy_source
    );
    if args.small_primes_only {
        println!(
            "--small-primes-only: no fit; the path term at {DEPENDENT_ISSUE_CYCLES} cycles an instruction throughout"
        );
        let floor = Model::unfitted(gpu);
        print_ntt(args, &floor, &mut reports)?;
        return print_multimodular(args, &floor, &mut reports);
    }
    if !args.transform.is_empty() {
        return run_transforms(args, &mut reports);
    }
    if args.contest {
        let model = fitted_model(args, &mut reports)?.on(gpu);
        return run_contest(&model, args, &mut reports);
    }
    let mut measured_rows = Vec::new();
    let mut device = Vec::new();
    for &(name, log2_n, batch, gpu, host) in MEASURED {
        let preset = Preset::from_name(name).map_err(|e| e.to_string())?;
        eprintln!("counting {name} 2^{log2_n} x{batch}");
        let old = count(preset, log2_n, batch, StageKernels::ThreadPerDft, args, &mut reports)?;
        let measured = (gpu.0 * gpu.1).sqrt() * 1e-3;
        measured_rows.push((old, measured));
        let new = count_device(preset, log2_n, batch, args, &mut reports)?;
        let segments = count_alternative(preset, log2_n, batch, args, &mut reports)?;
        device.push((name, log2_n, batch, new, Some(host), segments));
    }
    // Sizes with no measured row: the device's kernels only, no host figure.
    for &(name, log2_n, batch) in MODEL_ONLY {
        let preset = Preset::from_name(name).map_err(|e| e.to_string())?;
        eprintln!("counting {name} 2^{log2_n} x{batch}");
        let new = count_device(preset, log2_n, batch, args, &mut reports)?;
        let segments = count_alternative(preset, log2_n, batch, args, &mut reports)?;
        device.push((name, log2_n, batch, new, None, segments));
    }
    let (model, error) = fit(&measured_rows, None);
    println!(
        "\nfitted on the measured one-thread-per-DFT kernels: {:.3} DRAM bytes per local-memory byte, {:.1} cycles per instruction on a thread's serial path (root-mean-square log error {error:.3})\n",
        model.local_dram_factor, model.path_cycles_per_instruction
    );
    println!(
        "{:<5} {:>8} {:>5} | {:>9} {:>9} {:>6} {:<22} | the measured kernels",
        "", "N", "batch", "measured", "modelled", "ratio", "launches bound by"
    );
    for ((t, measured), &(name, log2_n, batch, _, _)) in measured_rows.iter().zip(MEASURED) {
        let (s, bounds) = t.seconds(&model);
        println!(
            "{name:<5} {:>8} {batch:>5} | {:>7.2}ms {:>7.2}ms {:>6.2} {:<22} | {} launches, {:.1} passes, data sectors {:.0}% used, all {:.0}%",
            format!("2^{log2_n}"),
            measured * 1e3,
            s * 1e3,
            s / measured,
            bound_names(&bounds),
            t.launches.len(),
            t.passes(),
            100.0 * t.data_efficiency(),
            100.0 * t.bytes_used() / t.bytes_moved()
        );
    }
    // The fit and its rows are the H100's; the device's kernels on the GPU
    // asked for.
    let model = model.on(gpu);
    if gpu != H100_SXM {
        println!(
            "\nthe fitted constants carried over to the {} (the same SMs and clock)",
            gpu.name
        );
    }
    println!(
        "\nthe device's kernels now (digits over lanes, k/32 a lane from k = 64; tiled DFTs shared by teams of threads on whole elements up to k = 16 where a stage fills the device, of segments elsewhere), same model; floor: the path term at {DEPENDENT_ISSUE_CYCLES} cycles an instruction; alt. (floor): up to k = 16 teams of segments throughout (the device's kernels before), above a segment per DFT everywhere:"
    );
    println!(
        "{:<5} {:>8} {:>5} | {:>8} {:>7} {:>9} {:>9} {:>10} {:>9} {:>18} {:<22} | {:>10} {:>7}",
        "",
        "N",
        "batch",
        "launches",
        "passes",
        "data sect.",
        "GB moved",
        "modelled",
        "floor",
        "alt.",
        "launches bound by",
        "16 cores",
        "speedup"
    );
    let floor_model = model.floor();
    for (name, log2_n, batch, t, host, segments) in &device {
        let (s, bounds) = t.seconds(&model);
        let segments_ms = segments.as_ref().map_or("-".to_owned(), |t| {
            format!(
                "{:.3}ms ({:.3})",
                t.seconds(&model).0 * 1e3,
                t.seconds(&floor_model).0 * 1e3
            )
        });
        let (floor, _) = t.seconds(&floor_model);
        let host_ms = host.map(|h| (h.0 * h.1).sqrt());
        if args.launches {
            t.print_launches(&model);
        }
        println!(
            "{name:<5} {:>8} {batch:>5} | {:>8} {:>7.1} {:>8.0}% {:>9.3} {:>8.3}ms {:>7.3}ms {:>18} {:<22} | {:>10} {:>7}",
            format!("2^{log2_n}"),
            t.launches.len(),
            t.passes(),
            100.0 * t.data_efficiency(),
            t.bytes_moved() / 1e9,
            s * 1e3,
            floor * 1e3,
            segments_ms,
            bound_names(&bounds),
            host_ms.map_or("-".to_owned(), |h| format!("{h:.1}ms")),
            host_ms.map_or("-".to_owned(), |h| format!("{:.1}x", h / (s * 1e3)))
        );
    }
    print_ntt(args, &model, &mut reports)?;
    print_multimodular(args, &model, &mut reports)
}

/// The products through word-size primes: every launch, beside the
/// big-prime product of the padded length (two forward transforms, the
/// pointwise product, one inverse: what a product takes on the device).
fn print_multimodular(args: &GpuModelArgs, model: &Model, reports: &mut Reports) -> Result<(), String> {
    println!(
        "\nproducts of n x n coefficients through word-size primes (projection, NTTs, the inverse NTT making the pointwise product, join by the explicit CRT), same model; big prime: the product of 2n on the device's kernels (two forward transforms to digit-reversed order, the pointwise product, the inverse from it):"
    );
    println!(
        "{:<5} {:>8} {:>9} | {:>8} {:>9} {:>10} {:>9} {:<26} | {:>10}",
        "", "n", "primes", "launches", "GB moved", "modelled", "floor", "launches bound by", "big prime"
    );
    let floor_model = model.floor();
    for &(name, log2_len) in MULTIMODULAR_ROWS {
        let preset = Preset::from_name(name).map_err(|e| e.to_string())?;
        let big = product_transforms_seconds(preset, log2_len + 1, model, args, reports)?.0;
        // The H100's choice, and past the 31-bit primes' reach the 62-bit
        // integers a GPU without fast FP64 takes.
        for sizes in [H100_WORD_SIZES, WordSizes::Integer] {
            eprintln!("counting the multi-modular product {name} 2^{log2_len} ({sizes:?})");
            let (t, primes, bits) = count_multimodular_preset(preset, log2_len, sizes, args, reports)?;
            if sizes != H100_WORD_SIZES && bits == 31 {
                continue;
            }
            let primes = format!("{primes}x{bits}b");
            let (s, bounds) = t.seconds(model);
            let (floor, _) = t.seconds(&floor_model);
            if args.launches {
                t.print_launches(model);
            }
            println!(
                "{name:<5} {:>8} {primes:>9} | {:>8} {:>9.3} {:>8.3}ms {:>7.3}ms {:<26} | {:>8.3}ms",
                format!("2^{log2_len}"),
                t.launches.len(),
                t.bytes_moved() / 1e9,
                s * 1e3,
                floor * 1e3,
                bound_names(&bounds),
                big * 1e3
            );
        }
    }
    Ok(())
}

/// The word-size NTT's rows: a batch of forward transforms, one a prime,
/// against the copy bound (the data read and written once at 3.0 TB/s).
fn print_ntt(args: &GpuModelArgs, model: &Model, reports: &mut Reports) -> Result<(), String> {
    println!(
        "\nword-size NTT (kernels/gfpf_ntt.cu: primes < 2^31 in 32-bit words, rounds of radix 16 in registers; primes < 2^62 in 64-bit words and < 2^50 in FP64, radix 8; natural in, bit-reversed out), one transform a prime, same model; copy: the data read and written once; x passes: the time over the copy once a pass, the bound of the passes the transform makes:"
    );
    println!(
        "{:>4} {:>8} {:>6} | {:>8} {:>7} {:>10} {:>9} {:>10} {:>9} {:>9} {:>8} {:>8} {:<22}",
        "bits",
        "N",
        "primes",
        "launches",
        "passes",
        "data sect.",
        "GB moved",
        "modelled",
        "floor",
        "copy",
        "x copy",
        "x passes",
        "launches bound by"
    );
    let floor_model = model.floor();
    for &(bits, log2_n, primes) in NTT_ROWS {
        eprintln!("counting the word-size NTT 2^{log2_n} x{primes} ({bits}-bit primes)");
        let t = match bits {
            31 => count_ntt::<u32>(log2_n, primes, args, reports)?,
            50 => count_ntt::<gfpf_cuda::ntt::F64Word>(log2_n, primes, args, reports)?,
            _ => count_ntt::<u64>(log2_n, primes, args, reports)?,
        };
        let (s, bounds) = t.seconds(model);
        let (floor, _) = t.seconds(&floor_model);
        let copy = 2.0 * t.data_bytes / model.gpu.copy_bytes_per_s;
        if args.launches {
            t.print_launches(model);
        }
        println!(
            "{bits:>4} {:>8} {primes:>6} | {:>8} {:>7.1} {:>9.0}% {:>9.3} {:>8.4}ms {:>7.4}ms {:>7.4}ms {:>8.2} {:>8.2} {:<22}",
            format!("2^{log2_n}"),
            t.launches.len(),
            t.passes(),
            100.0 * t.data_efficiency(),
            t.bytes_moved() / 1e9,
            s * 1e3,
            floor * 1e3,
            copy * 1e3,
            s / copy,
            s / (copy * t.passes()),
            bound_names(&bounds)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An issue-bound launch (products, no memory, no path) of a kernel
    /// with `pipes`.
    fn products_launch(pipes: Option<PipeMix>) -> LaunchInput {
        let mut traffic = LaunchTraffic::default();
        traffic.ops.mul = 1 << 20;
        traffic.warp_ops.mul = 1 << 15;
        LaunchInput {
            symbol: "gfpf_probe".to_owned(),
            threads: 1 << 20,
            threads_per_block: 128,
            traffic,
            resources: None,
            k: 8.0,
            short_division: true,
            table_bytes: 0.0,
            tensor_table_bytes: 0.0,
            pipes,
            shared_sites: Vec::new(),
        }
    }

    /// A launch whose shared memory takes the most time is bound by it:
    /// one wavefront a clock on each SM its blocks reach.
    #[test]
    fn shared_wavefronts_take_a_clock_each_an_sm() {
        let mut shared = products_launch(None);
        shared.traffic.ops.mul = 0;
        shared.traffic.warp_ops.mul = 0;
        shared.traffic.shared_wavefronts = 1 << 30;
        let model = Model::unfitted(H100_SXM);
        let (seconds, bound) = shared.seconds(&model);
        assert_eq!(bound, Bound::Shared);
        let expected = (1u64 << 30) as f64 / (H100_SXM.sms * H100_SXM.clock_hz);
        assert!((seconds - LAUNCH_SECONDS - expected).abs() < 1e-12, "{seconds}");
        // On 8 blocks, 8 SMs' banks.
        shared.threads = 8 * u64::from(shared.threads_per_block);
        let (few, _) = shared.seconds(&model);
        assert!(
            (few - LAUNCH_SECONDS - expected * H100_SXM.sms / 8.0).abs() < 1e-9,
            "{few}"
        );
    }

    /// A warp's shuffle takes the L1 data path a wavefront's clock: a
    /// launch of shuffles alone is bound there, and they add to its
    /// wavefronts, as its global sectors do.
    #[test]
    fn shuffles_take_the_banks_clocks() {
        let mut shuffled = products_launch(None);
        shuffled.traffic.ops.mul = 0;
        shuffled.traffic.warp_ops.mul = 0;
        shuffled.traffic.warp_ops.shuffles = 1 << 29;
        let model = Model::unfitted(H100_SXM);
        let clock = H100_SXM.sms * H100_SXM.clock_hz;
        let (alone, bound) = shuffled.seconds(&model);
        assert_eq!(bound, Bound::Shared);
        assert!(
            (alone - LAUNCH_SECONDS - (1u64 << 29) as f64 / clock).abs() < 1e-12,
            "{alone}"
        );
        shuffled.traffic.shared_wavefronts = 1 << 29;
        let (both, _) = shuffled.seconds(&model);
        assert!(
            (both - LAUNCH_SECONDS - (1u64 << 30) as f64 / clock).abs() < 1e-12,
            "{both}"
        );
        // Global sectors pass the same path, four a wavefront.
        shuffled.traffic.sectors_read = 1 << 20;
        shuffled.traffic.sectors_written = 1 << 20;
        assert_eq!(shuffled.data_path_wavefronts(), ((1u64 << 30) + (1 << 19)) as f64);
    }

    /// A path of element-team operations as scheduled: each operation at
    /// its warp-alone cycles (its words' latencies in them), the words
    /// outside them and the rest at the floor's 4 cycles an instruction,
    /// and the tile's first loads' latency once; the floor's path charges
    /// every instruction 4 cycles. Barriers add to both alike.
    #[test]
    fn a_scheduled_path_takes_each_operation_at_its_cycles() {
        let mut launch = products_launch(None);
        launch.traffic.ops.mul = 0;
        launch.traffic.warp_ops.mul = 0;
        let path = &mut launch.traffic.path_ops;
        path.tile_mul_shared16 = 2;
        path.tile_add_sub = 3;
        // The operations' own words and 10 more (a tile's loads).
        path.shared_words = 2 * 56 + 3 * 34 + 10;
        path.barriers = 2;
        let floor = Model::unfitted(H100_SXM);
        let term = |launch: &LaunchInput, m: &Model| launch.term(m, Bound::Path) * H100_SXM.clock_hz;
        // One wave: blocks of 128 threads, 2^20 threads.
        let blocks = (1u64 << 20) as f64 / 128.0;
        let waves = (blocks / (H100_SXM.sms * (2048.0 * 0.25 / 128.0))).ceil();
        let instructions = 2.0 * 631.0 + 3.0 * 43.0 + 2.0 * (2.0 * 56.0 + 3.0 * 34.0 + 10.0);
        let at_floor = (instructions * 4.0 + 2.0 * BARRIER_CYCLES) * waves;
        assert!(
            (term(&launch, &floor) - at_floor).abs() < 1e-6,
            "{} {at_floor}",
            term(&launch, &floor)
        );
        let scheduled =
            (2.0 * 2055.0 + 3.0 * 250.0 + 2.0 * 10.0 * 4.0 + TILE_LOAD_LATENCY_CYCLES + 2.0 * BARRIER_CYCLES) * waves;
        let got = term(&launch, &floor.scheduled(Latency::Assumed));
        assert!((got - scheduled).abs() < 1e-6, "{got} {scheduled}");
        let slow =
            (2.0 * 2469.0 + 3.0 * 258.0 + 2.0 * 10.0 * 4.0 + TILE_LOAD_LATENCY_CYCLES + 2.0 * BARRIER_CYCLES) * waves;
        let got = term(&launch, &floor.scheduled(Latency::Slow));
        assert!((got - slow).abs() < 1e-6, "{got} {slow}");
        // Without element-team operations the path is the floor's.
        launch.traffic.path_ops = FieldOps::only("mul", 4).unwrap();
        assert_eq!(term(&launch, &floor.scheduled(Latency::Assumed)), term(&launch, &floor));
    }

    /// The fitted path cost carried to a kernel by its static schedule: a
    /// kernel waiting half as long an instruction as the fit's kernels gets
    /// half the path; without its schedule, or untransferred, the fitted
    /// path stands.
    #[test]
    fn a_transferred_path_scales_by_the_static_schedules() {
        let schedule = PipeMix::from_line("pipes k 100 0 0 0 0 0 0 400").map(|(_, m)| m);
        assert_eq!(schedule.unwrap().scheduled_cycles_an_instruction(), Some(4.0));
        let mut launch = products_launch(schedule);
        launch.traffic.path_ops.mul = 10;
        let fitted = Model {
            path_cycles_per_instruction: 12.0,
            fit_schedule: Some(8.0),
            ..Model::unfitted(H100_SXM)
        };
        let path = |l: &LaunchInput, m: &Model| l.term(m, Bound::Path);
        let ratio = path(&launch, &fitted.transferred()) / path(&launch, &fitted);
        assert!((ratio - 0.5).abs() < 1e-12, "{ratio}");
        assert_eq!(static_schedule([&launch]), Some(4.0));
        launch.pipes = None;
        assert_eq!(path(&launch, &fitted.transferred()), path(&launch, &fitted));
        assert_eq!(static_schedule([&launch]), None);
    }

    /// The H200 changes the memory term alone: a launch bound by its data
    /// takes the H100's time over the copy bandwidths' ratio, one bound by
    /// its instructions the same time on both.
    #[test]
    fn the_h200_speeds_the_memory_term_alone() {
        let work = |l: &LaunchInput, gpu: Gpu, bound: Bound| {
            let (seconds, b) = l.seconds(&Model::unfitted(gpu));
            assert_eq!(b, bound, "{}", gpu.name);
            seconds - LAUNCH_SECONDS
        };
        let mut memory = products_launch(None);
        memory.traffic.ops.mul = 0;
        memory.traffic.warp_ops.mul = 0;
        memory.traffic.sectors_read = 1 << 22;
        memory.traffic.sectors_written = 1 << 22;
        let ratio = work(&memory, H100_SXM, Bound::Memory) / work(&memory, H200_SXM, Bound::Memory);
        assert!((ratio - 4.8 / 3.35).abs() < 1e-9, "{ratio}");
        let issue = products_launch(None);
        assert_eq!(
            work(&issue, H100_SXM, Bound::Issue),
            work(&issue, H200_SXM, Bound::Issue)
        );
        assert_eq!(GpuChoice::H200.gpu(), H200_SXM);
        assert_eq!(GpuChoice::default().gpu(), H100_SXM);
    }

    /// Every GPU `--gpu` takes has its own contest file, section and flag
    /// in the report's table (gpu_contest::GPUS, which cannot see these
    /// constants): a name missing there would fall back to the H100's file.
    #[test]
    fn every_gpu_has_its_contest_entry() {
        use clap::ValueEnum;
        for choice in GpuChoice::value_variants() {
            let gpu = choice.gpu();
            let entry = gpu_contest::GPUS.iter().find(|(name, ..)| *name == gpu.name);
            let Some(&(_, _, _, flag)) = entry else {
                panic!("{}: no contest entry", gpu.name)
            };
            let expected = if *choice == GpuChoice::default() {
                String::new()
            } else {
                format!(" --gpu {}", choice.to_possible_value().unwrap().get_name())
            };
            assert_eq!(flag, expected, "{}", gpu.name);
        }
    }

    /// The issue term grows by 2 × the busier pipe's share, at least 1,
    /// and only in the half-rate model.
    #[test]
    fn half_rate_pipes_scale_the_issue_term() {
        let floor = Model::unfitted(H100_SXM);
        let work = |l: &LaunchInput, m: &Model| {
            let (seconds, bound) = l.seconds(m);
            assert_eq!(bound, Bound::Issue);
            seconds - LAUNCH_SECONDS
        };
        let alu_heavy = PipeMix::from_line("pipes k 63 23 0 10 4 0 0 0").map(|(_, m)| m);
        let fma_heavy = PipeMix::from_line("pipes k 20 70 0 10 0 0 0 0").map(|(_, m)| m);
        let balanced = PipeMix::from_line("pipes k 45 45 0 10 0 0 0 0").map(|(_, m)| m);
        let base = work(&products_launch(None), &floor);
        for (pipes, factor) in [(None, 1.0), (alu_heavy, 1.26), (fma_heavy, 1.4), (balanced, 1.0)] {
            let launch = products_launch(pipes);
            assert_eq!(work(&launch, &floor), base, "{pipes:?}: the default model has no pipes");
            let half_rate = work(&launch, &floor.with_half_rate_pipes());
            assert!(
                (half_rate / base - factor).abs() < 1e-9,
                "{pipes:?}: {}",
                half_rate / base
            );
        }
    }
}
