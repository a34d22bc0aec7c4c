// Word-size NTTs on the device: transforms of length N = 2^n modulo
// primes q < 2^31 with 2^n | q − 1, a batch of transforms over several primes
// per launch (the small-prime side of the thesis's contest; gfpf_cuda::ntt
// gives the tables and the launches).
//
// Why 31-bit primes and 32-bit Shoup products: a product by a twiddle is one
// IMAD.HI and two IMAD in the native 32-bit multiplier width of the GPU,
// where primes near 2^50 in FP64 (gfpf-small's AVX2 path) would take about
// eight DFMA at an H100's FP64 rate, half its FP32 rate; more primes cost more
// transforms, not slower ones. Values stay fully reduced in [0, q), since 2q
// < 2^32 leaves no room for Harvey's lazy [0, 4q).
//
// Order: forward from natural input to bit-reversed output, Gentleman–Sande
// (decimation in frequency) stages; the inverse from bit-reversed input to
// natural output, the same stages undone in reverse order (Cooley–Tukey with
// ω^−1) and N^−1 applied by the last launch. Forward stage g (0 ≤ g < n)
// pairs elements i and i + h, h = N/2^(g+1), i's bit of h clear, into
// (x_i + x_{i+h}, (x_i − x_{i+h})·ω^((i mod h)·2^g)), ω the prime's root of
// order N. A launch runs the stages
// first … first + L − 1 on tiles of 2^L rows by C columns: the elements
// base + j·G + c (j < 2^L, c < C) of one block of M = N/2^first elements,
// G = M/2^L apart, C = min(G, 32) consecutive columns, so that every row of a
// tile is whole 32-byte sectors. The block loads its tile into shared
// memory, runs the stages whose partners lie 32 words apart or more there
// (__syncthreads between them), and the last ones (partners fewer than 32
// words apart) between the lanes of a warp with __shfl_xor_sync, each lane
// holding E = tile/threads elements, one of each pair.
#pragma once

typedef unsigned long long gfpf_ntt_u64;
typedef unsigned int gfpf_ntt_u32;

#ifdef GFPF_HOST_EMULATION
#define GFPF_NTT_FN static inline
#define GFPF_NTT_METHOD inline
#define GFPF_NTT_SHARED(type, name, count) GFPF_SHARED_ARRAY(type, name, count)
static inline gfpf_ntt_u32 gfpf_ntt_mul_hi(gfpf_ntt_u32 a, gfpf_ntt_u32 b) {
    return (gfpf_ntt_u32)(((gfpf_ntt_u64)a * b) >> 32);
}
#define GFPF_NTT_READ(base, i) gfpf_global_read((base), (i), __LINE__)
#define GFPF_NTT_TABLE_READ(base, i) gfpf_table_read((base), (i), __LINE__)
#define GFPF_NTT_WRITE(base, i, v) gfpf_global_write((base), (i), (v), __LINE__)
#define GFPF_NTT_COUNT_BUTTERFLY() gfpf_emu::block().count_op(GFPF_OP_NTT_BUTTERFLY)
#define GFPF_NTT_COUNT_LANE_STEP() gfpf_emu::block().count_op(GFPF_OP_NTT_LANE_STEP)
#else
#define GFPF_NTT_FN __device__ __forceinline__
#define GFPF_NTT_METHOD __device__ __forceinline__
#define GFPF_NTT_SHARED(type, name, count) __shared__ type name[count]
__device__ __forceinline__ gfpf_ntt_u32 gfpf_ntt_mul_hi(gfpf_ntt_u32 a, gfpf_ntt_u32 b) { return __umulhi(a, b); }
#define GFPF_NTT_READ(base, i) ((base)[i])
#define GFPF_NTT_TABLE_READ(base, i) ((base)[i])
#define GFPF_NTT_WRITE(base, i, v) ((base)[i] = (v))
#define GFPF_NTT_COUNT_BUTTERFLY()
#define GFPF_NTT_COUNT_LANE_STEP()
#endif

// The launch's parameters (gfpf_kernels::NttParams mirrors them).
struct GfpfNttParams {
    gfpf_ntt_u64 data;                  // u32 words: transform t's element i at t·N + i
    gfpf_ntt_u64 twiddles;              // u32 words: per prime 2N, stage g's pairs (w^(m·2^g), ⌊…·2^32/q⌋), m < N/2^(g+1), from pair N − N/2^g
    gfpf_ntt_u64 primes;                // u32 words, four a prime: q, N^−1, ⌊N^−1·2^32/q⌋, 0
    gfpf_ntt_u64 transforms_per_prime;  // transform t is modulo prime t / transforms_per_prime
    gfpf_ntt_u64 threads;               // threads of the launch (blocks × block threads)
    gfpf_ntt_u64 log2_n;                // n
    gfpf_ntt_u64 first;                 // the first stage this launch runs
    gfpf_ntt_u64 stages;                // L, the stages it runs
    gfpf_ntt_u64 log2_columns;          // log2 C
    gfpf_ntt_u64 log2_block_threads;    // threads of a block: the tile's words / E
    gfpf_ntt_u64 inverse;               // 1: the inverse (table of ω^−e; stages in reverse)
};

// Words of shared memory a tile may take (32 KiB) and the most elements a
// lane holds in the warp stages (tile words over block threads).
#define GFPF_NTT_TILE_WORDS 8192
#define GFPF_NTT_MAX_LANE_ELEMENTS 16

// (x − y) mod q and (x + y) mod q for x, y < q < 2^31.
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_add(gfpf_ntt_u32 x, gfpf_ntt_u32 y, gfpf_ntt_u32 q) {
    const gfpf_ntt_u32 s = x + y;
    return s >= q ? s - q : s;
}
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_sub(gfpf_ntt_u32 x, gfpf_ntt_u32 y, gfpf_ntt_u32 q) {
    return x >= y ? x - y : x + q - y;
}
// x·w mod q for x < q (Shoup): w_shoup = ⌊w·2^32/q⌋, the quotient estimate
// is at most one short, so one conditional subtraction ends in [0, q).
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_mul_shoup(gfpf_ntt_u32 x, gfpf_ntt_u32 w, gfpf_ntt_u32 w_shoup, gfpf_ntt_u32 q) {
    const gfpf_ntt_u32 estimate = gfpf_ntt_mul_hi(x, w_shoup);
    const gfpf_ntt_u32 r = x * w - estimate * q;
    return r >= q ? r - q : r;
}

// Where a launch's tile and its rows lie.
struct GfpfNttTile {
    gfpf_ntt_u64 transform;  // the tile's transform
    gfpf_ntt_u32 base;       // its element (0, 0) in the transform
    gfpf_ntt_u32 residue;    // (element (0, 0)) mod G: the column chunk's first column
    int log2_g;              // log2 G: rows lie G words apart
    int rows_log2, columns_log2;

    // Tile word w (row w / C, column w mod C) in the transform.
    GFPF_NTT_METHOD gfpf_ntt_u32 at(int w) const {
        return base + ((gfpf_ntt_u32)(w >> columns_log2) << log2_g) + (gfpf_ntt_u32)(w & ((1 << columns_log2) - 1));
    }
    // The table entry of the pair whose lower word is `lower` at stage g,
    // whose partner rows lie 2^shift apart (h = 2^shift·G): stage g's run of
    // entries w^(m·2^g), m < h, starts at entry N − 2h, and m = i mod h is
    // the row below 2^shift times G plus the column's place in G, so that
    // neighbouring columns read neighbouring entries (whole sectors).
    GFPF_NTT_METHOD gfpf_ntt_u32 twiddle(int lower, int shift, gfpf_ntt_u32 n) const {
        const gfpf_ntt_u32 row = (gfpf_ntt_u32)(lower >> columns_log2) & ((1u << shift) - 1);
        const gfpf_ntt_u32 column = (gfpf_ntt_u32)(lower & ((1 << columns_log2) - 1));
        const gfpf_ntt_u32 h = 1u << (shift + log2_g);
        return n - 2 * h + (row << log2_g) + residue + column;
    }
};

GFPF_NTT_FN GfpfNttTile gfpf_ntt_tile(const GfpfNttParams& p) {
    GfpfNttTile t;
    t.rows_log2 = (int)p.stages;
    t.columns_log2 = (int)p.log2_columns;
    const int log2_m = (int)(p.log2_n - p.first);
    t.log2_g = log2_m - t.rows_log2;
    // Tiles of a transform: N/M blocks of M elements, G/C column chunks each.
    const int chunks_log2 = t.log2_g - t.columns_log2;
    const int tiles_log2 = (int)p.first + chunks_log2;
    const gfpf_ntt_u64 tile = blockIdx.x;
    t.transform = tile >> tiles_log2;
    const gfpf_ntt_u32 in_transform = (gfpf_ntt_u32)(tile & ((1ull << tiles_log2) - 1));
    const gfpf_ntt_u32 m_block = in_transform >> chunks_log2;
    const gfpf_ntt_u32 chunk = in_transform & ((1u << chunks_log2) - 1);
    t.residue = chunk << t.columns_log2;
    t.base = (m_block << log2_m) + t.residue;
    return t;
}

// One launch: stages first … first + L − 1 on this block's tile, forward
// (Gentleman–Sande, in order) or inverse (Cooley–Tukey with ω^−1, in reverse
// order, then N^−1 where the launch ends the transform).
GFPF_NTT_FN void gfpf_ntt_stages(const GfpfNttParams& p) {
    GFPF_NTT_SHARED(gfpf_ntt_u32, tile_words, GFPF_NTT_TILE_WORDS);
    const GfpfNttTile t = gfpf_ntt_tile(p);
    const int threads = 1 << p.log2_block_threads;
    const int words = 1 << (t.rows_log2 + t.columns_log2);
    const gfpf_ntt_u64 n = 1ull << p.log2_n;
    const gfpf_ntt_u64 prime = t.transform / p.transforms_per_prime;
    const gfpf_ntt_u32* constants = (const gfpf_ntt_u32*)p.primes + 4 * prime;
    const gfpf_ntt_u32 q = GFPF_NTT_TABLE_READ(constants, 0);
    const gfpf_ntt_u32* table = (const gfpf_ntt_u32*)p.twiddles + 2 * prime * n;
    gfpf_ntt_u32* data = (gfpf_ntt_u32*)p.data + t.transform * n;
    const bool inverse = p.inverse != 0;
    const int tid = (int)threadIdx.x;
    for (int w = tid; w < words; w += threads) tile_words[w] = GFPF_NTT_READ(data, t.at(w));
    // Stages s < shared_stages pair words 32 or more apart in the tile
    // (through shared memory); the others lanes of a warp.
    int shared_stages = 0;
    while (shared_stages < t.rows_log2 && t.rows_log2 - 1 - shared_stages + t.columns_log2 >= 5) ++shared_stages;
    // The shared-memory stages, forward in order: (x + y, (x − y)·w).
    if (!inverse) {
        for (int s = 0; s < shared_stages; ++s) {
            __syncthreads();
            const int shift = t.rows_log2 - 1 - s;  // partner rows 2^shift apart
            for (int u = tid; u < words / 2; u += threads) {
                const int column = u & ((1 << t.columns_log2) - 1), pair = u >> t.columns_log2;
                const int row = ((pair >> shift) << (shift + 1)) | (pair & ((1 << shift) - 1));
                const int lower = (row << t.columns_log2) | column, upper = lower + (1 << (shift + t.columns_log2));
                const gfpf_ntt_u32 e = t.twiddle(lower, shift, (gfpf_ntt_u32)n);
                const gfpf_ntt_u32 x = tile_words[lower], y = tile_words[upper];
                GFPF_NTT_COUNT_BUTTERFLY();
                tile_words[lower] = gfpf_ntt_add(x, y, q);
                tile_words[upper] = gfpf_ntt_mul_shoup(gfpf_ntt_sub(x, y, q), GFPF_NTT_TABLE_READ(table, 2 * e),
                                                       GFPF_NTT_TABLE_READ(table, 2 * e + 1), q);
            }
        }
    }
    __syncthreads();
    // The warp stages: lane l of warp v holds tile words (v·E + k)·32 + l,
    // k < E, its partner the lane `distance` away.
    const int per_lane = words / threads;
    const int lane = tid & 31, warp = tid >> 5;
    gfpf_ntt_u32 held[GFPF_NTT_MAX_LANE_ELEMENTS];
#pragma unroll
    for (int k = 0; k < GFPF_NTT_MAX_LANE_ELEMENTS; ++k)
        if (k < per_lane) held[k] = tile_words[((warp * per_lane + k) << 5) | lane];
    for (int step = 0; step < t.rows_log2 - shared_stages; ++step) {
        // Forward: the stages after the shared ones, in order; inverse: in reverse.
        const int s = inverse ? t.rows_log2 - 1 - step : shared_stages + step;
        const int shift = t.rows_log2 - 1 - s;
        const int distance = 1 << (shift + t.columns_log2);
        const bool upper_lane = (lane & distance) != 0;
#pragma unroll
        for (int k = 0; k < GFPF_NTT_MAX_LANE_ELEMENTS; ++k) {
            if (k >= per_lane) break;  // the same on every lane: the warp stays whole
            const int w = ((warp * per_lane + k) << 5) | lane;
            const gfpf_ntt_u32 e = t.twiddle(w & ~distance, shift, (gfpf_ntt_u32)n);
            // Counted on both lanes of a pair: the warp runs both sides.
            GFPF_NTT_COUNT_LANE_STEP();
            if (!inverse) {
                const gfpf_ntt_u32 other = __shfl_xor_sync(0xffffffffu, held[k], distance);
                held[k] = upper_lane ? gfpf_ntt_mul_shoup(gfpf_ntt_sub(other, held[k], q), GFPF_NTT_TABLE_READ(table, 2 * e),
                                                          GFPF_NTT_TABLE_READ(table, 2 * e + 1), q)
                                     : gfpf_ntt_add(held[k], other, q);
            } else {
                // (x + y·w, x − y·w): the upper lane forms y·w, then the two
                // swap what the other needs (y·w down, x up).
                gfpf_ntt_u32 mine = held[k];
                if (upper_lane)
                    mine = gfpf_ntt_mul_shoup(mine, GFPF_NTT_TABLE_READ(table, 2 * e), GFPF_NTT_TABLE_READ(table, 2 * e + 1), q);
                const gfpf_ntt_u32 other = __shfl_xor_sync(0xffffffffu, mine, distance);
                held[k] = upper_lane ? gfpf_ntt_sub(other, mine, q) : gfpf_ntt_add(mine, other, q);
            }
        }
    }
    if (!inverse) {
        // Out from each lane's words: rows of C consecutive words, whole sectors.
#pragma unroll
        for (int k = 0; k < GFPF_NTT_MAX_LANE_ELEMENTS; ++k) {
            if (k >= per_lane) break;
            const int w = ((warp * per_lane + k) << 5) | lane;
            GFPF_NTT_WRITE(data, t.at(w), held[k]);
        }
        return;
    }
    // Inverse: back to shared memory, the shared stages in reverse order:
    // (x + y·w, x − y·w).
#pragma unroll
    for (int k = 0; k < GFPF_NTT_MAX_LANE_ELEMENTS; ++k)
        if (k < per_lane) tile_words[((warp * per_lane + k) << 5) | lane] = held[k];
    for (int s = shared_stages - 1; s >= 0; --s) {
        __syncthreads();
        const int shift = t.rows_log2 - 1 - s;
        for (int u = tid; u < words / 2; u += threads) {
            const int column = u & ((1 << t.columns_log2) - 1), pair = u >> t.columns_log2;
            const int row = ((pair >> shift) << (shift + 1)) | (pair & ((1 << shift) - 1));
            const int lower = (row << t.columns_log2) | column, upper = lower + (1 << (shift + t.columns_log2));
            const gfpf_ntt_u32 e = t.twiddle(lower, shift, (gfpf_ntt_u32)n);
            const gfpf_ntt_u32 x = tile_words[lower];
            const gfpf_ntt_u32 y = gfpf_ntt_mul_shoup(tile_words[upper], GFPF_NTT_TABLE_READ(table, 2 * e),
                                                      GFPF_NTT_TABLE_READ(table, 2 * e + 1), q);
            GFPF_NTT_COUNT_BUTTERFLY();
            tile_words[lower] = gfpf_ntt_add(x, y, q);
            tile_words[upper] = gfpf_ntt_sub(x, y, q);
        }
    }
    __syncthreads();
    // The launch that ends the transform (stage 0) scales by N^−1.
    const bool scale = p.first == 0;
    const gfpf_ntt_u32 n_inv = GFPF_NTT_TABLE_READ(constants, 1), n_inv_shoup = GFPF_NTT_TABLE_READ(constants, 2);
    for (int w = tid; w < words; w += threads) {
        const gfpf_ntt_u32 v = tile_words[w];
        GFPF_NTT_WRITE(data, t.at(w), scale ? gfpf_ntt_mul_shoup(v, n_inv, n_inv_shoup, q) : v);
    }
}

#ifdef GFPF_HOST_EMULATION
extern "C" int gfpf_ntt31_stages(const GfpfNttParams* p, GfpfEmuLaunch* launch) {
    return gfpf_emu::launch("gfpf_ntt31_stages", *launch, [p] { gfpf_ntt_stages(*p); });
}
#else
extern "C" __global__ void __launch_bounds__(512) gfpf_ntt31_stages(const GfpfNttParams p) { gfpf_ntt_stages(p); }
#endif
