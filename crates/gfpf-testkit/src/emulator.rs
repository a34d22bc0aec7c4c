//! The block-level host emulator of the CUDA executor: gfpf-kernels' sources
//! compiled as C++ for the CPU (they are written so that they also compile
//! with `GFPF_HOST_EMULATION`), run launch by launch with the same
//! [`StageParams`], launch sequence (`gfpf_cuda::params`) and geometry
//! (`gfpf_cuda::block_threads`) as on the device. A launch runs block after
//! block; the threads of a block run concurrently as fibers
//! (kernels/gfpf_emulation.h) with `threadIdx`, `blockIdx`, `blockDim`,
//! `gridDim`, `__syncthreads()`, the warp collectives (`__shfl*_sync`,
//! `__ballot_sync`, warp size 32) and checked shared memory: a race on a
//! shared word within one barrier interval, a read of a word no thread wrote,
//! a thread that leaves while others wait at a barrier, fail the launch with
//! the kernel, block, word and threads named ([`EmulatorError::Kernel`]).
//! Every launch runs under two schedules (the threads of a block in
//! ascending and in descending order) and what they write must agree
//! ([`EmulatorError::ScheduleDependent`]). On request
//! ([`EmulatedFft::run_words_counted`]) it counts each launch's global
//! memory traffic the way the device moves it, in 32-byte sectors per
//! warp-wide access ([`LaunchTraffic`]).
//!
//! It exists so that the kernels' arithmetic and indexing, and gfpf-cuda's
//! launch sequence, are tested against gfpf-cpu on machines without a GPU
//! (CI). It says nothing about device-only matters (launch geometry, memory
//! limits, the driver); those need a GPU run. It lives in the test kit, not
//! in gfpf-cuda's public API.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use gfpf_cuda::ntt::NttWord;
use gfpf_cuda::params::{DeviceShape, StageKernels, StageParams, launches_with_on, pointwise_mul};
use gfpf_cuda::{CudaError, block_threads, device_twiddle_table, from_digit_major, to_digit_major};
use gfpf_executor::{ExecutorError, PreparedFft, Transform, TransformError};
use gfpf_field::{Element, Field};
use gfpf_kernels::{
    DeviceConstants, Kernel, device_base_sizes, device_max_radix, host_translation_unit_of, module_name,
};
use gfpf_plan::{Direction, Order, Plan};

/// Why the emulator could not plan or run a transform.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmulatorError {
    /// A refusal every executor shares.
    #[error(transparent)]
    Transform(#[from] TransformError),
    /// The layout conversion found a non-canonical element.
    #[error(transparent)]
    Layout(#[from] CudaError),
    /// The host compiler rejected the kernel source.
    #[error("compiling the {module} kernels for the host failed: {log}")]
    Compile {
        /// The module.
        module: String,
        /// The compiler's log.
        log: String,
    },
    /// Building or loading the host library failed.
    #[error("host emulator: {0}")]
    Host(String),
    /// Element-by-element operands of different lengths.
    #[error("element-by-element operands differ in length: {0} and {1}")]
    OperandLengths(usize, usize),
    /// A launch failed a check of the block-level emulator (a race on
    /// shared memory, a read of unwritten shared memory, a barrier some
    /// thread never reaches, a warp collective a lane never joins).
    #[error("emulated launch failed: {0}")]
    Kernel(String),
    /// The same launch wrote different results when the threads of its
    /// blocks ran in another order: a missing barrier.
    #[error("kernel {kernel} writes different results under two schedules of its threads (a missing barrier?)")]
    ScheduleDependent {
        /// The kernel's symbol.
        kernel: String,
    },
}

/// What the emulated kernels take besides their parameters (`GfpfEmuLaunch`
/// in kernels/gfpf_emulation.h): the launch's geometry, the schedule of the
/// threads of each block (0: ascending, 1: descending) and room for an
/// error message.
#[repr(C)]
struct EmulatedLaunch {
    grid_x: u64,
    block_x: u64,
    schedule: u64,
    error: *mut std::ffi::c_char,
    error_capacity: u64,
    count_traffic: u64,
    block_stride: u64,
    dynamic_shared_bytes: u64,
    traffic: LaunchTraffic,
}

/// What one launch moved in global memory, counted the way the device
/// moves it: a warp-wide access (the n-th global access of each lane of a
/// warp) moves every distinct 32-byte sector its lanes touch. Counted by the
/// emulator; no cache is modelled (a sector read twice counts twice).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LaunchTraffic {
    /// Warp-wide accesses.
    pub requests: u64,
    /// Sectors read.
    pub sectors_read: u64,
    /// Sectors written.
    pub sectors_written: u64,
    /// Bytes the warp-wide reads used, each word once per access (lanes
    /// reading one word, a broadcast, use it once).
    pub bytes_read: u64,
    /// Bytes the warp-wide writes used.
    pub bytes_written: u64,
    /// Of the sectors read, those of read-only tables (twiddles, N^{-1}),
    /// which the device's caches serve when the table fits there.
    pub table_sectors: u64,
    /// Bytes the reads of those tables used.
    pub table_bytes: u64,
    /// Of those table sectors, the tensor cores' twiddle tables'
    /// (`gfpf_cuda::tensor_twiddle_table`: a few MiB at most, in L2 whatever
    /// the size of the transform's own twiddle table).
    pub tensor_table_sectors: u64,
    /// Bytes the reads of the tensor cores' tables used.
    pub tensor_table_bytes: u64,
    /// Of the tensor cores' table sectors, those of the tables every block
    /// reads (B's R² in the element-team pairs), which stay in L2 however
    /// large the launch's other tables.
    pub tensor_resident_sectors: u64,
    /// The field operations of all threads.
    pub ops: FieldOps,
    /// Those of the warp that ran the most: the launch's longest serial
    /// path. A warp runs every branch any of its lanes takes, so its count
    /// of an operation is that of the lane that ran it most (a lower bound
    /// where lanes run one operation in different branches).
    pub path_ops: FieldOps,
    /// The warps' counts, so reckoned, summed over the launch's warps: what
    /// they issue (`ops` over 32 where every warp's lanes run alike).
    pub warp_ops: FieldOps,
    /// Warp-wide shared-memory accesses: the n-th access of each lane of a
    /// warp at one site (the code that indexed the array, one instruction
    /// on the device) to one array since the warp last met.
    pub shared_requests: u64,
    /// The wavefronts (bank cycles) they take on the device's 32 banks of
    /// 4 bytes: for each, the most distinct 4-byte words one bank holds
    /// among those its lanes touch (lanes touching one word share it; each
    /// array taken to start at bank 0), and at least one for each 4 bytes
    /// a lane moves (a wavefront carries one 32-bit register of every
    /// lane), half as many for a load whose lanes pair up on one address.
    pub shared_wavefronts: u64,
    /// The fewest they could take: each access's distinct 4-byte words
    /// over 32, rounded up, or its registers where more
    /// (`shared_wavefronts` over this is the bank conflicts' factor).
    pub shared_ideal_wavefronts: u64,
}

/// One launch's counts ([`EmulatedFft::launch_counts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchCounts {
    /// The kernel.
    pub kernel: Kernel,
    /// Threads launched.
    pub threads: u64,
    /// Threads per block.
    pub threads_per_block: u32,
    /// Global traffic and operations of the whole launch (`path_ops`: the
    /// busiest warp's of the blocks run).
    pub traffic: LaunchTraffic,
    /// Bytes of the tensor cores' tables the launch reads from
    /// (`gfpf_cuda::tensor_twiddle_table`; 0 for the launches that read
    /// none): whether they stay in L2 is the model's question.
    pub tensor_table_bytes: u64,
    /// Shared-memory accesses by source line, most wavefronts first, where
    /// the kernels were built with line tables
    /// ([`HostKernels::build_from_with_line_tables`]); else empty.
    pub shared_sites: Vec<SharedSite>,
}

/// Field operations an emulated launch ran (`GfpfEmuOp` in
/// kernels/gfpf_emulation.h), summed over threads.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FieldOps {
    /// `gfpf_mul`: one thread multiplies k digits by k.
    pub mul: u64,
    /// `gfpf_add_sub`: one thread's butterfly.
    pub add_sub: u64,
    /// `gfpf_mul_pow_r`: one thread's shift by a power of r.
    pub mul_pow_r: u64,
    /// `gfpf_lane_mul`, per lane (k lanes a product).
    pub lane_mul: u64,
    /// `gfpf_lane_add_sub`, per lane.
    pub lane_add_sub: u64,
    /// `gfpf_lane_mul_pow_r`, per lane.
    pub lane_mul_pow_r: u64,
    /// Warp votes (ballots, `__any_sync`, `__all_sync`) and `__syncwarp`,
    /// per lane: the collectives other than shuffles and matrix products.
    pub collectives: u64,
    /// Words of shared memory read or written, per thread.
    pub shared_words: u64,
    /// `__syncthreads()` barriers, per thread.
    pub barriers: u64,
    /// Word-size NTT butterflies in registers with their products
    /// (kernels/gfpf_ntt.cu) on 32-bit words: the inverse ones, and the
    /// pointwise products (`ntt_forward_butterflies` apart), per thread.
    pub ntt_butterflies: u64,
    /// Groups of word-size NTT rounds (a group's twiddles' base, its
    /// loop), per thread.
    pub ntt_groups: u64,
    /// Montgomery products of the multi-modular kernels (with their table
    /// loads and modular adds), per thread.
    pub mm_products: u64,
    /// Base-r digits of the multi-modular join (two divisions each), per
    /// thread.
    pub mm_digits: u64,
    /// Residues times digits accumulated in 128 bits (the join), per
    /// thread.
    pub mm_macs: u64,
    /// Primes of a projection (its constants' loads, the reduction's adds,
    /// the store, the loop; `mm_join_primes`: the join's), per thread.
    pub mm_primes: u64,
    /// Digits of the projection (two 32-bit products summed in 128 bits),
    /// per thread and prime.
    pub mm_terms: u64,
    /// `gfpf_tile_mul`: one thread's product of an element in shared
    /// memory by a twiddle (the element teams' kernels).
    pub tile_mul: u64,
    /// `gfpf_tile_add_sub`: one thread's butterfly of two elements in shared
    /// memory.
    pub tile_add_sub: u64,
    /// `gfpf_tile_mul_pow_r`: one thread's shift of an element in shared
    /// memory by a power of r.
    pub tile_mul_pow_r: u64,
    /// `gfpf_tile_stage_twiddles`: a lane's share of copying its warp's
    /// twiddles into shared memory (k loads, a shuffle each).
    pub tile_stages: u64,
    /// Word-size NTT butterflies on 64-bit words (primes below 2^62): the
    /// inverse ones and the pointwise products (`ntt62_forward_butterflies`
    /// apart), per thread.
    pub ntt62_butterflies: u64,
    /// Groups of word-size NTT rounds on 64-bit words, per thread.
    pub ntt62_groups: u64,
    /// Montgomery products of the multi-modular kernels on 64-bit words,
    /// per thread.
    pub mm62_products: u64,
    /// 62-bit residues times digits accumulated in 192 bits (the join on
    /// 64-bit words), per thread.
    pub mm62_macs: u64,
    /// Digits of the projection on 64-bit words (two 32 × 62-bit products
    /// summed in 128 bits), per thread and prime.
    pub mm62_terms: u64,
    /// Word-size NTT butterflies in FP64 (primes below 2^50): the inverse
    /// ones and the pointwise products (`ntt50_forward_butterflies` apart),
    /// per thread.
    pub ntt50_butterflies: u64,
    /// Groups of word-size NTT rounds in FP64, per thread.
    pub ntt50_groups: u64,
    /// A lane's share of tensor-core DFT_16 of 8 groups (a forward NTT's
    /// last round of 32-bit words), per thread.
    pub ntt_mma_tiles: u64,
    /// `gfpf_lane_add_or_sub`: one side of a butterfly (the sum or the
    /// difference, one carry chain), per lane.
    pub lane_add_or_sub: u64,
    /// `gfpf_lane_sub_mul_pow_r`: a butterfly's difference times a power of
    /// r in one carry chain, per lane.
    pub lane_sub_mul_pow_r: u64,
    /// `gfpf_lane_add`: a butterfly's sum alone, the side known where it is
    /// compiled, per lane.
    pub lane_add: u64,
    /// `gfpf_tile_add_sub_mul_pow_r`: one thread's butterfly of two elements
    /// in shared memory, its difference times a power of r in one chain.
    pub tile_add_sub_mul_pow_r: u64,
    /// `gfpf_tile_mul_shared_twiddles`: a lane's product by a twiddle that
    /// four lanes of its warp share, on the tensor cores.
    pub tile_mul_shared: u64,
    /// As `tile_mul_shared`, eight lanes a twiddle.
    pub tile_mul_shared8: u64,
    /// As `tile_mul_shared`, sixteen lanes a twiddle (two sets of eight
    /// columns that read each of the table's fragments once).
    pub tile_mul_shared16: u64,
    /// Warp shuffles (`__shfl*_sync`), per lane, one for each 32-bit
    /// register moved (a 64-bit value takes two, as on the device): in a
    /// warp's count, the SHFL instructions it issues, which the device
    /// serves on its load-store pipe beside the shared memory's accesses.
    pub shuffles: u64,
    /// Warp matrix products (`mma.sync` m16n8k32), per lane.
    pub mmas: u64,
    /// A word-size NTT's data words read from or written to device memory
    /// (its address and the access), per thread.
    pub ntt_global_words: u64,
    /// Forward word-size NTT butterflies on 32-bit words, whose difference
    /// goes to the product unreduced (`ntt_butterflies`: the inverse
    /// ones and the pointwise products), per thread.
    pub ntt_forward_butterflies: u64,
    /// Forward word-size NTT butterflies on 64-bit words
    /// (`ntt62_butterflies`: the inverse ones and the pointwise products),
    /// per thread.
    pub ntt62_forward_butterflies: u64,
    /// Forward word-size NTT butterflies in FP64 (`ntt50_butterflies`: the
    /// inverse ones and the pointwise products), per thread.
    pub ntt50_forward_butterflies: u64,
    /// A word-size NTT's data words (32-bit) moved between device memory
    /// and the tile in a loop of their own (a launch's loads through shared
    /// memory, a pointwise product's two, its stores through shared memory;
    /// the groups' own accesses are `ntt_global_words`), per thread.
    pub ntt_tile_words: u64,
    /// `ntt_tile_words` of 64-bit words, per thread.
    pub ntt62_tile_words: u64,
    /// `ntt_tile_words` in FP64 (each converted as it moves), per thread.
    pub ntt50_tile_words: u64,
    /// Primes of a multi-modular join's passes over the residues (the
    /// residue's load, the fraction's sum in the first pass, the loop;
    /// `mm_primes`: the projection's), per thread.
    pub mm_join_primes: u64,
    /// `gfpf_tile_add_sub_shift`: one thread's butterfly of two elements
    /// with its difference's shift, the shift the same on every lane of
    /// the warp and fixed in the code (`gfpf_tile_add_sub_uniform_shift`).
    pub tile_add_sub_shift: u64,
}

/// `FieldOps`' methods over its every field, named once.
macro_rules! field_ops_methods {
    ($($field:ident),* $(,)?) => {
        impl FieldOps {
            /// Every count multiplied by `factor` (rounded): counts of
            /// sampled blocks scaled to the whole launch.
            pub fn scaled(&self, factor: f64) -> FieldOps {
                let s = |x: u64| (x as f64 * factor).round() as u64;
                FieldOps { $($field: s(self.$field)),* }
            }

            /// Each count with its field's name, in declaration order.
            pub fn counts(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($field), self.$field)),*]
            }

            /// The field `name` at `count`, every other at 0 (`None` where
            /// no field has that name): one operation's share of a linear
            /// cost.
            pub fn only(name: &str, count: u64) -> Option<FieldOps> {
                let mut ops = FieldOps::default();
                match name {
                    $(stringify!($field) => ops.$field = count,)*
                    _ => return None,
                }
                Some(ops)
            }
        }
    };
}

field_ops_methods!(
    mul,
    add_sub,
    mul_pow_r,
    lane_mul,
    lane_add_sub,
    lane_mul_pow_r,
    collectives,
    shared_words,
    barriers,
    ntt_butterflies,
    ntt_groups,
    mm_products,
    mm_digits,
    mm_macs,
    mm_primes,
    mm_terms,
    tile_mul,
    tile_add_sub,
    tile_mul_pow_r,
    tile_stages,
    ntt62_butterflies,
    ntt62_groups,
    mm62_products,
    mm62_macs,
    mm62_terms,
    ntt50_butterflies,
    ntt50_groups,
    ntt_mma_tiles,
    lane_add_or_sub,
    lane_sub_mul_pow_r,
    lane_add,
    tile_add_sub_mul_pow_r,
    tile_mul_shared,
    tile_mul_shared8,
    tile_mul_shared16,
    shuffles,
    mmas,
    ntt_global_words,
    ntt_forward_butterflies,
    ntt62_forward_butterflies,
    ntt50_forward_butterflies,
    ntt_tile_words,
    ntt62_tile_words,
    ntt50_tile_words,
    mm_join_primes,
    tile_add_sub_shift,
);

impl LaunchTraffic {
    /// Every count multiplied by `factor` (rounded) but the busiest
    /// thread's path: counts of sampled blocks scaled to the whole launch.
    pub fn scaled(&self, factor: f64) -> LaunchTraffic {
        let s = |x: u64| (x as f64 * factor).round() as u64;
        LaunchTraffic {
            requests: s(self.requests),
            sectors_read: s(self.sectors_read),
            sectors_written: s(self.sectors_written),
            bytes_read: s(self.bytes_read),
            bytes_written: s(self.bytes_written),
            table_sectors: s(self.table_sectors),
            table_bytes: s(self.table_bytes),
            tensor_table_sectors: s(self.tensor_table_sectors),
            tensor_table_bytes: s(self.tensor_table_bytes),
            tensor_resident_sectors: s(self.tensor_resident_sectors),
            ops: self.ops.scaled(factor),
            path_ops: self.path_ops,
            warp_ops: self.warp_ops.scaled(factor),
            shared_requests: s(self.shared_requests),
            shared_wavefronts: s(self.shared_wavefronts),
            shared_ideal_wavefronts: s(self.shared_ideal_wavefronts),
        }
    }

    /// Bytes moved: every sector touched, 32 bytes each.
    pub fn bytes_moved(&self) -> u64 {
        32 * (self.sectors_read + self.sectors_written)
    }

    /// Bytes used over bytes moved: 1 where every sector is used whole.
    pub fn sector_efficiency(&self) -> f64 {
        (self.bytes_read + self.bytes_written) as f64 / self.bytes_moved().max(1) as f64
    }
}

impl ExecutorError for EmulatorError {
    fn common(&self) -> Option<&TransformError> {
        match self {
            EmulatorError::Transform(e) => Some(e),
            _ => None,
        }
    }
}

/// How the emulator compiles the kernels: C++17, no contracted
/// floating-point operations (the device's FP64 kernels round each product
/// as written), and `-Og`, which builds and runs the emulator suite faster
/// than `-O1` (a clean suite 102.6 and 111.7 s against 114.6 and 116.3 s,
/// alternated, project VM, 2026-11-27; a library compiles in 60% of the
/// time and runs about as fast).
const HOST_COMPILER_FLAGS: [&str; 3] = ["-std=c++17", "-Og", "-ffp-contract=off"];

/// How the fibers of an emulated block switch from one to the next
/// (kernels/gfpf_emulation.h).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FiberSwitch {
    /// The fastest the host has: a few instructions that save the
    /// callee-saved registers and move the stack pointer on x86-64, the
    /// portable switch elsewhere.
    #[default]
    Native,
    /// ucontext for a fiber's first entry, `_setjmp`/`_longjmp` after it:
    /// what hosts without a native switch run, built on any host so that
    /// its tests run everywhere.
    Portable,
}

impl FiberSwitch {
    /// The compiler flags that select it.
    fn flags(self) -> &'static [&'static str] {
        match self {
            FiberSwitch::Native => &[],
            FiberSwitch::Portable => &["-DGFPF_EMU_PORTABLE_SWITCH=1"],
        }
    }
}

/// The C++ compiler the emulator uses: `$CXX`, else `c++`.
pub fn host_compiler() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "c++".to_owned())
}

/// `Some(reason)` when no host C++ compiler runs here.
pub fn emulator_unavailable() -> Option<String> {
    let cxx = host_compiler();
    match Command::new(&cxx).arg("--version").output() {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "`{cxx} --version` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) => Some(format!("no host C++ compiler (`{cxx}`): {e}")),
    }
}

/// The kernels of one field compiled for the host, loaded.
#[derive(Debug)]
pub struct HostKernels {
    library: libloading::Library,
    path: PathBuf,
    /// The field's k, where the kernels are a field's (the stage kernels'
    /// dynamic shared memory depends on it; 0 for the NTT's).
    k: usize,
    /// Compiled with line tables: [`LaunchCounts::shared_sites`] filled.
    line_tables: bool,
}

/// One source line's shared-memory accesses in a launch
/// ([`LaunchCounts::shared_sites`], scaled to the whole launch as its
/// traffic; [`HostKernels::take_shared_sites`], over the blocks run):
/// warp-wide accesses, the wavefronts the banks take for them, and those
/// they would take without conflicts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedSite {
    /// The kernel file (`gfpf_fft.cu`, `gfpf_lanes.cuh`, ...), or `?`.
    pub file: String,
    /// Its line (0 where unknown).
    pub line: u32,
    /// Warp-wide accesses.
    pub requests: u64,
    /// Wavefronts.
    pub wavefronts: u64,
    /// Wavefronts without bank conflicts.
    pub ideal_wavefronts: u64,
}

impl HostKernels {
    /// Compiles (or reuses, keyed by a hash of the source) the kernels of
    /// `field` for every base size the device's plans use
    /// ([`device_base_sizes`]) into `dir`, and loads them.
    pub fn build<const K: usize>(field: &Field<K>, dir: &Path) -> Result<Self, EmulatorError> {
        Self::build_from(gfpf_kernels::FFT_SOURCE, field, &device_base_sizes(K), dir)
    }

    /// As [`HostKernels::build`], from `fft_source` in place of
    /// kernels/gfpf_fft.cu (a modified kernel, for the emulator's own tests)
    /// and for the base sizes `radices` only.
    pub fn build_from<const K: usize>(
        fft_source: &str,
        field: &Field<K>,
        radices: &[usize],
        dir: &Path,
    ) -> Result<Self, EmulatorError> {
        Self::build_from_switching(fft_source, field, radices, dir, FiberSwitch::Native)
    }

    /// As [`HostKernels::build_from`], compiled with line tables (`-g1`), so
    /// that [`EmulatedFft::launch_counts`] reports each launch's
    /// shared-memory accesses by source line ([`LaunchCounts::shared_sites`];
    /// `addr2line`, of binutils, names them).
    pub fn build_from_with_line_tables<const K: usize>(
        fft_source: &str,
        field: &Field<K>,
        radices: &[usize],
        dir: &Path,
    ) -> Result<Self, EmulatorError> {
        Self::build_field(fft_source, field, radices, dir, FiberSwitch::Native, true)
    }

    /// As [`HostKernels::build_from`], its fibers switched by `switch`.
    pub fn build_from_switching<const K: usize>(
        fft_source: &str,
        field: &Field<K>,
        radices: &[usize],
        dir: &Path,
        switch: FiberSwitch,
    ) -> Result<Self, EmulatorError> {
        Self::build_field(fft_source, field, radices, dir, switch, false)
    }

    /// A field's kernels from `fft_source` for the base sizes `radices`,
    /// as [`HostKernels::build_source`] builds them.
    fn build_field<const K: usize>(
        fft_source: &str,
        field: &Field<K>,
        radices: &[usize],
        dir: &Path,
        switch: FiberSwitch,
        line_tables: bool,
    ) -> Result<Self, EmulatorError> {
        let constants = DeviceConstants::of(field);
        let source = host_translation_unit_of(fft_source, &constants, radices);
        Self::build_source(&module_name(&constants, radices), &source, dir, K, switch, line_tables)
    }

    /// The word-size NTT kernels (kernels/gfpf_ntt.cu), compiled into (or
    /// reused from) `dir`.
    pub fn build_ntt(dir: &Path) -> Result<Self, EmulatorError> {
        Self::build_source(
            "gfpf_ntt",
            &gfpf_kernels::ntt_translation_unit(true),
            dir,
            0,
            FiberSwitch::Native,
            false,
        )
    }

    /// As [`HostKernels::build_ntt`], from `ntt_source` in place of
    /// kernels/gfpf_ntt.cu (a modified kernel, for the emulator's own tests).
    pub fn build_ntt_from(ntt_source: &str, dir: &Path) -> Result<Self, EmulatorError> {
        let unit = gfpf_kernels::ntt_translation_unit_of(ntt_source, true);
        Self::build_source("gfpf_ntt", &unit, dir, 0, FiberSwitch::Native, false)
    }

    /// Compiles (or reuses, keyed by `name` and a hash of `source` and the
    /// flags) one
    /// host-emulation translation unit and loads it.
    /// `k`: the field's digits (0 for the NTT's module); `line_tables`:
    /// compiled with `-g1` and counting shared accesses by site.
    fn build_source(
        name: &str,
        source: &str,
        dir: &Path,
        k: usize,
        switch: FiberSwitch,
        line_tables: bool,
    ) -> Result<Self, EmulatorError> {
        let line_table_flags: &[&str] = if line_tables { &["-g1"] } else { &[] };
        let mut hasher = DefaultHasher::new();
        source.hash(&mut hasher);
        HOST_COMPILER_FLAGS.hash(&mut hasher);
        switch.flags().hash(&mut hasher);
        line_table_flags.hash(&mut hasher);
        let stem = format!("{name}-{:016x}", hasher.finish());
        let path = dir.join(format!("{stem}.so"));
        // One build of each library at a time in this process (tests on
        // several threads ask for the same one at once); different libraries
        // build in parallel.
        static BUILDING: std::sync::Mutex<Vec<(String, std::sync::Arc<std::sync::Mutex<()>>)>> =
            std::sync::Mutex::new(Vec::new());
        let lock = {
            let mut building = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
            match building.iter().find(|(s, _)| *s == stem) {
                Some((_, lock)) => std::sync::Arc::clone(lock),
                None => {
                    let lock = std::sync::Arc::new(std::sync::Mutex::new(()));
                    building.push((stem.clone(), std::sync::Arc::clone(&lock)));
                    lock
                }
            }
        };
        let _building = lock.lock().unwrap_or_else(|e| e.into_inner());
        let emulator_error = |what: &str, e: std::io::Error| EmulatorError::Host(format!("{what}: {e}"));
        if !path.exists() {
            std::fs::create_dir_all(dir).map_err(|e| emulator_error("creating the build directory", e))?;
            // Private names, then an atomic rename: concurrent builds (test
            // threads, processes) never see a half-written library.
            let tag = format!("{}.{:?}", std::process::id(), std::thread::current().id());
            let tag: String = tag.chars().filter(char::is_ascii_alphanumeric).collect();
            let src = dir.join(format!("{stem}.{tag}.cpp"));
            let tmp = dir.join(format!("{stem}.{tag}.tmp"));
            std::fs::write(&src, source).map_err(|e| emulator_error("writing the source", e))?;
            let out = Command::new(host_compiler())
                .args(HOST_COMPILER_FLAGS)
                .args(switch.flags())
                .args(line_table_flags)
                .args(["-shared", "-fPIC", "-w", "-o"])
                .arg(&tmp)
                .arg(&src)
                .output()
                .map_err(|e| emulator_error("running the host compiler", e))?;
            let _ = std::fs::remove_file(&src);
            if !out.status.success() {
                return Err(EmulatorError::Compile {
                    module: stem,
                    log: String::from_utf8_lossy(&out.stderr).into_owned(),
                });
            }
            std::fs::rename(&tmp, &path).map_err(|e| emulator_error("installing the library", e))?;
        }
        // SAFETY: the library is ours, just compiled from kernels/ as plain
        // C++ with no initialisers that run on load.
        let library = unsafe { libloading::Library::new(&path) }
            .map_err(|e| EmulatorError::Host(format!("loading {}: {e}", path.display())))?;
        let kernels = HostKernels {
            library,
            path,
            k,
            line_tables,
        };
        if line_tables {
            kernels.count_shared_sites(true)?;
        }
        Ok(kernels)
    }

    /// Turns the library's count of shared accesses by site on or off
    /// (either forgets what it had).
    fn count_shared_sites(&self, on: bool) -> Result<(), EmulatorError> {
        // SAFETY: gfpf_emulation.h defines it with this signature.
        let function = unsafe {
            self.library
                .get::<unsafe extern "C" fn(i32)>(b"gfpf_emu_shared_sites_count")
        }
        .map_err(|e| EmulatorError::Host(format!("gfpf_emu_shared_sites_count in {}: {e}", self.path.display())))?;
        // SAFETY: it takes an int and touches only the library's own table.
        unsafe { function(i32::from(on)) };
        Ok(())
    }

    /// The shared accesses counted by site since the last call (of kernels
    /// built with line tables; none for others), by source line
    /// (`addr2line` names the sites from the line tables), most wavefronts
    /// first: [`EmulatedFft::launch_counts`] takes them after each launch.
    pub fn take_shared_sites(&self) -> Result<Vec<SharedSite>, EmulatorError> {
        if !self.line_tables {
            return Ok(Vec::new());
        }
        type Take = unsafe extern "C" fn(*mut u64, u64) -> u64;
        // SAFETY: gfpf_emulation.h defines it with this signature.
        let take = unsafe { self.library.get::<Take>(b"gfpf_emu_shared_sites_take") }
            .map_err(|e| EmulatorError::Host(format!("gfpf_emu_shared_sites_take in {}: {e}", self.path.display())))?;
        const MOST_SITES: usize = 4096;
        let mut counts = vec![0u64; 4 * MOST_SITES];
        // SAFETY: the buffer holds the MOST_SITES sites' quadruples the call
        // is told it may write.
        let sites = unsafe { take(counts.as_mut_ptr(), MOST_SITES as u64) } as usize;
        if sites > MOST_SITES {
            return Err(EmulatorError::Host(format!(
                "{sites} shared-memory sites in one launch, past the {MOST_SITES} a report takes"
            )));
        }
        counts.truncate(4 * sites);
        if counts.is_empty() {
            return Ok(Vec::new());
        }
        // A site is the return address of the accessor's call: the call's
        // own line is a byte before it.
        let addresses: Vec<String> = counts
            .chunks(4)
            .map(|c| format!("{:#x}", c[0].saturating_sub(1)))
            .collect();
        let out = Command::new("addr2line")
            .arg("-e")
            .arg(&self.path)
            .args(&addresses)
            .output()
            .map_err(|e| EmulatorError::Host(format!("running addr2line (binutils) to name the sites: {e}")))?;
        let names = String::from_utf8_lossy(&out.stdout);
        let mut by_line: std::collections::BTreeMap<(String, u32), [u64; 3]> = std::collections::BTreeMap::new();
        for (c, name) in counts.chunks(4).zip(names.lines().chain(std::iter::repeat("?:0"))) {
            let (file, line) = name.rsplit_once(':').unwrap_or((name, "0"));
            let file = file.rsplit('/').next().unwrap_or(file).to_owned();
            let line = line.split_whitespace().next().and_then(|l| l.parse().ok()).unwrap_or(0);
            let entry = by_line.entry((file, line)).or_default();
            for i in 0..3 {
                entry[i] += c[1 + i];
            }
        }
        let mut sites: Vec<SharedSite> = by_line
            .into_iter()
            .map(|((file, line), [requests, wavefronts, ideal_wavefronts])| SharedSite {
                file,
                line,
                requests,
                wavefronts,
                ideal_wavefronts,
            })
            .collect();
        sites.sort_by(|a, b| b.wavefronts.cmp(&a.wavefronts).then(a.line.cmp(&b.line)));
        Ok(sites)
    }

    /// The compiled library's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Calls the library's `extern "C" int symbol(int)`: a switch or a probe
    /// that a modified source (the emulator's own tests) defines, such as
    /// which barrier to skip; what it returns.
    ///
    /// # Safety
    /// `symbol` must be a function of that signature.
    pub unsafe fn call_with_int(&self, symbol: &str, value: i32) -> Result<i32, EmulatorError> {
        // SAFETY: as the caller promises.
        let function = unsafe { self.library.get::<unsafe extern "C" fn(i32) -> i32>(symbol.as_bytes()) }
            .map_err(|e| EmulatorError::Host(format!("{symbol} in {}: {e}", self.path.display())))?;
        // SAFETY: as the caller promises.
        Ok(unsafe { function(value) })
    }

    /// Runs `kernel` over `params.threads` threads in blocks of
    /// `threads_per_block` (the device's geometry), the threads of each
    /// block in ascending (`schedule` 0) or descending (1) order; with
    /// `count_traffic`, the global memory it moved (else zeros: counting
    /// doubles the emulator's time).
    ///
    /// # Safety
    /// The addresses in `params` must point to host buffers as large as the
    /// launch reads and writes (as [`gfpf_cuda::params::launches`] sizes them).
    pub unsafe fn launch(
        &self,
        kernel: &Kernel,
        params: &StageParams,
        threads_per_block: u32,
        schedule: u32,
        count_traffic: bool,
    ) -> Result<LaunchTraffic, EmulatorError> {
        // SAFETY: as the caller promises.
        unsafe { self.launch_kernel_sampled(kernel, params, threads_per_block, schedule, count_traffic, 1) }
    }

    /// As [`HostKernels::launch`], running only every `block_stride`-th
    /// block (as [`HostKernels::launch_sampled`]), each block given the
    /// dynamic shared memory the device gives `kernel`
    /// ([`gfpf_cuda::dynamic_shared_bytes`]).
    ///
    /// # Safety
    /// As [`HostKernels::launch`].
    pub unsafe fn launch_kernel_sampled(
        &self,
        kernel: &Kernel,
        params: &StageParams,
        threads_per_block: u32,
        schedule: u32,
        count_traffic: bool,
        block_stride: u32,
    ) -> Result<LaunchTraffic, EmulatorError> {
        let shared = u64::from(gfpf_cuda::dynamic_shared_bytes(kernel, self.k));
        // SAFETY: as the caller promises.
        unsafe {
            self.launch_sampled(
                &kernel.symbol(),
                params,
                threads_per_block,
                schedule,
                count_traffic,
                block_stride,
                shared,
            )
        }
    }

    /// `kernel` launched with `params` (the device's block size), counted on
    /// about `sample_blocks` of its blocks and scaled to the whole launch;
    /// `tensor_table_bytes` as [`LaunchCounts`] holds them.
    ///
    /// # Safety
    /// As [`HostKernels::launch`].
    unsafe fn counted_launch(
        &self,
        kernel: &Kernel,
        params: &StageParams,
        sample_blocks: u32,
        tensor_table_bytes: u64,
    ) -> Result<LaunchCounts, EmulatorError> {
        let threads_per_block = block_threads(kernel, self.k);
        let blocks = params.threads.div_ceil(u64::from(threads_per_block));
        let stride = blocks.div_ceil(u64::from(sample_blocks.max(1))).max(1);
        let run = blocks.div_ceil(stride);
        // SAFETY: as the caller promises.
        let traffic = unsafe {
            self.launch_kernel_sampled(
                kernel,
                params,
                threads_per_block,
                0,
                true,
                u32::try_from(stride).unwrap_or(u32::MAX),
            )?
        };
        let scale = blocks as f64 / run as f64;
        let scaled = |x: u64| (x as f64 * scale).round() as u64;
        let mut shared_sites = self.take_shared_sites()?;
        for site in &mut shared_sites {
            site.requests = scaled(site.requests);
            site.wavefronts = scaled(site.wavefronts);
            site.ideal_wavefronts = scaled(site.ideal_wavefronts);
        }
        Ok(LaunchCounts {
            kernel: *kernel,
            threads: params.threads,
            threads_per_block,
            traffic: traffic.scaled(scale),
            tensor_table_bytes,
            shared_sites,
        })
    }

    /// As [`HostKernels::launch`], for the kernel named `symbol` (a kernel of
    /// a modified source, declared with `GFPF_KERNEL` or `GFPF_BLOCK_KERNEL`).
    ///
    /// # Safety
    /// As [`HostKernels::launch`].
    pub unsafe fn launch_symbol(
        &self,
        symbol: &str,
        params: &StageParams,
        threads_per_block: u32,
        schedule: u32,
        count_traffic: bool,
    ) -> Result<LaunchTraffic, EmulatorError> {
        // SAFETY: as the caller promises.
        unsafe { self.launch_sampled(symbol, params, threads_per_block, schedule, count_traffic, 1, 0) }
    }

    /// As [`HostKernels::launch_symbol`], running only every
    /// `block_stride`-th block (1: all): counts of a large launch whose
    /// blocks do alike, at a fraction of its time. The counts are those of
    /// the blocks run; the results are partial. Each block is given
    /// `dynamic_shared_bytes` of dynamic shared memory.
    ///
    /// # Safety
    /// As [`HostKernels::launch`].
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn launch_sampled(
        &self,
        symbol: &str,
        params: &StageParams,
        threads_per_block: u32,
        schedule: u32,
        count_traffic: bool,
        block_stride: u32,
        dynamic_shared_bytes: u64,
    ) -> Result<LaunchTraffic, EmulatorError> {
        // SAFETY: as the caller promises; every kernel symbol of
        // gfpf_fft.cu takes a GfpfStageParams (StageParams).
        unsafe {
            self.launch_params(
                symbol,
                params,
                params.threads,
                threads_per_block,
                schedule,
                count_traffic,
                block_stride,
                dynamic_shared_bytes,
            )
        }
    }

    /// As [`HostKernels::launch_sampled`] for a kernel whose parameter
    /// block is `P` (the `repr(C)` twin of its C struct), over `threads`
    /// threads, each block given `dynamic_shared_bytes` of dynamic shared
    /// memory (a kernel's `GFPF_DYNAMIC_SHARED_ARRAY` words past them are
    /// out of bounds).
    ///
    /// # Safety
    /// As [`HostKernels::launch`]; `P` must match the kernel's parameter
    /// struct.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn launch_params<P>(
        &self,
        symbol: &str,
        params: &P,
        threads: u64,
        threads_per_block: u32,
        schedule: u32,
        count_traffic: bool,
        block_stride: u32,
        dynamic_shared_bytes: u64,
    ) -> Result<LaunchTraffic, EmulatorError> {
        // SAFETY: every kernel symbol of the emulated modules has this
        // signature in host emulation: `extern "C" int name(const P*,
        // const GfpfEmuLaunch*)`, P its parameter struct.
        let f = unsafe {
            self.library
                .get::<unsafe extern "C" fn(*const P, *mut EmulatedLaunch) -> i32>(symbol.as_bytes())
        }
        .map_err(|e| EmulatorError::Host(format!("kernel {symbol}: {e}")))?;
        let mut message = vec![0u8; 1024];
        let mut launch = EmulatedLaunch {
            grid_x: threads.div_ceil(u64::from(threads_per_block)),
            block_x: u64::from(threads_per_block),
            schedule: u64::from(schedule),
            error: message.as_mut_ptr().cast(),
            error_capacity: message.len() as u64,
            count_traffic: u64::from(count_traffic),
            block_stride: u64::from(block_stride.max(1)),
            dynamic_shared_bytes,
            traffic: LaunchTraffic::default(),
        };
        // SAFETY: the caller guarantees the buffers; StageParams and
        // EmulatedLaunch match the C structs; the message buffer outlives
        // the call and its capacity is passed with it.
        let status = unsafe { f(params, &mut launch) };
        if status != 0 {
            let end = message.iter().position(|&b| b == 0).unwrap_or(message.len());
            return Err(EmulatorError::Kernel(
                String::from_utf8_lossy(&message[..end]).into_owned(),
            ));
        }
        Ok(launch.traffic)
    }

    /// Runs `kernel` under both schedules (traffic counted on the first,
    /// when `count_traffic`), the second on copies of the
    /// buffers `bind` addresses, and checks that they wrote the same words:
    /// `bind(buffers)` gives the parameters for a set of buffers, `buffers`
    /// holds the launch's writable buffers.
    ///
    /// # Safety
    /// As [`HostKernels::launch`], for the parameters `bind` returns on
    /// `buffers` and on a copy of them.
    pub unsafe fn launch_checked(
        &self,
        kernel: &Kernel,
        threads_per_block: u32,
        buffers: &mut [Vec<u64>],
        bind: impl Fn(&mut [Vec<u64>]) -> StageParams,
        count_traffic: bool,
    ) -> Result<LaunchTraffic, EmulatorError> {
        let mut copies = buffers.to_vec();
        // SAFETY: as the caller promises, for the copies and the originals.
        let traffic = unsafe {
            self.launch(kernel, &bind(&mut copies), threads_per_block, 1, false)?;
            self.launch(kernel, &bind(buffers), threads_per_block, 0, count_traffic)?
        };
        if copies != buffers {
            return Err(EmulatorError::ScheduleDependent {
                kernel: kernel.symbol(),
            });
        }
        Ok(traffic)
    }
}

/// A transform run by the host emulator: the same plan, launches and kernel
/// code as `gfpf_cuda::CudaFft`, on host memory.
#[derive(Debug)]
pub struct EmulatedFft<const K: usize> {
    prepared: PreparedFft<K>,
    /// The twiddle table element-major (at least one element, as on the device).
    table: Vec<u64>,
    kernels: HostKernels,
    stage_kernels: StageKernels,
    /// The device whose launches it runs (default: the H100).
    device: DeviceShape,
}

impl<const K: usize> EmulatedFft<K> {
    /// Plans a transform; kernels are compiled into (or reused from) `dir`.
    pub fn try_new(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        dir: &Path,
    ) -> Result<Self, EmulatorError> {
        Self::with_kernels(field, n, direction, order, HostKernels::build(field, dir)?)
    }

    /// As [`EmulatedFft::try_new`], on kernels already built (for instance
    /// by [`HostKernels::build_from`] from a modified source).
    pub fn with_kernels(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        kernels: HostKernels,
    ) -> Result<Self, EmulatorError> {
        // The device's plan: base DFTs up to device_max_radix.
        let prepared = PreparedFft::try_new(field, n, direction, order)?.with_max_radix(device_max_radix(K))?;
        let table = device_twiddle_table(&prepared)?;
        Ok(EmulatedFft {
            prepared,
            table,
            kernels,
            stage_kernels: StageKernels::for_device(K),
            device: DeviceShape::H100,
        })
    }

    /// The same transform launched as on `device` (its SMs set which stages
    /// run as teams of threads, its blocks' shared memory which stages
    /// pair; default [`DeviceShape::H100`]).
    pub fn on_device(mut self, device: DeviceShape) -> Self {
        self.device = device;
        self
    }

    /// The same transform with its base-DFT stages run by `stage_kernels`
    /// (default: what the device runs, [`StageKernels::for_device`]).
    pub fn with_stage_kernels(mut self, stage_kernels: StageKernels) -> Self {
        self.stage_kernels = stage_kernels;
        self
    }

    /// The same transform planned as the device plans it, with no base DFT
    /// larger than `max_radix` (the device's plans stop at
    /// [`device_max_radix`]), on kernels that must hold those base sizes
    /// ([`HostKernels::build_from`]).
    pub fn with_max_radix(mut self, max_radix: usize) -> Result<Self, EmulatorError> {
        self.prepared = self.prepared.with_max_radix(max_radix)?;
        Ok(self)
    }

    /// The same transform on the host's plan (base DFTs up to 2k, the
    /// remainder innermost): the plans of the kernels measured before the
    /// lane kernels.
    pub fn with_host_plan(mut self) -> Result<Self, EmulatorError> {
        self.prepared = self.prepared.with_host_plan()?;
        Ok(self)
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        self.prepared.plan()
    }

    /// The launches a batch of `batch` transforms runs: the plan's on this
    /// transform's device with its stage kernels (what
    /// [`gfpf_cuda::params::launches_with_on`] gives for them).
    pub fn launches(&self, batch: usize) -> Vec<gfpf_cuda::params::Launch> {
        launches_with_on(
            self.plan(),
            batch,
            self.stage_kernels,
            &self.device.for_field(self.prepared.field()),
        )
    }

    fn run(&self, data: &mut [Element<K>]) -> Result<(), EmulatorError> {
        if data.is_empty() {
            return Ok(());
        }
        let mut words = to_digit_major(data);
        self.run_words(&mut words)?;
        let out = from_digit_major(self.prepared.field(), &words)?;
        data.copy_from_slice(&out);
        Ok(())
    }

    /// Transforms digit-major words (a batch: k·len words, len a multiple of
    /// N) in place, as `CudaFft::process_device` does a device buffer.
    pub fn run_words(&self, words: &mut [u64]) -> Result<(), EmulatorError> {
        self.run_words_with(words, false).map(drop)
    }

    /// As [`EmulatedFft::run_words`], returning each launch's kernel and
    /// global memory traffic, in order.
    pub fn run_words_counted(&self, words: &mut [u64]) -> Result<Vec<(Kernel, LaunchTraffic)>, EmulatorError> {
        self.run_words_with(words, true)
    }

    /// What each launch of a batch of `batch` transforms does, for a time
    /// model: the global traffic and field operations of at most
    /// `sample_blocks` of its blocks, evenly spread, scaled to the whole
    /// launch (every block of a stage does alike: addresses follow from
    /// indices, and the operations run but for branches that random values
    /// about never take). Runs on pseudo-random digits below r (a fixed
    /// seed), data and scratch, not zeros, whose elements take such
    /// branches (t8's rows product carries a zero element's rows twice) or
    /// leave others (a butterfly's borrow past the top, half of random
    /// differences); no result is produced.
    pub fn launch_counts(&self, batch: usize, sample_blocks: u32) -> Result<Vec<LaunchCounts>, EmulatorError> {
        let len = batch * self.len();
        // The scratch too: a launch's unsampled blocks write nothing there,
        // and the next launch reads it.
        let r = self.prepared.field().r();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random_digits = |words: usize| -> Vec<u64> {
            (0..words)
                .map(|_| {
                    // splitmix64: cheap, and enough for values no branch
                    // tests.
                    state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                    let mut z = state;
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    (z ^ (z >> 31)) % r
                })
                .collect()
        };
        let mut data = random_digits(K * len);
        let mut scratch = random_digits(if self.plan().scratch_len() > 0 { K * len } else { 0 });
        let n_inv = *self.prepared.n_inv().digits();
        let mut out = Vec::new();
        for launch in &self.launches(batch) {
            let tensor_table = self.tensor_table(launch)?;
            let params = launch.bind(
                data.as_mut_ptr() as u64,
                scratch.as_mut_ptr() as u64,
                self.table.as_ptr() as u64,
                n_inv.as_ptr() as u64,
                tensor_table.as_ptr() as u64,
            );
            let tensor_table_bytes = if tensor_table.len() > 1 {
                8 * tensor_table.len() as u64
            } else {
                0
            };
            // SAFETY: the buffers hold batch·N elements digit-major, the
            // table and N^{-1} as run_words_with binds them.
            out.push(unsafe {
                self.kernels
                    .counted_launch(&launch.kernel, &params, sample_blocks, tensor_table_bytes)?
            });
        }
        Ok(out)
    }

    /// The tensor cores' twiddle tables a launch reads
    /// (gfpf_cuda::tensor_twiddle_table), empty for the launches
    /// that read none.
    fn tensor_table(&self, launch: &gfpf_cuda::params::Launch) -> Result<Vec<u64>, EmulatorError> {
        Ok(match gfpf_cuda::params::tensor_stage_params(launch) {
            Some(params) => {
                gfpf_cuda::tensor_twiddle_table(self.prepared.field(), &self.table, &params, &launch.kernel)?
            }
            None => Vec::new(),
        })
    }

    fn run_words_with(&self, words: &mut [u64], count: bool) -> Result<Vec<(Kernel, LaunchTraffic)>, EmulatorError> {
        let len = words.len() / K;
        let mut counted = Vec::new();
        let scratch = vec![0u64; if self.plan().scratch_len() > 0 { words.len() } else { 0 }];
        let mut buffers = [words.to_vec(), scratch];
        let n_inv = *self.prepared.n_inv().digits();
        for launch in &self.launches(len / self.len()) {
            let tensor_table = self.tensor_table(launch)?;
            let bind = |buffers: &mut [Vec<u64>]| {
                let [data, scratch] = buffers else {
                    unreachable!("two buffers")
                };
                launch.bind(
                    data.as_mut_ptr() as u64,
                    scratch.as_mut_ptr() as u64,
                    self.table.as_ptr() as u64,
                    n_inv.as_ptr() as u64,
                    tensor_table.as_ptr() as u64,
                )
            };
            let threads_per_block = block_threads(&launch.kernel, K);
            // SAFETY: data and scratch hold batch·N elements digit-major
            // (pitch batch·N, as the launches say), the table M entries with
            // pitch M, N^{-1} k words: everything the kernels address.
            let traffic = unsafe {
                self.kernels
                    .launch_checked(&launch.kernel, threads_per_block, &mut buffers, bind, count)?
            };
            counted.push((launch.kernel, traffic));
        }
        words.copy_from_slice(&buffers[0]);
        Ok(counted)
    }
}

/// Polynomial products the way `gfpf_cuda::CudaPolyMul` computes them (both
/// operands padded to S, forward DFT_S in digit-reversed order, the pointwise
/// kernel, inverse DFT_S), on host memory through the emulated kernels.
#[derive(Debug)]
pub struct EmulatedPolyMul<const K: usize> {
    field: Field<K>,
    dir: PathBuf,
}

impl<const K: usize> EmulatedPolyMul<K> {
    /// Products over `field`; kernels are compiled into (or reused from) `dir`.
    pub fn new(field: &Field<K>, dir: &Path) -> Self {
        EmulatedPolyMul {
            field: field.clone(),
            dir: dir.to_owned(),
        }
    }

    /// The product, exactly la + lb − 1 coefficients (none if either is empty).
    pub fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, EmulatorError> {
        if a.is_empty() || b.is_empty() {
            return Ok(Vec::new());
        }
        let len = a.len() + b.len() - 1;
        let s = len.next_power_of_two();
        let plan = |direction| EmulatedFft::try_new(&self.field, s, direction, Order::DigitReversed, &self.dir);
        let (forward, inverse) = (plan(Direction::Forward)?, plan(Direction::Inverse)?);
        let padded = |x: &[Element<K>]| {
            let mut v = x.to_vec();
            v.resize(s, Element::ZERO);
            to_digit_major(&v)
        };
        let (mut wa, mut wb) = (padded(a), padded(b));
        forward.run_words(&mut wa)?;
        forward.run_words(&mut wb)?;
        let mut wa = pointwise_words::<K>(&forward.kernels, wa, wb)?;
        inverse.run_words(&mut wa)?;
        let mut out = from_digit_major(&self.field, &wa)?;
        out.truncate(len);
        Ok(out)
    }
}

impl<const K: usize> EmulatedPolyMul<K> {
    /// The products a_i·b_i by the device's pointwise kernel alone (the
    /// field product of its lanes, with no transform around it), for
    /// checking that product on chosen values.
    pub fn pointwise(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, EmulatorError> {
        if a.len() != b.len() {
            return Err(EmulatorError::OperandLengths(a.len(), b.len()));
        }
        if a.is_empty() {
            return Ok(Vec::new());
        }
        let kernels = HostKernels::build(&self.field, &self.dir)?;
        let out = pointwise_words::<K>(&kernels, to_digit_major(a), to_digit_major(b))?;
        Ok(from_digit_major(&self.field, &out)?)
    }
}

impl<const K: usize> EmulatedPolyMul<K> {
    /// The pointwise product of two transforms of `len` elements, counted
    /// on about `sample_blocks` of its blocks (scaled to the launch), as
    /// [`EmulatedFft::launch_counts`] counts a transform's launches.
    pub fn pointwise_counts(&self, len: usize, sample_blocks: u32) -> Result<LaunchCounts, EmulatorError> {
        let kernels = HostKernels::build(&self.field, &self.dir)?;
        let mut a = vec![0u64; K * len];
        let b = vec![0u64; K * len];
        let (kernel, params) = pointwise_mul(K, a.as_mut_ptr() as u64, b.as_ptr() as u64, len);
        // SAFETY: both buffers hold `len` elements digit-major with pitch
        // `len`, as pointwise_mul binds them.
        unsafe { kernels.counted_launch(&kernel, &params, sample_blocks, 0) }
    }
}

/// `a` times `b` element by element through the pointwise kernel; both hold
/// the same number of elements digit-major (pitch: that number).
fn pointwise_words<const K: usize>(kernels: &HostKernels, a: Vec<u64>, b: Vec<u64>) -> Result<Vec<u64>, EmulatorError> {
    let len = a.len() / K;
    let mut buffers = [a, b];
    let bind = |buffers: &mut [Vec<u64>]| {
        let [a, b] = buffers else { unreachable!("two buffers") };
        pointwise_mul(K, a.as_mut_ptr() as u64, b.as_ptr() as u64, len).1
    };
    let kernel = pointwise_mul(K, 0, 0, len).0;
    // SAFETY: both buffers hold `len` elements digit-major with pitch `len`.
    unsafe { kernels.launch_checked(&kernel, block_threads(&kernel, K), &mut buffers, bind, false)? };
    let [out, _] = buffers;
    Ok(out)
}

/// Host slices, as `gfpf_cuda::CudaFft` takes them: the emulator's own
/// scratch is the digit-major copy it makes, so it asks for none.
impl<const K: usize> Transform<K> for EmulatedFft<K> {
    type Error = EmulatorError;
    fn prepared(&self) -> &PreparedFft<K> {
        &self.prepared
    }
    fn scratch_len(&self) -> usize {
        0
    }
    fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), EmulatorError> {
        self.check_lengths(data.len(), scratch.len())?;
        self.run(data)
    }
}

/// Word-size NTTs the way the device runs them (`gfpf_cuda::ntt`): the
/// plan's launches of kernels/gfpf_ntt.cu on host memory through the
/// block-level emulator, each under both schedules of its threads, in
/// words `W` ([`EmulatedNtt31`], [`EmulatedNtt62`]).
#[derive(Debug)]
pub struct EmulatedNtt<W: NttWord> {
    plan: gfpf_cuda::ntt::NttPlan<W>,
    forward_table: Vec<W>,
    inverse_table: Vec<W>,
    constants: Vec<W>,
    kernels: HostKernels,
}

/// Emulated NTTs modulo primes below 2^31.
pub type EmulatedNtt31 = EmulatedNtt<u32>;
/// Emulated NTTs modulo primes c·2^32 + 1 below 2^62.
pub type EmulatedNtt62 = EmulatedNtt<u64>;
/// Emulated NTTs modulo primes c·2^32 + 1 below 2^50, in FP64.
pub type EmulatedNtt50 = EmulatedNtt<gfpf_cuda::ntt::F64Word>;

impl<W: NttWord> EmulatedNtt<W> {
    /// Emulated transforms of `plan`; the kernels are compiled into (or
    /// reused from) `dir`.
    pub fn new(plan: gfpf_cuda::ntt::NttPlan<W>, dir: &Path) -> Result<Self, EmulatorError> {
        Ok(Self::with_kernels(plan, HostKernels::build_ntt(dir)?))
    }

    /// Emulated transforms of `plan` on kernels already built
    /// ([`HostKernels::build_ntt`] or [`HostKernels::build_ntt_from`]).
    pub fn with_kernels(plan: gfpf_cuda::ntt::NttPlan<W>, kernels: HostKernels) -> Self {
        EmulatedNtt {
            forward_table: plan.twiddle_table(Direction::Forward),
            inverse_table: plan.twiddle_table(Direction::Inverse),
            constants: plan.prime_constants(),
            kernels,
            plan,
        }
    }

    /// The plan.
    pub fn plan(&self) -> &gfpf_cuda::ntt::NttPlan<W> {
        &self.plan
    }

    /// Transforms `data` in place: prime-major, `transforms_per_prime`
    /// transforms of N words a prime, each below its prime.
    pub fn run(&self, data: &mut [W], transforms_per_prime: usize, direction: Direction) -> Result<(), EmulatorError> {
        self.run_counted(data, None, transforms_per_prime, direction, false, 1)
            .map(|_| ())
    }

    /// Transforms the pointwise product of `data` and `other` (the same
    /// layout) into `data`, the product made as the first launch reads
    /// `data` (`gfpf_cuda::ntt::CudaNtt::process_device_times`).
    pub fn run_times(
        &self,
        data: &mut [W],
        other: &[W],
        transforms_per_prime: usize,
        direction: Direction,
    ) -> Result<(), EmulatorError> {
        self.run_counted(data, Some(other), transforms_per_prime, direction, false, 1)
            .map(|_| ())
    }

    /// As [`EmulatedNtt::run`] (or [`EmulatedNtt::run_times`] with
    /// `other`), with each launch's traffic and operations when
    /// `count_traffic`, running every `block_stride`-th block only (for
    /// counts; the results are then partial, and only the first schedule
    /// runs).
    pub fn run_counted(
        &self,
        data: &mut [W],
        other: Option<&[W]>,
        transforms_per_prime: usize,
        direction: Direction,
        count_traffic: bool,
        block_stride: u32,
    ) -> Result<Vec<(gfpf_cuda::ntt::NttParams, LaunchTraffic)>, EmulatorError> {
        let words = self.plan.primes().len() * transforms_per_prime * self.plan.len();
        if data.len() != words {
            return Err(EmulatorError::OperandLengths(data.len(), words));
        }
        if let Some(other) = other
            && other.len() != words
        {
            return Err(EmulatorError::OperandLengths(other.len(), words));
        }
        let table = match direction {
            Direction::Forward => &self.forward_table,
            Direction::Inverse => &self.inverse_table,
        };
        let mut counted = Vec::new();
        for (i, launch) in self
            .plan
            .launches(transforms_per_prime, direction)
            .into_iter()
            .enumerate()
        {
            let bind = |data: &mut [W]| gfpf_cuda::ntt::NttParams {
                data: data.as_mut_ptr() as u64,
                twiddles: table.as_ptr() as u64,
                primes: self.constants.as_ptr() as u64,
                // The first launch makes the pointwise product.
                other: other.filter(|_| i == 0).map_or(0, |o| o.as_ptr() as u64),
                ..launch
            };
            let run = |data: &mut [W], schedule: u32, count: bool| {
                // SAFETY: `data` (and `other`, of its length) holds every
                // transform of the plan's launches, the table and constants
                // are the plan's (sized by it), and NttParams is
                // GfpfNttParams's twin.
                unsafe {
                    self.kernels.launch_params(
                        W::KERNEL,
                        &bind(data),
                        launch.threads,
                        launch.block_threads(),
                        schedule,
                        count,
                        block_stride,
                        u64::from(launch.shared_bytes()),
                    )
                }
            };
            if block_stride > 1 {
                counted.push((launch, run(data, 0, count_traffic)?));
                continue;
            }

            let mut copy = data.to_vec();
            run(&mut copy, 1, false)?;
            counted.push((launch, run(data, 0, count_traffic)?));
            if copy != data {
                return Err(EmulatorError::ScheduleDependent {
                    kernel: W::KERNEL.to_owned(),
                });
            }
        }
        Ok(counted)
    }

    /// The launches of the transforms of `data` (as [`EmulatedNtt::run`])
    /// counted on about `sample_blocks` blocks of the largest launch (every
    /// launch at the same block stride) and scaled to each whole launch.
    pub fn launch_counts(
        &self,
        data: &mut [W],
        other: Option<&[W]>,
        transforms_per_prime: usize,
        direction: Direction,
        sample_blocks: u32,
    ) -> Result<Vec<CountedLaunch>, EmulatorError> {
        let blocks = |l: &gfpf_cuda::ntt::NttParams| l.threads >> l.log2_block_threads;
        let most = self
            .plan
            .launches(transforms_per_prime, direction)
            .iter()
            .map(blocks)
            .max()
            .unwrap_or(1);
        let stride = (most / u64::from(sample_blocks.max(1))).max(1) as u32;
        let counted = self.run_counted(data, other, transforms_per_prime, direction, true, stride)?;
        Ok(counted
            .into_iter()
            .map(|(l, traffic)| CountedLaunch {
                symbol: W::KERNEL.to_owned(),
                threads: l.threads,
                threads_per_block: l.block_threads(),
                dynamic_shared_bytes: l.shared_bytes(),
                traffic: traffic.scaled(blocks(&l) as f64 / blocks(&l).div_ceil(u64::from(stride)) as f64),
            })
            .collect())
    }
}

/// Products through word-size primes the way the device computes them
/// (`gfpf_cuda::multimodular`): the projection, the word-size NTTs (the
/// inverse making the pointwise product), the join, every launch through the block-level
/// emulator under both schedules of its threads, in words `W` (31-bit
/// primes by default, 62-bit with `u64`).
#[derive(Debug)]
pub struct EmulatedMultiModular<const K: usize, W: NttWord = u32> {
    plan: gfpf_cuda::multimodular::MultiModularPlan<K, W>,
    kernels: HostKernels,
    ntt: EmulatedNtt<W>,
    project_constants: Vec<W>,
    join_constants: Vec<W>,
}

impl<const K: usize, W: NttWord> EmulatedMultiModular<K, W> {
    /// Products of `len_a` by `len_b` coefficients over `field`; kernels are
    /// compiled into (or reused from) `dir`.
    pub fn new(field: &Field<K>, len_a: usize, len_b: usize, dir: &Path) -> Result<Self, EmulatorError> {
        let plan = gfpf_cuda::multimodular::MultiModularPlan::<K, W>::try_new(field, len_a, len_b)
            .map_err(|e| EmulatorError::Host(e.to_string()))?;
        Self::with_plan(plan, dir)
    }

    /// The kernels of `plan` (a product's, or a transform's for
    /// [`EmulatedMultiModular::transform_counts`]).
    pub fn with_plan(plan: gfpf_cuda::multimodular::MultiModularPlan<K, W>, dir: &Path) -> Result<Self, EmulatorError> {
        let field = plan.field().clone();
        Ok(EmulatedMultiModular {
            kernels: HostKernels::build(&field, dir)?,
            ntt: EmulatedNtt::new(plan.ntt().clone(), dir)?,
            project_constants: plan.project_constants(),
            join_constants: plan.join_constants(),
            plan,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &gfpf_cuda::multimodular::MultiModularPlan<K, W> {
        &self.plan
    }

    /// Runs one of the element-wise kernels on `written` (its only output)
    /// under both schedules; `bind` gives its parameters for a copy of it.
    fn launch<T: Copy + PartialEq>(
        &self,
        symbol: &str,
        written: &mut [T],
        bind: impl Fn(&mut [T]) -> gfpf_cuda::multimodular::MultiModularParams,
    ) -> Result<(), EmulatorError> {
        let mut copy = written.to_vec();
        for (buffer, schedule) in [(&mut copy[..], 1), (&mut *written, 0)] {
            let params = bind(buffer);
            // SAFETY: `bind` addresses buffers the plan sized for this
            // launch (operands, residues, constants); the parameter struct
            // is GfpfMultiModularParams's twin.
            unsafe {
                self.kernels.launch_params(
                    symbol,
                    &params,
                    params.threads,
                    gfpf_cuda::multimodular::MULTIMODULAR_THREADS_PER_BLOCK,
                    schedule,
                    false,
                    1,
                    0,
                )?;
            }
        }
        if copy != written {
            return Err(EmulatorError::ScheduleDependent {
                kernel: symbol.to_owned(),
            });
        }
        Ok(())
    }

    /// The (projection, join) symbols of the plan's width.
    fn kernels_of(&self) -> (&'static str, &'static str) {
        gfpf_cuda::multimodular::multimodular_kernels::<W>()
    }

    /// Residues of `x` (at most N coefficients), prime-major.
    fn project(&self, x: &[Element<K>]) -> Result<Vec<W>, EmulatorError> {
        let words = to_digit_major(x);
        let base = gfpf_cuda::multimodular::MultiModularParams {
            elements: words.as_ptr() as u64,
            constants: self.project_constants.as_ptr() as u64,
            ..self.plan.project_params(x.len())
        };
        let mut residues = vec![W::default(); (base.primes * base.n) as usize];
        self.launch(self.kernels_of().0, &mut residues, |out| {
            gfpf_cuda::multimodular::MultiModularParams {
                residues: out.as_mut_ptr() as u64,
                ..base
            }
        })?;
        Ok(residues)
    }

    /// The product a·b, la + lb − 1 coefficients, for lengths the plan
    /// covers ([`gfpf_cuda::multimodular::MultiModularPlan::covers`]), as
    /// `gfpf_cuda::CudaMultiModular` launches it.
    pub fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, EmulatorError> {
        if !self.plan.covers(a.len(), b.len()) {
            return Err(EmulatorError::Host(format!(
                "a multi-modular plan of N = {} over {} primes cannot multiply {} by {} coefficients",
                self.plan.ntt().len(),
                self.plan.ntt().primes().len(),
                a.len(),
                b.len()
            )));
        }
        let mut x = self.project(a)?;
        let mut y = self.project(b)?;
        self.ntt.run(&mut x, 1, Direction::Forward)?;
        self.ntt.run(&mut y, 1, Direction::Forward)?;
        self.ntt.run_times(&mut x, &y, 1, Direction::Inverse)?;
        self.join(&x, a.len() + b.len() - 1)
    }

    /// The join alone: coefficients 0 … `count` − 1 (at most N) from their
    /// residues (prime-major, N words a prime, each below its prime), the
    /// values below M/2^10 that they are the residues of, mod p.
    pub fn join(&self, residues: &[W], count: usize) -> Result<Vec<Element<K>>, EmulatorError> {
        let words = self.plan.ntt().primes().len() * self.plan.ntt().len();
        if residues.len() != words || count > self.plan.ntt().len() {
            return Err(EmulatorError::OperandLengths(residues.len(), words));
        }
        // A split join leaves the carries past the top digit, which the
        // finish subtracts (both schedules of the join write the same).
        let split = gfpf_cuda::multimodular::join_is_split(K);
        let mut carries = vec![0u64; if split { 2 * count } else { 0 }];
        let join = gfpf_cuda::multimodular::MultiModularParams {
            residues: residues.as_ptr() as u64,
            constants: self.join_constants.as_ptr() as u64,
            carries: if split { carries.as_mut_ptr() as u64 } else { 0 },
            ..self.plan.join_params(count)
        };
        let mut words = vec![0u64; K * count];
        let finish = split.then_some(gfpf_cuda::multimodular::FINISH_KERNEL);
        for symbol in std::iter::once(self.kernels_of().1).chain(finish) {
            self.launch(symbol, &mut words, |out| gfpf_cuda::multimodular::MultiModularParams {
                elements: out.as_mut_ptr() as u64,
                ..join
            })?;
        }
        Ok(from_digit_major(self.plan.field(), &words)?)
    }
}

/// One emulated launch's counts scaled to the whole launch (for the time
/// model): its kernel, geometry and traffic.
#[derive(Debug, Clone)]
pub struct CountedLaunch {
    /// The kernel's symbol.
    pub symbol: String,
    /// Threads launched.
    pub threads: u64,
    /// Threads a block.
    pub threads_per_block: u32,
    /// Bytes of dynamic shared memory a block (the word-size NTT's tile).
    pub dynamic_shared_bytes: u32,
    /// Traffic and operations of the whole launch (`path_ops`: the busiest
    /// warp's of the blocks run).
    pub traffic: LaunchTraffic,
}

impl<const K: usize, W: NttWord> EmulatedMultiModular<K, W> {
    /// One element-wise launch counted on about `sample_blocks` of its
    /// blocks, scaled to the launch.
    fn count_elementwise(
        &self,
        symbol: &str,
        params: gfpf_cuda::multimodular::MultiModularParams,
        sample_blocks: u32,
    ) -> Result<CountedLaunch, EmulatorError> {
        let tpb = gfpf_cuda::multimodular::MULTIMODULAR_THREADS_PER_BLOCK;
        let blocks = params.threads.div_ceil(u64::from(tpb));
        let stride = (blocks / u64::from(sample_blocks.max(1))).max(1) as u32;
        // SAFETY: the callers' parameters address buffers of the plan's sizes.
        let traffic = unsafe {
            self.kernels
                .launch_params(symbol, &params, params.threads, tpb, 0, true, stride, 0)?
        };
        let run = blocks.div_ceil(u64::from(stride));
        Ok(CountedLaunch {
            symbol: symbol.to_owned(),
            threads: params.threads,
            threads_per_block: tpb,
            dynamic_shared_bytes: 0,
            traffic: traffic.scaled(blocks as f64 / run as f64),
        })
    }

    /// Zero residues for every prime, N words each.
    fn residues(&self) -> Vec<W> {
        vec![W::default(); self.plan.ntt().primes().len() * self.plan.ntt().len()]
    }

    /// The projection of `len` zero coefficients into `residues`, counted.
    fn count_project(
        &self,
        len: usize,
        residues: &mut [W],
        sample_blocks: u32,
    ) -> Result<CountedLaunch, EmulatorError> {
        let elements = vec![0u64; K * len];
        let params = gfpf_cuda::multimodular::MultiModularParams {
            elements: elements.as_ptr() as u64,
            residues: residues.as_mut_ptr() as u64,
            constants: self.project_constants.as_ptr() as u64,
            ..self.plan.project_params(len)
        };
        self.count_elementwise(self.kernels_of().0, params, sample_blocks)
    }

    /// The join of `count` coefficients from `residues`, counted (with its
    /// finish where it is split).
    fn count_join(
        &self,
        count: usize,
        residues: &[W],
        sample_blocks: u32,
    ) -> Result<Vec<CountedLaunch>, EmulatorError> {
        let mut words = vec![0u64; K * count];
        let mut carries = vec![0u64; 2 * count];
        let params = gfpf_cuda::multimodular::MultiModularParams {
            elements: words.as_mut_ptr() as u64,
            residues: residues.as_ptr() as u64,
            constants: self.join_constants.as_ptr() as u64,
            carries: carries.as_mut_ptr() as u64,
            ..self.plan.join_params(count)
        };
        let mut out = vec![self.count_elementwise(self.kernels_of().1, params, sample_blocks)?];
        if gfpf_cuda::multimodular::join_is_split(K) {
            out.push(self.count_elementwise(gfpf_cuda::multimodular::FINISH_KERNEL, params, sample_blocks)?);
        }
        Ok(out)
    }

    /// Every launch of a product (two projections, two forward NTTs, the
    /// inverse NTT with the pointwise product, the join) counted on about
    /// `sample_blocks` blocks of each and scaled to it, on zeros of the
    /// plan's full sizes.
    pub fn launch_counts(&self, sample_blocks: u32) -> Result<Vec<CountedLaunch>, EmulatorError> {
        let (la, lb) = self.plan.operand_lens();
        let (mut x, mut y) = (self.residues(), self.residues());
        let mut out = vec![
            self.count_project(la, &mut x, sample_blocks)?,
            self.count_project(lb, &mut y, sample_blocks)?,
        ];
        out.extend(
            self.ntt
                .launch_counts(&mut x, None, 1, Direction::Forward, sample_blocks)?,
        );
        out.extend(
            self.ntt
                .launch_counts(&mut y, None, 1, Direction::Forward, sample_blocks)?,
        );
        out.extend(
            self.ntt
                .launch_counts(&mut x, Some(&y), 1, Direction::Inverse, sample_blocks)?,
        );
        out.extend(self.count_join(self.plan.product_len(), &x, sample_blocks)?);
        Ok(out)
    }

    /// The launches of the thesis's benchmark 1 on a plan of
    /// [`gfpf_cuda::multimodular::MultiModularPlan::transform`]: the
    /// projection of N values, the forward NTTs, the join of N values,
    /// counted as [`EmulatedMultiModular::launch_counts`] counts a product's.
    pub fn transform_counts(&self, sample_blocks: u32) -> Result<Vec<CountedLaunch>, EmulatorError> {
        let n = self.plan.ntt().len();
        let mut x = self.residues();
        let mut out = vec![self.count_project(n, &mut x, sample_blocks)?];
        out.extend(
            self.ntt
                .launch_counts(&mut x, None, 1, Direction::Forward, sample_blocks)?,
        );
        out.extend(self.count_join(n, &x, sample_blocks)?);
        Ok(out)
    }
}
