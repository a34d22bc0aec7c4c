// Products over GF(p) through word-size primes on the device, coefficient
// by coefficient (gfpf_cuda::multimodular): project each coefficient
// x = Σ d_i·r^i onto s primes q_j < 2^31 in 32-bit words (gfpf_mm_project,
// gfpf_mm_join) or q_j < 2^62 in 64-bit words (gfpf_mm62_project,
// gfpf_mm62_join: lengths past the 31-bit primes' reach), multiply the residues' transforms
// pointwise (the inverse NTT's first launch, gfpf_ntt.cu), and join each
// product coefficient's s residues (the explicit CRT) into its value mod p. The s primes' product exceeds
// every coefficient of the integer product (below min(la, lb)·(p − 1)^2)
// 2^10 times over, so the join (the explicit CRT) is exact before the
// reduction mod p.
//
// One thread a coefficient in the projection (every prime's residue) and
// the join. Residues are prime-major: prime j's N words at j·N.
#pragma once

// The kernels' parameters (gfpf_cuda::multimodular::MultiModularParams
// mirrors them).
struct GfpfMultiModularParams {
    gfpf_u64 elements;     // digit-major elements (pitch `count`): read by the projection, written by the join
    gfpf_u64 residues;     // words (u32 or u64), prime-major, N a prime
    gfpf_u64 constants;    // words as the residues: see gfpf_mm_project / gfpf_mm_join
    gfpf_u64 count;        // coefficients read or written
    gfpf_u64 n;            // N: words a prime (the projection zeroes those past `count`)
    gfpf_u64 primes;       // s
    gfpf_u64 threads;      // threads of the launch
    gfpf_u64 carries;      // 0, or 2·count u64 words: a split join's carries past the top digit (gfpf_mm_finish)
};

// x·W·2^−32 mod q (x < 2^32, W < q < 2^31; q_neg_inv = −q^−1 mod 2^32).
GFPF_FN gfpf_u32 gfpf_mm_montgomery(gfpf_u32 x, gfpf_u32 w, gfpf_u32 q, gfpf_u32 q_neg_inv) {
    GFPF_COUNT_OP(GFPF_OP_MM_PRODUCT);
    const gfpf_u64 t = (gfpf_u64)x * w;
    const gfpf_u32 m = (gfpf_u32)t * q_neg_inv;
    const gfpf_u32 u = (gfpf_u32)((t + (gfpf_u64)m * q) >> 32);
    return u >= q ? u - q : u;
}

// x·W·2^−64 mod q in 64-bit words (x < 2^64, W < q < 2^62, q_neg_inv =
// −q^−1 mod 2^64): t = x·W = hi·2^64 + lo, m = lo·q_neg_inv, so lo + (m·q
// mod 2^64) is 0 (lo = 0) or 2^64, and (t + m·q)/2^64 = hi + ⌊m·q/2^64⌋ +
// (lo ≠ 0) < 2q.
GFPF_FN gfpf_u64 gfpf_mm_montgomery(gfpf_u64 x, gfpf_u64 w, gfpf_u64 q, gfpf_u64 q_neg_inv) {
    GFPF_COUNT_OP(GFPF_OP_MM62_PRODUCT);
    const gfpf_u128 t = (gfpf_u128)x * w;
    const gfpf_u64 lo = (gfpf_u64)t, m = lo * q_neg_inv;
    const gfpf_u64 u = (gfpf_u64)(t >> 64) + (gfpf_u64)(((gfpf_u128)m * q) >> 64) + (lo != 0 ? 1 : 0);
    return u >= q ? u - q : u;
}

// a·b, 32 × 32 → 64 bits, one IMAD.WIDE.U32: written as a product of
// 64-bit words, NVVM made it one ptxas did not fold the zero upper words
// of (t8's projection: 16 adds of a zero word a prime, in a loop of 131
// instructions where it takes 84; NVRTC 12.9, sm_90, 2026-11-30).
GFPF_FN gfpf_u64 gfpf_mm_mul_wide(gfpf_u32 a, gfpf_u32 b) {
#ifdef GFPF_HOST_EMULATION
    return (gfpf_u64)a * b;
#else
    gfpf_u64 product;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(product) : "r"(a), "r"(b));
    return product;
#endif
}

// a·b, 32 × 64 → 96 bits, as two 32 × 32-bit products.
GFPF_FN gfpf_u128 gfpf_mm_mul_wide(gfpf_u32 a, gfpf_u64 b) {
    return (gfpf_u128)gfpf_mm_mul_wide(a, (gfpf_u32)b) + ((gfpf_u128)gfpf_mm_mul_wide(a, (gfpf_u32)(b >> 32)) << 32);
}

// Words of a prime's projection constants: q, −q^−1 mod 2^w, then in 32-bit
// words 2^64 mod q and 0, then for each digit i the pair (r^i·2^64,
// r^i·2^32) mod q; in 64-bit words 2^64 and 2^128 mod q, then the pairs
// (r^i·2^32, r^i) mod q.
#define GFPF_MM_PROJECT_WORDS (4 + 2 * GFPF_K)

// A digit d = h·2^32 + l of a projection: h·A + l·B, the prime's pair of
// constants (A, B) for its place, summed exactly (the Montgomery factor the
// constants carry undone by gfpf_mm_project_reduce). 32-bit words: two
// 32-bit products (below 2^63 each); 64-bit words: two 32 × 62-bit products
// (below 2^94 each).
GFPF_FN gfpf_u128 gfpf_mm_project_term(gfpf_u64 d, const gfpf_u32* k, int i) {
    GFPF_COUNT_OP(GFPF_OP_MM_TERM);
    return (gfpf_u128)gfpf_mm_mul_wide((gfpf_u32)(d >> 32), GFPF_TABLE_READ(k, 4 + 2 * i)) +
           (gfpf_u128)gfpf_mm_mul_wide((gfpf_u32)d, GFPF_TABLE_READ(k, 5 + 2 * i));
}
GFPF_FN gfpf_u128 gfpf_mm_project_term(gfpf_u64 d, const gfpf_u64* k, int i) {
    GFPF_COUNT_OP(GFPF_OP_MM62_TERM);
    return gfpf_mm_mul_wide((gfpf_u32)(d >> 32), GFPF_TABLE_READ(k, 4 + 2 * i)) +
           gfpf_mm_mul_wide((gfpf_u32)d, GFPF_TABLE_READ(k, 5 + 2 * i));
}

// A projection's sum S of 2k terms, reduced once. 32-bit words: S ≡ x·2^32
// (the constants are r^i·2^64 and r^i·2^32), S = s2·2^64 + a·2^32 + b gives
// x ≡ s2·2^32 + a + b·2^−32, two Montgomery products (s2 by 2^64 mod q, b by
// 1) and a < 4q. 64-bit words: S ≡ x (constants r^i·2^32 and r^i), S =
// s1·2^64 + s0 gives x ≡ s1·2^64 + s0, two Montgomery products (s1 by 2^128
// mod q, s0 by 2^64 mod q).
GFPF_FN gfpf_u32 gfpf_mm_project_reduce(gfpf_u128 sum, const gfpf_u32* k, gfpf_u32 q, gfpf_u32 q_neg_inv) {
    const gfpf_u64 low = (gfpf_u64)sum;
    gfpf_u32 a = (gfpf_u32)(low >> 32);
    a = a >= 2 * q ? a - 2 * q : a;
    a = a >= q ? a - q : a;
    gfpf_u32 x = gfpf_mm_montgomery((gfpf_u32)low, 1, q, q_neg_inv);
    x = x + a >= q ? x + a - q : x + a;
    const gfpf_u32 wrap = gfpf_mm_montgomery((gfpf_u32)(sum >> 64), GFPF_TABLE_READ(k, 2), q, q_neg_inv);
    return x + wrap >= q ? x + wrap - q : x + wrap;
}
GFPF_FN gfpf_u64 gfpf_mm_project_reduce(gfpf_u128 sum, const gfpf_u64* k, gfpf_u64 q, gfpf_u64 q_neg_inv) {
    const gfpf_u64 x = gfpf_mm_montgomery((gfpf_u64)sum, GFPF_TABLE_READ(k, 2), q, q_neg_inv);
    const gfpf_u64 high = gfpf_mm_montgomery((gfpf_u64)(sum >> 64), GFPF_TABLE_READ(k, 3), q, q_neg_inv);
    return x + high >= q ? x + high - q : x + high;
}

// Thread c < N: the residues of coefficient c (0 past the coefficients)
// modulo every prime, Σ_i d_i·r^i mod q_j at residues[j·N + c], in words T,
// the digits read once (coalesced) and held, each prime's 2k half-digit
// products summed exactly in 128 bits and reduced once
// (gfpf_mm_project_term, gfpf_mm_project_reduce): where a Montgomery
// product and a modular add per half took about three times the
// instructions (32-bit words).
template <class T>
GFPF_FN void gfpf_mm_project_thread(const GfpfMultiModularParams& p, gfpf_u64 c) {
    if (c >= p.count) {
        // Padding: zeros, no products.
        for (gfpf_u64 j = 0; j < p.primes; ++j) GFPF_GLOBAL_WRITE((T*)p.residues, j * p.n + c, (T)0);
        return;
    }
    gfpf_u64 digits[GFPF_K];
    const gfpf_u64* elements = (const gfpf_u64*)p.elements;
#pragma unroll
    for (int i = 0; i < GFPF_K; ++i) digits[i] = GFPF_GLOBAL_READ(elements, (gfpf_u64)i * p.count + c);
    for (gfpf_u64 j = 0; j < p.primes; ++j) {
        const T* k = (const T*)p.constants + j * GFPF_MM_PROJECT_WORDS;
        const T q = GFPF_TABLE_READ(k, 0), q_neg_inv = GFPF_TABLE_READ(k, 1);
        GFPF_COUNT_OP(GFPF_OP_MM_PRIME);
        gfpf_u128 sum = 0;
#pragma unroll
        for (int i = 0; i < GFPF_K; ++i) sum += gfpf_mm_project_term(digits[i], k, i);
        GFPF_GLOBAL_WRITE((T*)p.residues, j * p.n + c, gfpf_mm_project_reduce(sum, k, q, q_neg_inv));
    }
}

// The join's constants (words as the residues', s primes), for the
// explicit CRT: x = Σ_j y_j·M_j − k·M, M = Π q_j, M_j = M/q_j, y_j =
// v_j·(M_j^−1 mod q_j) mod q_j, k = ⌊Σ_j y_j/q_j⌋ (the primes leave 2^10 of
// room above every coefficient, so x/M < 2^−10 and a double sum finds k
// exactly). Per prime, GfpfMmWord<T>::JOIN_WORDS words: q_j, −q_j^−1 mod
// 2^w, (M_j^−1 mod q_j)·2^w mod q_j, then 1/q_j as a double's bits (in
// 32-bit words a 0 first, then the bits low word first); then for each prime
// the element M_j mod p as K digits (two words each in 32-bit words, low
// first); then the element −M mod p.
//
// Thread c: Σ_j y_j·(M_j mod p) + k·(−M mod p) as K digit sums (below
// s·2^95 < 2^102 with 31-bit primes, s·2^126 < 2^132 with 62-bit ones),
// carried in base r, the carry past digit K − 1 (r^K = −1) subtracted:
// canonical, as gfpf_mul's own carry chain.
// The double whose bits these are.
GFPF_FN double gfpf_mm_double_of(gfpf_u64 bits) {
#ifdef GFPF_HOST_EMULATION
    double d;
    __builtin_memcpy(&d, &bits, sizeof d);
    return d;
#else
    return __longlong_as_double((long long)bits);
#endif
}

// A 64-bit table value: two 32-bit words (low first) or one 64-bit word.
GFPF_FN gfpf_u64 gfpf_mm_u64_at(const gfpf_u32* words, gfpf_u64 i) {
    return (gfpf_u64)GFPF_TABLE_READ(words, 2 * i) | ((gfpf_u64)GFPF_TABLE_READ(words, 2 * i + 1) << 32);
}
GFPF_FN gfpf_u64 gfpf_mm_u64_at(const gfpf_u64* words, gfpf_u64 i) { return GFPF_TABLE_READ(words, i); }

// A join's digit sum: 128 bits with 31-bit residues, 192 with 62-bit ones
// (a 128-bit sum and the carries out of it).
struct GfpfMmSum192 {
    gfpf_u128 low;
    gfpf_u64 top;
};
GFPF_FN void gfpf_mm_sum_clear(gfpf_u128& acc) { acc = 0; }
GFPF_FN void gfpf_mm_sum_clear(GfpfMmSum192& acc) { acc = {0, 0}; }
// y < 2^32 (a 31-bit residue, or the wraps k < s).
GFPF_FN void gfpf_mm_mac(gfpf_u128& acc, gfpf_u64 y, gfpf_u64 digit) {
    GFPF_COUNT_OP(GFPF_OP_MM_MAC);
    acc += gfpf_mm_mul_wide((gfpf_u32)y, digit);
}
GFPF_FN void gfpf_mm_mac(GfpfMmSum192& acc, gfpf_u64 y, gfpf_u64 digit) {
    GFPF_COUNT_OP(GFPF_OP_MM62_MAC);
    const gfpf_u128 product = (gfpf_u128)y * digit;
    acc.low += product;
    acc.top += acc.low < product ? 1 : 0;
}
GFPF_FN GfpfAcc gfpf_mm_sum_words(const gfpf_u128& acc) { return {(gfpf_u64)acc, (gfpf_u64)(acc >> 64), 0}; }
GFPF_FN GfpfAcc gfpf_mm_sum_words(const GfpfMmSum192& acc) {
    return {(gfpf_u64)acc.low, (gfpf_u64)(acc.low >> 64), acc.top};
}

// What the join's word widths differ in: the sums, the constants' layout
// (words a prime, where 1/q_j lies, in 64-bit values), and the digits
// summed in one pass over the residues. 32-bit words: all of them up to k =
// 8 (32 registers of sums), 8 at k = 16, whose two passes read the residues
// again (from L1 or L2) and recompute y_j (one pass spilled 264 bytes
// within 64 registers). 64-bit words: sums of six registers, 2 digits a
// pass (4 at t8 spilled 16 bytes within 64 registers: NVRTC 12.9, sm_90,
// 2026-11-27). Above k = 8 the element's digits beside the sums do not fit
// 64 registers (32-bit words, 4 digits a pass: 52 bytes spilled on sm_80;
// 64-bit words, even a digit a pass: 48–56 bytes), so the join writes each
// digit as it is carried and the carry past the top digit to `carries`,
// and a launch of its own (gfpf_mm_finish) subtracts it (SPLIT_CARRY):
// then neither width spills on sm_80 or sm_90 (NVRTC 12.9, 2026-11-27).
template <class T>
struct GfpfMmWord;
template <>
struct GfpfMmWord<gfpf_u32> {
    typedef gfpf_u128 Sum;
    static constexpr int JOIN_VALUES = 3;  // 64-bit values a prime: (q, q_neg_inv), (inverse, 0), 1/q
    static constexpr int GROUP = GFPF_K <= 8 ? GFPF_K : 8;
    static constexpr bool SPLIT_CARRY = GFPF_K > 8;
};
template <>
struct GfpfMmWord<gfpf_u64> {
    typedef GfpfMmSum192 Sum;
    static constexpr int JOIN_VALUES = 4;  // q, q_neg_inv, inverse, 1/q
    static constexpr int GROUP = GFPF_K <= 2 ? GFPF_K : 2;
    static constexpr bool SPLIT_CARRY = GFPF_K > 8;
};

template <class T>
GFPF_FN void gfpf_mm_join_thread(const GfpfMultiModularParams& p, gfpf_u64 c) {
    typedef GfpfMmWord<T> Word;
    constexpr int GROUP = Word::GROUP;
    // Words of a prime's constants, and of a 64-bit value.
    constexpr gfpf_u64 VALUE_WORDS = 8 / sizeof(T), PRIME_WORDS = Word::JOIN_VALUES * VALUE_WORDS;
    const T* k = (const T*)p.constants;
    const gfpf_u64 s = p.primes;
    const T* residues = (const T*)p.residues;
    const T* elements_mod_p = k + s * PRIME_WORDS;
    GfpfElem out;
    gfpf_u64 c0 = 0, c1 = 0, wraps = 0;
#pragma unroll
    for (int g = 0; g < GFPF_K; g += GROUP) {
        // Unrolled over the digits, so that the sums stay in registers.
        typename Word::Sum acc[GROUP];
#pragma unroll
        for (int d = 0; d < GROUP; ++d) gfpf_mm_sum_clear(acc[d]);
        double fraction = 0.0;
        // A prime an iteration: NVVM unrolled the 64-bit words' loop by two,
        // at the same instructions a prime (93.5 where 94 to 101 at t8)
        // and a kernel of 2143 instructions where 1375 (NVRTC 12.9, sm_90,
        // 2026-11-30).
#pragma unroll 1
        for (gfpf_u64 j = 0; j < s; ++j) {
            const T* kj = k + j * PRIME_WORDS;
            const T q = GFPF_TABLE_READ(kj, 0), q_neg_inv = GFPF_TABLE_READ(kj, 1);
            GFPF_COUNT_OP(GFPF_OP_MM_JOIN_PRIME);
            const T y = gfpf_mm_montgomery(GFPF_GLOBAL_READ(residues, j * p.n + c), GFPF_TABLE_READ(kj, 2), q,
                                           q_neg_inv);
            if (g == 0) fraction += (double)y * gfpf_mm_double_of(gfpf_mm_u64_at(kj, Word::JOIN_VALUES - 1));
#pragma unroll
            for (int d = 0; d < GROUP; ++d) gfpf_mm_mac(acc[d], y, gfpf_mm_u64_at(elements_mod_p, j * GFPF_K + g + d));
        }
        // k < s: x/M < 2^−10, and the sum's rounding is far below 2^−20.
        if (g == 0) wraps = (gfpf_u64)(fraction + 0x1p-20);
#pragma unroll
        for (int d = 0; d < GROUP; ++d) {
            gfpf_mm_mac(acc[d], wraps, gfpf_mm_u64_at(elements_mod_p, s * GFPF_K + g + d));
            GFPF_COUNT_OP(GFPF_OP_MM_DIGIT);
            const gfpf_u64 digit = gfpf_carry_digit(gfpf_mm_sum_words(acc[d]), c0, c1);
            if (Word::SPLIT_CARRY)
                GFPF_GLOBAL_WRITE((gfpf_u64*)p.elements, (gfpf_u64)(g + d) * p.count + c, digit);
            else
                out.d[g + d] = digit;
        }
    }
    if (Word::SPLIT_CARRY) {
        // The carry for gfpf_mm_finish.
        GFPF_GLOBAL_WRITE((gfpf_u64*)p.carries, 2 * c, c0);
        GFPF_GLOBAL_WRITE((gfpf_u64*)p.carries, 2 * c + 1, c1);
        return;
    }
    const GfpfElem value = gfpf_subtract_carry(out, c0, c1);
    gfpf_u64* elements = (gfpf_u64*)p.elements;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) GFPF_GLOBAL_WRITE(elements, (gfpf_u64)d * p.count + c, value.d[d]);
}

// The end of a split join (GfpfMmWord<T>::SPLIT_CARRY): coefficient c's
// digits, carried, less the carry past the top digit that the join left in
// `carries` (r^k = −1: a subtraction of the two-digit
// a·r + b), as gfpf_subtract_carry, digit by digit through memory (all 16
// held, it spilled 56 bytes within 64 registers); canonical.
GFPF_FN void gfpf_mm_finish_thread(const GfpfMultiModularParams& p, gfpf_u64 c) {
    gfpf_u64* elements = (gfpf_u64*)p.elements;
    const gfpf_u64* carries = (const gfpf_u64*)p.carries;
    gfpf_u64 a, b;
    gfpf_split_carry(GFPF_GLOBAL_READ(carries, 2 * c), GFPF_GLOBAL_READ(carries, 2 * c + 1), a, b);
    gfpf_u64 borrow = 0;
#pragma unroll
    for (int d = 0; d < GFPF_K; ++d) {
        const gfpf_u64 at = (gfpf_u64)d * p.count + c;
        const gfpf_u64 y = d == 0 ? b : d == 1 ? a : 0;
        GFPF_GLOBAL_WRITE(elements, at, gfpf_sub_digit(GFPF_GLOBAL_READ(elements, at), y, borrow));
    }
    // A borrow out of the top digit added r^k = −1: add 1 back
    // (gfpf_increment), as far as its carry goes.
    gfpf_u64 carry = borrow;
    for (int d = 0; d < GFPF_K && carry; ++d) {
        const gfpf_u64 at = (gfpf_u64)d * p.count + c;
        const gfpf_u64 t = GFPF_GLOBAL_READ(elements, at) + 1;
        carry = t == GFPF_R_VALUE;
        GFPF_GLOBAL_WRITE(elements, at, carry ? 0 : t);
    }
    if (carry) GFPF_GLOBAL_WRITE(elements, (gfpf_u64)(GFPF_K - 1) * p.count + c, (gfpf_u64)GFPF_R_VALUE);
}

// Blocks of 128 threads (gfpf_cuda::multimodular::MULTIMODULAR_THREADS_PER_BLOCK).
// The join of k = 16 is held to 64 registers (8 blocks resident per SM, 50%
// occupancy on sm_90), its digits in groups of 8 and its last carry a
// launch of its own (gfpf_mm_finish, either width); below, it takes fewer
// unbound (t8: 56), and more under a bound of one block (t8: 80).
GFPF_PARAMS_KERNEL(GfpfMultiModularParams, gfpf_mm_project, gfpf_mm_project_thread<gfpf_u32>)
#if GFPF_K > 8
GFPF_OCCUPANCY_PARAMS_KERNEL(GfpfMultiModularParams, gfpf_mm_join, gfpf_mm_join_thread<gfpf_u32>, 8)
#else
GFPF_PARAMS_KERNEL(GfpfMultiModularParams, gfpf_mm_join, gfpf_mm_join_thread<gfpf_u32>)
#endif
// In 64-bit words (see GfpfMmWord).
GFPF_PARAMS_KERNEL(GfpfMultiModularParams, gfpf_mm62_project, gfpf_mm_project_thread<gfpf_u64>)
GFPF_OCCUPANCY_PARAMS_KERNEL(GfpfMultiModularParams, gfpf_mm62_join, gfpf_mm_join_thread<gfpf_u64>, 8)
// A split join's last carry, either width, above k = 8.
#if GFPF_K > 8
GFPF_OCCUPANCY_PARAMS_KERNEL(GfpfMultiModularParams, gfpf_mm_finish, gfpf_mm_finish_thread, 8)
#endif
