//! The plan runner: a plan's stages in order on any [`PlanArith`] (the
//! field of a [`crate::CpuFft`], or GMP integers in the baselines), its base
//! DFTs through the generated codelets, parallel over blocks, columns and
//! batch items as [`Threading`] allows.

use gfpf_executor::TransformError;
use gfpf_plan::{Addressing, BaseDftStage, Buffer, CodeletTwiddles, Plan, Stage, StageKind, TwiddlePlacement};
use rayon::prelude::*;

use crate::CpuError;
use crate::codelets::{CodeletFn, CodeletOps, generated};

/// The most DFTs any [`PlanArith::dft_lanes`] may ask for.
pub const MAX_DFT_LANES: usize = 8;

/// Transforms (or stages) of fewer than this many 64-bit words (N·k) run on
/// one thread: below it rayon's task overhead outweighs the work.
pub const PARALLEL_MIN_WORDS: usize = 1 << 14;

/// The least words of one DFT's outputs (radix·k) for which a first stage
/// that reads a digit-reversed input runs its DFTs in the order of their
/// inputs rather than of their outputs (see `base_dfts`). Measured (FFT
/// 2^16, one thread, alternating): t8 (1 KiB) 0.96x, t16 (4 KiB) 0.95x,
/// p8 0.98x, but t4 (256 bytes) 1.12x and t2 (64) 1.07x, where the
/// scattered writes cost more than the reads saved.
pub const SOURCE_ORDER_MIN_WORDS: usize = 128;

/// The least work, in 64-bit words touched, one rayon task is given.
pub const TASK_MIN_WORDS: usize = 1 << 12;

/// Whether an executor may use the rayon pool it runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Threading {
    /// Parallel over base DFTs, twiddle rows and batch items (the default),
    /// on the current rayon pool (install one to choose the thread count).
    #[default]
    Parallel,
    /// Everything on the calling thread.
    Serial,
}

/// A full group of base DFTs left in their buffers: slot i of DFT l is read
/// at `inputs[l] + i·input_step` of `source` (of `target` itself when there
/// is no source: an in-place stage) and written at `outputs[l] +
/// i·output_step` of `target`. An in-place group reads all its slots before
/// it writes any.
pub struct StridedDfts<'s, E> {
    /// Where the inputs are, if not in `target`.
    pub source: Option<&'s [E]>,
    /// Where the outputs go.
    pub target: &'s mut [E],
    /// Each DFT's first input.
    pub inputs: &'s [usize],
    /// From one input slot to the next.
    pub input_step: usize,
    /// Each DFT's first output.
    pub outputs: &'s [usize],
    /// From one output slot to the next.
    pub output_step: usize,
}

impl<E> StridedDfts<'_, E> {
    /// Input slot i of DFT l.
    #[inline]
    pub fn input(&self, l: usize, i: usize) -> &E {
        let at = self.inputs[l] + i * self.input_step;
        match self.source {
            Some(source) => &source[at],
            None => &self.target[at],
        }
    }

    /// Output slot i of DFT l.
    #[inline]
    pub fn output(&mut self, l: usize, i: usize) -> &mut E {
        &mut self.target[self.outputs[l] + i * self.output_step]
    }

    /// Output slot i of each of the `L` DFTs, or `None` where the group has
    /// another number of DFTs or two of them share a slot.
    #[inline]
    pub fn outputs_at<const L: usize>(&mut self, i: usize) -> Option<[&mut E; L]> {
        if self.outputs.len() != L {
            return None;
        }
        let at: [usize; L] = std::array::from_fn(|l| self.outputs[l] + i * self.output_step);
        self.target.get_disjoint_mut(at).ok()
    }
}

/// The arithmetic a plan runs on: GF(r^k + 1) for [`crate::CpuFft`], or any other
/// representation of the same field (the GMP baseline of the benchmarks runs
/// the same plans, driver and codelets through this trait).
pub trait PlanArith: Sync {
    /// An element.
    type Elem: Clone + Default + Send + Sync;
    /// The codelet operations of one base DFT.
    type Ops<'a>: CodeletOps<Elem = Self::Elem>
    where
        Self: 'a;
    /// 64-bit words per element (for the work thresholds).
    fn words(&self) -> usize;
    /// Operations for one base DFT; `twiddle_unit` = b·step when the DFT's
    /// slot i must be multiplied by w^(i·b·step).
    fn ops(&self, twiddle_unit: Option<usize>) -> Self::Ops<'_>;
    /// x ← x·N^{-1}.
    fn scale(&self, x: &mut Self::Elem);
    /// x ← x·N^{-1} for every element of a slice (the default calls
    /// [`Self::scale`] on each).
    fn scale_all(&self, xs: &mut [Self::Elem]) {
        xs.iter_mut().for_each(|x| self.scale(x));
    }
    /// Whether [`Self::run_dfts`] multiplies a stage's outputs by N^{-1}
    /// when `StageCodelets::scaled` asks, so that a plan's final scaling
    /// runs inside its last base-DFT stage (no pass of its own). The default
    /// is false: the scaling runs as its own stage.
    fn folds_scale(&self) -> bool {
        false
    }
    /// Working space of [`Self::run_dfts`], one per task (reused from call
    /// to call; `()` when it needs none).
    type DftScratch: Default + Send;
    /// How many base DFTs of a stage [`Self::run_dfts`] takes at once (SIMD
    /// lanes); 1 (the default) for one at a time, at most
    /// `MAX_DFT_LANES` (more are taken as that many).
    fn dft_lanes(&self) -> usize {
        1
    }
    /// Runs `units.len()` (at most [`Self::dft_lanes`]) base DFTs of one
    /// stage in place: `xs[l·radix ..][..radix]` is DFT l, `units[l]` its
    /// twiddle unit (slot a is multiplied by w^(a·units\[l\]); 0: no
    /// twiddles). The default runs the stage's codelets one DFT at a time.
    fn run_dfts<'a>(
        &'a self,
        codelets: &StageCodelets<Self::Ops<'a>>,
        units: &[usize],
        xs: &mut [Self::Elem],
        scratch: &mut Self::DftScratch,
    ) {
        let _ = scratch;
        run_dfts_one_by_one(self, codelets, units, xs);
    }
    /// Runs a full group of [`Self::dft_lanes`] base DFTs of one stage
    /// straight from and into their buffers, as [`Self::run_dfts`] does on
    /// an element-major copy of them; returns false, having done nothing,
    /// where this arithmetic has no such path (the caller then copies). The
    /// default returns false.
    fn run_dfts_strided<'a>(
        &'a self,
        codelets: &StageCodelets<Self::Ops<'a>>,
        units: &[usize],
        dfts: StridedDfts<'_, Self::Elem>,
        scratch: &mut Self::DftScratch,
    ) -> bool {
        let _ = (codelets, units, dfts, scratch);
        false
    }
    /// Moves an element out of an in-place stage's buffer (it is written
    /// back after the codelet). The default leaves `Default` behind, which
    /// costs nothing for heap-backed types; plain-data types copy instead.
    fn take(&self, x: &mut Self::Elem) -> Self::Elem {
        std::mem::take(x)
    }
}

/// [`PlanArith::run_dfts`] one DFT at a time (its default).
pub fn run_dfts_one_by_one<'a, A: PlanArith + ?Sized>(
    arith: &'a A,
    codelets: &StageCodelets<A::Ops<'a>>,
    units: &[usize],
    xs: &mut [A::Elem],
) {
    for (x, &unit) in xs.chunks_exact_mut(codelets.radix).zip(units) {
        if unit == 0 || codelets.twiddles == CodeletTwiddles::None {
            (codelets.plain)(&arith.ops(None), x);
        } else {
            (codelets.fused)(&arith.ops(Some(unit)), x);
        }
        if codelets.scaled {
            arith.scale_all(x);
        }
    }
}

/// Runs `plan` on `data` (a batch: a multiple of N elements) with the given
/// arithmetic: the stages in order, base DFTs through the generated codelets,
/// parallel over blocks, columns or batch items as [`Threading`] allows.
/// `scratch` must hold [`Plan::scratch_len`] elements (contents arbitrary).
/// On error nothing is modified.
pub fn run_plan<A: PlanArith>(
    plan: &Plan,
    arith: &A,
    data: &mut [A::Elem],
    scratch: &mut [A::Elem],
    threading: Threading,
) -> Result<(), CpuError> {
    let n = plan.len();
    if !data.len().is_multiple_of(n) {
        return Err(TransformError::LengthNotMultiple { len: data.len(), n }.into());
    }
    let needed = plan.scratch_len();
    if scratch.len() < needed {
        return Err(TransformError::ScratchTooShort {
            len: scratch.len(),
            needed,
        }
        .into());
    }
    let scratch = &mut scratch[..needed];
    let parallel = threading == Threading::Parallel;
    let words = n * arith.words();
    if !parallel || words >= PARALLEL_MIN_WORDS || data.len() * arith.words() < PARALLEL_MIN_WORDS {
        // Large transforms are parallel inside; small batches serial.
        let inner = parallel && words >= PARALLEL_MIN_WORDS;
        let mut run_all = || {
            let mut work = StageWork::default();
            for item in data.chunks_exact_mut(n) {
                run_one(plan, arith, item, scratch, &mut work, inner);
            }
        };
        if inner && rayon::current_thread_index().is_none() {
            // Called from outside the pool: enter it once for the whole
            // transform, so that every stage's parallel loop starts on a
            // worker (whose idle peers are still spinning between stages)
            // instead of the caller handing each stage over and sleeping.
            rayon::scope(|_| run_all());
        } else {
            run_all();
        }
    } else {
        // Many small transforms: parallel over groups of batch items, each
        // group with its own (small: N·k < PARALLEL_MIN_WORDS) scratch.
        let per_task = (TASK_MIN_WORDS / words).max(1) * n;
        data.par_chunks_mut(per_task).for_each(|group| {
            let mut local = vec![A::Elem::default(); needed];
            let mut work = StageWork::default();
            for item in group.chunks_exact_mut(n) {
                run_one(plan, arith, item, &mut local, &mut work, false);
            }
        });
    }
    Ok(())
}

/// One transform: the plan's stages in order.
fn run_one<A: PlanArith>(
    plan: &Plan,
    arith: &A,
    data: &mut [A::Elem],
    scratch: &mut [A::Elem],
    work: &mut StageWork<A>,
    parallel: bool,
) {
    let stages = plan.stages();
    let folded = folds_final_scale(stages, arith.folds_scale());
    let run = if folded { stages.len() - 1 } else { stages.len() };
    for (i, stage) in stages[..run].iter().enumerate() {
        run_stage(
            plan,
            arith,
            stage,
            data,
            scratch,
            work,
            parallel,
            folded && i + 1 == run,
        );
    }
}

/// Whether a plan's final scaling (of the last base-DFT stage's output) is
/// folded into that stage: where the arithmetic can (`folds`).
pub(crate) fn folds_final_scale(stages: &[Stage], folds: bool) -> bool {
    folds
        && matches!(stages, [.., last, scale]
            if scale.kind == StageKind::Scale
                && matches!(last.kind, StageKind::BaseDft(_))
                && scale.dst == last.dst)
}

/// The working space of one task's base DFTs, kept from stage to stage (and
/// from transform to transform of a batch) on the thread that runs them all:
/// allocating it per stage cost 5–10% of a small transform (p4 64, t8 256,
/// with `malloc_consolidate` the largest part).
pub(crate) struct StageWork<A: PlanArith> {
    /// The DFTs being run, element-major, for groups that do not run
    /// straight from their buffers ([`PlanArith::run_dfts_strided`]).
    buf: Vec<A::Elem>,
    /// The arithmetic's own working space.
    dft: A::DftScratch,
    /// A first stage's DFTs in the order of their sources.
    order: Vec<usize>,
}

impl<A: PlanArith> Default for StageWork<A> {
    fn default() -> Self {
        Self {
            buf: Vec::new(),
            dft: A::DftScratch::default(),
            order: Vec::new(),
        }
    }
}

/// One stage of one transform; `work` serves the stage's serial part.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_stage<A: PlanArith>(
    plan: &Plan,
    arith: &A,
    stage: &Stage,
    data: &mut [A::Elem],
    scratch: &mut [A::Elem],
    work: &mut StageWork<A>,
    parallel: bool,
    scaled: bool,
) {
    match stage.kind {
        StageKind::Scale => {
            let target = match stage.dst {
                Buffer::Data => &mut *data,
                Buffer::Scratch => &mut *scratch,
            };
            let apply = |part: &mut [A::Elem]| arith.scale_all(part);
            if parallel {
                target
                    .par_chunks_mut((TASK_MIN_WORDS / arith.words()).max(1))
                    .for_each(apply);
            } else {
                apply(target);
            }
        }
        StageKind::BaseDft(d) => match (stage.src, stage.dst) {
            (Buffer::Data, Buffer::Data) => base_dfts(plan, arith, &d, None, data, work, parallel, scaled),
            (Buffer::Scratch, Buffer::Scratch) => base_dfts(plan, arith, &d, None, scratch, work, parallel, scaled),
            (Buffer::Data, Buffer::Scratch) => base_dfts(plan, arith, &d, Some(data), scratch, work, parallel, scaled),
            (Buffer::Scratch, Buffer::Data) => base_dfts(plan, arith, &d, Some(scratch), data, work, parallel, scaled),
        },
    }
}

/// The codelets of one base-DFT stage: DFT_radix plain and with the
/// stage's twiddles fused (`twiddles` says where; the same as `plain` when
/// the stage has none).
pub struct StageCodelets<O: CodeletOps> {
    /// The DFT size.
    pub radix: usize,
    /// Where the stage's twiddles go.
    pub twiddles: CodeletTwiddles,
    /// DFT_radix without twiddles.
    pub plain: CodeletFn<O>,
    /// DFT_radix with the stage's twiddles.
    pub fused: CodeletFn<O>,
    /// Whether the DFTs' outputs are also multiplied by N^{-1}: the plan's
    /// final scaling folded into its last base-DFT stage (only for an
    /// arithmetic whose [`PlanArith::folds_scale`] says so).
    pub scaled: bool,
}

/// How one base-DFT stage is cut into rayon tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TaskSplit {
    /// This many whole blocks per task (everything in one task when serial).
    Blocks(usize),
    /// Few large blocks: each block's columns b in runs of this many.
    Columns(usize),
}

impl TaskSplit {
    /// The split of `blocks` blocks of `stride` DFT_radix each, on elements
    /// of `words` words, run `width` DFTs at a time. A task takes whole
    /// groups of `width` DFTs where it can: a partial group runs one DFT at
    /// a time, outside the lanes (p32 2^12 on two threads, whose tasks held
    /// two DFTs of 2048 words, was slower than on one: 3.9 against 3.7 ms;
    /// with whole groups 1.7 ms).
    fn choose(
        parallel: bool,
        threads: usize,
        blocks: usize,
        radix: usize,
        stride: usize,
        words: usize,
        width: usize,
    ) -> Self {
        if !parallel {
            return Self::Blocks(blocks);
        }
        let min_blocks = width.div_ceil(stride);
        if stride < width || blocks >= 4 * threads * min_blocks {
            // Blocks too narrow for a column split to fill the lanes, or
            // enough of them.
            Self::Blocks((TASK_MIN_WORDS / (radix * stride * words)).max(min_blocks))
        } else {
            Self::Columns((TASK_MIN_WORDS / (radix * words)).max(1).next_multiple_of(width))
        }
    }
}

/// A share of one block: (block a, first column, the K row pieces).
type ColumnTask<'a, E> = (usize, usize, Vec<&'a mut [E]>);

/// Where the elements of a task's DFTs (a, b) live: element i of DFT (a, b)
/// is [`Slots::slot`]. An enum rather than a trait object, so that the
/// per-element lookup inlines.
enum Slots<'r, 'a, E> {
    /// Whole blocks from block `first` on, one slice.
    Blocks {
        part: &'a mut [E],
        first: usize,
        block_len: usize,
        stride: usize,
    },
    /// Columns from `c0` on of one block, one row piece per slot.
    Columns { rows: &'r mut [&'a mut [E]], c0: usize },
}

impl<E> Slots<'_, '_, E> {
    #[inline]
    fn slot(&mut self, (a, b): (usize, usize), i: usize) -> &mut E {
        match self {
            Self::Blocks {
                part,
                first,
                block_len,
                stride,
            } => &mut part[(a - *first) * *block_len + i * *stride + b],
            Self::Columns { rows, c0 } => &mut rows[i][b - *c0],
        }
    }
}

/// One stage of batched DFT_K: reads `src` (or `dst` itself, in place)
/// through the stage's addressing, writes `dst` at logical positions. The
/// DFTs run [`PlanArith::dft_lanes`] at a time, in the order block by block,
/// column by column.
#[allow(clippy::too_many_arguments)]
fn base_dfts<A: PlanArith>(
    plan: &Plan,
    arith: &A,
    d: &BaseDftStage,
    src: Option<&[A::Elem]>,
    dst: &mut [A::Elem],
    work: &mut StageWork<A>,
    parallel: bool,
    scaled: bool,
) {
    let (radix, stride) = (d.radix, d.stride);
    let twiddles = match d.twiddles.map(|t| t.placement) {
        None => CodeletTwiddles::None,
        Some(TwiddlePlacement::Inputs) => CodeletTwiddles::Inputs,
        Some(TwiddlePlacement::Outputs) => CodeletTwiddles::Outputs,
    };
    let codelets = StageCodelets {
        radix,
        twiddles,
        plain: generated::codelet::<A::Ops<'_>>(radix, CodeletTwiddles::None).expect("plans use generated radices"),
        fused: generated::codelet::<A::Ops<'_>>(radix, twiddles).expect("plans use generated radices"),
        scaled,
    };
    let step = d.twiddles.map_or(0, |t| t.step);
    let block_len = radix * stride;
    let n = plan.len();
    let width = arith.dft_lanes().clamp(1, MAX_DFT_LANES);
    // Where the elements of DFT (a, b) are read from in `src`: element i at
    // src_base(a, b) + i·src_step where the addressing allows (natural
    // order, or a digit-reversed first stage: ℓ = a·K + i has i as its last
    // digit, so P(ℓ) = P(a·K) + i·N/K); no step where each element needs its
    // own reversal. The base is worked out once per DFT, not per element
    // (the reversal divides once per digit).
    let reversed_rows = d.input == Addressing::DigitReversed && stride == 1;
    let src_step = match d.input {
        Addressing::Natural => Some(stride),
        Addressing::DigitReversed if reversed_rows => Some(n / radix),
        Addressing::DigitReversed => None,
    };
    let src_base = |a: usize, b: usize| {
        if reversed_rows {
            plan.digit_reverse(a * radix)
        } else {
            a * block_len + b
        }
    };
    // The DFTs `dfts` at once: gathered into `buf`, run, written back.
    let group = |buf: &mut Vec<A::Elem>,
                 scratch: &mut A::DftScratch,
                 dfts: &[(usize, usize)],
                 slots: &mut Slots<'_, '_, A::Elem>| {
        let mut units = [0usize; MAX_DFT_LANES];
        for (unit, &(_, b)) in units.iter_mut().zip(dfts) {
            *unit = b * step;
        }
        let units = &units[..dfts.len()];
        // A full group of whole blocks' DFTs straight from and into the
        // buffers where the arithmetic can (no element-major copy).
        let input_step = if src.is_some() { src_step } else { Some(stride) };
        if let (true, Some(input_step), Slots::Blocks { part, first, .. }) =
            (dfts.len() == width, input_step, &mut *slots)
        {
            let mut outputs = [0usize; MAX_DFT_LANES];
            let mut inputs = [0usize; MAX_DFT_LANES];
            for ((output, input), &(a, b)) in outputs.iter_mut().zip(&mut inputs).zip(dfts) {
                *output = (a - *first) * block_len + b;
                *input = if src.is_some() { src_base(a, b) } else { *output };
            }
            let count = dfts.len();
            let strided = StridedDfts {
                source: src,
                target: part,
                inputs: &inputs[..count],
                input_step,
                outputs: &outputs[..count],
                output_step: stride,
            };
            if arith.run_dfts_strided(&codelets, units, strided, scratch) {
                return;
            }
        }
        buf.clear();
        for &(a, b) in dfts {
            match (src, src_step) {
                (Some(src), Some(step)) => {
                    buf.extend(src[src_base(a, b)..].iter().step_by(step).take(radix).cloned());
                }
                (Some(src), None) => {
                    buf.extend((0..radix).map(|i| src[plan.digit_reverse(a * block_len + i * stride + b)].clone()))
                }
                (None, _) => buf.extend((0..radix).map(|i| arith.take(slots.slot((a, b), i)))),
            }
        }
        arith.run_dfts(&codelets, units, buf, scratch);
        let mut values = buf.drain(..);
        for &dft in dfts {
            for (i, v) in (0..radix).zip(&mut values) {
                *slots.slot(dft, i) = v;
            }
        }
    };
    let scattered_reads = src.is_some() && reversed_rows && radix * arith.words() >= SOURCE_ORDER_MIN_WORDS;
    // The DFTs of blocks first.. (`blocks` of them, or of columns c0..c1 of
    // block `first` alone), `width` at a time.
    let run = |work: &mut StageWork<A>,
               blocks: std::ops::Range<usize>,
               cols: std::ops::Range<usize>,
               slots: &mut Slots<'_, '_, A::Elem>| {
        let StageWork {
            buf,
            dft: scratch,
            order,
        } = work;
        let mut dfts = [(0usize, 0usize); MAX_DFT_LANES];
        let mut filled = 0;
        // A whole first stage reading a digit-reversed input (one DFT per
        // block) takes its DFTs in the order of their first inputs, P(a·K)
        // = 0, 1, …: its K input streams then advance one element at a time
        // instead of jumping by N/K², and the hardware prefetchers follow
        // them (t8 2^16 forward, one thread: that stage 4.6 → 2.7 ms). A
        // task with part of the blocks keeps their order: sorting them cost
        // more than it saved. Only where a DFT's outputs fill whole runs of
        // cache lines ([`SOURCE_ORDER_MIN_WORDS`]), as the writes then land
        // out of order.
        let by_source = scattered_reads && blocks.len() == n / radix;
        if by_source {
            order.clear();
            order.resize(blocks.len(), 0);
            for a in blocks.clone() {
                order[plan.digit_reverse(a * radix)] = a;
            }
        }
        let order: &mut dyn Iterator<Item = usize> = if by_source {
            &mut order.iter().copied()
        } else {
            &mut blocks.clone()
        };
        for a in order {
            for b in cols.clone() {
                dfts[filled] = (a, b);
                filled += 1;
                if filled == width {
                    group(buf, scratch, &dfts[..filled], slots);
                    filled = 0;
                }
            }
        }
        if filled > 0 {
            group(buf, scratch, &dfts[..filled], slots);
        }
    };
    let blocks = dst.len() / block_len;
    let threads = if parallel { rayon::current_num_threads() } else { 1 };
    let split = TaskSplit::choose(parallel, threads, blocks, radix, stride, arith.words(), width);
    match split {
        TaskSplit::Blocks(blocks_per_task) => {
            let task = |work: &mut StageWork<A>, (t, chunk): (usize, &mut [A::Elem])| {
                let first = t * blocks_per_task;
                let count = chunk.len() / block_len;
                let mut slots = Slots::Blocks {
                    part: chunk,
                    first,
                    block_len,
                    stride,
                };
                run(work, first..first + count, 0..stride, &mut slots);
            };
            if parallel {
                dst.par_chunks_mut(blocks_per_task * block_len)
                    .enumerate()
                    .for_each(|chunk| task(&mut StageWork::default(), chunk));
            } else {
                task(work, (0, dst));
            }
        }
        TaskSplit::Columns(cols) => {
            let mut tasks: Vec<ColumnTask<'_, A::Elem>> = Vec::new();
            for (a, block) in dst.chunks_exact_mut(block_len).enumerate() {
                let groups = stride.div_ceil(cols);
                let mut parts: Vec<Vec<&mut [A::Elem]>> = (0..groups).map(|_| Vec::with_capacity(radix)).collect();
                for row in block.chunks_exact_mut(stride) {
                    for (g, piece) in row.chunks_mut(cols).enumerate() {
                        parts[g].push(piece);
                    }
                }
                tasks.extend(parts.into_iter().enumerate().map(|(g, rows)| (a, g * cols, rows)));
            }
            tasks.into_par_iter().for_each(|(a, c0, mut rows)| {
                let c1 = c0 + rows[0].len();
                let mut slots = Slots::Columns { rows: &mut rows, c0 };
                run(&mut StageWork::default(), a..a + 1, c0..c1, &mut slots);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strided group reads its source (or its target when in place) and
    /// writes its target at base + slot·step, and hands out one output slot
    /// of every DFT at once only for distinct slots of the expected count.
    #[test]
    fn strided_dfts_address_their_slots() {
        let source: Vec<u32> = (100..140).collect();
        let mut target: Vec<u32> = (0..40).collect();
        let mut dfts = StridedDfts {
            source: Some(&source),
            target: &mut target,
            inputs: &[3, 1],
            input_step: 10,
            outputs: &[0, 2],
            output_step: 4,
        };
        assert_eq!((*dfts.input(0, 2), *dfts.input(1, 3)), (123, 131));
        *dfts.output(1, 3) = 7;
        let [a, b] = dfts.outputs_at::<2>(1).unwrap();
        (*a, *b) = (8, 9);
        assert!(dfts.outputs_at::<3>(1).is_none());
        assert_eq!((target[14], target[4], target[6]), (7, 8, 9));
        let mut in_place = StridedDfts {
            source: None,
            target: &mut target,
            inputs: &[4, 4],
            input_step: 1,
            outputs: &[5, 5],
            output_step: 1,
        };
        assert_eq!(*in_place.input(1, 0), 8);
        assert!(in_place.outputs_at::<2>(0).is_none());
    }

    /// Every task of a parallel stage holds whole groups of `width` DFTs
    /// (but the last, which may hold what is left), and a stage with enough
    /// DFTs for several groups is cut into several tasks.
    #[test]
    fn tasks_take_whole_lane_groups() {
        for threads in [2, 4, 16] {
            for (blocks, radix, stride, words) in [
                (64, 64, 1, 32),
                (1, 64, 64, 32),
                (256, 16, 16, 8),
                (1, 64, 1024, 64),
                (16, 16, 256, 8),
                (4, 64, 2, 32),
                (2, 16, 4, 4),
                (1024, 16, 1, 16),
            ] {
                let width = MAX_DFT_LANES;
                let dfts = blocks * stride;
                let (per_task, tasks) = match TaskSplit::choose(true, threads, blocks, radix, stride, words, width) {
                    TaskSplit::Blocks(per) => (per * stride, blocks.div_ceil(per)),
                    TaskSplit::Columns(cols) => {
                        assert!(cols <= stride || stride < width, "{cols} columns of {stride}");
                        (cols.min(stride), blocks * stride.div_ceil(cols))
                    }
                };
                let case = (threads, blocks, radix, stride, words);
                assert_eq!(per_task % width, 0, "{case:?}: {per_task} DFTs a task");
                if dfts >= 2 * per_task.max(width) {
                    assert!(tasks >= 2, "{case:?}: one task");
                }
            }
        }
        assert_eq!(
            TaskSplit::choose(false, 4, 8, 16, 16, 8, MAX_DFT_LANES),
            TaskSplit::Blocks(8)
        );
    }
}
