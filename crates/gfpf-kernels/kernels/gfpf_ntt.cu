// Word-size NTTs on the device: transforms of length N = 2^n modulo
// primes q < 2^31 (32-bit words), q < 2^62 (64-bit words) or q < 2^50 (FP64)
// with 2^n | q − 1, a batch of transforms over several primes per launch
// (the small-prime side of the thesis's contest; gfpf_cuda::ntt gives the
// tables and the launches).
//
// Why integers in the multiplier's width: a product by a twiddle is three
// or four IMAD in the native 32-bit width of the GPU for 31-bit primes; 62-bit
// primes (for lengths past the 2^24 that 31-bit primes reach at most, and
// half the primes) take several times that in 32-bit IMAD chains, still at
// the integer rate of every NVIDIA GPU. Primes below 2^50 in FP64 (doubles,
// as gfpf-small's AVX2 path and Jean and Graillat compute) take about ten
// DFMA, DMUL and DADD a product: on the GPUs whose FP64 rate is their
// integer rate (A100, H100, H200) about as cheap a bit as 31-bit primes and
// half the 62-bit ones' cost, on most others 1/64 of that rate. With 31-bit
// primes values stay fully reduced in [0, q) (2q < 2^32 leaves no room for
// Harvey's lazy form); with 62-bit ones they lie in [0, 2q) between stages
// (GfpfNttWord); in FP64 they are signed, in (−q, q).
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
// Within a launch the stages run in rounds of up to four (three with 64-bit
// words and doubles), radix 2^r in registers: a thread takes the 2^r rows of a group
// that the round's stages pair among themselves (rows 2^(L−s−r) apart, s the
// round's first stage in the launch), runs the r stages on them, and puts
// them back; the rounds meet in shared memory, a barrier between them. The
// first round reads device memory and the last writes it directly where a
// warp's groups cover whole sectors, through shared memory where not.
// Against one stage a barrier (a butterfly's four shared words and its own
// twiddle) or a warp stage (a shuffle each element), a round of four stages
// moves each element through shared memory once and makes a twiddle per two
// butterflies.
#pragma once

typedef unsigned long long gfpf_ntt_u64;
typedef unsigned int gfpf_ntt_u32;

#include "gfpf_mma.cuh"

#ifdef GFPF_HOST_EMULATION
#define GFPF_NTT_FN static inline
#define GFPF_NTT_METHOD inline
#define GFPF_NTT_DYNAMIC_SHARED(type, name, most) GFPF_DYNAMIC_SHARED_ARRAY(type, name, most)
// The tile handed to a function: the checked array's address on the host,
// the array itself on the device.
#define GFPF_NTT_TILE_PTR(tile) (&(tile))
#define GFPF_NTT_TILE_LOAD(tile, i) (*(tile))[i]
#define GFPF_NTT_TILE_STORE(tile, i, v) ((*(tile))[i] = (v))
// Four neighbouring words from a multiple of four (one 16-byte load).
#define GFPF_NTT_TILE_LOAD4(tile, i, out) (*(tile)).read4((i), (out))
#define GFPF_NTT_COUNT_MMA_TILE() gfpf_emu::block().count_op(GFPF_OP_NTT_MMA_TILE)
#define GFPF_NTT_COUNT_GLOBAL_WORD() gfpf_emu::block().count_op(GFPF_OP_NTT_GLOBAL_WORD)
#define GFPF_NTT_COUNT_TILE_WORD(T)                                                             \
    gfpf_emu::block().count_op(GfpfNttWord<T>::FLOAT ? GFPF_OP_NTT50_TILE_WORD                     \
                               : sizeof(T) == 4      ? GFPF_OP_NTT_TILE_WORD                       \
                                                     : GFPF_OP_NTT62_TILE_WORD)
// The tensor cores' int8 products (gfpf_mma_m16n8k32_u8): the emulator's, on
// the device from compute capability 8.0.
#define GFPF_NTT_MMA 1
static inline gfpf_ntt_u32 gfpf_ntt_mul_hi(gfpf_ntt_u32 a, gfpf_ntt_u32 b) {
    return (gfpf_ntt_u32)(((gfpf_ntt_u64)a * b) >> 32);
}
static inline gfpf_ntt_u64 gfpf_ntt_mul_hi(gfpf_ntt_u64 a, gfpf_ntt_u64 b) {
    return (gfpf_ntt_u64)(((unsigned __int128)a * b) >> 64);
}
#define GFPF_NTT_READ(base, i) gfpf_global_read((base), (i), __LINE__)
#define GFPF_NTT_TABLE_READ(base, i) gfpf_table_read((base), (i), __LINE__)
#define GFPF_NTT_WRITE(base, i, v) gfpf_global_write((base), (i), (v), __LINE__)
// Counted per word width (a 64-bit butterfly is several times a 32-bit
// one) and direction (a forward butterfly's difference goes to its product
// unreduced, an inverse one's is reduced after it).
#define GFPF_NTT_COUNT_BUTTERFLY(T, INVERSE)                                                     \
    gfpf_emu::block().count_op(GfpfNttWord<T>::FLOAT ? ((INVERSE) ? GFPF_OP_NTT50_BUTTERFLY        \
                                                                  : GFPF_OP_NTT50_FORWARD_BUTTERFLY) \
                               : sizeof(T) != 4      ? ((INVERSE) ? GFPF_OP_NTT62_BUTTERFLY        \
                                                                  : GFPF_OP_NTT62_FORWARD_BUTTERFLY) \
                               : (INVERSE)           ? GFPF_OP_NTT_BUTTERFLY                       \
                                                     : GFPF_OP_NTT_FORWARD_BUTTERFLY)
#define GFPF_NTT_COUNT_GROUP(T)                                                                 \
    gfpf_emu::block().count_op(GfpfNttWord<T>::FLOAT ? GFPF_OP_NTT50_GROUP                         \
                               : sizeof(T) == 4      ? GFPF_OP_NTT_GROUP                           \
                                                     : GFPF_OP_NTT62_GROUP)
// Doubles: IEEE binary64 with round to nearest, as on the device; the
// emulator compiles with -ffp-contract=off, so that a product followed by
// an add is never fused where the device's __dmul_rn keeps it apart.
#define GFPF_NTT_DMUL(a, b) ((a) * (b))
#define GFPF_NTT_DFMA(a, b, c) std::fma((a), (b), (c))
#define GFPF_NTT_AS_DOUBLE(bits) gfpf_emu_from_bits<double>(bits)
#define GFPF_NTT_AS_BITS(v) gfpf_emu_bits<double>(v)
#else
#define GFPF_NTT_FN __device__ __forceinline__
#define GFPF_NTT_METHOD __device__ __forceinline__
// One byte array for both word widths (an extern shared array may not
// change its type from one template instance to another).
#define GFPF_NTT_DYNAMIC_SHARED(type, name, most)                   \
    extern __shared__ __align__(16) unsigned char gfpf_ntt_shared[]; \
    type* name = reinterpret_cast<type*>(gfpf_ntt_shared)
#define GFPF_NTT_TILE_PTR(tile) (tile)
#define GFPF_NTT_TILE_LOAD(tile, i) ((tile)[i])
#define GFPF_NTT_TILE_STORE(tile, i, v) ((tile)[i] = (v))
#define GFPF_NTT_TILE_LOAD4(tile, i, out)                                              \
    do {                                                                               \
        const uint4 gfpf_ntt_quad = *reinterpret_cast<const uint4*>(&(tile)[i]);       \
        (out)[0] = gfpf_ntt_quad.x;                                                    \
        (out)[1] = gfpf_ntt_quad.y;                                                    \
        (out)[2] = gfpf_ntt_quad.z;                                                    \
        (out)[3] = gfpf_ntt_quad.w;                                                    \
    } while (0)
#define GFPF_NTT_COUNT_MMA_TILE()
#define GFPF_NTT_COUNT_GLOBAL_WORD()
#define GFPF_NTT_COUNT_TILE_WORD(T)
#if __CUDA_ARCH__ >= 800
#define GFPF_NTT_MMA 1
#else
#define GFPF_NTT_MMA 0
#endif
__device__ __forceinline__ gfpf_ntt_u32 gfpf_ntt_mul_hi(gfpf_ntt_u32 a, gfpf_ntt_u32 b) { return __umulhi(a, b); }
__device__ __forceinline__ gfpf_ntt_u64 gfpf_ntt_mul_hi(gfpf_ntt_u64 a, gfpf_ntt_u64 b) { return __umul64hi(a, b); }
#define GFPF_NTT_READ(base, i) ((base)[i])
#define GFPF_NTT_TABLE_READ(base, i) ((base)[i])
#define GFPF_NTT_WRITE(base, i, v) ((base)[i] = (v))
#define GFPF_NTT_COUNT_BUTTERFLY(T, INVERSE)
#define GFPF_NTT_COUNT_GROUP(T)
#define GFPF_NTT_DMUL(a, b) __dmul_rn((a), (b))
#define GFPF_NTT_DFMA(a, b, c) __fma_rn((a), (b), (c))
#define GFPF_NTT_AS_DOUBLE(bits) __longlong_as_double((long long)(bits))
#define GFPF_NTT_AS_BITS(v) ((gfpf_ntt_u64)__double_as_longlong(v))
#endif

// The launch's parameters (gfpf_cuda::ntt::NttParams mirrors them). Words
// are the kernel's: u32 for gfpf_ntt31_stages, u64 for gfpf_ntt62_stages.
struct GfpfNttParams {
    gfpf_ntt_u64 data;                  // words: transform t's element i at t·N + i
    gfpf_ntt_u64 twiddles;              // words: per prime 3·2^⌊n/2⌋ + 16 + 2^min(n, orders), see GfpfNttTwiddles
    gfpf_ntt_u64 primes;                // words, eight a prime: q, N^−1, ⌊N^−1·2^w/q⌋, −q^−1 mod 2^w, 2^w mod q, 2^2w mod q, 0, 0
    gfpf_ntt_u64 transforms_per_prime;  // transform t is modulo prime t / transforms_per_prime
    gfpf_ntt_u64 threads;               // threads of the launch (blocks × block threads)
    gfpf_ntt_u64 log2_n;                // n
    gfpf_ntt_u64 first;                 // the first stage this launch runs
    gfpf_ntt_u64 stages;                // L, the stages it runs
    gfpf_ntt_u64 log2_columns;          // log2 C
    gfpf_ntt_u64 log2_block_threads;    // threads of a block: the tile's words / E
    gfpf_ntt_u64 inverse;               // 1: the inverse (table of ω^−e; stages in reverse)
    gfpf_ntt_u64 other;                 // 0, or words as `data`: each word read from `data` first multiplied by its twin here
    gfpf_ntt_u64 word_bytes;            // 4 or 8: sizeof the kernel's word (for the host's checks)
    gfpf_ntt_u64 tensor_cores;          // 1: the last round of a forward transform on the tensor cores (32-bit words)
};

// What differs between the word widths (gfpf_cuda::ntt::NttWord mirrors
// it): a tile's words at most (2^14: 2^24 in two passes; 64 KiB of 32-bit
// words for blocks of 512 threads, 128 KiB of 64-bit ones for blocks of
// 1024), the most stages a round holds in registers (radix 16 of 32-bit
// words, radix 8 of 64-bit ones: 16 registers of data either way, within
// the 64 that 1024 threads an SM allow), the pad: a
// word after every 128 bytes, so that the threads of a half-warp reading
// rows 8 or 16 words apart meet distinct banks, and whether N^−1 is held
// through a launch or read where it is applied (held, the 64-bit kernel's
// two words spilled on sm_90; read, the 32-bit kernel spilled on sm_80),
// and whether values between the stages lie in [0, 2q) (Harvey's lazy
// butterflies: 4q < 2^64 for primes below 2^62, where 31-bit primes leave
// 2q < 2^32 only), reduced to [0, q) by the launch that ends a transform.
//
// A third word: primes c·2^32 + 1 below 2^50 computed on in FP64 (doubles,
// gfpf_ntt50_stages), for the GPUs whose FP64 rate is their integer rate
// (H100: 64 results a clock an SM either way): a product is six DFMA, DMUL
// and DADD (gfpf_ntt_mul_fp) where 64-bit integers take 32-bit IMAD chains,
// values signed in (−q, q) so that neither products nor differences need a
// correction. Device memory holds the residues as 64-bit integers in [0,
// q), as with 62-bit primes (the multi-modular kernels read and write them
// alike): a launch converts them as it reads and writes (`in` and `out`, two
// instructions each); the tile and the registers hold doubles, and the
// twiddle tables and constants are doubles (gfpf_cuda::ntt::F64Word).
// Radix 16 of doubles spilled 316 bytes within 64 registers.
template <class T>
struct GfpfNttWord;
template <>
struct GfpfNttWord<gfpf_ntt_u32> {
    static constexpr int TILE_LOG2 = 14, MAX_ROUND = 4, PAD_LOG2 = 5, MMA_WORDS = 1024;
    static constexpr bool HOLD_N_INV = true, LAZY = false, FLOAT = false;
    typedef gfpf_ntt_u32 Stored;
    GFPF_NTT_METHOD static gfpf_ntt_u32 in(Stored v) { return v; }
    GFPF_NTT_METHOD static Stored out(gfpf_ntt_u32 v) { return v; }
};
template <>
struct GfpfNttWord<gfpf_ntt_u64> {
    static constexpr int TILE_LOG2 = 14, MAX_ROUND = 3, PAD_LOG2 = 4, MMA_WORDS = 0;
    static constexpr bool HOLD_N_INV = false, LAZY = true, FLOAT = false;
    typedef gfpf_ntt_u64 Stored;
    GFPF_NTT_METHOD static gfpf_ntt_u64 in(Stored v) { return v; }
    GFPF_NTT_METHOD static Stored out(gfpf_ntt_u64 v) { return v; }
};
template <>
struct GfpfNttWord<double> {
    static constexpr int TILE_LOG2 = 14, MAX_ROUND = 3, PAD_LOG2 = 4, MMA_WORDS = 0;
    static constexpr bool HOLD_N_INV = false, LAZY = false, FLOAT = true;
    typedef gfpf_ntt_u64 Stored;
    // v < 2^52 as a double: the double 2^52 + v (exponent 52, mantissa v)
    // less 2^52, both exact; and back (residues below q < 2^50).
    GFPF_NTT_METHOD static double in(Stored v) { return GFPF_NTT_AS_DOUBLE(v | 0x4330000000000000ull) - 0x1p52; }
    GFPF_NTT_METHOD static Stored out(double v) { return GFPF_NTT_AS_BITS(v + 0x1p52) & 0x000fffffffffffffull; }
};
// Words of shared memory a block takes at most: the tile, its pad words, 8
// pairs of w16's powers (GfpfNttTwiddles::times_root) and, where the launch
// runs a round on the tensor cores, the DFT_16's left operands from the
// next multiple of four words (gfpf_ntt_mma_at):
// gfpf_cuda::ntt::NttParams::shared_bytes.
template <class T>
struct GfpfNttShared {
    static constexpr int TILE_WORDS = 1 << GfpfNttWord<T>::TILE_LOG2;
    static constexpr int MOST = TILE_WORDS + (TILE_WORDS >> GfpfNttWord<T>::PAD_LOG2) + 16 +
                                (GfpfNttWord<T>::MMA_WORDS > 0 ? GfpfNttWord<T>::MMA_WORDS + 3 : 0);
};

// A 32-bit word the compiler holds as one: q, which NVVM otherwise loads into
// a 64-bit register for the products (x·W + m·q), where ptxas kept its zero
// upper word in a uniform register and added it to each Montgomery
// product's high half, an instruction each (141 such adds; 29 left, and
// the kernel 3992 → 3857 instructions, `cargo xtask kernels --report
// --pipes`, NVRTC 12.9, sm_90, 2026-11-30). Other words as they are.
template <class T>
GFPF_NTT_FN T gfpf_ntt_word_register(T v) {
#ifndef GFPF_HOST_EMULATION
    if constexpr (sizeof(T) == 4 && !GfpfNttWord<T>::FLOAT) asm("mov.b32 %0, %0;" : "+r"(v));
#endif
    return v;
}

// v mod q for v < 2q, as min(v, v − q): v − q wraps past 2^w − q > v where
// v < q. One instruction with the subtraction (VIADDMNMX on sm_90) where a
// compare and a select took three (32-bit words).
template <class T>
GFPF_NTT_FN T gfpf_ntt_reduce_once(T v, T q) {
    const T w = v - q;
    return w < v ? w : v;
}

// FP64 (GfpfNttWord<double>): values are integers held in doubles, signed,
// in (−q, q) between operations, q < 2^50; no product's parts or sum comes
// near 2^53, so each operation below is exact, hence bit for bit on the
// host.
//
// x·w mod q in (−q, q) for integers |x| < 2q, |w| < q and w_over_q within
// two roundings of w/q (relative error 2^−52): h + l = x·w exactly (h the
// rounded product, below 2^101; l its rounding error, |l| ≤ 2^47, by an
// FMA); the quotient estimate e = x·w_over_q rounded to an integer (one FMA
// adding 1.5·2^52: |x·w_over_q| < 2^51, so the sum's rounding is to the
// nearest integer) is within 0.5 + 2q·2^−52 < 1 of x·w/q, so x·w − e·q lies
// in (−q, q); the FMA h − e·q (its exact value (x·w − e·q) − l, an integer
// below 2^51) and the add of l compute it exactly.
GFPF_NTT_FN double gfpf_ntt_mul_fp(double x, double w, double w_over_q, double q) {
    const double h = GFPF_NTT_DMUL(x, w);
    const double l = GFPF_NTT_DFMA(x, w, -h);
    const double e = GFPF_NTT_DFMA(x, w_over_q, 0x1.8p52) - 0x1.8p52;
    return GFPF_NTT_DFMA(-e, q, h) + l;
}
// v mod q in (−q, q), within q/2 + 1 of 0, for an integer |v| < 2q (a sum
// of two values; e the nearest integer to v/q within 2^−51 of it; v − e·q
// exact): three operations where a compare and two selects take four.
GFPF_NTT_FN double gfpf_ntt_reduce_fp(double v, double q, double q_inverse) {
    const double e = GFPF_NTT_DFMA(v, q_inverse, 0x1.8p52) - 0x1.8p52;
    return GFPF_NTT_DFMA(-e, q, v);
}

// (x + y) mod q and (x − y) mod q for x, y < q < 2^(w−1) (x − y + q wraps
// below q exactly where x − y does not).
template <class T>
GFPF_NTT_FN T gfpf_ntt_add(T x, T y, T q) {
    return gfpf_ntt_reduce_once<T>(x + y, q);
}
template <class T>
GFPF_NTT_FN T gfpf_ntt_sub(T x, T y, T q) {
    const T d = x - y, e = d + q;
    return e < d ? e : d;
}
// x·w mod q for x < q (Shoup): w_shoup = ⌊w·2^w/q⌋, the quotient estimate
// is at most one short, so one conditional subtraction ends in [0, q).
// In FP64, w_shoup = w/q (gfpf_ntt_mul_fp).
template <class T>
GFPF_NTT_FN T gfpf_ntt_mul_shoup(T x, T w, T w_shoup, T q) {
    if constexpr (GfpfNttWord<T>::FLOAT) {
        return gfpf_ntt_mul_fp(x, w, w_shoup, q);
    } else {
        const T estimate = gfpf_ntt_mul_hi(x, w_shoup);
        return gfpf_ntt_reduce_once<T>(x * w - estimate * q, q);
    }
}

// x·W·2^−w mod q in [0, q) for x < 2q, W < q (Montgomery, q_neg_inv = −q^−1
// mod 2^w): with W = w·2^w mod q, x·w mod q. x may be a difference offset
// by q, unreduced: (x·W + m·q)/2^32 < q·(2q/2^32 + 1) < 2q still, so the one
// conditional subtraction ends in [0, q).
GFPF_NTT_FN gfpf_ntt_u32 gfpf_ntt_mul_montgomery(gfpf_ntt_u32 x, gfpf_ntt_u32 big_w, gfpf_ntt_u32 q,
                                                 gfpf_ntt_u32 q_neg_inv) {
    const gfpf_ntt_u64 t = (gfpf_ntt_u64)x * big_w;
    const gfpf_ntt_u32 m = (gfpf_ntt_u32)t * q_neg_inv;
    // t + m·q < 2^63 + 2^63: no overflow; the sum is divisible by 2^32.
    return gfpf_ntt_reduce_once<gfpf_ntt_u32>((gfpf_ntt_u32)((t + (gfpf_ntt_u64)m * q) >> 32), q);
}
// The same in 64-bit words for q = c·2^32 + 1 < 2^62 (every 62-bit prime
// of a plan: gfpf_cuda::ntt::NttWord), word by word: −q^−1 ≡ −1 mod 2^32, so
// each of two steps takes m = −(low word) and adds m·q = m + m·c·2^32, whose
// low word cancels the low word of the sum (a carry out of it where that was
// not 0), then drops it: t/2^32 + (t0 ≠ 0) + m·c, one 32 × 30-bit product a
// step where a full Montgomery step takes two 64 × 64-bit ones. The result
// is (x·W + m·q)/2^64 < 2q as Montgomery's, for any x < 2^64 (4q < 2^64:
// the lazy butterflies' x < 4q included); the lazy form leaves it there.
GFPF_NTT_FN gfpf_ntt_u64 gfpf_ntt_mul_montgomery_lazy(gfpf_ntt_u64 x, gfpf_ntt_u64 big_w, gfpf_ntt_u64 q) {
    const gfpf_ntt_u64 lo = x * big_w, hi = gfpf_ntt_mul_hi(x, big_w);
    const gfpf_ntt_u64 c = q >> 32;
    const gfpf_ntt_u32 t0 = (gfpf_ntt_u32)lo, m1 = 0u - t0;
    // x·W/2^32 after the first step: hi·2^32 + middle.
    const gfpf_ntt_u64 middle = (lo >> 32) + (gfpf_ntt_u64)m1 * c + (t0 != 0 ? 1 : 0);
    const gfpf_ntt_u32 u0 = (gfpf_ntt_u32)middle, m2 = 0u - u0;
    return hi + (middle >> 32) + (gfpf_ntt_u64)m2 * c + (u0 != 0 ? 1 : 0);
}
GFPF_NTT_FN gfpf_ntt_u64 gfpf_ntt_mul_montgomery(gfpf_ntt_u64 x, gfpf_ntt_u64 big_w, gfpf_ntt_u64 q, gfpf_ntt_u64) {
    return gfpf_ntt_reduce_once<gfpf_ntt_u64>(gfpf_ntt_mul_montgomery_lazy(x, big_w, q), q);
}
// In FP64 the tables hold w itself where the integer kernels hold w·2^w mod
// q, and the constant beside q is 1/q: x·w mod q in (−q, q).
GFPF_NTT_FN double gfpf_ntt_mul_montgomery(double x, double w, double q, double q_inverse) {
    return gfpf_ntt_mul_fp(x, w, GFPF_NTT_DMUL(w, q_inverse), q);
}

// A table entry's pair (w^lo, its Shoup quotient): one 64-bit load of two
// 32-bit words, two loads of 64-bit ones.
GFPF_NTT_FN void gfpf_ntt_pair(const gfpf_ntt_u32* low, gfpf_ntt_u32 e, gfpf_ntt_u32& w, gfpf_ntt_u32& w_shoup) {
    const gfpf_ntt_u64 pair = GFPF_NTT_TABLE_READ((const gfpf_ntt_u64*)low, e);
    w = (gfpf_ntt_u32)pair;
    w_shoup = (gfpf_ntt_u32)(pair >> 32);
}
template <class T>
GFPF_NTT_FN void gfpf_ntt_pair(const T* low, gfpf_ntt_u32 e, T& w, T& w_shoup) {
    w = GFPF_NTT_TABLE_READ(low, 2 * (gfpf_ntt_u64)e);
    w_shoup = GFPF_NTT_TABLE_READ(low, 2 * (gfpf_ntt_u64)e + 1);
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
// from two short tables (e = hi·2^s + lo, w^e·2^w = high[hi]·low[lo], one
// Shoup product); a group takes ρ^j_mid from a table of roots by order (the
// threads of a warp read neighbouring words, or one), one Montgomery product
// with the column's factor, its squares, and each stage's twiddles with one
// Shoup product by a power of w16 (eight pairs, kept in shared memory beside
// the tile: in registers they would take 16 of the 64 that two blocks of 512
// threads allow an SM, and ptxas spilled). The butterfly's Montgomery product
// takes w^e·2^w as it is. The tables take 3·2^⌊n/2⌋ + 16 + 2^min(n, orders)
// words a prime, orders the tile's log2 (88.6 KiB at 2^24 with 32-bit
// words) and stay in cache.
template <class T>
struct GfpfNttTwiddles {
    const T* low;    // 2^s pairs: w^lo, then ⌊w^lo·2^w/q⌋
    const T* high;   // 2^s words (2^(n−1−s) used): w^(hi·2^s)·2^w mod q
    const T* rows;   // orders 2^m, m = 1 … min(n, orders): 2^(m−1) words ρ_m^j·2^w mod q from 2^(m−1) − 1
    int split;       // s
    T q, q_neg_inv;

    // w^e·2^w mod q, e < N/2.
    GFPF_NTT_METHOD T montgomery_power(gfpf_ntt_u32 e) const {
        T w, w_shoup;
        gfpf_ntt_pair(low, e & ((1u << split) - 1), w, w_shoup);
        return gfpf_ntt_mul_shoup<T>(GFPF_NTT_TABLE_READ(high, e >> split), w, w_shoup, q);
    }
    int roots_at;    // where w16's powers lie in shared memory, after the tile
    // a·w16^t for a = w^e·2^w mod q: w^e·w16^t·2^w mod q, w16^t and its
    // Shoup quotient from shared memory.
    template <class Tile>
    GFPF_NTT_METHOD T times_root(T a, int t, Tile tile) const {
        return t == 0 ? a
                      : gfpf_ntt_mul_shoup<T>(a, GFPF_NTT_TILE_LOAD(tile, roots_at + 2 * t),
                                              GFPF_NTT_TILE_LOAD(tile, roots_at + 2 * t + 1), q);
    }
    // ρ^j·2^w mod q, ρ = w^(N/2^m) of order 2^m, j < 2^(m−1).
    GFPF_NTT_METHOD T row_root(int m, gfpf_ntt_u32 j) const {
        return GFPF_NTT_TABLE_READ(rows, (1u << (m - 1)) - 1 + j);
    }
    // x·w mod q for big_w = w·2^w mod q.
    GFPF_NTT_METHOD T times(T x, T big_w) const {
        return gfpf_ntt_mul_montgomery(x, big_w, q, q_neg_inv);
    }
    // The same in [0, 2q), for x < 4q (lazy words only: instantiated for
    // 64-bit words alone).
    GFPF_NTT_METHOD T times_lazy(T x, T big_w) const { return gfpf_ntt_mul_montgomery_lazy(x, big_w, q); }
};

// Words read from device memory by a launch (through shared memory),
// multiplied by their twins in `other` where it is given (the pointwise
// product of two transforms, folded into the launch that reads it first):
// (x·y·2^−w)·(2^2w mod q)·2^−w = x·y mod q, two Montgomery products.
template <class T>
struct GfpfNttPointwise {
    typedef typename GfpfNttWord<T>::Stored Stored;
    const Stored* other;  // null: none
    T r2;                 // 2^2w mod q

    // A word read alone.
    GFPF_NTT_METHOD T load(const GfpfNttTwiddles<T>&, Stored x) const {
        GFPF_NTT_COUNT_TILE_WORD(T);
        return GfpfNttWord<T>::in(x);
    }
    // A word read with its twin in `other`, their product.
    GFPF_NTT_METHOD T load(const GfpfNttTwiddles<T>& tw, Stored x_word, Stored y_word) const {
        // Counted as a butterfly: two Montgomery products (one in FP64, which
        // takes x·y as it is), about the instructions of an inverse one; the
        // two words each as a word read alone.
        GFPF_NTT_COUNT_TILE_WORD(T);
        GFPF_NTT_COUNT_TILE_WORD(T);
        GFPF_NTT_COUNT_BUTTERFLY(T, true);
        const T x = GfpfNttWord<T>::in(x_word), y = GfpfNttWord<T>::in(y_word);
        if constexpr (GfpfNttWord<T>::FLOAT)
            return tw.times(x, y);
        else
            return tw.times(tw.times(x, y), r2);
    }
};

// Stage U of a round of R = 2^LOG2_R rows in registers, forward
// (Gentleman–Sande: (x + y, (x − y)·w)) or inverse (Cooley–Tukey: (x + y·w,
// x − y·w)); a_u = A^(2^U)·2^w mod q (see GfpfNttTwiddles). Templates
// throughout, so that every index into the registers is a constant.
template <int LOG2_R, int U, bool INVERSE, class T, class Tile>
GFPF_NTT_FN void gfpf_ntt_round_stage(T (&x)[1 << LOG2_R], T a_u, const GfpfNttTwiddles<T>& tw, Tile tile) {
    constexpr int R = 1 << LOG2_R, HALF = R >> (U + 1);  // partners t and t + HALF
    T w[HALF];
#pragma unroll
    for (int t = 0; t < HALF; ++t) w[t] = tw.times_root(a_u, t * (8 / HALF), tile);
#pragma unroll
    for (int b = 0; b < R / 2; ++b) {
        const int t = (b / HALF) * 2 * HALF + b % HALF;  // the pair's lower row
        GFPF_NTT_COUNT_BUTTERFLY(T, INVERSE);
        if constexpr (GfpfNttWord<T>::FLOAT) {
            // Signed values in (−q, q): sums reduced (to about ±q/2),
            // differences (below 2q) taken as they are by the product,
            // whose result lies in (−q, q).
            const T q = tw.q, q_inverse = tw.q_neg_inv;
            if (!INVERSE) {
                const T lower = x[t], upper = x[t + HALF];
                x[t] = gfpf_ntt_reduce_fp(lower + upper, q, q_inverse);
                x[t + HALF] = tw.times(lower - upper, w[b % HALF]);
            } else {
                const T lower = x[t], upper = tw.times(x[t + HALF], w[b % HALF]);
                x[t] = gfpf_ntt_reduce_fp(lower + upper, q, q_inverse);
                x[t + HALF] = gfpf_ntt_reduce_fp(lower - upper, q, q_inverse);
            }
        } else if constexpr (GfpfNttWord<T>::LAZY) {
            // Values in [0, 2q): sums reduced against 2q, differences
            // offset by 2q, products left in [0, 2q).
            const T q2 = 2 * tw.q;
            if (!INVERSE) {
                const T lower = x[t], upper = x[t + HALF];
                x[t] = gfpf_ntt_reduce_once<T>(lower + upper, q2);
                x[t + HALF] = tw.times_lazy(lower + q2 - upper, w[b % HALF]);
            } else {
                const T lower = x[t], upper = tw.times_lazy(x[t + HALF], w[b % HALF]);
                x[t] = gfpf_ntt_reduce_once<T>(lower + upper, q2);
                x[t + HALF] = gfpf_ntt_reduce_once<T>(lower + q2 - upper, q2);
            }
        } else if (!INVERSE) {
            // The difference offset by q, in (0, 2q), goes to the product
            // unreduced (gfpf_ntt_mul_montgomery): one instruction a
            // butterfly fewer than reducing it first.
            const T lower = x[t], upper = x[t + HALF];
            x[t] = gfpf_ntt_add<T>(lower, upper, tw.q);
            x[t + HALF] = tw.times(lower + tw.q - upper, w[b % HALF]);
        } else {
            const T lower = x[t], upper = tw.times(x[t + HALF], w[b % HALF]);
            x[t] = gfpf_ntt_add<T>(lower, upper, tw.q);
            x[t + HALF] = gfpf_ntt_sub<T>(lower, upper, tw.q);
        }
    }
}

// The stages U … LOG2_R − 1 of a forward round, a = A^(2^U)·2^w mod q.
template <int LOG2_R, int U, class T, class Tile>
GFPF_NTT_FN void gfpf_ntt_round_forward(T (&x)[1 << LOG2_R], T a, const GfpfNttTwiddles<T>& tw, Tile tile) {
    if constexpr (U < LOG2_R) {
        gfpf_ntt_round_stage<LOG2_R, U, false>(x, a, tw, tile);
        gfpf_ntt_round_forward<LOG2_R, U + 1>(x, U + 1 < LOG2_R ? tw.times(a, a) : a, tw, tile);
    }
}

// The stages LOG2_R − 1 … U of an inverse round (the forward one's undone,
// last first), a = A^(2^U)·2^w mod q.
template <int LOG2_R, int U, class T, class Tile>
GFPF_NTT_FN void gfpf_ntt_round_inverse(T (&x)[1 << LOG2_R], T a, const GfpfNttTwiddles<T>& tw, Tile tile) {
    if constexpr (U < LOG2_R) {
        gfpf_ntt_round_inverse<LOG2_R, U + 1>(x, U + 1 < LOG2_R ? tw.times(a, a) : a, tw, tile);
        gfpf_ntt_round_stage<LOG2_R, U, true>(x, a, tw, tile);
    }
}

// A tile word's place in shared memory: a pad word after every 128 bytes
// (GfpfNttWord), so that the threads of a half-warp reading rows 8 or 16
// words apart (the last rounds' groups of neighbouring rows) meet distinct
// banks.
template <class T>
GFPF_NTT_FN int gfpf_ntt_padded(int w) {
    return w + (w >> GfpfNttWord<T>::PAD_LOG2);
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

// Whether a launch ends a forward transform of lazy words, which it then
// reduces to [0, q).
template <class T>
GFPF_NTT_FN bool gfpf_ntt_finishes(const GfpfNttParams& p) {
    return GfpfNttWord<T>::LAZY && p.inverse == 0 && p.first + p.stages == p.log2_n;
}

// A word as a launch writes it to device memory: times N^−1 where `scale`
// (a Shoup product, in [0, q) from any word), reduced to [0, q) where
// `finish` (the launch that ends a forward transform of lazy words), else
// as it is; in FP64 always in [0, q) (device memory holds the residues as
// integers, GfpfNttWord<double>::out).
template <class T>
GFPF_NTT_FN T gfpf_ntt_out(T v, bool scale, bool finish, T n_inv, T n_inv_shoup, T q) {
    if constexpr (GfpfNttWord<T>::FLOAT) {
        const T u = scale ? gfpf_ntt_mul_shoup<T>(v, n_inv, n_inv_shoup, q) : v;
        return u < 0.0 ? u + q : u;
    } else {
        return scale ? gfpf_ntt_mul_shoup<T>(v, n_inv, n_inv_shoup, q) : finish ? gfpf_ntt_reduce_once<T>(v, q) : v;
    }
}

// A group's rows in device memory: word k of them at at + k·step of
// `data`. On the device, where BY_ADDRESS (32-bit words), from the first
// word's address: one IMAD.WIDE.U32 an access (the offset's product
// volatile, so that ptxas does not hoist the 16 offsets out of the groups'
// loop and spill them; an address made in inline PTX entire lost the
// global space, and every access became a generic LD or ST with predicates
// about it). Indexed from `data`, each access took five instructions of
// 64-bit address arithmetic: the 32-bit kernel 3808 → 3157 instructions
// with it (`cargo xtask kernels --report --pipes`, NVRTC 12.9, sm_90,
// 2026-11-30). The 64-bit and FP64 kernels index from `data`: by address
// they spilled 8 bytes on sm_90. On the host always from `data`, whose
// base the emulator counts sectors from.
template <class S, bool BY_ADDRESS>
struct GfpfNttRows {
    S* data;
    gfpf_ntt_u32 at, step;
    GFPF_NTT_METHOD GfpfNttRows(S* d, gfpf_ntt_u32 a, gfpf_ntt_u32 st) : data(d), at(a), step(st) {}
    GFPF_NTT_METHOD S read(int k) const {
        GFPF_NTT_COUNT_GLOBAL_WORD();
        return GFPF_NTT_READ(data, at + k * step);
    }
    GFPF_NTT_METHOD void write(int k, S v) const {
        GFPF_NTT_COUNT_GLOBAL_WORD();
        GFPF_NTT_WRITE(data, at + k * step, v);
    }
};
#ifndef GFPF_HOST_EMULATION
template <class S>
struct GfpfNttRows<S, true> {
    S* row;
    gfpf_ntt_u32 step_bytes;
    GFPF_NTT_METHOD GfpfNttRows(S* d, gfpf_ntt_u32 a, gfpf_ntt_u32 st)
        : row(d + a), step_bytes(st * (gfpf_ntt_u32)sizeof(S)) {}
    GFPF_NTT_METHOD S* word(int k) const {
        gfpf_ntt_u64 offset;
        asm volatile("mul.wide.u32 %0, %1, %2;" : "=l"(offset) : "r"((gfpf_ntt_u32)k), "r"(step_bytes));
        return (S*)((char*)row + offset);
    }
    GFPF_NTT_METHOD S read(int k) const { return *word(k); }
    GFPF_NTT_METHOD void write(int k, S v) const { *word(k) = v; }
};
#endif

// One group of a round of R = 2^LOG2_R rows: in from device memory or the
// tile, the round's stages, out to device memory (with N^−1 where `scale`)
// or the tile. ρ is of order 2^order_log2 (2^(L−s)), `column` = w^(c·2^g)·2^w.
template <int LOG2_R, bool INVERSE, class T, class Tile>
GFPF_NTT_FN void gfpf_ntt_group(const GfpfNttTile& t, const GfpfNttGroup& group, int order_log2, T column,
                                const GfpfNttTwiddles<T>& tw, typename GfpfNttWord<T>::Stored* data,
                                Tile tile_words, bool from_memory,
                                bool to_memory, bool scale, const GfpfNttParams& p, const T* constants, T n_inv,
                                T n_inv_shoup) {
    // Read from the launch's parameters here: held through the launch, it
    // was a predicate more than the 64-bit kernel had room for (8 bytes
    // spilled on sm_90). The plans' last forward launches write through
    // shared memory (their last round pairs neighbouring rows), so no plan
    // of today reaches this with `finish`; it keeps any other exact.
    const bool finish = gfpf_ntt_finishes<T>(p);
    constexpr int R = 1 << LOG2_R;
    // The group's rows in the transform: stride/C rows of the tile apart,
    // G words each (stride is a multiple of C).
    const gfpf_ntt_u32 at = t.at(group.first), step = (gfpf_ntt_u32)(group.stride >> t.columns_log2) << t.log2_g;
    const GfpfNttRows<typename GfpfNttWord<T>::Stored, sizeof(typename GfpfNttWord<T>::Stored) == 4> rows(data, at, step);
    T x[R];
#pragma unroll
    for (int k = 0; k < R; ++k) {
        x[k] = from_memory ? GfpfNttWord<T>::in(rows.read(k))
                           : (T)GFPF_NTT_TILE_LOAD(tile_words, gfpf_ntt_padded<T>(group.first + k * group.stride));
    }
    GFPF_NTT_COUNT_GROUP(T);
    const T a = tw.times(tw.row_root(order_log2, group.j_mid), column);
    if (INVERSE)
        gfpf_ntt_round_inverse<LOG2_R, 0>(x, a, tw, tile_words);
    else
        gfpf_ntt_round_forward<LOG2_R, 0>(x, a, tw, tile_words);
    if (!GfpfNttWord<T>::HOLD_N_INV && scale) {
        n_inv = GFPF_NTT_TABLE_READ(constants, 1);
        n_inv_shoup = GFPF_NTT_TABLE_READ(constants, 2);
    }
#pragma unroll
    for (int k = 0; k < R; ++k) {
        if (to_memory)
            rows.write(k, GfpfNttWord<T>::out(gfpf_ntt_out<T>(x[k], scale, finish, n_inv, n_inv_shoup, tw.q)));
        else
            GFPF_NTT_TILE_STORE(tile_words, gfpf_ntt_padded<T>(group.first + k * group.stride), x[k]);
    }
}

// The words of a launch's tile that a thread moves between device memory
// and the tile in a loop of its own (gfpf_ntt_tile_in, gfpf_ntt_tile_out):
// tile words w = tid + m·threads, word w at t.at(w) in the transform. Where
// BY_ADDRESS (32-bit words, on the device) a pointer walks them: the
// block's threads are a multiple of C, so a thread's words share their
// column and lie threads/C rows apart, one 64-bit add a word where t.at(w)
// and its 64-bit address took five instructions more (the 32-bit kernel
// 3160 → 3118 instructions; kernels --probe --preset ntt: a word in 10
// instructions where it took 15, out 8 where 13.5). The 64-bit and FP64
// kernels make
// t.at(w): walking a pointer or an index they spilled 4 to 20 bytes on
// sm_80 or sm_90 (NVRTC 12.9, 2026-11-30). On the host always t.at(w)
// from `data`, whose base the emulator counts sectors from.
template <class S, bool BY_ADDRESS>
struct GfpfNttTileWalk {
    S* data;
    const GfpfNttTile& t;
    GFPF_NTT_METHOD GfpfNttTileWalk(S* d, const GfpfNttTile& tile, int, int) : data(d), t(tile) {}
    GFPF_NTT_METHOD S read(int w) const { return GFPF_NTT_READ(data, t.at(w)); }
    GFPF_NTT_METHOD void write(int w, S v) const { GFPF_NTT_WRITE(data, t.at(w), v); }
    GFPF_NTT_METHOD void next() {}
};
#ifndef GFPF_HOST_EMULATION
template <class S>
struct GfpfNttTileWalk<S, true> {
    S* word;
    gfpf_ntt_u32 step;
    GFPF_NTT_METHOD GfpfNttTileWalk(S* d, const GfpfNttTile& t, int tid, int threads)
        : word(d + t.at(tid)), step((gfpf_ntt_u32)(threads >> t.columns_log2) << t.log2_g) {}
    GFPF_NTT_METHOD S read(int) const { return *word; }
    GFPF_NTT_METHOD void write(int, S v) const { *word = v; }
    GFPF_NTT_METHOD void next() { word += step; }
};
#endif

// A launch's words in from device memory through the tile, whole sectors,
// each times its twin where `pointwise` has one.
template <class T, class Tile>
GFPF_NTT_FN void gfpf_ntt_tile_in(const GfpfNttTile& t, const GfpfNttPointwise<T>& pointwise,
                                  const GfpfNttTwiddles<T>& tw, const typename GfpfNttWord<T>::Stored* data, Tile tile,
                                  int tid, int threads, int words) {
    typedef const typename GfpfNttWord<T>::Stored Stored;
    typedef GfpfNttTileWalk<Stored, sizeof(Stored) == 4> Walk;
    Walk in(data, t, tid, threads);
    if (pointwise.other == nullptr) {
        // One word at a time, as the products' loop below.
#pragma unroll 1
        for (int w = tid; w < words; w += threads, in.next())
            GFPF_NTT_TILE_STORE(tile, gfpf_ntt_padded<T>(w), pointwise.load(tw, in.read(w)));
    } else {
        Walk twin(pointwise.other, t, tid, threads);
        // One word at a time: unrolled, the products spilled registers.
#pragma unroll 1
        for (int w = tid; w < words; w += threads, in.next(), twin.next())
            GFPF_NTT_TILE_STORE(tile, gfpf_ntt_padded<T>(w), pointwise.load(tw, in.read(w), twin.read(w)));
    }
}

// A launch's words out from the tile to device memory, whole sectors, as
// gfpf_ntt_out makes them (N^−1 read where it is applied unless held).
template <class T, class Tile>
GFPF_NTT_FN void gfpf_ntt_tile_out(const GfpfNttTile& t, typename GfpfNttWord<T>::Stored* data, Tile tile, int tid,
                                   int threads, int words, bool scale, bool finish, T n_inv, T n_inv_shoup,
                                   const T* constants, T q) {
    constexpr bool HOLD_N_INV = GfpfNttWord<T>::HOLD_N_INV;
    typedef typename GfpfNttWord<T>::Stored Stored;
    GfpfNttTileWalk<Stored, sizeof(Stored) == 4> out(data, t, tid, threads);
    for (int w = tid; w < words; w += threads, out.next()) {
        const T v = GFPF_NTT_TILE_LOAD(tile, gfpf_ntt_padded<T>(w));
        GFPF_NTT_COUNT_TILE_WORD(T);
        out.write(w, GfpfNttWord<T>::out(gfpf_ntt_out<T>(v, scale, finish,
                                                      HOLD_N_INV ? n_inv : GFPF_NTT_TABLE_READ(constants, 1),
                                                      HOLD_N_INV ? n_inv_shoup : GFPF_NTT_TABLE_READ(constants, 2),
                                                      q)));
    }
}

// The rounds of a launch of L stages, at most `most` stages each, the
// longer ones last with 32-bit words (so that a launch's last round is of
// four stages wherever one is, for the tensor cores), first with others
// (the 64-bit kernel spilled 4 bytes on sm_80 with them last): round i's
// size and first stage.
template <class T>
GFPF_NTT_FN int gfpf_ntt_round_size(int stages, int most, int i) {
    const int rounds = (stages + most - 1) / most;
    const int at = GfpfNttWord<T>::MMA_WORDS > 0 ? rounds - 1 - i : i;
    return stages / rounds + (at < stages % rounds ? 1 : 0);
}
template <class T>
GFPF_NTT_FN int gfpf_ntt_round_first(int stages, int most, int i) {
    int s = 0;
    for (int k = 0; k < i; ++k) s += gfpf_ntt_round_size<T>(stages, most, k);
    return s;
}

// ---- Tensor cores: DFT_16 of 31-bit residues as int8 matrix products ----
// (gfpf_mma_m16n8k32_u8, gfpf_mma.cuh)

// The forward DFT_16 of 8 columns of 31-bit residues over a warp, as a
// round of four forward stages computes it with A = 1 (rows in bit-reversed
// order): y_p = Σ_m x_m·w16^(m·rev(p)) mod q, on the tensor cores. The data
// are not sliced: a column's 16 words, read as 64 bytes, are the K = 64 rows
// of the right operand (x_m's byte b is row 4m + b), and the slicing goes to
// the constant left operand, V_a[p][4m + b] = byte a of 2^(32+8b)·w16^(m·rev(p))
// mod q, so that T_a = V_a·X (two m16n8k32 products, K = 64: each sum below
// 64·255² < 2^22) and Σ_a 2^(8a)·T_a (below 2^46.01) is congruent to 2^32·y_p,
// one Montgomery reduction (whose result lies below 2q) from y_p. Eight
// products a warp's 16 × 8 words and six instructions an output: the two
// shifted sums T_0 + 2^8·T_1 and T_2 + 2^8·T_3 (each below 2^30.01), one
// 64-bit multiply-add joining them, the reduction.
//
// Lane l = 4g + t holds x at rows 4t … 4t + 3 of column g and gets y at
// places 2g, 2g + 1 of columns 2t, 2t + 1 (y[i] at place 2g + ⌊i/2⌋ of
// column 2t + (i mod 2)). The left operands are 1024
// words a prime (gfpf_cuda's dft16_mma_fragments), from word `at` (a multiple
// of four) of `fragments`: lane l's four registers of product (a, h) at
// words ((2a + h)·32 + l)·4 …, one 16-byte load.
template <class Table>
GFPF_NTT_FN void gfpf_ntt_dft16_mma(gfpf_ntt_u32 (&y)[4], const gfpf_ntt_u32 (&x)[4], Table fragments, int at, int lane,
                                    gfpf_ntt_u32 q, gfpf_ntt_u32 q_neg_inv) {
    gfpf_ntt_u32 sums[4][4];
#pragma unroll
    for (int a = 0; a < 4; ++a) {
        gfpf_ntt_u32 acc[4] = {0, 0, 0, 0};
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            gfpf_ntt_u32 v[4];
            GFPF_NTT_TILE_LOAD4(fragments, at + ((2 * a + h) * 32 + lane) * 4, v);
            gfpf_mma_m16n8k32_u8(acc, v, x[2 * h], x[2 * h + 1], acc);
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) sums[a][i] = acc[i];
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const gfpf_ntt_u32 low = sums[0][i] + (sums[1][i] << 8), high = sums[2][i] + (sums[3][i] << 8);
        const gfpf_ntt_u64 t = (gfpf_ntt_u64)high * 65536u + low;
        const gfpf_ntt_u32 m = (gfpf_ntt_u32)t * q_neg_inv;
        // q as a 32-bit word (gfpf_ntt_word_register): widened, its zero
        // upper word was added to each product's high half (the DFT_16
        // kernel 316 → 296 instructions, the stage kernel 3118 → 3110 with
        // its round's loop unchanged at 70; kernels --report --pipes and
        // --probe --preset ntt, NVRTC 12.9, sm_90, 2026-11-30).
        const gfpf_ntt_u32 q_word = gfpf_ntt_word_register<gfpf_ntt_u32>(q);
        y[i] = gfpf_ntt_reduce_once<gfpf_ntt_u32>((gfpf_ntt_u32)((t + (gfpf_ntt_u64)m * q_word) >> 32), q_word);
    }
}

// The bit reverse of a group's 3-bit index in a warp's eight.
GFPF_NTT_FN int gfpf_ntt_reverse3(int v) { return (v & 1) << 2 | (v & 2) | (v >> 2 & 1); }

// Where the tensor cores' left operands lie in shared memory: after the
// tile of `words` words, its pads and w16's 8 pairs, from the next multiple
// of four words (16-byte loads).
template <class T>
GFPF_NTT_FN int gfpf_ntt_mma_at(int words) {
    return (gfpf_ntt_padded<T>(words) + 16 + 3) & ~3;
}

// A forward transform's last round of four stages on the tensor cores, in
// the tile: groups of 16 neighbouring words (whose twiddles are all 1),
// 8 a warp at a time; lane l = 4g + t reads rows 4t … 4t + 3 of the warp's
// group τ(g) and writes places 2g, 2g + 1 of groups τ(2t), τ(2t + 1), τ the
// bit reverse of 3 bits (each group's 16 words in place, bit-reversed as
// the round in registers leaves them). With the tile's pad word every 32,
// group G's words start at bank 16·(G mod 2) + ⌊G/2⌋ (mod 32, from the
// warp's first): τ(g) puts those of the groups a load or store meets at 0,
// 1, 2, 3, 16, 17, 18, 19, and rows 4t + k, or places 2g (+ 1), fill the
// 32 banks once. Rows t + 4k and places g, g + 8 of groups g and 2t, 2t + 1
// put four lanes to a bank (8 primes at 2^24: the round's launch took
// 113.8M wavefronts where its accesses need 80.2M; gpu-model,
// 2026-11-30). The DFT's left operands lie in shared memory from word
// mma_at.
template <class Tile>
GFPF_NTT_FN void gfpf_ntt_mma_round(int words, int threads, int tid, int mma_at, Tile tile, gfpf_ntt_u32 q,
                                    gfpf_ntt_u32 q_neg_inv) {
    const int lane = tid & 31, g = lane >> 2, t = lane & 3;
    for (int base = (tid >> 5) * 8; base < (words >> 4); base += (threads >> 5) * 8) {
        GFPF_NTT_COUNT_MMA_TILE();
        // A group's 16 words share their pad (32-word runs from multiples
        // of 16 never straddle one), so each group's place is padded once.
        gfpf_ntt_u32 x[4], y[4];
        const int in = gfpf_ntt_padded<gfpf_ntt_u32>(16 * (base + gfpf_ntt_reverse3(g))) + 4 * t;
#pragma unroll
        for (int k = 0; k < 4; ++k) x[k] = GFPF_NTT_TILE_LOAD(tile, in + k);
        gfpf_ntt_dft16_mma(y, x, tile, mma_at, lane, q, q_neg_inv);
        // Every lane's reads of the 8 groups before any lane's writes.
        __syncwarp();
        const int out0 = gfpf_ntt_padded<gfpf_ntt_u32>(16 * (base + gfpf_ntt_reverse3(2 * t))) + 2 * g,
                  out1 = gfpf_ntt_padded<gfpf_ntt_u32>(16 * (base + gfpf_ntt_reverse3(2 * t + 1))) + 2 * g;
#pragma unroll
        for (int i = 0; i < 4; ++i) GFPF_NTT_TILE_STORE(tile, (i & 1 ? out1 : out0) + (i >> 1), y[i]);
    }
}

// One launch: stages first … first + L − 1 on this block's tile, forward
// (Gentleman–Sande, in order) or inverse (Cooley–Tukey with ω^−1, in reverse
// order, then N^−1 where the launch ends the transform), on words T.
template <class T>
GFPF_NTT_FN void gfpf_ntt_stages(const GfpfNttParams& p) {
    GFPF_NTT_DYNAMIC_SHARED(T, tile_words, GfpfNttShared<T>::MOST);
#ifdef GFPF_HOST_EMULATION
    GFPF_CHECK(p.word_bytes == sizeof(T), "the launch's word_bytes is not this kernel's word");
#endif
    const GfpfNttTile t = gfpf_ntt_tile(p);
    const int log2_threads = (int)p.log2_block_threads;
    const int threads = 1 << log2_threads;
    const int words_log2 = t.rows_log2 + t.columns_log2;
    const int words = 1 << words_log2;
    const gfpf_ntt_u64 n = 1ull << p.log2_n;
    const gfpf_ntt_u64 prime = t.transform / p.transforms_per_prime;
    const T* constants = (const T*)p.primes + 8 * prime;
    const int tid = (int)threadIdx.x;
    GfpfNttTwiddles<T> tw;
    tw.split = (int)p.log2_n / 2;
    tw.q = gfpf_ntt_word_register<T>(GFPF_NTT_TABLE_READ(constants, 0));
    tw.q_neg_inv = GFPF_NTT_TABLE_READ(constants, 3);
    // A prime's tables (gfpf_cuda::ntt::NttPlan::twiddle_table): 2^s
    // pairs, 2^s words (2^(n−1−s) used), 8 pairs of w16's powers, roots by
    // order up to the tile's (the most stages a launch runs).
    constexpr int ORDERS = GfpfNttWord<T>::TILE_LOG2;
    const gfpf_ntt_u64 per_prime = (3ull << tw.split) + 16 + (1ull << (p.log2_n < ORDERS ? p.log2_n : ORDERS)) +
                                   GfpfNttWord<T>::MMA_WORDS;
    tw.low = (const T*)p.twiddles + prime * per_prime;
    tw.high = tw.low + (2ull << tw.split);
    const T* roots = tw.high + (1ull << tw.split);
    tw.rows = roots + 16;
    tw.roots_at = gfpf_ntt_padded<T>(words);
    if (tid < 16) tile_words[tw.roots_at + tid] = GFPF_NTT_TABLE_READ(roots, tid);
    typedef typename GfpfNttWord<T>::Stored Stored;
    Stored* data = (Stored*)p.data + t.transform * n;
    const bool inverse = p.inverse != 0;
    // Rounds of at most MAX_ROUND stages, and at most the elements a thread
    // holds (tile words / threads ≥ 2).
    const int per_thread_log2 = words_log2 - log2_threads;
    constexpr int MAX_ROUND = GfpfNttWord<T>::MAX_ROUND;
    const int most = per_thread_log2 < MAX_ROUND ? per_thread_log2 : MAX_ROUND;
    const int rounds = (t.rows_log2 + most - 1) / most;
    // The last round on the tensor cores (32-bit words, where the launch
    // asks): a forward launch that ends the transform has tiles of whole
    // blocks of neighbouring words (G = 1), so its last round's groups are
    // 16 neighbouring words and their twiddles A = ρ^0·w^0 = 1, the DFT_16
    // of gfpf_ntt_dft16_mma (16 instructions an element against 28.5 in
    // registers: probe kernels of a group's worth, NVRTC 12.9, sm_90,
    // 2026-11-27). Its last round is of four stages (the longest, as the
    // rounds run); its block's warps take 8 groups at a time. The host sets
    // `tensor_cores` only where these hold (NttPlan::launches); the kernel
    // reads it from the parameters where used (a predicate and an address
    // held through the launch spilled 44 bytes on sm_90).
#ifdef GFPF_HOST_EMULATION
    GFPF_CHECK(p.tensor_cores == 0 || (GfpfNttWord<T>::MMA_WORDS > 0 && !inverse && p.first + p.stages == p.log2_n &&
                                       most == 4 && gfpf_ntt_round_size<T>(t.rows_log2, most, rounds - 1) == 4 &&
                                       t.columns_log2 == 0 && words >= 128 && threads >= 32),
               "a launch asks for the tensor cores where its last round cannot take them");
#endif
    if constexpr (GfpfNttWord<T>::MMA_WORDS > 0) {
        if (GFPF_NTT_MMA && p.tensor_cores != 0) {
            const T* fragments = tw.low + per_prime - GfpfNttWord<T>::MMA_WORDS;
            for (int w = tid; w < GfpfNttWord<T>::MMA_WORDS; w += threads)
                tile_words[gfpf_ntt_mma_at<T>(words) + w] = GFPF_NTT_TABLE_READ(fragments, w);
        }
    }
    // The N^−1 of the launch that ends an inverse transform (stage 0), and
    // the reduction of lazy words by the one that ends a forward transform.
    const bool scale = inverse && p.first == 0;
    // gfpf_ntt_finishes<T>(p), written from `inverse`, which is live here
    // (from p's field, the 64-bit kernel spilled 24 bytes on sm_80).
    const bool finish = GfpfNttWord<T>::LAZY && !inverse && p.first + p.stages == p.log2_n;
    constexpr bool HOLD_N_INV = GfpfNttWord<T>::HOLD_N_INV;
    const T n_inv = HOLD_N_INV ? GFPF_NTT_TABLE_READ(constants, 1) : T(0);
    const T n_inv_shoup = HOLD_N_INV ? GFPF_NTT_TABLE_READ(constants, 2) : T(0);
    for (int step = 0; step < rounds; ++step) {
        // Forward: rounds in order; inverse: in reverse.
        const int i = inverse ? rounds - 1 - step : step;
        const int r = gfpf_ntt_round_size<T>(t.rows_log2, most, i);
        const int s = gfpf_ntt_round_first<T>(t.rows_log2, most, i);
        const bool coalesced = gfpf_ntt_round_coalesced(t, s, r);
        // A pointwise product comes in through shared memory: in the
        // groups' loads its second operand's addresses spilled registers.
        const bool from_memory = step == 0 && coalesced && p.other == 0;
        const bool to_memory = step == rounds - 1 && coalesced;
        if (step == 0 && !from_memory) {
            GfpfNttPointwise<T> pointwise;
            pointwise.other = p.other == 0 ? nullptr : (const Stored*)p.other + t.transform * n;
            pointwise.r2 = GFPF_NTT_TABLE_READ(constants, 5);
            gfpf_ntt_tile_in<T>(t, pointwise, tw, data, GFPF_NTT_TILE_PTR(tile_words), tid, threads, words);
        }
        // The roots and the tile written (step 0), the round before done.
        __syncthreads();
        if constexpr (GfpfNttWord<T>::MMA_WORDS > 0) {
            if (GFPF_NTT_MMA && p.tensor_cores != 0 && step == rounds - 1) {
                gfpf_ntt_mma_round(words, threads, tid, gfpf_ntt_mma_at<T>(words), GFPF_NTT_TILE_PTR(tile_words),
                                   tw.q, tw.q_neg_inv);
                break;
            }
        }
        const int g = (int)p.first + s;
        // This thread's column (the same in each of its groups: the block's
        // threads are a multiple of C) and its factor w^(c·2^g)·2^w, c < G.
        const T column = tw.montgomery_power((t.residue + (gfpf_ntt_u32)(tid & ((1 << t.columns_log2) - 1))) << g);
        for (int index = tid; index < (words >> r); index += threads) {
            const GfpfNttGroup group = GfpfNttGroup::of(t, s, r, index);
#define GFPF_NTT_GROUP_CASE(LOG2_R)                                                                     \
    case LOG2_R:                                                                                        \
        if (inverse)                                                                                    \
            gfpf_ntt_group<LOG2_R, true>(t, group, t.rows_log2 - s, column, tw, data,                   \
                                         GFPF_NTT_TILE_PTR(tile_words), from_memory, to_memory, scale,  \
                                         p, constants, n_inv, n_inv_shoup);                             \
        else                                                                                            \
            gfpf_ntt_group<LOG2_R, false>(t, group, t.rows_log2 - s, column, tw, data,                  \
                                          GFPF_NTT_TILE_PTR(tile_words), from_memory, to_memory, scale, \
                                          p, constants, n_inv, n_inv_shoup);                            \
        break;
            if constexpr (MAX_ROUND == 4) {
                switch (r) {
                    GFPF_NTT_GROUP_CASE(1)
                    GFPF_NTT_GROUP_CASE(2)
                    GFPF_NTT_GROUP_CASE(3)
                    default: GFPF_NTT_GROUP_CASE(4)
                }
            } else {
                switch (r) {
                    GFPF_NTT_GROUP_CASE(1)
                    GFPF_NTT_GROUP_CASE(2)
                    default: GFPF_NTT_GROUP_CASE(3)
                }
            }
#undef GFPF_NTT_GROUP_CASE
        }
    }
    const int last = inverse ? 0 : rounds - 1;
    const int r_last = gfpf_ntt_round_size<T>(t.rows_log2, most, last);
    if (!gfpf_ntt_round_coalesced(t, gfpf_ntt_round_first<T>(t.rows_log2, most, last), r_last)) {
        __syncthreads();
        gfpf_ntt_tile_out<T>(t, data, GFPF_NTT_TILE_PTR(tile_words), tid, threads, words, scale, finish, n_inv,
                             n_inv_shoup, constants, tw.q);
    }
}

// A batch of DFT_16 on the tensor cores, a round of four forward stages as
// the stage kernel's groups compute it: 16 rows of C = 2^log2_columns
// columns (row m of column c at data[m·C + c]), each column transformed in
// place, y_p = A_c^rev(p)·Σ_m x_m·w16^(m·rev(p)), A_c·2^32 mod q at other[c]
// (A_c = 1 where other is 0). A warp takes 8 columns; the fragments come
// from `twiddles` through shared memory (4 KiB). The stage kernels run the
// same DFT in a transform's last round (gfpf_ntt_mma_round); this kernel
// takes it alone, with group twiddles as the other rounds would need them,
// for checking the tensor cores' layouts (in the emulator, and on a device
// where one is at hand) and for counting from the machine code.
GFPF_NTT_FN void gfpf_ntt_dft16_mma_columns(const GfpfNttParams& p) {
    GFPF_NTT_DYNAMIC_SHARED(gfpf_ntt_u32, fragments, 1024);
    const int tid = (int)threadIdx.x;
    for (int w = tid; w < 1024; w += (int)blockDim.x)
        fragments[w] = GFPF_NTT_TABLE_READ((const gfpf_ntt_u32*)p.twiddles, w);
    __syncthreads();
    const gfpf_ntt_u64 columns = 1ull << p.log2_columns;
    const gfpf_ntt_u64 first = ((gfpf_ntt_u64)blockIdx.x * blockDim.x + (gfpf_ntt_u64)tid) / 32 * 8;
    // Whole warps only: every lane of a warp takes part in its products.
    if (first >= columns) return;
    const int lane = tid & 31, g = lane >> 2, t = lane & 3;
    const gfpf_ntt_u32* constants = (const gfpf_ntt_u32*)p.primes;
    const gfpf_ntt_u32 q = GFPF_NTT_TABLE_READ(constants, 0), q_neg_inv = GFPF_NTT_TABLE_READ(constants, 3);
    gfpf_ntt_u32* data = (gfpf_ntt_u32*)p.data;
    gfpf_ntt_u32 x[4], y[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) x[k] = GFPF_NTT_READ(data, (gfpf_ntt_u64)(4 * t + k) * columns + first + g);
    gfpf_ntt_dft16_mma(y, x, GFPF_NTT_TILE_PTR(fragments), 0, lane, q, q_neg_inv);
    if (p.other != 0) {
        // Place 2g takes A^f, f = rev(2g) = rev3(g) (its bits: 4, 2, 1 for
        // g's bits 0, 1, 2), place 2g + 1 A^(f + 8): three squarings, two
        // products by selected powers and one by A^8 a column, in
        // Montgomery form.
        const gfpf_ntt_u32 one = GFPF_NTT_TABLE_READ(constants, 4);
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            const gfpf_ntt_u32 a1 = GFPF_NTT_READ((const gfpf_ntt_u32*)p.other, first + 2 * t + j);
            const gfpf_ntt_u32 a2 = gfpf_ntt_mul_montgomery(a1, a1, q, q_neg_inv);
            const gfpf_ntt_u32 a4 = gfpf_ntt_mul_montgomery(a2, a2, q, q_neg_inv);
            const gfpf_ntt_u32 a8 = gfpf_ntt_mul_montgomery(a4, a4, q, q_neg_inv);
            gfpf_ntt_u32 e = gfpf_ntt_mul_montgomery(g & 1 ? a4 : one, g & 2 ? a2 : one, q, q_neg_inv);
            e = gfpf_ntt_mul_montgomery(e, g & 4 ? a1 : one, q, q_neg_inv);
            y[j] = gfpf_ntt_mul_montgomery(y[j], e, q, q_neg_inv);
            y[2 + j] = gfpf_ntt_mul_montgomery(y[2 + j], gfpf_ntt_mul_montgomery(e, a8, q, q_neg_inv), q, q_neg_inv);
        }
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
        GFPF_NTT_WRITE(data, (gfpf_ntt_u64)(2 * g + (i >> 1)) * columns + first + 2 * t + (i & 1), y[i]);
}

#ifdef GFPF_HOST_EMULATION
extern "C" int gfpf_ntt31_stages(const GfpfNttParams* p, GfpfEmuLaunch* launch) {
    return gfpf_emu::launch("gfpf_ntt31_stages", *launch, [p] { gfpf_ntt_stages<gfpf_ntt_u32>(*p); });
}
extern "C" int gfpf_ntt62_stages(const GfpfNttParams* p, GfpfEmuLaunch* launch) {
    return gfpf_emu::launch("gfpf_ntt62_stages", *launch, [p] { gfpf_ntt_stages<gfpf_ntt_u64>(*p); });
}
extern "C" int gfpf_ntt50_stages(const GfpfNttParams* p, GfpfEmuLaunch* launch) {
    return gfpf_emu::launch("gfpf_ntt50_stages", *launch, [p] { gfpf_ntt_stages<double>(*p); });
}
extern "C" int gfpf_ntt31_dft16_mma(const GfpfNttParams* p, GfpfEmuLaunch* launch) {
    return gfpf_emu::launch("gfpf_ntt31_dft16_mma", *launch, [p] { gfpf_ntt_dft16_mma_columns(*p); });
}
// The FP64 arithmetic alone, for the emulator's edge test (host only): case
// t, six doubles (x, w, w_over_q, q, 1/q, v) at `twiddles`, gives
// (gfpf_ntt_mul_fp(x, w, w_over_q, q), gfpf_ntt_reduce_fp(v, q, 1/q)) at
// `data`, for `threads` cases.
extern "C" int gfpf_ntt_fp64_arithmetic(const GfpfNttParams* p, GfpfEmuLaunch* launch) {
    return gfpf_emu::launch("gfpf_ntt_fp64_arithmetic", *launch, [p] {
        const gfpf_ntt_u64 t = (gfpf_ntt_u64)blockIdx.x * blockDim.x + threadIdx.x;
        if (t >= p->threads) return;
        const double* in = (const double*)p->twiddles + 6 * t;
        double* out = (double*)p->data + 2 * t;
        out[0] = gfpf_ntt_mul_fp(in[0], in[1], in[2], in[3]);
        out[1] = gfpf_ntt_reduce_fp(in[5], in[3], in[4]);
    });
}
#else
extern "C" __global__ void __launch_bounds__(512, 2) gfpf_ntt31_stages(const GfpfNttParams p) {
    gfpf_ntt_stages<gfpf_ntt_u32>(p);
}
// One block of 1024 threads an SM: its 139 KB tile leaves no room for a
// second (gfpf_cuda::ntt::NttWord::BLOCK_THREADS); 64 registers either way.
extern "C" __global__ void __launch_bounds__(1024, 1) gfpf_ntt62_stages(const GfpfNttParams p) {
    gfpf_ntt_stages<gfpf_ntt_u64>(p);
}
// Doubles: as the 64-bit words.
extern "C" __global__ void __launch_bounds__(1024, 1) gfpf_ntt50_stages(const GfpfNttParams p) {
    gfpf_ntt_stages<double>(p);
}
extern "C" __global__ void __launch_bounds__(256) gfpf_ntt31_dft16_mma(const GfpfNttParams p) {
    gfpf_ntt_dft16_mma_columns(p);
}
#endif
