//! The launches of a plan: one kernel per stage, each with its
//! [`StageParams`] (the C struct `GfpfStageParams` of kernels/gfpf_fft.cu).

use gfpf_plan::{Addressing, Buffer, CodeletTwiddles, Direction, Plan, Stage, StageKind, TwiddlePlacement};

use gfpf_kernels::{
    ELEMENT_TEAM_PAIR_COLUMNS, Kernel, STRIDED_LANE_TILES_MIN_K, TeamTile, device_elementwise_kernels,
    element_team_pair_mma_available, element_team_pair_tile, element_team_tile, lane_digits, lane_kernels_available,
    lane_segment, lane_tile, scale_mma_available, split_team_tile, team_pair_tile, team_tile,
    tensor::{split_twiddle_bits, split_twiddle_entries},
    tile_dfts,
};

/// The most tables a [`Kernel::ElementTeamPairMma`] launch may read ([`DeviceShape::tensor_twiddles_max`] on every device): 4096 of 512
/// bytes (2 MiB, gfpf_kernels::tensor::SHARED_TWIDDLE_WORDS), which stay
/// in an H100's 50 MB L2 beside the data, as the twiddle table's 4 MiB do
/// ([`FULL_TWIDDLE_TABLE_MAX_BYTES`]). One a (c, lo) twiddle, s·R, where
/// they fit (t8 2^20's pair of strides 16 and 256: 256), or streamed from
/// device memory up to [`TENSOR_STREAMED_TWIDDLES_MAX`] (the pair of 4096
/// and 65536: 65536, 32 MiB, its second stage's on the threads); else one
/// an exponent's low and one its high
/// half, two products a twiddle
/// ([`gfpf_kernels::tensor::split_twiddle_entries`], 2048 at 2^20, where
/// nothing is streamed); else none (products on the threads).
pub const TENSOR_TWIDDLES_MAX: usize = 4096;

/// The most tables, past [`TENSOR_TWIDDLES_MAX`], that a
/// [`Kernel::ElementTeamPairMma`] launch reads one a (c, lo) twiddle from
/// device memory for its first stage's twiddles
/// ([`DeviceShape::tensor_streamed_twiddles_max`]): 65536 of 512 bytes, 32
/// MiB, where the split tables would take two products a twiddle. Each
/// table serves sixteen elements (a column's), so streaming them adds 25%
/// to the launch's data bytes (512 a table against 16 × 64 read and
/// written; 47% when a table was 960 bytes), whatever the transform's
/// length or batch. They took one product on the tensor cores an element
/// off t8 2^20's second pair (s = 4096: 8.6k → 7.3k instructions a thread,
/// `cargo xtask gpu-model --transform t8:20`, H100, 2026-11-28). Its
/// second stage's twiddles stay on the threads: streamed beside them as
/// A's (c, hi) tables with B's R², they took two products on the tensor
/// cores for one on the threads, which cost less once a warp's butterflies
/// took its shift fixed in the code (6.0k → 5.5k instructions on the
/// path, 2026-11-30). A device holds the tables while the plan lives (32
/// MiB at 2^20, beside the 64 MiB of a transform's data).
pub const TENSOR_STREAMED_TWIDDLES_MAX: usize = 65536;

/// Threads per block of every launch but the tiled stages'. One thread holds
/// a whole DFT_K of k-digit elements (local memory), so blocks are kept small.
pub const THREADS_PER_BLOCK: u32 = 128;

/// Threads per block of a launch of `kernel` over k digits: a tiled stage's
/// block has one thread per DFT of its tile ([`tile_dfts`]), a tiled lane
/// stage's k per DFT ([`lane_tile`]), a team stage's as [`team_tile`] or
/// [`element_team_tile`] says.
pub fn block_threads(kernel: &Kernel, k: usize) -> u32 {
    match *kernel {
        Kernel::TiledDft { radix, .. } => tile_dfts(radix, k).map_or(1, |t| t as u32),
        Kernel::LaneTiledDft { radix, .. } => lane_tile(radix, k).map_or(THREADS_PER_BLOCK, |t| t.threads as u32),
        Kernel::TeamDft { radix, .. } => team_tile(radix, k).map_or(THREADS_PER_BLOCK, |t| t.threads as u32),
        Kernel::SplitTeamDft { radix, .. } => split_team_tile(radix, k).map_or(THREADS_PER_BLOCK, |t| t.threads as u32),
        Kernel::ElementTeamDft { radix, .. } | Kernel::ElementTeamDftMma { radix, .. } => {
            element_team_tile(radix, k).map_or(THREADS_PER_BLOCK, |t| t.threads as u32)
        }
        Kernel::ElementTeamPair { radix, .. }
        | Kernel::ElementTeamPairMma { radix, .. }
        | Kernel::ElementTeamPairRowsMma { radix, .. } => {
            element_team_pair_tile(radix, k).map_or(THREADS_PER_BLOCK, |t| t.threads as u32)
        }
        Kernel::TeamPair { radix, .. } => team_pair_tile(radix, k).map_or(THREADS_PER_BLOCK, |t| t.threads as u32),
        Kernel::ScaleMma => gfpf_kernels::SCALE_MMA_THREADS as u32,
        Kernel::ScaleElements | Kernel::PointwiseMulElements => gfpf_kernels::ELEMENTWISE_THREADS as u32,
        _ => THREADS_PER_BLOCK,
    }
}

/// Bytes of dynamic shared memory each block of a launch of `kernel` over k
/// digits takes: the tile of [`Kernel::ElementTeamPair`] (above the 48 KiB
/// a block's static shared memory allows at t8), none for the others.
pub fn dynamic_shared_bytes(kernel: &Kernel, k: usize) -> u32 {
    match *kernel {
        Kernel::ElementTeamPair { radix, .. }
        | Kernel::ElementTeamPairMma { radix, .. }
        | Kernel::ElementTeamPairRowsMma { radix, .. } => {
            element_team_pair_tile(radix, k).map_or(0, |t| (t.words * 8) as u32)
        }
        _ => 0,
    }
}

/// The fewest threads a stage must take as teams of threads on whole
/// elements ([`Kernel::ElementTeamDft`]) to run as them on an H100 (132
/// SMs): below, its DFTs run as teams of segments ([`Kernel::TeamDft`]).
/// Other devices scale it by their SMs ([`DeviceShape::element_teams_min_threads`]).
/// An element team's thread runs whole products, about 7.2k instructions
/// on its path for a twiddled DFT_16 at t8 where a segment's lane runs
/// 2.4k, with a third of the instructions in all. At 2^16 threads (half a
/// wave of element teams, 1024 an SM) the same stage as teams of segments
/// takes eight times the threads, three waves of 1536 an SM, whose paths
/// add up to the element team's one: from there the fewer instructions win.
/// Model (`cargo xtask gpu-model --fit --transform`, H100, 2026-11-27,
/// fitted and floor, teams of threads against teams of segments): t8 2^17
/// 0.200 and 0.098 ms against 0.201 and 0.171, p8 2^17 0.203 and 0.099
/// against 0.206 and 0.175, t4 2^17 0.111 and 0.054 against 0.146 and
/// 0.097, t8 32 × 2^12 0.123 and 0.058 against 0.127 and 0.108, 64 × 2^11
/// 0.123 and 0.060 against 0.121 and 0.102; below, at 2^15 threads, t8 2^16
/// 0.176 and 0.085 against 0.118 and 0.081, t4 2^16 0.103 and 0.053
/// against 0.077 and 0.053. A model, until a GPU measures it.
pub const ELEMENT_TEAMS_MIN_THREADS: u64 = 1 << 16;

/// The SMs the device's stage pairing was modelled on: an H100's 132.
/// Stages by teams of segments pair ([`Kernel::TeamPair`]) only where the
/// pair has at least one block an SM and no more waves of them than each
/// one-stage launch has of its own ([`team_pair_fits`]).
pub const TEAM_PAIRS_SMS: usize = 132;

/// What the launch choices depend on in a device, as its driver reports
/// it: the device-filling thresholds ([`ELEMENT_TEAMS_MIN_THREADS`],
/// [`team_pair_fits`]) scale with its SMs, and stages pair only where the
/// pair's shared memory fits a block. The rules were modelled on an H100
/// ([`DeviceShape::H100`]); on another device they are the same rules at its
/// SM count, not a model of that device (whose threads an SM, bandwidth and
/// clocks differ too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceShape {
    /// Streaming multiprocessors (`CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT`).
    pub multiprocessors: u32,
    /// The most shared memory (bytes) a block may take where its kernel
    /// asks (`CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN`): 227
    /// KB on an H100, 163 KB on an A100, 99 KB on compute capability 8.6 and
    /// 8.9 (RTX 30 and 40, A10, L4, L40), 64 KiB on 7.5.
    pub max_shared_bytes_per_block: u32,
    /// Whether the tensor cores take int8 `mma.m16n8k32` (compute
    /// capability 8.0 and later), which [`Kernel::ElementTeamPairMma`] runs.
    pub tensor_cores: bool,
    /// The most twiddle tables a [`Kernel::ElementTeamPairMma`] launch may
    /// read: [`TENSOR_TWIDDLES_MAX`] on every device (tests lower it to
    /// run the split tables on short transforms).
    pub tensor_twiddles_max: usize,
    /// The most it may read from device memory past those, one a (c, lo)
    /// twiddle: [`TENSOR_STREAMED_TWIDDLES_MAX`] on every device (0:
    /// never).
    pub tensor_streamed_twiddles_max: usize,
    /// Whether a tensor-core pair of s = R gives its column and row
    /// twiddles to the stride-1 stage beside it
    /// ([`fold_pair_twiddles_into_stride_one`]): on every device (tests
    /// turn it off to run the pair's own passes on short transforms).
    pub fold_pair_twiddles: bool,
    /// Whether the field's kernels read the tensor cores' tables (k = 8
    /// and r in their range, [`gfpf_kernels::tensor::shared_twiddles_available`];
    /// [`DeviceShape::for_field`] sets it): where not, their pairs make
    /// their products on the threads from the twiddle table, and an
    /// inverse's scale by N^{-1} keeps its launch
    /// ([`fold_scale_into_tables`] would leave it undone).
    pub field_takes_tensor_tables: bool,
}

impl DeviceShape {
    /// The model's machine, an H100 SXM: 132 SMs, 227 KiB a block.
    pub const H100: DeviceShape = DeviceShape {
        multiprocessors: TEAM_PAIRS_SMS as u32,
        max_shared_bytes_per_block: 232_448,
        tensor_cores: true,
        tensor_twiddles_max: TENSOR_TWIDDLES_MAX,
        tensor_streamed_twiddles_max: TENSOR_STREAMED_TWIDDLES_MAX,
        fold_pair_twiddles: true,
        field_takes_tensor_tables: true,
    };

    /// This device's shape for `field`'s transforms: whether its kernels
    /// read the tensor cores' tables ([`DeviceShape::field_takes_tensor_tables`]).
    pub fn for_field<const K: usize>(self, field: &gfpf_field::Field<K>) -> DeviceShape {
        DeviceShape {
            field_takes_tensor_tables: gfpf_kernels::tensor::shared_twiddles_available(
                &gfpf_kernels::DeviceConstants::of(field),
            ),
            ..self
        }
    }

    /// The fewest threads a stage takes as teams of threads on whole
    /// elements here: [`ELEMENT_TEAMS_MIN_THREADS`] in proportion to the
    /// SMs (2^16 on an H100, about 54k on an A100's 108, 29k on an L4's 58).
    pub fn element_teams_min_threads(&self) -> u64 {
        (ELEMENT_TEAMS_MIN_THREADS * u64::from(self.multiprocessors.max(1))).div_ceil(TEAM_PAIRS_SMS as u64)
    }
}

/// Whether two stages of DFT_`radix` over k digits by teams of segments,
/// `supers` super-DFTs of radix² elements, run faster paired on a device of
/// `sms` SMs than one a launch, by the model's reckoning: a pair puts a super-DFT's
/// radix DFTs in one block (1024 threads at t8, one block an SM) where a
/// one-stage launch spreads them four to a block (256 threads, six an SM),
/// so the pair needs at least one block an SM (with fewer it
/// issues its instructions on fewer SMs) and no more waves than a stage
/// (each of its threads runs both stages' paths). Model (`cargo xtask
/// gpu-model`, 2026-11-27, t8, H100, fitted and floor): 2^12 (16 blocks) paired
/// 0.047 and 0.032 ms against 0.051 and 0.031 in three launches (0.041
/// and 0.023 since its stages run as split teams, [`split_team_tile_on`]); 2^16 (256
/// blocks, 2 waves each) 0.123 and 0.081 against 0.122 and 0.085; 2^17
/// (512 blocks, 4 waves against 3) 0.229 and 0.168 against 0.201 and 0.171.
pub fn team_pair_fits(radix: usize, k: usize, supers: usize, sms: usize) -> bool {
    let (Some(single), Some(pair)) = (team_tile(radix, k), team_pair_tile(radix, k)) else {
        return false;
    };
    let sm_threads = team_sm_threads(k) as usize;
    let sms = sms.max(1);
    let waves = |blocks: usize, threads: usize| blocks.div_ceil(sms * (sm_threads / threads).max(1));
    let single_blocks = supers * radix / single.dfts;
    supers >= sms && waves(supers, pair.threads) <= waves(single_blocks, single.threads)
}

/// Threads an SM the team kernels' launch bounds allow over k digits (1536
/// with one digit a lane, 1024 with two, 512 with four: `GFPF_TEAM_SM_THREADS`
/// in kernels/gfpf_fft.cu, sm_90).
fn team_sm_threads(k: usize) -> u64 {
    match lane_digits(k) {
        1 => 1536,
        2 => 1024,
        _ => 512,
    }
}

/// The split teams' tile ([`gfpf_kernels::split_team_tile`]) a stage of
/// `dfts` DFT_`radix` over k digits runs as ([`Kernel::SplitTeamDft`]), or
/// `None`: where they have a tile and their launch fits one wave of the
/// device (its SMs times the team kernels' threads an SM).
/// Within a wave a lane's path is the launch's time, and a split team's
/// lane runs half the products and carry chains of a team's; beyond, twice
/// the threads take as many more waves, and the plain stages' second side
/// (whose shift stays on the difference's path) doubles their instructions.
/// Model (`cargo xtask gpu-model --contest`, H100, 2026-11-27, fitted and
/// floor, split teams everywhere they have a tile against none): t8 2^12
/// 40.5 and 23.4 µs against 51.2 and 30.9, 2^14 51.9 against 67.7; 2^15
/// 85.3 against 69.6, 2^17 272 against 201, t16 2^21 7.32 ms against
/// 6.73.
pub fn split_team_tile_on(radix: usize, k: usize, dfts: u64, device: &DeviceShape) -> Option<TeamTile> {
    split_team_tile(radix, k).filter(|t| {
        dfts * (lane_segment(k) * t.team) as u64 <= u64::from(device.multiprocessors.max(1)) * team_sm_threads(k)
    })
}

/// The largest twiddle table (bytes) the device keeps whole: w^e for every
/// exponent e < N, so that a twiddle is one product where the plan's table
/// (M = N/2k entries, w^e = r^(±q)·table\[m\]) also takes a shift by r^q
/// (on a split team's lane 168 instructions of a twiddled DFT_16's 1.1k at
/// t8). See [`device_twiddle_entries`].
pub const FULL_TWIDDLE_TABLE_MAX_BYTES: usize = 4 << 20;

/// Entries of the device's twiddle table for N over k digits
/// ([`crate::device_twiddle_table`], the stages' `table_len` and
/// `twiddle_bits`): N where N entries of k words take at most
/// [`FULL_TWIDDLE_TABLE_MAX_BYTES`] (no twiddle is shifted), else the
/// plan's M = N/2k; 1 up to N = 2k, where no table is read (twiddles are
/// powers of r, exponents in its units).
pub fn device_twiddle_entries(n: usize, k: usize) -> usize {
    if n <= 2 * k {
        1
    } else if n.saturating_mul(k).saturating_mul(8) <= FULL_TWIDDLE_TABLE_MAX_BYTES {
        n
    } else {
        n / (2 * k)
    }
}

/// The most radices a plan can have (N < 2^64, every radix ≥ 2).
pub const MAX_RADICES: usize = 64;

/// The parameters of one launch, laid out as `GfpfStageParams` in
/// kernels/gfpf_fft.cu (every field a 64-bit word, so no padding rules are
/// involved). Addresses are device addresses, or host addresses for the host
/// emulator.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageParams {
    /// Source buffer (digit-major).
    pub src: u64,
    /// Destination buffer (digit-major).
    pub dst: u64,
    /// Twiddle table (element-major: entry m is words m·k … m·k + k − 1), or
    /// N^{-1} (k words) for [`Kernel::Scale`].
    pub table: u64,
    /// Elements per digit plane of `src` and `dst` (the whole batch).
    pub pitch: u64,
    /// Elements of the twiddle table: M = N/2k (at least 1).
    pub table_len: u64,
    /// Threads: DFTs (or elements, for scale) in the whole batch.
    pub threads: u64,
    /// log2 N.
    pub log2_n: u64,
    /// log2 A: blocks of K·B elements per transform.
    pub log2_blocks: u64,
    /// log2 B: distance between the K inputs of one DFT.
    pub log2_stride: u64,
    /// The twiddle exponent of slot i at offset b is i·b·step (0: no twiddles).
    pub step: u64,
    /// log2 M: exponents split as e = q·M + m.
    pub twiddle_bits: u64,
    /// 1 for an inverse plan.
    pub inverse: u64,
    /// 1 when logical position ℓ is read from P(ℓ).
    pub digit_reversed_input: u64,
    /// The plan's number of radices.
    pub radix_count: u64,
    /// log2 of each radix, outermost first.
    pub radix_log2: [u64; MAX_RADICES],
    /// The tensor cores' twiddle tables of a [`Kernel::ElementTeamPairMma`]
    /// launch ([`crate::tensor_twiddle_table`]), else 0.
    pub tensor_table: u64,
    /// How those tables are indexed: 0, one a twiddle (entry c·R + j);
    /// b > 0, one an exponent's low b bits and one its high bits, two
    /// products a twiddle ([`gfpf_kernels::tensor::split_twiddle_bits`]).
    pub tensor_split_bits: u64,
    /// 1 where the tables' B factors ([`Kernel::ElementTeamPairRowsMma`]'s,
    /// or [`Kernel::ElementTeamPairMma`]'s with both stages) carry N^{-1}:
    /// an inverse's scale folded into the one factor every element of the
    /// launch takes, in place of the scale's launch. Read on the host only
    /// (what changes is the tables).
    pub tensor_scale: u64,
    /// On a stride-1 [`Kernel::ElementTeamDft`] that takes the column and
    /// row twiddles of the tensor-core pair beside it (in time the next
    /// launch's, onto its outputs; in frequency the previous launch's, onto
    /// its inputs), and on that pair, which keeps B alone as a
    /// [`Kernel::ElementTeamPairRowsMma`]: the pair's twiddle unit u
    /// ([`fold_pair_twiddles_into_stride_one`]); else 0.
    pub folded_step: u64,
}

// SAFETY: StageParams is #[repr(C)], made only of u64 words (no padding, no
// pointers the driver would need to translate), and matches GfpfStageParams
// in kernels/gfpf_fft.cu field for field; kernels take it by value.
unsafe impl cudarc::driver::DeviceRepr for StageParams {}

/// One kernel launch of a plan, before buffer addresses are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    /// The kernel.
    pub kernel: Kernel,
    /// Which buffer the kernel reads.
    pub src: Buffer,
    /// Which buffer it writes.
    pub dst: Buffer,
    /// Everything but the three addresses.
    pub params: StageParams,
}

impl Launch {
    /// The parameters with the buffers' addresses filled in: `data` and
    /// `scratch` for [`Buffer::Data`] and [`Buffer::Scratch`], `table` the
    /// twiddle table (base DFTs), `n_inv` the k words of N^{-1} (scale) and
    /// `tensor_table` the launch's [`crate::tensor_twiddle_table`]
    /// ([`Kernel::ElementTeamPairMma`], [`Kernel::ScaleMma`]; 0 for the
    /// others).
    pub fn bind(&self, data: u64, scratch: u64, table: u64, n_inv: u64, tensor_table: u64) -> StageParams {
        let address = |b: Buffer| match b {
            Buffer::Data => data,
            Buffer::Scratch => scratch,
        };
        let mut params = self.params;
        params.src = address(self.src);
        params.dst = address(self.dst);
        params.table = match self.kernel {
            // ScaleMma's fallback (r out of the tensor cores' range) reads it.
            Kernel::Scale | Kernel::LaneScale | Kernel::ScaleMma | Kernel::ScaleElements => n_inv,
            Kernel::BaseDft { .. }
            | Kernel::TiledDft { .. }
            | Kernel::LaneDft { .. }
            | Kernel::LaneTiledDft { .. }
            | Kernel::TeamDft { .. }
            | Kernel::SplitTeamDft { .. }
            | Kernel::ElementTeamDft { .. }
            | Kernel::ElementTeamDftMma { .. }
            | Kernel::ElementTeamPair { .. }
            | Kernel::ElementTeamPairMma { .. }
            | Kernel::ElementTeamPairRowsMma { .. }
            | Kernel::TeamPair { .. } => table,
            Kernel::PointwiseMul | Kernel::LanePointwiseMul | Kernel::PointwiseMulElements => 0,
        };
        params.tensor_table = match self.kernel {
            Kernel::ElementTeamPairMma { .. }
            | Kernel::ElementTeamPairRowsMma { .. }
            | Kernel::ElementTeamDftMma { .. }
            | Kernel::ScaleMma => tensor_table,
            _ => 0,
        };
        params
    }
}

/// The parameters a launch's tensor-core tables follow from
/// ([`crate::tensor_twiddle_table`]): a [`Kernel::ElementTeamPairMma`]'s or
/// [`Kernel::ElementTeamPairRowsMma`]'s first stage's (the launch's own), a
/// [`Kernel::ElementTeamDftMma`]'s (its `folded_step`), a
/// [`Kernel::ScaleMma`]'s (its N);
/// `None` for launches that read no such table.
pub fn tensor_stage_params(launch: &Launch) -> Option<StageParams> {
    matches!(
        launch.kernel,
        Kernel::ElementTeamPairMma { .. }
            | Kernel::ElementTeamPairRowsMma { .. }
            | Kernel::ElementTeamDftMma { .. }
            | Kernel::ScaleMma
    )
    .then_some(launch.params)
}

/// Which kernels run the base-DFT stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageKernels {
    /// One thread per DFT everywhere (the kernels the device ran before its
    /// lane kernels; the emulator keeps them as a second family).
    ThreadPerDft,
    /// Stages of stride 1 as [`Kernel::TiledDft`] where a tile fits (not in
    /// place from a digit-reversed input). Coalesced loads and stores, but a
    /// whole DFT of k-digit elements per thread in shared memory: at t8
    /// DFT_16 (32 threads and 32 KiB a block) ptxas's report allows 9%
    /// theoretical occupancy on sm_90 against the untiled kernel's 31%
    /// (`cargo xtask kernels --report`, NVRTC 12.9), so the device does not
    /// use them until a GPU measurement says otherwise; the emulator runs
    /// them, as the kernels with barriers and shared memory.
    TiledStrideOne,
    /// Every base-DFT stage as [`Kernel::LaneDft`] (an element over the
    /// S = min(k, 32) lanes of a warp segment, k/S digits a lane, S threads
    /// per DFT) where [`lane_kernels_available`], elsewhere one thread per
    /// DFT: what the device runs. Stages of stride 1 (not in place from a digit-reversed
    /// input), and from k = [`STRIDED_LANE_TILES_MIN_K`] strided ones of
    /// natural input, run as [`Kernel::LaneTiledDft`]: through shared
    /// memory, whole sectors.
    DigitsOverLanes,
    /// As [`StageKernels::DigitsOverLanes`], with the stages it would tile
    /// (and, below k = [`STRIDED_LANE_TILES_MIN_K`], strided ones of
    /// natural input and stride ≥ the tile's DFTs) run as
    /// [`Kernel::TeamDft`] where a team's tile fits
    /// ([`gfpf_kernels::team_tile`]): each DFT shared by a team of up to
    /// four warps' segments, what the device runs from k = 32; as
    /// [`Kernel::SplitTeamDft`] (a segment an element) where
    /// [`split_team_tile_on`] on the device.
    DftTeams,
    /// As [`StageKernels::DftTeams`], each team's DFT computed by radix/2
    /// threads on whole elements ([`Kernel::ElementTeamDft`]) wherever
    /// [`gfpf_kernels::element_team_tile`] has a tile (k ≤
    /// [`gfpf_kernels::ELEMENT_TEAMS_MAX_K`]) and the stage's columns allow,
    /// whatever the stage's size (the emulator's and the model's family).
    ElementTeams,
    /// What the device runs up to k = [`gfpf_kernels::ELEMENT_TEAMS_MAX_K`]:
    /// [`StageKernels::ElementTeams`] for the stages that take at least
    /// [`ELEMENT_TEAMS_MIN_THREADS`] threads so (that fill the device),
    /// [`StageKernels::DftTeams`] for the others.
    Teams,
}

impl StageKernels {
    /// What the device runs over k digits ([`gfpf_kernels::device_stage_kernels`]):
    /// its modules hold only these kernels.
    pub fn for_device(k: usize) -> Self {
        if gfpf_kernels::element_team_kernels_available(k) {
            StageKernels::Teams
        } else if gfpf_kernels::team_kernels_available(k) {
            StageKernels::DftTeams
        } else {
            StageKernels::ThreadPerDft
        }
    }
}

/// The launches that run `plan` on a batch of `batch` transforms stored
/// digit-major with pitch batch·N: one per stage, in order, with the
/// device's stage kernels ([`StageKernels::for_device`]).
pub fn launches(plan: &Plan, batch: usize) -> Vec<Launch> {
    launches_with(plan, batch, StageKernels::for_device(plan.digits()))
}

/// As [`launches`], on `device` ([`crate::CudaDevice::shape`]): teams of
/// threads from its [`DeviceShape::element_teams_min_threads`], teams of
/// segments paired by [`team_pair_fits`] at its SMs, and stages paired
/// only where the pair's [`dynamic_shared_bytes`] fit its blocks, one stage
/// a launch elsewhere. At t8 a pair of teams of threads takes 106.7 KiB, past
/// the 99 KB of compute capability 8.6 and 8.9 (RTX 30 and 40, A10, L4,
/// L40): there 2^20 runs in five launches, as it did before the pairs.
pub fn launches_on(plan: &Plan, batch: usize, device: &DeviceShape) -> Vec<Launch> {
    launches_with_on(plan, batch, StageKernels::for_device(plan.digits()), device)
}

/// Every kernel a plan's launches on `device` take, whatever the batch:
/// what a [`crate::CudaFft`] loads. A batch's stages run as split teams up
/// to a wave, as teams of segments past it (in pairs where
/// [`team_pair_fits`], which a wave's rounding can turn on and off as the
/// batch grows) and, up to k = 16, as teams of threads once they fill the
/// device ([`DeviceShape::element_teams_min_threads`], batch·N/2 threads;
/// every stage of a plan takes the same threads). So up to k = 16 every
/// batch until the first that fills the device (at most 2^17 batches, for N
/// = 2, whose plans have no pairs), above the first past a wave.
pub fn kernels_of_any_batch(plan: &Plan, device: &DeviceShape) -> Vec<Kernel> {
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut take = |batch: usize| {
        for launch in launches_on(plan, batch, device) {
            if !kernels.contains(&launch.kernel) {
                kernels.push(launch.kernel);
            }
        }
    };
    if StageKernels::for_device(plan.digits()) == StageKernels::Teams {
        let per_transform = (plan.len() as u64 / 2).max(1);
        let filled = device.element_teams_min_threads().div_ceil(per_transform);
        for batch in 1..=usize::try_from(filled).unwrap_or(usize::MAX).max(1) {
            take(batch);
        }
    } else {
        // Split teams up to some batch, never past it (its threads grow).
        let split = |batch: usize| {
            launches_on(plan, batch, device)
                .iter()
                .any(|l| matches!(l.kernel, Kernel::SplitTeamDft { .. }))
        };
        // No batch past the device's resident team threads splits (a
        // stage has at least a DFT a transform: split_team_tile_on); the
        // search's former bound, 2^40, overflowed the scale stage's
        // threads (batch·N·lanes) at t16 2^20.
        let resident = u64::from(device.multiprocessors.max(1)) * team_sm_threads(plan.digits());
        let (mut split_up_to, mut past) = (1usize, usize::try_from(resident + 1).unwrap_or(usize::MAX));
        if split(1) {
            while past - split_up_to > 1 {
                let mid = split_up_to + (past - split_up_to) / 2;
                if split(mid) {
                    split_up_to = mid;
                } else {
                    past = mid;
                }
            }
        }
        take(1);
        take(past);
    }
    kernels
}

/// As [`launches`], with the base-DFT stages run by `stage_kernels`: with
/// the team families, two consecutive stages that both run as
/// [`Kernel::ElementTeamDft`] (or both as [`Kernel::TeamDft`]) are one
/// launch of [`Kernel::ElementTeamPair`] (or [`Kernel::TeamPair`])
/// wherever [`pair_stages`] allows (t8 2^20: five stages in three
/// launches; 2^12: three in two).
pub fn launches_with(plan: &Plan, batch: usize, stage_kernels: StageKernels) -> Vec<Launch> {
    launches_with_on(plan, batch, stage_kernels, &DeviceShape::H100)
}

/// [`launches_with`] on `device` ([`launches_on`]'s rules for it; the
/// emulator runs another device's launches with it).
pub fn launches_with_on(plan: &Plan, batch: usize, stage_kernels: StageKernels, device: &DeviceShape) -> Vec<Launch> {
    let shared_bytes = device.max_shared_bytes_per_block;
    let single = stage_launches(plan, batch, stage_kernels, device);
    if !matches!(
        stage_kernels,
        StageKernels::DftTeams | StageKernels::ElementTeams | StageKernels::Teams
    ) {
        return single;
    }
    let mut out = Vec::with_capacity(single.len() + 1);
    let mut t = 0;
    while t < single.len() {
        let paired = (t + 1 < single.len())
            .then(|| {
                pair_stages(
                    plan,
                    batch,
                    stage_kernels,
                    device,
                    (&plan.stages()[t], &single[t]),
                    (&plan.stages()[t + 1], &single[t + 1]),
                )
            })
            .flatten()
            .filter(|pair| dynamic_shared_bytes(&pair.kernel, plan.digits()) <= shared_bytes);
        match paired {
            Some(launch) => {
                out.push(launch);
                t += 2;
            }
            None => {
                out.push(single[t]);
                t += 1;
            }
        }
    }
    if device.fold_pair_twiddles {
        fold_pair_twiddles_into_stride_one(&mut out, device);
    }
    if device.field_takes_tensor_tables {
        fold_scale_into_tables(&mut out);
    }
    out
}

/// The (c, j) twiddles of a tensor-core pair of s = R with both stages
/// twiddled ([`Kernel::ElementTeamPairMma`] with both stages), taken by
/// the plain stride-1 stage beside it ([`Kernel::ElementTeamDft`]): in
/// time the stage before it, onto its outputs; in frequency the stage
/// after it, onto its inputs. There, on the twiddled side, a DFT's slot
/// is the pair's column c and the place m mod R² = hi·R + lo of its
/// elements (m·R … m·R + R − 1) the pair's j, so the pair's column twiddle
/// and its row's A are one twiddle, w^(c·(lo·R + hi)·u) (u: in time the
/// pair's step over R, in frequency its step): one product a slot, on the
/// stage's tensor cores ([`Kernel::ElementTeamDftMma`]) or threads
/// ([`folded_stage_on_tensor_cores`]), where the pair took two on the
/// tensor cores, sixteen lanes a twiddle. The pair keeps B alone
/// ([`Kernel::ElementTeamPairRowsMma`]); its `folded_step` marks it, for
/// its products on the threads where the field's r is out of the tensor
/// cores' range. Its tables are one a twiddle (`tensor_split_bits` 0)
/// wherever both stages take them.
fn fold_pair_twiddles_into_stride_one(launches: &mut [Launch], device: &DeviceShape) {
    for t in 0..launches.len().saturating_sub(1) {
        let (before, after) = launches.split_at_mut(t + 1);
        let (a, b) = (&mut before[t], &mut after[0]);
        let stride_one_plain = |l: &Launch, radix: usize| {
            l.kernel
                == Kernel::ElementTeamDft {
                    radix,
                    twiddles: CodeletTwiddles::None,
                }
                && l.params.log2_stride == 0
        };
        // The pair's s (its launch's stride in time, R times less in
        // frequency) and u (its step over R in time, its step in frequency).
        let pair = |l: &Launch| match l.kernel {
            Kernel::ElementTeamPairMma {
                radix,
                in_time,
                both_stages: true,
            } if l.params.tensor_split_bits == 0 => {
                let log2_r = u64::from(radix.trailing_zeros());
                let log2_s = if in_time {
                    l.params.log2_stride
                } else {
                    l.params.log2_stride.checked_sub(log2_r)?
                };
                let u = if in_time {
                    l.params.step >> log2_r
                } else {
                    l.params.step
                };
                (log2_s == log2_r && u != 0).then_some((radix, in_time, u))
            }
            _ => None,
        };
        let (stage, rows, radix, in_time, u) = if let Some((radix, true, u)) = pair(b)
            && stride_one_plain(a, radix)
        {
            (a, b, radix, true, u)
        } else if let Some((radix, false, u)) = pair(a)
            && stride_one_plain(b, radix)
        {
            (b, a, radix, false, u)
        } else {
            continue;
        };
        rows.kernel = Kernel::ElementTeamPairRowsMma { radix, in_time };
        rows.params.folded_step = u;
        stage.params.folded_step = u;
        stage.kernel = if folded_stage_on_tensor_cores(&stage.params, radix, device) {
            Kernel::ElementTeamDftMma { radix, in_time }
        } else {
            Kernel::ElementTeamDft {
                radix,
                twiddles: if in_time {
                    CodeletTwiddles::Outputs
                } else {
                    CodeletTwiddles::Inputs
                },
            }
        };
    }
}

/// Whether a stride-1 stage of DFT_`radix` with `params` (in teams of
/// radix/2 threads) takes its folded twiddles on the tensor cores
/// ([`Kernel::ElementTeamDftMma`]): its radix² × radix tables (4096 at t8,
/// 2 MiB) within the device's bound, and its blocks' radix DFTs sharing
/// their position's index modulo radix²: gathered from digit-reversed
/// input, radix neighbouring columns do from N = radix⁴ (their outputs'
/// top two digits the same); else DFTs radix² apart, which the batch's
/// DFTs must fill (a multiple of radix³). Elsewhere one product a slot on
/// the threads ([`Kernel::ElementTeamDft`]): a batch of 2^12 transforms
/// gathered would take its DFTs from radix transforms, a sector each.
fn folded_stage_on_tensor_cores(params: &StageParams, radix: usize, device: &DeviceShape) -> bool {
    let log2_r = u64::from(radix.trailing_zeros());
    let radix = radix as u64;
    let dfts = params.threads / (radix / 2);
    let gathered = params.digit_reversed_input != 0
        && params.radix_count > 0
        && params.radix_log2[params.radix_count as usize - 1] == log2_r;
    let shared = if gathered {
        params.log2_n >= 4 * log2_r
    } else {
        dfts.is_multiple_of(radix * radix * radix)
    };
    shared && radix * radix * radix <= device.tensor_twiddles_max as u64
}

/// An inverse's scale by N^{-1} (its last launch, in place) folded into
/// the tensor cores' tables of the first launch whose every element takes
/// one B factor there ([`Kernel::ElementTeamPairRowsMma`], the inverse's
/// first pair from digit-reversed order; [`Kernel::ElementTeamPairMma`]
/// with both stages, from natural order): its B tables times N^{-1}
/// ([`StageParams::tensor_scale`]) and the scale's pass gone. t8 2^20's
/// inverse from digit-reversed order: 0.050 ms of 0.368 at the floor
/// (gpu-model --transform t8:20 --product, H100 model, 2026-11-28).
fn fold_scale_into_tables(launches: &mut Vec<Launch>) {
    let Some(last) = launches.last() else {
        return;
    };
    let in_place_scale = matches!(
        last.kernel,
        Kernel::Scale | Kernel::LaneScale | Kernel::ScaleMma | Kernel::ScaleElements
    ) && last.src == last.dst;
    let takes_b = |l: &Launch| {
        matches!(
            l.kernel,
            Kernel::ElementTeamPairRowsMma { .. } | Kernel::ElementTeamPairMma { both_stages: true, .. }
        )
    };
    if !in_place_scale {
        return;
    }
    if let Some(launch) = launches.iter_mut().find(|l| takes_b(l)) {
        launch.params.tensor_scale = 1;
        launches.pop();
    }
}

/// The launch that runs two consecutive stages of `plan` (with their
/// single-stage launches) as one [`Kernel::ElementTeamPair`] or
/// [`Kernel::TeamPair`], or `None` where they do not pair: both must run as
/// [`Kernel::ElementTeamDft`] of one radix that has an
/// [`element_team_pair_tile`] (or both as [`Kernel::TeamDft`] of one that
/// has a [`team_pair_tile`]; with the device's [`StageKernels::Teams`], in
/// [`team_pair_fits`] at `device`'s SMs), read natural input,
/// and be the two halves of a DFT over radix² elements at a stride s: in
/// time (strides s and radix·s, twiddles none or on the inputs, then on
/// the inputs) or in frequency (radix·s and s, on the outputs, then on the
/// outputs or none), with s = 1 or at least [`ELEMENT_TEAM_PAIR_COLUMNS`]
/// for teams of threads (a block's columns, whole sectors; teams of
/// segments take one super-DFT a block), N ≥ 2k (exponents in units of ω_N),
/// and each stage's twiddle step its blocks, as the kernel derives the
/// second stage's parameters from the first's.
pub fn pair_stages(
    plan: &Plan,
    batch: usize,
    stage_kernels: StageKernels,
    device: &DeviceShape,
    first: (&Stage, &Launch),
    second: (&Stage, &Launch),
) -> Option<Launch> {
    let (
        (
            Stage {
                kind: StageKind::BaseDft(d1),
                ..
            },
            l1,
        ),
        (
            Stage {
                kind: StageKind::BaseDft(d2),
                ..
            },
            l2,
        ),
    ) = (first, second)
    else {
        return None;
    };
    let k = plan.digits();
    // Teams of threads, or of segments, in both stages.
    let (radix, radix2, first_twiddles, second_twiddles, threads_a_dft, segments) = match (l1.kernel, l2.kernel) {
        (
            Kernel::ElementTeamDft { radix, twiddles: a },
            Kernel::ElementTeamDft {
                radix: radix2,
                twiddles: b,
            },
        ) => (radix, radix2, a, b, element_team_pair_tile(radix, k)?.team, false),
        // Split or not, as a pair their DFTs take the pair's teams.
        (
            Kernel::TeamDft { radix, twiddles: a } | Kernel::SplitTeamDft { radix, twiddles: a },
            Kernel::TeamDft {
                radix: radix2,
                twiddles: b,
            }
            | Kernel::SplitTeamDft {
                radix: radix2,
                twiddles: b,
            },
        ) if stage_kernels != StageKernels::Teams
            || team_pair_fits(
                radix,
                k,
                batch * plan.len() / (radix * radix),
                device.multiprocessors as usize,
            ) =>
        {
            let tile = team_pair_tile(radix, k)?;
            (radix, radix2, a, b, tile.threads / radix, true)
        }
        _ => return None,
    };
    let steps_are_blocks = [d1, d2].iter().all(|d| d.twiddles.is_none_or(|t| t.step == d.blocks));
    let in_time = matches!(first_twiddles, CodeletTwiddles::None | CodeletTwiddles::Inputs)
        && second_twiddles == CodeletTwiddles::Inputs
        && d2.stride == d1.stride * radix;
    let in_frequency = first_twiddles == CodeletTwiddles::Outputs
        && matches!(second_twiddles, CodeletTwiddles::Outputs | CodeletTwiddles::None)
        && d1.stride == d2.stride * radix;
    let s = d1.stride.min(d2.stride);
    // Teams of segments take one super-DFT a block, whatever s.
    let pairs = radix == radix2
        && d1.input == Addressing::Natural
        && d2.input == Addressing::Natural
        && plan.len() >= 2 * k
        && steps_are_blocks
        && (in_time || in_frequency)
        && (segments || s == 1 || s >= ELEMENT_TEAM_PAIR_COLUMNS);
    pairs.then(|| {
        let mut params = l1.params;
        // R DFTs a super-DFT of R² elements, each its team's threads (R/2 in
        // teams of threads: N/2 a transform).
        params.threads = (batch * plan.len() / radix * threads_a_dft) as u64;
        let (first, second) = (first_twiddles, second_twiddles);
        // The twiddles a column of the tile shares (in time the first
        // stage's inputs, in frequency the second stage's outputs) on the
        // tensor cores where their tables, one a (c, j) twiddle (s·R) or
        // split by the exponent, stay within the device's
        // tensor_twiddles_max (in L2 beside the data), on a device whose
        // tensor cores take int8 m16n8k32.
        let both_twiddled = if in_time {
            first == CodeletTwiddles::Inputs
        } else {
            second == CodeletTwiddles::Outputs
        };
        let log2_n = plan.len().trailing_zeros();
        // One table a (c, lo) twiddle in L2 or streamed from device memory,
        // else split (in L2).
        let split_bits = if s * radix <= device.tensor_twiddles_max.max(device.tensor_streamed_twiddles_max) {
            Some(0)
        } else {
            (split_twiddle_entries(log2_n) <= device.tensor_twiddles_max).then(|| u64::from(split_twiddle_bits(log2_n)))
        };
        // Teams of threads whose device and field take the tensor cores'
        // products by a shared twiddle.
        let mma = !segments && device.tensor_cores && element_team_pair_mma_available(radix, k);
        let tensor = mma && both_twiddled && s >= ELEMENT_TEAM_PAIR_COLUMNS && split_bits.is_some();
        params.tensor_split_bits = if tensor { split_bits.unwrap_or(0) } else { 0 };
        // The other stage's twiddles too where the first tables are one a
        // twiddle and their s·R rows' and R² constants' tables stay in L2
        // beside them: a pair of s = R then gives its column's and A's to
        // the stride-1 stage beside it and keeps B's, whose products on the
        // tensor cores take a lane 1992 instructions where the threads' take
        // 2644 (t8, probes, sm_90). Where the first's are streamed from
        // device memory the other stage's stay on the threads: A's and B's
        // products there took 3478 (t8 2^20's second pair 6.0k → 5.5k
        // instructions on its path; gpu-model --transform t8:20, H100,
        // 2026-11-30). Products by split tables would take three a twiddle.
        let both_stages = split_bits == Some(0) && 2 * s * radix + radix * radix <= device.tensor_twiddles_max;
        // A pair of s = 1 whose other stage is plain: its twiddles are B
        // alone, R² tables.
        let rows_only = mma
            && s == 1
            && radix * radix <= device.tensor_twiddles_max
            && if in_time {
                first == CodeletTwiddles::None && second == CodeletTwiddles::Inputs
            } else {
                first == CodeletTwiddles::Outputs && second == CodeletTwiddles::None
            };
        Launch {
            kernel: if segments {
                Kernel::TeamPair { radix, first, second }
            } else if rows_only {
                Kernel::ElementTeamPairRowsMma { radix, in_time }
            } else if tensor {
                Kernel::ElementTeamPairMma {
                    radix,
                    in_time,
                    both_stages,
                }
            } else {
                Kernel::ElementTeamPair { radix, first, second }
            },
            src: l1.src,
            dst: l2.dst,
            params,
        }
    })
}

/// One launch a stage.
fn stage_launches(plan: &Plan, batch: usize, stage_kernels: StageKernels, device: &DeviceShape) -> Vec<Launch> {
    let n = plan.len();
    let log2 = |x: usize| u64::from(x.trailing_zeros());
    let mut radix_log2 = [0u64; MAX_RADICES];
    for (slot, &radix) in radix_log2.iter_mut().zip(plan.radices()) {
        *slot = log2(radix);
    }
    let twiddle_len = device_twiddle_entries(n, plan.digits());
    let base = StageParams {
        src: 0,
        dst: 0,
        table: 0,
        pitch: (batch * n) as u64,
        table_len: twiddle_len as u64,
        threads: 0,
        log2_n: log2(n),
        log2_blocks: 0,
        log2_stride: 0,
        step: 0,
        twiddle_bits: log2(twiddle_len),
        inverse: u64::from(plan.direction() == Direction::Inverse),
        digit_reversed_input: 0,
        radix_count: plan.radices().len() as u64,
        radix_log2,
        tensor_table: 0,
        tensor_split_bits: 0,
        tensor_scale: 0,
        folded_step: 0,
    };
    // (Field-by-field updates of a copy: struct-update syntax here hit a
    // rustc 1.95 internal compiler error, "broken MIR", on the array field.)
    let mut out = Vec::with_capacity(plan.stages().len());
    for stage in plan.stages() {
        let mut params = base;
        let kernel = match stage.kind {
            StageKind::Scale => {
                // Over lanes with the lane stage kernels, as the device runs
                // it; on the tensor cores where they take the field's
                // products by a constant (one element a thread).
                let device_families = matches!(
                    stage_kernels,
                    StageKernels::DigitsOverLanes
                        | StageKernels::DftTeams
                        | StageKernels::ElementTeams
                        | StageKernels::Teams
                );
                let (scale, per_element) = if !device_families {
                    let (scale, _, per_element) = device_elementwise_kernels(usize::MAX);
                    (scale, per_element)
                } else if device.tensor_cores && scale_mma_available(plan.digits()) {
                    (Kernel::ScaleMma, 1)
                } else {
                    let (scale, _, per_element) = device_elementwise_kernels(plan.digits());
                    (scale, per_element)
                };
                params.threads = (batch * n * per_element) as u64;
                scale
            }
            StageKind::BaseDft(d) => {
                params.threads = (batch * d.blocks * d.stride) as u64;
                params.log2_blocks = log2(d.blocks);
                params.log2_stride = log2(d.stride);
                // Below N = 2k (plans of smaller radices) ω_N = r^(2k/N) and
                // the table is empty: exponents in units of r
                // (Plan::split_exponent), so q = e·2k/N with m = 0.
                let r_units = (2 * plan.digits() / n).max(1) as u64;
                params.step = d.twiddles.map_or(0, |t| t.step as u64 * r_units);
                params.digit_reversed_input = u64::from(d.input == Addressing::DigitReversed);
                let twiddles = match d.twiddles.map(|t| t.placement) {
                    None => CodeletTwiddles::None,
                    Some(TwiddlePlacement::Inputs) => CodeletTwiddles::Inputs,
                    Some(TwiddlePlacement::Outputs) => CodeletTwiddles::Outputs,
                };
                // Stride 1: a block's DFTs own a run of consecutive elements,
                // which it can load and store whole (coalesced) through shared
                // memory; not in place from a digit-reversed input, whose reads
                // would cross other blocks' writes.
                let stride_one = d.stride == 1 && (d.input == Addressing::Natural || stage.src != stage.dst);
                let tiled = stage_kernels == StageKernels::TiledStrideOne
                    && stride_one
                    && tile_dfts(d.radix, plan.digits()).is_some();
                let lanes = matches!(
                    stage_kernels,
                    StageKernels::DigitsOverLanes
                        | StageKernels::DftTeams
                        | StageKernels::ElementTeams
                        | StageKernels::Teams
                ) && lane_kernels_available(plan.digits());
                // A team shares each DFT: stride 1, or strided from a
                // natural input with whole columns in a tile.
                let teams_take =
                    |t: &gfpf_kernels::TeamTile| stride_one || (d.input == Addressing::Natural && d.stride >= t.dfts);
                // Teams of threads where the stage fills the device, teams of
                // segments below (a shorter path a thread).
                let element_team = element_team_tile(d.radix, plan.digits()).filter(|t| {
                    teams_take(t)
                        && match stage_kernels {
                            StageKernels::ElementTeams => true,
                            StageKernels::Teams => params.threads * t.team as u64 >= device.element_teams_min_threads(),
                            _ => false,
                        }
                });
                let teams = matches!(
                    stage_kernels,
                    StageKernels::DftTeams | StageKernels::ElementTeams | StageKernels::Teams
                );
                let team =
                    team_tile(d.radix, plan.digits()).filter(|t| teams && element_team.is_none() && teams_take(t));
                if let Some(tile) = element_team {
                    params.threads *= tile.team as u64;
                    Kernel::ElementTeamDft {
                        radix: d.radix,
                        twiddles,
                    }
                } else if let Some(tile) = team {
                    let (segments, kernel) = match split_team_tile_on(d.radix, plan.digits(), params.threads, device) {
                        Some(split) => (
                            split.team,
                            Kernel::SplitTeamDft {
                                radix: d.radix,
                                twiddles,
                            },
                        ),
                        None => (
                            tile.team,
                            Kernel::TeamDft {
                                radix: d.radix,
                                twiddles,
                            },
                        ),
                    };
                    params.threads *= (lane_segment(plan.digits()) * segments) as u64;
                    kernel
                } else if lanes {
                    params.threads *= lane_segment(plan.digits()) as u64;
                    // Strided: a block's DFTs are neighbouring columns,
                    // input i of each one run of words (natural input).
                    let strided = plan.digits() >= STRIDED_LANE_TILES_MIN_K
                        && d.input == Addressing::Natural
                        && lane_tile(d.radix, plan.digits()).is_some_and(|t| d.stride >= t.dfts);
                    if stride_one || strided {
                        Kernel::LaneTiledDft {
                            radix: d.radix,
                            twiddles,
                        }
                    } else {
                        Kernel::LaneDft {
                            radix: d.radix,
                            twiddles,
                        }
                    }
                } else if tiled {
                    Kernel::TiledDft {
                        radix: d.radix,
                        twiddles,
                    }
                } else {
                    Kernel::BaseDft {
                        radix: d.radix,
                        twiddles,
                    }
                }
            }
        };
        out.push(Launch {
            kernel,
            src: stage.src,
            dst: stage.dst,
            params,
        });
    }
    out
}

/// The pointwise product the device runs over k digits
/// ([`gfpf_kernels::device_elementwise_kernels`]) and its parameters: dst ←
/// dst·src over `len` elements, both buffers digit-major with pitch `len`.
pub fn pointwise_mul(k: usize, dst: u64, src: u64, len: usize) -> (Kernel, StageParams) {
    let (_, kernel, per_element) = device_elementwise_kernels(k);
    (kernel, pointwise_mul_params(dst, src, len, per_element))
}

fn pointwise_mul_params(dst: u64, src: u64, len: usize, threads_per_element: usize) -> StageParams {
    StageParams {
        src,
        dst,
        table: 0,
        pitch: len as u64,
        table_len: 0,
        threads: (len * threads_per_element) as u64,
        log2_n: 0,
        log2_blocks: 0,
        log2_stride: 0,
        step: 0,
        twiddle_bits: 0,
        inverse: 0,
        digit_reversed_input: 0,
        radix_count: 0,
        radix_log2: [0; MAX_RADICES],
        tensor_table: 0,
        tensor_split_bits: 0,
        tensor_scale: 0,
        folded_step: 0,
    }
}

/// The distinct base sizes a plan's launches use, in first-use order (the
/// kernels its module must provide).
pub fn radices_used(plan: &Plan) -> Vec<usize> {
    let mut out = Vec::new();
    for stage in plan.stages() {
        if let StageKind::BaseDft(d) = stage.kind
            && !out.contains(&d.radix)
        {
            out.push(d.radix);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_plan::Order;

    #[test]
    fn params_are_words_only() {
        assert_eq!(size_of::<StageParams>(), (18 + MAX_RADICES) * 8);
    }

    /// The device's plans (the remainder radix outermost) give every stage
    /// of t8 and t16 a team at every size of two stages or more, in every
    /// direction and order, and t4's from 2^6: the remainder innermost left
    /// the stage after it at stride 2 or 4, a segment per DFT (t8 2^13
    /// modelled at twice the time of 2^14). (t2's radix-4 stages at strides
    /// 4 and 16 stay below its teams' columns whatever the order.) Alone or
    /// in a batch that fills the device, where the stages whose tiles of
    /// columns allow it run as teams of threads (t8 2^5, [2, 16], keeps its
    /// DFT_2 at stride 16 on teams of segments: a block of threads takes 32
    /// columns).
    #[test]
    fn device_plans_put_every_stage_in_a_team() {
        for (k, from) in [(4usize, 6), (8, 5), (16, 6)] {
            assert_eq!(StageKernels::for_device(k), StageKernels::Teams);
            for (log2_n, batch) in (from..=20).flat_map(|log2_n| [(log2_n, 1), (log2_n, 1 << 12)]) {
                for (direction, order) in [
                    (Direction::Forward, Order::Natural),
                    (Direction::Forward, Order::DigitReversed),
                    (Direction::Inverse, Order::Natural),
                    (Direction::Inverse, Order::DigitReversed),
                ] {
                    let plan =
                        Plan::try_with_max_radix(1 << log2_n, k, direction, order, gfpf_kernels::device_max_radix(k))
                            .unwrap();
                    for launch in launches(&plan, batch) {
                        assert!(
                            !matches!(launch.kernel, Kernel::LaneDft { .. } | Kernel::LaneTiledDft { .. }),
                            "k = {k}, 2^{log2_n} x{batch} {direction:?} {order:?}: {:?} in {:?}",
                            launch.kernel,
                            plan.radices()
                        );
                    }
                    // So a transform, whatever its batch, loads no
                    // segments' part of its modules.
                    if batch == 1 {
                        for kernel in kernels_of_any_batch(&plan, &DeviceShape::H100) {
                            assert_ne!(
                                kernel.module_part(),
                                gfpf_kernels::ModulePart::Segments,
                                "k = {k}, 2^{log2_n} {direction:?} {order:?}: {kernel:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Whatever the batch, its launches take only kernels that
    /// [`kernels_of_any_batch`] lists (t8 2^12: split teams up to a batch
    /// of 6 on an H100, teams of segments to 63, in pairs at 13 and other
    /// batches where the waves allow, teams of threads from 64); it had
    /// listed a batch of 1's
    /// and a device-filling batch's only, which left out the pairs of teams
    /// of segments (and now the teams past a wave).
    #[test]
    fn every_batch_takes_listed_kernels() {
        let started = std::time::Instant::now();
        let tiny = Plan::try_new(2, 8, Direction::Forward, Order::Natural).unwrap();
        assert!(!kernels_of_any_batch(&tiny, &DeviceShape::H100).is_empty());
        assert!(
            started.elapsed().as_secs_f64() < 2.0,
            "{:?} for N = 2",
            started.elapsed()
        );
        for (log2_n, k) in [(12, 8), (10, 8), (8, 8), (9, 4), (4, 2), (12, 16), (6, 32)] {
            let plan = Plan::try_new(1 << log2_n, k, Direction::Forward, Order::Natural).unwrap();
            for device in [
                DeviceShape::H100,
                DeviceShape {
                    multiprocessors: 1,
                    ..DeviceShape::H100
                },
            ] {
                let listed = kernels_of_any_batch(&plan, &device);
                for batch in 1..=130 {
                    for launch in launches_on(&plan, batch, &device) {
                        assert!(
                            listed.contains(&launch.kernel),
                            "2^{log2_n}, k = {k}, {} SMs, batch {batch}: {:?} not in {listed:?}",
                            device.multiprocessors,
                            launch.kernel
                        );
                    }
                }
            }
        }
        let t8 = Plan::try_new(1 << 12, 8, Direction::Forward, Order::Natural).unwrap();
        let kinds = |batch| {
            launches_on(&t8, batch, &DeviceShape::H100)
                .iter()
                .map(|l| std::mem::discriminant(&l.kernel))
                .collect::<Vec<_>>()
        };
        let split = std::mem::discriminant(&Kernel::SplitTeamDft {
            radix: 16,
            twiddles: CodeletTwiddles::None,
        });
        let team = std::mem::discriminant(&Kernel::TeamDft {
            radix: 16,
            twiddles: CodeletTwiddles::None,
        });
        assert!(kinds(6).contains(&split) && kinds(7).contains(&team) && !kinds(7).contains(&split));
    }

    #[test]
    fn launches_follow_the_plan() {
        // t8: N = 512 = 16·16·2, forward natural: three DIT stages, the first
        // gathering digit-reversed inputs into scratch (stride 1, into
        // another buffer: tiled), the others strided.
        let plan = Plan::try_new(512, 8, Direction::Forward, Order::Natural).unwrap();
        let device = launches(&plan, 3);
        assert!(device.iter().all(|l| !matches!(l.kernel, Kernel::TiledDft { .. })));
        assert_eq!(
            device[0].kernel,
            Kernel::SplitTeamDft {
                radix: 2,
                twiddles: CodeletTwiddles::None
            },
            "stride 1 into another buffer: tiled, each DFT over a team of segments, one an element (a batch of 3 fits a wave)"
        );
        // DFT_2 has one butterfly: a split team of two segments, a side each.
        assert_eq!(device[0].params.threads, 3 * 256 * 2 * 8);
        assert_eq!(block_threads(&device[0].kernel, 8), 128);
        // Stride 2, below the team tile's 4 columns: a segment per DFT.
        assert!(matches!(device[1].kernel, Kernel::LaneDft { radix: 16, .. }));
        // Stride 32: sixteen segments (four warps) a DFT_16, one an element,
        // four DFTs a block.
        assert_eq!(
            device[2].kernel,
            Kernel::SplitTeamDft {
                radix: 16,
                twiddles: CodeletTwiddles::Inputs
            }
        );
        assert_eq!(device[2].params.threads, 3 * 32 * 16 * 8);
        assert_eq!(block_threads(&device[2].kernel, 8), 512);
        // On a one-SM device a transform's launch exceeds a wave (1536
        // threads as split teams) and stays below the teams of threads' 497:
        // teams of eight segments, two elements a lane.
        let one_sm = launches_on(
            &plan,
            1,
            &DeviceShape {
                multiprocessors: 1,
                ..DeviceShape::H100
            },
        );
        assert_eq!(
            one_sm[2].kernel,
            Kernel::TeamDft {
                radix: 16,
                twiddles: CodeletTwiddles::Inputs
            }
        );
        assert_eq!(one_sm[2].params.threads, 32 * 8 * 8);
        assert_eq!(block_threads(&one_sm[2].kernel, 8), 256);
        // A batch of 256 fills the device: teams of threads on whole
        // elements, one thread a DFT_2 (32 DFTs a block), eight a DFT_16
        // (sixteen a block).
        let filled = launches(&plan, 256);
        assert_eq!(
            filled[0].kernel,
            Kernel::ElementTeamDft {
                radix: 2,
                twiddles: CodeletTwiddles::None
            }
        );
        assert_eq!(filled[0].params.threads, 256 * 256);
        assert_eq!(block_threads(&filled[0].kernel, 8), 32);
        assert_eq!(
            filled[2].kernel,
            Kernel::ElementTeamDft {
                radix: 16,
                twiddles: CodeletTwiddles::Inputs
            }
        );
        assert_eq!(filled[2].params.threads, 256 * 32 * 8);
        assert_eq!(block_threads(&filled[2].kernel, 8), 128);
        assert_eq!(filled[2].params.threads, ELEMENT_TEAMS_MIN_THREADS);
        assert_eq!(
            gfpf_kernels::team_tile(16, 8),
            Some(gfpf_kernels::TeamTile {
                threads: 256,
                team: 8,
                dfts: 4,
                words: 8 * 97
            }),
            "runs of 24 (≡ 8 mod 16), planes of 4·24 + 1 words"
        );
        assert_eq!(
            gfpf_kernels::team_tile(16, 32).map(|t| (t.threads, t.team, t.dfts)),
            Some((512, 4, 4)),
            "from k = 32 a team of whole warps"
        );
        // k = 16: strided stages of natural input are tiled too (the two
        // segments of a warp cover half a sector of a digit plane).
        let t16 = Plan::try_new(1 << 12, 16, Direction::Forward, Order::Natural).unwrap();
        let l16 = launches_with(&t16, 1, StageKernels::DigitsOverLanes);
        let strided_tiled = l16
            .iter()
            .filter(|l| matches!(l.kernel, Kernel::LaneTiledDft { .. }) && l.params.log2_stride > 0)
            .count();
        assert!(
            strided_tiled >= 1,
            "{:?}",
            l16.iter().map(|l| l.kernel).collect::<Vec<_>>()
        );
        assert_eq!(
            gfpf_kernels::lane_tile(32, 16),
            Some(gfpf_kernels::LaneTile {
                threads: 128,
                dfts: 8,
                words: 16 * 257
            }),
            "runs of 32 (≡ 16 mod 16), planes of 8·32 + 1 words"
        );
        assert_eq!(device[1].params.threads, 3 * 32 * 8, "k threads a DFT");
        let untiled = launches_with(&plan, 3, StageKernels::ThreadPerDft);
        assert_eq!(untiled[1].params.threads, 3 * 32);
        let l = launches_with(&plan, 3, StageKernels::TiledStrideOne);
        assert_eq!(l.len(), 3);
        assert_eq!(
            l[0].kernel,
            Kernel::TiledDft {
                radix: 2,
                twiddles: CodeletTwiddles::None
            }
        );
        assert_eq!(block_threads(&l[0].kernel, 8), 128, "4096 / (2·8) DFTs, at most 128");
        assert!(matches!(l[1].kernel, Kernel::BaseDft { radix: 16, .. }));
        assert_eq!(block_threads(&l[1].kernel, 8), THREADS_PER_BLOCK);
        assert_eq!(
            block_threads(
                &Kernel::TiledDft {
                    radix: 16,
                    twiddles: CodeletTwiddles::None
                },
                8
            ),
            32
        );
        assert_eq!((l[0].src, l[0].dst), (Buffer::Data, Buffer::Scratch));
        assert_eq!(l[0].params.digit_reversed_input, 1);
        assert_eq!(l[0].params.threads, 3 * 256);
        assert_eq!(l[2].params.threads, 3 * 32);
        assert_eq!(l[2].params.pitch, 3 * 512);
        // The device keeps N = 512's table whole: e = m, no shift.
        assert_eq!((l[2].params.twiddle_bits, l[2].params.table_len), (9, 512));
        assert_eq!(&l[0].params.radix_log2[..3], &[4, 4, 1]);
        assert_eq!(radices_used(&plan), vec![2, 16]);
        let inverse = Plan::try_new(512, 8, Direction::Inverse, Order::Natural).unwrap();
        let l = launches_with(&inverse, 1, StageKernels::ThreadPerDft);
        assert_eq!(l.last().unwrap().kernel, Kernel::Scale);
        // On the tensor cores at k = 8, one thread an element; one thread an
        // element on its threads without them (and at k = 4); over a
        // segment's k lanes above k = 16.
        let device = launches(&inverse, 1);
        assert_eq!(device.last().unwrap().kernel, Kernel::ScaleMma);
        assert_eq!(device.last().unwrap().params.threads, 512, "one thread an element");
        let older = DeviceShape {
            tensor_cores: false,
            ..DeviceShape::H100
        };
        let elements = launches_with_on(&inverse, 1, StageKernels::Teams, &older);
        assert_eq!(elements.last().unwrap().kernel, Kernel::ScaleElements);
        assert_eq!(elements.last().unwrap().params.threads, 512, "one thread an element");
        let t4 = launches(&Plan::try_new(512, 4, Direction::Inverse, Order::Natural).unwrap(), 1);
        assert_eq!(
            t4.last().unwrap().kernel,
            Kernel::ScaleElements,
            "k = 4: no tensor-core products"
        );
        let t32 = launches(&Plan::try_new(1024, 32, Direction::Inverse, Order::Natural).unwrap(), 1);
        assert_eq!(t32.last().unwrap().kernel, Kernel::LaneScale);
        assert_eq!(t32.last().unwrap().params.threads, 1024 * 32, "k lanes an element");
        // ScaleMma reads N^{-1} (its fallback where r is out of the tensor
        // cores' range) and its table.
        let bound = device.last().unwrap().bind(10, 20, 30, 40, 50);
        assert_eq!((bound.table, bound.tensor_table), (40, 50));
        assert_eq!(l.last().unwrap().params.threads, 512);
        assert_eq!(l[0].params.inverse, 1);
        let bound = l[3].bind(10, 20, 30, 40, 50);
        assert_eq!((bound.src, bound.dst, bound.table, bound.tensor_table), (10, 10, 40, 0));
    }
}

#[cfg(test)]
mod pair_tests {
    use super::*;
    use CodeletTwiddles::{Inputs, None as Plain, Outputs};
    use gfpf_plan::Order;

    fn device_plan(log2_n: u32, k: usize, direction: Direction, order: Order) -> Plan {
        Plan::try_with_max_radix(1 << log2_n, k, direction, order, gfpf_kernels::device_max_radix(k)).unwrap()
    }

    fn device(log2_n: u32, k: usize, direction: Direction, order: Order, batch: usize) -> Vec<Launch> {
        launches(&device_plan(log2_n, k, direction, order), batch)
    }

    /// As [`device`], each tensor-core pair with its own column and row
    /// twiddles (none given to a stride-1 stage beside it).
    fn unfolded(log2_n: u32, k: usize, direction: Direction, order: Order, batch: usize) -> Vec<Launch> {
        let device = DeviceShape {
            fold_pair_twiddles: false,
            ..DeviceShape::H100
        };
        launches_on(&device_plan(log2_n, k, direction, order), batch, &device)
    }

    fn pair(radix: usize, first: CodeletTwiddles, second: CodeletTwiddles) -> Kernel {
        Kernel::ElementTeamPair { radix, first, second }
    }

    /// t8 2^20 (16^5) runs in three launches whatever the direction and
    /// order: two pairs and a single stage (the gathering one, or the
    /// odd one out); each pair's threads are one a butterfly (N/2), its
    /// parameters the first stage's, its buffers the first's source and
    /// the second's destination.
    #[test]
    fn t8_two_to_the_twenty_pairs_its_stages() {
        let element = |twiddles| Kernel::ElementTeamDft { radix: 16, twiddles };
        let kernels = |l: &[Launch]| l.iter().map(|l| l.kernel).collect::<Vec<_>>();
        let natural = device(20, 8, Direction::Forward, Order::Natural, 1);
        let mma = |both_stages| Kernel::ElementTeamPairMma {
            radix: 16,
            in_time: true,
            both_stages,
        };
        let mma_in_frequency = |both_stages| Kernel::ElementTeamPairMma {
            radix: 16,
            in_time: false,
            both_stages,
        };
        let rows = |in_time| Kernel::ElementTeamPairRowsMma { radix: 16, in_time };
        // Both pairs take their first stage's twiddles on the tensor cores:
        // that of strides 16 and 256 by its 256 (c, lo) twiddles' tables,
        // and its second stage's too (256 + 256 more); that of 4096 and
        // 65536 by its 65536, past TENSOR_TWIDDLES_MAX, streamed from device
        // memory, its second stage's on the threads (as without streamed
        // tables, where the first's are split by the exponent's 10 low bits
        // and 10 high ones, 2048 tables).
        assert_eq!(
            kernels(&unfolded(20, 8, Direction::Forward, Order::Natural, 1)),
            [element(Plain), mma(true), mma(false)]
        );
        // The first pair's (s = 16) column and row twiddles go to the
        // stride-1 stage before it, on its outputs, on the tensor cores
        // (its inputs gathered, its blocks' 16 neighbouring columns share
        // them); the pair keeps B.
        let folded = |in_time| Kernel::ElementTeamDftMma { radix: 16, in_time };
        assert_eq!(kernels(&natural), [folded(true), rows(true), mma(false)]);
        assert_eq!(
            natural.iter().map(|l| l.params.folded_step).collect::<Vec<_>>(),
            [256, 256, 0]
        );
        assert_eq!(
            (natural[1].params.tensor_split_bits, natural[2].params.tensor_split_bits),
            (0, 0)
        );
        let in_l2_only = DeviceShape {
            tensor_streamed_twiddles_max: 0,
            ..DeviceShape::H100
        };
        let split = launches_on(&device_plan(20, 8, Direction::Forward, Order::Natural), 1, &in_l2_only);
        assert_eq!(kernels(&split), [folded(true), rows(true), mma(false)]);
        assert_eq!(
            (split[1].params.tensor_split_bits, split[2].params.tensor_split_bits),
            (0, 10)
        );
        assert_eq!(natural[1].params.threads, 1 << 19);
        assert_eq!((natural[1].params.log2_stride, natural[1].params.log2_blocks), (4, 12));
        assert_eq!(natural[1].params.step, 1 << 12, "the first stage's step, its blocks");
        assert_eq!((natural[2].src, natural[2].dst), (Buffer::Scratch, Buffer::Data));
        let digit_reversed = device(20, 8, Direction::Forward, Order::DigitReversed, 1);
        // In frequency the second stage's output twiddles are the ones a
        // column shares: streamed tables for the pair of strides 65536 and
        // 4096 (s = 4096), one a twiddle, its first stage's on the threads,
        // and L2's for that of 256 and 16, which takes its first stage's
        // too.
        assert_eq!(
            kernels(&unfolded(20, 8, Direction::Forward, Order::DigitReversed, 1)),
            [mma_in_frequency(false), mma_in_frequency(true), element(Plain)]
        );
        // The second's (s = 16) column and row twiddles go to the stride-1
        // stage after it, on its inputs (its blocks' DFTs 256 apart).
        assert_eq!(
            kernels(&digit_reversed),
            [mma_in_frequency(false), rows(false), folded(false)]
        );
        // Where the tables (4096 of them) are past the device's bound, on
        // the stage's threads.
        let few_tables = DeviceShape {
            tensor_twiddles_max: 1024,
            ..DeviceShape::H100
        };
        assert_eq!(
            kernels(&launches_on(
                &device_plan(20, 8, Direction::Forward, Order::Natural),
                1,
                &few_tables
            ))[0],
            element(Outputs)
        );
        assert_eq!(
            digit_reversed.iter().map(|l| l.params.folded_step).collect::<Vec<_>>(),
            [0, 256, 256]
        );
        assert_eq!(
            (
                digit_reversed[0].params.tensor_split_bits,
                digit_reversed[1].params.tensor_split_bits
            ),
            (0, 0)
        );
        let inverse = device(20, 8, Direction::Inverse, Order::DigitReversed, 1);
        // The scale by N^{-1} folded into the first pair's B tables.
        assert_eq!(
            kernels(&inverse),
            [
                Kernel::ElementTeamPairRowsMma {
                    radix: 16,
                    in_time: true
                },
                mma(false),
                element(Inputs),
            ]
        );
        assert_eq!(
            inverse.iter().map(|l| l.params.tensor_scale).collect::<Vec<_>>(),
            [1, 0, 0]
        );
        // The stride-1 pairs take one run of R² words a super-DFT.
        assert_eq!(digit_reversed[2].params.log2_stride, 0);
        assert_eq!(inverse[0].params.log2_stride, 0);
        assert_eq!(block_threads(&natural[1].kernel, 8), 512);
        assert_eq!(dynamic_shared_bytes(&natural[1].kernel, 8), 13_656 * 8);
        assert_eq!(dynamic_shared_bytes(&natural[0].kernel, 8), 0);
    }

    /// The pairs in time whose first stage twiddles its inputs, and in
    /// frequency whose second twiddles its outputs, take those twiddles on
    /// the tensor cores where k = 8, the stage's tables (s·R, one a (c, j)
    /// twiddle, or the exponent's split in two) stay within
    /// TENSOR_TWIDDLES_MAX (or TENSOR_STREAMED_TWIDDLES_MAX, one a twiddle)
    /// and the device has int8 m16n8k32: t8 2^20's pairs of strides 16 and
    /// 256 and of 4096 and 65536 (streamed), both orders; a batch of 256 ×
    /// 2^12's pair; p8's; t8 2^24's first two; not t4's (k = 4), nor the
    /// inverse's pair from digit-reversed order whose first stage is plain,
    /// nor on a device without such tensor cores.
    #[test]
    fn tensor_core_pairs_where_their_tables_are_small() {
        let none: [usize; 0] = [];
        // The tensor launches' strides (their first stage's).
        let mma = |l: &[Launch]| {
            l.iter()
                .filter(|l| matches!(l.kernel, Kernel::ElementTeamPairMma { .. }))
                .filter_map(tensor_stage_params)
                .map(|p| 1usize << p.log2_stride)
                .collect::<Vec<_>>()
        };
        assert_eq!(mma(&unfolded(20, 8, Direction::Forward, Order::Natural, 1)), [16, 4096]);
        assert_eq!(
            mma(&unfolded(20, 8, Direction::Inverse, Order::DigitReversed, 1)),
            [256]
        );
        assert_eq!(
            mma(&unfolded(20, 8, Direction::Forward, Order::DigitReversed, 1)),
            [65536, 256]
        );
        assert_eq!(mma(&unfolded(12, 8, Direction::Forward, Order::Natural, 256)), [16]);
        assert_eq!(mma(&unfolded(12, 8, Direction::Forward, Order::Natural, 1)), none);
        assert_eq!(mma(&unfolded(20, 4, Direction::Forward, Order::Natural, 1)), none);
        let p8 = Plan::try_with_max_radix(1 << 20, 8, Direction::Forward, Order::Natural, 16).unwrap();
        let unfolding = DeviceShape {
            fold_pair_twiddles: false,
            ..DeviceShape::H100
        };
        assert_eq!(mma(&launches_on(&p8, 1, &unfolding)), [16, 4096]);
        let older = DeviceShape {
            tensor_cores: false,
            ..DeviceShape::H100
        };
        let t8_20 = device_plan(20, 8, Direction::Forward, Order::Natural);
        assert_eq!(mma(&launches_on(&t8_20, 1, &older)), none);
        // Unsplit tables (one a (c, lo) twiddle) within the streamed bound,
        // split ones within L2's.
        let tables = |stage: StageParams| match stage.tensor_split_bits {
            0 => (16 << stage.log2_stride, TENSOR_STREAMED_TWIDDLES_MAX),
            b => {
                assert_eq!(u64::from(split_twiddle_bits(stage.log2_n as u32)), b);
                (split_twiddle_entries(stage.log2_n as u32), TENSOR_TWIDDLES_MAX)
            }
        };
        for log2_n in [21, 22, 24] {
            for l in device(log2_n, 8, Direction::Forward, Order::Natural, 1) {
                if let Some(stage) = tensor_stage_params(&l) {
                    let (count, most) = tables(stage);
                    assert!(count <= most, "2^{log2_n}: {stage:?}");
                }
            }
        }
        // 2^22's second pair streams its 65536 tables, as 2^24's (whose
        // split ones would take 8192); its third (s = 65536, 2^20 tables)
        // keeps its products on the threads.
        assert_eq!(mma(&unfolded(22, 8, Direction::Forward, Order::Natural, 1)), [16, 4096]);
        assert_eq!(mma(&unfolded(24, 8, Direction::Forward, Order::Natural, 1)), [16, 4096]);
    }

    /// On a device whose blocks take less shared memory than a pair of teams
    /// of threads (t8: 106.7 KiB; 99 KB at compute capability 8.6 and 8.9,
    /// 64 KiB at 7.5) those stages run one a launch, as single stages; a
    /// limit that holds the pair changes nothing, and teams of segments
    /// (static shared memory) pair as before.
    #[test]
    fn pairs_only_within_the_device_shared_memory() {
        let t8_20 = device_plan(20, 8, Direction::Forward, Order::Natural);
        let pair_bytes = dynamic_shared_bytes(&launches(&t8_20, 1)[1].kernel, 8);
        assert_eq!(pair_bytes, 109_248);
        let with_shared = |bytes| DeviceShape {
            max_shared_bytes_per_block: bytes,
            ..DeviceShape::H100
        };
        for shared in [pair_bytes, 166_912, 232_448] {
            assert_eq!(
                launches_on(&t8_20, 1, &with_shared(shared)),
                launches(&t8_20, 1),
                "{shared} bytes"
            );
        }
        for shared in [pair_bytes - 8, 101_376, 65_536] {
            let within = launches_on(&t8_20, 1, &with_shared(shared));
            assert_eq!(
                within,
                stage_launches(&t8_20, 1, StageKernels::Teams, &DeviceShape::H100),
                "{shared} bytes"
            );
            assert!(
                within
                    .iter()
                    .all(|l| dynamic_shared_bytes(&l.kernel, 8) <= shared && l.kernel.radix() == Some(16)),
                "{shared} bytes"
            );
        }
        // A single 2^16 pairs its teams of segments (no dynamic shared
        // memory) whatever the limit.
        let t8_16 = device_plan(16, 8, Direction::Forward, Order::Natural);
        let segments = launches(&t8_16, 1);
        assert!(segments.iter().any(|l| matches!(l.kernel, Kernel::TeamPair { .. })));
        assert_eq!(launches_on(&t8_16, 1, &with_shared(65_536)), segments);
    }

    /// The device-filling rules at another device's SMs: teams of threads
    /// from a stage's share of half a wave (t8 2^16, 2^15 threads a stage,
    /// on an L4's 58 SMs but not an A100's 108 or an H100's 132), and teams of
    /// segments paired from one block an SM (t8 2^16, 256 super-DFTs: on
    /// 132 SMs; not on 264, where the pair would leave SMs idle).
    #[test]
    fn device_filling_rules_scale_with_the_sms() {
        let sms = |multiprocessors| DeviceShape {
            multiprocessors,
            ..DeviceShape::H100
        };
        assert_eq!(DeviceShape::H100.element_teams_min_threads(), ELEMENT_TEAMS_MIN_THREADS);
        assert_eq!(sms(108).element_teams_min_threads(), 53_621);
        assert_eq!(sms(58).element_teams_min_threads(), 28_797);
        assert_eq!(sms(0).element_teams_min_threads(), 497);
        let element_teams = |launches: &[Launch]| {
            launches
                .iter()
                .filter(|l| matches!(l.kernel, Kernel::ElementTeamDft { .. } | Kernel::ElementTeamPair { .. }))
                .count()
        };
        let t8_16 = device_plan(16, 8, Direction::Forward, Order::Natural);
        assert_eq!(launches_on(&t8_16, 1, &sms(132)), launches(&t8_16, 1));
        assert_eq!(element_teams(&launches_on(&t8_16, 1, &sms(132))), 0);
        assert_eq!(element_teams(&launches_on(&t8_16, 1, &sms(108))), 0);
        assert!(element_teams(&launches_on(&t8_16, 1, &sms(58))) > 0);
        let team_pairs = |shape: &DeviceShape| {
            launches_on(&t8_16, 1, shape)
                .iter()
                .filter(|l| matches!(l.kernel, Kernel::TeamPair { .. }))
                .count()
        };
        assert_eq!((team_pairs(&sms(132)), team_pairs(&sms(264))), (1, 0));
        assert!((team_pair_fits(16, 8, 256, 132), team_pair_fits(16, 8, 256, 264)) == (true, false));
    }

    /// Stages that do not fill the device pair as teams of segments where
    /// [`team_pair_fits`] (a single t8 transform of 2^16: 256 super-DFTs,
    /// two waves paired or not; of 2^12, 16 blocks, and 2^17, four waves
    /// against three, stay one stage a launch); no pairs across radices (the
    /// remainder); t4 and t2 pair their DFT_8 and DFT_4 stages as teams of
    /// threads.
    #[test]
    fn stages_pair_only_where_they_may() {
        assert_eq!(device(12, 8, Direction::Forward, Order::Natural, 1).len(), 3);
        assert!(
            (
                team_pair_fits(16, 8, 256, TEAM_PAIRS_SMS),
                team_pair_fits(16, 8, 16, TEAM_PAIRS_SMS),
                team_pair_fits(16, 8, 512, TEAM_PAIRS_SMS)
            ) == (true, false, false)
        );
        let t8_17 = device(17, 8, Direction::Forward, Order::Natural, 1);
        assert_eq!(
            (t8_17.len(), t8_17[1].kernel),
            (
                4,
                Kernel::ElementTeamPairRowsMma {
                    radix: 16,
                    in_time: true
                }
            ),
            "2^17 = 2·16^4: its stages fill the device as teams of threads, which pair (as teams of segments, \
             512 super-DFTs, they would not), the first pair's B on the tensor cores, its column and row \
             twiddles on the stride-1 stage before it"
        );
        let single = device(16, 8, Direction::Forward, Order::Natural, 1);
        assert_eq!(
            single.iter().map(|l| l.kernel).collect::<Vec<_>>(),
            [
                Kernel::TeamDft {
                    radix: 16,
                    twiddles: Plain
                },
                Kernel::TeamPair {
                    radix: 16,
                    first: Inputs,
                    second: Inputs
                },
                Kernel::TeamDft {
                    radix: 16,
                    twiddles: Inputs
                },
            ],
            "2^16: the gather, a pair and a stage"
        );
        assert_eq!(
            single[1].params.threads,
            256 * 16 * 64,
            "super-DFTs of 16 DFTs of 64 lanes"
        );
        assert_eq!(block_threads(&single[1].kernel, 8), 1024);
        assert_eq!(dynamic_shared_bytes(&single[1].kernel, 8), 0, "static: 2184 words");
        // t16's teams span four warps a DFT_32: no pair block holds 32.
        let t16 = Plan::try_with_max_radix(1 << 15, 16, Direction::Forward, Order::Natural, 32).unwrap();
        assert!(
            launches(&t16, 1)
                .iter()
                .all(|l| !matches!(l.kernel, Kernel::TeamPair { .. } | Kernel::ElementTeamPair { .. }))
        );
        let batch = device(12, 8, Direction::Forward, Order::Natural, 256);
        assert_eq!(batch.len(), 2, "256 x 2^12: the gather, then a pair");
        // 2^9 = 2·16·16: the DFT_2 stage stays single; the pair of s = 1
        // (its second stage plain) takes its twiddles, B alone, on the
        // tensor cores, as the plain pair's products on a device without.
        let odd = device(9, 8, Direction::Forward, Order::DigitReversed, 1 << 12);
        assert_eq!(
            odd.iter().map(|l| l.kernel).collect::<Vec<_>>()[1],
            Kernel::ElementTeamPairRowsMma {
                radix: 16,
                in_time: false
            }
        );
        let older = DeviceShape {
            tensor_cores: false,
            ..DeviceShape::H100
        };
        let odd_plan = device_plan(9, 8, Direction::Forward, Order::DigitReversed);
        assert_eq!(
            launches_on(&odd_plan, 1 << 12, &older)[1].kernel,
            pair(16, Outputs, Plain)
        );
        assert!(matches!(odd[0].kernel, Kernel::ElementTeamDft { radix: 2, .. }));
        assert!(
            device(9, 4, Direction::Forward, Order::Natural, 1 << 12)
                .iter()
                .any(|l| l.kernel == pair(8, Inputs, Inputs))
        );
        assert!(
            device(9, 2, Direction::Forward, Order::Natural, 1 << 12)
                .iter()
                .any(|l| l.kernel == pair(4, Inputs, Inputs))
        );
        // No pair tiles past k = 8 (the device's teams of threads) or for
        // DFT_2 (a block of 8 threads).
        assert!(gfpf_kernels::element_team_pair_tile(32, 16).is_none());
        assert!(gfpf_kernels::element_team_pair_tile(2, 8).is_none());
    }
}
