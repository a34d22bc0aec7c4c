// Word-size NTT probes (cargo xtask kernels --probe --ntt), appended to the
// NTT module's translation unit (gfpf_kernels::ntt_translation_unit): each
// kernel runs one of the stage kernels' loops alone, set up as
// gfpf_ntt_stages sets it up and under the same launch bounds, so that the
// loop's body is what the time model charges a round's group
// (xtask/src/gpu_model.rs: NTT_GROUP_INSTRUCTIONS and the butterflies'
// constants), the tensor cores' tile of 8 groups (NTT_MMA_TILE_INSTRUCTIONS)
// or a word read with its pointwise product. xtask/src/probes.rs counts each
// kernel's one rolled loop, once an iteration.

// What every probe takes from the launch's parameters, as gfpf_ntt_stages
// takes it: the tile, the prime's constants and tables, w16's powers staged
// after the tile.
template <class T>
struct GfpfNttProbeSetup {
    GfpfNttTile t;
    GfpfNttTwiddles<T> tw;
    const T* constants;
    typename GfpfNttWord<T>::Stored* data;
};

template <class T>
GFPF_NTT_FN GfpfNttProbeSetup<T> gfpf_ntt_probe_setup(const GfpfNttParams& p, T* tile_words) {
    GfpfNttProbeSetup<T> s;
    s.t = gfpf_ntt_tile(p);
    const gfpf_ntt_u64 prime = s.t.transform / p.transforms_per_prime;
    s.constants = (const T*)p.primes + 8 * prime;
    s.tw.split = (int)p.log2_n / 2;
    s.tw.q = gfpf_ntt_word_register<T>(GFPF_NTT_TABLE_READ(s.constants, 0));
    s.tw.q_neg_inv = GFPF_NTT_TABLE_READ(s.constants, 3);
    constexpr int ORDERS = GfpfNttWord<T>::TILE_LOG2;
    const gfpf_ntt_u64 per_prime = (3ull << s.tw.split) + 16 +
                                   (1ull << (p.log2_n < ORDERS ? p.log2_n : ORDERS)) + GfpfNttWord<T>::MMA_WORDS;
    s.tw.low = (const T*)p.twiddles + prime * per_prime;
    s.tw.high = s.tw.low + (2ull << s.tw.split);
    const T* roots = s.tw.high + (1ull << s.tw.split);
    s.tw.rows = roots + 16;
    const int words = 1 << (s.t.rows_log2 + s.t.columns_log2);
    s.tw.roots_at = gfpf_ntt_padded<T>(words);
    if (threadIdx.x < 16) tile_words[s.tw.roots_at + threadIdx.x] = GFPF_NTT_TABLE_READ(roots, threadIdx.x);
    s.data = (typename GfpfNttWord<T>::Stored*)p.data + s.t.transform * (1ull << p.log2_n);
    __syncthreads();
    return s;
}

// A round's groups of 2^LOG2_R rows from the tile to the tile (round stages
// s … s + LOG2_R − 1 of the launch, s = p.first here), a loop over the
// block's groups as gfpf_ntt_stages runs them.
template <class T, int LOG2_R, bool INVERSE>
GFPF_NTT_FN void gfpf_ntt_probe_groups(const GfpfNttParams& p) {
    GFPF_NTT_DYNAMIC_SHARED(T, tile_words, GfpfNttShared<T>::MOST);
    const GfpfNttProbeSetup<T> s = gfpf_ntt_probe_setup<T>(p, tile_words);
    const int threads = 1 << (int)p.log2_block_threads, tid = (int)threadIdx.x;
    const int words = 1 << (s.t.rows_log2 + s.t.columns_log2), round_first = (int)p.first;
    const T column =
        s.tw.montgomery_power((s.t.residue + (gfpf_ntt_u32)(tid & ((1 << s.t.columns_log2) - 1))) << round_first);
    const T n_inv = GfpfNttWord<T>::HOLD_N_INV ? GFPF_NTT_TABLE_READ(s.constants, 1) : T(0);
    const T n_inv_shoup = GfpfNttWord<T>::HOLD_N_INV ? GFPF_NTT_TABLE_READ(s.constants, 2) : T(0);
#pragma unroll 1
    for (int index = tid; index < (words >> LOG2_R); index += threads) {
        const GfpfNttGroup group = GfpfNttGroup::of(s.t, round_first, LOG2_R, index);
        gfpf_ntt_group<LOG2_R, INVERSE>(s.t, group, s.t.rows_log2 - round_first, column, s.tw, s.data,
                                        GFPF_NTT_TILE_PTR(tile_words), false, false, false, p, s.constants, n_inv,
                                        n_inv_shoup);
    }
}

// A launch's words in through the tile (gfpf_ntt_tile_in), each times its
// twin in p.other where POINTWISE (the pointwise product folded into the
// launch that reads it first), and out through it (gfpf_ntt_tile_out, with
// N^−1 where the launch ends an inverse transform): the loops of a launch
// whose first or last round does not cover whole sectors.
template <class T, bool POINTWISE>
GFPF_NTT_FN void gfpf_ntt_probe_tile_in(const GfpfNttParams& p) {
    GFPF_NTT_DYNAMIC_SHARED(T, tile_words, GfpfNttShared<T>::MOST);
    const GfpfNttProbeSetup<T> s = gfpf_ntt_probe_setup<T>(p, tile_words);
    GfpfNttPointwise<T> pointwise;
    pointwise.other =
        POINTWISE ? (const typename GfpfNttWord<T>::Stored*)p.other + s.t.transform * (1ull << p.log2_n) : nullptr;
    pointwise.r2 = GFPF_NTT_TABLE_READ(s.constants, 5);
    // The product's loop alone (the kernels version the loop on it).
    if (POINTWISE) __builtin_assume(pointwise.other != nullptr);
    gfpf_ntt_tile_in<T>(s.t, pointwise, s.tw, s.data, GFPF_NTT_TILE_PTR(tile_words), (int)threadIdx.x,
                        1 << (int)p.log2_block_threads, 1 << (s.t.rows_log2 + s.t.columns_log2));
}

// The words out as a forward launch stores them (neither N^−1 nor the
// lazy words' reduction: the launches that take those are one a transform,
// its last, and the loop's body is then a product longer).
template <class T>
GFPF_NTT_FN void gfpf_ntt_probe_tile_out(const GfpfNttParams& p) {
    GFPF_NTT_DYNAMIC_SHARED(T, tile_words, GfpfNttShared<T>::MOST);
    const GfpfNttProbeSetup<T> s = gfpf_ntt_probe_setup<T>(p, tile_words);
    const bool scale = false, finish = false;
    const T n_inv = GfpfNttWord<T>::HOLD_N_INV ? GFPF_NTT_TABLE_READ(s.constants, 1) : T(0);
    const T n_inv_shoup = GfpfNttWord<T>::HOLD_N_INV ? GFPF_NTT_TABLE_READ(s.constants, 2) : T(0);
    gfpf_ntt_tile_out<T>(s.t, s.data, GFPF_NTT_TILE_PTR(tile_words), (int)threadIdx.x, 1 << (int)p.log2_block_threads,
                         1 << (s.t.rows_log2 + s.t.columns_log2), scale, finish, n_inv, n_inv_shoup, s.constants,
                         s.tw.q);
}

// A forward transform's last round on the tensor cores (32-bit words).
GFPF_NTT_FN void gfpf_ntt_probe_mma(const GfpfNttParams& p) {
    GFPF_NTT_DYNAMIC_SHARED(gfpf_ntt_u32, tile_words, GfpfNttShared<gfpf_ntt_u32>::MOST);
    const GfpfNttProbeSetup<gfpf_ntt_u32> s = gfpf_ntt_probe_setup<gfpf_ntt_u32>(p, tile_words);
    const int threads = 1 << (int)p.log2_block_threads;
    const int words = 1 << (s.t.rows_log2 + s.t.columns_log2);
    gfpf_ntt_mma_round(words, threads, (int)threadIdx.x, gfpf_ntt_mma_at<gfpf_ntt_u32>(words),
                       GFPF_NTT_TILE_PTR(tile_words), s.tw.q, s.tw.q_neg_inv);
}

// Each kernel's launch bounds are its stage kernel's: 64 registers either way.
#define GFPF_NTT_PROBE_GROUPS(WORD, T, BOUNDS, LOG2_R)                                                                  \
    extern "C" __global__ void BOUNDS gfpf_probe_ntt##WORD##_radix##LOG2_R##_forward(const GfpfNttParams p) {        \
        gfpf_ntt_probe_groups<T, LOG2_R, false>(p);                                                                    \
    }                                                                                                                  \
    extern "C" __global__ void BOUNDS gfpf_probe_ntt##WORD##_radix##LOG2_R##_inverse(const GfpfNttParams p) {        \
        gfpf_ntt_probe_groups<T, LOG2_R, true>(p);                                                                     \
    }
#define GFPF_NTT_PROBE_BOUNDS_31 __launch_bounds__(512, 2)
#define GFPF_NTT_PROBE_BOUNDS_WIDE __launch_bounds__(1024, 1)
GFPF_NTT_PROBE_GROUPS(31, gfpf_ntt_u32, GFPF_NTT_PROBE_BOUNDS_31, 2)
GFPF_NTT_PROBE_GROUPS(31, gfpf_ntt_u32, GFPF_NTT_PROBE_BOUNDS_31, 3)
GFPF_NTT_PROBE_GROUPS(31, gfpf_ntt_u32, GFPF_NTT_PROBE_BOUNDS_31, 4)
GFPF_NTT_PROBE_GROUPS(62, gfpf_ntt_u64, GFPF_NTT_PROBE_BOUNDS_WIDE, 2)
GFPF_NTT_PROBE_GROUPS(62, gfpf_ntt_u64, GFPF_NTT_PROBE_BOUNDS_WIDE, 3)
GFPF_NTT_PROBE_GROUPS(50, double, GFPF_NTT_PROBE_BOUNDS_WIDE, 2)
GFPF_NTT_PROBE_GROUPS(50, double, GFPF_NTT_PROBE_BOUNDS_WIDE, 3)
#define GFPF_NTT_PROBE_TILE(WORD, T, BOUNDS)                                                                   \
    extern "C" __global__ void BOUNDS gfpf_probe_ntt##WORD##_tile_in(const GfpfNttParams p) {                     \
        gfpf_ntt_probe_tile_in<T, false>(p);                                                                       \
    }                                                                                                              \
    extern "C" __global__ void BOUNDS gfpf_probe_ntt##WORD##_pointwise(const GfpfNttParams p) {                   \
        gfpf_ntt_probe_tile_in<T, true>(p);                                                                        \
    }                                                                                                              \
    extern "C" __global__ void BOUNDS gfpf_probe_ntt##WORD##_tile_out(const GfpfNttParams p) {                    \
        gfpf_ntt_probe_tile_out<T>(p);                                                                             \
    }
GFPF_NTT_PROBE_TILE(31, gfpf_ntt_u32, GFPF_NTT_PROBE_BOUNDS_31)
GFPF_NTT_PROBE_TILE(62, gfpf_ntt_u64, GFPF_NTT_PROBE_BOUNDS_WIDE)
GFPF_NTT_PROBE_TILE(50, double, GFPF_NTT_PROBE_BOUNDS_WIDE)
extern "C" __global__ void GFPF_NTT_PROBE_BOUNDS_31 gfpf_probe_ntt31_mma(const GfpfNttParams p) {
    gfpf_ntt_probe_mma(p);
}
