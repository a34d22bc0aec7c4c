// Word-size NTTs on the device: transforms of length N = 2^n modulo
// primes q < 2^31 with 2^n | q − 1, a batch of transforms over several primes
// per launch (the small-prime side of the thesis's contest; gfpf_cuda::ntt
// gives the tables and the launches).
//
// Why 31-bit primes and 32-bit products: a product by a twiddle is three or
// four IMAD in the native 32-bit multiplier width of the GPU, where primes
// near 2^50 in FP64 (gfpf-small's AVX2 path) would take about eight DFMA at
// an H100's FP64 rate, half its FP32 rate; more primes cost more transforms,
// not slower ones. Values stay fully reduced in [0, q), since 2q < 2^32
// leaves no room for Harvey's lazy [0, 4q).
//
// Order: forward from natural input to bit-reversed output, Gentleman–Sande
// (decimation in frequency) stages; the inverse from bit-reversed input to
// natural output, the same stages undone in reverse order (Cooley–Tukey with
// ω^−1) and N^−1 applied by the last launch. Forward stage g (0 ≤ g < n)
// pairs elements i and i + h, h = N/2^(g+1), i's bit of h clear, into
// (x_i + x_{i+h}, (x_i − x_{i+h})·ω^((i mod h)·2^g)), ω the prime's root of
// order N. A launch runs the stages first … first + L − 1 on tiles of 2^L
// rows by C columns: the elements base + j·G + c (j < 2^L, c < C) of one
// block of M = N/2^first elements, G = M/2^L apart, C = min(G, 32)
// consecutive columns, so that every row of a tile is whole 32-byte sectors
// (or the tile is contiguous, C = G).
//
// Within a launch the stages run in rounds of up to four, radix 2^r in
// registers: a thread takes the 2^r rows of a group that the round's stages
// pair among themselves (rows 2^(L−s−r) apart, s the round's first stage in
// the launch), runs the r stages on them, and puts them back; the rounds
// meet in shared memory, a barrier between them. The first round reads
// device memory and the last writes it directly where a warp's groups cover
// whole sectors, through shared memory where not. Against one stage a
// barrier (a butterfly's four shared words and its own twiddle) or a warp
// stage (a shuffle each element), a round of four stages moves each element
// through shared memory once and makes a twiddle per two butterflies.
#pragma once

typedef unsigned long long gfpf_ntt_u64;
typedef unsigned int gfpf_ntt_u32;

#ifdef GFPF_HOST_EMULATION
#define GFPF_NTT_FN static inline
#define GFPF_NTT_METHOD inline
#define GFPF_NTT_DYNAMIC_SHARED(type, name, most) GFPF_DYNAMIC_SHARED_ARRAY(type, name, most)
// The tile handed to a function: the checked array's address on the host,
// the array itself on the device.
#define GFPF_NTT_TILE_PTR(tile) (&(tile))
#define GFPF_NTT_TILE_LOAD(tile, i) ((gfpf_ntt_u32)(*(tile))[i])
#define GFPF_NTT_TILE_STORE(tile, i, v) ((*(tile))[i] = (v))
static inline gfpf_ntt_u32 gfpf_ntt_mul_hi(gfpf_ntt_u32 a, gfpf_ntt_u32 b) {
    return (gfpf_ntt_u32)(((gfpf_ntt_u64)a * b) >> 32);
}
#define GFPF_NTT_READ(base, i) gfpf_global_read((base), (i), __LINE__)
#define GFPF_NTT_TABLE_READ(base, i) gfpf_table_read((base), (i), __LINE__)
#define GFPF_NTT_WRITE(base, i, v) gfpf_global_write((base), (i), (v), __LINE__)
#define GFPF_NTT_COUNT_BUTTERFLY() gfpf_emu::block().count_op(GFPF_OP_NTT_BUTTERFLY)
#define GFPF_NTT_COUNT_GROUP() gfpf_emu::block().count_op(GFPF_OP_NTT_GROUP)
#else
#define GFPF_NTT_FN __device__ __forceinline__
#define GFPF_NTT_METHOD __device__ __forceinline__
#define GFPF_NTT_DYNAMIC_SHARED(type, name, most) extern __shared__ __align__(16) type name[]
#define GFPF_NTT_TILE_PTR(tile) (tile)
#define GFPF_NTT_TILE_LOAD(tile, i) ((tile)[i])
#define GFPF_NTT_TILE_STORE(tile, i, v) ((tile)[i] = (v))
__device__ __forceinline__ gfpf_ntt_u32 gfpf_ntt_mul_hi(gfpf_ntt_u32 a, gfpf_ntt_u32 b) { return __umulhi(a, b); }
#define GFPF_NTT_READ(base, i) ((base)[i])
#define GFPF_NTT_TABLE_READ(base, i) ((base)[i])
#define GFPF_NTT_WRITE(base, i, v) ((base)[i] = (v))
#define GFPF_NTT_COUNT_BUTTERFLY()
#define GFPF_NTT_COUNT_GROUP()
#endif

// The launch's parameters (gfpf_cuda::ntt::NttParams mirrors them).
struct GfpfNttParams {
    gfpf_ntt_u64 data;                  // u32 words: transform t's element i at t·N + i
    gfpf_ntt_u64 twiddles;              // u32 words: per prime 3·2^⌊n/2⌋ + 16 + 2^min(n, 14), see GfpfNttTwiddles
    gfpf_ntt_u64 primes;                // u32 words, eight a prime: q, N^−1, ⌊N^−1·2^32/q⌋, −q^−1 mod 2^32, 2^32 mod q, 2^64 mod q, 0, 0
    gfpf_ntt_u64 transforms_per_prime;  // transform t is modulo prime t / transforms_per_prime
    gfpf_ntt_u64 threads;               // threads of the launch (blocks × block threads)
    gfpf_ntt_u64 log2_n;                // n
    gfpf_ntt_u64 first;                 // the first stage this launch runs
    gfpf_ntt_u64 stages;                // L, the stages it runs
    gfpf_ntt_u64 log2_columns;          // log2 C
    gfpf_ntt_u64 log2_block_threads;    // threads of a block: the tile's words / E
    gfpf_ntt_u64 inverse;               // 1: the inverse (table of ω^−e; stages in reverse)
    gfpf_ntt_u64 other;                 // 0, or u32 words as `data`: each word read from `data` first multiplied by its twin here
};

// Words of a tile at most (64 KiB, 66 with the padding below): a launch's
// blocks take what their tile needs as dynamic shared memory, the tile, a
// pad word after every 32 (gfpf_ntt_padded), then 8 pairs of w16's powers
// (GfpfNttTwiddles::times_root): gfpf_cuda::ntt::NttParams::shared_bytes.
#define GFPF_NTT_TILE_WORDS 16384
#define GFPF_NTT_MAX_SHARED_WORDS (GFPF_NTT_TILE_WORDS + GFPF_NTT_TILE_WORDS / 32 + 16)

// v mod q for v < 2q, as min(v, v − q): v − q wraps past 2^32 − q > v
// where v < q. One instruction with the subtraction (VIADDMNMX on sm_90)
// where a compare and a select took three.
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_reduce_once(gfpf_ntt_u32 v, gfpf_ntt_u32 q) {
    const gfpf_ntt_u32 w = v - q;
    return w < v ? w : v;
}

// (x + y) mod q and (x − y) mod q for x, y < q < 2^31 (x − y + q wraps
// below q exactly where x − y does not).
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_add(gfpf_ntt_u32 x, gfpf_ntt_u32 y, gfpf_ntt_u32 q) {
    return gfpf_ntt_reduce_once(x + y, q);
}
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_sub(gfpf_ntt_u32 x, gfpf_ntt_u32 y, gfpf_ntt_u32 q) {
    const gfpf_ntt_u32 d = x - y, e = d + q;
    return e < d ? e : d;
}
// x·w mod q for x < q (Shoup): w_shoup = ⌊w·2^32/q⌋, the quotient estimate
// is at most one short, so one conditional subtraction ends in [0, q).
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_mul_shoup(gfpf_ntt_u32 x, gfpf_ntt_u32 w, gfpf_ntt_u32 w_shoup, gfpf_ntt_u32 q) {
    const gfpf_ntt_u32 estimate = gfpf_ntt_mul_hi(x, w_shoup);
    return gfpf_ntt_reduce_once(x * w - estimate * q, q);
}

// x·W·2^−32 mod q for x, W < q (Montgomery, q_neg_inv = −q^−1 mod 2^32):
// with W = w·2^32 mod q, x·w mod q.
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_mul_montgomery(gfpf_ntt_u32 x, gfpf_ntt_u32 big_w, gfpf_ntt_u32 q,
                                                 gfpf_ntt_u32 q_neg_inv) {
    const gfpf_ntt_u64 t = (gfpf_ntt_u64)x * big_w;
    const gfpf_ntt_u32 m = (gfpf_ntt_u32)t * q_neg_inv;
    // t + m·q < 2^62 + 2^63: no overflow; the sum is divisible by 2^32.
    return gfpf_ntt_reduce_once((gfpf_ntt_u32)((t + (gfpf_ntt_u64)m * q) >> 32), q);
}

// A prime's twiddles (w = ω, or ω^−1 for the inverse). The pair whose lower
// element is i at stage g takes w^e, e = (i mod h)·2^g, h = N/2^(g+1). In a
// round of r stages from launch stage s (g = first + s), a group's rows are
// j = j_high·2^(L−s) + j_mid + t·2^(L−s−r), t < 2^r, so at the round's
// stage u the pair of lower row t takes
//     w^((j_mid·G + c + (t mod 2^(r−1−u))·2^(L−s−r)·G)·2^(g+u))
//   = A^(2^u) · w16^((t mod 2^(r−1−u))·2^(4−r+u)),
// A = ρ^j_mid · w^(c·2^g), ρ = w^(G·2^g) a root of order 2^(L−s), c the
// column's place in G, and w16 = w^(N/16) a root of order 16. A thread keeps
// its column through a launch, so it makes the column's factor once a round
// from two short tables (e = hi·2^s + lo, w^e·2^32 = high[hi]·low[lo], one
// Shoup product); a group takes ρ^j_mid from a table of roots by order (the
// threads of a warp read neighbouring words, or one), one Montgomery product
// with the column's factor, its squares, and each stage's twiddles with one
// Shoup product by a power of w16 (eight pairs, kept in shared memory beside
// the tile: in registers they would take 16 of the 64 that two blocks of 512
// threads allow an SM, and ptxas spilled). The butterfly's Montgomery product
// takes w^e·2^32 as it is. The tables take 3·2^⌊n/2⌋ + 16 + 2^min(n, 14)
// words a prime (88.6 KiB at 2^24) and stay in cache.
struct GfpfNttTwiddles {
    const gfpf_ntt_u64* low;    // 2^s pairs: w^lo in the low word, ⌊w^lo·2^32/q⌋ in the high one
    const gfpf_ntt_u32* high;   // 2^s words (2^(n−1−s) used): w^(hi·2^s)·2^32 mod q
    const gfpf_ntt_u32* rows;   // orders 2^m, m = 1 … min(n, 14): 2^(m−1) words ρ_m^j·2^32 mod q from 2^(m−1) − 1
    int split;                  // s
    gfpf_ntt_u32 q, q_neg_inv;

    // w^e·2^32 mod q, e < N/2.
    GFPF_NTT_METHOD gfpf_ntt_u32 montgomery_power(gfpf_ntt_u32 e) const {
        const gfpf_ntt_u64 pair = GFPF_NTT_TABLE_READ(low, e & ((1u << split) - 1));
        return gfpf_ntt_mul_shoup(GFPF_NTT_TABLE_READ(high, e >> split), (gfpf_ntt_u32)pair, (gfpf_ntt_u32)(pair >> 32), q);
    }
    int roots_at;               // where w16's powers lie in shared memory, after the tile
    // a·w16^t for a = w^e·2^32 mod q: w^e·w16^t·2^32 mod q, w16^t and its
    // Shoup quotient from shared memory.
    template <class Tile>
    GFPF_NTT_METHOD gfpf_ntt_u32 times_root(gfpf_ntt_u32 a, int t, Tile tile) const {
        return t == 0 ? a
                      : gfpf_ntt_mul_shoup(a, GFPF_NTT_TILE_LOAD(tile, roots_at + 2 * t),
                                           GFPF_NTT_TILE_LOAD(tile, roots_at + 2 * t + 1), q);
    }
    // ρ^j·2^32 mod q, ρ = w^(N/2^m) of order 2^m, j < 2^(m−1).
    GFPF_NTT_METHOD gfpf_ntt_u32 row_root(int m, gfpf_ntt_u32 j) const {
        return GFPF_NTT_TABLE_READ(rows, (1u << (m - 1)) - 1 + j);
    }
    // x·w mod q for big_w = w·2^32 mod q.
    GFPF_NTT_METHOD gfpf_ntt_u32 times(gfpf_ntt_u32 x, gfpf_ntt_u32 big_w) const {
        return gfpf_ntt_mul_montgomery(x, big_w, q, q_neg_inv);
    }
};

// Words read from device memory by a launch (through shared memory),
// multiplied by
// their twins in `other` where it is given (the pointwise product of two
// transforms, folded into the launch that reads it first):
// (x·y·2^−32)·(2^64 mod q)·2^−32 = x·y mod q, two Montgomery products.
struct GfpfNttPointwise {
    const gfpf_ntt_u32* other;  // null: none
    gfpf_ntt_u32 r2;            // 2^64 mod q

    GFPF_NTT_METHOD gfpf_ntt_u32 load(const GfpfNttTwiddles& tw, const gfpf_ntt_u32* data, gfpf_ntt_u32 i) const {
        const gfpf_ntt_u32 x = GFPF_NTT_READ(data, i);
        if (other == nullptr) return x;
        // Counted as a butterfly: two Montgomery products, a load and its
        // address, about the instructions of one.
        GFPF_NTT_COUNT_BUTTERFLY();
        return tw.times(tw.times(x, GFPF_NTT_READ(other, i)), r2);
    }
};

// The most stages a round runs (radix 16, w16's powers: a group of 16
// words in registers, gfpf_cuda::ntt::NTT_ROUND_ELEMENTS).
#define GFPF_NTT_MAX_ROUND 4

// Stage U of a round of R = 2^LOG2_R rows in registers, forward
// (Gentleman–Sande: (x + y, (x − y)·w)) or inverse (Cooley–Tukey: (x + y·w,
// x − y·w)); a_u = A^(2^U)·2^32 mod q (see GfpfNttTwiddles). Templates
// throughout, so that every index into the registers is a constant.
template <int LOG2_R, int U, bool INVERSE, class Tile>
GFPF_NTT_FN void gfpf_ntt_round_stage(gfpf_ntt_u32 (&x)[1 << LOG2_R], gfpf_ntt_u32 a_u, const GfpfNttTwiddles& tw,
                                      Tile tile) {
    constexpr int R = 1 << LOG2_R, HALF = R >> (U + 1);  // partners t and t + HALF
    gfpf_ntt_u32 w[HALF];
#pragma unroll
    for (int t = 0; t < HALF; ++t) w[t] = tw.times_root(a_u, t * (8 / HALF), tile);
#pragma unroll
    for (int b = 0; b < R / 2; ++b) {
        const int t = (b / HALF) * 2 * HALF + b % HALF;  // the pair's lower row
        GFPF_NTT_COUNT_BUTTERFLY();
        if (!INVERSE) {
            const gfpf_ntt_u32 lower = x[t], upper = x[t + HALF];
            x[t] = gfpf_ntt_add(lower, upper, tw.q);
            x[t + HALF] = tw.times(gfpf_ntt_sub(lower, upper, tw.q), w[b % HALF]);
        } else {
            const gfpf_ntt_u32 lower = x[t], upper = tw.times(x[t + HALF], w[b % HALF]);
            x[t] = gfpf_ntt_add(lower, upper, tw.q);
            x[t + HALF] = gfpf_ntt_sub(lower, upper, tw.q);
        }
    }
}

// The stages U … LOG2_R − 1 of a forward round, a = A^(2^U)·2^32 mod q.
template <int LOG2_R, int U, class Tile>
GFPF_NTT_FN void gfpf_ntt_round_forward(gfpf_ntt_u32 (&x)[1 << LOG2_R], gfpf_ntt_u32 a, const GfpfNttTwiddles& tw,
                                        Tile tile) {
    if constexpr (U < LOG2_R) {
        gfpf_ntt_round_stage<LOG2_R, U, false>(x, a, tw, tile);
        gfpf_ntt_round_forward<LOG2_R, U + 1>(x, U + 1 < LOG2_R ? tw.times(a, a) : a, tw, tile);
    }
}

// The stages LOG2_R − 1 … U of an inverse round (the forward one's undone,
// last first), a = A^(2^U)·2^32 mod q.
template <int LOG2_R, int U, class Tile>
GFPF_NTT_FN void gfpf_ntt_round_inverse(gfpf_ntt_u32 (&x)[1 << LOG2_R], gfpf_ntt_u32 a, const GfpfNttTwiddles& tw,
                                        Tile tile) {
    if constexpr (U < LOG2_R) {
        gfpf_ntt_round_inverse<LOG2_R, U + 1>(x, U + 1 < LOG2_R ? tw.times(a, a) : a, tw, tile);
        gfpf_ntt_round_stage<LOG2_R, U, true>(x, a, tw, tile);
    }
}

// A tile word's place in shared memory: a pad word after every 32, so that
// the threads of a warp reading rows 8 or 16 words apart (the last rounds'
// groups of neighbouring rows) meet distinct banks.
GFPF_NTT_FN int gfpf_ntt_padded(int w) { return w + (w >> 5); }

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

// A round's groups: round stages s … s + r − 1 of the launch, a thread's
// group `index` (below tile/2^r) at tile words first + t·stride, t < 2^r.
struct GfpfNttGroup {
    int first, stride;
    gfpf_ntt_u32 j_mid;  // the group's twiddles are powers of ρ^j_mid·w^(c·2^g)

    GFPF_NTT_METHOD static GfpfNttGroup of(const GfpfNttTile& t, int s, int r, int index) {
        GfpfNttGroup g;
        const int c = index & ((1 << t.columns_log2) - 1);
        const int rest = index >> t.columns_log2;
        const int mid_log2 = t.rows_log2 - s - r;  // j_mid < 2^mid_log2
        const int j_mid = rest & ((1 << mid_log2) - 1), j_high = rest >> mid_log2;
        g.first = (((j_high << (t.rows_log2 - s)) + j_mid) << t.columns_log2) | c;
        g.stride = 1 << (mid_log2 + t.columns_log2);
        g.j_mid = (gfpf_ntt_u32)j_mid;
        return g;
    }
};

// Whether a round's groups read or write device memory in whole sectors: a
// warp's neighbouring groups cover runs of 8 tile words or more (rows of C
// words, G apart, or a contiguous tile where C = G).
GFPF_NTT_FN bool gfpf_ntt_round_coalesced(const GfpfNttTile& t, int s, int r) {
    return t.rows_log2 - s - r + t.columns_log2 >= 3;
}

// One group of a round of R = 2^LOG2_R rows: in from device memory or the
// tile, the round's stages, out to device memory (with N^−1 where `scale`)
// or the tile. ρ is of order 2^order_log2 (2^(L−s)), `column` = w^(c·2^g)·2^32.
template <int LOG2_R, bool INVERSE, class Tile>
GFPF_NTT_FN void gfpf_ntt_group(const GfpfNttTile& t, const GfpfNttGroup& group, int order_log2, gfpf_ntt_u32 column,
                                const GfpfNttTwiddles& tw, gfpf_ntt_u32* data, Tile tile_words, bool from_memory,
                                bool to_memory, bool scale, gfpf_ntt_u32 n_inv, gfpf_ntt_u32 n_inv_shoup) {
    constexpr int R = 1 << LOG2_R;
    // The group's rows in the transform: stride/C rows of the tile apart,
    // G words each (stride is a multiple of C).
    const gfpf_ntt_u32 at = t.at(group.first), step = (gfpf_ntt_u32)(group.stride >> t.columns_log2) << t.log2_g;
    gfpf_ntt_u32 x[R];
#pragma unroll
    for (int k = 0; k < R; ++k) {
        x[k] = from_memory ? GFPF_NTT_READ(data, at + k * step)
                           : GFPF_NTT_TILE_LOAD(tile_words, gfpf_ntt_padded(group.first + k * group.stride));
    }
    GFPF_NTT_COUNT_GROUP();
    const gfpf_ntt_u32 a = tw.times(tw.row_root(order_log2, group.j_mid), column);
    if (INVERSE)
        gfpf_ntt_round_inverse<LOG2_R, 0>(x, a, tw, tile_words);
    else
        gfpf_ntt_round_forward<LOG2_R, 0>(x, a, tw, tile_words);
#pragma unroll
    for (int k = 0; k < R; ++k) {
        if (to_memory)
            GFPF_NTT_WRITE(data, at + k * step, scale ? gfpf_ntt_mul_shoup(x[k], n_inv, n_inv_shoup, tw.q) : x[k]);
        else
            GFPF_NTT_TILE_STORE(tile_words, gfpf_ntt_padded(group.first + k * group.stride), x[k]);
    }
}

// The rounds of a launch of L stages, at most `most` stages each, the
// longer ones first: round i's size and first stage.
GFPF_NTT_FN int gfpf_ntt_round_size(int stages, int most, int i) {
    const int rounds = (stages + most - 1) / most;
    return stages / rounds + (i < stages % rounds ? 1 : 0);
}
GFPF_NTT_FN int gfpf_ntt_round_first(int stages, int most, int i) {
    int s = 0;
    for (int k = 0; k < i; ++k) s += gfpf_ntt_round_size(stages, most, k);
    return s;
}

// One launch: stages first … first + L − 1 on this block's tile, forward
// (Gentleman–Sande, in order) or inverse (Cooley–Tukey with ω^−1, in reverse
// order, then N^−1 where the launch ends the transform).
GFPF_NTT_FN void gfpf_ntt_stages(const GfpfNttParams& p) {
    GFPF_NTT_DYNAMIC_SHARED(gfpf_ntt_u32, tile_words, GFPF_NTT_MAX_SHARED_WORDS);
    const GfpfNttTile t = gfpf_ntt_tile(p);
    const int log2_threads = (int)p.log2_block_threads;
    const int threads = 1 << log2_threads;
    const int words_log2 = t.rows_log2 + t.columns_log2;
    const int words = 1 << words_log2;
    const gfpf_ntt_u64 n = 1ull << p.log2_n;
    const gfpf_ntt_u64 prime = t.transform / p.transforms_per_prime;
    const gfpf_ntt_u32* constants = (const gfpf_ntt_u32*)p.primes + 8 * prime;
    const int tid = (int)threadIdx.x;
    GfpfNttTwiddles tw;
    tw.split = (int)p.log2_n / 2;
    tw.q = GFPF_NTT_TABLE_READ(constants, 0);
    tw.q_neg_inv = GFPF_NTT_TABLE_READ(constants, 3);
    // A prime's tables (gfpf_cuda::ntt::NttPlan31::twiddle_table): 2^s
    // pairs, 2^s words (2^(n−1−s) used), 8 pairs of w16's powers, roots by
    // order up to 2^14 (the most stages a launch runs: GFPF_NTT_TILE_WORDS).
    const gfpf_ntt_u64 per_prime = (3ull << tw.split) + 16 + (1ull << (p.log2_n < 14 ? p.log2_n : 14));
    tw.low = (const gfpf_ntt_u64*)((const gfpf_ntt_u32*)p.twiddles + prime * per_prime);
    tw.high = (const gfpf_ntt_u32*)(tw.low + (1ull << tw.split));
    const gfpf_ntt_u32* roots = (const gfpf_ntt_u32*)(tw.high + (1ull << tw.split));
    tw.rows = roots + 16;
    tw.roots_at = gfpf_ntt_padded(words);
    if (tid < 16) tile_words[tw.roots_at + tid] = GFPF_NTT_TABLE_READ(roots, tid);
    gfpf_ntt_u32* data = (gfpf_ntt_u32*)p.data + t.transform * n;
    const bool inverse = p.inverse != 0;
    // Rounds of at most four stages, and at most the elements a thread
    // holds (tile words / threads ≥ 2).
    const int per_thread_log2 = words_log2 - log2_threads;
    const int most = per_thread_log2 < GFPF_NTT_MAX_ROUND ? per_thread_log2 : GFPF_NTT_MAX_ROUND;
    const int rounds = (t.rows_log2 + most - 1) / most;
    // The N^−1 of the launch that ends an inverse transform (stage 0).
    const bool scale = inverse && p.first == 0;
    const gfpf_ntt_u32 n_inv = GFPF_NTT_TABLE_READ(constants, 1), n_inv_shoup = GFPF_NTT_TABLE_READ(constants, 2);
    for (int step = 0; step < rounds; ++step) {
        // Forward: rounds in order; inverse: in reverse.
        const int i = inverse ? rounds - 1 - step : step;
        const int r = gfpf_ntt_round_size(t.rows_log2, most, i);
        const int s = gfpf_ntt_round_first(t.rows_log2, most, i);
        const bool coalesced = gfpf_ntt_round_coalesced(t, s, r);
        // A pointwise product comes in through shared memory: in the
        // groups' loads its second operand's addresses spilled registers.
        const bool from_memory = step == 0 && coalesced && p.other == 0;
        const bool to_memory = step == rounds - 1 && coalesced;
        if (step == 0 && !from_memory) {
            // In through shared memory, whole sectors.
            GfpfNttPointwise pointwise;
            pointwise.other = p.other == 0 ? nullptr : (const gfpf_ntt_u32*)p.other + t.transform * n;
            pointwise.r2 = GFPF_NTT_TABLE_READ(constants, 5);
            // One word at a time: unrolled, the products spilled registers.
#pragma unroll 1
            for (int w = tid; w < words; w += threads) tile_words[gfpf_ntt_padded(w)] = pointwise.load(tw, data, t.at(w));
        }
        // The roots and the tile written (step 0), the round before done.
        __syncthreads();
        const int g = (int)p.first + s;
        // This thread's column (the same in each of its groups: the block's
        // threads are a multiple of C) and its factor w^(c·2^g)·2^32, c < G.
        const gfpf_ntt_u32 column =
            tw.montgomery_power((t.residue + (gfpf_ntt_u32)(tid & ((1 << t.columns_log2) - 1))) << g);
        for (int index = tid; index < (words >> r); index += threads) {
            const GfpfNttGroup group = GfpfNttGroup::of(t, s, r, index);
#define GFPF_NTT_GROUP_CASE(LOG2_R)                                                                         \
    case LOG2_R:                                                                                            \
        if (inverse)                                                                                        \
            gfpf_ntt_group<LOG2_R, true>(t, group, t.rows_log2 - s, column, tw, data,                        \
                                         GFPF_NTT_TILE_PTR(tile_words), from_memory, to_memory, scale, n_inv, \
                                         n_inv_shoup);                                                      \
        else                                                                                                \
            gfpf_ntt_group<LOG2_R, false>(t, group, t.rows_log2 - s, column, tw, data,                       \
                                          GFPF_NTT_TILE_PTR(tile_words), from_memory, to_memory, scale,      \
                                          n_inv, n_inv_shoup);                                              \
        break;
            switch (r) {
                GFPF_NTT_GROUP_CASE(1)
                GFPF_NTT_GROUP_CASE(2)
                GFPF_NTT_GROUP_CASE(3)
                default: GFPF_NTT_GROUP_CASE(4)
            }
#undef GFPF_NTT_GROUP_CASE
        }
    }
    const int last = inverse ? 0 : rounds - 1;
    const int r_last = gfpf_ntt_round_size(t.rows_log2, most, last);
    if (!gfpf_ntt_round_coalesced(t, gfpf_ntt_round_first(t.rows_log2, most, last), r_last)) {
        // Out through shared memory, whole sectors.
        __syncthreads();
        for (int w = tid; w < words; w += threads) {
            const gfpf_ntt_u32 v = tile_words[gfpf_ntt_padded(w)];
            GFPF_NTT_WRITE(data, t.at(w), scale ? gfpf_ntt_mul_shoup(v, n_inv, n_inv_shoup, tw.q) : v);
        }
    }
}

#ifdef GFPF_HOST_EMULATION
extern "C" int gfpf_ntt31_stages(const GfpfNttParams* p, GfpfEmuLaunch* launch) {
    return gfpf_emu::launch("gfpf_ntt31_stages", *launch, [p] { gfpf_ntt_stages(*p); });
}
#else
extern "C" __global__ void __launch_bounds__(512, 2) gfpf_ntt31_stages(const GfpfNttParams p) { gfpf_ntt_stages(p); }
#endif
