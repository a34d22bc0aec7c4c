// Instruction probes (cargo xtask kernels --probe), appended to a field's
// DFT_2k translation unit compiled with GFPF_PROBE: each kernel runs one of
// the element teams' operations once on one warp's elements in shared
// memory, between the loads and stores of gfpf_probe_empty, under the
// element teams' register bound (GFPF_ELEMENT_TEAM_SM_THREADS: 64 registers
// up to k = 8, the pairs' too; 128 at k = 16, where under 64 the product
// spilled, 439 local loads and stores counted as its instructions).
// GFPF_PROBE makes the operations' rare branches traps (GFPF_RARE); the
// probes' rolled loops are weighted by their trip counts (xtask/src/
// probes.rs, PROBES), so that a probe less the empty probe is the
// operation's common path on a lane.

// Digit planes of 65 words: lane l's element at l, its butterfly partner
// at l + 32.
#define GFPF_PROBE_PLANE 65
#define GFPF_PROBE_STAGING (GFPF_K * GFPF_PROBE_PLANE)

// Then a scratch element a lane (gfpf_tile_stage_twiddles), or the tensor
// cores' staging.
struct GfpfProbeTile {
    static constexpr int scratch = GFPF_PROBE_STAGING;
    static constexpr int threads = 32;
};
#ifdef GFPF_SHARED_TWIDDLES
#define GFPF_PROBE_WORDS (GFPF_PROBE_STAGING + 2 * GFPF_SHARED_TWIDDLE_STAGED_WORDS + GFPF_K * 32)
#else
#define GFPF_PROBE_WORDS (GFPF_PROBE_STAGING + GFPF_K * 32)
#endif

// The warp's 64 elements from io, and back: what every probe does.
__device__ __forceinline__ void gfpf_probe_load(gfpf_u64* tile, const gfpf_u64* io) {
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) {
        tile[threadIdx.x + d * GFPF_PROBE_PLANE] = io[threadIdx.x + 64 * d];
        tile[threadIdx.x + 32 + d * GFPF_PROBE_PLANE] = io[threadIdx.x + 32 + 64 * d];
    }
    __syncwarp();
}

__device__ __forceinline__ void gfpf_probe_store(const gfpf_u64* tile, gfpf_u64* io) {
    __syncwarp();
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) {
        io[threadIdx.x + 64 * d] = tile[threadIdx.x + d * GFPF_PROBE_PLANE];
        io[threadIdx.x + 32 + 64 * d] = tile[threadIdx.x + 32 + d * GFPF_PROBE_PLANE];
    }
}

#define GFPF_PROBE_KERNEL(name, operation)                                                                     \
    extern "C" __global__ void __launch_bounds__(128, GFPF_ELEMENT_TEAM_SM_THREADS / 128)                       \
        name(gfpf_u64* io, const gfpf_u64* table, unsigned twiddle, int i, int flag) {                         \
        __shared__ gfpf_u64 tile[GFPF_PROBE_WORDS];                                                            \
        /* Per lane, as in the kernels: the element, a butterfly's shift and  */                               \
        /* load order, a twiddle (lanes 16h …, 8h … or 4h … share one).       */                               \
        const int x = (int)threadIdx.x, lane_i = (i + x) & (2 * GFPF_K - 1);                                   \
        const bool lane_flag = ((x >> 4) ^ flag) & 1;                                                          \
        gfpf_probe_load(tile, io);                                                                             \
        operation;                                                                                             \
        gfpf_probe_store(tile, io);                                                                            \
    }

GFPF_PROBE_KERNEL(gfpf_probe_empty, (void)lane_i; (void)lane_flag)
// A product by a twiddle on the threads (the twiddle the partner element),
// a butterfly, a shift by r^i.
GFPF_PROBE_KERNEL(gfpf_probe_tile_mul, gfpf_tile_mul(tile, x, GFPF_PROBE_PLANE, x + 32, GFPF_PROBE_PLANE))
GFPF_PROBE_KERNEL(gfpf_probe_tile_add_sub, gfpf_tile_add_sub(tile, x, x + 32, GFPF_PROBE_PLANE))
GFPF_PROBE_KERNEL(gfpf_probe_tile_mul_pow_r, gfpf_tile_mul_pow_r(tile, x, GFPF_PROBE_PLANE, lane_i))
// A lane's share of staging its warp's twiddles (entry `twiddle` + lane).
GFPF_PROBE_KERNEL(gfpf_probe_tile_stage_twiddles,
                  gfpf_tile_stage_twiddles<GfpfProbeTile>(tile, table, (gfpf_u64)(twiddle + x)))
// A butterfly with its difference's shift by r^i, the sum's loads in the
// order `flag` says (gfpf_element_team_dft's).
GFPF_PROBE_KERNEL(gfpf_probe_tile_add_sub_mul_pow_r,
                  gfpf_tile_add_sub_mul_pow_r(tile, x, x + 32, GFPF_PROBE_PLANE, lane_i, lane_flag))
// The same with the shift the warp's, fixed in the code: its arm for r^1,
// or r^(k+1) where `flag` (gfpf_tile_add_sub_uniform_shift's branch to
// the arm for s = i mod k not counted: one arm alone here).
GFPF_PROBE_KERNEL(gfpf_probe_tile_add_sub_shift,
                  (gfpf_tile_add_sub_uniform_shift<1, 2>(tile, x, x + 32, GFPF_PROBE_PLANE,
                                                         (flag & 1) != 0 ? GFPF_K + 1 : 1)))
#ifdef GFPF_SHARED_TWIDDLES
// Products on the tensor cores by a twiddle that 16, 8 or 4 lanes share.
GFPF_PROBE_KERNEL(gfpf_probe_tile_mul_shared16,
                  gfpf_tile_mul_shared_twiddles<16>(tile, x, GFPF_PROBE_PLANE, table, twiddle + (x >> 4), tile,
                                                    GFPF_PROBE_STAGING))
GFPF_PROBE_KERNEL(gfpf_probe_tile_mul_shared8,
                  gfpf_tile_mul_shared_twiddles<8>(tile, x, GFPF_PROBE_PLANE, table, twiddle + (x >> 3), tile,
                                                   GFPF_PROBE_STAGING))
GFPF_PROBE_KERNEL(gfpf_probe_tile_mul_shared4,
                  gfpf_tile_mul_shared_twiddles<4>(tile, x, GFPF_PROBE_PLANE, table, twiddle + (x >> 2), tile,
                                                   GFPF_PROBE_STAGING))
#endif
