// GF(r^k + 1) with an element's digits spread over the lanes of a warp
// (k ≤ 32): the k lanes of one segment of the warp hold one element, lane i
// of the segment its digit i, so a DFT_K of elements takes K registers per
// lane instead of K·k per thread, and loads of digit-major data are
// coalesced (the segments of a warp handle neighbouring elements).
//
// Every result is the canonical one (digits below r, p - 1 as top digit r),
// so it equals gfpf_field.cuh's bit for bit; the algorithms differ where
// lanes must not wait on each other:
//   * carry and borrow chains resolve in one step from two ballots
//     (generate, propagate) as a carry-lookahead adder does;
//   * a product's k column sums (192 bits) are formed one per lane, each
//     split as h·r² + m·r + l, and the three parts added into place with
//     shuffles and one more lookahead; what lands past digit k - 1 (r^k = -1)
//     is subtracted at the end, as gfpf_mul does with its final carry.
// Every lane of the warp's mask runs every collective (no collective sits
// under a condition that differs between segments), as the device requires.
#pragma once

#if GFPF_K <= 32 && (32 % GFPF_K) == 0
#define GFPF_LANES_AVAILABLE 1

// A butterfly's two results.
struct GfpfLanePair {
    gfpf_u64 sum, diff;
};

#ifdef GFPF_HOST_EMULATION
static inline int gfpf_lowest_bit(gfpf_u64 x) { return __builtin_ctzll(x); }
#else
__device__ __forceinline__ int gfpf_lowest_bit(gfpf_u64 x) { return __ffsll((long long)x) - 1; }
#endif

// Where a lane sits: the warp's participating lanes (whole segments). Its
// digit and segment follow from threadIdx.x (blocks are whole warps), not
// held, which spares registers where a DFT_16 has none to spare.
struct GfpfLanes {
    unsigned mask;

    // This lane's digit i.
    GFPF_METHOD int digit() const { return (int)(threadIdx.x & (GFPF_K - 1)); }
    // The first lane of this lane's segment.
    GFPF_METHOD int segment() const { return (int)(threadIdx.x & 31 & ~(GFPF_K - 1)); }
    // The bits of a ballot that belong to this lane's segment, digit 0 lowest.
    GFPF_METHOD gfpf_u64 own(unsigned ballot) const {
        const gfpf_u64 digits = GFPF_K == 32 ? 0xffffffffull : ((1ull << GFPF_K) - 1);
        return ((gfpf_u64)ballot >> segment()) & digits;
    }
    // Digit `from` of this lane's element.
    GFPF_METHOD gfpf_u64 digit_of(gfpf_u64 v, int from) const { return __shfl_sync(mask, v, from, GFPF_K); }
    // Digit `digit - delta` of this lane's element (this lane's own below delta).
    GFPF_METHOD gfpf_u64 below(gfpf_u64 v, unsigned delta) const { return __shfl_up_sync(mask, v, delta, GFPF_K); }
};

// The carry into this lane of a chain in which lane i generates (g) or
// propagates (p) a carry: G + (G | P) carries exactly as the chain does, so
// its bits xor P are the carries in. `out` is the carry out of digit k - 1.
GFPF_FN bool gfpf_lane_carry(const GfpfLanes& l, bool g, bool p, bool& out) {
    const gfpf_u64 gen = l.own(__ballot_sync(l.mask, g));
    const gfpf_u64 prop = l.own(__ballot_sync(l.mask, p && !g));
    const gfpf_u64 sum = gen + (gen | prop);
    out = (sum >> GFPF_K) & 1;
    return ((sum ^ prop) >> l.digit()) & 1;
}

// x - 1 where `apply` (x's digits below r, the top one possibly r), as
// gfpf_decrement: the digits below the lowest nonzero one become r - 1.
GFPF_FN gfpf_u64 gfpf_lane_decrement(const GfpfLanes& l, gfpf_u64 v, bool apply) {
    const gfpf_u64 nonzero = l.own(__ballot_sync(l.mask, v != 0));
    if (!apply) return v;
    if (nonzero == 0) return l.digit() == GFPF_K - 1 ? GFPF_R_VALUE : 0;
    const int lowest = gfpf_lowest_bit(nonzero);
    if (l.digit() < lowest) return GFPF_R_VALUE - 1;
    return l.digit() == lowest ? v - 1 : v;
}

// x + 1 where `apply`, as gfpf_increment: the digits below the lowest one
// under r - 1 become 0; r^k - 1 + 1 gives the canonical p - 1.
GFPF_FN gfpf_u64 gfpf_lane_increment(const GfpfLanes& l, gfpf_u64 v, bool apply) {
    const gfpf_u64 absorbs = l.own(__ballot_sync(l.mask, v + 1 < GFPF_R_VALUE));
    if (!apply) return v;
    if (absorbs == 0) return l.digit() == GFPF_K - 1 ? GFPF_R_VALUE : 0;
    const int lowest = gfpf_lowest_bit(absorbs);
    if (l.digit() < lowest) return 0;
    return l.digit() == lowest ? v + 1 : v;
}

// x - y (digits below r, the top one possibly r): canonical.
GFPF_FN gfpf_u64 gfpf_lane_sub(const GfpfLanes& l, gfpf_u64 x, gfpf_u64 y) {
    bool borrow_out;
    const bool borrow = gfpf_lane_carry(l, x < y, x == y, borrow_out);
    const gfpf_u64 d = x - y - borrow;
    const bool under = x < y || (x == y && borrow);
    // A borrow out of digit k - 1 added r^k = -1: add 1 back.
    return gfpf_lane_increment(l, under ? d + GFPF_R_VALUE : d, borrow_out);
}

// (a, b) <- (a + b, a - b): the butterfly, both chains resolved at once.
GFPF_FN GfpfLanePair gfpf_lane_add_sub(GfpfLanes l, gfpf_u64 x, gfpf_u64 y) {
    GFPF_COUNT_OP(GFPF_OP_LANE_ADD_SUB);
    // The digit sum is below 2r + 1 < 2^65: at most one add wraps, and
    // subtracting r (wrapping) is then exact.
    const gfpf_u64 s = x + y;
    const bool over = s < x || s >= GFPF_R_VALUE;
    const bool at_edge = !over && s == GFPF_R_VALUE - 1;
    bool carry_out, borrow_out;
    const bool carry = gfpf_lane_carry(l, over, at_edge, carry_out);
    const bool borrow = gfpf_lane_carry(l, x < y, x == y, borrow_out);
    const gfpf_u64 sum = s + carry;
    const gfpf_u64 diff = x - y - borrow;
    const bool sum_over = over || (at_edge && carry);
    const bool diff_under = x < y || (x == y && borrow);
    // A carry out of digit k - 1 is r^k = -1; a borrow is +1.
    GfpfLanePair out;
    out.sum = gfpf_lane_decrement(l, sum_over ? sum - GFPF_R_VALUE : sum, carry_out);
    out.diff = gfpf_lane_increment(l, diff_under ? diff + GFPF_R_VALUE : diff, borrow_out);
    return out;
}

// x·r^i for 0 ≤ i < 2k: a rotation of the digits over the segment and one
// subtraction (gfpf_mul_pow_r).
GFPF_FN gfpf_u64 gfpf_lane_mul_pow_r(GfpfLanes l, gfpf_u64 x, int i) {
    GFPF_COUNT_OP(GFPF_OP_LANE_MUL_POW_R);
    const int s = i >= GFPF_K ? i - GFPF_K : i;
    const bool negate = i >= GFPF_K;
    const gfpf_u64 top = l.digit_of(x, GFPF_K - 1);
    const gfpf_u64 moved = l.digit_of(x, (l.digit() - s) & (GFPF_K - 1));
    // x·r^s = A - B: A the digits shifted up, B those that wrapped past r^k.
    const gfpf_u64 shifted = l.digit() >= s ? moved : 0;
    const gfpf_u64 wrapped = l.digit() < s ? moved : 0;
    const gfpf_u64 general = negate ? gfpf_lane_sub(l, wrapped, shifted) : gfpf_lane_sub(l, shifted, wrapped);
    if (top != GFPF_R_VALUE) return general;
    // x = -1: the result is -r^i, i.e. r^s for i ≥ k, else p - r^s.
    if (negate) return l.digit() == s ? 1 : 0;
    if (s == 0) return l.digit() == GFPF_K - 1 ? GFPF_R_VALUE : 0;
    // r^k + 1 - r^s: digits s … k - 1 are r - 1, digit 0 is 1.
    if (l.digit() == 0) return 1;
    return l.digit() >= s ? GFPF_R_VALUE - 1 : 0;
}

// a + b for digits below r (a sum below 2r): the digit and whether r went.
GFPF_FN gfpf_u64 gfpf_lane_add_digit(gfpf_u64 a, gfpf_u64 b, gfpf_u64& carries) {
    const gfpf_u64 s = a + b;
    const bool over = s < a || s >= GFPF_R_VALUE;
    carries += over;
    return over ? s - GFPF_R_VALUE : s;
}

// x·y for canonical x and y (gfpf_mul).
GFPF_FN gfpf_u64 gfpf_lane_mul(GfpfLanes l, gfpf_u64 x, gfpf_u64 y) {
    GFPF_COUNT_OP(GFPF_OP_LANE_MUL);
    const unsigned shift = GFPF_R_SHIFT;
    const int i = l.digit();
    // u_i = Σ_{j≤i} x_j·y_{i−j} − Σ_{j>i} x_j·y_{i+k−j}, plus the offset.
    GfpfAcc acc = {0, 0, 0};
    // Kept a loop: unrolled in each of a codelet's R twiddles, it made the
    // DFT_32 modules of k = 16 take NVRTC ~28 s.
#pragma unroll 1
    for (int j = 0; j < GFPF_K; ++j) {
        const gfpf_u64 xj = l.digit_of(x, j);
        const gfpf_u64 yj = l.digit_of(y, (i - j) & (GFPF_K - 1));
        if (j <= i) {
            gfpf_acc_add_product(acc, xj, yj);
        } else {
            gfpf_acc_sub_product(acc, xj, yj);
        }
    }
    if (i == 0) {
        gfpf_acc_add(acc, GFPF_OFFSET_FIRST_0, GFPF_OFFSET_FIRST_1, GFPF_OFFSET_FIRST_2);
    } else {
        gfpf_acc_add(acc, GFPF_OFFSET_REST_0, GFPF_OFFSET_REST_1, GFPF_OFFSET_REST_2);
    }
    // u_i = h·r² + m·r + low (u_i < 2^138, so h is small).
    gfpf_u64 q_hi, q_lo, h, rem;
    gfpf_div_rem_scaled(gfpf_shl_words(acc.w2, acc.w1, shift), gfpf_shl_words(acc.w1, acc.w0, shift), q_hi, rem);
    gfpf_div_rem_scaled(rem, acc.w0 << shift, q_lo, rem);
    const gfpf_u64 low = rem >> shift;
    gfpf_div_rem_scaled(gfpf_shl_words(q_hi, q_lo, shift), q_lo << shift, h, rem);
    const gfpf_u64 m = rem >> shift;
    // Digit i gathers low_i + m_{i−1} + h_{i−2}; what passes digit k − 1
    // (m_{k−1} + h_{k−2} at r^k, h_{k−1} at r^(k+1)) is subtracted below.
    const gfpf_u64 m_shuffled = l.below(m, 1), h_shuffled = l.below(h, 2);
    const gfpf_u64 m_below = i >= 1 ? m_shuffled : 0;
    const gfpf_u64 h_below = i >= 2 ? h_shuffled : 0;
    gfpf_u64 carries = 0;
    gfpf_u64 e = gfpf_lane_add_digit(low, m_below, carries);
    e = gfpf_lane_add_digit(e, h_below, carries);
    // Carries of at most 2 move up one digit: a digit below r + 2, resolved by
    // one lookahead.
    const gfpf_u64 carries_below = l.below(carries, 1);
    const gfpf_u64 w = e + (i >= 1 ? carries_below : 0);
    const bool over = w < e || w >= GFPF_R_VALUE;
    const bool at_edge = !over && w == GFPF_R_VALUE - 1;
    bool carry_out;
    const bool carry = gfpf_lane_carry(l, over, at_edge, carry_out);
    const gfpf_u64 digit = w + carry - ((over || (at_edge && carry)) ? GFPF_R_VALUE : 0);
    // The part past digit k - 1: v0 + v1·r, v0 < r.
    const gfpf_u64 m_top = l.digit_of(m, GFPF_K - 1);
    const gfpf_u64 h_next = l.digit_of(h, GFPF_K - 2);
    const gfpf_u64 h_top = l.digit_of(h, GFPF_K - 1);
    const gfpf_u64 carries_top = l.digit_of(carries, GFPF_K - 1);
    gfpf_u64 v1 = h_top;
    gfpf_u64 v0 = gfpf_lane_add_digit(m_top, h_next, v1);
    v0 = gfpf_lane_add_digit(v0, carries_top + carry_out, v1);
    const gfpf_u64 past = i == 0 ? v0 : (i == 1 ? v1 : 0);
    gfpf_u64 product = gfpf_lane_sub(l, digit, past);
    // -1 (top digit r) has no place in the column sums' bounds: x·(-1) = -x.
    const bool x_minus_one = l.digit_of(x, GFPF_K - 1) == GFPF_R_VALUE;
    const bool y_minus_one = l.digit_of(y, GFPF_K - 1) == GFPF_R_VALUE;
    if (__any_sync(l.mask, x_minus_one || y_minus_one)) {
        const gfpf_u64 neg_x = gfpf_lane_sub(l, 0, x);
        const gfpf_u64 neg_y = gfpf_lane_sub(l, 0, y);
        if (x_minus_one) return neg_y;
        if (y_minus_one) return neg_x;
    }
    return product;
}

// The operations out of line, for DFT_32 and DFT_64: with every butterfly
// and product of their codelets inlined NVRTC took 25 s (k = 16, DFT_32) and
// 92 s (k = 32, DFT_64) per module, against 1.7 s and 3.6 s out of line, with
// no stack frame either way, while those kernels' registers limit their
// occupancy anyway (cargo xtask kernels --report, NVRTC 12.9, sm_90,
// 2026-11-24). DFT_16 and below keep them inlined: out of line, its
// twiddled kernels spilled ~200 bytes.
#ifdef GFPF_HOST_EMULATION
#define GFPF_LANE_OUTLINED static __attribute__((noinline))
#else
#define GFPF_LANE_OUTLINED __device__ __noinline__
#endif
GFPF_LANE_OUTLINED GfpfLanePair gfpf_lane_add_sub_outlined(GfpfLanes l, gfpf_u64 x, gfpf_u64 y) {
    return gfpf_lane_add_sub(l, x, y);
}
GFPF_LANE_OUTLINED gfpf_u64 gfpf_lane_mul_pow_r_outlined(GfpfLanes l, gfpf_u64 x, int i) {
    return gfpf_lane_mul_pow_r(l, x, i);
}
GFPF_LANE_OUTLINED gfpf_u64 gfpf_lane_mul_outlined(GfpfLanes l, gfpf_u64 x, gfpf_u64 y) {
    return gfpf_lane_mul(l, x, y);
}

#endif
