// The block-level emulator of the CUDA kernels on the host (GFPF_HOST_EMULATION
// only): a launch runs block after block, and the threads of a block run as
// fibers on one OS thread, switching at every barrier and warp collective, so
// that kernels whose threads share memory and meet at barriers run from the
// same source as on the device:
//
//   threadIdx, blockIdx, blockDim, gridDim (x only: launches are 1-D);
//   __syncthreads(), __syncwarp(mask);
//   __shfl_sync, __shfl_xor_sync, __shfl_up_sync, __shfl_down_sync,
//   __ballot_sync, __any_sync, __all_sync (warp size 32);
//   the warp matrix product mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32
//   (gfpf_emu::mma_m16n8k32_u8), by the PTX ISA's fragment layouts;
//   shared memory declared with GFPF_SHARED_ARRAY(type, name, count), and
//   dynamic shared memory (the launch's bytes) with
//   GFPF_DYNAMIC_SHARED_ARRAY(type, name, most);
//   global memory read and written through GFPF_GLOBAL_READ / _WRITE,
//   counted in 32-byte sectors per warp-wide access (the launch's traffic).
//
// Checks, each failing the launch with the kernel, block, word and threads
// named: a read of a shared word no thread of the block has written; a read
// or write of a shared word that another thread wrote, or a write of one that
// another thread read, in the same barrier interval (between two
// __syncthreads(), or for two lanes of one warp between two __syncwarp()); a
// thread that exits while others wait at a barrier; a warp collective that a
// lane of its mask never reaches; a barrier no thread can pass (deadlock).
//
// The threads of a block run under a schedule: 0 runs them in ascending
// order within every barrier interval, 1 in descending order. The emulator
// runs every launch under both and compares what they write.
#pragma once

#include <setjmp.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dlfcn.h>
#include <ucontext.h>

#include <algorithm>
#include <cmath>
#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

struct dim3 {
    unsigned x, y, z;
};

// The operations the emulator counts (GFPF_COUNT_OP in the kernels).
enum GfpfEmuOp {
    GFPF_OP_MUL = 0,          // gfpf_mul: one thread multiplies k digits by k
    GFPF_OP_ADD_SUB = 1,      // gfpf_add_sub
    GFPF_OP_MUL_POW_R = 2,    // gfpf_mul_pow_r
    GFPF_OP_LANE_MUL = 3,     // gfpf_lane_mul, per lane
    GFPF_OP_LANE_ADD_SUB = 4, // gfpf_lane_add_sub, per lane
    GFPF_OP_LANE_MUL_POW_R = 5,
    GFPF_OP_COLLECTIVE = 6,   // a warp vote or __syncwarp, per lane (shuffles and matrix products apart)
    GFPF_OP_SHARED = 7,       // a shared-memory word read or written, per thread
    GFPF_OP_BARRIER = 8,      // a __syncthreads(), per thread
    GFPF_OP_NTT_BUTTERFLY = 9, // a word-size NTT butterfly in registers, its product included (gfpf_ntt.cu): inverse, or a pointwise product
    GFPF_OP_NTT_GROUP = 10,   // a word-size NTT round's group: its twiddles' base and the loop around it
    GFPF_OP_MM_PRODUCT = 11,  // a Montgomery product of the multi-modular kernels (gfpf_multimodular.cuh)
    GFPF_OP_MM_DIGIT = 12,    // a base-r digit of the multi-modular join (two divisions)
    GFPF_OP_MM_MAC = 13,      // a residue times a digit accumulated in 128 bits (the join)
    GFPF_OP_MM_PRIME = 14,    // a prime of a projection, beside its terms and products
    GFPF_OP_MM_TERM = 15,     // a digit of the projection: two 32-bit products summed in 128 bits
    GFPF_OP_TILE_MUL = 16,    // gfpf_tile_mul: one thread's product of an element in shared memory
    GFPF_OP_TILE_ADD_SUB = 17, // gfpf_tile_add_sub: one thread's butterfly in shared memory
    GFPF_OP_TILE_MUL_POW_R = 18, // gfpf_tile_mul_pow_r: one thread's shift in shared memory
    GFPF_OP_TILE_STAGE = 19,  // gfpf_tile_stage_twiddles: a lane's share of staging its warp's twiddles
    GFPF_OP_NTT62_BUTTERFLY = 20, // GFPF_OP_NTT_BUTTERFLY on 64-bit words (primes below 2^62)
    GFPF_OP_NTT62_GROUP = 21,     // GFPF_OP_NTT_GROUP on 64-bit words
    GFPF_OP_MM62_PRODUCT = 22,    // GFPF_OP_MM_PRODUCT on 64-bit words (primes below 2^62)
    GFPF_OP_MM62_MAC = 23,        // GFPF_OP_MM_MAC of a 62-bit residue, accumulated in 192 bits
    GFPF_OP_MM62_TERM = 24,       // GFPF_OP_MM_TERM on 64-bit words: two 32 x 62-bit products summed in 128 bits
    GFPF_OP_NTT50_BUTTERFLY = 25, // GFPF_OP_NTT_BUTTERFLY in FP64 (primes below 2^50)
    GFPF_OP_NTT50_GROUP = 26,     // GFPF_OP_NTT_GROUP in FP64
    GFPF_OP_NTT_MMA_TILE = 27,    // a lane's share of a tensor-core DFT_16 of 8 groups (gfpf_ntt.cu), its loads and stores included
    GFPF_OP_LANE_ADD_OR_SUB = 28, // gfpf_lane_add_or_sub: one side of a butterfly, per lane
    GFPF_OP_LANE_SUB_MUL_POW_R = 29, // gfpf_lane_sub_mul_pow_r: a butterfly's difference times r^i, per lane
    GFPF_OP_LANE_ADD = 30,        // gfpf_lane_add: a butterfly's sum alone, per lane
    GFPF_OP_TILE_ADD_SUB_MUL_POW_R = 31, // gfpf_tile_add_sub_mul_pow_r: one thread's butterfly, its difference times r^i
    GFPF_OP_TILE_MUL_SHARED = 32, // gfpf_tile_mul_shared_twiddles<4>: a lane's product on the tensor cores
    GFPF_OP_TILE_MUL_SHARED8 = 33, // gfpf_tile_mul_shared_twiddles<8>: the same, eight lanes a twiddle
    GFPF_OP_TILE_MUL_SHARED16 = 34, // gfpf_tile_mul_shared_twiddles<16>: the same, sixteen lanes a twiddle
    GFPF_OP_SHUFFLE = 35,     // a warp shuffle of one 32-bit register, per lane (a 64-bit value: two)
    GFPF_OP_MMA = 36,         // a warp matrix product (mma.sync m16n8k32), per lane
    GFPF_OP_NTT_GLOBAL_WORD = 37, // a word-size NTT's data word read from or written to device memory, per thread
    GFPF_OP_NTT_FORWARD_BUTTERFLY = 38, // GFPF_OP_NTT_BUTTERFLY forward (32-bit words: the difference to the product unreduced)
    GFPF_OP_NTT62_FORWARD_BUTTERFLY = 39, // GFPF_OP_NTT62_BUTTERFLY forward (the difference offset by 2q, not reduced)
    GFPF_OP_NTT50_FORWARD_BUTTERFLY = 40, // GFPF_OP_NTT50_BUTTERFLY forward (the difference not reduced)
    GFPF_OP_NTT_TILE_WORD = 41, // a word-size NTT's data word (32-bit) moved between device memory and the tile in a loop of its own, per thread
    GFPF_OP_NTT62_TILE_WORD = 42, // GFPF_OP_NTT_TILE_WORD of 64-bit words
    GFPF_OP_NTT50_TILE_WORD = 43, // GFPF_OP_NTT_TILE_WORD in FP64 (converted as it moves)
    GFPF_OP_MM_JOIN_PRIME = 44, // a prime of a join's pass over the residues, beside its product and accumulations
    GFPF_OP_TILE_ADD_SUB_SHIFT = 45, // gfpf_tile_add_sub_shift: one thread's butterfly, its difference times r^i, i fixed at compile time
    GFPF_OP_COUNT = 46
};

// What the Rust side passes with every launch (crates/gfpf-testkit/src/emulator.rs,
// `EmulatedLaunch`): the geometry, the schedule, and room for an error.
struct GfpfEmuLaunch {
    unsigned long long grid_x;
    unsigned long long block_x;
    unsigned long long schedule;
    char* error;
    unsigned long long error_capacity;
    // In: whether to count the traffic and operations below (it slows the
    // emulator 2x).
    unsigned long long count_traffic;
    // In: run every block_stride-th block only (1: all), for counts of a
    // large launch whose blocks all do alike (the results are then partial).
    unsigned long long block_stride;
    // In: bytes of dynamic shared memory the launch gives each block (the
    // words of GFPF_DYNAMIC_SHARED_ARRAY past them are out of bounds).
    unsigned long long dynamic_shared_bytes;
    // Out: global memory traffic as the device would move it. A warp-wide
    // access is the n-th global access of each lane of a warp; it moves
    // every distinct 32-byte sector its lanes touch.
    unsigned long long requests;
    unsigned long long sectors_read, sectors_written;
    unsigned long long bytes_read, bytes_written;
    // Out: of the reads above, those of read-only tables (twiddles, N^{-1}:
    // GFPF_TABLE_READ), which a device serves from its caches when the
    // table fits there.
    unsigned long long table_sectors, table_bytes;
    // Out: of those, the tensor cores' twiddle tables'
    // (GFPF_TENSOR_TABLE_READ): a few MiB at most, in L2 whatever the
    // transform's own twiddle table.
    unsigned long long tensor_table_sectors, tensor_table_bytes;
    // Out: of those, the sectors of the tables every block reads
    // (GFPF_RESIDENT_TABLE_READS), which stay in L2.
    unsigned long long tensor_resident_sectors;
    // Out: field operations (GfpfEmuOp) summed over threads; those of the
    // warp that ran the most (the launch's longest serial path); and summed
    // over warps (what the warps issue). A warp runs every branch any of
    // its lanes takes, so a warp's count of each operation is that of the
    // lane that ran it most: a lower bound on what it issues where lanes
    // run one operation in different branches, exact where they diverge
    // only by running an operation or not.
    unsigned long long ops[GFPF_OP_COUNT];
    unsigned long long path_ops[GFPF_OP_COUNT];
    unsigned long long warp_ops[GFPF_OP_COUNT];
    // Out: shared memory as the device's 32 banks of 4 bytes serve it. A
    // warp-wide access is the n-th access of each lane of a warp at one
    // site (the code that indexed the array) to one array since the warp
    // last met (__syncthreads or __syncwarp); it takes as many wavefronts
    // (bank cycles) as the most distinct 4-byte words any one bank holds
    // among them (lanes reading one word share it), and at least one for
    // each 4 bytes a lane moves (Block::shared_wavefronts_of); at best its
    // distinct words over 32, or those registers.
    unsigned long long shared_requests;
    unsigned long long shared_wavefronts;
    unsigned long long shared_ideal_wavefronts;
};


namespace gfpf_emu {

constexpr unsigned kWarp = 32;
// Per fiber: a DFT_256 of 128-digit elements (t128) keeps 256 KiB in locals,
// its codelet a few copies more. Reserved, not committed: pages are touched
// only as deep as a thread's stack goes.
constexpr size_t kStackBytes = size_t(2) << 20;

// Shared-memory counts by site (the code address that indexed the array),
// summed over launches while `on` (gfpf_emu_shared_sites_count): warp-wide
// accesses, their wavefronts and the conflict-free count, for reports of
// where a kernel's bank conflicts are (`cargo xtask gpu-model --sites`).
// One table a library: internal linkage, not an inline function's static,
// which g++ makes one object for every library a process loads
// (STB_GNU_UNIQUE), so that one library's count took others' launches.
struct SharedSites {
    bool on = false;
    std::map<unsigned long long, std::array<unsigned long long, 3>> by_site;
};
static SharedSites shared_sites_of_this_library;
inline SharedSites& shared_sites() { return shared_sites_of_this_library; }

enum class State { Running, Barrier, Warp, Exited };

enum class WarpOp { Idx, Up, Down, Xor, Ballot, Any, All, Sync, Mma };

// A lane's operands and result of one m16n8k32 matrix product (u8 × u8 +
// s32 → s32), as the PTX ISA lays them out (lane l = 4g + t): `a` holds A's
// (16 × 32, row-major) rows g (registers 0, 2) and g + 8 (1, 3), columns 4t
// … 4t + 3 (registers 0, 1) and 16 + 4t … (2, 3), one byte each, the lowest
// first; `b` B's (32 × 8) rows 4t … 4t + 3 and 16 + 4t … of column g; `c`
// and `d` C's and D's (16 × 8) rows g (0, 1) and g + 8 (2, 3) of columns 2t
// and 2t + 1.
struct MmaFragments {
    unsigned a[4], b[2], c[4], d[4];
    // A's or B's bytes signed (mma…s32.s8.u8.s32, …u8.s8…), else unsigned.
    bool a_signed, b_signed;
};

// A saved point of execution: a fiber's, or the scheduler's (the OS
// thread's own stack, in run_block).
//
// On x86-64 a switch saves the callee-saved registers on the running stack
// and moves the stack pointer (gfpf_emu_switch below). The emulator switches
// at every warp collective; glibc's _setjmp/_longjmp do bookkeeping a fiber
// does not need (pointer mangling, cleanup handlers: 14% of the lane
// suite's time in perf), and with fibers switching to one another rather
// than through the scheduler that suite ran in 27.6 and 28.9 s against 45.1
// and 37.9 s, alternated (project VM, 2026-11-28). Elsewhere, or with
// GFPF_EMU_PORTABLE_SWITCH defined, the portable path: the first entry
// through ucontext (a fresh stack), every switch after it through
// _setjmp/_longjmp, which, unlike swapcontext, do not save and restore the
// signal mask (a system call a switch).
#if defined(__x86_64__) && !defined(GFPF_EMU_PORTABLE_SWITCH)
#define GFPF_EMU_ASM_SWITCH 1
}  // namespace gfpf_emu
// Saves the callee-saved registers (System V: rbx, rbp, r12-r15) on the
// running stack, stores its pointer in *from and resumes the stack `to`:
// its registers popped, then its return address. The kernels leave the
// x87 control word and MXCSR as they find them, so they are not switched.
extern "C" void gfpf_emu_switch(void** from, void* to);
asm(R"(
    .pushsection .text
    .p2align 4
    .globl gfpf_emu_switch
    .hidden gfpf_emu_switch
    .type gfpf_emu_switch, @function
gfpf_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size gfpf_emu_switch, .-gfpf_emu_switch
    .popsection
)");
namespace gfpf_emu {
struct Context {
    void* sp = nullptr;
};
#else
#define GFPF_EMU_ASM_SWITCH 0
struct Context {
    jmp_buf resume;
    ucontext_t start;      // a fiber's first entry
    bool started = false;  // the scheduler's context starts true
};
#endif

// Saves the running context in `from` and resumes `to`; returns when
// something switches back to `from`.
inline void switch_context(Context& from, Context& to) {
#if GFPF_EMU_ASM_SWITCH
    gfpf_emu_switch(&from.sp, to.sp);
#else
    if (_setjmp(from.resume)) return;
    if (to.started) _longjmp(to.resume, 1);
    to.started = true;
    setcontext(&to.start);
#endif
}

struct Fiber {
    Context context;
    State state = State::Running;
    // A pending warp collective.
    WarpOp op = WarpOp::Sync;
    unsigned mask = 0;
    unsigned long long value = 0;
    int operand = 0;  // source lane, delta or lane mask
    int width = kWarp;
    unsigned long long result = 0;
};

struct Block;

struct Block {
    const char* kernel = "";
    dim3 block_idx{0, 1, 1}, block_dim{1, 1, 1}, grid_dim{1, 1, 1};
    std::vector<Fiber> fibers;
    // run_block's, where the block returns when it ends or fails.
    Context scheduler;
    unsigned running = 0;  // the fiber now running
    unsigned schedule = 0;
    unsigned epoch = 1;    // barrier intervals passed + 1
    std::vector<unsigned> warp_epoch;
    unsigned long long generation = 0;
    unsigned long long dynamic_shared_bytes = 0;  // the launch's
    std::string error;
    // Global accesses: each thread's count so far, and per (warp, access
    // number, write?) the byte offsets its lanes touched and their width.
    std::unordered_map<unsigned long long, unsigned> accesses;  // (thread, site) -> count
    std::unordered_map<unsigned long long, std::vector<std::pair<uintptr_t, unsigned long long>>> sectors;
    std::unordered_map<unsigned long long, unsigned> access_bytes;
    bool counting = false;
    unsigned long long requests = 0, sectors_read = 0, sectors_written = 0, bytes_read = 0, bytes_written = 0;
    unsigned long long table_sectors = 0, table_bytes = 0, tensor_table_sectors = 0, tensor_table_bytes = 0;
    unsigned long long tensor_resident_sectors = 0;
    // Warp-wide accesses of tables: 1, of the tensor cores' tables: 2.
    std::unordered_map<unsigned long long, int> table_keys;
    // Per thread of the running block: whether its tensor-core table reads
    // are of the tables every block reads (GFPF_RESIDENT_TABLE_READS); and
    // per warp-wide access, the places those lanes read (lane by lane: the
    // lanes of one access may be at different calls where some skip a read).
    std::vector<unsigned char> resident;
    std::unordered_map<unsigned long long, std::vector<std::pair<uintptr_t, unsigned long long>>> resident_sectors;
    // Operations per thread of the running block, and the launch's totals.
    std::vector<std::array<unsigned long long, GFPF_OP_COUNT>> thread_ops;
    unsigned long long ops[GFPF_OP_COUNT] = {}, path_ops[GFPF_OP_COUNT] = {}, warp_ops[GFPF_OP_COUNT] = {};
    // Shared accesses: each thread's count at each site (the code address
    // that indexed the array) since its warp last met (with the meeting it
    // counts from), and per warp-wide access the 4-byte words its lanes
    // touched, by byte offset from the array's start (each array taken to
    // start at bank 0). A warp-wide access is the n-th access of each lane
    // at one site: lanes that skip an access (a predicated store, a loop
    // that ends early on some lanes) shift only that site's count, as on
    // the device, where each is its own instruction.
    struct SharedCount {
        unsigned epoch = 0, warp_epoch = 0, n = 0;
    };
    std::unordered_map<unsigned long long, SharedCount> shared_counts;  // (thread, site) -> count
    struct SharedAccessKey {
        unsigned long long meeting, place;
        bool operator==(const SharedAccessKey& o) const { return meeting == o.meeting && place == o.place; }
    };
    struct SharedAccessHash {
        size_t operator()(const SharedAccessKey& k) const {
            return std::hash<unsigned long long>()(k.meeting * 0x9E3779B97F4A7C15ull ^ k.place);
        }
    };
    // One warp-wide access: the 4-byte words its lanes touched, each lane's
    // byte offset (−1: the lane did not take part) and the bytes a lane
    // moves.
    struct SharedAccess {
        std::vector<unsigned long long> words;
        long long lane_at[kWarp];
        unsigned bytes = 0;
        bool write = false;
        SharedAccess() { std::fill(lane_at, lane_at + kWarp, -1ll); }
    };
    std::unordered_map<SharedAccessKey, SharedAccess, SharedAccessHash> shared_words;
    std::unordered_map<const void*, unsigned> shared_arrays;
    unsigned long long shared_requests = 0, shared_wavefronts = 0, shared_ideal_wavefronts = 0;

    // Per thread of the running block: how deep it is in GFPF_CHECKs, whose
    // conditions the device does not run (their operations, shuffles and
    // accesses are not counted).
    std::vector<unsigned> checking;
    // Whether the running thread's operations and accesses count.
    bool counts_here() const { return counting && checking[running] == 0; }
    void count_op(int op) {
        if (counts_here()) ++thread_ops[running][op];
    }
    void resident_reads(bool on) {
        if (counting) resident[running] = on;
    }
    // The block's counts into the launch's: every thread's into `ops`; each
    // warp's, an operation as often as the lane that ran it most, into
    // `warp_ops`, and into `path_ops` where the warp ran the most.
    void fold_ops() {
        unsigned long long longest = 0;
        for (unsigned long long p : path_ops) longest += p;
        for (size_t first = 0; first < thread_ops.size(); first += kWarp) {
            std::array<unsigned long long, GFPF_OP_COUNT> warp{};
            const size_t end = std::min(thread_ops.size(), first + kWarp);
            for (size_t t = first; t < end; ++t) {
                for (int i = 0; i < GFPF_OP_COUNT; ++i) {
                    ops[i] += thread_ops[t][i];
                    warp[i] = std::max(warp[i], thread_ops[t][i]);
                }
            }
            unsigned long long sum = 0;
            for (int i = 0; i < GFPF_OP_COUNT; ++i) {
                warp_ops[i] += warp[i];
                sum += warp[i];
            }
            if (sum > longest) {
                longest = sum;
                for (int i = 0; i < GFPF_OP_COUNT; ++i) path_ops[i] = warp[i];
            }
        }
    }

    // Thread `running`'s access to `bytes` bytes at byte `offset` of the
    // shared array `array` from code address `site` (one access however
    // many words: a 16-byte load is one).
    void record_shared(const void* array, unsigned long long offset, unsigned bytes, bool write, const void* site) {
        if (!counts_here()) return;
        const unsigned t = running, w = t / kWarp;
        // User-space code addresses are below 2^47.
        const unsigned long long place = (unsigned long long)(uintptr_t)site & ((1ull << 47) - 1);
        SharedCount& c = shared_counts[((unsigned long long)t << 47) ^ place];
        if (c.epoch != epoch || c.warp_epoch != warp_epoch[w]) c = SharedCount{epoch, warp_epoch[w], 0};
        const auto id = shared_arrays.emplace(array, unsigned(shared_arrays.size())).first->second;
        // (warp, array, meeting, write) and (site, access number there):
        // the meeting as the pair of epochs, which only grow; fields of 5,
        // 6, 16, 16 and 1 bits and of 47 and 17, apart while a block's
        // barriers, a warp's meetings and a lane's accesses at one site
        // between two stay below 2^16, 2^16 and 2^17.
        const SharedAccessKey key{((unsigned long long)w << 54) ^ ((unsigned long long)id << 48) ^
                                      ((unsigned long long)epoch << 32) ^ ((unsigned long long)warp_epoch[w] << 1) ^
                                      (write ? 1 : 0),
                                  place ^ ((unsigned long long)c.n << 47)};
        ++c.n;
        SharedAccess& access = shared_words[key];
        for (unsigned long long at = offset / 4; at < (offset + bytes + 3) / 4; ++at) access.words.push_back(at);
        access.lane_at[t % kWarp] = (long long)offset;
        access.bytes = bytes;
        access.write = write;
    }
    // Wavefronts a warp-wide access takes, and those it would take without
    // bank conflicts. The banks serve a wavefront's 32 4-byte words, one
    // each: as many wavefronts as the most distinct words one bank holds.
    // And a wavefront moves one 32-bit register of every lane (128 bytes a
    // clock): at least bytes/4 for a lane's bytes, whatever the lanes
    // share, halved for a load whose lanes pair up on one address (lanes l
    // and l ^ 1, or l and l ^ 2, wherever both take part), which packs two
    // lanes' registers into one. (NVIDIA's answer on its developer forum,
    // "Unexpected shared memory bank conflict", 2019, for compute
    // capability 7.x: an LDS.128 takes 4 requests, 2 with the pairing.
    // Taken to hold on sm_80 and sm_90 until a GPU measures it.)
    static std::pair<unsigned, unsigned> shared_wavefronts_of(SharedAccess& access) {
        auto& words = access.words;
        std::sort(words.begin(), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        unsigned per_bank[kWarp] = {};
        unsigned most = 0;
        for (unsigned long long at : words) most = std::max(most, ++per_bank[at % kWarp]);
        unsigned registers = (access.bytes + 3) / 4;
        auto paired = [&](unsigned x) {
            for (unsigned l = 0; l < kWarp; ++l) {
                const long long a = access.lane_at[l], b = access.lane_at[l ^ x];
                if (a >= 0 && b >= 0 && a != b) return false;
            }
            return true;
        };
        if (!access.write && (paired(1) || paired(2))) registers = (registers + 1) / 2;
        const unsigned ideal = std::max<unsigned>(unsigned((words.size() + kWarp - 1) / kWarp), registers);
        return {std::max(most, registers), ideal};
    }
    // Folds the block's shared accesses into the totals.
    void fold_shared() {
        for (auto& [key, access] : shared_words) {
            const auto [wavefronts, ideal] = shared_wavefronts_of(access);
            if (shared_sites().on) {
                auto& site = shared_sites().by_site[key.place & ((1ull << 47) - 1)];
                site[0] += 1;
                site[1] += wavefronts;
                site[2] += ideal;
            }
            ++shared_requests;
            shared_wavefronts += wavefronts;
            shared_ideal_wavefronts += ideal;
        }
        shared_words.clear();
        shared_arrays.clear();
    }

    // `offset` bytes into the buffer at `base`: sectors are counted from the
    // buffer's start, as device allocations are 256-byte aligned (host
    // vectors need not be).
    // A warp-wide access is the n-th access of each lane at one source
    // line (`site`): lanes that skip a site (a twiddle of exponent 0) shift
    // only that site's count.
    void record(const void* base, unsigned long long offset, unsigned bytes, bool write, int site, int table = 0) {
        if (!counts_here()) return;
        unsigned t = running;
        unsigned n = accesses[((unsigned long long)t << 32) | unsigned(site)]++;
        unsigned long long key =
            ((unsigned long long)(t / kWarp) << 48) ^ ((unsigned long long)unsigned(site) << 32) ^ ((unsigned long long)n << 1) ^ write;
        sectors[key].push_back({(uintptr_t)base, offset});
        access_bytes[key] = bytes;
        if (table) table_keys[key] = table;
        if (table == 2 && resident[t]) resident_sectors[key].push_back({(uintptr_t)base, offset >> 5});
    }
    // Folds the block's accesses into the totals: the sectors a warp-wide
    // access touched and the bytes it used, each counted once (lanes reading
    // one word, a broadcast, use its bytes once).
    void fold_traffic() {
        for (auto& [key, list] : sectors) {
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
            const unsigned long long used = list.size() * (unsigned long long)access_bytes[key];
            for (auto& at : list) at.second >>= 5;
            unsigned long long distinct = std::unique(list.begin(), list.end()) - list.begin();
            ++requests;
            if (key & 1) {
                sectors_written += distinct;
                bytes_written += used;
            } else {
                sectors_read += distinct;
                bytes_read += used;
                const auto table = table_keys.find(key);
                if (table != table_keys.end()) {
                    table_sectors += distinct;
                    table_bytes += used;
                    if (table->second == 2) {
                        tensor_table_sectors += distinct;
                        tensor_table_bytes += used;
                    }
                }
            }
        }
        for (auto& [key, list] : resident_sectors) {
            std::sort(list.begin(), list.end());
            tensor_resident_sectors += std::unique(list.begin(), list.end()) - list.begin();
        }
        sectors.clear();
        access_bytes.clear();
        table_keys.clear();
        resident_sectors.clear();
    }
    void (*entry)(void*) = nullptr;
    void* entry_arg = nullptr;

    unsigned warps() const { return (block_dim.x + kWarp - 1) / kWarp; }

    // Records the first error and stops the calling fiber for good.
    [[noreturn]] void fail(const std::string& what);
    // The running fiber stops in `state` (at a barrier, in a warp
    // collective, exited); returns when the schedule resumes it.
    void yield(State state);
    // Thread t's position in the schedule (0: ascending, 1: descending).
    unsigned position(unsigned t) const { return schedule == 0 ? t : unsigned(fibers.size()) - 1 - t; }
    // The first fiber at or after schedule position p that can run; -1 if none.
    int runnable_from(unsigned p) const {
        const unsigned n = unsigned(fibers.size());
        for (; p < n; ++p) {
            const unsigned t = position(p);
            if (fibers[t].state == State::Running) return int(t);
        }
        return -1;
    }
    // The end of a round (every fiber that could run has run once): resolves
    // the warp collectives, or releases a barrier, until some fiber can run;
    // it, or -1 when the block has ended (error empty) or failed.
    int next_round(bool progressed);
};

inline std::string where(const Block& b) {
    return std::string("kernel ") + b.kernel + ", block " + std::to_string(b.block_idx.x);
}

inline void Block::fail(const std::string& what) {
    if (error.empty()) error = where(*this) + ": " + what;
    fibers[running].state = State::Exited;
    switch_context(fibers[running].context, scheduler);
    __builtin_unreachable();
}

// At the bottom of every fiber's stack region (kStackBytes long, aligned to
// kStackBytes): the block its fiber runs in, which block() finds from the
// stack pointer (a thread_local took a __tls_get_addr call each time, 5% of
// the emulator suite: perf, project VM, 2026-11-28). Each region's header
// sits in its own cache line of the region's first kHeaderSpan bytes, by
// the region's address: at one offset, the headers of a block's fibers
// would share one set of the L1 and L2 (as unstaggered stacks would, see
// stack_stagger). A page that faults follows, so that a fiber overflowing
// its stack stops there.
struct StackHeader {
    Block* block;
};
// The bytes over which stacks and headers are spread: one way of the L2
// (1 MiB, 16 ways), a multiple of an L1 way (4 KiB).
constexpr size_t kHeaderSpan = size_t(64) << 10;

inline StackHeader& stack_header(const void* on_stack) {
    const uintptr_t region = uintptr_t(on_stack) & ~uintptr_t(kStackBytes - 1);
    const uintptr_t line = (region / kStackBytes) % (kHeaderSpan / 64);
    return *reinterpret_cast<StackHeader*>(region + line * 64);
}

// The running block. Kernel code alone calls it, on its fiber's stack.
inline Block& block() {
    char probe;
    return *stack_header(&probe).block;
}

// Counts the blocks run on this OS thread: a shared array whose stamp differs
// from the running block's starts fresh.
inline thread_local unsigned long long block_generation = 0;

// The readers of a shared word that the race check remembers: within one
// barrier interval, each distinct thread's last read (its __syncwarp
// interval), up to kReaders of them; past that, `many` (any other thread's
// write in the interval then fails, as with no warp intervals at all).
constexpr unsigned kReaders = 8;

// Shadow state of one shared word.
struct Shadow {
    bool written = false;
    unsigned write_epoch = 0, write_warp_epoch = 0;
    unsigned writer = 0;
    unsigned read_epoch = 0;
    unsigned readers = 0;
    bool many = false;
    unsigned reader[kReaders] = {};
    unsigned reader_warp_epoch[kReaders] = {};
};

// Whether an access by `t` now conflicts with one by `other` stamped (epoch,
// warp_epoch): the same barrier interval, and for lanes of one warp also the
// same __syncwarp interval.
inline bool same_interval(const Block& b, unsigned t, unsigned other, unsigned epoch, unsigned warp_epoch) {
    if (epoch != b.epoch) return false;
    if (t / kWarp != other / kWarp) return true;
    return warp_epoch == b.warp_epoch[t / kWarp];
}

template <class T, size_t N>
struct SharedArray {
    const char* name;
    // Dynamic shared memory (`extern __shared__`): N words at most, those
    // of the launch's dynamic_shared_bytes in bounds.
    bool dynamic = false;
    T words[N];
    Shadow shadow[N];
    // The block generation each word's shadow belongs to.
    unsigned long long stamp[N] = {};
    unsigned long long generation = 0;

    explicit SharedArray(const char* n, bool is_dynamic = false) : name(n), dynamic(is_dynamic) {}
    // Within read4: its words are recorded as one access.
    bool in_wide_access = false;
    // Words in bounds for the running block: N, or for dynamic shared
    // memory the launch's bytes (set by attach).
    size_t bound = N;
    // Binds the array to the running block on its first use there, and
    // bounds it by the launch (a launch giving more dynamic shared memory
    // than the emulator's N words fails there). Words start fresh lazily
    // (`shadow_of`): a block that touches a few words of a large tile pays
    // for those only.
    void attach() {
        Block& b = block();
        if (generation == b.generation) return;
        generation = b.generation;
        if (!dynamic) return;
        const unsigned long long given = b.dynamic_shared_bytes / sizeof(T);
        if (given > N)
            b.fail(std::string("the launch gives ") + std::to_string(b.dynamic_shared_bytes) +
                   " bytes of dynamic shared memory, more than the emulator's " + std::to_string(N * sizeof(T)) +
                   " for " + name);
        bound = size_t(given);
    }
    // Word i's shadow, fresh (unwritten, unread) where the running block has
    // not touched it yet; its value is then garbage, as on the device (a
    // read before any write fails the check rather than reading zeros).
    Shadow& shadow_of(size_t i) {
        if (stamp[i] != generation) {
            stamp[i] = generation;
            shadow[i] = Shadow{};
            words[i] = T(0xA5A5A5A5A5A5A5A5ull);
        }
        return shadow[i];
    }
    std::string word(size_t i) const { return std::string("shared ") + name + "[" + std::to_string(i) + "]"; }

    T read(size_t i, const void* site) {
        attach();
        Block& b = block();
        unsigned t = b.running;
        if (i >= bound) b.fail("thread " + std::to_string(t) + " reads " + word(i) + " past the end");
        b.count_op(GFPF_OP_SHARED);
        if (!in_wide_access) b.record_shared(this, i * sizeof(T), sizeof(T), false, site);
        Shadow& s = shadow_of(i);
        if (!s.written) b.fail("thread " + std::to_string(t) + " reads " + word(i) + ", which no thread has written");
        if (s.writer != t && same_interval(b, t, s.writer, s.write_epoch, s.write_warp_epoch))
            b.fail("race on " + word(i) + ": thread " + std::to_string(t) + " reads what thread " +
                   std::to_string(s.writer) + " wrote in the same barrier interval");
        unsigned we = b.warp_epoch[t / kWarp];
        if (s.read_epoch != b.epoch) {
            s.read_epoch = b.epoch;
            s.readers = 0;
            s.many = false;
        }
        unsigned r = 0;
        while (r < s.readers && s.reader[r] != t) ++r;
        if (r == s.readers) {
            if (r == kReaders) {
                s.many = true;
                r = kReaders - 1;
            } else {
                ++s.readers;
            }
        }
        s.reader[r] = t;
        s.reader_warp_epoch[r] = we;
        return words[i];
    }

    void write(size_t i, T v, const void* site) {
        attach();
        Block& b = block();
        unsigned t = b.running;
        if (i >= bound) b.fail("thread " + std::to_string(t) + " writes " + word(i) + " past the end");
        b.count_op(GFPF_OP_SHARED);
        b.record_shared(this, i * sizeof(T), sizeof(T), true, site);
        Shadow& s = shadow_of(i);
        if (s.written && s.writer != t && same_interval(b, t, s.writer, s.write_epoch, s.write_warp_epoch))
            b.fail("race on " + word(i) + ": threads " + std::to_string(s.writer) + " and " + std::to_string(t) +
                   " both write it in the same barrier interval");
        if (s.read_epoch == b.epoch) {
            for (unsigned r = 0; r < s.readers; ++r) {
                if (s.reader[r] != t && (s.many || same_interval(b, t, s.reader[r], s.read_epoch, s.reader_warp_epoch[r])))
                    b.fail("race on " + word(i) + ": thread " + std::to_string(t) + " writes what thread " +
                           std::to_string(s.reader[r]) + " read in the same barrier interval");
            }
        }
        s.written = true;
        s.write_epoch = b.epoch;
        s.write_warp_epoch = b.warp_epoch[t / kWarp];
        s.writer = t;
        words[i] = v;
    }

    // Four neighbouring words from i, a multiple of four, in one access (a
    // 16-byte load on the device): checked word by word, counted once.
    template <class U>
    __attribute__((noinline)) void read4(size_t i, U (&out)[4]) {
        const void* site = __builtin_return_address(0);
        Block& b = block();
        if (i % 4 != 0) b.fail("thread " + std::to_string(b.running) + " reads four words of " + word(i) + ", not 16-byte aligned");
        b.record_shared(this, i * sizeof(T), 4 * sizeof(T), false, site);
        in_wide_access = true;
        for (size_t k = 0; k < 4; ++k) out[k] = U(read(i + k, site));
        in_wide_access = false;
        if (b.counts_here()) b.thread_ops[b.running][GFPF_OP_SHARED] -= 3;
    }

    // An indexed word, with the code address that indexed it (its site:
    // one instruction on the device, whichever lanes reach it).
    struct Ref {
        SharedArray* array;
        size_t i;
        const void* site;
        operator T() const { return array->read(i, site); }
        Ref& operator=(T v) {
            array->write(i, v, site);
            return *this;
        }
        Ref& operator=(const Ref& other) { return *this = T(other); }
    };
    // Not inlined, so that each place in the kernels that indexes an array
    // has its own return address.
    __attribute__((noinline)) Ref operator[](size_t i) { return Ref{this, i, __builtin_return_address(0)}; }
};

// ---- warp collectives --------------------------------------------------

// `registers`: the 32-bit registers a shuffle moves (the SHFL instructions
// it takes on the device).
inline unsigned long long collective(WarpOp op, unsigned mask, unsigned long long value, int operand, int width,
                                     int registers = 1) {
    Block& b = block();
    switch (op) {
        case WarpOp::Idx:
        case WarpOp::Up:
        case WarpOp::Down:
        case WarpOp::Xor:
            for (int i = 0; i < registers; ++i) b.count_op(GFPF_OP_SHUFFLE);
            break;
        case WarpOp::Mma: b.count_op(GFPF_OP_MMA); break;
        default: b.count_op(GFPF_OP_COLLECTIVE);
    }
    Fiber& f = b.fibers[b.running];
    unsigned lane = b.running % kWarp;
    if (!(mask >> lane & 1))
        b.fail("thread " + std::to_string(b.running) + " calls a warp collective whose mask 0x" +
               std::to_string(mask) + " leaves out its own lane");
    f.op = op;
    f.mask = mask;
    f.value = value;
    f.operand = operand;
    f.width = width;
    b.yield(State::Warp);
    return f.result;
}

// The warp of b whose first thread is `first` completes its m16n8k32 matrix
// product: D = A·B + C from every lane's fragments, each lane's d written
// and the lanes set running; u8 × u8 products, s32 accumulation wrapping
// modulo 2^32 (no .satfinite). At -O3 under GCC whatever the kernels'
// level (-Og): the tensor-core pairs' test spent a quarter of its time here
// at -Og. (Not the rest of the runtime: GCC does not inline across
// functions of different levels, and the calls cost more than -O2 saved.)
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
inline void mma_warp(Block& b, unsigned first) {
    unsigned a[16][32], bt[8][32], c[16][8];
    const auto* lead = reinterpret_cast<const MmaFragments*>(uintptr_t(b.fibers[first].value));
    const bool a_signed = lead->a_signed, b_signed = lead->b_signed;
    // A signed byte as its value modulo 2^32, as the products' sums are.
    const auto value = [](unsigned byte, bool is_signed) {
        return is_signed ? unsigned(int(static_cast<signed char>(byte))) : byte;
    };
    for (unsigned l = 0; l < kWarp; ++l) {
        const auto* f = reinterpret_cast<const MmaFragments*>(uintptr_t(b.fibers[first + l].value));
        const unsigned g = l >> 2, t = l & 3;
        for (unsigned i = 0; i < 16; ++i)
            a[g + (i >> 2 & 1) * 8][4 * t + (i & 3) + (i >= 8 ? 16 : 0)] =
                value(f->a[i >> 2] >> 8 * (i & 3) & 0xff, a_signed);
        // B transposed: bt[n][k] = B[k][n].
        for (unsigned i = 0; i < 8; ++i)
            bt[g][4 * t + (i & 3) + (i >= 4 ? 16 : 0)] = value(f->b[i >> 2] >> 8 * (i & 3) & 0xff, b_signed);
        for (unsigned i = 0; i < 4; ++i) c[g + (i >> 1) * 8][2 * t + (i & 1)] = f->c[i];
    }
    for (unsigned l = 0; l < kWarp; ++l) {
        auto* f = reinterpret_cast<MmaFragments*>(uintptr_t(b.fibers[first + l].value));
        const unsigned g = l >> 2, t = l & 3;
        for (unsigned i = 0; i < 4; ++i) {
            const unsigned row = g + (i >> 1) * 8, col = 2 * t + (i & 1);
            unsigned sum = c[row][col];
            for (unsigned k = 0; k < 32; ++k) sum += a[row][k] * bt[col][k];
            f->d[i] = sum;
        }
        b.fibers[first + l].state = State::Running;
    }
}

// Completes the warp collective of warp w if every lane of its mask waits at
// it; false if some lane has not arrived yet.
inline bool resolve_warp(Block& b, unsigned w) {
    unsigned first = w * kWarp, lanes = std::min<unsigned>(kWarp, b.block_dim.x - first);
    int leader = -1;
    for (unsigned l = 0; l < lanes; ++l)
        if (b.fibers[first + l].state == State::Warp) {
            leader = int(l);
            break;
        }
    if (leader < 0) return false;
    const Fiber& lead = b.fibers[first + leader];
    unsigned mask = lead.mask;
    for (unsigned l = 0; l < kWarp; ++l) {
        if (!(mask >> l & 1)) continue;
        if (l >= lanes) {
            b.error = where(b) + ": warp collective mask names lane " + std::to_string(l) + " of warp " +
                      std::to_string(w) + ", which the block does not have";
            return false;
        }
        const Fiber& f = b.fibers[first + l];
        if (f.state == State::Exited) {
            b.error = where(b) + ": thread " + std::to_string(first + l) +
                      " exited while its warp waits for it in a warp collective";
            return false;
        }
        if (f.state != State::Warp) return false;
        if (f.mask != mask || f.op != lead.op)
            b.error = where(b) + ": lanes " + std::to_string(leader) + " and " + std::to_string(l) + " of warp " +
                      std::to_string(w) + " meet in different warp collectives";
    }
    if (!b.error.empty()) return false;
    if (lead.op == WarpOp::Mma) {
        if (mask != 0xffffffffu || lanes != kWarp) {
            b.error = where(b) + ": a matrix product in warp " + std::to_string(w) + " without all 32 lanes";
            return false;
        }
        mma_warp(b, first);
        return true;
    }
    unsigned long long ballot = 0;
    for (unsigned l = 0; l < kWarp; ++l)
        if (mask >> l & 1 && b.fibers[first + l].value != 0) ballot |= 1ull << l;
    for (unsigned l = 0; l < kWarp; ++l) {
        if (!(mask >> l & 1)) continue;
        Fiber& f = b.fibers[first + l];
        int width = f.width, segment = int(l) & ~(width - 1), source = int(l);
        switch (f.op) {
            case WarpOp::Idx: source = segment + (f.operand & (width - 1)); break;
            case WarpOp::Up: source = (int(l) - segment >= f.operand) ? int(l) - f.operand : int(l); break;
            case WarpOp::Down: source = (int(l) - segment + f.operand < width) ? int(l) + f.operand : int(l); break;
            case WarpOp::Xor: {
                int x = int(l) ^ f.operand;
                source = ((x & ~(width - 1)) == segment) ? x : int(l);
                break;
            }
            default: break;
        }
        switch (f.op) {
            case WarpOp::Ballot: f.result = ballot; break;
            case WarpOp::Any: f.result = ballot != 0; break;
            case WarpOp::All: f.result = ballot == mask; break;
            case WarpOp::Sync: f.result = 0; break;
            default:
                if (!(mask >> source & 1)) {
                    b.error = where(b) + ": lane " + std::to_string(l) + " of warp " + std::to_string(w) +
                              " reads lane " + std::to_string(source) + ", which is not in the shuffle's mask";
                    return false;
                }
                f.result = b.fibers[first + source].value;
        }
    }
    if (lead.op == WarpOp::Sync) ++b.warp_epoch[w];
    for (unsigned l = 0; l < kWarp; ++l)
        if (mask >> l & 1) b.fibers[first + l].state = State::Running;
    return true;
}

// The end of a round: as run_block's loop did before the fibers switched to
// one another directly, and in the same order, so that both schedules and
// every check are as they were.
inline int Block::next_round(bool progressed) {
    const unsigned n = unsigned(fibers.size());
    for (;;) {
        for (unsigned w = 0; w < warps(); ++w) {
            if (resolve_warp(*this, w)) progressed = true;
            if (!error.empty()) return -1;
        }
        if (!progressed) {
            unsigned at_barrier = 0, exited = 0, at_warp = 0;
            for (const Fiber& f : fibers) {
                at_barrier += f.state == State::Barrier;
                exited += f.state == State::Exited;
                at_warp += f.state == State::Warp;
            }
            if (exited == n) return -1;
            if (at_warp > 0) {
                error = where(*this) + ": deadlock: a warp collective waits for a lane that waits at __syncthreads()";
                return -1;
            }
            if (exited > 0) {
                for (unsigned t = 0; t < n; ++t)
                    if (fibers[t].state == State::Exited) {
                        error = where(*this) + ": thread " + std::to_string(t) + " exited while " +
                                std::to_string(at_barrier) + " threads wait at __syncthreads()";
                        break;
                    }
                return -1;
            }
            ++epoch;
            for (Fiber& f : fibers) f.state = State::Running;
        }
        const int next = runnable_from(0);
        if (next >= 0) return next;
        progressed = false;
    }
}

inline void Block::yield(State state) {
    // No error is pending here: fail() and next_round() hand a failed
    // block straight back to the scheduler.
    const unsigned t = running;
    fibers[t].state = state;
    int next = runnable_from(position(t) + 1);
    if (next < 0) next = next_round(true);
    if (next == int(t)) return;
    if (next < 0) {
        switch_context(fibers[t].context, scheduler);
        return;
    }
    running = unsigned(next);
    switch_context(fibers[t].context, fibers[next].context);
}

// ---- running a block and a launch --------------------------------------

struct Stacks {
    std::vector<void*> stacks;
    size_t page = size_t(sysconf(_SC_PAGESIZE));
    ~Stacks() {
        for (void* s : stacks) munmap(s, kStackBytes);
    }
    // Where a region's guard page starts: the first page past its header's
    // span.
    size_t guard() const { return (kHeaderSpan + page - 1) / page * page; }
    // Region i, aligned to kStackBytes, a page past its header's span a
    // guard; null if the system refuses it.
    void* get(size_t i) {
        while (stacks.size() <= i) {
            // Twice the size, then the unaligned ends returned.
            char* s = static_cast<char*>(mmap(nullptr, 2 * kStackBytes, PROT_READ | PROT_WRITE,
                                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
            if (s == MAP_FAILED) return nullptr;
            char* aligned = reinterpret_cast<char*>((uintptr_t(s) + kStackBytes - 1) & ~uintptr_t(kStackBytes - 1));
            if (aligned > s) munmap(s, size_t(aligned - s));
            if (s + kStackBytes > aligned) munmap(aligned + kStackBytes, size_t(s + kStackBytes - aligned));
            if (mprotect(aligned + guard(), page, PROT_NONE) != 0) {
                munmap(aligned, kStackBytes);
                return nullptr;
            }
            stacks.push_back(aligned);
        }
        return stacks[i];
    }
    // Where a fiber's stack may grow down to in region `stack`: past its
    // header's span and the guard page.
    size_t usable_from() const { return guard() + page; }
};

inline thread_local Stacks stacks;

// Where thread t's stack starts below the top of its region. The regions are
// kStackBytes apart, so unstaggered every fiber's hot frames would share one
// set of each cache level that indexes by address bits below 2 MiB (the L1
// and L2): resuming a fiber then missed both, most of the time of a kernel
// with a warp collective per digit operation. Steps of 17 cache lines spread
// 64 threads over every set of a 4 KiB L1 way, and 1024 over a 64 KiB L2 way.
inline size_t stack_stagger(unsigned t) { return size_t(t % 1024) * 17 * 64 % kHeaderSpan; }

// Every fiber starts here, and never returns: it ends by switching away.
[[noreturn]] inline void fiber_main() {
    Block& b = block();
    b.entry(b.entry_arg);
    b.yield(State::Exited);
    __builtin_unreachable();
}

// Gives fiber f the stack `stack`, to start at fiber_main when resumed.
inline void prepare_fiber(Fiber& f, void* stack, size_t bytes) {
#if GFPF_EMU_ASM_SWITCH
    // What gfpf_emu_switch pops: six registers, then fiber_main as the
    // return address, which leaves the stack pointer 8 bytes off 16-byte
    // alignment at its entry, as after a call.
    auto* top = reinterpret_cast<void**>((uintptr_t(stack) + bytes) & ~uintptr_t(15));
    *--top = nullptr;
    *--top = reinterpret_cast<void*>(&fiber_main);
    for (int r = 0; r < 6; ++r) *--top = nullptr;
    f.context.sp = top;
#else
    getcontext(&f.context.start);
    f.context.start.uc_stack.ss_sp = stack;
    f.context.start.uc_stack.ss_size = bytes;
    f.context.start.uc_link = nullptr;
    makecontext(&f.context.start, fiber_main, 0);
    f.context.started = false;
#endif
}

// Runs one block to the end; false (with b.error) on any failed check. The
// fibers switch to one another directly, in the schedule's order within a
// round (Block::yield); the last of a round ends it (Block::next_round).
inline bool run_block(Block& b, unsigned schedule) {
    unsigned n = b.block_dim.x;
    b.fibers.assign(n, Fiber{});
    b.warp_epoch.assign(b.warps(), 0);
    b.epoch = 1;
    b.schedule = schedule;
    b.generation = ++block_generation;
    b.accesses.clear();
    b.thread_ops.assign(b.counting ? n : 0, {});
    b.shared_counts.clear();
    b.resident.assign(b.counting ? n : 0, 0);
    b.checking.assign(b.counting ? n : 0, 0);
#if !GFPF_EMU_ASM_SWITCH
    b.scheduler.started = true;
#endif
    const size_t bottom = stacks.usable_from();
    for (unsigned t = 0; t < n; ++t) {
        void* stack = stacks.get(t);
        if (stack == nullptr) {
            b.error = where(b) + ": cannot reserve a stack for thread " + std::to_string(t);
            return false;
        }
        stack_header(stack).block = &b;
        prepare_fiber(b.fibers[t], static_cast<char*>(stack) + bottom, kStackBytes - bottom - stack_stagger(t));
    }
    if (n > 0) {
        b.running = b.position(0);
        switch_context(b.scheduler, b.fibers[b.running].context);
    }
    if (!b.error.empty()) return false;
    b.fold_traffic();
    if (b.counting) {
        b.fold_ops();
        b.fold_shared();
    }
    return true;
}

template <class F>
inline void call_body(void* f) {
    (*static_cast<F*>(f))();
}

// Runs `body` as kernel `name` over the launch's grid; 0, or 1 with the error
// written into launch.error.
template <class F>
inline int launch(const char* name, GfpfEmuLaunch& launch, F body) {
    Block b;
    b.kernel = name;
    b.block_dim = dim3{unsigned(launch.block_x), 1, 1};
    b.grid_dim = dim3{unsigned(launch.grid_x), 1, 1};
    b.entry = call_body<F>;
    b.counting = launch.count_traffic != 0;
    b.dynamic_shared_bytes = launch.dynamic_shared_bytes;
    b.entry_arg = &body;
    int status = 0;
    const unsigned long long stride = launch.block_stride == 0 ? 1 : launch.block_stride;
    for (unsigned long long g = 0; g < launch.grid_x; g += stride) {
        b.block_idx = dim3{unsigned(g), 0, 0};
        if (!run_block(b, unsigned(launch.schedule))) {
            if (launch.error != nullptr && launch.error_capacity > 0)
                std::snprintf(launch.error, launch.error_capacity, "%s", b.error.c_str());
            status = 1;
            break;
        }
    }
    launch.requests = b.requests;
    launch.sectors_read = b.sectors_read;
    launch.sectors_written = b.sectors_written;
    launch.bytes_read = b.bytes_read;
    launch.bytes_written = b.bytes_written;
    launch.table_sectors = b.table_sectors;
    launch.table_bytes = b.table_bytes;
    launch.tensor_table_sectors = b.tensor_table_sectors;
    launch.tensor_table_bytes = b.tensor_table_bytes;
    launch.tensor_resident_sectors = b.tensor_resident_sectors;
    for (int i = 0; i < GFPF_OP_COUNT; ++i) {
        launch.ops[i] = b.ops[i];
        launch.path_ops[i] = b.path_ops[i];
        launch.warp_ops[i] = b.warp_ops[i];
    }
    launch.shared_requests = b.shared_requests;
    launch.shared_wavefronts = b.shared_wavefronts;
    launch.shared_ideal_wavefronts = b.shared_ideal_wavefronts;
    return status;
}

}  // namespace gfpf_emu

// Counts shared-memory accesses by site from now on (`on` nonzero), or stops
// and forgets them.
extern "C" void gfpf_emu_shared_sites_count(int on) {
    gfpf_emu::shared_sites().on = on != 0;
    gfpf_emu::shared_sites().by_site.clear();
}

// Writes up to `capacity` sites' counts as (offset of the site's code in this
// library, warp-wide accesses, wavefronts, conflict-free wavefronts), forgets
// them all and returns how many there were.
extern "C" unsigned long long gfpf_emu_shared_sites_take(unsigned long long* out, unsigned long long capacity) {
    auto& sites = gfpf_emu::shared_sites().by_site;
    const unsigned long long count = sites.size();
    unsigned long long i = 0;
    for (const auto& [site, counts] : sites) {
        if (i == capacity) break;
        Dl_info info{};
        const unsigned long long base =
            dladdr(reinterpret_cast<void*>(site), &info) != 0 ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0;
        out[4 * i] = site - base;
        for (int c = 0; c < 3; ++c) out[4 * i + 1 + c] = counts[c];
        ++i;
    }
    sites.clear();
    return count;
}

// CUDA's built-in variables and intrinsics, on the running block.
#define threadIdx (dim3{gfpf_emu::block().running, 0, 0})
#define blockIdx (gfpf_emu::block().block_idx)
#define blockDim (gfpf_emu::block().block_dim)
#define gridDim (gfpf_emu::block().grid_dim)

inline void __syncthreads() {
    gfpf_emu::block().count_op(GFPF_OP_BARRIER);
    gfpf_emu::block().yield(gfpf_emu::State::Barrier);
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
    gfpf_emu::collective(gfpf_emu::WarpOp::Sync, mask, 0, 0, gfpf_emu::kWarp);
}

template <class T>
inline unsigned long long gfpf_emu_bits(T v) {
    unsigned long long bits = 0;
    static_assert(sizeof(T) <= sizeof bits, "warp shuffles move at most 64 bits");
    std::memcpy(&bits, &v, sizeof v);
    return bits;
}
// The 32-bit registers a shuffle of a T moves: one SHFL each.
template <class T>
constexpr int gfpf_emu_registers() {
    return int((sizeof(T) + 3) / 4);
}
template <class T>
inline T gfpf_emu_from_bits(unsigned long long bits) {
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

template <class T>
inline T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
    return gfpf_emu_from_bits<T>(gfpf_emu::collective(gfpf_emu::WarpOp::Idx, mask, gfpf_emu_bits(v), src, width, gfpf_emu_registers<T>()));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
    return gfpf_emu_from_bits<T>(
        gfpf_emu::collective(gfpf_emu::WarpOp::Up, mask, gfpf_emu_bits(v), int(delta), width, gfpf_emu_registers<T>()));
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
    return gfpf_emu_from_bits<T>(
        gfpf_emu::collective(gfpf_emu::WarpOp::Down, mask, gfpf_emu_bits(v), int(delta), width, gfpf_emu_registers<T>()));
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) {
    return gfpf_emu_from_bits<T>(
        gfpf_emu::collective(gfpf_emu::WarpOp::Xor, mask, gfpf_emu_bits(v), lane_mask, width, gfpf_emu_registers<T>()));
}
namespace gfpf_emu {
// mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 (.s8 for A's or B's
// type where f.a_signed or f.b_signed, every lane's the same) over the
// calling warp: f.d = A·B + C from every lane's fragments (all 32 lanes
// take part).
inline void mma_m16n8k32_u8(MmaFragments& f) {
    collective(WarpOp::Mma, 0xffffffffu, (unsigned long long)uintptr_t(&f), 0, kWarp);
}
}  // namespace gfpf_emu
inline unsigned __ballot_sync(unsigned mask, int predicate) {
    return unsigned(gfpf_emu::collective(gfpf_emu::WarpOp::Ballot, mask, predicate != 0, 0, 32));
}
inline int __any_sync(unsigned mask, int predicate) {
    return int(gfpf_emu::collective(gfpf_emu::WarpOp::Any, mask, predicate != 0, 0, 32));
}
inline int __all_sync(unsigned mask, int predicate) {
    return int(gfpf_emu::collective(gfpf_emu::WarpOp::All, mask, predicate != 0, 0, 32));
}

// Shared memory: checked arrays on the host, plain __shared__ ones on the device.
#define GFPF_SHARED_ARRAY(type, name, count) \
    static thread_local gfpf_emu::SharedArray<type, (count)> name(#name)
// Dynamic shared memory (`extern __shared__ type name[]` on the device): at
// most max_count words, the launch's dynamic_shared_bytes of them in bounds.
#define GFPF_DYNAMIC_SHARED_ARRAY(type, name, max_count) \
    static thread_local gfpf_emu::SharedArray<type, (max_count)> name(#name, true)

// Global memory, counted (see GfpfEmuLaunch); plain accesses on the device.
template <class T>
inline T gfpf_global_read(const T* base, unsigned long long i, int site) {
    gfpf_emu::block().record(base, i * sizeof(T), sizeof(T), false, site);
    return base[i];
}
template <class T>
inline T gfpf_table_read(const T* base, unsigned long long i, int site, int table = 1) {
    gfpf_emu::block().record(base, i * sizeof(T), sizeof(T), false, site, table);
    return base[i];
}
// Words i and i + 1 of a table in one 16-byte access (the device's vector
// load: i even, from a 256-byte aligned allocation).
template <class T>
inline void gfpf_table_read_pair(const T* base, unsigned long long i, int site, T& lo, T& hi) {
    if (i % 2 != 0) gfpf_emu::block().fail("a 16-byte table read at an odd word");
    gfpf_emu::block().record(base, i * sizeof(T), 2 * sizeof(T), false, site, 1);
    lo = base[i];
    hi = base[i + 1];
}
template <class T>
inline void gfpf_global_write(T* base, unsigned long long i, T v, int site) {
    gfpf_emu::block().record(base, i * sizeof(T), sizeof(T), true, site);
    base[i] = v;
}
// `site` tells apart the source lines that share a helper (gfpf_load).
#define GFPF_COUNT_OP(op) gfpf_emu::block().count_op(op)
namespace gfpf_emu {
// A GFPF_CHECK's condition, run by the emulator alone: while it runs, its
// thread's operations and accesses do not count (a thread that yields in it,
// at a shuffle, stays marked; the others count on).
struct CheckScope {
    Block& b = block();
    unsigned thread = b.running;
    CheckScope() {
        if (b.counting) ++b.checking[thread];
    }
    ~CheckScope() {
        if (b.counting) --b.checking[thread];
    }
    CheckScope(const CheckScope&) = delete;
    CheckScope& operator=(const CheckScope&) = delete;
};
}  // namespace gfpf_emu
#define GFPF_CHECK(condition, what)                         \
    do {                                                    \
        bool gfpf_check_holds;                              \
        {                                                   \
            gfpf_emu::CheckScope gfpf_check_scope;          \
            gfpf_check_holds = (condition);                 \
        }                                                   \
        if (!gfpf_check_holds) gfpf_emu::block().fail(what); \
    } while (0)
#define GFPF_GLOBAL_READ_AT(base, i, site) gfpf_global_read((base), (i), (site))
#define GFPF_TABLE_READ_AT(base, i, site) gfpf_table_read((base), (i), (site))
#define GFPF_TABLE_READ(base, i) GFPF_TABLE_READ_AT(base, i, __LINE__)
#define GFPF_TENSOR_TABLE_READ(base, i) gfpf_table_read((base), (i), __LINE__, 2)
#define GFPF_TABLE_READ_PAIR(base, i, lo, hi) gfpf_table_read_pair((base), (i), __LINE__, (lo), (hi))
#define GFPF_RESIDENT_TABLE_READS(on) gfpf_emu::block().resident_reads(on)
#define GFPF_GLOBAL_WRITE_AT(base, i, v, site) gfpf_global_write((base), (i), (v), (site))
#define GFPF_GLOBAL_READ(base, i) GFPF_GLOBAL_READ_AT(base, i, __LINE__)
#define GFPF_GLOBAL_WRITE(base, i, v) GFPF_GLOBAL_WRITE_AT(base, i, v, __LINE__)
