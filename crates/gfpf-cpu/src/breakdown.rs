//! Where a transform's time goes, stage by stage (ISSAC 2019 table 6):
//! precomputation, data movement (gathers, permutations, scatters), base
//! DFTs (butterflies and shifts), twiddle multiplications, scaling.
//!
//! Each stage is run four times from the same input: in full, and with only
//! the data movement, only the twiddles, or only the codelet arithmetic
//! switched on. Twiddles and base DFTs are reported net of the movement.
//! Where the executor runs its DFTs eight at a time in SIMD lanes, so does
//! the breakdown, and the movement includes the transposes into and out of
//! the lanes.

use std::time::{Duration, Instant};

use gfpf_field::{Element, Lanes};
use gfpf_plan::{Stage, StageKind};

use crate::codelets::{CodeletOps, FieldOps};
use crate::executor::{FieldArith, LaneData, LaneParts};
use crate::runner::{PlanArith, StageCodelets, StageWork, StridedDfts, run_dfts_one_by_one, run_stage};
use crate::{CpuError, CpuFft, Threading, twiddle_table};

/// The timings of one stage.
#[derive(Debug, Clone, PartialEq)]
pub struct StageTiming {
    /// The stage.
    pub stage: Stage,
    /// The stage as executed.
    pub total: Duration,
    /// Reading the inputs (through the stage's addressing) and writing the outputs.
    pub movement: Duration,
    /// Butterflies and shifts of the base DFTs (net of movement).
    pub base_dfts: Duration,
    /// Twiddle multiplications (net of movement).
    pub twiddles: Duration,
    /// N^{-1} scaling.
    pub scale: Duration,
}

/// The timings of a whole transform.
#[derive(Debug, Clone, PartialEq)]
pub struct Breakdown {
    /// Building the twiddle table (once per plan).
    pub precompute: Duration,
    /// One line per stage.
    pub stages: Vec<StageTiming>,
}

impl Breakdown {
    /// Σ of the stages' totals.
    pub fn transform(&self) -> Duration {
        self.stages.iter().map(|s| s.total).sum()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Full,
    MovementOnly,
    TwiddlesOnly,
    CodeletOnly,
}

struct Instrumented<'a, const K: usize> {
    inner: FieldArith<'a, K>,
    mode: Mode,
}

struct InstrumentedOps<'a, const K: usize> {
    inner: FieldOps<'a, K>,
    mode: Mode,
}

impl<const K: usize> CodeletOps for InstrumentedOps<'_, K> {
    type Elem = Element<K>;
    const MAX_RADIX: usize = 2 * K;
    fn butterfly(&self, x: &mut [Element<K>], a: usize, b: usize) {
        if matches!(self.mode, Mode::Full | Mode::CodeletOnly) {
            self.inner.butterfly(x, a, b);
        }
    }
    fn mul_root_power(&self, x: &mut [Element<K>], a: usize, j: usize, radix: usize) {
        if matches!(self.mode, Mode::Full | Mode::CodeletOnly) {
            self.inner.mul_root_power(x, a, j, radix);
        }
    }
    fn twiddle(&self, x: &mut [Element<K>], a: usize) {
        if matches!(self.mode, Mode::Full | Mode::TwiddlesOnly) {
            self.inner.twiddle(x, a);
        }
    }
    fn twiddle_all(&self, x: &mut [Element<K>]) {
        if matches!(self.mode, Mode::Full | Mode::TwiddlesOnly) {
            self.inner.twiddle_all(x);
        }
    }
}

impl<const K: usize> PlanArith for Instrumented<'_, K> {
    type Elem = Element<K>;
    type DftScratch = Vec<Lanes<K>>;
    type Ops<'b>
        = InstrumentedOps<'b, K>
    where
        Self: 'b;
    fn words(&self) -> usize {
        K
    }
    fn ops(&self, twiddle_unit: Option<usize>) -> InstrumentedOps<'_, K> {
        InstrumentedOps {
            inner: self.inner.ops(twiddle_unit),
            mode: self.mode,
        }
    }
    fn scale(&self, x: &mut Element<K>) {
        if self.mode == Mode::Full {
            self.inner.scale(x);
        }
    }
    fn scale_all(&self, xs: &mut [Element<K>]) {
        if self.mode == Mode::Full {
            self.inner.scale_all(xs);
        }
    }
    fn take(&self, x: &mut Element<K>) -> Element<K> {
        *x
    }
    fn dft_lanes(&self) -> usize {
        self.inner.dft_lanes()
    }
    /// As the executor: eight DFTs in lanes (with the mode's parts switched
    /// on) when it runs them so, else one by one through the instrumented
    /// codelet operations.
    fn run_dfts<'a>(
        &'a self,
        codelets: &StageCodelets<InstrumentedOps<'a, K>>,
        units: &[usize],
        xs: &mut [Element<K>],
        blocks: &mut Vec<Lanes<K>>,
    ) {
        let data = LaneData::ElementMajor(&mut *xs);
        if !self.inner.lane_dfts(codelets, units, data, blocks, self.lane_parts()) {
            run_dfts_one_by_one(self, codelets, units, xs);
        }
    }
    fn run_dfts_strided<'a>(
        &'a self,
        codelets: &StageCodelets<InstrumentedOps<'a, K>>,
        units: &[usize],
        dfts: StridedDfts<'_, Element<K>>,
        blocks: &mut Vec<Lanes<K>>,
    ) -> bool {
        self.inner
            .lane_dfts(codelets, units, LaneData::Strided(dfts), blocks, self.lane_parts())
    }
}

impl<const K: usize> Instrumented<'_, K> {
    /// The parts of [`FieldArith::lane_dfts`] this mode times (the scaling
    /// never rides a stage here: the breakdown runs it as its own).
    fn lane_parts(&self) -> LaneParts {
        LaneParts {
            twiddles: matches!(self.mode, Mode::Full | Mode::TwiddlesOnly),
            codelet: matches!(self.mode, Mode::Full | Mode::CodeletOnly),
        }
    }
}

impl<const K: usize> CpuFft<K> {
    /// Times one transform of `data` (length N, left transformed) stage by
    /// stage; see the module documentation for the method.
    pub fn breakdown(&self, data: &mut [Element<K>]) -> Result<Breakdown, CpuError> {
        let n = self.len();
        if data.len() != n {
            return Err(gfpf_executor::TransformError::LengthNotMultiple { len: data.len(), n }.into());
        }
        let plan = self.plan();
        let start = Instant::now();
        twiddle_table(
            self.field(),
            n,
            plan.direction(),
            plan.twiddle_table_len(),
            self.twiddles().layout(),
            self.threading(),
        )?;
        let precompute = start.elapsed();
        let parallel = self.threading() == Threading::Parallel;
        let mut scratch = vec![Element::ZERO; self.scratch_len()];
        let mut stages = Vec::new();
        for stage in plan.stages() {
            let time = |mode: Mode, data: &mut [Element<K>], scratch: &mut [Element<K>]| {
                let arith = Instrumented {
                    inner: FieldArith::new(self),
                    mode,
                };
                let start = Instant::now();
                run_stage(
                    plan,
                    &arith,
                    stage,
                    data,
                    scratch,
                    &mut StageWork::default(),
                    parallel,
                    false,
                );
                start.elapsed()
            };
            let probe = |mode: Mode| {
                let (mut d, mut s) = (data.to_vec(), scratch.clone());
                time(mode, &mut d, &mut s)
            };
            let movement = probe(Mode::MovementOnly);
            let twiddles = probe(Mode::TwiddlesOnly).saturating_sub(movement);
            let codelets = probe(Mode::CodeletOnly).saturating_sub(movement);
            let total = time(Mode::Full, data, &mut scratch);
            let is_scale = stage.kind == StageKind::Scale;
            stages.push(StageTiming {
                stage: *stage,
                total,
                movement: if is_scale { Duration::ZERO } else { movement },
                base_dfts: if is_scale { Duration::ZERO } else { codelets },
                twiddles: if is_scale { Duration::ZERO } else { twiddles },
                scale: if is_scale { total } else { Duration::ZERO },
            });
        }
        Ok(Breakdown { precompute, stages })
    }
}
