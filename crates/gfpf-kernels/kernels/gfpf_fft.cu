// The FFT kernels of gfpf-cuda: one kernel per (base size K, twiddle
// placement) runs one stage of a gfpf_plan::Plan, one thread per base DFT_K
// (or one DFT over the S = min(k, 32) lanes of a warp segment with k/S
// digits per lane, gfpf_lanes.cuh; stages of stride 1 (and strided ones from
// k = 16) as tiled kernels, a
// block's elements through shared memory: over lanes on the device, one
// thread per DFT in the emulator only, see gfpf_cuda::params::StageKernels),
// through the generated codelets (generated/codelets.cuh); one kernel scales by
// N^{-1}; one multiplies two transforms pointwise. Data are digit-major (thesis §4.1.4): digit d of element j at
// d·pitch + j, so the threads of a warp, which handle neighbouring DFTs, read
// neighbouring words.
//
// The host prepends the field's `#define`s (see gfpf_field.cuh) and
//   GFPF_RADICES(X)   X(K) for every base size the module must provide.
// Every launch takes one GfpfStageParams by value: the layout is mirrored by
// `StageParams` in crates/gfpf-cuda/src/params.rs (#[repr(C)], all fields
// 64-bit words or arrays of them, so the two agree without padding rules).
#include "gfpf_field.cuh"
#include "gfpf_lanes.cuh"
#include "gfpf_mma.cuh"
#include "generated/codelets.cuh"

#define GFPF_MAX_RADICES 64

struct GfpfStageParams {
    gfpf_u64 src;           // address of the source buffer (digit-major)
    gfpf_u64 dst;           // address of the destination buffer
    gfpf_u64 table;         // twiddle table (element-major), or N^{-1} (scale)
    gfpf_u64 pitch;         // elements per digit plane of src and dst
    gfpf_u64 table_len;     // elements of the table: M = N/2k (at least 1)
    gfpf_u64 threads;       // DFTs (or elements, for scale) in the whole batch
    gfpf_u64 log2_n;        // N = 2^log2_n
    gfpf_u64 log2_blocks;   // A, blocks of K·B elements per transform
    gfpf_u64 log2_stride;   // B, distance between the K inputs of one DFT
    gfpf_u64 step;          // twiddle exponent unit A_t (slot i, offset b: i·b·step)
    gfpf_u64 twiddle_bits;  // log2 M: e = q·M + m
    gfpf_u64 inverse;       // 1 for an inverse plan (roots ω^{-1})
    gfpf_u64 digit_reversed_input; // 1: logical position ℓ read from P(ℓ)
    gfpf_u64 radix_count;   // the plan's radices, for P
    gfpf_u64 radix_log2[GFPF_MAX_RADICES]; // log2 K_1, ..., log2 K_s
    gfpf_u64 tensor_table;  // the pair's twiddle tables for the tensor cores (gfpf_pair_tensor_twiddles)
    gfpf_u64 tensor_split_bits; // 0: tensor_table by (c, j); b: by the exponent's b low bits, then the rest
    gfpf_u64 tensor_scale;  // (host only) the tables' B factors carry N^{-1}
    gfpf_u64 folded_step;   // a tensor-core pair's unit u, its column and row twiddles on the stride-1 stage beside it (0: none)
};

// Element j of a digit-major buffer (`site`: the caller's line, for the
// emulator's count of warp-wide accesses).
GFPF_FN GfpfElem gfpf_load_at(const gfpf_u64* buf, gfpf_u64 pitch, gfpf_u64 j, int site) {
    GfpfElem x;
    for (int d = 0; d < GFPF_K; ++d) x.d[d] = GFPF_GLOBAL_READ_AT(buf, d * pitch + j, site * GFPF_K + d);
    return x;
}

// Element j of an element-major read-only table (twiddles): its k digits
// are neighbours, so the k lanes of a segment reading one twiddle read whole
// sectors.
GFPF_FN GfpfElem gfpf_load_table_at(const gfpf_u64* buf, gfpf_u64 j, int site) {
    GfpfElem x;
    for (int d = 0; d < GFPF_K; ++d) x.d[d] = GFPF_TABLE_READ_AT(buf, j * GFPF_K + d, site * GFPF_K + d);
    return x;
}

GFPF_FN void gfpf_store_at(gfpf_u64* buf, gfpf_u64 pitch, gfpf_u64 j, const GfpfElem& x, int site) {
    for (int d = 0; d < GFPF_K; ++d) GFPF_GLOBAL_WRITE_AT(buf, d * pitch + j, x.d[d], site * GFPF_K + d);
}
#define gfpf_load(buf, pitch, j) gfpf_load_at((buf), (pitch), (j), __LINE__)
#define gfpf_store(buf, pitch, j, x) gfpf_store_at((buf), (pitch), (j), (x), __LINE__)

// The mixed-radix digit reversal P of the plan's radices (Plan::digit_reverse).
GFPF_FN gfpf_u64 gfpf_digit_reverse(const GfpfStageParams& p, gfpf_u64 position) {
    gfpf_u64 out = 0;
    gfpf_u64 weight_log2 = p.log2_n;
    for (gfpf_u64 t = p.radix_count; t-- > 0;) {
        gfpf_u64 bits = p.radix_log2[t];
        weight_log2 -= bits;
        out += (position & ((1ull << bits) - 1)) << weight_log2;
        position >>= bits;
    }
    return out;
}

// The position whose digit reversal is `reversed`: gfpf_digit_reverse's
// inverse (the same digits, read back from the top).
GFPF_FN gfpf_u64 gfpf_digit_unreverse(const GfpfStageParams& p, gfpf_u64 reversed) {
    gfpf_u64 position = 0, shift = 0;
    gfpf_u64 weight_log2 = p.log2_n;
    for (gfpf_u64 t = p.radix_count; t-- > 0;) {
        gfpf_u64 bits = p.radix_log2[t];
        weight_log2 -= bits;
        position += ((reversed >> weight_log2) & ((1ull << bits) - 1)) << shift;
        shift += bits;
    }
    return position;
}

// The twiddle w^(slot·unit) as table[m]·r^shift: e = slot·unit = q·M + m
// (M = 2^twiddle_bits), and r^(±q) a shift by 2k − q for an inverse plan
// (0 where q = 0, so that shift ≠ 0 exactly where q ≠ 0).
GFPF_FN void gfpf_twiddle_exponent(gfpf_u64 slot_unit, gfpf_u64 twiddle_bits, bool inverse, int& shift, gfpf_u64& m) {
    const gfpf_u64 q = slot_unit >> twiddle_bits;
    m = slot_unit & ((1ull << twiddle_bits) - 1);
    shift = q == 0 ? 0 : (inverse ? (int)(2 * GFPF_K - q) : (int)q);
}

// The codelet operations (crates/gfpf-cpu/src/codelets/mod.rs, FieldOps).
struct GfpfFieldOps {
    bool inverse;
    const gfpf_u64* table;
    gfpf_u64 twiddle_bits;
    gfpf_u64 unit;  // b·step: slot i is multiplied by w^(i·unit)

    GFPF_METHOD void butterfly(GfpfElem& a, GfpfElem& b) const { gfpf_add_sub(a, b); }

    // a <- a·ρ^j, ρ = r^(±2k/radix).
    GFPF_METHOD void mul_root_power(GfpfElem& a, int j, int radix) const {
        int forward = j * (2 * GFPF_K / radix);
        int shift = inverse ? 2 * GFPF_K - forward : forward;
        if (shift == 2 * GFPF_K) shift = 0;
        a = gfpf_mul_pow_r(a, shift);
    }

    // a <- a·w^(slot·unit) = a·table[m]·r^(±q).
    GFPF_METHOD void twiddle(GfpfElem& a, int slot) const {
        int shift;
        gfpf_u64 m;
        gfpf_twiddle_exponent((gfpf_u64)slot * unit, twiddle_bits, inverse, shift, m);
        if (m != 0) a = gfpf_mul(a, gfpf_load_table_at(table, m, __LINE__));
        if (shift != 0) a = gfpf_mul_pow_r(a, shift);
    }
};

// Which codelet variant a kernel runs.
#define GFPF_PLAIN 0
#define GFPF_TWIDDLE_INPUTS 1
#define GFPF_TWIDDLE_OUTPUTS 2

template <int R, int VARIANT>
struct GfpfCodelet;

#define GFPF_CODELET_TABLE(R)                                                          \
    template <>                                                                        \
    struct GfpfCodelet<R, GFPF_PLAIN> {                                                \
        template <class O, class E>                                                    \
        GFPF_METHOD static void run(const O& o, E* x) { gfpf_dft_##R(o, x); }              \
    };                                                                                 \
    template <>                                                                        \
    struct GfpfCodelet<R, GFPF_TWIDDLE_INPUTS> {                                       \
        template <class O, class E>                                                    \
        GFPF_METHOD static void run(const O& o, E* x) { gfpf_dft_##R##_twiddle_inputs(o, x); } \
    };                                                                                 \
    template <>                                                                        \
    struct GfpfCodelet<R, GFPF_TWIDDLE_OUTPUTS> {                                      \
        template <class O, class E>                                                    \
        GFPF_METHOD static void run(const O& o, E* x) { gfpf_dft_##R##_twiddle_outputs(o, x); } \
    };
GFPF_CODELET_TABLE(2)
GFPF_CODELET_TABLE(4)
GFPF_CODELET_TABLE(8)
GFPF_CODELET_TABLE(16)
GFPF_CODELET_TABLE(32)
GFPF_CODELET_TABLE(64)
GFPF_CODELET_TABLE(128)
GFPF_CODELET_TABLE(256)

// Where DFT t of a stage sits: t is (item, a, b); its R inputs are
// base + first + i·2^log2_stride, and its twiddles' offset is b.
struct GfpfDftSite {
    gfpf_u64 b, base, first;
};

template <int R>
GFPF_FN GfpfDftSite gfpf_dft_site(const GfpfStageParams& p, gfpf_u64 t) {
    GfpfDftSite s;
    s.b = t & ((1ull << p.log2_stride) - 1);
    const gfpf_u64 a = (t >> p.log2_stride) & ((1ull << p.log2_blocks) - 1);
    const gfpf_u64 item = t >> (p.log2_stride + p.log2_blocks);
    s.base = item << p.log2_n;
    s.first = (a * R << p.log2_stride) + s.b;
    return s;
}

// One base DFT_R of a stage: thread t is DFT (item, a, b).
template <int R, int VARIANT>
GFPF_FN void gfpf_dft_thread(const GfpfStageParams& p, gfpf_u64 t) {
    const gfpf_u64* src = (const gfpf_u64*)p.src;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    const GfpfDftSite site = gfpf_dft_site<R>(p, t);
    const gfpf_u64 b = site.b, base = site.base, first = site.first;
    GfpfElem x[R];
    for (int i = 0; i < R; ++i) {
        gfpf_u64 l = first + ((gfpf_u64)i << p.log2_stride);
        gfpf_u64 at = p.digit_reversed_input ? gfpf_digit_reverse(p, l) : l;
        x[i] = gfpf_load(src, p.pitch, base + at);
    }
    GfpfFieldOps o;
    o.inverse = p.inverse != 0;
    o.table = (const gfpf_u64*)p.table;
    o.twiddle_bits = p.twiddle_bits;
    o.unit = b * p.step;
    GfpfCodelet<R, VARIANT>::run(o, x);
    for (int i = 0; i < R; ++i) gfpf_store(dst, p.pitch, base + first + ((gfpf_u64)i << p.log2_stride), x[i]);
}

// DFTs per block of a tiled stage (gfpf_kernels::tile_dfts): the block's
// elements fill at most GFPF_TILE_WORDS words of shared memory.
template <int R>
struct GfpfTile {
    static constexpr int fit = GFPF_TILE_WORDS / (R * GFPF_K);
    static constexpr int dfts = fit > GFPF_TILE_MAX_DFTS ? GFPF_TILE_MAX_DFTS : fit;
    static constexpr int elements = dfts * R;
};

// A stage of stride 1 (DFT t holds elements t·R … t·R + R − 1 of the batch),
// a block of GfpfTile<R>::dfts threads at a time: the block's tile of elements
// goes through shared memory, digit plane by digit plane, so that consecutive
// threads load and store consecutive words; each thread runs one DFT from it.
template <int R, int VARIANT>
GFPF_FN void gfpf_dft_tile(const GfpfStageParams& p) {
    constexpr int T = GfpfTile<R>::dfts;
    constexpr int W = GfpfTile<R>::elements;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, W * GFPF_K);
    const gfpf_u64* src = (const gfpf_u64*)p.src;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    const gfpf_u64 first_dft = (gfpf_u64)blockIdx.x * T;
    const gfpf_u64 first = first_dft * R;
    const gfpf_u64 total = p.threads * R;
    const gfpf_u64 n_mask = (1ull << p.log2_n) - 1;
    for (int w = threadIdx.x; w < W * GFPF_K; w += T) {
        const int d = w / W, e = w % W;
        const gfpf_u64 g = first + e;
        if (g < total) {
            const gfpf_u64 l = g & n_mask;
            const gfpf_u64 at = p.digit_reversed_input ? gfpf_digit_reverse(p, l) : l;
            tile[d * W + e] = GFPF_GLOBAL_READ(src, d * p.pitch + (g - l) + at);
        }
    }
    __syncthreads();
    const int own = threadIdx.x * R;
    if (first_dft + threadIdx.x < p.threads) {
        GfpfElem x[R];
        for (int i = 0; i < R; ++i)
            for (int d = 0; d < GFPF_K; ++d) x[i].d[d] = tile[d * W + own + i];
        GfpfFieldOps o;
        o.inverse = p.inverse != 0;
        o.table = (const gfpf_u64*)p.table;
        o.twiddle_bits = p.twiddle_bits;
        o.unit = 0;  // stride 1: every DFT is column b = 0
        GfpfCodelet<R, VARIANT>::run(o, x);
        for (int i = 0; i < R; ++i)
            for (int d = 0; d < GFPF_K; ++d) tile[d * W + own + i] = x[i].d[d];
    }
    __syncthreads();
    for (int w = threadIdx.x; w < W * GFPF_K; w += T) {
        const int d = w / W, e = w % W;
        const gfpf_u64 g = first + e;
        if (g < total) GFPF_GLOBAL_WRITE(dst, d * p.pitch + g, (gfpf_u64)tile[d * W + e]);
    }
}

#ifdef GFPF_LANES_AVAILABLE
// The lanes of a lane kernel's warp: all 32. Every thread of its blocks runs
// (those past p.threads, whole segments since p.threads is a multiple of S,
// compute on zeros and load and store nothing), so the mask is a constant
// and the collectives need no convergence check: with the mask of the
// running lanes, NVRTC put 12 checks (MATCH.ANY, BRA.DIV, …) into t8's
// pointwise product alone, 5 instructions in every step of a product's loop
// (nvdisasm, NVRTC 12.9, sm_90, 2026-11-24).
GFPF_FN GfpfLanes gfpf_warp_lanes() {
    GfpfLanes lanes;
    lanes.mask = 0xffffffffu;
    return lanes;
}

// This lane's digits of element j of a digit-major buffer (row h is
// digit(h) planes on), or zeros for a lane past the launch (gfpf_warp_lanes).
GFPF_FN GfpfLaneElem gfpf_lane_load(const gfpf_u64* buf, gfpf_u64 pitch, const GfpfLanes& lanes, gfpf_u64 j,
                                    bool running) {
    GfpfLaneElem x;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h)
        x.d[h] = running ? GFPF_GLOBAL_READ(buf, (gfpf_u64)lanes.digit(h) * pitch + j) : 0;
    return x;
}

// Stores this lane's digits of element j, as gfpf_lane_load reads them.
GFPF_FN void gfpf_lane_store(gfpf_u64* buf, gfpf_u64 pitch, const GfpfLanes& lanes, gfpf_u64 j, const GfpfLaneElem& v) {
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) GFPF_GLOBAL_WRITE(buf, (gfpf_u64)lanes.digit(h) * pitch + j, v.d[h]);
}

// Words of a DFT_R's elements one lane holds.
#define GFPF_LANE_WORDS(R) ((R) * GFPF_LANE_DIGITS)
// Whether DFT_R's lane kernels call the operations out of line (see
// gfpf_lane_mul_outlined): where a lane holds 32 words or more, and
// wherever it holds several digits of an element (k ≥ 64: inlined, t64's
// DFT_8 twiddled kernels spilled ~500 bytes at 64 registers).
#define GFPF_LANE_OUT_OF_LINE(R) (GFPF_LANE_WORDS(R) >= 32 || GFPF_LANE_DIGITS > 1)
// Whether DFT_R's inlined products branch on each product's sign
// (gfpf_lane_column_sums_branching): where a lane holds 16 words, whose
// twiddled kernels spilled 16 bytes with the branch-free sums at t8.
#define GFPF_LANE_MUL_BRANCHING(R) (GFPF_LANE_WORDS(R) >= 16)

// The codelet operations with an element's digits over the lanes of a warp
// segment (gfpf_lanes.cuh): E is this lane's digits.
template <int R>
struct GfpfLaneOps {
    GfpfLanes lanes;
    bool inverse;
    const gfpf_u64* table;
    gfpf_u64 twiddle_bits;
    gfpf_u64 unit;  // b·step: slot i is multiplied by w^(i·unit)

    GFPF_METHOD void butterfly(GfpfLaneElem& a, GfpfLaneElem& b) const {
        const GfpfLanePair out = GFPF_LANE_OUT_OF_LINE(R) ? gfpf_lane_add_sub_outlined(lanes, a, b) : gfpf_lane_add_sub(lanes, a, b);
        a = out.sum;
        b = out.diff;
    }

    // a + b, or a - b where `subtract` (gfpf_lane_add_or_sub).
    GFPF_METHOD GfpfLaneElem add_or_sub(const GfpfLaneElem& a, const GfpfLaneElem& b, bool subtract) const {
        return gfpf_lane_add_or_sub(lanes, a, b, subtract);
    }

    // (a - b)·ρ^j, ρ = r^(±2k/radix) (gfpf_lane_sub_mul_pow_r).
    GFPF_METHOD GfpfLaneElem sub_mul_root_power(const GfpfLaneElem& a, const GfpfLaneElem& b, int j, int radix) const {
        int forward = j * (2 * GFPF_K / radix);
        int shift = inverse ? 2 * GFPF_K - forward : forward;
        if (shift == 2 * GFPF_K) shift = 0;
        return gfpf_lane_sub_mul_pow_r(lanes, a, b, shift);
    }

    // a <- a·ρ^j, ρ = r^(±2k/radix).
    GFPF_METHOD void mul_root_power(GfpfLaneElem& a, int j, int radix) const {
        int forward = j * (2 * GFPF_K / radix);
        int shift = inverse ? 2 * GFPF_K - forward : forward;
        if (shift == 2 * GFPF_K) shift = 0;
        a = GFPF_LANE_OUT_OF_LINE(R) ? gfpf_lane_mul_pow_r_outlined(lanes, a, shift) : gfpf_lane_mul_pow_r(lanes, a, shift);
    }

    // a <- a·w^(slot·unit) = a·table[m]·r^(±q). The segments of a warp hold
    // different DFTs, whose exponents differ: all multiply when any must
    // (table[0] = w^0 = 1 and r^0 leave an element as it is).
    GFPF_METHOD void twiddle(GfpfLaneElem& a, int slot) const {
        int shift;
        gfpf_u64 m;
        gfpf_twiddle_exponent((gfpf_u64)slot * unit, twiddle_bits, inverse, shift, m);
        // The shift first: the product then ends the twiddle, and nothing of
        // the exponent stays live through it.
        if (__any_sync(lanes.mask, shift != 0)) {
            a = GFPF_LANE_OUT_OF_LINE(R) ? gfpf_lane_mul_pow_r_outlined(lanes, a, shift) : gfpf_lane_mul_pow_r(lanes, a, shift);
        }
        if (__any_sync(lanes.mask, m != 0))
        {
            // Row h of the entry: one run of S words.
            GfpfLaneElem w;
#pragma unroll
            for (int h = 0; h < GFPF_LANE_DIGITS; ++h) w.d[h] = GFPF_TABLE_READ(table, m * GFPF_K + lanes.digit(h));
            a = GFPF_LANE_OUT_OF_LINE(R) ? gfpf_lane_mul_outlined(lanes, a, w)
                                         : gfpf_lane_mul<GFPF_LANE_MUL_BRANCHING(R)>(lanes, a, w);
        }
    }
};

// Whether DFT_R's lane codelets twiddle in a loop that is not unrolled
// (gfpf_lane_codelet): where a lane holds 16 words, one digit each (with
// more, the product is out of line, GFPF_LANE_OUT_OF_LINE). t8's DFT_16
// lane kernels took NVRTC 28.7 s for sm_80 and 21–27 s for sm_90 with
// their fifteen twiddles unrolled, 8.4 s of it ptxas's for the twiddled
// inputs' kernel alone (cargo xtask kernels --one t8 16 ARCH segments,
// NVRTC 12.9, project VM, 2026-11-28).
#define GFPF_LANE_TWIDDLE_LOOP(R) (GFPF_LANE_DIGITS == 1 && GFPF_LANE_WORDS(R) == 16)

// DFT_R over lanes on this lane's digits x, the outputs handed to
// store(i, x[i]) one by one. Twiddled inputs: each input twiddled, then the
// plain codelet; twiddled outputs: the plain codelet, then each output
// twiddled as it leaves (the generated _twiddle_inputs and _twiddle_outputs
// codelets are the plain ones preceded or followed by twiddle(x[i], i),
// i ≥ 1). Unrolled, an output's registers free up as it goes. Where
// GFPF_LANE_TWIDDLE_LOOP, the twiddles run in a loop that keeps one copy of
// the product: each pass twiddles x[1] and moves x[2..R-1] down a place (in
// registers: the moves' indices are constants), a twiddled input going to
// x[R-1], so that after R - 1 passes each input is twiddled once and back
// in its place, and each output has left in its turn.
template <int R, int VARIANT, class Store>
GFPF_FN void gfpf_lane_codelet(const GfpfStageParams& p, const GfpfLanes& lanes, gfpf_u64 unit,
                               GfpfLaneElem (&x)[R], Store store) {
    GfpfLaneOps<R> o;
    o.lanes = lanes;
    o.inverse = p.inverse != 0;
    o.table = (const gfpf_u64*)p.table;
    o.twiddle_bits = p.twiddle_bits;
    o.unit = unit;
    constexpr bool inputs = VARIANT == GFPF_TWIDDLE_INPUTS, outputs = VARIANT == GFPF_TWIDDLE_OUTPUTS;
    if constexpr (!GFPF_LANE_TWIDDLE_LOOP(R)) {
        GfpfCodelet<R, outputs ? GFPF_PLAIN : VARIANT>::run(o, x);
#pragma unroll
        for (int i = 0; i < R; ++i) {
            if (outputs && i > 0) o.twiddle(x[i], i);
            store(i, x[i]);
        }
    } else {
        // A pass: x[1]·t_i, x[2..R-1] moved down a place.
        const auto twiddle_next = [&](int i) {
            GfpfLaneElem twiddled = x[1];
            o.twiddle(twiddled, i);
#pragma unroll
            for (int j = 1; j + 1 < R; ++j) x[j] = x[j + 1];
            return twiddled;
        };
        if constexpr (inputs) {
#pragma unroll 1
            for (int i = 1; i < R; ++i) x[R - 1] = twiddle_next(i);
        }
        GfpfCodelet<R, GFPF_PLAIN>::run(o, x);
        if constexpr (outputs) {
            store(0, x[0]);
#pragma unroll 1
            for (int i = 1; i < R; ++i) store(i, twiddle_next(i));
        } else {
#pragma unroll
            for (int i = 0; i < R; ++i) store(i, x[i]);
        }
    }
}

// One base DFT_R of a stage over the S lanes of a warp segment: thread t is
// lane t mod S of DFT (item, a, b) = t / S, indexed as gfpf_dft_thread's.
// The segments of a warp take neighbouring DFTs, so at stride ≥ 32/S one
// warp-wide load or store touches 32/S neighbouring words per digit plane.
template <int R, int VARIANT>
GFPF_FN void gfpf_dft_lanes(const GfpfStageParams& p, gfpf_u64 thread) {
    const GfpfLanes lanes = gfpf_warp_lanes();
    const bool running = thread < p.threads;
    const gfpf_u64* src = (const gfpf_u64*)p.src;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    const GfpfDftSite site = gfpf_dft_site<R>(p, thread / GFPF_LANE_SEGMENT);
    const gfpf_u64 b = site.b, base = site.base, first = site.first;
    // Where this lane's outputs go: one index and one stride held through
    // the codelet (an index into dst, not a pointer of its own, so that the
    // emulator counts sectors from the buffer's start).
    const gfpf_u64 out = base + first;
    const gfpf_u64 stride = 1ull << p.log2_stride;
    // Unrolled, so that x stays in registers.
    GfpfLaneElem x[R];
#pragma unroll
    for (int i = 0; i < R; ++i) {
        gfpf_u64 l = first + ((gfpf_u64)i << p.log2_stride);
        gfpf_u64 at = p.digit_reversed_input ? gfpf_digit_reverse(p, l) : l;
        x[i] = gfpf_lane_load(src, p.pitch, lanes, base + at, running);
    }
    gfpf_lane_codelet<R, VARIANT>(p, lanes, b * p.step, x, [&](int i, GfpfLaneElem v) {
        if (running) gfpf_lane_store(dst, p.pitch, lanes, out + i * stride, v);
    });
}

// The layout of a tile of DFTS DFT_Rs in shared memory (gfpf_kernels::
// tile_layout_words, which mirrors it): the block stages its DFTs' elements
// through shared memory plane by plane, so that its loads and stores of
// global memory use whole sectors. Two layouts, each padded so that the 16
// lanes of a half-warp, reading one 64-bit word each, hit 16 different banks:
// - stride 1 (the block's elements are one run): in each plane (`plane`
//   words, odd) DFT s's R elements start at s·run, run ≡ k mod 16 where a
//   half-warp spans several segments (k < 16), else run = R;
// - strided (the block's DFTs are neighbouring columns b): element i of DFT
//   s at i·dfts + s of a plane of `strided_plane` words, ≡ 16/k mod 16 (odd
//   for k ≥ 16).
// (No constexpr functions: NVRTC compiles device code only.)
template <int R, int DFTS>
struct GfpfTileLayout {
    static constexpr int dfts = DFTS;
    static constexpr int run = GFPF_K >= 16 ? R : R + ((GFPF_K - R) % 16 + 16) % 16;
    static constexpr int pad_to = GFPF_K >= 16 ? 1 : 16 / GFPF_K;
    static constexpr int plane = DFTS * run + 1;
    static constexpr int strided_plane = R * DFTS + (pad_to - R * DFTS % 16 + 16) % 16;
    static constexpr int words = GFPF_K * (plane > strided_plane ? plane : strided_plane);

    // Word of digit d of input i of the tile's DFT s, in the `strided`
    // layout or the stride-1 one.
    GFPF_METHOD static int word(bool strided, int d, int s, int i) {
        return strided ? d * strided_plane + i * DFTS + s : d * plane + s * run + i;
    }
};

// The tile of a stage over lanes (gfpf_kernels::lane_tile): a block of
// `threads` threads, dfts = threads / S DFTs, one a segment; `threads` is
// 128, or 64 or 32 where the larger layout would not fit.
template <int R>
struct GfpfLaneTileThreads {
    static constexpr int threads =
        GfpfTileLayout<R, 128 / GFPF_LANE_SEGMENT>::words <= GFPF_LANE_TILE_WORDS  ? 128
        : GfpfTileLayout<R, 64 / GFPF_LANE_SEGMENT>::words <= GFPF_LANE_TILE_WORDS ? 64
                                                                                   : 32;
};
template <int R>
struct GfpfLaneTile : GfpfTileLayout<R, GfpfLaneTileThreads<R>::threads / GFPF_LANE_SEGMENT> {
    static constexpr int threads = GfpfLaneTileThreads<R>::threads;
};

// Word of a tile holding digit d of input i of the block's DFT s.
template <class Tile>
GFPF_FN int gfpf_tile_word(bool strided, int d, int s, int i) {
    return Tile::word(strided, d, s, i);
}

// Element w of a tile's load or store order (consecutive w, consecutive
// words of a digit plane in that layout): digit d of input i of DFT s.
struct GfpfLaneTileElement {
    int d, s, i;
};

template <class Tile, int R>
GFPF_FN GfpfLaneTileElement gfpf_tile_element(bool strided, int w) {
    constexpr int D = Tile::dfts, W = D * R;
    const int d = w / W, e = w % W;
    return {d, strided ? e % D : e / R, strided ? e / D : e % R};
}

// log2 of a power of two N, when the code is compiled.
template <int N>
struct GfpfLog2 {
    static_assert(N > 1 && (N & (N - 1)) == 0, "a power of two");
    static constexpr int value = 1 + GfpfLog2<N / 2>::value;
};
template <>
struct GfpfLog2<1> {
    static constexpr int value = 0;
};

// Which DFTs the block of a tiled stage takes, and where their inputs and
// outputs sit in global memory:
// - stride 1, natural input: D neighbouring DFTs, whose elements are one run;
// - stride 1 from a digit-reversed input (never in place: gfpf_cuda::params)
//   whose lowest digit is the stage's radix ("gathered"): the D DFTs whose
//   reversed inputs are neighbours. DFT s reads positions
//   rev(s·R + i) = i·N/R + rev(s·R), so the block takes the DFTs with
//   rev(s·R) = c, c = c0 … c0 + D − 1: input i of all of them is one run of D
//   words (whole sectors), and each DFT's outputs s·R … s·R + R − 1 are one
//   run of R words. The inputs go to the strided layout;
// - strided (natural input, `strided_tiles`): neighbouring columns b of one
//   block a, so element i of each is one run of D words.
// SPREAD (stride 1 only): where the stage is not gathered, the block's D
// DFTs are R² apart (DFT s of block b: (b div R²)·D·R² + s·R² + b mod R²),
// each still one run of R words: gfpf_dft_element_team_folded, whose
// block's DFTs share their index modulo R².
template <class Tile, int R, bool SPREAD = false>
struct GfpfTileSites {
    static constexpr int R_LOG2 = GfpfLog2<R>::value;
    bool strided, gathered, strided_in;
    gfpf_u64 dfts, first_dft;

    GFPF_METHOD GfpfTileSites(const GfpfStageParams& p, int threads_per_dft, bool strided_tiles) {
        strided = strided_tiles && p.log2_stride != 0;
        gathered = !strided && p.digit_reversed_input && p.radix_log2[p.radix_count - 1] == R_LOG2;
        strided_in = strided || gathered;
        dfts = p.threads / threads_per_dft;
        first_dft = (gfpf_u64)blockIdx.x * Tile::dfts;
    }

    // The stage's index of the block's DFT s.
    GFPF_METHOD gfpf_u64 dft(int s) const {
        if (!SPREAD || gathered) return first_dft + s;
        constexpr gfpf_u64 apart = (gfpf_u64)R * R;
        return (gfpf_u64)blockIdx.x / apart * (Tile::dfts * apart) + s * apart + blockIdx.x % apart;
    }

    // Where input (`input`) or output i of the stage's DFT g sits (digit
    // plane 0). Recomputed for the stores, not held through the DFT
    // (registers).
    GFPF_METHOD gfpf_u64 global_at(const GfpfStageParams& p, gfpf_u64 g, int i, bool input) const {
        if (strided) {
            const GfpfDftSite first_site = gfpf_dft_site<R>(p, first_dft);
            return first_site.base + first_site.first + (g - first_dft) + ((gfpf_u64)i << p.log2_stride);
        }
        if (gathered) {
            // The block's DFT g is column c of its transform (c ranges over N/R).
            const gfpf_u64 columns_log2 = p.log2_n - R_LOG2;
            const gfpf_u64 c = g & ((1ull << columns_log2) - 1);
            return ((g - c) << R_LOG2) + (input ? ((gfpf_u64)i << columns_log2) + c : gfpf_digit_unreverse(p, c) + i);
        }
        const gfpf_u64 l = g * R + i, position = l & ((1ull << p.log2_n) - 1);
        return input && p.digit_reversed_input ? (l - position) + gfpf_digit_reverse(p, position) : l;
    }

    // The block loads its DFTs' inputs into the tile (consecutive threads,
    // consecutive words of a digit plane), then waits for all of them.
    template <class Array>
    GFPF_METHOD void load(const GfpfStageParams& p, Array& tile) const {
        const gfpf_u64* src = (const gfpf_u64*)p.src;
        for (int w = threadIdx.x; w < Tile::dfts * R * GFPF_K; w += Tile::threads) {
            const GfpfLaneTileElement t = gfpf_tile_element<Tile, R>(strided_in, w);
            if (dft(t.s) < dfts) {
                tile[gfpf_tile_word<Tile>(strided_in, t.d, t.s, t.i)] =
                    GFPF_GLOBAL_READ(src, t.d * p.pitch + global_at(p, dft(t.s), t.i, true));
            }
        }
        __syncthreads();
    }

    // After a barrier, the block stores its DFTs' outputs, output i of DFT s
    // from tile word word(d, s, i), in the order of the `strided` layout.
    template <class Array, class Word>
    GFPF_METHOD void store(const GfpfStageParams& p, Array& tile, Word word) const {
        gfpf_u64* dst = (gfpf_u64*)p.dst;
        __syncthreads();
        for (int w = threadIdx.x; w < Tile::dfts * R * GFPF_K; w += Tile::threads) {
            const GfpfLaneTileElement t = gfpf_tile_element<Tile, R>(strided, w);
            if (dft(t.s) < dfts) {
                GFPF_GLOBAL_WRITE(dst, t.d * p.pitch + global_at(p, dft(t.s), t.i, false),
                                  (gfpf_u64)tile[word(t.d, t.s, t.i)]);
            }
        }
    }
};

// This lane's digits of an element in a tile, row h at tile[own[h] + at],
// or zeros for a lane past the launch (which reads no tile word).
template <class Array>
GFPF_FN GfpfLaneElem gfpf_tile_read(Array& tile, const int (&own)[GFPF_LANE_DIGITS], int at, bool running) {
    GfpfLaneElem e;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) e.d[h] = running ? (gfpf_u64)tile[own[h] + at] : 0;
    return e;
}
// Writes them back as gfpf_tile_read reads them (nothing past the launch).
template <class Array>
GFPF_FN void gfpf_tile_write(Array& tile, const int (&own)[GFPF_LANE_DIGITS], int at, bool running,
                             const GfpfLaneElem& e) {
    if (!running) return;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) tile[own[h] + at] = e.d[h];
}

// A stage over lanes, a block of GfpfLaneTile<R>::threads threads at a time:
// the block loads its DFTs' elements into shared memory (GfpfTileSites),
// each warp segment runs one DFT from it as gfpf_dft_lanes does, and the
// block stores the tile back the same way. Gathered inputs (strided layout)
// are all read before any output overwrites them, the outputs going to the
// stride-1 layout.
template <int R, int VARIANT>
GFPF_FN void gfpf_dft_lanes_tile(const GfpfStageParams& p) {
    using Tile = GfpfLaneTile<R>;
    constexpr int D = Tile::dfts;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, Tile::words);
    // Strided tiles only where the host launches them (k ≥ 16): below, the
    // kernel keeps b = 0 a constant (t8's DFT_16 with twiddled outputs
    // spilled 8 bytes otherwise).
    const GfpfTileSites<Tile, R> sites(p, GFPF_LANE_SEGMENT, GFPF_STRIDED_LANE_TILES);
    const bool strided = sites.strided, strided_in = sites.strided_in;
    sites.load(p, tile);
    const gfpf_u64 thread = (gfpf_u64)blockIdx.x * Tile::threads + threadIdx.x;
    const bool running = thread < p.threads;
    // Every lane runs the codelet (gfpf_warp_lanes); those past p.threads on
    // zeros, reading and writing no tile word.
    const GfpfLanes lanes = gfpf_warp_lanes();
    GfpfLaneElem x[R];
    {
        // This lane's inputs: row h of input i at tile[own[h] + i·step].
        const int step = strided_in ? D : 1;
        int own[GFPF_LANE_DIGITS];
#pragma unroll
        for (int h = 0; h < GFPF_LANE_DIGITS; ++h)
            own[h] = gfpf_tile_word<Tile>(strided_in, lanes.digit(h), threadIdx.x / GFPF_LANE_SEGMENT, 0);
#pragma unroll
        for (int i = 0; i < R; ++i) x[i] = gfpf_tile_read(tile, own, i * step, running);
    }
    // Gathered: every input read before any output overwrites it.
    if (sites.gathered) __syncthreads();
    {
        // This lane's outputs, in the `strided` layout.
        const int step = strided ? D : 1;
        int own[GFPF_LANE_DIGITS];
#pragma unroll
        for (int h = 0; h < GFPF_LANE_DIGITS; ++h)
            own[h] = gfpf_tile_word<Tile>(strided, lanes.digit(h), threadIdx.x / GFPF_LANE_SEGMENT, 0);
        // Stride 1: column b = 0.
        const gfpf_u64 unit = strided ? gfpf_dft_site<R>(p, thread / GFPF_LANE_SEGMENT).b * p.step : 0;
        gfpf_lane_codelet<R, VARIANT>(p, lanes, unit, x, [&](int i, const GfpfLaneElem& v) {
            gfpf_tile_write(tile, own, i * step, running, v);
        });
    }
    sites.store(p, tile, [&](int d, int s, int i) { return gfpf_tile_word<Tile>(strided, d, s, i); });
}

// The tile of a stage whose DFTs are each shared by a team of segments
// (gfpf_kernels::team_tile, which mirrors it): a team is min(R/2, 128/S)
// segments, so that each takes one butterfly of every layer where four
// warps' lanes allow; four DFTs a block where a team fills a warp or more
// (four columns of a strided stage: whole sectors, and at most 512
// threads), else 128 threads' worth. A split team (gfpf_kernels::
// split_team_tile) is R segments, one element each, where they fit four
// warps (R·S ≤ 128): each twiddles its own element and takes one side of
// a butterfly in every layer (gfpf_team_dft_halves), half the products
// and carry chains on a lane's path with twice the threads, for the
// stages whose launch fits one wave of the device.
template <int R>
struct GfpfTeamSize {
    static constexpr int most = 128 / GFPF_LANE_SEGMENT;
    static constexpr int team = R / 2 < most ? R / 2 : most;
    static constexpr int lanes = GFPF_LANE_SEGMENT * team;
};
template <int R, int TEAM>
struct GfpfTeamTileOf : GfpfTileLayout<R, (GFPF_LANE_SEGMENT * TEAM >= 32 ? 4 : 128 / (GFPF_LANE_SEGMENT * TEAM))> {
    static constexpr int team = TEAM;
    static constexpr int lanes = GFPF_LANE_SEGMENT * TEAM;
    static constexpr int threads = (lanes >= 32 ? 4 : 128 / lanes) * lanes;
    // Whether a team spans warps: its layers then meet at __syncthreads.
    static constexpr bool across_warps = lanes > 32;
};
template <int R>
using GfpfTeamTile = GfpfTeamTileOf<R, GfpfTeamSize<R>::team>;
template <int R>
using GfpfSplitTeamTile = GfpfTeamTileOf<R, R>;

// i with its log2(R) bits reversed.
template <int R>
GFPF_FN int gfpf_bit_reverse(int i) {
    int out = 0;
#pragma unroll
    for (int bit = 1; bit < R; bit <<= 1) out = (out << 1) | ((i & bit) ? 1 : 0);
    return out;
}

// The team's meeting: __syncthreads where it spans warps, else __syncwarp.
template <class Tile>
GFPF_FN void gfpf_team_meet() {
    if (Tile::across_warps) {
        __syncthreads();
    } else {
        __syncwarp();
    }
}

// One DFT_R by a team of R segments, one element each: segment `member`
// twiddles element `member` (inputs) or the output at place `member`
// (outputs), and in every layer takes one side of butterfly member mod
// R/2: the sum where member < R/2, else the difference times the layer's
// root. Where a warp holds segments of both sides (R/2·S below 32 lanes),
// the sums' segments shift by r^0 beside the differences', so that the
// warp's collectives have all its lanes. A layer reads both inputs of every
// butterfly before any segment writes its side.
template <class Tile, int R, int VARIANT, class Array>
GFPF_FN void gfpf_team_dft_halves(const GfpfLaneOps<2>& o, Array& tile, const int (&own)[GFPF_LANE_DIGITS], int step,
                                  int member, bool running) {
    if (VARIANT == GFPF_TWIDDLE_INPUTS) {
        GfpfLaneElem e = gfpf_tile_read(tile, own, member * step, running);
        o.twiddle(e, member);  // slot 0: w^0, left as it is
        gfpf_tile_write(tile, own, member * step, running, e);
        gfpf_team_meet<Tile>();
    }
    const bool difference = member >= R / 2;
    const int b = member & (R / 2 - 1);
    // Whether each warp's segments all take one side (R/2·S lanes a side).
    constexpr bool sides_a_warp = (R / 2) * GFPF_LANE_SEGMENT % 32 == 0;
#pragma unroll 1
    for (int h = R / 2; h >= 1; h /= 2) {
        const int j = b & (h - 1), i0 = 2 * (b - j) + j, i1 = i0 + h;
        const GfpfLaneElem x = gfpf_tile_read(tile, own, i0 * step, running);
        const GfpfLaneElem y = gfpf_tile_read(tile, own, i1 * step, running);
        gfpf_team_meet<Tile>();
        // The difference times ρ^j, ρ = r^(k/h) = ω_{2h}, the layer's root:
        // in one chain where each warp holds one side, else the sums shift
        // by r^0 beside the differences' shift.
        GfpfLaneElem side;
        if (sides_a_warp) {
            side = difference ? o.sub_mul_root_power(x, y, j, 2 * h) : gfpf_lane_add(o.lanes, x, y);
        } else {
            side = o.add_or_sub(x, y, difference);
            if (h > 1) o.mul_root_power(side, difference ? j : 0, 2 * h);
        }
        gfpf_tile_write(tile, own, (difference ? i1 : i0) * step, running, side);
        gfpf_team_meet<Tile>();
    }
    if (VARIANT == GFPF_TWIDDLE_OUTPUTS) {
        GfpfLaneElem e = gfpf_tile_read(tile, own, member * step, running);
        o.twiddle(e, gfpf_bit_reverse<R>(member));
        gfpf_tile_write(tile, own, member * step, running, e);
    }
}

// One DFT_R of a tile computed by the team of Tile::team segments that
// segment `member` belongs to: this lane's digits of element i at
// tile[own[h] + i·step]. With R/2 or fewer segments (a pair's), segment
// `member` twiddles (the variant's inputs or outputs, w^(slot·unit)) and
// takes butterflies member, member + team, … of every layer of
// gfpf_dft_team's network (outputs in bit-reversed places); with R (the
// one-stage kernels' where they fit), gfpf_team_dft_halves. The team meets
// between layers (gfpf_team_meet). Every lane of the block calls it, those
// past the launch (`running` false) on zeros, reading and writing nothing.
template <class Tile, int R, int VARIANT, class Array>
GFPF_FN void gfpf_team_dft(const GfpfStageParams& p, Array& tile, const GfpfLanes& lanes,
                           const int (&own)[GFPF_LANE_DIGITS], int step, int member, gfpf_u64 unit, bool running) {
    constexpr int P = Tile::team;
    // A lane holds one or two elements: the operations inlined where a lane
    // holds one digit of each (GfpfLaneOps<2>), out of line from k = 64.
    GfpfLaneOps<2> o;
    o.lanes = lanes;
    o.inverse = p.inverse != 0;
    o.table = (const gfpf_u64*)p.table;
    o.twiddle_bits = p.twiddle_bits;
    o.unit = unit;
    if constexpr (P == R) {
        gfpf_team_dft_halves<Tile, R, VARIANT>(o, tile, own, step, member, running);
        return;
    }
    // Every loop below takes the same number of turns on every segment of the
    // block (P divides R/2), so that each collective has all 32 lanes of its
    // warp and each __syncthreads every thread.
    // Segment `member` twiddles the inputs i ≡ member (mod P), the ones its
    // butterflies of the first layer take (i and i + R/2): no barrier
    // between.
    if (VARIANT == GFPF_TWIDDLE_INPUTS) {
#pragma unroll 1
        for (int i = member; i < R; i += P) {
            GfpfLaneElem e = gfpf_tile_read(tile, own, i * step, running);
            o.twiddle(e, i);  // slot 0: w^0, left as it is
            gfpf_tile_write(tile, own, i * step, running, e);
        }
    }
#pragma unroll 1
    for (int h = R / 2; h >= 1; h /= 2) {
#pragma unroll 1
        for (int b = member; b < R / 2; b += P) {
            const int j = b & (h - 1), i0 = 2 * (b - j) + j, i1 = i0 + h;
            GfpfLaneElem x = gfpf_tile_read(tile, own, i0 * step, running);
            GfpfLaneElem y = gfpf_tile_read(tile, own, i1 * step, running);
            // The difference times ρ^j, ρ = r^(k/h) = ω_{2h}, the layer's
            // root (a shift by r^0 where j = 0, so that every segment
            // shifts): the sum alone and the difference with its shift in
            // one chain where the operations are inlined (168 instructions
            // a lane at t8 against 265 for the butterfly and the shift);
            // the butterfly and the shift out of line from k = 64.
            // The sum is stored before the difference is made: held
            // through it, the plain kernels spilled 4 bytes at 32 registers.
            if (h > 1 && !GFPF_LANE_OUT_OF_LINE(2)) {
                gfpf_tile_write(tile, own, i0 * step, running, gfpf_lane_add(o.lanes, x, y));
                y = o.sub_mul_root_power(x, y, j, 2 * h);
            } else {
                o.butterfly(x, y);
                if (h > 1) o.mul_root_power(y, j, 2 * h);
                gfpf_tile_write(tile, own, i0 * step, running, x);
            }
            gfpf_tile_write(tile, own, i1 * step, running, y);
        }
        gfpf_team_meet<Tile>();
    }
    if (VARIANT == GFPF_TWIDDLE_OUTPUTS) {
#pragma unroll 1
        for (int at = member; at < R; at += P) {
            GfpfLaneElem e = gfpf_tile_read(tile, own, at * step, running);
            o.twiddle(e, gfpf_bit_reverse<R>(at));
            gfpf_tile_write(tile, own, at * step, running, e);
        }
    }
}

// A stage over lanes whose DFTs are each computed by a team of segments: the
// block loads its tile (GfpfTileSites, as gfpf_dft_lanes_tile), then each
// team transforms its DFT in place there, a radix-2 network
// (Gentleman–Sande: outputs in bit-reversed places) whose butterflies and
// twiddles are dealt round the team's segments, the team meeting between
// layers (__syncwarp, or __syncthreads where it spans warps). A lane holds
// two elements, not R, and a DFT's serial path is 1/team of a segment's:
// the latency that bounds small transforms, and registers enough for more
// resident warps (cargo xtask kernels --report). The roots of a layer of
// half-size h are powers of r^(k/h) (shifts).
template <int R, int VARIANT, class Tile = GfpfTeamTile<R>>
GFPF_FN void gfpf_dft_team(const GfpfStageParams& p) {
    constexpr int P = Tile::team;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, Tile::words);
    // The tile's sites are taken again for the stores, not held through the
    // DFT (registers: t8's DFT_16 with twiddled inputs spilled 8 bytes at 40).
    bool strided_in, strided;
    gfpf_u64 first_dft;
    {
        const GfpfTileSites<Tile, R> sites(p, GFPF_LANE_SEGMENT * P, true);
        strided_in = sites.strided_in;
        strided = sites.strided;
        first_dft = sites.first_dft;
        sites.load(p, tile);
    }
    const gfpf_u64 thread = (gfpf_u64)blockIdx.x * Tile::threads + threadIdx.x;
    const bool running = thread < p.threads;
    const GfpfLanes lanes = gfpf_warp_lanes();
    const int segment = threadIdx.x / GFPF_LANE_SEGMENT;
    const int s = segment / P, member = segment % P;
    // This lane's digits of element i of DFT s: tile[own[h] + i·step].
    int own[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) own[h] = gfpf_tile_word<Tile>(strided_in, lanes.digit(h), s, 0);
    const int step = strided_in ? Tile::dfts : 1;
    // Stride 1: column b = 0, no twiddles.
    const gfpf_u64 unit = strided ? gfpf_dft_site<R>(p, first_dft + s).b * p.step : 0;
    gfpf_team_dft<Tile, R, VARIANT>(p, tile, lanes, own, step, member, unit, running);
    // Output i of DFT s sits at its bit-reversed place, in the inputs' layout.
    const GfpfTileSites<Tile, R> sites(p, GFPF_LANE_SEGMENT * P, true);
    sites.store(p, tile, [&](int d, int s_out, int i) {
        return gfpf_tile_word<Tile>(strided_in, d, s_out, gfpf_bit_reverse<R>(i));
    });
}

// ---- whole elements in shared memory, one thread each ---------------------
//
// The element teams' operations (gfpf_dft_element_team): an element of a
// tile is digit d at tile[at + d·plane]; one thread runs a whole operation
// on it, the algorithms of gfpf_field.cuh (canonical results, bit for bit),
// reading and writing the digits in place. A lane product spreads one
// product over S lanes, each running the whole tail (divisions, lookaheads)
// for its digit; here a product's k carry digits run once. Only where an
// element fits a thread's registers (ELEMENT_TEAMS_MAX_K).

// The operations below: inlined on the device (the element in registers),
// out of line in the host emulator, one copy each rather than one a kernel
// (it compiles every preset's kernels; speed on the host does not matter).
#ifdef GFPF_HOST_EMULATION
#define GFPF_TILE_OP static __attribute__((noinline))
#else
#define GFPF_TILE_OP __device__ __forceinline__
#endif

// x − 1 in place (digits below r, the top one possibly r), as gfpf_decrement.
template <class Array>
GFPF_FN void gfpf_tile_decrement(Array& tile, int x, int plane) {
    for (int d = 0; d < GFPF_K; ++d) {
        const gfpf_u64 v = tile[x + d * plane];
        if (v != 0) {
            tile[x + d * plane] = v - 1;
            return;
        }
        tile[x + d * plane] = GFPF_R_VALUE - 1;
    }
    // 0 − 1 = p − 1: top digit r, the others 0.
    for (int d = 0; d < GFPF_K; ++d) tile[x + d * plane] = d == GFPF_K - 1 ? GFPF_R_VALUE : 0;
}

// x + 1 in place (digits below r), as gfpf_increment: r^k − 1 + 1 gives p − 1.
// A carry past a digit (one of r − 1) is the rare branch: the probes then
// count the first step alone, the common path (with the walk counted, the
// shifts' charges took its k steps: t8's shift 140 instructions and
// butterfly with its shift 222, where 95 and 179; the device's code the
// same, 2026-11-30).
template <class Array>
GFPF_FN void gfpf_tile_increment(Array& tile, int x, int plane) {
    for (int d = 0; d < GFPF_K; ++d) {
        const gfpf_u64 v = tile[x + d * plane] + 1;
        if (!GFPF_RARE(v == GFPF_R_VALUE)) {
            tile[x + d * plane] = v;
            return;
        }
        tile[x + d * plane] = d == GFPF_K - 1 ? GFPF_R_VALUE : 0;
    }
}

// x − 1 in place where x's digit 0 is in a register (`digit_0`): one store
// but where digit 0 is 0, the walk of gfpf_tile_decrement then (NVRTC
// loaded the digits again for the walk where a butterfly had just written
// them).
template <class Array>
GFPF_FN void gfpf_tile_decrement_from_digit_0(Array& tile, int x, gfpf_u64 digit_0, int plane) {
    if (GFPF_RARE(digit_0 == 0)) {
        gfpf_tile_decrement(tile, x, plane);
    } else {
        tile[x] = digit_0 - 1;
    }
}

// x + 1 likewise: one store but where digit 0 is r − 1.
template <class Array>
GFPF_FN void gfpf_tile_increment_from_digit_0(Array& tile, int x, gfpf_u64 digit_0, int plane) {
    if (GFPF_RARE(digit_0 == GFPF_R_VALUE - 1)) {
        gfpf_tile_increment(tile, x, plane);
    } else {
        tile[x] = digit_0 + 1;
    }
}

// (x, y) ← (x + y, x − y) in place, as gfpf_add_sub.
template <class Array>
GFPF_TILE_OP void gfpf_tile_add_sub(Array& tile, int x, int y, int plane) {
    GFPF_COUNT_OP(GFPF_OP_TILE_ADD_SUB);
    gfpf_u64 carry = 0, borrow = 0, sum_0 = 0, difference_0 = 0;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) {
        const gfpf_u64 a = tile[x + d * plane], b = tile[y + d * plane];
        const gfpf_u64 sum = gfpf_add_digit(a, b, carry), difference = gfpf_sub_digit(a, b, borrow);
        tile[x + d * plane] = sum;
        tile[y + d * plane] = difference;
        if (d == 0) {
            sum_0 = sum;
            difference_0 = difference;
        }
    }
    // A carry out of digit k − 1 is r^k = −1; a borrow is +1.
    if (carry) gfpf_tile_decrement_from_digit_0(tile, x, sum_0, plane);
    if (borrow) gfpf_tile_increment_from_digit_0(tile, y, difference_0, plane);
}

// Digit t of a − b into the tile, with the borrow of the chain.
template <class Array>
GFPF_FN void gfpf_tile_sub_digit(Array& tile, int at, gfpf_u64 a, gfpf_u64 b, gfpf_u64& borrow) {
    tile[at] = gfpf_sub_digit(a, b, borrow);
}

// x·r^i in place for 0 ≤ i < 2k, as gfpf_mul_pow_r: the digits read in
// their rotated order into registers (an index known only at run time
// addresses shared memory, not registers), then one subtraction.
template <class Array>
GFPF_TILE_OP void gfpf_tile_mul_pow_r(Array& tile, int x, int plane, int i) {
    GFPF_COUNT_OP(GFPF_OP_TILE_MUL_POW_R);
    const int s = i >= GFPF_K ? i - GFPF_K : i;
    const bool negate = i >= GFPF_K;
    if (GFPF_RARE(tile[x + (GFPF_K - 1) * plane] == GFPF_R_VALUE)) {
        // x = −1: the result is −r^i, i.e. r^s for i ≥ k, else p − r^s.
#pragma unroll
        for (int t = 0; t < GFPF_K; ++t) {
            gfpf_u64 v;
            if (negate) {
                v = t == s ? 1 : 0;
            } else if (s == 0) {
                v = t == GFPF_K - 1 ? GFPF_R_VALUE : 0;
            } else {
                // r^k + 1 − r^s: digits s … k − 1 are r − 1, digit 0 is 1.
                v = t == 0 ? 1 : (t >= s ? GFPF_R_VALUE - 1 : 0);
            }
            tile[x + t * plane] = v;
        }
        return;
    }
    // Digit t of the rotation is x_{t − s mod k}.
    gfpf_u64 v[GFPF_K];
#pragma unroll
    for (int t = 0; t < GFPF_K; ++t) v[t] = tile[x + ((t - s) & (GFPF_K - 1)) * plane];
    // x·r^s = A − B: A the digits t ≥ s, B those that wrapped (t < s); B − A
    // for i ≥ k.
    gfpf_u64 borrow = 0;
#pragma unroll
    for (int t = 0; t < GFPF_K; ++t) {
        const bool subtracted = (t < s) != negate;
        gfpf_tile_sub_digit(tile, x + t * plane, subtracted ? 0 : v[t], subtracted ? v[t] : 0, borrow);
    }
    // A borrow out of digit k − 1 added r^k = −1: add 1 back.
    if (borrow) gfpf_tile_increment(tile, x, plane);
}

// A butterfly's shift r^s for gfpf_tile_add_sub_shift_chains: known only
// at run time (GfpfRunTimeShift) or when the code is compiled
// (GfpfFixedShift); `flip`: each digit's difference the other way round.
struct GfpfRunTimeShift {
    int shift;
    bool flipped;
    GFPF_METHOD int s() const { return shift; }
    GFPF_METHOD bool flip() const { return flipped; }
};
template <int S>
struct GfpfFixedShift {
    GFPF_METHOD constexpr int s() const { return S; }
    GFPF_METHOD constexpr bool flip() const { return false; }
};

// The two carry chains of a butterfly with its shift, x and y's digits
// read as u from `first` and v from `second` (their top digits given,
// neither r): the sum u + v to x, and the difference (u − v)·r^s to y,
// digit d of it v − u where d wraps past the top (d ≥ k − s) unless
// `shift.flip()`, u − v elsewhere.
template <class Shift, class Array>
GFPF_FN void gfpf_tile_add_sub_shift_chains(Array& tile, int x, int y, int first, int second, gfpf_u64 first_top,
                                            gfpf_u64 second_top, int plane, const Shift& shift) {
    const int s = shift.s();
    // The digit of x and y that the difference's chain starts at (its
    // digit 0 once shifted), past the last (k) where s = 0.
    const int start = GFPF_K - s;
    gfpf_u64 difference[GFPF_K];
    gfpf_u64 carry = 0, borrow = 0, top_borrow = 0, sum_0 = 0;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) {
        const gfpf_u64 u = d == GFPF_K - 1 ? first_top : tile[first + d * plane];
        const gfpf_u64 v = d == GFPF_K - 1 ? second_top : tile[second + d * plane];
        const gfpf_u64 sum = gfpf_add_digit(u, v, carry);
        tile[x + d * plane] = sum;
        if (d == 0) sum_0 = sum;
        if (d == start) {
            top_borrow = borrow;
            borrow = 0;
        }
        // Digit d goes to d + s: wrapped past the top where d ≥ start, so
        // subtracted. One select a word for both operands where the shift
        // is known at run time (the two apart took 28 instructions more at
        // t8).
        const bool v_minus_u = (d >= start) != shift.flip();
        difference[d] = gfpf_sub_digit(v_minus_u ? v : u, v_minus_u ? u : v, borrow);
    }
    if (start != GFPF_K) {
        difference[0] = gfpf_sub_digit(difference[0], 0, borrow);
        if (GFPF_RARE(borrow)) {
#pragma unroll
            for (int d = 1; d < GFPF_K; ++d)
                if (d < start) difference[d] = gfpf_sub_digit(difference[d], 0, borrow);
        }
    }
    // A carry out of digit k − 1 is r^k = −1.
    if (carry) gfpf_tile_decrement_from_digit_0(tile, x, sum_0, plane);
    // What crossed past the top, one of the two at most, added r^k = −1
    // too many: 1 back.
    top_borrow |= borrow;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) tile[y + ((d + s) & (GFPF_K - 1)) * plane] = difference[d];
    if (top_borrow) gfpf_tile_increment(tile, y, plane);
}

// The butterflies with a shift (gfpf_tile_add_sub_mul_pow_r,
// gfpf_tile_add_sub_uniform_shift): the top digits of `first` and
// `second` (x and y in the order their chains read them), and where
// either is r (−1, which a rotation would move) the two operations apart,
// (x, y) ← (x + y, (x − y)·r^i): true then, the butterfly done.
template <class Array>
GFPF_FN bool gfpf_tile_add_sub_shift_rare(Array& tile, int x, int y, int first, int second, int plane, int i,
                                          gfpf_u64& first_top, gfpf_u64& second_top) {
    first_top = tile[first + (GFPF_K - 1) * plane];
    second_top = tile[second + (GFPF_K - 1) * plane];
    if (GFPF_RARE(first_top == GFPF_R_VALUE || second_top == GFPF_R_VALUE)) {
        gfpf_tile_add_sub(tile, x, y, plane);
        gfpf_tile_mul_pow_r(tile, y, plane, i);
        return true;
    }
    return false;
}

// (x, y) ← (x + y, (x − y)·r^i) in place for 0 ≤ i < 2k: gfpf_tile_add_sub
// then gfpf_tile_mul_pow_r in two carry chains instead of three, each digit
// of x and y read once. As a shift writes x·r^s = A(x) − B(x) (the digits
// shifted up less those wrapped past r^k, s = i mod k), (x − y)·r^s =
// (A(x) + B(y)) − (B(x) + A(y)), and each bracket takes every digit from
// one of the two elements: one subtraction, the two swapped for i ≥ k. Both
// chains run over the digits in order as they are read; the difference's
// starts at digit (k − s) mod k (its digit 0 once shifted), so the borrow
// that crosses there is its top one, and the borrow out of digit k − 1
// goes on into digit 0 after the loop (one digit, and further about never).
// The sum is written as it is made; the difference, written shifted over y,
// waits in registers until y is read. Before, the difference was made from
// rotated reads and the sum read both elements again: 48 words a butterfly
// where it is 32, and t8 2^20's pair launches took 13% of their shared
// wavefronts on those second reads (gpu-model --transform t8:20 --sites);
// the chain's restart and the shifted stores cost 39 instructions more at
// t8 (383 against 344, probe kernels; NVRTC 12.9, sm_90, 2026-11-29).
// Where x or y is −1 (top digit r, which a rotation would
// move) the two operations run apart. With `y_first` the loads take y
// before x, which both orders allow: a caller picks it by lane so that a
// warp's first loads fall two to a bank pair.
template <class Array>
GFPF_TILE_OP void gfpf_tile_add_sub_mul_pow_r(Array& tile, int x, int y, int plane, int i, bool y_first = false) {
    const int first = y_first ? y : x, second = y_first ? x : y;
    gfpf_u64 first_top, second_top;
    if (gfpf_tile_add_sub_shift_rare(tile, x, y, first, second, plane, i, first_top, second_top)) return;
    GFPF_COUNT_OP(GFPF_OP_TILE_ADD_SUB_MUL_POW_R);
    const int s = i >= GFPF_K ? i - GFPF_K : i;
    // Digit d's difference is v − u where it wraps past the top, the other
    // way for i ≥ k; u is y's digit where y_first.
    gfpf_tile_add_sub_shift_chains(tile, x, y, first, second, first_top, second_top, plane,
                                   GfpfRunTimeShift{s, (i >= GFPF_K) != y_first});
}

// gfpf_tile_add_sub_mul_pow_r's common path where the shift s = i mod k
// is known when the code is compiled (`S`): the chain's restart, which
// operand each digit subtracts and where each digit of the difference goes
// are then fixed, where a shift known only at run time selects all three
// digit by digit. For i ≥ k the difference is (y − x)·r^s: `first` and
// `second` are x and y, or y and x (their top digits read, neither r), and
// the sum, which either order makes, still goes to x.
template <int S, class Array>
GFPF_FN void gfpf_tile_add_sub_shift(Array& tile, int x, int y, int first, int second, gfpf_u64 first_top,
                                     gfpf_u64 second_top, int plane) {
    static_assert(S >= 0 && S < GFPF_K, "a shift below k");
    GFPF_COUNT_OP(GFPF_OP_TILE_ADD_SUB_SHIFT);
    gfpf_tile_add_sub_shift_chains(tile, x, y, first, second, first_top, second_top, plane, GfpfFixedShift<S>{});
}

// The branch to gfpf_tile_add_sub_shift<s>, s = i mod k among LO, LO +
// STEP, … below HI, halving the range each step.
template <int LO, int HI, int STEP, class Array>
GFPF_FN void gfpf_tile_add_sub_shift_branch(Array& tile, int x, int y, int first, int second, gfpf_u64 first_top,
                                            gfpf_u64 second_top, int plane, int i) {
    if constexpr (HI - LO <= STEP) {
        gfpf_tile_add_sub_shift<LO>(tile, x, y, first, second, first_top, second_top, plane);
    } else {
        constexpr int MID = LO + (HI - LO) / (2 * STEP) * STEP;
        if ((i & (GFPF_K - 1)) < MID) {
            gfpf_tile_add_sub_shift_branch<LO, MID, STEP>(tile, x, y, first, second, first_top, second_top, plane, i);
        } else {
            gfpf_tile_add_sub_shift_branch<MID, HI, STEP>(tile, x, y, first, second, first_top, second_top, plane, i);
        }
    }
}

// (x, y) ← (x + y, (x − y)·r^i) in place for 0 ≤ i < 2k where i is the
// same on every lane of the warp: a branch on s = i mod k (uniform, so the
// warp runs one arm) to gfpf_tile_add_sub_shift<s> (t8: 129 instructions
// on 34 words beside the branch, where gfpf_tile_add_sub_mul_pow_r takes
// 249 on 35 and a plain butterfly 111; probe kernels, NVRTC 12.9, sm_90,
// 2026-11-30). Where x or y is −1 (top digit r), the two operations apart,
// once for every arm. Arms for the shifts LO, LO + STEP, … below HI alone:
// a layer of h takes multiples of k/h (the probes: one arm).
template <int LO = 0, int HI = GFPF_K, int STEP = 1, class Array>
GFPF_TILE_OP void gfpf_tile_add_sub_uniform_shift(Array& tile, int x, int y, int plane, int i) {
    const bool negate = i >= GFPF_K;
    const int first = negate ? y : x, second = negate ? x : y;
    gfpf_u64 first_top, second_top;
    if (gfpf_tile_add_sub_shift_rare(tile, x, y, first, second, plane, i, first_top, second_top)) return;
    gfpf_tile_add_sub_shift_branch<LO, HI, STEP>(tile, x, y, first, second, first_top, second_top, plane, i);
}

// x·w in place, w's digits in shared memory (digit d at tile[w_at + d·
// w_plane]: a thread's scratch element, gfpf_tile_stage_twiddles), as
// gfpf_mul: x held in registers, each column's carry digit written in place
// as it completes, then the carry past digit k − 1 (a·r + b) subtracted in
// place. The columns read w's digits where they need them: w held too (4k
// registers with x) spilled at 64 registers, and read again from the table
// NVRTC kept them in registers all the same.
template <class Array>
GFPF_TILE_OP void gfpf_tile_mul(Array& tile, int x, int plane, int w_at, int w_plane) {
    GFPF_COUNT_OP(GFPF_OP_TILE_MUL);
    GfpfElem a;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) a.d[d] = tile[x + d * plane];
    const bool a_minus_one = a.d[GFPF_K - 1] == GFPF_R_VALUE;
    if (GFPF_RARE(a_minus_one || tile[w_at + (GFPF_K - 1) * w_plane] == GFPF_R_VALUE)) {
        // x·(−1) = −x: 0 − the other one.
        gfpf_u64 borrow = 0;
#pragma unroll
        for (int d = 0; d < GFPF_K; ++d)
            tile[x + d * plane] = gfpf_sub_digit_wide(0, a_minus_one ? (gfpf_u64)tile[w_at + d * w_plane] : a.d[d], borrow);
        if (borrow) gfpf_tile_increment(tile, x, plane);
        return;
    }
    // Carry of the chain: c1·2^64 + c0 (below 2^128).
    gfpf_u64 c0 = 0, c1 = 0;
#pragma unroll
    for (int t = 0; t < GFPF_K; ++t) {
        // u_t = Σ_{j≤t} x_j·w_{t−j} − Σ_{j>t} x_j·w_{t+k−j} (gfpf_mul's
        // column) plus the offset, in 32-bit carry chains (gfpf_column_mac):
        // the negative terms, the offset less them, the positive terms.
        GfpfColumnSum minus = {{0, 0, 0, 0, 0}, {0, 0, 0}};
#pragma unroll
        for (int j = t + 1; j < GFPF_K; ++j)
            gfpf_column_mac(minus, a.d[j], tile[w_at + ((t - j) & (GFPF_K - 1)) * w_plane]);
        GfpfColumnSum sum = gfpf_column_offset_less(t, minus, t < GFPF_K - 1);
#pragma unroll
        for (int j = 0; j <= t; ++j) gfpf_column_mac(sum, a.d[j], tile[w_at + (t - j) * w_plane]);
        tile[x + t * plane] = gfpf_column_digit(sum, c0, c1);
    }
    gfpf_u64 high, low;
    gfpf_split_carry(c0, c1, high, low);
    // − (high·r + low): digits 0 and 1, then the borrow up the chain while
    // it lasts. In 64-bit compares (gfpf_sub_digit_wide): with the PTX
    // chains here ptxas spilled 4 to 16 bytes in t8's and p8's DFT_16 pair
    // kernels at 64 registers (NVRTC 12.9, 2026-11-28).
    gfpf_u64 borrow = 0;
    tile[x] = gfpf_sub_digit_wide(tile[x], low, borrow);
    tile[x + plane] = gfpf_sub_digit_wide(tile[x + plane], high, borrow);
    for (int t = 2; t < GFPF_K && GFPF_RARE(borrow != 0); ++t) tile[x + t * plane] = gfpf_sub_digit_wide(tile[x + t * plane], 0, borrow);
    if (GFPF_RARE(borrow)) gfpf_tile_increment(tile, x, plane);
}

// Words of one twiddle's table for gfpf_tile_mul_shared_twiddles in device
// memory (gfpf_kernels::tensor::shared_twiddle_table, which documents its
// layout): rows δ = 7 … 14 of the 15 that A' takes, 8 words each; rows 0 …
// 6 are rows 8 … 14 complemented, made as a warp stages the table.
#define GFPF_SHARED_TWIDDLE_WORDS 64
// Staged in shared memory (k = 8 whatever r, so that the element-team
// pairs' tiles, gfpf_kernels::element_team_pair_tile, depend on k alone),
// a table's 15 rows of 8 words are GFPF_SHARED_TWIDDLE_ROW_WORDS = 10
// words apart (the prelude's, gfpf_kernels::tensor::
// SHARED_TWIDDLE_ROW_WORDS): a set's lanes read 16 bytes each of up to 11
// rows at once (row g − j + 7 for lane 4g + q, j = 4k + q), and rows 64
// bytes apart would share two 64-byte halves of the banks (6 wavefronts
// where 2 serve them: `cargo xtask gpu-model --transform t8:20`'s
// shared-memory line). 80 bytes apart, rows δ and δ + 8 alone share
// banks; 16-byte loads stay aligned.
#define GFPF_SHARED_TWIDDLE_STAGED_WORDS (15 * GFPF_SHARED_TWIDDLE_ROW_WORDS)
// The twiddle index that says the twiddle is 1, for the products of
// sixteen lanes a twiddle (gfpf_tile_mul_shared_twiddles<16>): the
// group's product is skipped and no table read. (Eight and four lanes a
// twiddle take a first set instead.)
#define GFPF_TWIDDLE_ONE 0xffffffffu
// Where a staged table's row δ, column c lies (rows δ ≥ 7 hold the table's
// word 8·(δ − 7) + c, rows δ < 7 row δ + 8's complemented).
GFPF_FN int gfpf_shared_twiddle_staged(int row, int column) { return row * GFPF_SHARED_TWIDDLE_ROW_WORDS + column; }
// The row δ that `lane` stages first of a table, column lane mod 8: rows
// 8, 12, 10 and 14 for the lanes' four eights, then in its second load
// the row below, 7, 11, 9 and 13 (table words 8·(δ − 7) + column, the
// second load's 8 before the first's). Rows are 10 words apart, so a
// load's four rows start at 0, 8, 4 and 12 modulo the 16 bank pairs (6,
// 14, 10 and 2): each bank pair takes two words, as few as 32 words of 8
// bytes allow, and so do their complements' rows 0, 4, 2 and 6, and 3, 1
// and 5 (row 7 has none: the first eight lanes sit out the last store).
// (Rows c, c + 4, c + 8 and c + 12 in store c, when the 15 rows came from
// device memory, did too; four neighbouring rows put three on some bank
// pairs, 1.38x the conflict-free wavefronts: gpu-model --transform t8:20
// --sites, 2026-11-30.)
GFPF_FN int gfpf_shared_twiddle_row(int lane) {
    const int quarter = lane >> 3;
    return 8 + 4 * (quarter & 1) + 2 * (quarter >> 1);
}

// Fields of 8 digits with 2^49 ≤ r ≤ 2^64 − 2^32, so that a column's carry
// (below 2^81/r) is a 32-bit word and a digit plus a carry a 64-bit one
// (gfpf_kernels::tensor::shared_twiddles_available).
#if GFPF_K == 8 && GFPF_R >= 0x2000000000000ull && GFPF_R <= 0xffffffff00000000ull
#define GFPF_SHARED_TWIDDLES 1

// This thread's lane, read where it is used: a function of threadIdx.x is
// one NVVM hoists out of loops and ahead of a pair kernel's stages, and
// ptxas then holds it through them at 64 registers (t8's and p8's
// tensor-core pairs spilled 8 bytes on sm_90 so: the lane's place in a
// row, the source of a carry's shuffle; NVRTC 12.9, 2026-11-29). A
// volatile read stays where it is.
GFPF_FN unsigned gfpf_lane_here() {
#ifdef GFPF_HOST_EMULATION
    return threadIdx.x & 31;
#else
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
#endif
}

// The offset of column d of a tensor-core product
// (gfpf_tile_mul_shared_twiddles), whose sum is Σ_β 2^(8β)·T_β less
// (2^64 − 1)·S_d (S_d the sum of the element's bytes above digit d, at
// most 7·8·255 < 2^14): M·(r + 1) on column 0 (`first`) and M·(r − 1) on
// the others, M·(r^8 + 1) ≡ 0 over them all. M = 2^(15 + shift), r ≥
// 2^(63 − shift), makes it at least 2^78, past (2^64 − 1)·S_d, and keeps
// it below 2^79, so that the column is nonnegative. (Constants, not
// registers held through the sets: held, they spilled in the pair kernel
// at 64 registers.)
GFPF_FN gfpf_u128 gfpf_tensor_column_offset(bool first) {
    constexpr gfpf_u64 m = 1ull << (15 + GFPF_R_SHIFT);
    return (gfpf_u128)m * (GFPF_R_VALUE - 1) + (first ? 2 * m : 0);
}

// A tensor-core product's column `sum` (offset, below 2^81) divided by r:
// its digit and its carry to the next column (below 2^81/r ≤ 2^32).
GFPF_FN void gfpf_tensor_column_divide(gfpf_u128 sum, gfpf_u64& carry, gfpf_u64& digit) {
    // Divided by r as the carry chains divide (normalised by r's shift):
    // the short division where the field has one, exact while the high
    // word times its constant is below r·2^shift (t8: 2^17·2^35), else
    // Möller–Granlund's.
    GFPF_CHECK((gfpf_u64)(sum >> 64) < (1u << 17), "a tensor-core column past 2^81");
    const gfpf_u128 scaled = sum << GFPF_R_SHIFT;
#if GFPF_SMALL_HIGH_FORM == 0
    gfpf_div_rem_scaled((gfpf_u64)(scaled >> 64), (gfpf_u64)scaled, carry, digit);
#else
    static_assert(GFPF_SMALL_HIGH_CONST < (GFPF_R_NORM >> (17 + GFPF_R_SHIFT)),
                  "the short division takes the columns' high words");
    gfpf_div_rem_short((gfpf_u64)(scaled >> 64), (gfpf_u64)scaled, carry, digit);
#endif
    digit >>= GFPF_R_SHIFT;
}

// The end of a tensor-core product on the element at tile[x] (digit d at
// x + d·plane), each digit below r + 2^32 with its carry from the digit
// below added (a column is below 2^80), `top` the carry past digit 7 and
// `low` (below 2^31) to add to digit 0: one carry chain in place (a digit
// plus its carry is below 2r, so gfpf_add_digit's one r off leaves a
// digit), then the carries past the top subtracted from digit 0 up while
// the borrow lasts, as gfpf_tile_mul's.
template <class Array>
GFPF_FN void gfpf_tensor_product_close(Array& tile, int x, int plane, unsigned top, gfpf_u64 low = 0) {
    gfpf_u64 carry = 0;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) tile[x + d * plane] = gfpf_add_digit(tile[x + d * plane], d == 0 ? low : 0, carry);
    // The subtraction in 64-bit compares, as gfpf_tile_mul's (the PTX chain
    // spilled there).
    gfpf_u64 borrow = 0;
    tile[x] = gfpf_sub_digit_wide(tile[x], top + carry, borrow);
    for (int t = 1; t < GFPF_K && GFPF_RARE(borrow != 0); ++t) tile[x + t * plane] = gfpf_sub_digit_wide(tile[x + t * plane], 0, borrow);
    if (GFPF_RARE(borrow)) gfpf_tile_increment(tile, x, plane);
}

// The tensor-core products (gfpf_tile_mul_shared_twiddles) close
// their elements in registers: the carry chains cross an element's eight
// lanes by ballots, where a close in shared memory rereads and rewrites
// every digit: 16 shared words fewer a product for 81 more instructions at
// sixteen lanes a twiddle on t8, 65 on p8 (kernels --probe: 656 → 737 and
// 846 → 911). The pair launches are bound by their L1 path at the floor
// (t8 2^20 0.304 ms where the close in shared memory gave 0.342, p8 0.314
// where it gave 0.340: gpu-model --transform, NVRTC 12.9, 2026-11-30).
// (Before the sets took sixteen lanes a twiddle, the pair launches were
// issue-bound on p8, and a close in registers made p8 2^20 slower: 0.354
// → 0.362 ms, 2026-11-29.)

// Whether digit v (below 2^64) reaches r: where r = r_high·2^32, where its
// high half reaches r's.
#ifdef GFPF_R_HIGH
GFPF_FN bool gfpf_reaches_r(gfpf_u64 v) { return (gfpf_u32)(v >> 32) >= GFPF_R_HIGH; }
#else
GFPF_FN bool gfpf_reaches_r(gfpf_u64 v) { return v >= GFPF_R_VALUE; }
#endif

// One column of a sets product (gfpf_tile_mul_shared_twiddles) closed
// in registers: lane 4g + q holds digit g of one element of lanes q, q + 4,
// …, q + 28 (`v`, below r + 2^32, the carry from column g − 1 added) and
// lane q also `past_top`, the carry out of column 7 (below 2^32). Each
// digit at r or past it gives r up and carries 1 to the next, across the
// eight lanes by one ballot, and lane q subtracts the carry past the top
// (past_top and digit 7's) from digit 0 (r^8 = −1). True where the element
// is left open, its digits then to be closed again from what they were: a
// digit r − 1 that took a carry (a zero's digits all do), or a borrow out
// of digit 0 (about never), which wraps it past r.
GFPF_FN bool gfpf_sets_close_digit(gfpf_u64& v, unsigned past_top, unsigned lane) {
    GFPF_CHECK(v < GFPF_R_VALUE + (1ull << 32), "a column's digit past r + 2^32");
    const bool carry = gfpf_reaches_r(v);
    const unsigned carries = __ballot_sync(0xffffffffu, carry);
    // Rotated by four lanes: bit L the carry of lane L − 4, and for L < 4
    // that of lane L + 28, past the top.
    const unsigned in = (((carries << 4) | (carries >> 28)) >> lane) & 1;
    const bool first = lane < 4;
    v = v + (first ? 0 : in) - (carry ? GFPF_R_VALUE : 0) - (first ? (gfpf_u64)past_top + in : 0);
    return gfpf_reaches_r(v);
}

// Column g of a sets product's element in column 2q + e (lane 4g + q):
// Σ_β 2^(8β)·T_β (T_β < 2^22) as (P_0 + 2^32·P_2) + 2^16·(P_1 + 2^32·P_3),
// P_t = T_2t + 2^8·T_(2t+1) below 2^31 (`p[t][e]`), with the column's
// offset, less (2^64 − 1)·S_g (`sums`), divided by r: its digit and its
// carry to the next column.
GFPF_FN void gfpf_sets_column(const unsigned (&p)[4][2], const unsigned (&sums)[4], int e, bool first,
                              gfpf_u64& carry, gfpf_u64& digit) {
    const gfpf_u64 even = (gfpf_u64)p[0][e] | (gfpf_u64)p[2][e] << 32;
    const gfpf_u64 odd = (gfpf_u64)p[1][e] | (gfpf_u64)p[3][e] << 32;
    const gfpf_u64 s = sums[e];
    gfpf_tensor_column_divide((gfpf_u128)even + ((gfpf_u128)odd << 16) + gfpf_tensor_column_offset(first) + s -
                                  ((gfpf_u128)s << 64),
                              carry, digit);
}

// x·w in place for the 32 elements of a warp, one a lane (digit d of lane
// L's element at tile[x + d·plane], x lane L's own), on the tensor cores,
// where each SHARED_BY lanes (4h … 4h + 3, or 8h … 8h + 7) share a twiddle
// (their `twiddle`, its table at table[twiddle·GFPF_SHARED_TWIDDLE_WORDS],
// the same). Over x's bytes
// x_(j,b) (digit j, byte b) and W_b = 2^(8b)·w mod p (digits W_(b,m)),
// x·w = Σ_d r^d·col_d with col_d = Σ_(j,b) s·x_(j,b)·W_(b,(d−j) mod 8),
// s = −1 where j > d (r^8 = −1). Byte β of col_d's sum is row 8β + d of
// A'·X, X's column x's 64 bytes and A' the twiddle's 64 × 64 bytes: W's
// byte where j ≤ d, 255 less it where j > d (−x·W = x·(255 − W) − 255·x),
// so that one u8 matrix serves both signs, and col_d takes (2^64 − 1)·S_d
// back, S_d the sum of x's bytes above digit d (a fifth row tile of ones).
// One m16n8k32 product has 8 columns that share A': a warp makes four
// sets of 8 columns, one twiddle's eight elements a set, or two twiddles'
// four, each twiddle's products over the other's columns zeroed (18 `mma`s
// a set where one twiddle takes 10); where sixteen lanes share a twiddle,
// two sets at once, each A' fragment read once for both. A lane ends a
// set with column g of two elements (lane 4g + q: columns 2q, 2q + 1),
// below 2^80 with the offset that keeps it nonnegative (M·(r ± 1), about
// 2^78, ≡ 0 over the columns), divides it by r and adds the carry from
// digit g − 1; the carries then cross the element's eight lanes
// (gfpf_sets_close_digit) and each lane writes digit g in place.
// `staging` holds a set's tables (8/SHARED_BY·GFPF_SHARED_TWIDDLE_STAGED_WORDS
// words from staging_at, even, gfpf_shared_twiddle_staged; one table's
// where sixteen lanes share it), the warp's own. Every lane of the warp
// calls it. The element-team pairs' B pass takes it eight lanes a twiddle
// (its pairs) and four (its diagonal), their column and A passes sixteen.
// On a lane's path a product takes 741 instructions (sixteen lanes a
// twiddle), 794 (eight) or 1027 (four), with a probe's loads and stores
// less an empty probe's (t8, kernels --probe, NVRTC 12.9, sm_90, nvdisasm
// 13.5, 2026-11-30); before, sixteen lanes a twiddle took the twiddle as
// B, the elements as A's rows, 915 instructions on as many shared words,
// its fragments of the elements copied into place for each product (66
// moves); gfpf_tile_mul takes 1110.
//
// STAGED: the set's one table (SHARED_BY = 8, every lane's twiddle the same)
// is in `staging` already, put there once for many calls (the scale by
// N^{-1}, gfpf_scale_elements_mma); table and twiddle are not read.
template <int SHARED_BY, bool STAGED = false, class Array, class Staging>
GFPF_TILE_OP void gfpf_tile_mul_shared_twiddles(Array& tile, int x, int plane, const gfpf_u64* table,
                                                unsigned twiddle, Staging& staging, int staging_at) {
    static_assert(!STAGED || SHARED_BY == 8, "one table staged for every set");
    static_assert(SHARED_BY == 4 || SHARED_BY == 8 || SHARED_BY == 16, "four, eight or sixteen lanes a twiddle");
    constexpr int twiddles = SHARED_BY == 4 ? 2 : 1;  // a set's
    // Sets of eight columns that one table's A' fragments serve at once:
    // two where sixteen lanes share a twiddle, each fragment read once for
    // both (a table read once for sixteen products).
    constexpr int halves = SHARED_BY == 16 ? 2 : 1;
    GFPF_COUNT_OP(SHARED_BY == 16  ? GFPF_OP_TILE_MUL_SHARED16
                  : SHARED_BY == 8 ? GFPF_OP_TILE_MUL_SHARED8
                                   : GFPF_OP_TILE_MUL_SHARED);
    const unsigned lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
#pragma unroll 1
    for (int set = 0; set < 4; set += halves) {
        // The set's tables (the twiddles of lanes 8·set and 8·set + 4, one
        // where SHARED_BY is 8 or 16), and X's column g: lane 8·set + g's
        // element (and lane 8·(set + 1) + g's, the second half's). K-tile
        // k's columns 4q.. and 16 + 4q.. are bytes 0..3 and 4..7 of digit
        // 4k + q, so that a lane's B registers are one digit's halves and
        // its A' registers one table row's four words.
        if (!STAGED) {
            const unsigned w0 = __shfl_sync(0xffffffffu, twiddle, 8 * set);
            const unsigned w1 = twiddles == 2 ? __shfl_sync(0xffffffffu, twiddle, 8 * set + 4) : w0;
            GFPF_CHECK(SHARED_BY == 4 || w0 == w1, "eight lanes of a set share a twiddle");
            GFPF_CHECK(SHARED_BY != 16 || w0 == __shfl_sync(0xffffffffu, twiddle, 8 * set + 8 + (lane & 7)),
                       "sixteen lanes share a twiddle");
            // A group whose twiddle is 1 leaves its elements as they are
            // (the whole warp skips it). Every write of a set is followed
            // by the set's meeting, so a call of skips alone needs none.
            if (SHARED_BY == 16 && w0 == GFPF_TWIDDLE_ONE) continue;
            GFPF_CHECK(w0 != GFPF_TWIDDLE_ONE && w1 != GFPF_TWIDDLE_ONE, "the sets are told 1 by their first set");
            const gfpf_u64* from0 = table + (gfpf_u64)w0 * GFPF_SHARED_TWIDDLE_WORDS;
            const gfpf_u64* from1 = table + (gfpf_u64)w1 * GFPF_SHARED_TWIDDLE_WORDS;
            // Two loads a lane, each staged as it is and complemented
            // (gfpf_shared_twiddle_row): the second's row the one below the
            // first's, its word 8 before (the word's index in 64 bits: in
            // 32, each read made its own 64-bit address, 79 instructions
            // more on the probe's path at eight lanes a twiddle,
            // 2026-11-29).
            const int row = gfpf_shared_twiddle_row((int)lane);
            const int lane_at = staging_at + gfpf_shared_twiddle_staged(row, (int)lane & 7);
            const gfpf_u64 first = (gfpf_u64)(row - 7) * 8 + (lane & 7);
            static_assert(GFPF_SHARED_TWIDDLE_WORDS == 8 * 8, "rows 7 … 14 in device memory");
            constexpr int below = 8 * GFPF_SHARED_TWIDDLE_ROW_WORDS;
            // Rolled (four lanes a twiddle stage two tables): unrolled, t8's
            // and p8's pair kernels with both stages' twiddles spilled 8
            // bytes on sm_90 (NVRTC 12.9, 2026-11-30).
#pragma unroll 1
            for (int h = 0; h < twiddles; ++h) {
                const gfpf_u64* from = h == 0 ? from0 : from1;
                const int at = lane_at + h * GFPF_SHARED_TWIDDLE_STAGED_WORDS;
                const gfpf_u64 word0 = GFPF_TENSOR_TABLE_READ(from, first), word1 = GFPF_TENSOR_TABLE_READ(from, first - 8);
                staging[at] = word0;
                staging[at - below] = ~word0;
                staging[at - GFPF_SHARED_TWIDDLE_ROW_WORDS] = word1;
                // Row 7 alone has no complement (gfpf_shared_twiddle_row).
                if ((lane >> 3) != 0) staging[at - GFPF_SHARED_TWIDDLE_ROW_WORDS - below] = ~word1;
            }
        }
        gfpf_u64 digits[halves][2];
#pragma unroll
        for (int v = 0; v < halves; ++v) {
            const int column = __shfl_sync(0xffffffffu, x, 8 * (set + v) + g);
#pragma unroll
            for (int k = 0; k < 2; ++k) digits[v][k] = tile[column + (4 * k + (int)q) * plane];
        }
        __syncwarp();
        // Row tile t's products, then at once its P_t = T_2t + 2^8·T_(2t+1)
        // for the two columns a lane ends with (e), so that no more than
        // one row tile's accumulators a set are held (all four of both
        // halves' spilled in t8's pair kernels at 64 registers on sm_90).
        unsigned p[halves][4][2], sums[halves][4] = {};
#pragma unroll
        for (int t = 0; t < 4; ++t) {
            unsigned acc[halves][4] = {};
#pragma unroll
            for (int h = 0; h < twiddles; ++h) {
                const bool mine = twiddles == 1 || (g >> 2) == (unsigned)h;
#pragma unroll
                for (int k = 0; k < 2; ++k) {
                    // Row δ = g − j + 7 of the table, j = 4k + q.
                    const int at = staging_at + h * GFPF_SHARED_TWIDDLE_STAGED_WORDS +
                                   ((int)g - 4 * k - (int)q + 7) * GFPF_SHARED_TWIDDLE_ROW_WORDS + 2 * t;
                    const gfpf_u64 a0 = staging[at], a1 = staging[at + 1];
                    const unsigned a[4] = {(unsigned)a0, (unsigned)(a0 >> 32), (unsigned)a1, (unsigned)(a1 >> 32)};
#pragma unroll
                    for (int v = 0; v < halves; ++v) {
                        const gfpf_u64 b = mine ? digits[v][k] : 0;
                        gfpf_mma_m16n8k32_u8(acc[v], a, (unsigned)b, (unsigned)(b >> 32), acc[v]);
                    }
                }
            }
#pragma unroll
            for (int v = 0; v < halves; ++v)
#pragma unroll
                for (int e = 0; e < 2; ++e) p[v][t][e] = acc[v][e] + (acc[v][e + 2] << 8);
        }
        // The fifth row tile: row g (registers 0 and 2) is 1 in the columns
        // of digits above g, so that its column sums are S_g (made here,
        // not held through the sets: the registers the pair kernel has are
        // few; and before the columns' close, so that the digits are not
        // held through it).
#pragma unroll
        for (int v = 0; v < halves; ++v)
#pragma unroll
            for (int k = 0; k < 2; ++k) {
                const unsigned one = 4 * k + q > g ? 0x01010101u : 0u;
                const unsigned ones[4] = {one, 0, one, 0};
                gfpf_mma_m16n8k32_u8(sums[v], ones, (unsigned)digits[v][k], (unsigned)(digits[v][k] >> 32), sums[v]);
            }
#pragma unroll
        for (int v = 0; v < halves; ++v) {
            // Column g of the elements in columns 2q and 2q + 1 (e), each
            // with the carry from column g − 1 added (lane q: from column 7
            // of its element, the carry past the top, left out).
            gfpf_u64 raw[2];
            unsigned from_below[2];
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                gfpf_u64 carry;
                gfpf_sets_column(p[v], sums[v], e, g == 0, carry, raw[e]);
                // Carries below 2^81/r ≤ 2^32: shuffled as 32-bit words. The
                // lane read again here (gfpf_lane_here): its functions held
                // from the loop's start spilled at 64 registers on sm_90.
                const unsigned here = gfpf_lane_here();
                from_below[e] = __shfl_sync(0xffffffffu, (unsigned)carry, (here + 28) & 31);
                raw[e] += here < 4 ? 0 : from_below[e];
            }
            const unsigned here = gfpf_lane_here();
            const int half = set + v;
            // Lane 4g + q holds digit g of the two elements, lane q the
            // carries past their tops: closed across the eight lanes and
            // written; where a digit of the half's stays open, written
            // again as they were and closed by the elements' lanes (8·half
            // + 2q + e) at once.
            gfpf_u64 closed[2] = {raw[0], raw[1]};
            const bool open0 = gfpf_sets_close_digit(closed[0], from_below[0], here);
            const bool open1 = gfpf_sets_close_digit(closed[1], from_below[1], here);
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int element = __shfl_sync(0xffffffffu, x, 8 * half + 2 * (here & 3) + e);
                tile[element + (int)(here >> 2) * plane] = closed[e];
            }
            if (GFPF_RARE(__any_sync(0xffffffffu, open0 || open1))) {
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int element = __shfl_sync(0xffffffffu, x, 8 * half + 2 * (here & 3) + e);
                    tile[element + (int)(here >> 2) * plane] = raw[e];
                }
                // The carries past the tops (lane q's) to the elements' lanes.
                const unsigned top0 = __shfl_sync(0xffffffffu, from_below[0], (here & 7) >> 1);
                const unsigned top1 = __shfl_sync(0xffffffffu, from_below[1], (here & 7) >> 1);
                __syncwarp();
                if ((here >> 3) == (unsigned)half) gfpf_tensor_product_close(tile, x, plane, (here & 1) ? top1 : top0);
            }
        }
        __syncwarp();
    }
}

#endif

// The tile of a stage whose DFTs are each computed by a team of threads, one
// butterfly of every layer each on whole elements (gfpf_kernels::
// element_team_tile, which mirrors it): a team is R/2 threads (within one
// warp); a block takes min(128/team, 2k) DFTs, so that a strided stage's
// (stride 2k or more in the device's plans) are neighbouring columns, and
// at least a warp's threads, halved (twice at most) while the tile exceeds
// GFPF_LANE_TILE_WORDS. One layout whatever the stage: in each digit
// plane DFT s's R elements at s·GFPF_ELEMENT_TEAM_RUN(R).
// Words a DFT_R takes in each digit plane (gfpf_kernels::element_team_run):
// R + 1, odd, so that the loads' and stores' consecutive words (a DFT's
// elements, or one element of neighbouring DFTs) and a layer's elements
// (neighbouring DFTs at the same place) fall in different banks;
// R for DFT_2 and DFT_4, whose padding would take a quarter or more of the
// tile and of the SM's threads it allows.
#define GFPF_ELEMENT_TEAM_RUN(R) ((R) <= 4 ? (R) : (R) + 1)
// Words of a tile of D DFT_Rs and its scratch elements.
#define GFPF_ELEMENT_TEAM_WORDS(R, D) (GFPF_K * (D) * GFPF_ELEMENT_TEAM_RUN(R) + GFPF_K * (D) * ((R) / 2))
// D DFTs, or half as many where they would exceed GFPF_LANE_TILE_WORDS (and
// the block keeps a warp's threads).
#define GFPF_ELEMENT_TEAM_FIT(R, D) \
    (GFPF_ELEMENT_TEAM_WORDS(R, D) <= GFPF_LANE_TILE_WORDS || (D) * ((R) / 2) <= 32 ? (D) : (D) / 2)
template <int R>
struct GfpfElementTeamTile {
    static constexpr int team = R / 2;
    static constexpr int most = 128 / team < 2 * GFPF_K ? 128 / team : 2 * GFPF_K;
    static constexpr int first = most > 32 / team ? most : 32 / team;
    static constexpr int dfts = GFPF_ELEMENT_TEAM_FIT(R, GFPF_ELEMENT_TEAM_FIT(R, first));
    static constexpr int threads = dfts * team;
    static constexpr int run = GFPF_ELEMENT_TEAM_RUN(R);
    static constexpr int plane = dfts * run;
    // Then a scratch element a thread (a twiddle's digits, gfpf_tile_mul):
    // digit d of thread t's at scratch + d·threads + t.
    static constexpr int scratch = GFPF_K * plane;
    static constexpr int words = scratch + GFPF_K * threads;

    GFPF_METHOD static int word(bool, int d, int s, int i) { return d * plane + s * run + i; }
};

// Each lane's twiddle table[m] (m its own) into its scratch element, a warp
// at a time: load i of lane l is words 64·i + 2l and 64·i + 2l + 1 of the
// warp's 32 entries in one 16-byte load (entry (64·i + 2l)/k, digits 2l
// mod k and the next), so that a load reads 16/k whole entries, whole
// sectors, where each lane reading its own entry's digit d would touch 32
// sectors a load for 8 bytes of each. Each load takes its entry's index
// from the lane that owns it (a shuffle): loads of one word took a
// shuffle and a load for every 8 bytes (t8: 65 instructions beside its
// words where these take 35, t16 121 where 59; probes, NVRTC 12.9,
// sm_90, 2026-11-30). Every lane
// of the warp takes part (m = 0, the entry 1, where a lane has no product
// to make); the warp meets after, and before the scratch elements are
// staged again.
template <class Tile, class Array>
GFPF_FN void gfpf_tile_stage_twiddles(Array& tile, const gfpf_u64* table, gfpf_u64 m) {
    GFPF_COUNT_OP(GFPF_OP_TILE_STAGE);
    // (Tile in it: checked where the element teams use it, k ≤ 16, not in
    // every field's unit.)
    static_assert(Tile::threads > 0 && GFPF_K % 2 == 0 && 64 % GFPF_K == 0, "k even and dividing 64");
    const int lane = threadIdx.x & 31, warp = threadIdx.x - lane;
    // k divides 64: a lane's digits are the same in every load and its
    // places one base and constant steps (computed per load, the places
    // of the pair kernels' larger tiles were held in registers and
    // spilled).
    const int d = 2 * lane % GFPF_K, first_owner = 2 * lane / GFPF_K;
    const int at = Tile::scratch + d * Tile::threads + warp + first_owner;
#pragma unroll
    for (int i = 0; i < GFPF_K / 2; ++i) {
        const int owner = first_owner + i * (64 / GFPF_K);
        const gfpf_u64 owner_m = __shfl_sync(0xffffffffu, m, owner);
        gfpf_u64 low, high;
        GFPF_TABLE_READ_PAIR(table, owner_m * GFPF_K + d, low, high);
        tile[at + i * (64 / GFPF_K)] = low;
        tile[at + i * (64 / GFPF_K) + Tile::threads] = high;
    }
    __syncwarp();
}

// The element teams' twiddle: x ← x·w^(slot·unit) = x·table[m]·r^(±q).
// Every lane of the warp calls it (the staging's shuffles), those past the
// launch (`running` false) with nothing to multiply.
template <class Tile, class Array>
GFPF_FN void gfpf_tile_twiddle(const GfpfStageParams& p, Array& tile, int x, gfpf_u64 unit, int slot, bool running) {
    int shift;
    gfpf_u64 m;
    gfpf_twiddle_exponent((gfpf_u64)slot * unit, p.twiddle_bits, p.inverse != 0, shift, m);
    const bool multiply = running && m != 0;
    gfpf_tile_stage_twiddles<Tile>(tile, (const gfpf_u64*)p.table, multiply ? m : 0);
    if (running && shift != 0) gfpf_tile_mul_pow_r(tile, x, Tile::plane, shift);
    if (multiply) gfpf_tile_mul(tile, x, Tile::plane, Tile::scratch + threadIdx.x, Tile::threads);
    // Every lane's product done before the scratch elements are staged again.
    __syncwarp();
}

// One DFT_R of a tile, computed in place by the team of R/2 threads
// `member` belongs to: element i (digit d) at tile[own + i·spacing +
// d·Tile::plane]. The radix-2 network of gfpf_dft_team (Gentleman–Sande,
// outputs in bit-reversed places: place `at` ends holding DFT output
// bit_reverse(at)), one butterfly of every layer a thread, on whole
// elements (gfpf_tile_add_sub …), the team meeting between layers at
// __syncwarp; the twiddles w^(slot·unit) of the variant on the inputs or
// outputs. Every lane of the warp calls it (the twiddles' staging shuffles),
// those past the launch (`running` false) doing nothing else.
// Where FUSED, every butterfly of a layer with a shift runs both in one
// operation (gfpf_tile_add_sub_mul_pow_r), by r^0 where j = 0: a warp's
// lanes take every j, and a branch on it would have the warp run the plain
// butterfly and the fused one in turn. Else apart (the pair kernels whose
// stages both twiddle their outputs: fused, t8's spilled 4 bytes at 64
// registers on sm_80), the lanes with j = 0 idle through the shift.
// `unit`: the twiddles' unit, or a function that makes it (called where it
// is used, so that nothing holds it through the layers).
GFPF_FN gfpf_u64 gfpf_unit_value(gfpf_u64 unit) { return unit; }
template <class MakeUnit>
GFPF_FN gfpf_u64 gfpf_unit_value(const MakeUnit& make) {
    return make();
}

// With UNIFORM_H > 0 a team's threads lie in several warps, each lane of
// a warp on its own DFT, so that the layers of h ≤ UNIFORM_H give every
// lane of a warp one shift (its members agree modulo h): their butterflies
// take it fixed in the code (gfpf_tile_add_sub_uniform_shift), and the
// team meets at __syncthreads between layers, the caller's barrier after
// the last.
template <class Tile, int R, int VARIANT, bool FUSED = true, int UNIFORM_H = 0, class Array, class Unit>
GFPF_FN void gfpf_element_team_dft(const GfpfStageParams& p, Array& tile, int own, int spacing, int member,
                                   const Unit& unit_or_maker, bool running) {
    constexpr int P = R / 2;
    constexpr int plane = Tile::plane;
    // Thread `member` twiddles inputs member and member + R/2, the ones its
    // butterfly of the first layer takes: no barrier between.
    if (VARIANT == GFPF_TWIDDLE_INPUTS) {
        const gfpf_u64 unit = gfpf_unit_value(unit_or_maker);
        gfpf_tile_twiddle<Tile>(p, tile, own + member * spacing, unit, member, running);
        gfpf_tile_twiddle<Tile>(p, tile, own + (member + P) * spacing, unit, member + P, running);
    }
    // log2 of R/2 and of k: the layer's h = 2^lh, and k/h a shift (a
    // division by the loop's h took ptxas some 25 instructions a layer).
    constexpr int LH_FIRST = GfpfLog2<R>::value - 1, K_LOG2 = GfpfLog2<GFPF_K>::value;
    static_assert(R / 2 <= GFPF_K, "R ≤ 2k");
#pragma unroll 1
    for (int lh = LH_FIRST; lh >= 0; --lh) {
        const int h = 1 << lh;
        if (running) {
            const int j = member & (h - 1), i0 = 2 * (member - j) + j, i1 = i0 + h;
            // y·ρ^j, ρ = r^(k/h) = ω_{2h}, the layer's root.
            const int forward = j << (K_LOG2 - lh);
            const int shift = p.inverse != 0 && forward != 0 ? 2 * GFPF_K - forward : forward;
            if (FUSED && h > 1 && h <= UNIFORM_H) {
                // Shifts that are multiples of k/UNIFORM_H: arms for those.
                constexpr int STEP = UNIFORM_H > 0 ? GFPF_K / UNIFORM_H : 1;
                gfpf_tile_add_sub_uniform_shift<0, GFPF_K, STEP>(tile, own + i0 * spacing, own + i1 * spacing, plane,
                                                                 shift);
            } else if (FUSED && h > 1) {
                // y first where x's bank pair has the layer's bit set, in
                // the warp's third and fourth teams where clear: where a
                // warp's four teams' places are ≡ own + i mod 16 a digit
                // plane, each of x's and y's loads then falls two to a bank
                // pair where the 4 DFTs' x (or y) put up to three. Not
                // where the lanes take DFTs of their own (UNIFORM_H).
                const int x = own + i0 * spacing;
                const bool y_first = UNIFORM_H == 0 && ((x & h) != 0) != ((threadIdx.x & 16) != 0);
                gfpf_tile_add_sub_mul_pow_r(tile, x, own + i1 * spacing, plane, shift, y_first);
            } else {
                gfpf_tile_add_sub(tile, own + i0 * spacing, own + i1 * spacing, plane);
                if (j != 0) gfpf_tile_mul_pow_r(tile, own + i1 * spacing, plane, shift);
            }
        }
        if constexpr (UNIFORM_H > 0) {
            if (h > 1) __syncthreads();
        } else {
            __syncwarp();
        }
    }
    // Thread `member` holds outputs 2·member and 2·member + 1 (the last
    // layer's butterfly): output at place `at` is DFT output bit_reverse(at).
    if (VARIANT == GFPF_TWIDDLE_OUTPUTS) {
        const int at = 2 * member;
        const gfpf_u64 unit = gfpf_unit_value(unit_or_maker);
        gfpf_tile_twiddle<Tile>(p, tile, own + at * spacing, unit, gfpf_bit_reverse<R>(at), running);
        gfpf_tile_twiddle<Tile>(p, tile, own + (at + 1) * spacing, unit, gfpf_bit_reverse<R>(at + 1), running);
    }
}

// The folded twiddle's index lo·R + hi of a stride-1 stage's DFT `dft`
// (gfpf_cuda::params::fold_pair_twiddles_into_stride_one): its elements
// lie at m·R … m·R + R − 1 on its twiddled side, m mod R² = hi·R + lo.
// That side is in time its outputs (from gathered inputs, at the digit
// reverse of its column); in frequency its inputs, which are never
// gathered there (natural, the pair's outputs): m is its index modulo N/R
// (the general form, with the digit reversal's loop, spilled the kernels
// at 64 registers).
template <int R, bool IN_TIME, class Sites>
GFPF_FN gfpf_u64 gfpf_folded_j(const GfpfStageParams& p, const Sites& sites, gfpf_u64 dft) {
    constexpr int R_LOG2 = Sites::R_LOG2;
    const gfpf_u64 m = IN_TIME ? (sites.global_at(p, dft, 0, false) & ((1ull << p.log2_n) - 1)) >> R_LOG2
                               : dft & ((1ull << (p.log2_n - R_LOG2)) - 1);
    return m % R * R + m / R % R;
}

// A stage whose DFTs are each computed by a team of R/2 threads: the block
// loads its tile (GfpfTileSites, as the segments' teams do), then each team
// transforms its DFT in place (gfpf_element_team_dft), and the block stores
// the tile. A DFT takes R/2 threads where the segments' teams take R/2
// segments of k lanes, and each operation runs once instead of once a digit.
template <int R, int VARIANT>
GFPF_FN void gfpf_dft_element_team(const GfpfStageParams& p) {
    using Tile = GfpfElementTeamTile<R>;
    constexpr int P = Tile::team;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, Tile::words);
    bool running;
    const int s = threadIdx.x / P, member = threadIdx.x % P;
    {
        const GfpfTileSites<Tile, R> sites(p, P, true);
        running = sites.first_dft + s < sites.dfts;
        sites.load(p, tile);
    }
    // Element i of DFT s: digit d at tile[own + i + d·plane] (one layout for
    // every stage: Tile::word takes no notice of strides).
    const int own = Tile::word(false, 0, s, 0);
    // Stride 1: column b = 0, no twiddles. Made where the twiddles are:
    // made before the layers, the kernels of twiddled outputs held it
    // through them and spilled 4 to 8 bytes at t8 on sm_80 and sm_90 once
    // the butterflies with a shift read each digit once.
    // With a tensor-core pair's column and row twiddles folded in
    // (p.folded_step = u, gfpf_cuda::params::fold_pair_twiddles_into_stride_one):
    // the pair's s is R, so at the twiddled side's positions m·R + i (in
    // time this DFT's outputs, its inputs gathered; in frequency its
    // inputs) its column c is the slot i and its j = hi·R + lo is m mod R²,
    // and its column's twiddle and its row's A are one, w^(c·(lo·R + hi)·u).
    const auto unit = [&]() -> gfpf_u64 {
        const GfpfTileSites<Tile, R> here(p, P, true);
        const gfpf_u64 dft = here.first_dft + threadIdx.x / P;
        if (p.folded_step != 0) {
            return gfpf_folded_j<R, VARIANT != GFPF_TWIDDLE_INPUTS>(p, here, dft) * p.folded_step;
        }
        return here.strided && dft < here.dfts ? gfpf_dft_site<R>(p, dft).b * p.step : 0;
    };
    gfpf_element_team_dft<Tile, R, VARIANT>(p, tile, own, 1, member, unit, running);
    const GfpfTileSites<Tile, R> sites(p, P, true);
    sites.store(p, tile, [&](int d, int s_out, int i) { return Tile::word(false, d, s_out, gfpf_bit_reverse<R>(i)); });
}

// The tile of gfpf_dft_element_team_folded: GfpfElementTeamTile's, with
// its digit planes 3 modulo the 16 bank pairs apart at R = 16 (as the
// pairs', GfpfElementTeamPairTile::plane: the tensor cores' loads take
// digits 4k + q of an element in lanes 4g + q, from four planes at once).
template <int R>
struct GfpfElementTeamFoldedTile {
    using Base = GfpfElementTeamTile<R>;
    static constexpr int team = Base::team, dfts = Base::dfts, threads = Base::threads, run = Base::run;
    static constexpr int plane = Base::plane + (R == 16 ? 3 : 0);
    static constexpr int scratch = GFPF_K * plane;
    static constexpr int words = scratch + GFPF_K * threads;

    GFPF_METHOD static int word(bool, int d, int s, int i) { return d * plane + s * run + i; }
};

#ifdef GFPF_SHARED_TWIDDLES
// The products of gfpf_dft_element_team_folded on the tensor cores: lanes
// 16h … 16h + 15 of a warp take slot c of the block's R DFTs (DFT lane mod
// 16), entry c·R² + lo·R + hi of p.tensor_table. Everything made here from
// p, blockIdx and threadIdx, so that nothing is held through it.
template <class Tile, int R, bool IN_TIME, class Array>
GFPF_FN void gfpf_folded_products(const GfpfStageParams& p, Array& tile) {
    static_assert(Tile::dfts == R && R == 16, "a slot's R elements share a twiddle, sixteen lanes");
    constexpr int warps = Tile::threads / 32;
    static_assert(warps * GFPF_SHARED_TWIDDLE_STAGED_WORDS <= Tile::words - Tile::scratch,
                  "staging within the scratch");
    const int warp = threadIdx.x >> 5;
#pragma unroll 1
    for (int call = 0; call < R / (2 * warps); ++call) {
        const int lane = (int)gfpf_lane_here(), t = lane & (R - 1);
        const GfpfTileSites<Tile, R, true> sites(p, Tile::team, false);
        const unsigned j = (unsigned)gfpf_folded_j<R, IN_TIME>(p, sites, sites.dft(t));
        const int c = (call * warps + warp) * 2 + (lane >> 4);
        const int place = IN_TIME ? gfpf_bit_reverse<R>(c) : c;
        gfpf_tile_mul_shared_twiddles<16>(tile, Tile::word(false, 0, t, place), Tile::plane,
                                          (const gfpf_u64*)p.tensor_table,
                                          c == 0 || j == 0 ? GFPF_TWIDDLE_ONE : (unsigned)c * (R * R) + j, tile,
                                          Tile::scratch + warp * GFPF_SHARED_TWIDDLE_STAGED_WORDS);
    }
}
#endif

// A stride-1 stage that takes the column and row twiddles of the
// tensor-core pair of s = R beside it (gfpf_cuda::params::
// fold_pair_twiddles_into_stride_one; p.folded_step = u): in time after
// its DFTs, on their outputs (its inputs gathered), in frequency before
// them, on their inputs. Output (or input) c of a DFT whose elements lie
// at m·R … m·R + R − 1 takes w^(c·(lo·R + hi)·u), m mod R² = hi·R + lo.
// The block's R DFTs share m mod R² (gathered: R neighbouring columns,
// whose outputs' top digits are the same from N = R⁴; else R² apart,
// GfpfTileSites<…, SPREAD>), so each of its slots' R elements share a
// twiddle: on the tensor cores, sixteen lanes a twiddle
// (gfpf_tile_mul_shared_twiddles<16>), entry c·R² + lo·R + hi of
// p.tensor_table (gfpf_cuda::tensor_twiddle_table). Where the field's r
// is out of their range, one product a slot on the threads, as
// gfpf_dft_element_team's.
template <int R, bool IN_TIME>
GFPF_FN void gfpf_dft_element_team_folded(const GfpfStageParams& p) {
    using Tile = GfpfElementTeamFoldedTile<R>;
    constexpr int P = Tile::team;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, Tile::words);
    {
        const GfpfTileSites<Tile, R, true> sites(p, P, false);
        sites.load(p, tile);
    }
#ifdef GFPF_SHARED_TWIDDLES
    if (!IN_TIME) {
        gfpf_folded_products<Tile, R, IN_TIME>(p, tile);
        __syncthreads();
    }
    {
        // Lanes l and l + 16 of warp w take DFT l and members w and w + R/4:
        // a warp's members agree modulo R/4, so the layers from h = R/4 take
        // the warp's shift (gfpf_element_team_dft's UNIFORM_H), and each
        // load and store falls two to a bank pair (DFTs 17 words apart).
        const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
        const int s = lane & (R - 1), member = warp + (R / 4) * (lane / R);
        const GfpfTileSites<Tile, R, true> sites(p, P, false);
        gfpf_element_team_dft<Tile, R, GFPF_PLAIN, true, R / 4>(p, tile, Tile::word(false, 0, s, 0), 1, member,
                                                                (gfpf_u64)0, sites.dft(s) < sites.dfts);
    }
    if (IN_TIME) {
        __syncthreads();
        gfpf_folded_products<Tile, R, IN_TIME>(p, tile);
    }
#else
    {
        const int s = threadIdx.x / P;
        const GfpfTileSites<Tile, R, true> sites(p, P, false);
        const auto unit = [&]() -> gfpf_u64 {
            const GfpfTileSites<Tile, R, true> here(p, P, false);
            return gfpf_folded_j<R, IN_TIME>(p, here, here.dft(threadIdx.x / P)) * p.folded_step;
        };
        gfpf_element_team_dft<Tile, R, IN_TIME ? GFPF_TWIDDLE_OUTPUTS : GFPF_TWIDDLE_INPUTS>(
            p, tile, Tile::word(false, 0, s, 0), 1, threadIdx.x % P, unit, sites.dft(s) < sites.dfts);
    }
#endif
    const GfpfTileSites<Tile, R, true> sites(p, P, false);
    sites.store(p, tile, [&](int d, int s_out, int i) { return Tile::word(false, d, s_out, gfpf_bit_reverse<R>(i)); });
}

// Two consecutive stages of DFT_R in one launch, through shared memory
// (gfpf_kernels::element_team_pair_tile, which mirrors the tile): stages at
// strides B and R·B (decimation in time: VARIANT1 plain or on the inputs,
// VARIANT2 on the inputs) or R·B and B (in frequency: VARIANT1 on the
// outputs, VARIANT2 on the outputs or plain), natural input. With s the
// smaller stride, "super-DFT" G = (α, c), c < s, is the R² elements at
// α·R²·s + c + j·s (j < R²), and both stages' DFTs lie within one: writing
// j = hi·R + lo, the DFTs over lo ("rows", hi fixed) are those of the
// stride-s stage, the DFTs over hi ("columns") those of the stride-R·s one.
// A block takes GFPF_PAIR_COLUMNS super-DFTs: neighbouring columns c of one
// α (s at least that many, whole sectors), or neighbouring α (s = 1: one run
// of words). It loads them, runs the first stage's DFTs (a team of R/2
// threads each, gfpf_element_team_dft), meets, runs the second's, meets and
// stores: one pass over device memory where the stages took two.
// Each DFT leaves its outputs in bit-reversed places, so after the first
// stage logical element (hi, lo) sits at row rev(hi) or column rev(lo)
// (whichever that stage ran along), the second stage's DFT of logical index
// q runs along the row or column rev(q) with its inputs in order, and at
// the end tile place (ρ, κ) holds the output at j = rev(ρ)·R + rev(κ).
// Twiddles: a DFT's column b in its stage is the global position of its
// element 0 modulo the stage's stride, as in gfpf_dft_site. The launch's
// parameters are the first stage's (threads: R/2 a DFT, R·R/2 a
// super-DFT); the second's follow from them: stride and blocks moved by R,
// step = its blocks A (N ≥ 2k: exponents in units of ω_N, not of r).
template <int R>
struct GfpfElementTeamPairTile {
    static constexpr int team = R / 2;
    static constexpr bool segments = false;
    // A team's layers meet at __syncwarp (within a warp).
    static constexpr bool layers_end_at_block_barrier = false;
    static constexpr int dft_threads = team;        // threads a DFT
    static constexpr int dfts = GFPF_PAIR_COLUMNS;  // super-DFTs a block
    static constexpr int threads = dfts * R * team;
    // A stage's dfts·R DFTs fill whole warps (R ≥ 8): in the tensor cores'
    // pairs a warp's lanes take 32 DFTs and one member of their teams
    // (gfpf_pair_stage), so that each layer's shift is the warp's
    // (gfpf_element_team_dft's UNIFORM_H). The plain pairs (devices
    // without int8 tensor cores) keep a team in a warp: so laid out, t8's
    // in frequency spilled 8 bytes at 64 registers on sm_80.
    static constexpr bool uniform_members = dfts * R % 32 == 0;
    // Rows of R + 1 words (odd: a column's elements, and a row's of
    // neighbouring teams, in different banks).
    static constexpr int row = R + 1;
    // At R = 16 super-DFTs 276 words apart, 4 modulo the 16 pairs of banks
    // an 8-byte word takes: B's tensor-core pass (gfpf_pair_b_call) takes
    // one element of each of the four a set, at the same place in each,
    // and at 272 words apart a set's four elements of one side shared a
    // bank pair (8 wavefronts a digit load where 2 serve); the strided
    // loads too take the four's elements at once (gpu-model --transform
    // t8:20's shared-memory line).
    static constexpr int super = R * row + (R == 16 ? 4 : 0);
    // Digit planes 3 modulo the 16 bank pairs apart at R = 16 (1
    // elsewhere): the difference's shifted stores (digit d to plane
    // (d + s) mod k, s by lane, gfpf_tile_add_sub_mul_pow_r) and the
    // tensor cores' digit loads (digit 4k + q in lane 4g + q) take
    // several planes at once (gfpf_kernels::element_team_pair_plane_words,
    // which has the figures).
    static constexpr int plane = dfts * super + (R == 16 ? 3 : 1);
    static constexpr int scratch = GFPF_K * plane;
    // Then k words a thread, or at k = 8 the tensor cores' staging where it
    // takes more (two tables a warp, gfpf_pair_tensor_row_twiddles).
    static constexpr int staging = GFPF_K == 8 ? threads / 32 * 2 * GFPF_SHARED_TWIDDLE_STAGED_WORDS : 0;
    static constexpr int words = scratch + (GFPF_K * threads > staging ? GFPF_K * threads : staging);

    // Element (hi, lo) of the block's super-DFT g, digit plane 0.
    GFPF_METHOD static int at(int g, int hi, int lo) { return g * super + hi * row + lo; }
};

// The smaller stride's log2 (s) of a pair launch whose first stage's
// parameters are p.
template <int R_LOG2, bool IN_TIME>
GFPF_FN gfpf_u64 gfpf_pair_log2_s(const GfpfStageParams& p) {
    return IN_TIME ? p.log2_stride : p.log2_stride - R_LOG2;
}

// Global position (digit plane 0) of element j of super-DFT G of a pair
// launch: α·R²·s + c + j·s, G = α·s + c.
template <int R_LOG2, bool IN_TIME>
GFPF_FN gfpf_u64 gfpf_pair_position(const GfpfStageParams& p, gfpf_u64 G, int j) {
    const gfpf_u64 log2_s = gfpf_pair_log2_s<R_LOG2, IN_TIME>(p);
    return ((G >> log2_s) << (2 * R_LOG2 + log2_s)) + (G & ((1ull << log2_s) - 1)) + ((gfpf_u64)j << log2_s);
}

// A pair launch's stage (`SECOND`: its second) parameters: the first's are
// the launch's; the second's stride and blocks are moved by R from them, its
// step its blocks A.
template <int R_LOG2, bool IN_TIME, bool SECOND, int VARIANT>
GFPF_FN GfpfStageParams gfpf_pair_stage_params(const GfpfStageParams& p) {
    GfpfStageParams stage = p;
    if (SECOND) {
        stage.log2_stride = IN_TIME ? p.log2_stride + R_LOG2 : p.log2_stride - R_LOG2;
        stage.log2_blocks = IN_TIME ? p.log2_blocks - R_LOG2 : p.log2_blocks + R_LOG2;
        stage.step = VARIANT == GFPF_PLAIN ? 0 : 1ull << stage.log2_blocks;
    }
    return stage;
}

// The twiddle unit b·step of a pair stage's DFT of logical index q in
// super-DFT G (rows: the first stage in time, the second in frequency): b is
// its element 0's position modulo the stage's stride, as in gfpf_dft_site.
// Where the stride-1 stage beside the pair took its (c, j) twiddles
// (p.folded_step, gfpf_cuda::params::fold_pair_twiddles_into_stride_one),
// without c: what is left is B, w^(a·b·s·u) (the pair's products on the
// threads, where r is out of the tensor cores' range).
template <int R, int R_LOG2, bool IN_TIME, bool SECOND>
GFPF_FN gfpf_u64 gfpf_pair_unit(const GfpfStageParams& p, const GfpfStageParams& stage, gfpf_u64 G, int q) {
    constexpr bool rows = IN_TIME != SECOND;
    const gfpf_u64 without_c = p.folded_step != 0 ? ~((1ull << gfpf_pair_log2_s<R_LOG2, IN_TIME>(p)) - 1) : ~0ull;
    return (gfpf_pair_position<R_LOG2, IN_TIME>(p, G, rows ? q * R : q) & ((1ull << stage.log2_stride) - 1) &
            without_c) *
           stage.step;
}

// This block's index, read where it is used: NVVM makes a function of
// blockIdx.x once for a pair launch's loads and its stores, and ptxas then
// holds it through the stages between (t8's tensor-core pairs spilled it,
// 8 to 12 bytes on sm_90, once their rows closed in registers; NVRTC
// 12.9, 2026-11-29). A volatile read stays where it is.
GFPF_FN unsigned gfpf_block_here() {
#ifdef GFPF_HOST_EMULATION
    return blockIdx.x;
#else
    unsigned block;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(block));
    return block;
#endif
}

// A pair launch's loads (`load`) or stores: consecutive threads on
// neighbouring words of a digit plane (neighbouring columns g for s ≥ D,
// neighbouring j of one run for s = 1); a store takes place (ρ, κ) to
// j = rev(ρ)·R + rev(κ).
template <class Tile, int R, int R_LOG2, bool IN_TIME, class Array>
GFPF_FN void gfpf_pair_move(const GfpfStageParams& p, Array& tile, bool load) {
    constexpr int D = Tile::dfts;
    const gfpf_u64 first_g = (gfpf_u64)blockIdx.x * D, supers = p.threads / (R * Tile::dft_threads);
    const bool columns = gfpf_pair_log2_s<R_LOG2, IN_TIME>(p) != 0;
    for (int w = threadIdx.x; w < D * R * R * GFPF_K; w += Tile::threads) {
        const int d = w / (D * R * R), e = w % (D * R * R);
        // Stored by columns at R = 16, a warp's eight j of its four
        // super-DFTs take lo with bits 0, 2 and 3 of e / D's bits 0–2, so
        // that their tile places rev(lo) (4 apart a super-DFT) fall two to
        // a bank pair; eight neighbouring lo, whose reverses are all even
        // or all odd, put four (gpu-model --transform t8:20's shared line).
        const int u = columns ? e / D : 0;
        const int lo_order = R == 16 && !load ? (u & 1) | (u >> 3 & 1) << 1 | (u >> 1 & 3) << 2 : u & (R - 1);
        const int g = columns ? e % D : e / (R * R), j = columns ? (u & ~(R - 1)) | lo_order : e % (R * R);
        if (first_g + g >= supers) {
            // Past the last super-DFT (a block's last of s = 1): zeros, which
            // the tensor cores' passes read (every lane of a warp takes
            // part) and nothing stores.
            if (load) tile[d * Tile::plane + Tile::at(g, j / R, j % R)] = 0;
            continue;
        }
        const gfpf_u64 at = d * p.pitch + gfpf_pair_position<R_LOG2, IN_TIME>(p, first_g + g, j);
        if (load) {
            tile[d * Tile::plane + Tile::at(g, j / R, j % R)] = GFPF_GLOBAL_READ((const gfpf_u64*)p.src, at);
        } else {
            GFPF_GLOBAL_WRITE((gfpf_u64*)p.dst, at,
                              (gfpf_u64)tile[d * Tile::plane +
                                             Tile::at(g, gfpf_bit_reverse<R>(j / R), gfpf_bit_reverse<R>(j % R))]);
        }
    }
}

// One of a pair launch's stages (`second`: the second), each team on its
// DFT: the stride-s stage along rows, the other along columns; the second
// stage's DFT of logical index q along row or column rev(q) (the first
// left its outputs in bit-reversed places), inputs in order. Everything is
// derived from p, blockIdx and threadIdx here, so that nothing but those
// stays live through the other stage (held through it, the second stage's
// parameters spilled at 64 registers).
template <class Tile, int R, int R_LOG2, bool IN_TIME, bool SECOND, int VARIANT, bool FUSED, bool ACROSS_WARPS,
          class Array>
GFPF_FN void gfpf_pair_stage(const GfpfStageParams& p, Array& tile) {
    constexpr bool uniform = ACROSS_WARPS && Tile::uniform_members;
    // DFT t of the block and the thread's member of its team: with uniform
    // members, warp w takes member w mod R/2 of DFTs 32·⌊w/(R/2)⌋ + lane.
    // A warp's 32 DFTs (16 of one super-DFT, places 17 words or 1 apart,
    // then 16 of the next, 4 bank pairs on) put each of its loads and stores
    // two to a bank pair, as few as 256 bytes take.
    const int warp = threadIdx.x / 32;
    const int t = uniform ? warp / Tile::team * 32 + (threadIdx.x & 31) : threadIdx.x / Tile::team;
    const int member = uniform ? warp % Tile::team : threadIdx.x % Tile::team;
    const int g = t / R;
    // Else, at R = 16 a warp's four teams take DFTs q = 4b + (b ^ w) (b =
    // 0..3, warp w of the super-DFT): places {0, 5, 10, 15}, {1, 4, 11, 14}
    // …, and their bit reverses in the other stage, fall in the bank pairs
    // of a layer's elements (i0 or i1 of each butterfly, 17 words or 1
    // apart) as evenly as four places can: a warp's 8 accesses to the
    // layers' elements in a stage take 20 wavefronts where four
    // neighbouring DFTs took 24 (16 without conflicts, which none of the
    // 1820 sets of four places reaches; enumerated, row and column, both
    // stages).
    const int team_in_super = t % R;
    const int q = R == 16 && !uniform ? 4 * (team_in_super & 3) + ((team_in_super & 3) ^ (team_in_super >> 2))
                                      : team_in_super;
    const gfpf_u64 G = (gfpf_u64)gfpf_block_here() * Tile::dfts + g;
    const bool running = G < p.threads / (R * Tile::dft_threads);
    constexpr bool rows = IN_TIME != SECOND;
    const int place = SECOND ? gfpf_bit_reverse<R>(q) : q;
    const int own = rows ? Tile::at(g, place, 0) : Tile::at(g, 0, place);
    const GfpfStageParams stage = gfpf_pair_stage_params<R_LOG2, IN_TIME, SECOND, VARIANT>(p);
    const gfpf_u64 unit = running ? gfpf_pair_unit<R, R_LOG2, IN_TIME, SECOND>(p, stage, G, q) : 0;
    gfpf_element_team_dft<Tile, R, VARIANT, FUSED, uniform ? R / 2 : 0>(stage, tile, own, rows ? 1 : Tile::row,
                                                                        member, unit, running);
}


// Two stages of DFT_R in one launch by teams of segments (the stages that
// do not fill the device, where a thread's shorter path wins): as
// gfpf_dft_element_team_pair, one super-DFT a block (gfpf_kernels::
// team_pair_tile, which mirrors it), each DFT over a team of segments
// (gfpf_team_dft, an element's digits over a segment's lanes). At t8 a
// block is R DFTs × 64 lanes, 1024 threads; a super-DFT's elements are one
// run of words at stride 1, and 8 bytes of each sector at a stride of 16
// or more (a quarter of the sectors' bytes: small transforms, bound by
// their paths and launches, not their bytes).
template <int R>
struct GfpfTeamPairTile {
    static constexpr int team = GfpfTeamSize<R>::team;
    static constexpr bool segments = true;
    static constexpr int dft_threads = GfpfTeamSize<R>::lanes;
    static constexpr int dfts = 1;
    static constexpr int threads = R * dft_threads;
    // Whether a team spans warps: its layers then meet at __syncthreads.
    static constexpr bool across_warps = dft_threads > 32;
    static constexpr bool layers_end_at_block_barrier = across_warps;
    // Rows of R + 1 words, planes of an odd number: a segment's lanes (one
    // element's digits) in different banks.
    static constexpr int row = R + 1;
    static constexpr int plane = R * row + 1;
    static constexpr int words = GFPF_K * plane;

    GFPF_METHOD static int at(int, int hi, int lo) { return hi * row + lo; }
};

template <class Tile, int R, int R_LOG2, bool IN_TIME, bool SECOND, int VARIANT, class Array>
GFPF_FN void gfpf_team_pair_stage(const GfpfStageParams& p, Array& tile) {
    const GfpfLanes lanes = gfpf_warp_lanes();
    const int segment = threadIdx.x / GFPF_LANE_SEGMENT;
    const int q = segment / Tile::team, member = segment % Tile::team;
    const gfpf_u64 G = blockIdx.x;
    const bool running = G < p.threads / (R * Tile::dft_threads);
    constexpr bool rows = IN_TIME != SECOND;
    const int place = SECOND ? gfpf_bit_reverse<R>(q) : q;
    const int first = rows ? Tile::at(0, place, 0) : Tile::at(0, 0, place);
    int own[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) own[h] = lanes.digit(h) * Tile::plane + first;
    const GfpfStageParams stage = gfpf_pair_stage_params<R_LOG2, IN_TIME, SECOND, VARIANT>(p);
    const gfpf_u64 unit = running ? gfpf_pair_unit<R, R_LOG2, IN_TIME, SECOND>(p, stage, G, q) : 0;
    gfpf_team_dft<Tile, R, VARIANT>(stage, tile, lanes, own, rows ? 1 : Tile::row, member, unit, running);
}

#ifdef GFPF_SHARED_TWIDDLES
// The twiddles that a column of an element-team pair's tile shares, on the
// tensor cores (gfpf_tile_mul_shared_twiddles): in time the first stage's
// inputs, before its DFTs run plain; in frequency the second stage's
// outputs, after them. Element (hi, lo) of super-DFT G = α·s + c takes
// w^(j·c·u) whatever hi, j = lo in time, rev(lo) in frequency (the second
// stage's DFT q left its output j at place rev(j) of its row), u = step
// in time, R·step in frequency (the second stage's step). With
// p.tensor_split_bits = 0 it is entry c·R + j of p.tensor_table
// (gfpf_cuda::tensor_twiddle_table); with b, two products by entries
// e mod 2^b (w^(e mod 2^b)) and 2^b + ⌊e/2^b⌋ (w^(2^b·⌊e/2^b⌋)), e =
// j·c·u, where the s·R tables of the first would neither stay in L2 nor
// be streamed from device memory (gfpf_cuda::params::
// TENSOR_STREAMED_TWIDDLES_MAX: t8 2^20's second pair in time streams its
// 65536, 32 MiB, where the split tables would be 2048).
// A warp takes 8 groups of 4 a call, R/4 neighbouring groups of one column
// (so sixteen lanes a twiddle from R = 16, else eight), its staging in
// the tile's scratch elements (16 warps × 150 words of 4800 at t8's
// DFT_16). WITH_ROWS: the kernel runs
// gfpf_pair_tensor_row_twiddles too (what changes is only how G is made).
// Lane l's element of a row (or column) of 16 that lanes 16h … 16h + 15
// take in the tensor-core pair passes: set 2h (lanes 16h … 16h + 7) the
// even ones, set 2h + 1 the odd ones, so that a product's digit loads and
// stores (lane 4g + q on element g of its set, digit 4k + q; element
// 2q + e, digit g) spread over the bank pairs two to each (rows or
// elements 17 words or 1 apart: eight neighbours of a set put four to
// some).
GFPF_FN int gfpf_pair_interleaved(int lane) { return 2 * (lane & 7) + ((lane >> 3) & 1); }

template <class Tile, int R, int R_LOG2, bool IN_TIME, bool WITH_ROWS, class Array>
GFPF_FN void gfpf_pair_tensor_twiddles(const GfpfStageParams& p, Array& tile) {
    constexpr int warps = Tile::threads / 32, groups = Tile::dfts * R * (R / 4);
    static_assert(groups % (8 * warps) == 0, "whole calls of 8 groups a warp");
    static_assert(warps * GFPF_SHARED_TWIDDLE_STAGED_WORDS <= Tile::words - Tile::scratch, "staging within the scratch");
    static_assert(R % 8 == 0, "a set's eight lanes within a column");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const gfpf_u64 supers = p.threads / (R * Tile::dft_threads);
    const gfpf_u64 log2_s = gfpf_pair_log2_s<R_LOG2, IN_TIME>(p);
    const int factors = p.tensor_split_bits == 0 ? 1 : 2;
    // The factors outermost and rolled: nested in the calls, t8's kernel
    // kept 16 bytes of stack and spilled 24 on sm_90. A lane's element is
    // written last by its own lane, at the end of a call; with two calls
    // or more, the next call's __syncwarps order that before any lane
    // reads the element for the second factor.
    static_assert(groups / (8 * warps) >= 2, "a call between a factor's last product of an element and the next");
#pragma unroll 1
    for (int f = 0; f < factors; ++f) {
        // Rolled: unrolled, the kernels in frequency (this pass after the
        // second stage) kept 8 bytes of stack on sm_90 (t8 and p8; in time
        // the first rolled form, its counter held through the stage, had).
#pragma unroll 1
        for (int call = 0; call < groups / (8 * warps); ++call) {
            const int group = (call * warps + warp) * 8 + (lane >> 2);
            // Lanes 16h … 16h + 15 take column lo's rows, interleaved at R = 16.
            const int g = group / (R * (R / 4)), lo = group / (R / 4) % R;
            const int hi = R == 16 ? gfpf_pair_interleaved(lane) : group % (R / 4) * 4 + (lane & 3);
            // Made in 32 bits where the kernel runs the row pass too (blocks
            // below 2^30, N below 2^40): there ptxas spilled the 64-bit
            // form across the stages on sm_90, and in the kernel without
            // the row pass a value of its own with the 32-bit form
            // (t8, NVRTC 12.9, 2026-11-28).
            const gfpf_u64 G = WITH_ROWS ? (gfpf_u64)(unsigned)(blockIdx.x * Tile::dfts + g)
                                         : (gfpf_u64)blockIdx.x * Tile::dfts + g;
            const gfpf_u64 c = G & ((1ull << log2_s) - 1);
            const int j = IN_TIME ? lo : gfpf_bit_reverse<R>(lo);
            const gfpf_u64 u = IN_TIME ? p.step : p.step << R_LOG2;
            const gfpf_u64 e = G < supers ? (gfpf_u64)j * c * u : 0, split = p.tensor_split_bits;
            const unsigned twiddle = factors == 1 ? (G < supers ? (unsigned)(c * R + j) : 0u)
                                     : f == 0     ? (unsigned)(e & ((1ull << split) - 1))
                                                  : (unsigned)((1ull << split) + (e >> split));
            // The twiddle 1: its column j = 0, its super-DFT c = 0, or past
            // the launch (entries c·R + j with c = 0 or j = 0), or a split
            // factor's exponent 0 (entries 0 and 2^b), in the kernel
            // without the rows' pass alone: the one with it never takes the
            // split (gfpf_cuda::params pairs both stages' tables with one
            // table a twiddle only), and the test there made t8's spill 4
            // to 16 bytes on sm_90 (NVRTC 12.9, 2026-11-30).
            const bool one = factors == 1 ? twiddle < (unsigned)R || twiddle % R == 0
                                          : !WITH_ROWS && twiddle == (f == 0 ? 0u : 1u << split);
            gfpf_tile_mul_shared_twiddles<R % 16 == 0 ? 16 : 8>(tile, Tile::at(g, hi, lo), Tile::plane, (const gfpf_u64*)p.tensor_table,
                                             one ? GFPF_TWIDDLE_ONE : twiddle, tile,
                                             Tile::scratch + warp * GFPF_SHARED_TWIDDLE_STAGED_WORDS);
        }
    }
}
#endif

#ifdef GFPF_SHARED_TWIDDLES
// v with `bit` inserted at place `at` (v's bits from `at` up move up one).
GFPF_FN int gfpf_insert_bit(int v, int at, int bit) { return (v >> at) << (at + 1) | bit << at | (v & ((1 << at) - 1)); }

// Call m of B's pass (gfpf_pair_tensor_row_twiddles): B(a, b) = B(b, a),
// so the elements of (a, b) and (b, a) in the four super-DFTs share a
// twiddle, eight lanes a twiddle (lane 4·side + g of a set, side 1 the
// transposed pair): calls m < R(R − 1)/8. The pairs {a, a ^ δ}, δ = 1 …
// R − 1: call m takes δ = ⌊m/2⌋ + 1 and the four a whose bit t (δ's top
// bit) is 0 and bit c (3 below δ = 8, else 2) is m mod 2, the set's index
// in the other two bits. Their elements' places mod 4 (a + rev(b), or
// rev(a) + b, over rows of 17 words) then take each class twice, and with
// the super-DFTs 4 apart modulo the 16 bank pairs a call's 32 elements
// fall two to a bank pair for the closing carries (by circular distance,
// up to six: enumerated). The diagonal's (a, a) share a twiddle four
// elements apart, one in each super-DFT. Where B(0, b) = 1 (the tables
// carry no N^{-1}), set 0 of an even call (pair {0, δ}) has nothing to
// do, and takes the diagonal's (δ, δ) instead on side 0, side 1 on the
// pad words that end the same rows (elements there, 1 at first:
// gfpf_pair_pads_set; each δ's rows its own), whose products go nowhere
// (side 1 on copies of side 0's elements would have two lanes write one
// word, and tests on the writes cost 48 instructions a call and spilled
// t8's pair in frequency with both stages on the tensor cores 4 bytes on
// sm_90, NVRTC 12.9, 2026-11-30): the R − 1 even calls take the diagonal
// but (0, 0), which is 1 too. With N^{-1} in the tables, every set of the
// pairs has a product, and the diagonal takes R/8 calls more (m ≥
// R(R − 1)/8) of four lanes a twiddle, in sets of two twiddles' four.
// (Those calls, 1172 instructions on a lane's path by the probes where a
// call of eight lanes a twiddle takes 820, kept the busiest warp of t8
// 2^20's first pair at 1787 instructions of B's products where two calls
// of eight lanes take 1640: kernels --probe, t8, NVRTC 12.9, sm_90,
// 2026-11-30.)
// `pairs`: m is known to be below R(R − 1)/8. With four lanes a twiddle
// throughout, t8 2^20's first pair staged 15.7M sectors of tables where
// it stages 12.0M, and the model put it at 0.140 ms, bound by that
// traffic, where it puts it at 0.119 (gpu-model --transform t8:20, at the
// floor, 2026-11-28).
// The pad word that ends each row (rows are R + 1 words) of the tile's
// super-DFTs, in every digit plane, set to the element 1: side 1 of B's
// diagonal sets works there (gfpf_pair_b_call), and nothing else reads or
// writes those words. One word a thread, before the tile's load meets.
template <class Tile, int R, class Array>
GFPF_FN void gfpf_pair_pads_set(Array& tile) {
    static_assert(Tile::row == R + 1 && Tile::threads == GFPF_K * Tile::dfts * R, "a thread a pad word");
    const int t = threadIdx.x, d = t / (Tile::dfts * R), g = t / R % Tile::dfts;
    tile[Tile::at(g, t % R, R) + d * Tile::plane] = d == 0 ? 1 : 0;
}

template <class Tile, int R, bool IN_TIME, class Array>
GFPF_FN void gfpf_pair_b_call(const GfpfStageParams& p, Array& tile, int m, bool pairs, unsigned b_tables,
                              int staging) {
    constexpr int pair_calls = R * (R - 1) / 8;
    const int lane = threadIdx.x & 31, g = lane & 3;
    // B's R² tables: every block reads them.
    GFPF_RESIDENT_TABLE_READS(true);
    static_assert(R == 16, "the pairs by XOR of four bits");
    if (pairs || m < pair_calls) {
        const int delta = m / 2 + 1, set = lane >> 3;
        const int top = delta >= 8 ? 3 : delta >= 4 ? 2 : delta >= 2 ? 1 : 0, chosen = delta >= 8 ? 2 : 3;
        // The set's two bits in the other two places: bit 0 at the lower
        // of top and chosen first, then the other at the higher.
        const int lower = top < chosen ? top : chosen, higher = top < chosen ? chosen : top;
        const int low = gfpf_insert_bit(gfpf_insert_bit(set, lower, lower == top ? 0 : m & 1), higher,
                                        higher == top ? 0 : m & 1);
        const int high = low ^ delta;
        const bool side = (lane >> 2) & 1;
        // low = 0 in set 0 of the even calls alone: there the diagonal's
        // (δ, δ) where B(0, δ) = 1, side 1 on the pad word of its row.
        const bool diagonal = p.tensor_scale == 0 && low == 0;
        const int a = diagonal || side ? high : low, b = diagonal || !side ? high : low;
        const int hi = IN_TIME ? a : gfpf_bit_reverse<R>(a), col = IN_TIME ? gfpf_bit_reverse<R>(b) : b;
        gfpf_tile_mul_shared_twiddles<8>(tile, Tile::at(g, hi, diagonal && side ? R : col), Tile::plane,
                                         (const gfpf_u64*)p.tensor_table,
                                         b_tables + (unsigned)((diagonal ? high : low) * R + high), tile, staging);
    } else if (p.tensor_scale != 0) {
        const int a = (m - pair_calls) * 8 + (lane >> 2);
        const int hi = IN_TIME ? a : gfpf_bit_reverse<R>(a), col = IN_TIME ? gfpf_bit_reverse<R>(a) : a;
        gfpf_tile_mul_shared_twiddles<4>(tile, Tile::at(g, hi, col), Tile::plane, (const gfpf_u64*)p.tensor_table,
                                         b_tables + (unsigned)(a * R + a), tile, staging);
    }
    GFPF_RESIDENT_TABLE_READS(false);
}

// The twiddles between an element-team pair's stages, on the tensor cores
// (p.tensor_split_bits = 0): in time the second stage's inputs, in
// frequency the first stage's outputs; the stages' DFTs run plain. In
// time the second stage's DFT q of super-DFT G = α·s + c runs down column
// rev(q) (the first left its outputs there) and takes on its input hi
// w^(hi·(c + q·s)·u), u = step/R; in frequency the first stage's DFT q ran
// down column q and leaves its output o at row rev(o), which takes
// w^(o·(c + q·s)·u), u = step. Either is A·B, with a = hi in time, rev(hi)
// in frequency, and b = q: A = w^(a·c·u), the same for the R elements of
// row hi, sixteen lanes a twiddle from R = 16 (entry s·R + c·R + a of p.tensor_table),
// and B = w^(a·b·s·u) = ω_(R²)^(a·b), the same for every super-DFT, four
// lanes a twiddle, one element of each of the block's four super-DFTs
// (entry 2·s·R + a·R + b). The passes group the elements differently, so
// the block meets between them.
//
// A_PASS false: a pair of s = 1 whose other stage is plain (in time the
// first, from a digit-reversed input or the transform's first stage; in
// frequency the second), where c = 0 makes A = 1: B alone, entry a·R + b
// of p.tensor_table (gfpf_kernels::Kernel::ElementTeamPairRowsMma).
template <class Tile, int R, int R_LOG2, bool IN_TIME, bool A_PASS = true, class Array>
GFPF_FN void gfpf_pair_tensor_row_twiddles(const GfpfStageParams& p, Array& tile) {
    constexpr int warps = Tile::threads / 32, elements = Tile::dfts * R * R;
    static_assert(elements % (32 * warps) == 0, "whole calls of 32 elements a warp");
    static_assert(Tile::dfts == 4, "four super-DFTs a block share B, four lanes a twiddle");
    static_assert(warps * 2 * GFPF_SHARED_TWIDDLE_STAGED_WORDS <= Tile::words - Tile::scratch,
                  "staging within the scratch");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const gfpf_u64 log2_s = gfpf_pair_log2_s<R_LOG2, IN_TIME>(p);
    const unsigned sr = (unsigned)R << log2_s;
    const int staging = Tile::scratch + warp * 2 * GFPF_SHARED_TWIDDLE_STAGED_WORDS;
    // A: element t = (g, hi, col) of the block, sixteen lanes a row
    // (rolled: unrolled, the kernels in frequency spilled 4 to 16 bytes on
    // sm_90).
    if constexpr (A_PASS) {
#pragma unroll 1
        for (int call = 0; call < elements / (32 * warps); ++call) {
            // A row's columns interleaved at R = 16, as
            // gfpf_pair_tensor_twiddles takes a column's rows.
            const int t = (call * warps + warp) * 32 + lane;
            const int g = t / (R * R), hi = t / R % R;
            // (The lane read here: gfpf_pair_interleaved(lane), made before
            // the first stage and held through it, spilled on sm_90.)
            const int col = R == 16 ? gfpf_pair_interleaved((int)gfpf_lane_here()) : t % R;
            const gfpf_u64 c = (unsigned)(blockIdx.x * Tile::dfts + g) & ((1ull << log2_s) - 1);
            const int a = IN_TIME ? hi : gfpf_bit_reverse<R>(hi);
            // A = w^(a·c·u): 1 in row a = 0 and super-DFT c = 0.
            gfpf_tile_mul_shared_twiddles<R % 16 == 0 ? 16 : 8>(tile, Tile::at(g, hi, col), Tile::plane,
                                             (const gfpf_u64*)p.tensor_table,
                                             a == 0 || c == 0 ? GFPF_TWIDDLE_ONE : sr + (unsigned)c * R + a, tile, staging);
        }
        __syncthreads();
    }
    // B's tables: after the columns' and A's, or alone.
    const unsigned b_tables = A_PASS ? 2 * sr : 0;
    // B: R²/8 calls of the block's warps (gfpf_pair_b_call).
    static_assert(R % 8 == 0, "whole calls of sets of eight lanes and of four");
    constexpr int calls = R * R / 8 / warps, pair_calls = R * (R - 1) / 8;
    static_assert(calls * warps == R * R / 8, "the block's warps take every call");
    static_assert((calls - 1) * warps <= pair_calls, "a warp's calls but its last take pairs");
    // Unrolled (rolled with the A pass before it, ptxas held the loop's
    // exit test through a call and spilled it, 4 bytes on sm_90, once the
    // rows closed in registers; before, each form had spilled 8-24 bytes of
    // one kernel or the other: t8, NVRTC 12.9, 2026-11-28 and -29).
    // The diagonal's calls, where the tables carry N^{-1}, are the last
    // (gfpf_pair_b_call); without, the warps that would take them rest.
#pragma unroll
    for (int call = 0; call < calls; ++call) {
        gfpf_pair_b_call<Tile, R, IN_TIME>(p, tile, call * warps + warp, call < calls - 1, b_tables, staging);
    }
}
#endif

// Both pair kernels' work on the block's tile: load, the first stage's
// DFTs, the second's, store. Teams whose layers end at __syncthreads (of
// segments across warps) need no other barrier between but after twiddled
// outputs, written after their last layer.
template <class Tile, int R, int VARIANT1, int VARIANT2, bool TENSOR = false, bool TENSOR_ROWS = false,
          class Array>
GFPF_FN void gfpf_dft_pair(const GfpfStageParams& p, Array& tile) {
    constexpr int R_LOG2 = GfpfLog2<R>::value;
    constexpr bool IN_TIME = VARIANT1 != GFPF_TWIDDLE_OUTPUTS;
    // gfpf_element_team_dft's FUSED: not where both stages twiddle outputs.
    constexpr bool FUSED = VARIANT1 != GFPF_TWIDDLE_OUTPUTS || VARIANT2 != GFPF_TWIDDLE_OUTPUTS;
    // With TENSOR the stage whose twiddles a column of the tile shares (in
    // time the first's inputs, in frequency the second's outputs) takes
    // them on the tensor cores; with TENSOR_ROWS too the other stage's,
    // between the two (gfpf_pair_tensor_row_twiddles). Those stages' DFTs
    // run plain. TENSOR_ROWS alone: a pair of s = 1 whose other stage is
    // plain, its twiddles B alone.
    static_assert(!(TENSOR || TENSOR_ROWS) || !Tile::segments, "an element-team pair");
    static_assert(!TENSOR || (VARIANT1 == VARIANT2 && VARIANT1 != GFPF_PLAIN),
                  "both stages' twiddles on their inputs or both on their outputs");
    static_assert(!TENSOR_ROWS || TENSOR || (VARIANT1 == GFPF_PLAIN && VARIANT2 == GFPF_TWIDDLE_INPUTS) ||
                      (VARIANT1 == GFPF_TWIDDLE_OUTPUTS && VARIANT2 == GFPF_PLAIN),
                  "the rows' twiddles with the columns', or alone where the other stage is plain");
    constexpr int FIRST = (TENSOR && IN_TIME) || (TENSOR_ROWS && !IN_TIME) ? GFPF_PLAIN : VARIANT1;
    constexpr int SECOND = (TENSOR && !IN_TIME) || (TENSOR_ROWS && IN_TIME) ? GFPF_PLAIN : VARIANT2;
#ifdef GFPF_SHARED_TWIDDLES
    // The pad words B's pass works on (gfpf_pair_b_call), where it runs.
    if constexpr (TENSOR_ROWS) gfpf_pair_pads_set<Tile, R>(tile);
#endif
    gfpf_pair_move<Tile, R, R_LOG2, IN_TIME>(p, tile, true);
    __syncthreads();
#ifdef GFPF_SHARED_TWIDDLES
    if constexpr (TENSOR && IN_TIME) {
        gfpf_pair_tensor_twiddles<Tile, R, R_LOG2, IN_TIME, TENSOR_ROWS>(p, tile);
        __syncthreads();
    }
#endif
    if constexpr (Tile::segments) {
        gfpf_team_pair_stage<Tile, R, R_LOG2, IN_TIME, false, VARIANT1>(p, tile);
    } else {
        gfpf_pair_stage<Tile, R, R_LOG2, IN_TIME, false, FIRST, FUSED, TENSOR || TENSOR_ROWS>(p, tile);
    }
    if (!Tile::layers_end_at_block_barrier || VARIANT1 == GFPF_TWIDDLE_OUTPUTS) __syncthreads();
#ifdef GFPF_SHARED_TWIDDLES
    if constexpr (TENSOR_ROWS) {
        gfpf_pair_tensor_row_twiddles<Tile, R, R_LOG2, IN_TIME, TENSOR>(p, tile);
        __syncthreads();
    }
#endif
    if constexpr (Tile::segments) {
        gfpf_team_pair_stage<Tile, R, R_LOG2, IN_TIME, true, VARIANT2>(p, tile);
    } else {
        gfpf_pair_stage<Tile, R, R_LOG2, IN_TIME, true, SECOND, FUSED, TENSOR || TENSOR_ROWS>(p, tile);
    }
    if (!Tile::layers_end_at_block_barrier || VARIANT2 == GFPF_TWIDDLE_OUTPUTS) __syncthreads();
#ifdef GFPF_SHARED_TWIDDLES
    if constexpr (TENSOR && !IN_TIME) {
        gfpf_pair_tensor_twiddles<Tile, R, R_LOG2, IN_TIME, TENSOR_ROWS>(p, tile);
        __syncthreads();
    }
#endif
    gfpf_pair_move<Tile, R, R_LOG2, IN_TIME>(p, tile, false);
}

template <int R, int VARIANT1, int VARIANT2, bool TENSOR = false, bool TENSOR_ROWS = false>
GFPF_FN void gfpf_dft_element_team_pair(const GfpfStageParams& p) {
    using Tile = GfpfElementTeamPairTile<R>;
    GFPF_DYNAMIC_SHARED_ARRAY(gfpf_u64, tile, Tile::words);
    gfpf_dft_pair<Tile, R, VARIANT1, VARIANT2, TENSOR, TENSOR_ROWS>(p, tile);
}

template <int R, int VARIANT1, int VARIANT2>
GFPF_FN void gfpf_dft_team_pair(const GfpfStageParams& p) {
    using Tile = GfpfTeamPairTile<R>;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, Tile::words);
    gfpf_dft_pair<Tile, R, VARIANT1, VARIANT2>(p, tile);
}
#endif

// x <- x·N^{-1} for every element (inverse plans).
GFPF_FN void gfpf_scale_thread(const GfpfStageParams& p, gfpf_u64 t) {
    const gfpf_u64* n_inv_words = (const gfpf_u64*)p.table;
    GfpfElem n_inv;
    for (int d = 0; d < GFPF_K; ++d) n_inv.d[d] = GFPF_TABLE_READ(n_inv_words, d);
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    gfpf_store(dst, p.pitch, t, gfpf_mul(gfpf_load(dst, p.pitch, t), n_inv));
}

// dst[t] <- dst[t]·src[t] for every element (pitch = threads): the pointwise
// product of two transforms, for polynomial products on the device.
GFPF_FN void gfpf_pointwise_mul_thread(const GfpfStageParams& p, gfpf_u64 t) {
    const gfpf_u64* src = (const gfpf_u64*)p.src;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    gfpf_store(dst, p.pitch, t, gfpf_mul(gfpf_load(dst, p.pitch, t), gfpf_load(src, p.pitch, t)));
}

// A kernel of one thread per index t < threads (GFPF_KERNEL; with another
// parameter struct than GfpfStageParams, GFPF_PARAMS_KERNEL) or of whole
// blocks (GFPF_BLOCK_KERNEL), on the device or in the host's block-level
// emulator (gfpf_emulation.h), which takes the launch's geometry and schedule.
#ifdef GFPF_HOST_EMULATION
#define GFPF_PARAMS_KERNEL(Params, name, body)                                        \
    extern "C" int name(const Params* p, GfpfEmuLaunch* launch) {                     \
        return gfpf_emu::launch(#name, *launch, [p] {                                 \
            gfpf_u64 t = (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x;             \
            if (t < p->threads) body(*p, t);                                          \
        });                                                                           \
    }
#define GFPF_BLOCK_KERNEL(name, body)                                                 \
    extern "C" int name(const GfpfStageParams* p, GfpfEmuLaunch* launch) {      \
        return gfpf_emu::launch(#name, *launch, [p] { body(*p); });                   \
    }
#define GFPF_OCCUPANCY_KERNEL(name, body, blocks) GFPF_KERNEL(name, body)
#define GFPF_OCCUPANCY_PARAMS_KERNEL(Params, name, body, blocks) GFPF_PARAMS_KERNEL(Params, name, body)
#define GFPF_LANE_KERNEL(name, body, blocks)                                      \
    extern "C" int name(const GfpfStageParams* p, GfpfEmuLaunch* launch) {      \
        return gfpf_emu::launch(#name, *launch, [p] {                             \
            body(*p, (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x);            \
        });                                                                       \
    }
#define GFPF_OCCUPANCY_BLOCK_KERNEL(name, body, threads, blocks) GFPF_BLOCK_KERNEL(name, body)
#else
#define GFPF_PARAMS_KERNEL(Params, name, body)                                \
    extern "C" __global__ void name(const Params p) {                         \
        gfpf_u64 t = (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x;         \
        if (t < p.threads) body(p, t);                                        \
    }
#define GFPF_BLOCK_KERNEL(name, body) \
    extern "C" __global__ void name(const GfpfStageParams p) { body(p); }
// As GFPF_KERNEL, with `blocks` blocks of 128 threads resident per SM
// (8: 64 registers a thread, half of sm_80's and sm_90's 2048 threads).
#define GFPF_OCCUPANCY_KERNEL(name, body, blocks)                                                  \
    extern "C" __global__ void __launch_bounds__(128, blocks) name(const GfpfStageParams p) {      \
        gfpf_u64 t = (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x;                              \
        if (t < p.threads) body(p, t);                                                             \
    }
// As GFPF_PARAMS_KERNEL, with `blocks` blocks of 128 threads resident per SM.
#define GFPF_OCCUPANCY_PARAMS_KERNEL(Params, name, body, blocks)                             \
    extern "C" __global__ void __launch_bounds__(128, blocks) name(const Params p) {          \
        gfpf_u64 t = (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x;                         \
        if (t < p.threads) body(p, t);                                                        \
    }
// A lane kernel: as GFPF_OCCUPANCY_KERNEL, every thread of its blocks running
// (gfpf_warp_lanes).
#define GFPF_LANE_KERNEL(name, body, blocks)                                                       \
    extern "C" __global__ void __launch_bounds__(128, blocks) name(const GfpfStageParams p) {      \
        body(p, (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x);                                  \
    }
// As GFPF_BLOCK_KERNEL, with `blocks` blocks of `threads` threads resident per SM.
#define GFPF_OCCUPANCY_BLOCK_KERNEL(name, body, threads, blocks) \
    extern "C" __global__ void __launch_bounds__(threads, blocks) name(const GfpfStageParams p) { body(p); }
#endif
#define GFPF_KERNEL(name, body) GFPF_PARAMS_KERNEL(GfpfStageParams, name, body)

// Resident threads or blocks per SM for kernels whose products need a few
// more registers on sm_80 than on sm_90: at the sm_90 bounds ptxas kept a
// stack frame of 8–32 bytes and spilled up to 32 on sm_80 in the twiddled
// teams of segments (40 registers, one digit a lane), t8's DFT_16 lanes with
// output twiddles (64) and the lanes of k ≥ 64 (96 and 128; cargo xtask
// kernels --report --arch sm_80, NVRTC 12.9, 2026-11-27). Below sm_90
// (sm_80, and sm_86 and sm_89, whose SMs hold 1536 threads anyway) those
// keep 3/4 as many threads (an A100 is not the card the bounds were chosen
// for); lane kernels of 2 blocks an SM keep them (1 would halve them, and
// none of them spilled).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GFPF_SM80_SHARE(count) ((count) * 3 / 4)
#else
#define GFPF_SM80_SHARE(count) (count)
#endif
#define GFPF_SM80_BLOCKS(blocks) ((blocks) >= 4 ? GFPF_SM80_SHARE(blocks) : (blocks))

#define GFPF_DFT_KERNELS(R)                                                             \
    GFPF_KERNEL(gfpf_dft##R##_plain, (gfpf_dft_thread<R, GFPF_PLAIN>))                  \
    GFPF_KERNEL(gfpf_dft##R##_inputs, (gfpf_dft_thread<R, GFPF_TWIDDLE_INPUTS>))        \
    GFPF_KERNEL(gfpf_dft##R##_outputs, (gfpf_dft_thread<R, GFPF_TWIDDLE_OUTPUTS>))

GFPF_RADICES(GFPF_DFT_KERNELS)

#define GFPF_TILED_KERNELS(R)                                                                   \
    GFPF_BLOCK_KERNEL(gfpf_dft##R##_plain_tiled, (gfpf_dft_tile<R, GFPF_PLAIN>))                \
    GFPF_BLOCK_KERNEL(gfpf_dft##R##_inputs_tiled, (gfpf_dft_tile<R, GFPF_TWIDDLE_INPUTS>))      \
    GFPF_BLOCK_KERNEL(gfpf_dft##R##_outputs_tiled, (gfpf_dft_tile<R, GFPF_TWIDDLE_OUTPUTS>))

GFPF_TILED_RADICES(GFPF_TILED_KERNELS)

// A lane of DFT_R holds R·D words (2R·D registers): with one digit a lane,
// up to 16 words fit 64 registers a thread; beyond, fewer blocks per SM buy
// registers instead of local-memory spills (cargo xtask kernels --report).
// With several (k ≥ 64) a product's working set grows with D (3D words of
// column sums, 2D of shuffled digits): at k = 64, 64 registers hold DFT_2
// only (DFT_4 and DFT_8 spilled 40–140 bytes there), at k = 128 a product
// alone spills at 64 and DFT_8 at 128 (cargo xtask kernels --report, NVRTC
// 12.9, sm_90, 2026-11-24).
#define GFPF_LANE_BLOCKS_ONE_DIGIT(R) (GFPF_LANE_WORDS(R) <= 16 ? 8 : GFPF_LANE_WORDS(R) <= 32 ? 4 : 2)
#define GFPF_LANE_BLOCKS_TWO_DIGITS(R) (GFPF_LANE_WORDS(R) <= 4 ? 8 : GFPF_LANE_WORDS(R) <= 8 ? 6 : 4)
#define GFPF_LANE_BLOCKS_FOUR_DIGITS(R) (GFPF_LANE_WORDS(R) <= 8 ? 5 : GFPF_LANE_WORDS(R) <= 16 ? 4 : 2)
#define GFPF_LANE_BLOCKS(R)                                                                   \
    (GFPF_LANE_DIGITS == 1   ? GFPF_LANE_BLOCKS_ONE_DIGIT(R)                                  \
     : GFPF_LANE_DIGITS == 2 ? GFPF_LANE_BLOCKS_TWO_DIGITS(R)                                 \
                             : GFPF_LANE_BLOCKS_FOUR_DIGITS(R))
// The twiddled kernels: where a lane holds 16 words of one digit, twiddled
// in a loop (GFPF_LANE_TWIDDLE_LOOP), which holds every element through
// each product: 6 blocks an SM (80 registers; at 64 t8's DFT_16 kept
// stack frames of 8 and 56 bytes on sm_90, and at 80 one of 8 on sm_80,
// cargo xtask kernels --one, NVRTC 12.9, 2026-11-28).
#define GFPF_LANE_TWIDDLED_BLOCKS(R) GFPF_SM80_BLOCKS(GFPF_LANE_TWIDDLE_LOOP(R) ? 6 : GFPF_LANE_BLOCKS(R))
// The element-wise kernels (one product a lane): 64 registers up to k = 64.
#define GFPF_LANE_ELEMENTWISE_BLOCKS GFPF_SM80_BLOCKS(GFPF_LANE_DIGITS <= 2 ? 8 : 5)
#define GFPF_LANE_KERNELS(R)                                                                                      \
    GFPF_LANE_KERNEL(gfpf_dft##R##_plain_lanes, (gfpf_dft_lanes<R, GFPF_PLAIN>), GFPF_LANE_BLOCKS(R))           \
    GFPF_LANE_KERNEL(gfpf_dft##R##_inputs_lanes, (gfpf_dft_lanes<R, GFPF_TWIDDLE_INPUTS>), GFPF_LANE_TWIDDLED_BLOCKS(R)) \
    GFPF_LANE_KERNEL(gfpf_dft##R##_outputs_lanes, (gfpf_dft_lanes<R, GFPF_TWIDDLE_OUTPUTS>), GFPF_LANE_TWIDDLED_BLOCKS(R))

GFPF_LANE_RADICES(GFPF_LANE_KERNELS)

// Blocks of GfpfLaneTile<R>::threads (128 or fewer) threads resident per SM:
// as many threads as GFPF_LANE_BLOCKS(R) blocks of 128.
#define GFPF_LANE_TILE_BLOCKS(R) (GFPF_LANE_BLOCKS(R) * 128 / GfpfLaneTile<R>::threads)
#define GFPF_LANE_TILED_KERNELS(R)                                                                        \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_plain_lanes_tiled, (gfpf_dft_lanes_tile<R, GFPF_PLAIN>),    \
                                GfpfLaneTile<R>::threads, GFPF_LANE_TILE_BLOCKS(R))                       \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_inputs_lanes_tiled,                                         \
                                (gfpf_dft_lanes_tile<R, GFPF_TWIDDLE_INPUTS>), GfpfLaneTile<R>::threads,  \
                                GFPF_LANE_TILE_BLOCKS(R))                                                 \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_outputs_lanes_tiled,                                        \
                                (gfpf_dft_lanes_tile<R, GFPF_TWIDDLE_OUTPUTS>), GfpfLaneTile<R>::threads, \
                                GFPF_LANE_TILE_BLOCKS(R))

GFPF_LANE_TILED_RADICES(GFPF_LANE_TILED_KERNELS)

// A team's DFTs: a lane holds two elements and one product's working set:
// 25–40 registers with one digit a lane (t2–t32), 42–64 with two (t64),
// 59–112 with four (t128), none spilling (cargo xtask kernels --report,
// NVRTC 12.9, sm_90, 2026-11-24); so 1536, 1024 and 512 threads an SM
// (at most 40, 64 and 128 registers).
#define GFPF_TEAM_SM_THREADS (GFPF_LANE_DIGITS == 1 ? 1536 : GFPF_LANE_DIGITS == 2 ? 1024 : 512)
// Blocks of `threads` resident per SM within `sm_threads` threads, at least 1.
#define GFPF_BLOCKS_AN_SM(sm_threads, threads) ((sm_threads) / (threads) > 0 ? (sm_threads) / (threads) : 1)
#define GFPF_TEAM_BLOCKS(R) GFPF_BLOCKS_AN_SM(GFPF_TEAM_SM_THREADS, GfpfTeamTile<R>::threads)
// The twiddled ones (a product a lane), with one digit a lane 3/4 of those
// threads below sm_90 (with more they did not spill there, and 3/4 of 1024
// would halve k = 64's blocks of 512).
#define GFPF_TEAM_TWIDDLED_SM_THREADS \
    (GFPF_LANE_DIGITS == 1 ? GFPF_SM80_SHARE(GFPF_TEAM_SM_THREADS) : GFPF_TEAM_SM_THREADS)
#define GFPF_TEAM_TWIDDLED_BLOCKS_OF(threads) GFPF_BLOCKS_AN_SM(GFPF_TEAM_TWIDDLED_SM_THREADS, threads)
#define GFPF_TEAM_TWIDDLED_BLOCKS(R) GFPF_TEAM_TWIDDLED_BLOCKS_OF(GfpfTeamTile<R>::threads)
// The plain ones (no twiddles, no products) in 32 registers with one digit
// a lane, the whole SM: ptxas gave them 32 unasked until their DFT became
// gfpf_team_dft, then 34 at t16 and t32 (75%; t32 2^16 modelled 0.570 →
// 0.594 ms), and 32 asked (cargo xtask kernels --report, 2026-11-27).
#define GFPF_TEAM_PLAIN_BLOCKS_OF(threads) \
    (GFPF_LANE_DIGITS == 1 ? GFPF_BLOCKS_AN_SM(2048, threads) : GFPF_BLOCKS_AN_SM(GFPF_TEAM_SM_THREADS, threads))
#define GFPF_TEAM_PLAIN_BLOCKS(R) GFPF_TEAM_PLAIN_BLOCKS_OF(GfpfTeamTile<R>::threads)
#define GFPF_TEAM_KERNELS(R)                                                                                  \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_plain_team, (gfpf_dft_team<R, GFPF_PLAIN>),                    \
                                GfpfTeamTile<R>::threads, GFPF_TEAM_PLAIN_BLOCKS(R))                         \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_inputs_team, (gfpf_dft_team<R, GFPF_TWIDDLE_INPUTS>),          \
                                GfpfTeamTile<R>::threads, GFPF_TEAM_TWIDDLED_BLOCKS(R))             \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_outputs_team, (gfpf_dft_team<R, GFPF_TWIDDLE_OUTPUTS>),        \
                                GfpfTeamTile<R>::threads, GFPF_TEAM_TWIDDLED_BLOCKS(R))

GFPF_TEAM_RADICES(GFPF_TEAM_KERNELS)

// The split teams (a segment an element), within the team kernels' bounds.
#define GFPF_SPLIT_TEAM_KERNELS(R)                                                                                \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_plain_split_team, (gfpf_dft_team<R, GFPF_PLAIN, GfpfSplitTeamTile<R>>), \
                                GfpfSplitTeamTile<R>::threads,                                                    \
                                GFPF_TEAM_PLAIN_BLOCKS_OF(GfpfSplitTeamTile<R>::threads))                         \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_inputs_split_team,                                                  \
                                (gfpf_dft_team<R, GFPF_TWIDDLE_INPUTS, GfpfSplitTeamTile<R>>),                    \
                                GfpfSplitTeamTile<R>::threads,                                                    \
                                GFPF_TEAM_TWIDDLED_BLOCKS_OF(GfpfSplitTeamTile<R>::threads))                      \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_outputs_split_team,                                                 \
                                (gfpf_dft_team<R, GFPF_TWIDDLE_OUTPUTS, GfpfSplitTeamTile<R>>),                   \
                                GfpfSplitTeamTile<R>::threads,                                                    \
                                GFPF_TEAM_TWIDDLED_BLOCKS_OF(GfpfSplitTeamTile<R>::threads))

GFPF_SPLIT_TEAM_RADICES(GFPF_SPLIT_TEAM_KERNELS)

// An element team's thread holds an element and a product's working set in
// registers (its other operations stream the digits through shared
// memory): 64 registers a thread up to k = 8, half the SM; at k = 16 they
// spilled ~400 bytes there, and a thread's 48 words of tile and scratch
// allow a quarter of the SM anyway, so 128 (cargo xtask kernels --report).
#define GFPF_ELEMENT_TEAM_SM_THREADS (GFPF_K <= 8 ? 1024 : 512)
#define GFPF_ELEMENT_TEAM_BLOCKS(R) (GFPF_ELEMENT_TEAM_SM_THREADS / GfpfElementTeamTile<R>::threads)
#define GFPF_ELEMENT_TEAM_KERNELS(R)                                                                         \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_plain_elements, (gfpf_dft_element_team<R, GFPF_PLAIN>),        \
                                GfpfElementTeamTile<R>::threads, GFPF_ELEMENT_TEAM_BLOCKS(R))                \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_inputs_elements, (gfpf_dft_element_team<R, GFPF_TWIDDLE_INPUTS>), \
                                GfpfElementTeamTile<R>::threads, GFPF_ELEMENT_TEAM_BLOCKS(R))                \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_outputs_elements,                                              \
                                (gfpf_dft_element_team<R, GFPF_TWIDDLE_OUTPUTS>), GfpfElementTeamTile<R>::threads, \
                                GFPF_ELEMENT_TEAM_BLOCKS(R))

GFPF_ELEMENT_TEAM_RADICES(GFPF_ELEMENT_TEAM_KERNELS)

// Two stages a launch (gfpf_dft_element_team_pair): the variants that
// decimation in time (plain or twiddled inputs, then twiddled inputs) and in
// frequency (twiddled outputs, then twiddled outputs or plain) pair. Their
// threads hold what a stage's do (64 registers), so half the SM.
#define GFPF_ELEMENT_TEAM_PAIR_BLOCKS(R) GFPF_BLOCKS_AN_SM(1024, GfpfElementTeamPairTile<R>::threads)
#define GFPF_ELEMENT_TEAM_PAIR_KERNEL(R, first, second, V1, V2)                                     \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##x##R##_##first##_##second##_elements,                 \
                                (gfpf_dft_element_team_pair<R, V1, V2>), GfpfElementTeamPairTile<R>::threads, \
                                GFPF_ELEMENT_TEAM_PAIR_BLOCKS(R))
// The pairs of twiddle placements plans make (gfpf_kernels::
// device_pair_kernels): in time none or inputs, then inputs; in frequency
// outputs, then outputs or none. KERNEL(R, first, second, V1, V2) each.
#define GFPF_PAIR_PLACEMENTS(KERNEL, R)                                 \
    KERNEL(R, plain, inputs, GFPF_PLAIN, GFPF_TWIDDLE_INPUTS)           \
    KERNEL(R, inputs, inputs, GFPF_TWIDDLE_INPUTS, GFPF_TWIDDLE_INPUTS) \
    KERNEL(R, outputs, outputs, GFPF_TWIDDLE_OUTPUTS, GFPF_TWIDDLE_OUTPUTS) \
    KERNEL(R, outputs, plain, GFPF_TWIDDLE_OUTPUTS, GFPF_PLAIN)
#define GFPF_ELEMENT_TEAM_PAIR_KERNELS(R) GFPF_PAIR_PLACEMENTS(GFPF_ELEMENT_TEAM_PAIR_KERNEL, R)
// With both stages' inputs twiddled (in time) or both stages' outputs (in
// frequency), the stage whose twiddles a tile's column shares on the
// tensor cores, and with `_both` the other stage's too (gfpf_kernels::
// Kernel::ElementTeamPairMma): k = 8's DFT_16, where a field's r is in
// range (GFPF_SHARED_TWIDDLES; elsewhere the symbols run the plain pair's
// products, so that every k = 8 module has them).
#ifdef GFPF_SHARED_TWIDDLES
#define GFPF_ELEMENT_TEAM_PAIR_MMA_TENSOR true
#else
#define GFPF_ELEMENT_TEAM_PAIR_MMA_TENSOR false
#endif
// Below sm_90 a block's 105.6 KiB tile leaves room for one an SM (sm_80: 163
// KB), so its bound asks for one: at two, p8's Möller–Granlund divisions
// kept 8 bytes of stack on sm_80 (cargo xtask kernels --report, NVRTC 12.9,
// 2026-11-28).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GFPF_ELEMENT_TEAM_PAIR_MMA_BLOCKS(R) 1
#else
#define GFPF_ELEMENT_TEAM_PAIR_MMA_BLOCKS(R) GFPF_ELEMENT_TEAM_PAIR_BLOCKS(R)
#endif
#define GFPF_ELEMENT_TEAM_PAIR_MMA_VARIANT(R, name, V, suffix, rows)                                     \
    GFPF_OCCUPANCY_BLOCK_KERNEL(                                                                         \
        gfpf_dft##R##x##R##_##name##_##name##_elements_mma##suffix,                                      \
        (gfpf_dft_element_team_pair<R, V, V, GFPF_ELEMENT_TEAM_PAIR_MMA_TENSOR,                          \
                                    (GFPF_ELEMENT_TEAM_PAIR_MMA_TENSOR && (rows))>),                     \
        GfpfElementTeamPairTile<R>::threads, GFPF_ELEMENT_TEAM_PAIR_MMA_BLOCKS(R))
// B alone on the tensor cores (gfpf_kernels::Kernel::ElementTeamPairRowsMma):
// the pairs of s = 1 whose other stage is plain.
#define GFPF_ELEMENT_TEAM_PAIR_MMA_ROWS(R, first, second, V1, V2)                                    \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##x##R##_##first##_##second##_elements_mma_rows,          \
                                (gfpf_dft_element_team_pair<R, V1, V2, false, GFPF_ELEMENT_TEAM_PAIR_MMA_TENSOR>), \
                                GfpfElementTeamPairTile<R>::threads, GFPF_ELEMENT_TEAM_PAIR_MMA_BLOCKS(R))
// A stride-1 stage with the column and row twiddles of the tensor-core
// pair beside it (gfpf_kernels::Kernel::ElementTeamDftMma): as the
// one-stage element teams' blocks an SM, 3/4 of them below sm_90 (at 64
// registers p8's Möller–Granlund divisions kept 8 bytes of stack and
// spilled 12 and 16 there: cargo xtask kernels --report, NVRTC 12.9,
// 2026-11-30).
#define GFPF_ELEMENT_TEAM_FOLDED_KERNEL(R, name, in_time)                                              \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##_##name##_elements_mma, (gfpf_dft_element_team_folded<R, in_time>), \
                                GfpfElementTeamFoldedTile<R>::threads, GFPF_SM80_BLOCKS(GFPF_ELEMENT_TEAM_BLOCKS(R)))
#define GFPF_ELEMENT_TEAM_PAIR_MMA_KERNEL(R)                                                  \
    GFPF_ELEMENT_TEAM_PAIR_MMA_VARIANT(R, inputs, GFPF_TWIDDLE_INPUTS, , false)               \
    GFPF_ELEMENT_TEAM_PAIR_MMA_VARIANT(R, inputs, GFPF_TWIDDLE_INPUTS, _both, true)           \
    GFPF_ELEMENT_TEAM_PAIR_MMA_VARIANT(R, outputs, GFPF_TWIDDLE_OUTPUTS, , false)             \
    GFPF_ELEMENT_TEAM_PAIR_MMA_VARIANT(R, outputs, GFPF_TWIDDLE_OUTPUTS, _both, true)         \
    GFPF_ELEMENT_TEAM_PAIR_MMA_ROWS(R, plain, inputs, GFPF_PLAIN, GFPF_TWIDDLE_INPUTS)        \
    GFPF_ELEMENT_TEAM_PAIR_MMA_ROWS(R, outputs, plain, GFPF_TWIDDLE_OUTPUTS, GFPF_PLAIN)      \
    GFPF_ELEMENT_TEAM_FOLDED_KERNEL(R, outputs, true)                                         \
    GFPF_ELEMENT_TEAM_FOLDED_KERNEL(R, inputs, false)

GFPF_ELEMENT_TEAM_PAIR_RADICES(GFPF_ELEMENT_TEAM_PAIR_KERNELS)
GFPF_ELEMENT_TEAM_PAIR_MMA_RADICES(GFPF_ELEMENT_TEAM_PAIR_MMA_KERNEL)

// The same by teams of segments: as many blocks an SM as the one-stage
// team kernels' threads allow (one of 1024 threads at t8, 64 registers).
#define GFPF_TEAM_PAIR_BLOCKS(R) GFPF_BLOCKS_AN_SM(GFPF_TEAM_SM_THREADS, GfpfTeamPairTile<R>::threads)
#define GFPF_TEAM_PAIR_KERNEL(R, first, second, V1, V2)                                                      \
    GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_dft##R##x##R##_##first##_##second##_team, (gfpf_dft_team_pair<R, V1, V2>), \
                                GfpfTeamPairTile<R>::threads, GFPF_TEAM_PAIR_BLOCKS(R))
#define GFPF_TEAM_PAIR_KERNELS(R) GFPF_PAIR_PLACEMENTS(GFPF_TEAM_PAIR_KERNEL, R)

GFPF_TEAM_PAIR_RADICES(GFPF_TEAM_PAIR_KERNELS)

// The element-wise kernels: in the teams' part of a device module
// (gfpf_kernels::ModulePart), and in every host unit.
#if GFPF_ELEMENTWISE_KERNELS
GFPF_KERNEL(gfpf_scale, gfpf_scale_thread)
GFPF_KERNEL(gfpf_pointwise_mul, gfpf_pointwise_mul_thread)

#ifdef GFPF_LANES_AVAILABLE
// x <- x·N^{-1}, element thread / S over the S lanes of a segment.
GFPF_FN void gfpf_scale_lanes(const GfpfStageParams& p, gfpf_u64 thread) {
    const GfpfLanes lanes = gfpf_warp_lanes();
    const bool running = thread < p.threads;
    const gfpf_u64 j = thread / GFPF_LANE_SEGMENT;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    GfpfLaneElem n_inv;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) n_inv.d[h] = GFPF_TABLE_READ((const gfpf_u64*)p.table, lanes.digit(h));
    const GfpfLaneElem y = gfpf_lane_mul(lanes, gfpf_lane_load(dst, p.pitch, lanes, j, running), n_inv);
    if (running) gfpf_lane_store(dst, p.pitch, lanes, j, y);
}

// dst[j] <- dst[j]·src[j], element j = thread / S over the S lanes of a segment.
GFPF_FN void gfpf_pointwise_mul_lanes(const GfpfStageParams& p, gfpf_u64 thread) {
    const GfpfLanes lanes = gfpf_warp_lanes();
    const bool running = thread < p.threads;
    const gfpf_u64 j = thread / GFPF_LANE_SEGMENT;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    const GfpfLaneElem x = gfpf_lane_load(dst, p.pitch, lanes, j, running);
    const GfpfLaneElem y = gfpf_lane_load((const gfpf_u64*)p.src, p.pitch, lanes, j, running);
    const GfpfLaneElem z = gfpf_lane_mul(lanes, x, y);
    if (running) gfpf_lane_store(dst, p.pitch, lanes, j, z);
}

GFPF_LANE_KERNEL(gfpf_scale_lanes, gfpf_scale_lanes, GFPF_LANE_ELEMENTWISE_BLOCKS)
GFPF_LANE_KERNEL(gfpf_pointwise_mul_lanes, gfpf_pointwise_mul_lanes, GFPF_LANE_ELEMENTWISE_BLOCKS)
#endif

#if GFPF_K <= 16
// dst[j] ← dst[j]·y_j, one element a thread (gfpf_kernels::Kernel::
// PointwiseMulElements, ScaleElements): y_j = src[j] (SCALE false) or
// N^{-1} (p.table). A block of GFPF_ELEMENTWISE_THREADS threads stages its
// elements in shared memory (digit d of thread t's at d·threads + t, its
// factor's at (k + d)·threads + t, or N^{-1}'s digit d, one copy for the
// block, at 2k·threads + d), so its loads and stores are whole sectors, and
// each thread runs one gfpf_tile_mul: 1196 instructions at t8 beside its
// shared words, where a segment's eight lanes took 574 each
// (gfpf_pointwise_mul_lanes, 4.6k an element; probes, NVRTC 12.9, sm_90,
// nvdisasm 13.5). A thread reads only its own element's words, and N^{-1}
// after the block's barrier. Elements past p.threads load and store nothing.
template <bool SCALE>
GFPF_FN void gfpf_mul_elements_block(const GfpfStageParams& p) {
    constexpr int threads = GFPF_ELEMENTWISE_THREADS, factors = GFPF_K * threads, inverse = 2 * GFPF_K * threads;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, 2 * GFPF_K * threads + (SCALE ? GFPF_K : 0));
    const int t = threadIdx.x;
    const gfpf_u64 j = (gfpf_u64)blockIdx.x * threads + t;
    const bool running = j < p.threads;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
    if (SCALE) {
        for (int d = t; d < GFPF_K; d += threads) tile[inverse + d] = GFPF_TABLE_READ((const gfpf_u64*)p.table, d);
    }
    if (running) {
#pragma unroll
        for (int d = 0; d < GFPF_K; ++d) {
            tile[t + d * threads] = GFPF_GLOBAL_READ(dst, d * p.pitch + j);
            if (!SCALE) tile[factors + t + d * threads] = GFPF_GLOBAL_READ((const gfpf_u64*)p.src, d * p.pitch + j);
        }
    }
    if (SCALE) __syncthreads();
    if (!running) return;
    if (SCALE) {
        gfpf_tile_mul(tile, t, threads, inverse, 1);
    } else {
        gfpf_tile_mul(tile, t, threads, factors + t, threads);
    }
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) GFPF_GLOBAL_WRITE(dst, d * p.pitch + j, (gfpf_u64)tile[t + d * threads]);
}
GFPF_FN void gfpf_pointwise_mul_elements_block(const GfpfStageParams& p) { gfpf_mul_elements_block<false>(p); }
GFPF_FN void gfpf_scale_elements_block(const GfpfStageParams& p) { gfpf_mul_elements_block<true>(p); }
// Eight blocks an SM (64 registers, 16 KiB of shared memory a block at t8),
// four at k = 16 (32 KiB).
#define GFPF_ELEMENTWISE_BLOCKS (GFPF_K <= 8 ? 8 : 4)
GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_pointwise_mul_elements, gfpf_pointwise_mul_elements_block, GFPF_ELEMENTWISE_THREADS,
                            GFPF_ELEMENTWISE_BLOCKS)
GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_scale_elements, gfpf_scale_elements_block, GFPF_ELEMENTWISE_THREADS,
                            GFPF_ELEMENTWISE_BLOCKS)
#endif

#ifdef GFPF_SHARED_TWIDDLES
// x ← x·N^{-1} on the tensor cores: every element shares the one constant,
// so a block stages its table (p.tensor_table: gfpf_kernels::tensor::
// shared_twiddle_table of N^{-1}) once and each warp multiplies its 32
// elements, one a thread, eight lanes a set
// (gfpf_tile_mul_shared_twiddles<8, STAGED>), through shared memory (digit
// d of thread t's element at d·128 + t). Elements past p.threads are 0
// and not stored (every lane of a warp takes part in its products).
// Where a segment's eight lanes took a product each (gfpf_scale_lanes, 574
// instructions a lane), a thread runs one product of 407 beside its shared
// words (the model's charges). A block's threads: GFPF_SCALE_MMA_THREADS
// (gfpf_kernels::SCALE_MMA_THREADS, which the host launches).
GFPF_FN void gfpf_scale_elements_mma_block(const GfpfStageParams& p) {
    constexpr int threads = GFPF_SCALE_MMA_THREADS, staging = GFPF_K * threads;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, GFPF_K * threads + GFPF_SHARED_TWIDDLE_STAGED_WORDS);
    const int t = threadIdx.x;
    for (int i = t; i < GFPF_SHARED_TWIDDLE_WORDS; i += threads) {
        // Rows 7 … 14 as they are, rows 0 … 6 rows 8 … 14 complemented.
        const gfpf_u64 word = GFPF_TENSOR_TABLE_READ((const gfpf_u64*)p.tensor_table, i);
        const int row = 7 + (i >> 3);
        tile[staging + gfpf_shared_twiddle_staged(row, i & 7)] = word;
        if (row >= 8) tile[staging + gfpf_shared_twiddle_staged(row - 8, i & 7)] = ~word;
    }
    const gfpf_u64 j = (gfpf_u64)blockIdx.x * threads + t;
    const bool running = j < p.threads;
    gfpf_u64* dst = (gfpf_u64*)p.dst;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) tile[t + d * threads] = running ? GFPF_GLOBAL_READ(dst, d * p.pitch + j) : 0;
    __syncthreads();
    // Its own element's digits are the thread's last writes in the call.
    gfpf_tile_mul_shared_twiddles<8, true>(tile, t, threads, (const gfpf_u64*)p.tensor_table, 0, tile, staging);
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d)
        if (running) GFPF_GLOBAL_WRITE(dst, d * p.pitch + j, (gfpf_u64)tile[t + d * threads]);
}
GFPF_OCCUPANCY_BLOCK_KERNEL(gfpf_scale_elements_mma, gfpf_scale_elements_mma_block, GFPF_SCALE_MMA_THREADS, 8)
#elif GFPF_K == 8
// Where r is out of the tensor cores' products' range, the symbol runs
// gfpf_scale's products, so that every k = 8 module has it.
GFPF_KERNEL(gfpf_scale_elements_mma, gfpf_scale_thread)
#endif


// Products through word-size primes: projection and join (the pointwise
// product is the inverse NTT's, gfpf_ntt.cu).
// Only where a product can take them (k ≤ 16: gfpf_cuda::multimodular's
// 96 primes); wider fields' modules would compile them for nothing.
#if GFPF_K <= 16
#include "gfpf_multimodular.cuh"
#endif
#endif  // GFPF_ELEMENTWISE_KERNELS
