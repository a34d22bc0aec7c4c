// GF(r^k + 1) with an element's digits spread over the lanes of a warp: a
// segment of S = min(k, 32) lanes holds one element, lane i of the segment
// its digits i, S + i, …, (D − 1)·S + i (D = k/S digits a lane: one up to
// k = 32, two at k = 64, four at k = 128; "row" h holds digits h·S … h·S +
// S − 1). A DFT_K of elements takes K·D registers a lane instead of K·k a
// thread, loads of digit-major data are coalesced (the segments of a warp
// handle neighbouring elements), and a row of an element-major twiddle is
// one warp-wide run of words.
//
// Every result is the canonical one (digits below r, p - 1 as top digit r),
// so it equals gfpf_field.cuh's bit for bit; the algorithms differ where
// lanes must not wait on each other:
//   * carry and borrow chains resolve in one step from ballots (generate,
//     propagate; one pair a row, joined into one k-bit word or two) as a
//     carry-lookahead adder does;
//   * a product's k column sums (192 bits) are formed D per lane, each
//     split as h·r² + m·r + l, and the three parts added into place with
//     shuffles and one more lookahead; what lands past digit k - 1 (r^k = -1)
//     is subtracted at the end, as gfpf_mul does with its final carry.
// Every lane of the warp's mask runs every collective (no collective sits
// under a condition that differs between segments), as the device requires.
#pragma once

#if GFPF_K <= 128 && ((GFPF_K < 32 && (32 % GFPF_K) == 0) || (GFPF_K >= 32 && (GFPF_K % 32) == 0))
#define GFPF_LANES_AVAILABLE 1

// Lanes an element takes (S), and digits a lane holds of it (D).
#define GFPF_LANE_SEGMENT (GFPF_K < 32 ? GFPF_K : 32)
#define GFPF_LANE_DIGITS (GFPF_K / GFPF_LANE_SEGMENT)
// 64-bit words of a k-bit vector (one bit a digit) in a lookahead.
#define GFPF_LANE_BIT_WORDS ((GFPF_K + 63) / 64)

// A lane's digits of one element: d[h] is digit h·S + i of lane i.
struct GfpfLaneElem {
    gfpf_u64 d[GFPF_LANE_DIGITS];
};

// A butterfly's two results.
struct GfpfLanePair {
    GfpfLaneElem sum, diff;
};

#ifdef GFPF_HOST_EMULATION
static inline int gfpf_lowest_bit(gfpf_u64 x) { return __builtin_ctzll(x); }
#else
__device__ __forceinline__ int gfpf_lowest_bit(gfpf_u64 x) { return __ffsll((long long)x) - 1; }
#endif

// Where a lane sits: the warp's participating lanes (whole segments). Its
// index and segment follow from threadIdx.x (blocks are whole warps), not
// held, which spares registers where a DFT_16 has none to spare.
struct GfpfLanes {
    unsigned mask;

    // This lane's index i in its segment (its digits are h·S + i).
    GFPF_METHOD int index() const { return (int)(threadIdx.x & (GFPF_LANE_SEGMENT - 1)); }
    // Digit t of an element is this lane's (row h, t = h·S + index()).
    GFPF_METHOD int digit(int h) const { return h * GFPF_LANE_SEGMENT + index(); }
    // The first lane of this lane's segment.
    GFPF_METHOD int segment() const { return (int)(threadIdx.x & 31 & ~(GFPF_LANE_SEGMENT - 1)); }
    // The bits of a ballot that belong to this lane's segment, lane 0 lowest.
    GFPF_METHOD gfpf_u64 own(unsigned ballot) const {
        const gfpf_u64 lanes = GFPF_LANE_SEGMENT == 32 ? 0xffffffffull : ((1ull << GFPF_LANE_SEGMENT) - 1);
        return ((gfpf_u64)ballot >> segment()) & lanes;
    }
    // Digit t (the same for every lane) of this segment's element, from
    // the lane's row words v.
    GFPF_METHOD gfpf_u64 digit_of(const gfpf_u64 (&v)[GFPF_LANE_DIGITS], int t) const {
        return __shfl_sync(mask, v[t / GFPF_LANE_SEGMENT], t % GFPF_LANE_SEGMENT, GFPF_LANE_SEGMENT);
    }
    // Word v of the lane `delta` below this one in the segment, cyclically.
    GFPF_METHOD gfpf_u64 rotate(gfpf_u64 v, int delta) const {
        return __shfl_sync(mask, v, (index() - delta) & (GFPF_LANE_SEGMENT - 1), GFPF_LANE_SEGMENT);
    }
};

// Row `row` of rows[] where the index is known only at run time (the same on
// every lane): selects, not an indexed load, so the rows stay in registers.
GFPF_FN gfpf_u64 gfpf_lane_pick(const gfpf_u64 (&rows)[GFPF_LANE_DIGITS], int row) {
    gfpf_u64 out = rows[0];
#pragma unroll
    for (int c = 1; c < GFPF_LANE_DIGITS; ++c) out = row == c ? rows[c] : out;
    return out;
}

// A k-bit vector, digit t at bit t (row h at bits h·S …): a ballot a row.
struct GfpfLaneBits {
    gfpf_u64 w[GFPF_LANE_BIT_WORDS];
};

GFPF_FN GfpfLaneBits gfpf_lane_ballot(const GfpfLanes& l, const bool (&b)[GFPF_LANE_DIGITS]) {
    GfpfLaneBits out;
#pragma unroll
    for (int w = 0; w < GFPF_LANE_BIT_WORDS; ++w) out.w[w] = 0;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const int bit = h * GFPF_LANE_SEGMENT;
        out.w[bit / 64] |= l.own(__ballot_sync(l.mask, b[h])) << (bit % 64);
    }
    return out;
}

// Bit t of v for this lane's digit t = digit(h). Row h's S bits lie in one
// word, chosen by h alone (known once unrolled): an index that depended on
// the lane would put v in local memory.
GFPF_FN bool gfpf_lane_bit(const GfpfLanes& l, const GfpfLaneBits& v, int h) {
    const int row = h * GFPF_LANE_SEGMENT;
    return (v.w[row / 64] >> (row % 64 + l.index())) & 1;
}

// The lowest digit whose bit is set, or -1 (the same on every lane).
GFPF_FN int gfpf_lane_lowest(const GfpfLaneBits& v) {
#pragma unroll
    for (int w = 0; w < GFPF_LANE_BIT_WORDS; ++w)
        if (v.w[w] != 0) return 64 * w + gfpf_lowest_bit(v.w[w]);
    return -1;
}

// The carries into this lane's digits of a chain in which digit t generates
// (g) or propagates (p) a carry: G + (G | P) carries exactly as the chain
// does (P = p and not g), so its bits xor P are the carries in, word by
// word with the carry between words. `out` is the carry out of digit k - 1.
GFPF_FN void gfpf_lane_carries(const GfpfLanes& l, const bool (&g)[GFPF_LANE_DIGITS],
                               const bool (&p)[GFPF_LANE_DIGITS], bool (&carry)[GFPF_LANE_DIGITS], bool& out) {
    if (GFPF_LANE_DIGITS == 1) {
        // One row, one word: no carry between words.
        const gfpf_u64 gen = l.own(__ballot_sync(l.mask, g[0]));
        const gfpf_u64 prop = l.own(__ballot_sync(l.mask, p[0] && !g[0]));
        const gfpf_u64 sum = gen + (gen | prop);
        out = (sum >> GFPF_LANE_SEGMENT) & 1;
        carry[0] = ((sum ^ prop) >> l.index()) & 1;
        return;
    }
    bool p_only[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) p_only[h] = p[h] && !g[h];
    const GfpfLaneBits gen = gfpf_lane_ballot(l, g);
    const GfpfLaneBits prop = gfpf_lane_ballot(l, p_only);
    GfpfLaneBits in;
    gfpf_u64 c = 0;
#pragma unroll
    for (int w = 0; w < GFPF_LANE_BIT_WORDS; ++w) {
        const gfpf_u64 a = gen.w[w], s = a + (a | prop.w[w]);
        const gfpf_u64 sum = s + c;
        c = (gfpf_u64)(s < a) | (gfpf_u64)(sum < s);
        in.w[w] = sum ^ prop.w[w];
    }
    // Below 64 digits the carry out is bit k of the sum (prop has no bit k).
    out = GFPF_K % 64 == 0 ? c != 0 : ((in.w[0] >> (GFPF_K % 64)) & 1) != 0;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) carry[h] = gfpf_lane_bit(l, in, h);
}

// x + 1 (`up`) or x - 1 where `apply` (x's digits below r, the top one
// possibly r), as gfpf_increment and gfpf_decrement: the digits below the
// lowest one that absorbs the step (under r - 1 going up, nonzero going
// down) wrap to 0 or r - 1; where none does, the result is p - 1 (r^k - 1 +
// 1, or 0 - 1), top digit r.
GFPF_FN GfpfLaneElem gfpf_lane_step(const GfpfLanes& l, GfpfLaneElem v, bool apply, bool up) {
    bool absorbs[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) absorbs[h] = up ? v.d[h] + 1 < GFPF_R_VALUE : v.d[h] != 0;
    const GfpfLaneBits absorbs_bits = gfpf_lane_ballot(l, absorbs);
    if (!apply) return v;
    const int lowest = gfpf_lane_lowest(absorbs_bits);
    GfpfLaneElem out;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const int t = l.digit(h);
        if (lowest < 0) {
            out.d[h] = t == GFPF_K - 1 ? GFPF_R_VALUE : 0;
        } else if (t < lowest) {
            out.d[h] = up ? 0 : GFPF_R_VALUE - 1;
        } else {
            out.d[h] = t == lowest ? (up ? v.d[h] + 1 : v.d[h] - 1) : v.d[h];
        }
    }
    return out;
}

GFPF_FN GfpfLaneElem gfpf_lane_decrement(const GfpfLanes& l, GfpfLaneElem v, bool apply) {
    return gfpf_lane_step(l, v, apply, false);
}

GFPF_FN GfpfLaneElem gfpf_lane_increment(const GfpfLanes& l, GfpfLaneElem v, bool apply) {
    return gfpf_lane_step(l, v, apply, true);
}

// x - y (digits below r, the top one possibly r): canonical.
GFPF_FN GfpfLaneElem gfpf_lane_sub(const GfpfLanes& l, GfpfLaneElem x, GfpfLaneElem y) {
    bool lower[GFPF_LANE_DIGITS], equal[GFPF_LANE_DIGITS], borrow[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        lower[h] = x.d[h] < y.d[h];
        equal[h] = x.d[h] == y.d[h];
    }
    bool borrow_out;
    gfpf_lane_carries(l, lower, equal, borrow, borrow_out);
    GfpfLaneElem d;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const gfpf_u64 diff = x.d[h] - y.d[h] - borrow[h];
        const bool under = lower[h] || (equal[h] && borrow[h]);
        d.d[h] = under ? diff + GFPF_R_VALUE : diff;
    }
    // A borrow out of digit k - 1 added r^k = -1: add 1 back.
    return gfpf_lane_increment(l, d, borrow_out);
}

// (a, b) <- (a + b, a - b): the butterfly, both chains resolved at once.
GFPF_FN GfpfLanePair gfpf_lane_add_sub(GfpfLanes l, GfpfLaneElem x, GfpfLaneElem y) {
    GFPF_COUNT_OP(GFPF_OP_LANE_ADD_SUB);
    // A digit sum is below 2r + 1 < 2^65: at most one add wraps, and
    // subtracting r (wrapping) is then exact.
    gfpf_u64 s[GFPF_LANE_DIGITS];
    bool over[GFPF_LANE_DIGITS], at_edge[GFPF_LANE_DIGITS], lower[GFPF_LANE_DIGITS], equal[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        s[h] = x.d[h] + y.d[h];
        over[h] = s[h] < x.d[h] || s[h] >= GFPF_R_VALUE;
        at_edge[h] = !over[h] && s[h] == GFPF_R_VALUE - 1;
    }
    bool carry[GFPF_LANE_DIGITS], borrow[GFPF_LANE_DIGITS], carry_out, borrow_out;
    gfpf_lane_carries(l, over, at_edge, carry, carry_out);
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        lower[h] = x.d[h] < y.d[h];
        equal[h] = x.d[h] == y.d[h];
    }
    gfpf_lane_carries(l, lower, equal, borrow, borrow_out);
    GfpfLaneElem sum, diff;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const gfpf_u64 sv = s[h] + carry[h];
        const gfpf_u64 dv = x.d[h] - y.d[h] - borrow[h];
        const bool sum_over = over[h] || (at_edge[h] && carry[h]);
        const bool diff_under = lower[h] || (equal[h] && borrow[h]);
        sum.d[h] = sum_over ? sv - GFPF_R_VALUE : sv;
        diff.d[h] = diff_under ? dv + GFPF_R_VALUE : dv;
    }
    // A carry out of digit k - 1 is r^k = -1; a borrow is +1.
    GfpfLanePair out;
    out.sum = gfpf_lane_decrement(l, sum, carry_out);
    out.diff = gfpf_lane_increment(l, diff, borrow_out);
    return out;
}

// x + y, or x - y where `subtract`: one side of the butterfly, exactly
// gfpf_lane_add_sub's sum or difference, through one carry chain. The same
// instructions either way (the side is a value, not a branch), so the
// segments of a warp may take different sides: a team whose segments hold
// one element each splits every butterfly between two of them.
GFPF_FN GfpfLaneElem gfpf_lane_add_or_sub_uncounted(const GfpfLanes& l, GfpfLaneElem x, GfpfLaneElem y,
                                                   bool subtract) {
    // Adding: digit t generates a carry where its sum reaches r (or wraps
    // 2^64) and propagates one where it is r - 1. Subtracting: it generates
    // a borrow where x's digit is below y's and propagates one where equal.
    gfpf_u64 s[GFPF_LANE_DIGITS];
    bool g[GFPF_LANE_DIGITS], p[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        s[h] = x.d[h] + y.d[h];
        const bool over = s[h] < x.d[h] || s[h] >= GFPF_R_VALUE;
        g[h] = subtract ? x.d[h] < y.d[h] : over;
        p[h] = subtract ? x.d[h] == y.d[h] : !over && s[h] == GFPF_R_VALUE - 1;
    }
    bool c[GFPF_LANE_DIGITS], c_out;
    gfpf_lane_carries(l, g, p, c, c_out);
    GfpfLaneElem out;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const bool past = g[h] || (p[h] && c[h]);
        const gfpf_u64 sv = s[h] + c[h], dv = x.d[h] - y.d[h] - c[h];
        out.d[h] = subtract ? (past ? dv + GFPF_R_VALUE : dv) : (past ? sv - GFPF_R_VALUE : sv);
    }
    // A carry out of digit k - 1 is r^k = -1; a borrow is +1.
    return gfpf_lane_step(l, out, c_out, subtract);
}
GFPF_FN GfpfLaneElem gfpf_lane_add_or_sub(const GfpfLanes& l, GfpfLaneElem x, GfpfLaneElem y, bool subtract) {
    GFPF_COUNT_OP(GFPF_OP_LANE_ADD_OR_SUB);
    return gfpf_lane_add_or_sub_uncounted(l, x, y, subtract);
}

// x + y: gfpf_lane_add_or_sub's sum, the side known where it is compiled
// (72 instructions a lane against 104 with the side a value; NVRTC 12.9,
// sm_90, nvdisasm 13.5, 2026-11-27).
GFPF_FN GfpfLaneElem gfpf_lane_add(const GfpfLanes& l, GfpfLaneElem x, GfpfLaneElem y) {
    GFPF_COUNT_OP(GFPF_OP_LANE_ADD);
    return gfpf_lane_add_or_sub_uncounted(l, x, y, false);
}

// x·r^i for 0 ≤ i < 2k: a rotation of the digits over the segment and one
// subtraction (gfpf_mul_pow_r).
GFPF_FN GfpfLaneElem gfpf_lane_mul_pow_r(GfpfLanes l, GfpfLaneElem x, int i) {
    GFPF_COUNT_OP(GFPF_OP_LANE_MUL_POW_R);
    const int s = i >= GFPF_K ? i - GFPF_K : i;
    const bool negate = i >= GFPF_K;
    const gfpf_u64 top = l.digit_of(x.d, GFPF_K - 1);
    // Digit t takes digit t - s: s = rows·S + lanes, every row rotated by
    // `lanes`, then the row `rows` (one more where the lane wrapped) below.
    const int rows = s / GFPF_LANE_SEGMENT, lanes = s % GFPF_LANE_SEGMENT;
    gfpf_u64 rotated[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) rotated[h] = l.rotate(x.d[h], lanes);
    // x·r^s = A - B: A the digits shifted up, B those that wrapped past r^k.
    GfpfLaneElem shifted, wrapped;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const int from = h - rows - (l.index() < lanes ? 1 : 0);
        const gfpf_u64 moved = gfpf_lane_pick(rotated, (from + GFPF_LANE_DIGITS) % GFPF_LANE_DIGITS);
        const bool wraps = l.digit(h) < s;
        shifted.d[h] = wraps ? 0 : moved;
        wrapped.d[h] = wraps ? moved : 0;
    }
    const GfpfLaneElem general = negate ? gfpf_lane_sub(l, wrapped, shifted) : gfpf_lane_sub(l, shifted, wrapped);
    if (top != GFPF_R_VALUE) return general;
    // x = -1: the result is -r^i, i.e. r^s for i ≥ k, else p - r^s.
    GfpfLaneElem out;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const int t = l.digit(h);
        if (negate) {
            out.d[h] = t == s ? 1 : 0;
        } else if (s == 0) {
            out.d[h] = t == GFPF_K - 1 ? GFPF_R_VALUE : 0;
        } else {
            // r^k + 1 - r^s: digits s … k - 1 are r - 1, digit 0 is 1.
            out.d[h] = t == 0 ? 1 : (t >= s ? GFPF_R_VALUE - 1 : 0);
        }
    }
    return out;
}

// (x - y)·r^i for 0 ≤ i < 2k: the difference side of a butterfly and its
// root in one carry chain. As gfpf_lane_mul_pow_r, x·r^s = S(x) - W(x), the
// digits shifted up less those that wrapped past r^k; so (x - y)·r^s =
// (S(x) + W(y)) - (W(x) + S(y)), and each sum takes its digits from one of
// the two rotated elements by whether the digit wraps (S and W have
// disjoint digits): one subtraction where gfpf_lane_add_or_sub and
// gfpf_lane_mul_pow_r take two. r^i = -r^(i-k) for i ≥ k swaps x and y.
// Where x or y is -1 (top digit r, which a rotation would move below the
// top) any segment of the warp takes the two steps instead.
GFPF_FN GfpfLaneElem gfpf_lane_sub_mul_pow_r(const GfpfLanes& l, GfpfLaneElem x, GfpfLaneElem y, int i) {
    // Both shuffles on every lane (no short circuit: a collective each).
    const gfpf_u64 x_top = l.digit_of(x.d, GFPF_K - 1), y_top = l.digit_of(y.d, GFPF_K - 1);
    if (__any_sync(l.mask, x_top == GFPF_R_VALUE || y_top == GFPF_R_VALUE)) return gfpf_lane_mul_pow_r(l, gfpf_lane_add_or_sub(l, x, y, true), i);
    GFPF_COUNT_OP(GFPF_OP_LANE_SUB_MUL_POW_R);
    const int s = i >= GFPF_K ? i - GFPF_K : i;
    if (i >= GFPF_K) {
        const GfpfLaneElem t = x;
        x = y;
        y = t;
    }
    const int rows = s / GFPF_LANE_SEGMENT, lanes = s % GFPF_LANE_SEGMENT;
    gfpf_u64 rx[GFPF_LANE_DIGITS], ry[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        rx[h] = l.rotate(x.d[h], lanes);
        ry[h] = l.rotate(y.d[h], lanes);
    }
    GfpfLaneElem a, b;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const int from = (h - rows - (l.index() < lanes ? 1 : 0) + GFPF_LANE_DIGITS) % GFPF_LANE_DIGITS;
        const gfpf_u64 mx = gfpf_lane_pick(rx, from), my = gfpf_lane_pick(ry, from);
        const bool wraps = l.digit(h) < s;
        a.d[h] = wraps ? my : mx;
        b.d[h] = wraps ? mx : my;
    }
    return gfpf_lane_sub(l, a, b);
}

// a + b for digits below r (a sum below 2r): the digit and whether r went.
GFPF_FN gfpf_u64 gfpf_lane_add_digit(gfpf_u64 a, gfpf_u64 b, gfpf_u64& carries) {
    const gfpf_u64 s = a + b;
    const bool over = s < a || s >= GFPF_R_VALUE;
    carries += over;
    return over ? s - GFPF_R_VALUE : s;
}

// For every digit t of this lane, word v of digit t - delta (delta 1 or 2,
// at most S), 0 below digit 0.
GFPF_FN void gfpf_lane_below(const GfpfLanes& l, const gfpf_u64 (&v)[GFPF_LANE_DIGITS], int delta,
                             gfpf_u64 (&out)[GFPF_LANE_DIGITS]) {
    gfpf_u64 rotated[GFPF_LANE_DIGITS];
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) rotated[h] = l.rotate(v[h], delta);
    const bool wrapped = l.index() < delta;
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        const gfpf_u64 from_row_below = h > 0 ? rotated[h > 0 ? h - 1 : 0] : 0;
        out[h] = l.digit(h) < delta ? 0 : (wrapped ? from_row_below : rotated[h]);
    }
}

// Column step jl of a lane product: x_j of every row from lane jl, and y's
// rows rotated by jl.
GFPF_FN void gfpf_lane_column_operands(const GfpfLanes& l, const GfpfLaneElem& x, const GfpfLaneElem& y, int jl,
                                       gfpf_u64 (&xj)[GFPF_LANE_DIGITS], gfpf_u64 (&yr)[GFPF_LANE_DIGITS]) {
#pragma unroll
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        xj[h] = __shfl_sync(l.mask, x.d[h], jl, GFPF_LANE_SEGMENT);
        yr[h] = l.rotate(y.d[h], jl);
    }
}

// The y digit that x's row jh meets in this lane's row h: row h − jh of the
// rotated rows, one lower where the lane wrapped (`low`).
GFPF_FN gfpf_u64 gfpf_lane_column_partner(const gfpf_u64 (&yr)[GFPF_LANE_DIGITS], bool low, int h, int jh) {
    constexpr int D = GFPF_LANE_DIGITS;
    const int same = h - jh, below = h - jh - 1;
    return low ? yr[(below + D) % D] : yr[(same + D) % D];
}

// Whether that product is subtracted: its row fell below 0 (the
// negacyclic wrap).
GFPF_FN bool gfpf_lane_column_subtracts(bool low, int h, int jh) {
    return low ? h - jh - 1 < 0 : h - jh < 0;
}

// The column sums of x·y with every product of a column step accumulated
// whatever its sign: a subtracted product p is added as its complement ~p =
// 2^128 − 1 − p (no branch where the lanes of a warp differ in sign), its
// low and high words summed apart in 128 bits, so that every add carries
// word to word (IADD3 chains); the 2^128 − 1 of each complement comes off
// once at the end. 30 SASS instructions a column step at t8 against 55 for
// the branches of gfpf_lane_column_sums_branching, but a few registers more
// at its peak (cargo xtask build-kernels + nvdisasm, NVRTC 12.9, sm_90,
// 2026-11-25).
GFPF_FN void gfpf_lane_column_sums(GfpfLanes l, const GfpfLaneElem& x, const GfpfLaneElem& y,
                                   GfpfAcc (&acc)[GFPF_LANE_DIGITS]) {
    constexpr int S = GFPF_LANE_SEGMENT, D = GFPF_LANE_DIGITS;
    const int i = l.index();
#if GFPF_LANE_DIGITS == 1 && GFPF_LANE_SEGMENT >= 16
    // One digit a lane over 16 or 32: each product in 32-bit carry chains
    // (gfpf_column_mac), a subtracted one as x·~y = x·(2^64 − 1) − x·y,
    // whose x·(2^64 − 1) comes off once at the end (`taken`, the sum of
    // those x). A column step 25 instructions against 30, the end 24 more
    // (a probe's SASS, t8, t16 and t32 alike: NVRTC 12.9, sm_90, nvdisasm
    // 13.5, 2026-11-28): a gain from 16 steps. Not below: at 4 and 8 it
    // gains nothing, and t4's and p4's DFT_8 pairs of segment teams spilled
    // 8–16 bytes at their 40 registers.
    GfpfColumnSum sum = {{0, 0, 0, 0, 0}, {0, 0, 0}};
    gfpf_u128 taken = 0;
#pragma unroll 1
    for (int jl = 0; jl < S; ++jl) {
        gfpf_u64 xj[1], yr[1];
        gfpf_lane_column_operands(l, x, y, jl, xj, yr);
        const bool low = i < jl;
        const gfpf_u32 flip = 0u - (gfpf_u32)gfpf_lane_column_subtracts(low, 0, 0);
        const gfpf_u64 flip64 = ((gfpf_u64)flip << 32) | flip;
        gfpf_column_mac(sum, xj[0], gfpf_lane_column_partner(yr, low, 0, 0) ^ flip64);
        taken += xj[0] & flip64;
    }
    // acc = even + odd·2^32 + taken − taken·2^64, mod 2^192.
    const gfpf_u32* e = sum.even;
    gfpf_u128 bottom = ((gfpf_u128)(((gfpf_u64)e[3] << 32) | e[2]) << 64) | (((gfpf_u64)e[1] << 32) | e[0]);
    gfpf_u64 top = e[4];
    const gfpf_u128 odd = ((gfpf_u128)sum.odd[2] << 96) | ((gfpf_u128)sum.odd[1] << 64) | ((gfpf_u128)sum.odd[0] << 32);
    bottom += odd;
    top += bottom < odd;
    bottom += taken;
    top += bottom < taken;
    const gfpf_u128 shifted = taken << 64;
    top -= (gfpf_u64)(taken >> 64) + (bottom < shifted);
    bottom -= shifted;
    acc[0].w0 = (gfpf_u64)bottom;
    acc[0].w1 = (gfpf_u64)(bottom >> 64);
    acc[0].w2 = top;
#else
    gfpf_u128 low_sum[D], high_sum[D];
#pragma unroll
    for (int h = 0; h < D; ++h) {
        low_sum[h] = 0;
        high_sum[h] = 0;
    }
    // Kept a loop: unrolled in each of a codelet's R twiddles, it made the
    // DFT_32 modules of k = 16 take NVRTC ~28 s.
#pragma unroll 1
    for (int jl = 0; jl < S; ++jl) {
        gfpf_u64 xj[D], yr[D];
        gfpf_lane_column_operands(l, x, y, jl, xj, yr);
        const bool low = i < jl;
#pragma unroll
        for (int h = 0; h < D; ++h) {
#pragma unroll
            for (int jh = 0; jh < D; ++jh) {
                const gfpf_u64 yv = gfpf_lane_column_partner(yr, low, h, jh);
                const bool subtract = gfpf_lane_column_subtracts(low, h, jh);
                const gfpf_u128 product = (gfpf_u128)xj[jh] * yv;
                // One 32-bit mask, both halves of each word.
                const gfpf_u32 flip = 0u - (gfpf_u32)subtract;
                const gfpf_u64 flip64 = ((gfpf_u64)flip << 32) | flip;
                const gfpf_u64 add0 = (gfpf_u64)product ^ flip64, add1 = (gfpf_u64)(product >> 64) ^ flip64;
                low_sum[h] += add0;
                high_sum[h] += add1;
            }
        }
    }
    // acc = low_sum + high_sum·2^64 − complements·(2^128 − 1), mod 2^192,
    // where row h subtracted D − h products for each of the S − 1 − i lanes
    // jl above this one and D − h − 1 for each of the other i + 1.
#pragma unroll
    for (int h = 0; h < D; ++h) {
        const gfpf_u64 complements = (gfpf_u64)((S - 1 - i) * (D - h) + (i + 1) * (D - h - 1));
        const gfpf_u128 bottom = low_sum[h] + complements;
        const gfpf_u128 middle = (bottom >> 64) + (gfpf_u64)high_sum[h];
        acc[h].w0 = (gfpf_u64)bottom;
        acc[h].w1 = (gfpf_u64)middle;
        acc[h].w2 = (gfpf_u64)(middle >> 64) + (gfpf_u64)(high_sum[h] >> 64) - complements;
    }
#endif
}

// gfpf_lane_column_sums with a branch on each product's sign: where the
// lanes differ, the warp runs both sides, but no register holds the
// complements' sums, which DFT_16's segment-per-DFT kernels at t8 (62 of 64
// registers) need.
GFPF_FN void gfpf_lane_column_sums_branching(GfpfLanes l, const GfpfLaneElem& x, const GfpfLaneElem& y,
                                             GfpfAcc (&acc)[GFPF_LANE_DIGITS]) {
    constexpr int S = GFPF_LANE_SEGMENT, D = GFPF_LANE_DIGITS;
    const int i = l.index();
#pragma unroll
    for (int h = 0; h < D; ++h) acc[h] = {0, 0, 0};
#pragma unroll 1
    for (int jl = 0; jl < S; ++jl) {
        gfpf_u64 xj[D], yr[D];
        gfpf_lane_column_operands(l, x, y, jl, xj, yr);
        const bool low = i < jl;
#pragma unroll
        for (int h = 0; h < D; ++h) {
#pragma unroll
            for (int jh = 0; jh < D; ++jh) {
                const gfpf_u64 yv = gfpf_lane_column_partner(yr, low, h, jh);
                if (gfpf_lane_column_subtracts(low, h, jh)) {
                    gfpf_acc_sub_product(acc[h], xj[jh], yv);
                } else {
                    gfpf_acc_add_product(acc[h], xj[jh], yv);
                }
            }
        }
    }
}

// x·y for canonical x and y (gfpf_mul); BRANCHING picks the column sums'
// sign handling (gfpf_lane_column_sums or its branching twin), not the result.
template <bool BRANCHING = false>
GFPF_FN GfpfLaneElem gfpf_lane_mul(GfpfLanes l, GfpfLaneElem x, GfpfLaneElem y) {
    GFPF_COUNT_OP(GFPF_OP_LANE_MUL);
    constexpr int D = GFPF_LANE_DIGITS;
    const unsigned shift = GFPF_R_SHIFT;
    // u_t = Σ_{j≤t} x_j·y_{t−j} − Σ_{j>t} x_j·y_{t+k−j}, plus the offset, for
    // this lane's columns t = h·S + i. Digit j = jh·S + jl: for each jl, x_j
    // of every row comes from lane jl and y_{t−j} from the rows rotated by
    // jl (row h − jh, one lower where the lane wrapped; a row below 0 is
    // the negacyclic wrap, subtracted).
    GfpfAcc acc[D];
    if (BRANCHING) {
        gfpf_lane_column_sums_branching(l, x, y, acc);
    } else {
        gfpf_lane_column_sums(l, x, y, acc);
    }
    // u_t = h·r² + m·r + low (u_t < 2^138, so h is small).
    gfpf_u64 low[D], m[D], hi[D];
#pragma unroll
    for (int h = 0; h < D; ++h) {
        gfpf_acc_add_offset(acc[h], l.digit(h));
        const GfpfAcc a = acc[h];
        gfpf_u64 q_hi, q_lo, rem;
        gfpf_div_rem_small_high(gfpf_shl_words(a.w2, a.w1, shift), gfpf_shl_words(a.w1, a.w0, shift), q_hi, rem);
        gfpf_div_rem_scaled(rem, a.w0 << shift, q_lo, rem);
        low[h] = rem >> shift;
        gfpf_div_rem_small_high(gfpf_shl_words(q_hi, q_lo, shift), q_lo << shift, hi[h], rem);
        m[h] = rem >> shift;
    }
    // Digit t gathers low_t + m_{t−1} + h_{t−2}; what passes digit k − 1
    // (m_{k−1} + h_{k−2} at r^k, h_{k−1} at r^(k+1)) is subtracted below.
    gfpf_u64 m_below[D], h_below[D], carries[D], e[D];
    gfpf_lane_below(l, m, 1, m_below);
    gfpf_lane_below(l, hi, 2, h_below);
#pragma unroll
    for (int h = 0; h < D; ++h) {
        carries[h] = 0;
        e[h] = gfpf_lane_add_digit(low[h], m_below[h], carries[h]);
        e[h] = gfpf_lane_add_digit(e[h], h_below[h], carries[h]);
    }
    // Carries of at most 2 move up one digit: a digit below r + 2, resolved by
    // one lookahead.
    gfpf_u64 carries_below[D], w[D];
    gfpf_lane_below(l, carries, 1, carries_below);
    bool over[D], at_edge[D], carry[D], carry_out;
#pragma unroll
    for (int h = 0; h < D; ++h) {
        w[h] = e[h] + carries_below[h];
        over[h] = w[h] < e[h] || w[h] >= GFPF_R_VALUE;
        at_edge[h] = !over[h] && w[h] == GFPF_R_VALUE - 1;
    }
    gfpf_lane_carries(l, over, at_edge, carry, carry_out);
    GfpfLaneElem digit;
#pragma unroll
    for (int h = 0; h < D; ++h)
        digit.d[h] = w[h] + carry[h] - ((over[h] || (at_edge[h] && carry[h])) ? GFPF_R_VALUE : 0);
    // The part past digit k - 1: v0 + v1·r, v0 < r.
    const gfpf_u64 m_top = l.digit_of(m, GFPF_K - 1);
    const gfpf_u64 h_next = l.digit_of(hi, GFPF_K - 2);
    const gfpf_u64 h_top = l.digit_of(hi, GFPF_K - 1);
    const gfpf_u64 carries_top = l.digit_of(carries, GFPF_K - 1);
    gfpf_u64 v1 = h_top;
    gfpf_u64 v0 = gfpf_lane_add_digit(m_top, h_next, v1);
    v0 = gfpf_lane_add_digit(v0, carries_top + carry_out, v1);
    GfpfLaneElem past;
#pragma unroll
    for (int h = 0; h < D; ++h) past.d[h] = l.digit(h) == 0 ? v0 : (l.digit(h) == 1 ? v1 : 0);
    const GfpfLaneElem product = gfpf_lane_sub(l, digit, past);
    // -1 (top digit r) has no place in the column sums' bounds: x·(-1) = -x.
    const bool x_minus_one = l.digit_of(x.d, GFPF_K - 1) == GFPF_R_VALUE;
    const bool y_minus_one = l.digit_of(y.d, GFPF_K - 1) == GFPF_R_VALUE;
    if (__any_sync(l.mask, x_minus_one || y_minus_one)) {
        GfpfLaneElem zero;
#pragma unroll
        for (int h = 0; h < D; ++h) zero.d[h] = 0;
        const GfpfLaneElem neg_x = gfpf_lane_sub(l, zero, x);
        const GfpfLaneElem neg_y = gfpf_lane_sub(l, zero, y);
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
GFPF_LANE_OUTLINED GfpfLanePair gfpf_lane_add_sub_outlined(GfpfLanes l, GfpfLaneElem x, GfpfLaneElem y) {
    return gfpf_lane_add_sub(l, x, y);
}
GFPF_LANE_OUTLINED GfpfLaneElem gfpf_lane_mul_pow_r_outlined(GfpfLanes l, GfpfLaneElem x, int i) {
    return gfpf_lane_mul_pow_r(l, x, i);
}
GFPF_LANE_OUTLINED GfpfLaneElem gfpf_lane_mul_outlined(GfpfLanes l, GfpfLaneElem x, GfpfLaneElem y) {
    return gfpf_lane_mul(l, x, y);
}

#endif
