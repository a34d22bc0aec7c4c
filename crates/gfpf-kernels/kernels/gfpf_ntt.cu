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
    gfpf_ntt_u64 twiddles;              // u32 words: per prime 3·2^⌊n/2⌋ + 2^(min(n, 13) + 1) + 64n, see GfpfNttTwiddles
    gfpf_ntt_u64 primes;                // u32 words, eight a prime: q, N^−1, ⌊N^−1·2^32/q⌋, −q^−1 mod 2^32, 2^32 mod q, 0, 0, 0
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

// x·W·2^−32 mod q for x, W < q (Montgomery, q_neg_inv = −q^−1 mod 2^32):
// with W = w·2^32 mod q, x·w mod q.
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_mul_montgomery(gfpf_ntt_u32 x, gfpf_ntt_u32 big_w, gfpf_ntt_u32 q,
                                                 gfpf_ntt_u32 q_neg_inv) {
    const gfpf_ntt_u64 t = (gfpf_ntt_u64)x * big_w;
    const gfpf_ntt_u32 m = (gfpf_ntt_u32)t * q_neg_inv;
    // t + m·q < 2^62 + 2^63: no overflow; the sum is divisible by 2^32.
    const gfpf_ntt_u32 u = (gfpf_ntt_u32)((t + (gfpf_ntt_u64)m * q) >> 32);
    return u >= q ? u - q : u;
}

// A prime's twiddles (w = ω, or ω^−1 for the inverse). The pair whose lower
// element is i at stage g takes w^e, e = (i mod h)·2^g, h = N/2^(g+1); in a
// tile, i mod h = j·G + c (j the row below 2^shift, c = the column's place
// in G), so w^e = ρ^j·w^(c·2^g), ρ = w^(G·2^g) a root of order 2^(shift+1)
// ≤ 2^13. A thread keeps one column through a stage, so it makes the column
// factor once a stage: w^(c·2^g) = w^(c0·2^g)·w^(c1·2^g), c0 the tile's
// first column's place (the same for the whole block: two short tables, e =
// hi·2^s + lo, w^e·2^32 = high[hi]·low[lo], one Shoup product) and c1 < 32
// the column in the tile (a table of w^(c1·2^g) by stage, one more); then
// each butterfly's twiddle with one more product, from the powers of ρ, stored level by level (ρ of order 2^(shift+1)
// at pairs 2^shift − 1 …), so that a warp's neighbouring rows read
// neighbouring pairs (whole sectors) and a warp's columns one pair
// (broadcast); the butterfly's Montgomery product takes w^e·2^32 as it is.
// The tables take at most 3·2^⌊n/2⌋ + 2^14 + 64n words a prime and stay in
// cache.
struct GfpfNttTwiddles {
    const gfpf_ntt_u64* low;    // 2^s pairs: w^lo in the low word, ⌊w^lo·2^32/q⌋ in the high one
    const gfpf_ntt_u32* high;   // 2^(n−1−s) words: w^(hi·2^s)·2^32 mod q
    const gfpf_ntt_u64* roots;  // levels ℓ < m = min(n, 13): 2^ℓ pairs ρ_ℓ^j (ρ_ℓ = w^(N/2^(ℓ+1))), Shoup quotient
    const gfpf_ntt_u64* columns;  // stage g: 32 pairs w^(c·2^g), c < 32, Shoup quotient
    int split, roots_log2;      // s, m
    gfpf_ntt_u32 q, q_neg_inv;

    // w^e·2^32 mod q, e < N/2.
    GFPF_NTT_METHOD gfpf_ntt_u32 montgomery_power(gfpf_ntt_u32 e) const {
        const gfpf_ntt_u64 pair = GFPF_NTT_TABLE_READ(low, e & ((1u << split) - 1));
        return gfpf_ntt_mul_shoup(GFPF_NTT_TABLE_READ(high, e >> split), (gfpf_ntt_u32)pair, (gfpf_ntt_u32)(pair >> 32), q);
    }
    // The column factor w^((c0 + c1)·2^g)·2^32 mod q at stage g: c0 the
    // tile's first column's place in G, c1 < 32 this thread's column.
    GFPF_NTT_METHOD gfpf_ntt_u32 column_factor(gfpf_ntt_u32 c0, int c1, int g) const {
        const gfpf_ntt_u64 pair = GFPF_NTT_TABLE_READ(columns, 32 * g + c1);
        return gfpf_ntt_mul_shoup(montgomery_power(c0 << g), (gfpf_ntt_u32)pair, (gfpf_ntt_u32)(pair >> 32), q);
    }
    // ρ^j·w^(c·2^g)·2^32 mod q: `column` = w^(c·2^g)·2^32 mod q
    // (column_factor), ρ of order 2^(shift+1), j < 2^shift.
    GFPF_NTT_METHOD gfpf_ntt_u32 twiddle(gfpf_ntt_u32 column, gfpf_ntt_u32 j, int shift) const {
        const gfpf_ntt_u64 pair = GFPF_NTT_TABLE_READ(roots, (1u << shift) - 1 + j);
        return gfpf_ntt_mul_shoup(column, (gfpf_ntt_u32)pair, (gfpf_ntt_u32)(pair >> 32), q);
    }
    // x·w mod q for big_w = w·2^32 mod q (twiddle).
    GFPF_NTT_METHOD gfpf_ntt_u32 times(gfpf_ntt_u32 x, gfpf_ntt_u32 big_w) const {
        return gfpf_ntt_mul_montgomery(x, big_w, q, q_neg_inv);
    }
};

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
    // Tile word w's row below 2^shift (j of GfpfNttTwiddles).
    GFPF_NTT_METHOD gfpf_ntt_u32 row_below(int w, int shift) const {
        return (gfpf_ntt_u32)(w >> columns_log2) & ((1u << shift) - 1);
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

// One shared-memory stage s of a tile: each of this thread's pairs of tile
// words (lower, upper) and its twiddle w·2^32 handed to `butterfly`, after
// a barrier (the stage before wrote what it reads).
template <class Butterfly>
GFPF_NTT_FN void gfpf_ntt_shared_stage(const GfpfNttTile& t, const GfpfNttTwiddles& tw, int s, gfpf_ntt_u32 column_factor,
                                       int tid, int threads, int column, Butterfly butterfly) {
    __syncthreads();
    const int shift = t.rows_log2 - 1 - s;  // partner rows 2^shift apart
    const int words = 1 << (t.rows_log2 + t.columns_log2);
    // A thread's pairs share their row below 2^shift when the block's rows
    // of pairs step by a multiple of 2^shift: one twiddle a stage.
    const bool same_row = (1 << shift) <= (threads >> t.columns_log2);
    const gfpf_ntt_u32 stage_twiddle =
        same_row ? tw.twiddle(column_factor, (gfpf_ntt_u32)(tid >> t.columns_log2) & ((1u << shift) - 1), shift) : 0;
    for (int u = tid; u < words / 2; u += threads) {
        const int pair = u >> t.columns_log2;
        const int row = ((pair >> shift) << (shift + 1)) | (pair & ((1 << shift) - 1));
        const int lower = (row << t.columns_log2) | column, upper = lower + (1 << (shift + t.columns_log2));
        GFPF_NTT_COUNT_BUTTERFLY();
        butterfly(lower, upper, same_row ? stage_twiddle : tw.twiddle(column_factor, t.row_below(lower, shift), shift));
    }
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
    const gfpf_ntt_u32* constants = (const gfpf_ntt_u32*)p.primes + 8 * prime;
    const gfpf_ntt_u32 q = GFPF_NTT_TABLE_READ(constants, 0);
    const int tid = (int)threadIdx.x;
    GfpfNttTwiddles tw;
    tw.split = (int)p.log2_n / 2;
    tw.roots_log2 = p.log2_n < 13 ? (int)p.log2_n : 13;
    tw.q = q;
    tw.q_neg_inv = GFPF_NTT_TABLE_READ(constants, 3);
    // A prime's tables (gfpf_cuda::ntt::NttPlan31::twiddle_table): 2^s
    // pairs, 2^s words (2^(n−1−s) used), 2^m pairs (2^m − 1 used), 32n pairs.
    const gfpf_ntt_u64 per_prime = (3ull << tw.split) + (2ull << tw.roots_log2) + 64 * p.log2_n;
    tw.low = (const gfpf_ntt_u64*)((const gfpf_ntt_u32*)p.twiddles + prime * per_prime);
    tw.high = (const gfpf_ntt_u32*)(tw.low + (1ull << tw.split));
    tw.roots = (const gfpf_ntt_u64*)(tw.high + (1ull << tw.split));
    tw.columns = tw.roots + (1ull << tw.roots_log2);
    // A thread's column in the shared-memory stages (threads and the tile's
    // words are multiples of C), and a lane's in the warp stages (C ≤ 32).
    const int column = tid & ((1 << t.columns_log2) - 1);
    // The column factor at the launch's first stage (where rows are
    // neighbours, G = 1, every one is w^0·2^32); stage g's is its 2^(g −
    // first)-th power, (c·2^g doubles a stage), one Montgomery square a step.
    const gfpf_ntt_u32 first_column_factor =
        t.log2_g == 0 ? GFPF_NTT_TABLE_READ(constants, 4) : tw.column_factor(t.residue, column, (int)p.first);
    auto column_factor_at = [&](int s) {
        gfpf_ntt_u32 f = first_column_factor;
        for (int i = 0; i < s; ++i) f = tw.times(f, f);
        return f;
    };
    gfpf_ntt_u32* data = (gfpf_ntt_u32*)p.data + t.transform * n;
    const bool inverse = p.inverse != 0;
    for (int w = tid; w < words; w += threads) tile_words[w] = GFPF_NTT_READ(data, t.at(w));
    // Stages s < shared_stages pair words 32 or more apart in the tile
    // (through shared memory); the others lanes of a warp.
    int shared_stages = 0;
    while (shared_stages < t.rows_log2 && t.rows_log2 - 1 - shared_stages + t.columns_log2 >= 5) ++shared_stages;
    // The shared-memory stages, forward in order: (x + y, (x − y)·w).
    if (!inverse) {
        for (int s = 0; s < shared_stages; ++s) {
            gfpf_ntt_shared_stage(t, tw, s, column_factor_at(s), tid, threads, column, [&](int lower, int upper, gfpf_ntt_u32 big_w) {
                const gfpf_ntt_u32 x = tile_words[lower], y = tile_words[upper];
                tile_words[lower] = gfpf_ntt_add(x, y, q);
                tile_words[upper] = tw.times(gfpf_ntt_sub(x, y, q), big_w);
            });
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
        const gfpf_ntt_u32 column_factor = column_factor_at(s);
        const bool upper_lane = (lane & distance) != 0;
        // Partners below 32 words apart: the row below 2^shift lies in the
        // lane's bits, the same for each of its words: one twiddle a stage.
        const gfpf_ntt_u32 big_w = tw.twiddle(column_factor, t.row_below(lane & ~distance, shift), shift);
#pragma unroll
        for (int k = 0; k < GFPF_NTT_MAX_LANE_ELEMENTS; ++k) {
            if (k >= per_lane) break;  // the same on every lane: the warp stays whole
            const int w = ((warp * per_lane + k) << 5) | lane;
            // Counted on both lanes of a pair: the warp runs both sides.
            GFPF_NTT_COUNT_LANE_STEP();
            if (!inverse) {
                const gfpf_ntt_u32 other = __shfl_xor_sync(0xffffffffu, held[k], distance);
                held[k] = upper_lane ? tw.times(gfpf_ntt_sub(other, held[k], q), big_w) : gfpf_ntt_add(held[k], other, q);
            } else {
                // (x + y·w, x − y·w): the upper lane forms y·w, then the two
                // swap what the other needs (y·w down, x up).
                gfpf_ntt_u32 mine = held[k];
                if (upper_lane) mine = tw.times(mine, big_w);
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
        gfpf_ntt_shared_stage(t, tw, s, column_factor_at(s), tid, threads, column, [&](int lower, int upper, gfpf_ntt_u32 big_w) {
            const gfpf_ntt_u32 x = tile_words[lower];
            const gfpf_ntt_u32 y = tw.times(tile_words[upper], big_w);
            tile_words[lower] = gfpf_ntt_add(x, y, q);
            tile_words[upper] = gfpf_ntt_sub(x, y, q);
        });
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
