//! Flattening the recursive six-step formula into an executable stage list.
//!
//! Expanding ISSAC eq. (5) all the way down, and using
//! L^N_K (I_J ⊗ DFT_K) L^N_J = DFT_K ⊗ I_J, gives for N = K_1·K_2·…·K_s
//!
//! DFT_N = S_1 S_2 ⋯ S_s · P,  S_t = (I_{A_t} ⊗ DFT_{K_t} ⊗ I_{B_t}) (I_{A_t} ⊗ D_{K_t,B_t}),
//!
//! with A_t = K_1⋯K_{t-1}, B_t = K_{t+1}⋯K_s and P the product of all the
//! inner stride permutations (I ⊗ L): the mixed-radix digit reversal. So:
//!
//! * every stride permutation between base cases becomes *addressing*: S_t
//!   reads its K_t inputs at stride B_t, no data moves (ISSAC §4.3.1 applied
//!   to the whole transform, not only inside DFT_K);
//! * the twiddle diagonal D_{K_t,B_t} is fused with the base DFTs of the same
//!   stage (FFTW's t1 codelets), on their inputs (decimation in time) or, in
//!   the transposed algorithm, on their outputs (decimation in frequency);
//! * the one permutation left, P, is folded into the reads of the first stage
//!   executed (a gather from digit-reversed positions), or skipped entirely
//!   when the caller accepts digit-reversed order ([`Order::DigitReversed`],
//!   what convolutions use).
//!
//! A plan holds no field elements: twiddles are described by their exponent
//! structure, and ω_N^e is split as e = q·(N/2k) + m into a shift r^q and one
//! entry ω_N^m of a table of N/2k elements (DESIGN §1, thesis §6.2).

use crate::{PlanError, codelet};

/// Forward (ω_N) or inverse (ω_N^{-1}, then scaled by N^{-1}).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// y_i = Σ_j x_j ω_N^(ij).
    Forward,
    /// x_j = N^{-1} Σ_i y_i ω_N^(-ij).
    Inverse,
}

/// The order of the frequency-domain side of a plan: the output of a forward
/// plan, the input of an inverse plan. The time-domain side is always natural.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Index i holds y_i (the DFT convention of DESIGN §1).
    Natural,
    /// Index i holds y_{P(i)}, P the mixed-radix digit reversal of
    /// [`Plan::radices`] ([`Plan::digit_reverse`]). A forward and an inverse
    /// plan of the same size agree on P, so a convolution can skip both
    /// permutations.
    DigitReversed,
}

/// Which buffer a stage reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Buffer {
    /// The caller's data.
    Data,
    /// A scratch buffer of N elements ([`Plan::scratch_len`]).
    Scratch,
}

/// How a stage maps its logical positions to positions in its source buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Addressing {
    /// Logical position ℓ is position ℓ.
    Natural,
    /// Logical position ℓ is read from position [`Plan::digit_reverse`]`(ℓ)`
    /// (the permutation P folded into the reads).
    DigitReversed,
}

/// Where a stage's twiddle multiplications sit relative to its base DFTs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TwiddlePlacement {
    /// On the K inputs, before the DFT (decimation in time).
    Inputs,
    /// On the K outputs, after the DFT (decimation in frequency).
    Outputs,
}

/// The twiddle diagonal D_{K,B} of one stage, fused with its base DFTs:
/// element i (i < K) of the DFT at stride offset b (b < B) is multiplied by
/// w^(i·b·step), w = ω_N (forward) or ω_N^{-1} (inverse). Split the exponent
/// with [`Plan::split_exponent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StageTwiddles {
    /// Inputs or outputs.
    pub placement: TwiddlePlacement,
    /// A_t: the exponent of element i at offset b is i·b·step (< N).
    pub step: usize,
}

/// A batch of base DFT_K, all of one size, with their addressing.
///
/// Logical position ℓ = a·(K·stride) + i·stride + b, for block a < `blocks`,
/// element i < K and offset b < `stride`: the DFT (a, b) transforms the K
/// elements i = 0..K. Its root is ρ = ω_K (forward) or ω_K^{-1} (inverse),
/// a power of r: ω_K = r^(2k/K).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BaseDftStage {
    /// K, a power of two dividing 2k.
    pub radix: usize,
    /// A: independent blocks of K·stride elements.
    pub blocks: usize,
    /// B: distance between the K elements of one DFT.
    pub stride: usize,
    /// The fused twiddle diagonal, if the stage has one.
    pub twiddles: Option<StageTwiddles>,
    /// How the logical positions are read from the source buffer; the output
    /// is always written at the logical positions of the destination.
    pub input: Addressing,
}

/// What a stage does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageKind {
    /// Batched base DFTs, possibly with fused twiddles.
    BaseDft(BaseDftStage),
    /// Every element multiplied by N^{-1} (inverse plans).
    Scale,
}

/// One pass over N elements: read `src`, write `dst` (equal: in place).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stage {
    /// The operation.
    pub kind: StageKind,
    /// The buffer read.
    pub src: Buffer,
    /// The buffer written.
    pub dst: Buffer,
}

/// Exact operation counts of one stage or a whole plan (per transform of N
/// elements).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct OpCounts {
    /// Base DFT_K calls.
    pub base_dfts: usize,
    /// DFT_2 butterflies (one addition and one subtraction each).
    pub butterflies: usize,
    /// Multiplications by a power r^i (i ≠ 0): negacyclic shifts.
    pub shifts: usize,
    /// Full field multiplications (twiddle table entries, N^{-1}).
    pub full_muls: usize,
    /// Elements read.
    pub reads: usize,
    /// Elements written.
    pub writes: usize,
}

impl std::ops::Add for OpCounts {
    type Output = OpCounts;
    fn add(self, o: OpCounts) -> OpCounts {
        OpCounts {
            base_dfts: self.base_dfts + o.base_dfts,
            butterflies: self.butterflies + o.butterflies,
            shifts: self.shifts + o.shifts,
            full_muls: self.full_muls + o.full_muls,
            reads: self.reads + o.reads,
            writes: self.writes + o.writes,
        }
    }
}

/// An executable DFT plan for GF(r^k + 1): plain data, built once per
/// (N, k, direction, order). Executors run [`Plan::stages`] in order and
/// never re-derive the factorisation.
///
/// ```
/// use gfpf_plan::{Direction, Order, Plan};
///
/// // t8 (k = 8, base cases of 16): N = 2^9 = 16·16·2.
/// let plan = Plan::try_new(512, 8, Direction::Forward, Order::Natural)?;
/// assert_eq!(plan.radices(), &[16, 16, 2]);
/// assert_eq!(plan.stages().len(), 3);
/// assert_eq!(plan.twiddle_table_len(), 32); // ω_512^m, m < 512/16
/// let c = plan.counts();
/// assert_eq!(c.base_dfts, 256 + 32 + 32);
/// # Ok::<(), gfpf_plan::PlanError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Plan {
    n: usize,
    k: usize,
    direction: Direction,
    order: Order,
    radices: Vec<usize>,
    stages: Vec<Stage>,
}

impl Plan {
    /// Plans DFT_N over GF(r^k + 1) (k digits, base cases up to 2k).
    ///
    /// Errors: N or k not a power of two. N above the field's 2-adicity is the
    /// executor's check (a plan does not know the prime).
    pub fn try_new(n: usize, k: usize, direction: Direction, order: Order) -> Result<Self, PlanError> {
        // An invalid k is refused before the cap is looked at.
        Self::build(n, k, direction, order, k.saturating_mul(2), false)
    }

    /// As [`Plan::try_new`] with no base DFT larger than `max_radix` (a power
    /// of two, 2 ≤ `max_radix` ≤ 2k): more stages of smaller DFTs, for
    /// executors that hold a DFT's elements in little memory (the device's
    /// kernels for k ≥ 32 hold an element over a whole warp, and a tile of
    /// four DFTs in 48 KiB of shared memory). The codelets'
    /// roots stay powers of r, and twiddles split as they do in
    /// [`Plan::split_exponent`]; the transform is the same. The smaller
    /// remainder radix goes outermost (where [`Plan::try_new`] keeps it
    /// innermost), so that every stage but the innermost has a stride of at
    /// least `max_radix`: the device's tiles take that many neighbouring
    /// columns, and a remainder of 2 innermost left t128's next stage at
    /// stride 2, a quarter of each sector, and t8's at 2^13 to a segment per
    /// DFT, twice the time of 2^14 in the time model.
    ///
    /// ```
    /// use gfpf_plan::{Direction, Order, Plan};
    ///
    /// let plan = Plan::try_with_max_radix(1 << 14, 64, Direction::Forward, Order::Natural, 16)?;
    /// assert_eq!(plan.radices(), &[4, 16, 16, 16]);
    /// assert_eq!(plan.twiddle_table_len(), 128); // still N/2k
    /// # Ok::<(), gfpf_plan::PlanError>(())
    /// ```
    ///
    /// Errors: N or k not a power of two, `max_radix` out of range.
    pub fn try_with_max_radix(
        n: usize,
        k: usize,
        direction: Direction,
        order: Order,
        max_radix: usize,
    ) -> Result<Self, PlanError> {
        Self::build(n, k, direction, order, max_radix, true)
    }

    fn build(
        n: usize,
        k: usize,
        direction: Direction,
        order: Order,
        max_radix: usize,
        remainder_outermost: bool,
    ) -> Result<Self, PlanError> {
        if n == 0 || !n.is_power_of_two() {
            return Err(PlanError::SizeNotPowerOfTwo(n));
        }
        if k == 0 || !k.is_power_of_two() || k > usize::MAX / 2 {
            return Err(PlanError::InvalidBaseSize(k.saturating_mul(2)));
        }
        if !max_radix.is_power_of_two() || !(2..=2 * k).contains(&max_radix) {
            return Err(PlanError::InvalidMaxRadix { max_radix, base: 2 * k });
        }
        let mut radices = radices(n, max_radix);
        if remainder_outermost {
            radices.sort_unstable();
        }
        let s = radices.len();
        // A_t and B_t for t = 0..s (0-based: stage t uses radices[t]).
        let outer = |t: usize| radices[..t].iter().product::<usize>();
        let inner = |t: usize| radices[t + 1..].iter().product::<usize>();
        let stage = |t: usize, placement: TwiddlePlacement, input: Addressing| BaseDftStage {
            radix: radices[t],
            blocks: outer(t),
            stride: inner(t),
            twiddles: (inner(t) > 1).then(|| StageTwiddles {
                placement,
                step: outer(t),
            }),
            input,
        };
        // Buffers: with one stage everything is in place (the codelet gathers
        // its K inputs first); otherwise a folded digit reversal is the only
        // non-local read, so that stage goes Data → Scratch and the last goes
        // back Scratch → Data.
        let route = |i: usize, gather: bool| -> (Buffer, Buffer) {
            match (gather && s > 1, i == 0, i + 1 == s) {
                (false, _, _) => (Buffer::Data, Buffer::Data),
                (true, true, _) => (Buffer::Data, Buffer::Scratch),
                (true, false, true) => (Buffer::Scratch, Buffer::Data),
                (true, false, false) => (Buffer::Scratch, Buffer::Scratch),
            }
        };
        let mut stages = Vec::with_capacity(s + 1);
        match (direction, order) {
            // Decimation in frequency: natural input, digit-reversed output,
            // no permutation at all.
            (Direction::Forward, Order::DigitReversed) => {
                for t in 0..s {
                    stages.push(Stage {
                        kind: StageKind::BaseDft(stage(t, TwiddlePlacement::Outputs, Addressing::Natural)),
                        src: Buffer::Data,
                        dst: Buffer::Data,
                    });
                }
            }
            // Decimation in time, innermost stage first; P folded into the
            // first stage's reads unless the input is already digit-reversed.
            (_, _) => {
                let gather = order == Order::Natural;
                for (i, t) in (0..s).rev().enumerate() {
                    let input = if gather && i == 0 {
                        Addressing::DigitReversed
                    } else {
                        Addressing::Natural
                    };
                    let (src, dst) = route(i, gather);
                    stages.push(Stage {
                        kind: StageKind::BaseDft(stage(t, TwiddlePlacement::Inputs, input)),
                        src,
                        dst,
                    });
                }
            }
        }
        if direction == Direction::Inverse && n > 1 {
            stages.push(Stage {
                kind: StageKind::Scale,
                src: Buffer::Data,
                dst: Buffer::Data,
            });
        }
        Ok(Plan {
            n,
            k,
            direction,
            order,
            radices,
            stages,
        })
    }

    /// N.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always false: N ≥ 1 (provided for symmetry with `len`).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// k, the number of digits of the field (base cases divide 2k).
    pub fn digits(&self) -> usize {
        self.k
    }

    /// Forward or inverse.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The order of the frequency-domain side.
    pub fn order(&self) -> Order {
        self.order
    }

    /// K_1, …, K_s (outermost first): 2k repeated, then one smaller factor if
    /// N is not a power of 2k (mixed radix). N = 1 has no radices.
    pub fn radices(&self) -> &[usize] {
        &self.radices
    }

    /// The stages, in execution order.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// Elements of scratch the plan needs: N when a digit reversal is folded
    /// into a multi-stage plan, else 0.
    pub fn scratch_len(&self) -> usize {
        let uses_scratch = self
            .stages
            .iter()
            .any(|s| s.src == Buffer::Scratch || s.dst == Buffer::Scratch);
        if uses_scratch { self.n } else { 0 }
    }

    /// M = N/2k, the length of the twiddle table w^m (m < M), w = ω_N for a
    /// forward plan and ω_N^{-1} for an inverse one; 0 when no stage has
    /// twiddles (N ≤ 2k).
    pub fn twiddle_table_len(&self) -> usize {
        if self.n > 2 * self.k { self.n / (2 * self.k) } else { 0 }
    }

    /// Splits a twiddle exponent e < N as e = q·M + m (M = N/2k, m < M), so
    /// that w^e = r^(±q) · table\[m\], with w^M = ω_N^(±N/2k) = r^(±1). Returns
    /// (q, m); q < 2k. Below N = 2k (twiddles only in plans of smaller
    /// radices, [`Plan::try_with_max_radix`]) ω_N = r^(2k/N): q = e·2k/N and
    /// m = 0.
    pub fn split_exponent(&self, e: usize) -> (usize, usize) {
        // M = N/2k is a power of two: a shift and a mask, no division
        // (executors call this once per twiddle).
        let (n_bits, base_bits) = (self.n.trailing_zeros(), (2 * self.k).trailing_zeros());
        if n_bits < base_bits {
            return (e << (base_bits - n_bits), 0);
        }
        let bits = n_bits - base_bits;
        (e >> bits, e & ((1 << bits) - 1))
    }

    /// The mixed-radix digit reversal P of [`Plan::radices`]: writing
    /// ℓ = d_1·(K_2⋯K_s) + … + d_s (d_t < K_t), it returns
    /// d_1 + K_1·(d_2 + K_2·(d_3 + …)). The time-domain index that a
    /// decimation-in-time plan reads at logical position ℓ, and the frequency
    /// index held at position ℓ in [`Order::DigitReversed`] order.
    pub fn digit_reverse(&self, mut position: usize) -> usize {
        let mut out = 0;
        let mut weight = self.n;
        for &radix in self.radices.iter().rev() {
            weight /= radix;
            out += (position % radix) * weight;
            position /= radix;
        }
        out
    }

    /// Exact counts of one stage (per transform).
    pub fn stage_counts(&self, stage: &Stage) -> OpCounts {
        let n = self.n;
        match stage.kind {
            StageKind::Scale => OpCounts {
                full_muls: n,
                reads: n,
                writes: n,
                ..OpCounts::default()
            },
            StageKind::BaseDft(d) => {
                let dfts = d.blocks * d.stride;
                let program = codelet::Codelet::new(d.radix);
                let (tw_shifts, tw_muls) = match d.twiddles {
                    None => (0, 0),
                    Some(t) => self.twiddle_counts(d.radix, d.stride, t.step),
                };
                OpCounts {
                    base_dfts: dfts,
                    butterflies: dfts * program.butterflies(),
                    shifts: dfts * program.shifts() + d.blocks * tw_shifts,
                    full_muls: d.blocks * tw_muls,
                    reads: n,
                    writes: n,
                }
            }
        }
    }

    /// Counts summed over every stage.
    pub fn counts(&self) -> OpCounts {
        self.stages
            .iter()
            .fold(OpCounts::default(), |acc, s| acc + self.stage_counts(s))
    }

    /// (shifts, full multiplications) of one block of D_{K,B} with exponents
    /// i·b·step: a table entry is needed when m ≠ 0, a shift when q ≠ 0.
    fn twiddle_counts(&self, radix: usize, stride: usize, step: usize) -> (usize, usize) {
        let m_len = self.twiddle_table_len().max(1);
        let mut shifts = 0;
        let mut muls = 0;
        for i in 1..radix {
            let unit = i * step;
            // b with unit·b ≥ M: b ≥ ceil(M / unit).
            let first_shifted = m_len.div_ceil(unit);
            shifts += stride.saturating_sub(first_shifted);
            // b with unit·b ≡ 0 (mod M) are multiples of M / gcd(unit, M).
            let period = m_len >> unit.trailing_zeros().min(m_len.trailing_zeros());
            muls += stride - stride.div_ceil(period);
        }
        (shifts, muls)
    }
}

/// 2k repeated while it divides what is left, then the remainder (< 2k).
fn radices(n: usize, max_base: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut left = n;
    while left > 1 {
        let r = left.min(max_base);
        out.push(r);
        left /= r;
    }
    out
}
