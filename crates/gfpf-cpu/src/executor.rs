//! [`CpuFft`]: a plan, its twiddle table and the field, run stage by stage.

use std::sync::{Arc, OnceLock};

use gfpf_executor::{
    CHECK_FITS_MIN_BYTES, PreparedFft, TableFiller, Transform, TwiddleLayout, TwiddleTable, check_fits, memory_limit,
    try_zeroed_elements,
};
use gfpf_field::{Element, Field, LANES, LaneArith, LaneIsa, Lanes};
use gfpf_plan::{CodeletTwiddles, Direction, Order, Plan, StageKind};
use rayon::prelude::*;

use crate::CpuError;
use crate::cache::get_or_publish;
use crate::codelets::{CodeletOps, FieldOps, LaneOps, TwiddleRow, directed_shift, generated};
use crate::runner::{
    PARALLEL_MIN_WORDS, PlanArith, StageCodelets, StridedDfts, Threading, folds_final_scale, run_dfts_one_by_one,
    run_plan,
};

/// An FFT of one size and direction over one field, ready to run: the
/// prepared plan (plan, twiddle table w^m for m < N/2k with w = ω_N or
/// ω_N^{-1}, N^{-1}) and the threading. Cloning shares the table.
#[derive(Clone)]
pub struct CpuFft<const K: usize> {
    prepared: PreparedFft<K>,
    threading: Threading,
    lane_isa: Option<LaneIsa>,
    /// The twiddle table times N^{-1}, built on first use by an inverse
    /// transform whose last stage takes the scaling (shared by clones).
    scaled_twiddles: Arc<OnceLock<TwiddleTable<K>>>,
    /// Each twiddled stage's factors as lane blocks, for transforms of at
    /// most [`LANE_TWIDDLES_MAX_WORDS`] words; built on first use by a
    /// transform whose products run in lanes (shared by clones).
    lane_twiddles: Arc<OnceLock<Vec<StageLaneTwiddles<K>>>>,
    /// Whether it may keep them ([`CpuFft::with_lane_twiddles`]).
    keep_lane_twiddles: bool,
}

/// Transforms of at most this many words (N·k) keep every twiddled stage's
/// factors as ready lane blocks (`StageLaneTwiddles`, N elements per
/// stage, 8 MiB at most): a stage's products then read their factors
/// instead of gathering them from the table and shifting them. One thread,
/// alternating with the gathering binary (minimum of 7 rounds): p4 64
/// 3.28 → 2.70 µs, p4 512 31.0 → 25.6, t8 256 19.3 → 16.4, p8 256 19.3 →
/// 16.6, p16 2^10 177 → 160, t8 2^12 515 → 447, p8 2^12 518 → 449; with the
/// bound raised, t8 2^14 0.89x, p16 2^13 0.70x, p32 2^12 0.95x, t8 2^16
/// 0.85x, t8 2^17 (2^20 words) 0.89x, p32 2^14 1.01x.
pub const LANE_TWIDDLES_MAX_WORDS: usize = 1 << 20;

/// One twiddled stage's factors in lane blocks: block j·radix + a holds, in
/// lane l, w^(a·(8j + l)·step) (times N^{-1} when `scaled`), the factor of
/// slot a of the DFT of column b = 8j + l.
struct StageLaneTwiddles<const K: usize> {
    step: usize,
    radix: usize,
    scaled: bool,
    blocks: Vec<Lanes<K>>,
}

impl<const K: usize> std::fmt::Debug for CpuFft<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpuFft")
            .field("prepared", &self.prepared)
            .field("threading", &self.threading)
            .field("lane_isa", &self.lane_isa)
            .finish()
    }
}

/// The lane instruction set a new [`CpuFft`] uses: the best vector one, none
/// where the CPU has only the portable form.
fn default_lane_isa() -> Option<LaneIsa> {
    Some(LaneIsa::best()).filter(|&isa| isa != LaneIsa::Portable)
}

/// Fills a twiddle table's independent chunks, in parallel when the table is
/// large and `threading` allows.
fn fill_chunks<const K: usize>(table: &mut [Element<K>], filler: &TableFiller<'_, K>, threading: Threading) {
    let chunk = TableFiller::<K>::CHUNK;
    let fill = |(c, part): (usize, &mut [Element<K>])| filler.fill(c, part);
    if threading == Threading::Parallel && table.len() * K >= PARALLEL_MIN_WORDS {
        table.par_chunks_mut(chunk).enumerate().for_each(fill);
    } else {
        table.chunks_mut(chunk).enumerate().for_each(fill);
    }
}

/// w^m for m < len, w = ω_N (or ω_N^{-1}), kept as `layout` says and
/// computed in parallel chunks when large (each chunk starts from a power,
/// then multiplies along).
pub fn twiddle_table<const K: usize>(
    field: &Field<K>,
    n: usize,
    direction: Direction,
    len: usize,
    layout: TwiddleLayout,
    threading: Threading,
) -> Result<TwiddleTable<K>, CpuError> {
    Ok(TwiddleTable::try_build(
        field,
        n,
        direction,
        len,
        layout,
        |table, filler| fill_chunks(table, filler, threading),
    )?)
}

impl<const K: usize> CpuFft<K> {
    /// Plans a transform of size N (a power of two ≤ 2^v) over `field`.
    ///
    /// Errors: N not a power of two, above the 2-adicity, or too large for
    /// memory: what one transform needs (its data, scratch and twiddle
    /// table) is compared with what this process may use
    /// ([`gfpf_executor::memory_limit`]) before anything of size N is
    /// allocated.
    pub fn try_new(field: &Field<K>, n: usize, direction: Direction, order: Order) -> Result<Self, CpuError> {
        Self::try_new_with_twiddles(field, n, direction, order, TwiddleLayout::Auto)
    }

    /// As [`CpuFft::try_new`], with the twiddle table kept as `layout` says
    /// ([`TwiddleLayout::Auto`]: whole up to
    /// [`gfpf_executor::FULL_TWIDDLE_TABLE_MAX_BYTES`] and while the
    /// transform fits in memory with it, two levels beyond).
    ///
    /// ```
    /// use gfpf_cpu::{CpuFft, Direction, Order, TwiddleLayout};
    /// use gfpf_field::{Field, Preset};
    ///
    /// let field = Field::<8>::preset(Preset::T8)?;
    /// let whole = CpuFft::try_new(&field, 1 << 12, Direction::Forward, Order::Natural)?;
    /// let split = CpuFft::try_new_with_twiddles(&field, 1 << 12, Direction::Forward, Order::Natural, TwiddleLayout::Split)?;
    /// assert_eq!((whole.twiddles().stored_len(), split.twiddles().stored_len()), (256, 32));
    /// let mut x: Vec<_> = (0..1 << 12).map(|i| field.from_u64(i)).collect();
    /// let mut y = x.clone();
    /// whole.process(&mut x)?;
    /// split.process(&mut y)?;
    /// assert_eq!(x, y);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_new_with_twiddles(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        layout: TwiddleLayout,
    ) -> Result<Self, CpuError> {
        // What running it will need at least, before the table is built: a
        // transform that cannot fit is refused at once, not after its table.
        let plan = Plan::try_new(n, K, direction, order)?;
        let len = plan.twiddle_table_len();
        let requested = layout;
        let mut layout = requested.resolve::<K>(len);
        if n.trailing_zeros() <= field.two_adicity() {
            let others = n as u128 + plan.scratch_len() as u128;
            let whole = (others + len as u128).saturating_mul(size_of::<Element<K>>() as u128);
            if whole >= CHECK_FITS_MIN_BYTES {
                layout = requested.fit::<K>(len, others, memory_limit());
            }
            let elements = others + layout.stored_entries::<K>(len) as u128;
            check_fits::<K>(n, elements, "transform size N (its data, scratch and twiddle table)")?;
        }
        let threading = Threading::default();
        let prepared = PreparedFft::try_new_with(field, n, direction, order, layout, |table, filler| {
            fill_chunks(table, filler, threading)
        })?;
        Ok(CpuFft {
            prepared,
            threading,
            lane_isa: default_lane_isa(),
            scaled_twiddles: Arc::default(),
            lane_twiddles: Arc::default(),
            keep_lane_twiddles: true,
        })
    }

    /// The same transform keeping (`true`, the default) or not keeping its
    /// twiddled stages' factors as ready lane blocks for its products in
    /// SIMD lanes (up to [`LANE_TWIDDLES_MAX_WORDS`]: N more elements per
    /// twiddled stage, built on first use). Without them the products gather
    /// their factors from the twiddle table: the same output, 10–30% slower
    /// on small transforms, no memory beyond the table.
    pub fn with_lane_twiddles(mut self, keep: bool) -> Self {
        self.keep_lane_twiddles = keep;
        self
    }

    /// Forward DFT_N, natural order in and out.
    pub fn forward(field: &Field<K>, n: usize) -> Result<Self, CpuError> {
        Self::try_new(field, n, Direction::Forward, Order::Natural)
    }

    /// Inverse DFT_N (scaled by N^{-1}), natural order in and out.
    pub fn inverse(field: &Field<K>, n: usize) -> Result<Self, CpuError> {
        Self::try_new(field, n, Direction::Inverse, Order::Natural)
    }

    /// The same transform with the given threading.
    pub fn with_threading(mut self, threading: Threading) -> Self {
        self.threading = threading;
        self
    }

    /// The same transform with its base DFTs run eight at a time in SIMD
    /// lanes on `isa` ([`LaneIsa`]), or one at a time (`None`). The default
    /// is the CPU's best vector instruction set (AVX-512 or AVX2), one at a
    /// time where it has neither. Results are identical; an error when this
    /// CPU cannot run `isa`.
    pub fn with_lane_isa(mut self, isa: Option<LaneIsa>) -> Result<Self, CpuError> {
        if let Some(isa) = isa {
            isa.ensure_available()?;
        }
        self.lane_isa = isa;
        Ok(self)
    }

    /// The instruction set the base DFTs run on in lanes (`None`: one DFT at
    /// a time).
    pub fn lane_isa(&self) -> Option<LaneIsa> {
        self.lane_isa
    }

    /// The threading mode.
    pub fn threading(&self) -> Threading {
        self.threading
    }

    /// The plan this executor runs.
    pub fn plan(&self) -> &Plan {
        self.prepared.plan()
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        self.prepared.field()
    }

    /// N.
    pub fn len(&self) -> usize {
        self.plan().len()
    }

    /// Always false (N ≥ 1).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Elements of scratch [`CpuFft::process_with_scratch`] needs.
    pub fn scratch_len(&self) -> usize {
        self.plan().scratch_len()
    }

    /// The shared twiddle table (w^m, m < N/2k).
    pub fn twiddles(&self) -> &TwiddleTable<K> {
        self.prepared.table()
    }

    /// The twiddle table times N^{-1} (w^m·N^{-1}), built on first use: the
    /// factors of a last stage that also does the inverse's scaling (of a
    /// two-level table, only the high level is scaled).
    fn scaled_twiddles(&self) -> &TwiddleTable<K> {
        get_or_publish(&self.scaled_twiddles, || {
            let mut table = self.prepared.table().clone();
            table.scale_with(|entries| FieldArith::new(self).scale_all(entries));
            table
        })
    }

    /// The twiddled stages' factors as lane blocks (none above
    /// [`LANE_TWIDDLES_MAX_WORDS`] or for stages of fewer than eight
    /// columns), built on first use.
    fn lane_twiddles(&self, lanes: LaneArith<'_, K>) -> &[StageLaneTwiddles<K>] {
        if !self.keep_lane_twiddles {
            return &[];
        }
        get_or_publish::<Vec<_>>(&self.lane_twiddles, || {
            let plan = self.plan();
            if plan.len() * K > LANE_TWIDDLES_MAX_WORDS {
                return Vec::new();
            }
            let arith = FieldArith::new(self);
            let stages = plan.stages();
            // The last base-DFT stage takes the scaling where it is folded.
            let scaled_stage = folds_final_scale(stages, arith.folds_scale()).then(|| stages.len() - 2);
            let inverse = plan.direction() == Direction::Inverse;
            let mut out = Vec::new();
            for (i, stage) in stages.iter().enumerate() {
                let StageKind::BaseDft(d) = stage.kind else { continue };
                let Some(t) = d.twiddles.filter(|_| d.stride.is_multiple_of(LANES)) else {
                    continue;
                };
                let scaled = scaled_stage == Some(i);
                let table = if scaled {
                    self.scaled_twiddles()
                } else {
                    self.prepared.table()
                };
                // Gathered from the table and shifted in lanes, as the
                // products without these blocks do.
                let split = |(j, a): (usize, usize)| -> [(usize, usize); LANES] {
                    std::array::from_fn(|l| plan.split_exponent(a * (LANES * j + l) * t.step))
                };
                let positions = (0..d.stride / LANES).flat_map(|j| (0..d.radix).map(move |a| (j, a)));
                let mut blocks = Vec::new();
                push_table_blocks(
                    lanes,
                    table,
                    positions.clone().map(|p| split(p).map(|(_, m)| m)),
                    &mut blocks,
                );
                for (block, p) in blocks.iter_mut().zip(positions) {
                    lanes.mul_pow_r_each_assign(block, split(p).map(|(q, _)| directed_shift::<K>(inverse, q)));
                }
                out.push(StageLaneTwiddles {
                    step: t.step,
                    radix: d.radix,
                    scaled,
                    blocks,
                });
            }
            out
        })
    }

    /// Transforms `data` in place, allocating the scratch buffer.
    pub fn process(&self, data: &mut [Element<K>]) -> Result<(), CpuError> {
        let mut scratch = try_zeroed_elements(self.scratch_len(), self.len(), "transform size N (its scratch)")?;
        self.process_with_scratch(data, &mut scratch)
    }

    /// Transforms `data` in place: one transform per N consecutive elements.
    /// `scratch` (any contents, at least [`CpuFft::scratch_len`] long) is
    /// overwritten. On error nothing is modified.
    pub fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), CpuError> {
        run_plan(self.plan(), &FieldArith::new(self), data, scratch, self.threading)
    }
}

impl<const K: usize> Transform<K> for CpuFft<K> {
    type Error = CpuError;
    fn prepared(&self) -> &PreparedFft<K> {
        &self.prepared
    }
    fn scratch_len(&self) -> usize {
        CpuFft::scratch_len(self)
    }
    fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), CpuError> {
        CpuFft::process_with_scratch(self, data, scratch)
    }
}

/// Pushes onto `blocks` one lane block per item of `entries`: lane l holds
/// table entry w^m_l. A two-level table's entries are both levels gathered
/// and multiplied in lanes, four blocks at a time (multiplying them
/// element by element first made t8 2^20 2.7x slower than the whole
/// table).
fn push_table_blocks<const K: usize>(
    lanes: LaneArith<'_, K>,
    table: &TwiddleTable<K>,
    entries: impl Iterator<Item = [usize; LANES]> + Clone,
    blocks: &mut Vec<Lanes<K>>,
) {
    match table {
        TwiddleTable::Full(whole) => blocks.extend(entries.map(|ms| lanes.gather(ms.map(|m| &whole[m])))),
        TwiddleTable::Split {
            low, high, low_bits, ..
        } => {
            let first = blocks.len();
            blocks.extend(entries.clone().map(|ms| lanes.gather(ms.map(|m| &high[m >> low_bits]))));
            let lows = blocks.len();
            let mask = (1 << low_bits) - 1;
            blocks.extend(entries.map(|ms| lanes.gather(ms.map(|m| &low[m & mask]))));
            let (highs, low_blocks) = blocks.split_at_mut(lows);
            lanes.mul_assign_each(&mut highs[first..], low_blocks);
            blocks.truncate(lows);
        }
    }
}

/// The field arithmetic of a [`CpuFft`], as the plan runner sees it.
pub(crate) struct FieldArith<'a, const K: usize> {
    pub(crate) fft: &'a CpuFft<K>,
    /// The lane arithmetic of the transform's lane instruction set, built
    /// once per run (`None`: one DFT at a time).
    pub(crate) lanes: Option<LaneArith<'a, K>>,
}

impl<'a, const K: usize> FieldArith<'a, K> {
    pub(crate) fn new(fft: &'a CpuFft<K>) -> Self {
        let lanes = fft.lane_isa.map(|isa| {
            LaneArith::new(fft.prepared.field(), isa).expect("CpuFft::with_lane_isa checked the instruction set")
        });
        Self { fft, lanes }
    }
}

impl<const K: usize> PlanArith for FieldArith<'_, K> {
    type Elem = Element<K>;
    type DftScratch = Vec<Lanes<K>>;
    type Ops<'b>
        = FieldOps<'b, K>
    where
        Self: 'b;
    fn words(&self) -> usize {
        K
    }

    fn ops(&self, twiddle_unit: Option<usize>) -> FieldOps<'_, K> {
        let prepared = &self.fft.prepared;
        FieldOps {
            field: prepared.field(),
            inverse: prepared.plan().direction() == Direction::Inverse,
            twiddles: twiddle_unit.map(|unit| TwiddleRow {
                table: prepared.table(),
                plan: prepared.plan(),
                unit,
            }),
        }
    }

    fn scale(&self, x: &mut Element<K>) {
        *x = self.fft.prepared.field().mul(x, self.fft.prepared.n_inv());
    }

    /// Eight at a time in SIMD lanes where the field can
    /// ([`LaneArith::mul_in_lanes`]), else four at a time through
    /// [`gfpf_field::Field::mul_lanes`] (their chains of divisions overlap).
    fn scale_all(&self, xs: &mut [Element<K>]) {
        let (field, n_inv) = (self.fft.prepared.field(), self.fft.prepared.n_inv());
        let mut xs = xs;
        if let Some(lanes) = self.lanes.filter(LaneArith::mul_in_lanes) {
            // Up to four blocks of eight at a time (their carry chains
            // overlap); what is left after the whole blocks, below.
            const BLOCKS: usize = 4;
            let factors = [Lanes::from_fn(|_| *n_inv); BLOCKS];
            let (whole, rest) = xs.split_at_mut(xs.len() / LANES * LANES);
            for group in whole.chunks_mut(BLOCKS * LANES) {
                let count = group.len() / LANES;
                let mut x = [Lanes::<K>::default(); BLOCKS];
                for (block, chunk) in x.iter_mut().zip(group.chunks_exact(LANES)) {
                    *block = lanes.gather(std::array::from_fn(|l| &chunk[l]));
                }
                lanes.mul_assign_each(&mut x[..count], &factors);
                for (block, chunk) in x.iter().zip(group.chunks_exact_mut(LANES)) {
                    let mut out = chunk.iter_mut();
                    lanes.scatter(block, std::array::from_fn(|_| out.next().expect("eight elements")));
                }
            }
            xs = rest;
        }
        let mut quads = xs.chunks_exact_mut(4);
        for x in &mut quads {
            let products = field.mul_lanes([&x[0], &x[1], &x[2], &x[3]], [n_inv; 4]);
            x.copy_from_slice(&products);
        }
        for x in quads.into_remainder() {
            *x = field.mul(x, n_inv);
        }
    }

    fn take(&self, x: &mut Element<K>) -> Element<K> {
        *x
    }

    fn dft_lanes(&self) -> usize {
        if self.lanes.is_some() { LANES } else { 1 }
    }

    /// Where twiddles are multiplied in lanes: the scaling then rides the
    /// last stage's twiddle products (t8 2^16 inverse, one thread: its own
    /// stage took 2.1 of 18.3 ms).
    fn folds_scale(&self) -> bool {
        self.lanes.is_some_and(|lanes| lanes.mul_in_lanes())
    }

    /// Eight DFTs side by side in [`Lanes`] (digit-major), their butterflies
    /// and shifts in SIMD lanes; fewer than eight one by one.
    fn run_dfts<'a>(
        &'a self,
        codelets: &StageCodelets<FieldOps<'a, K>>,
        units: &[usize],
        xs: &mut [Element<K>],
        blocks: &mut Vec<Lanes<K>>,
    ) {
        if !self.lane_dfts(
            codelets,
            units,
            LaneData::ElementMajor(&mut *xs),
            blocks,
            LaneParts::ALL,
        ) {
            run_dfts_one_by_one(self, codelets, units, xs);
        }
    }

    /// Eight DFTs gathered into lanes straight from their buffers and
    /// scattered straight back, where their twiddles (if any) multiply in
    /// lanes.
    fn run_dfts_strided<'a>(
        &'a self,
        codelets: &StageCodelets<FieldOps<'a, K>>,
        units: &[usize],
        dfts: StridedDfts<'_, Element<K>>,
        blocks: &mut Vec<Lanes<K>>,
    ) -> bool {
        self.lane_dfts(codelets, units, LaneData::Strided(dfts), blocks, LaneParts::ALL)
    }
}

/// Where [`FieldArith::lane_dfts`] finds its eight DFTs.
pub(crate) enum LaneData<'x, 's, const K: usize> {
    /// Element-major: slot i of DFT l at `[l·radix + i]`.
    ElementMajor(&'x mut [Element<K>]),
    /// In their buffers.
    Strided(StridedDfts<'s, Element<K>>),
}

impl<const K: usize> FieldArith<'_, K> {
    /// The ready factor blocks of eight DFTs of consecutive columns 8j ..
    /// 8j + 8 (`units` = b·step), when the transform keeps them
    /// ([`LANE_TWIDDLES_MAX_WORDS`]).
    fn cached_lane_twiddles(
        &self,
        lanes: LaneArith<'_, K>,
        radix: usize,
        units: &[usize],
        scaled: bool,
    ) -> Option<&[Lanes<K>]> {
        let (&u0, &u1) = (units.first()?, units.get(1)?);
        let step = u1.checked_sub(u0).filter(|&s| s > 0)?;
        let b0 = u0 / step;
        let consecutive = units.len() == LANES
            && u0 % step == 0
            && b0.is_multiple_of(LANES)
            && units.iter().enumerate().all(|(l, &u)| u == u0 + l * step);
        if !consecutive {
            return None;
        }
        let stage = self
            .fft
            .lane_twiddles(lanes)
            .iter()
            .find(|s| s.step == step && s.radix == radix && s.scaled == scaled)?;
        stage.blocks.get(b0 / LANES * radix..(b0 / LANES + 1) * radix)
    }
}

/// Which parts of [`FieldArith::lane_dfts`] run (the breakdown times them
/// apart; the data movement always runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LaneParts {
    pub twiddles: bool,
    pub codelet: bool,
}

impl LaneParts {
    pub(crate) const ALL: Self = Self {
        twiddles: true,
        codelet: true,
    };
}

impl<const K: usize> FieldArith<'_, K> {
    /// Eight DFTs of one stage side by side in [`Lanes`]: their slots
    /// ([`LaneData`]) transposed into `radix` blocks, run through the plain
    /// codelet in lanes, and transposed back (times N^{-1} where the stage's
    /// codelets say `scaled`). The twiddles (slot a of DFT l times
    /// w^(a·units\[l\])) are multiplied in lanes where the field can
    /// ([`LaneArith::mul_in_lanes`]), else on the elements, four at a time:
    /// element-major data only. Returns false, having done nothing, where
    /// the transform has no lanes, the group is not eight DFTs, or strided
    /// data would need its twiddles on the elements.
    pub(crate) fn lane_dfts<O: CodeletOps>(
        &self,
        codelets: &StageCodelets<O>,
        units: &[usize],
        mut data: LaneData<'_, '_, K>,
        blocks: &mut Vec<Lanes<K>>,
        parts: LaneParts,
    ) -> bool {
        let Some(lanes) = self.lanes.filter(|_| units.len() == LANES) else {
            return false;
        };
        let (radix, placement, scaled) = (codelets.radix, codelets.twiddles, codelets.scaled);
        let prepared = &self.fft.prepared;
        let ops = LaneOps {
            lanes,
            inverse: prepared.plan().direction() == Direction::Inverse,
        };
        let row = TwiddleRow {
            table: prepared.table(),
            plan: prepared.plan(),
            unit: 0,
        };
        let n_inv = scaled.then(|| Lanes::from_fn(|_| *prepared.n_inv()));
        let twiddled = parts.twiddles && placement != CodeletTwiddles::None && units.iter().any(|&u| u != 0);
        let in_lanes = twiddled && lanes.mul_in_lanes();
        // N^{-1} rides the twiddle products (slot 0's factor becomes N^{-1},
        // the others come from the scaled table), or multiplies the outputs.
        let table = if scaled && in_lanes {
            self.fft.scaled_twiddles()
        } else {
            prepared.table()
        };
        // Twiddles on whole elements (when the field cannot multiply in
        // lanes): four at a time across the eight DFTs, before the lanes are
        // filled or after they are emptied.
        let twiddle_elements = |xs: &mut [Element<K>]| self.ops(None).twiddle_dfts(&row, radix, units, xs);
        match &mut data {
            LaneData::Strided(_) if twiddled && !in_lanes => return false,
            LaneData::ElementMajor(xs) if twiddled && !in_lanes && placement == CodeletTwiddles::Inputs => {
                twiddle_elements(xs)
            }
            _ => {}
        }
        // The scratch holds the radix data blocks, then (for twiddles in
        // lanes, while they are multiplied) the factor blocks of slots 1..
        blocks.clear();
        match &data {
            LaneData::ElementMajor(xs) => {
                blocks.extend((0..radix).map(|i| lanes.gather(std::array::from_fn(|l| &xs[l * radix + i]))));
            }
            LaneData::Strided(dfts) => {
                blocks.extend((0..radix).map(|i| lanes.gather(std::array::from_fn(|l| dfts.input(l, i)))));
            }
        }
        // Twiddles in lanes: slot a of lane l times w^(a·units[l]) =
        // r^(±q_l)·table[m_l]: the product by the gathered table[m_l], then
        // the shifts in lanes after it (one shift for all eight when they
        // agree, nearly always in the early stages, whose exponents grow
        // slowly along the columns; else one per lane). The products run
        // four blocks at a time ([`LaneArith::mul_assign_each`]: their carry
        // chains overlap). Shifting each factor first, element by element,
        // was slower (t8 256 and p8 256, one thread: 0.92x after the change).
        let inverse = ops.inverse;
        let twiddle_lanes = |blocks: &mut Vec<Lanes<K>>| {
            let split = |a: usize| -> [(usize, usize); LANES] {
                std::array::from_fn(|l| row.plan.split_exponent(a * units[l]))
            };
            blocks.truncate(radix);
            // Slot 0's factor is w^0 = 1 (N^{-1} when scaled): factors from
            // slot `first` on.
            let first = usize::from(n_inv.is_none());
            if let Some(factors) = self.cached_lane_twiddles(lanes, radix, units, scaled) {
                lanes.mul_assign_each(&mut blocks[first..], &factors[first..]);
                return;
            }
            blocks.extend(n_inv);
            push_table_blocks(lanes, table, (1..radix).map(|a| split(a).map(|(_, m)| m)), blocks);
            let (data, factors) = blocks.split_at_mut(radix);
            lanes.mul_assign_each(&mut data[first..], factors);
            for (a, block) in data.iter_mut().enumerate().skip(1) {
                lanes.mul_pow_r_each_assign(block, split(a).map(|(q, _)| directed_shift::<K>(inverse, q)));
            }
            blocks.truncate(radix);
        };
        if in_lanes && placement == CodeletTwiddles::Inputs {
            twiddle_lanes(blocks);
        }
        if parts.codelet {
            let codelet = generated::codelet::<LaneOps<'_, K>>(radix, CodeletTwiddles::None)
                .expect("plans use generated radices");
            codelet(&ops, blocks);
        }
        if in_lanes && placement == CodeletTwiddles::Outputs {
            twiddle_lanes(blocks);
        }
        if let Some(n_inv) = n_inv.filter(|_| !in_lanes) {
            for four in blocks.chunks_mut(4) {
                lanes.mul_assign_each(four, &[n_inv; 4]);
            }
        }
        match data {
            LaneData::ElementMajor(xs) => {
                for (i, block) in blocks.iter().enumerate() {
                    let mut rows = xs.chunks_exact_mut(radix);
                    lanes.scatter(block, std::array::from_fn(|_| &mut rows.next().expect("eight DFTs")[i]));
                }
                if twiddled && !in_lanes && placement == CodeletTwiddles::Outputs {
                    twiddle_elements(xs);
                }
            }
            LaneData::Strided(mut dfts) => {
                for (i, block) in blocks.iter().enumerate() {
                    match dfts.outputs_at::<LANES>(i) {
                        Some(outputs) => lanes.scatter(block, outputs),
                        None => (0..LANES).for_each(|l| *dfts.output(l, i) = block.lane(l)),
                    }
                }
            }
        }
        true
    }
}
