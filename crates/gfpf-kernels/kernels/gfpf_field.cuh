// GF(r^k + 1) arithmetic for the CUDA kernels: the same algorithms, bit for
// bit, as crates/gfpf-field/src/arith.rs (canonical digits < r, p - 1 stored as
// top digit r; multiplication by the 192-bit signed schoolbook product sums,
// an offset vector that is 0 mod p, and one carry chain of divisions by the
// invariant r, Möller–Granlund).
//
// The field is fixed at compile time (kernels are specialised per k and r):
// the host prepends `#define`s generated from `gfpf_field::Field::
// device_constants` (see crates/gfpf-cuda/src/source.rs):
//   GFPF_K            digits k
//   GFPF_R            r
//   GFPF_R_NORM       r << GFPF_R_SHIFT (top bit set)
//   GFPF_R_RECIP      floor((2^128 - 1) / GFPF_R_NORM) - 2^64
//   GFPF_R_SHIFT      leading zeros of r
//   GFPF_OFFSET_FIRST_{0,1,2}, GFPF_OFFSET_REST_{0,1,2}   192-bit offsets
//   GFPF_SMALL_HIGH_FORM, _CONST, _MAX   the short division of a carry chain
//                     (gfpf_kernels::SmallHighDivision): form 0, 1 or 2, its
//                     constant, the largest high word it divides
//
// With GFPF_HOST_EMULATION defined the same code compiles as plain C++ on the
// host (the test emulator of gfpf-cuda), so the arithmetic and the kernels'
// indexing are checked against gfpf-cpu on machines without a GPU.
#pragma once

typedef unsigned long long gfpf_u64;
typedef unsigned int gfpf_u32;
// 128-bit sums whose adds carry word to word (IADD3 chains on the device).
typedef unsigned __int128 gfpf_u128;

#ifdef GFPF_HOST_EMULATION
#define __device__
#define __forceinline__ inline
#define GFPF_FN static inline
#define GFPF_METHOD inline
// The emulator compiles every preset's kernels; out-of-line field operations
// keep that compile short (speed on the host does not matter).
#define GFPF_FIELD_FN static __attribute__((noinline))
static inline gfpf_u64 gfpf_mul_hi(gfpf_u64 a, gfpf_u64 b) {
    return (gfpf_u64)(((unsigned __int128)a * b) >> 64);
}
#else
#define GFPF_FN __device__ __forceinline__
#define GFPF_METHOD __device__ __forceinline__
// Out of line on the device too: a DFT_K of k-digit elements lives in local
// memory anyway, and inlining every butterfly and shift of the unrolled
// codelets made NVRTC take ~27 s per module (t8, against 4 s); whether
// inlining pays on the device is for a GPU measurement to say.
#define GFPF_FIELD_FN __device__ __noinline__
__device__ __forceinline__ gfpf_u64 gfpf_mul_hi(gfpf_u64 a, gfpf_u64 b) { return __umul64hi(a, b); }
// Shared memory (checked arrays in the host emulator, gfpf_emulation.h).
#define GFPF_SHARED_ARRAY(type, name, count) __shared__ type name[count]
// Dynamic shared memory: the launch's bytes, at most max_count words (one
// type for every kernel of a unit that declares it).
#define GFPF_DYNAMIC_SHARED_ARRAY(type, name, max_count) extern __shared__ __align__(16) type name[]
#endif
// Global memory (counted in the host emulator, gfpf_emulation.h).
#ifndef GFPF_GLOBAL_READ
#define GFPF_GLOBAL_READ_AT(base, i, site) ((base)[i])
#define GFPF_GLOBAL_WRITE_AT(base, i, v, site) ((base)[i] = (v))
#define GFPF_GLOBAL_READ(base, i) ((base)[i])
#define GFPF_GLOBAL_WRITE(base, i, v) ((base)[i] = (v))
// Read-only tables (twiddles, N^{-1}): counted apart, as caches serve them.
#define GFPF_TABLE_READ_AT(base, i, site) ((base)[i])
#define GFPF_TABLE_READ(base, i) ((base)[i])
#define GFPF_TENSOR_TABLE_READ(base, i) ((base)[i])
// Words i and i + 1 of a read-only table (i even) in one 16-byte load:
// device allocations are 256-byte aligned.
#define GFPF_TABLE_READ_PAIR(base, i, lo, hi)                                                    \
    do {                                                                                         \
        const ulonglong2 gfpf_table_pair = reinterpret_cast<const ulonglong2*>(base)[(i) / 2];   \
        (lo) = gfpf_table_pair.x;                                                                \
        (hi) = gfpf_table_pair.y;                                                                \
    } while (0)
// The tensor cores' tables read between (true) and (false) are the few that
// every block reads (B's R²), which stay in L2 however large the launch's
// other tables: the host emulator counts their sectors apart.
#define GFPF_RESIDENT_TABLE_READS(on) ((void)0)
#endif

// Field operations, counted by the host emulator for the time model.
#ifndef GFPF_COUNT_OP
#define GFPF_COUNT_OP(op)
#endif
// A precondition the host emulator checks (failing the launch with `what`);
// nothing on the device.
#ifndef GFPF_CHECK
#define GFPF_CHECK(condition, what)
#endif
// The condition of a branch that a random input takes about never (a carry
// or borrow past a digit that is exactly 0 or r − 1, an element −1). The
// instruction probes (cargo xtask kernels --probe, GFPF_PROBE) take its
// test but not its branch, so that a probe's machine code is its
// operation's common path.
#ifdef GFPF_PROBE
// The condition evaluated and branched on, the branch a trap (an empty asm
// taking the condition left ptxas free to drop the test).
__device__ __forceinline__ bool gfpf_probe_rare(bool condition) {
    if (condition) asm volatile("trap;");
    return false;
}
#define GFPF_RARE(condition) gfpf_probe_rare(condition)
#else
#define GFPF_RARE(condition) (condition)
#endif
#ifndef GFPF_SMALL_HIGH_FORM
#define GFPF_SMALL_HIGH_FORM 0
#endif

#ifndef GFPF_K
#error "GFPF_K (and the other field constants) must be defined before gfpf_field.cuh"
#endif

#define GFPF_R_VALUE ((gfpf_u64)(GFPF_R))

// One element: k digits, least significant first.
struct GfpfElem {
    gfpf_u64 d[GFPF_K];
};

// ---- addition, subtraction ------------------------------------------------

// x -= 1 for digits below r (the top one possibly r); canonical result.
GFPF_FN void gfpf_decrement(GfpfElem& x) {
    for (int i = 0; i < GFPF_K; ++i) {
        if (x.d[i] != 0) {
            x.d[i] -= 1;
            return;
        }
        x.d[i] = GFPF_R_VALUE - 1;
    }
    for (int i = 0; i < GFPF_K; ++i) x.d[i] = 0;
    x.d[GFPF_K - 1] = GFPF_R_VALUE;
}

// x += 1 for digits below r; r^k - 1 + 1 gives the canonical p - 1.
// Unrolled without an early exit, so that x stays in registers where the
// caller is inlined.
GFPF_FN void gfpf_increment(GfpfElem& x) {
    gfpf_u64 carry = 1;
#pragma unroll
    for (int i = 0; i < GFPF_K; ++i) {
        // Digits are below r: x_i + carry reaches r only as r − 1 + 1.
        const gfpf_u64 t = x.d[i] + carry;
        carry = t == GFPF_R_VALUE;
        x.d[i] = carry ? 0 : t;
    }
    if (carry) x.d[GFPF_K - 1] = GFPF_R_VALUE;
}

// Digit a − b − borrow of a subtraction chain (digits below r, the top one
// possibly r): the value lies in [−r, r], so adding r back is exact;
// `borrow` becomes the borrow out. In 64-bit words with compares: any r
// (gfpf_sub_digit below is the form a field's kernels take).
GFPF_FN gfpf_u64 gfpf_sub_digit_wide(gfpf_u64 a, gfpf_u64 b, gfpf_u64& borrow) {
    const gfpf_u64 d1 = a - b, diff = d1 - borrow;
    const gfpf_u64 under = (a < b) | (d1 < borrow);
    borrow = under;
    return under ? diff + GFPF_R_VALUE : diff;
}

// Digit a + b + carry of an addition chain (digits below r, the top one
// possibly r): the true sum is below 2r + 1 < 2^65, so at most one add
// overflows and s − r (wrapping) is then exact; `carry` becomes the carry
// out. In 64-bit words with compares, as gfpf_sub_digit_wide.
GFPF_FN gfpf_u64 gfpf_add_digit_wide(gfpf_u64 a, gfpf_u64 b, gfpf_u64& carry) {
    const gfpf_u64 s1 = a + b, s = s1 + carry;
    const gfpf_u64 over = (s1 < a) | (s < s1) | (s >= GFPF_R_VALUE);
    carry = over;
    return over ? s - GFPF_R_VALUE : s;
}

#if ((GFPF_R) & 0xffffffffull) == 0
// r = r_high·2^32 (every t-preset, p8, p16): a digit's sum or difference is
// a 64-bit add of 32-bit halves, and whether r goes or comes back, and
// what that changes, is the high half's alone. The add is the machine's
// carry chain, in PTX (add.cc, addc: NVRTC made 64-bit compares of the C
// form); a butterfly of t8 elements in shared memory takes 179 instructions
// besides its loads and stores where the C form took 337, the butterfly
// with its shift 253 against 410 (probe kernels, NVRTC 12.9, sm_90,
// nvdisasm 13.5, 2026-11-28).
#define GFPF_R_HIGH ((gfpf_u32)((GFPF_R) >> 32))

// (s1·2^32 + s0, top) = a + b + carry_in over 32-bit halves (carry_in 0 or
// 1; top the carry out of the high half). The host emulator runs the same
// four PTX instructions by the PTX ISA's semantics (CC.CF the carry flag).
GFPF_FN void gfpf_add_halves(gfpf_u32 carry_in, gfpf_u32 a0, gfpf_u32 a1, gfpf_u32 b0, gfpf_u32 b1, gfpf_u32& s0,
                             gfpf_u32& s1, gfpf_u32& top) {
#ifdef GFPF_HOST_EMULATION
    gfpf_u64 t = (gfpf_u64)carry_in + 0xffffffffu;  // add.cc.u32 c, carry_in, -1
    t = (gfpf_u64)a0 + b0 + (t >> 32);               // addc.cc.u32 s0, a0, b0
    s0 = (gfpf_u32)t;
    t = (gfpf_u64)a1 + b1 + (t >> 32);  // addc.cc.u32 s1, a1, b1
    s1 = (gfpf_u32)t;
    top = (gfpf_u32)(t >> 32);  // addc.u32 top, 0, 0
#else
    asm("{\n\t.reg .u32 c;\n\t"
        "add.cc.u32 c, %3, -1;\n\t"
        "addc.cc.u32 %0, %4, %6;\n\t"
        "addc.cc.u32 %1, %5, %7;\n\t"
        "addc.u32 %2, 0, 0;\n\t}"
        : "=r"(s0), "=r"(s1), "=r"(top)
        : "r"(carry_in), "r"(a0), "r"(a1), "r"(b0), "r"(b1));
#endif
}

// Digit a − b − borrow of a subtraction chain (digits below r, the top one
// possibly r): the value lies in [−r, r], so adding r back is exact;
// `borrow` becomes the borrow out. As a + ~b + (1 − borrow), whose carry
// out is the borrow's complement: the form in which ptxas chains it.
GFPF_FN gfpf_u64 gfpf_sub_digit(gfpf_u64 a, gfpf_u64 b, gfpf_u64& borrow) {
    gfpf_u32 low, high, no_borrow;
    gfpf_add_halves((gfpf_u32)(1 - borrow), (gfpf_u32)a, (gfpf_u32)(a >> 32), ~(gfpf_u32)b, ~(gfpf_u32)(b >> 32), low,
                    high, no_borrow);
    borrow = no_borrow == 0;
    if (!no_borrow) high += GFPF_R_HIGH;
    return ((gfpf_u64)high << 32) | low;
}

// Digit a + b + carry of an addition chain (digits below r, the top one
// possibly r): the sum is below 2r + 1, so taking r off once leaves a
// digit; `carry` becomes the carry out. The sum (below 2^65) reaches r
// exactly where its high part reaches r_high.
GFPF_FN gfpf_u64 gfpf_add_digit(gfpf_u64 a, gfpf_u64 b, gfpf_u64& carry) {
    gfpf_u32 low, high, top;
    gfpf_add_halves((gfpf_u32)carry, (gfpf_u32)a, (gfpf_u32)(a >> 32), (gfpf_u32)b, (gfpf_u32)(b >> 32), low, high,
                    top);
    const bool over = top | (high >= GFPF_R_HIGH);
    carry = over;
    if (over) high -= GFPF_R_HIGH;
    return ((gfpf_u64)high << 32) | low;
}
#else
GFPF_FN gfpf_u64 gfpf_sub_digit(gfpf_u64 a, gfpf_u64 b, gfpf_u64& borrow) { return gfpf_sub_digit_wide(a, b, borrow); }
GFPF_FN gfpf_u64 gfpf_add_digit(gfpf_u64 a, gfpf_u64 b, gfpf_u64& carry) { return gfpf_add_digit_wide(a, b, carry); }
#endif

// x - y (digits below r, top digit possibly r); canonical result. Inline,
// so that a caller keeping x in registers (gfpf_subtract_carry) does not
// put it on the stack; gfpf_sub is the out-of-line form.
GFPF_FN GfpfElem gfpf_sub_inline(const GfpfElem& x, const GfpfElem& y) {
    GfpfElem out;
    gfpf_u64 borrow = 0;
#pragma unroll
    for (int i = 0; i < GFPF_K; ++i) out.d[i] = gfpf_sub_digit(x.d[i], y.d[i], borrow);
    // A borrow out of digit k-1 added r^k = -1: add 1 back.
    if (borrow) gfpf_increment(out);
    return out;
}

// x - y, out of line as the other field operations.
GFPF_FIELD_FN GfpfElem gfpf_sub(const GfpfElem& x, const GfpfElem& y) {
    return gfpf_sub_inline(x, y);
}

// (a, b) <- (a + b, a - b): an FFT butterfly, both carry chains in one pass.
GFPF_FIELD_FN void gfpf_add_sub(GfpfElem& a, GfpfElem& b) {
    GFPF_COUNT_OP(GFPF_OP_ADD_SUB);
    gfpf_u64 carry = 0, borrow = 0;
    for (int i = 0; i < GFPF_K; ++i) {
        const gfpf_u64 x = a.d[i], y = b.d[i];
        a.d[i] = gfpf_add_digit(x, y, carry);
        b.d[i] = gfpf_sub_digit(x, y, borrow);
    }
    // A carry out of digit k-1 is r^k = -1; a borrow is +1.
    if (carry) gfpf_decrement(a);
    if (borrow) gfpf_increment(b);
}

GFPF_FN GfpfElem gfpf_zero() {
    GfpfElem z;
    for (int i = 0; i < GFPF_K; ++i) z.d[i] = 0;
    return z;
}

GFPF_FN GfpfElem gfpf_neg(const GfpfElem& x) { return gfpf_sub(gfpf_zero(), x); }

// ---- multiplication by powers of r -----------------------------------------

// x * r^i for 0 <= i < 2k: a negacyclic digit shift and one subtraction.
GFPF_FIELD_FN GfpfElem gfpf_mul_pow_r(const GfpfElem& x, int i) {
    GFPF_COUNT_OP(GFPF_OP_MUL_POW_R);
    int s = i >= GFPF_K ? i - GFPF_K : i;
    bool negate = i >= GFPF_K;
    if (x.d[GFPF_K - 1] == GFPF_R_VALUE) {
        // x = -1: the result is -r^i, i.e. r^s for i >= k, else -(r^s).
        GfpfElem unit = gfpf_zero();
        unit.d[s] = 1;
        return negate ? unit : gfpf_neg(unit);
    }
    // x * r^s = A - B: A the digits shifted up, B those that wrapped past r^k.
    GfpfElem a, b;
    for (int j = 0; j < GFPF_K; ++j) {
        a.d[j] = j >= s ? x.d[j - s] : 0;
        b.d[j] = j < s ? x.d[GFPF_K - s + j] : 0;
    }
    return negate ? gfpf_sub(b, a) : gfpf_sub(a, b);
}

// ---- full multiplication ---------------------------------------------------

// A 192-bit two's-complement accumulator (wrapping).
struct GfpfAcc {
    gfpf_u64 w0, w1, w2;
};

GFPF_FN void gfpf_acc_add_product(GfpfAcc& acc, gfpf_u64 a, gfpf_u64 b) {
    gfpf_u64 lo = a * b, hi = gfpf_mul_hi(a, b);
    acc.w0 += lo;
    gfpf_u64 c0 = acc.w0 < lo;
    // hi <= 2^64 - 2: hi + c0 does not overflow.
    gfpf_u64 t = hi + c0;
    acc.w1 += t;
    acc.w2 += acc.w1 < t;
}

GFPF_FN void gfpf_acc_sub_product(GfpfAcc& acc, gfpf_u64 a, gfpf_u64 b) {
    gfpf_u64 lo = a * b, hi = gfpf_mul_hi(a, b);
    gfpf_u64 b0 = acc.w0 < lo;
    acc.w0 -= lo;
    gfpf_u64 t = hi + b0;
    gfpf_u64 b1 = acc.w1 < t;
    acc.w1 -= t;
    acc.w2 -= b1;
}

GFPF_FN void gfpf_acc_add(GfpfAcc& acc, gfpf_u64 x0, gfpf_u64 x1, gfpf_u64 x2) {
    acc.w0 += x0;
    gfpf_u64 c0 = acc.w0 < x0;
    gfpf_u64 t = acc.w1 + x1;
    gfpf_u64 c1 = t < x1;
    acc.w1 = t + c0;
    c1 |= acc.w1 < c0;
    acc.w2 += x2 + c1;
}

// The offset vector's digit i (0 mod p overall): what keeps column i's sum
// nonnegative.
GFPF_FN void gfpf_acc_add_offset(GfpfAcc& acc, int i) {
    if (i == 0) {
        gfpf_acc_add(acc, GFPF_OFFSET_FIRST_0, GFPF_OFFSET_FIRST_1, GFPF_OFFSET_FIRST_2);
    } else {
        gfpf_acc_add(acc, GFPF_OFFSET_REST_0, GFPF_OFFSET_REST_1, GFPF_OFFSET_REST_2);
    }
}

// Möller–Granlund Alg. 4: (n / d, n % d) for n = u1·2^64 + u0, u1 < d, d the
// normalised r.
GFPF_FN void gfpf_div_rem_scaled(gfpf_u64 u1, gfpf_u64 u0, gfpf_u64& q_out, gfpf_u64& rem_out) {
    const gfpf_u64 d = (gfpf_u64)(GFPF_R_NORM);
    const gfpf_u64 v = (gfpf_u64)(GFPF_R_RECIP);
    // q = v·u1 + ((u1 + 1)·2^64 + u0), modulo 2^128.
    gfpf_u64 q0 = v * u1;
    gfpf_u64 q1 = gfpf_mul_hi(v, u1);
    q0 += u0;
    q1 += (q0 < u0) + u1 + 1;
    gfpf_u64 rem = u0 - q1 * d;
    if (rem > q0) {
        q1 -= 1;
        rem += d;
    }
    if (rem >= d) {
        q1 += 1;
        rem -= d;
    }
    q_out = q1;
    rem_out = rem;
}

#if GFPF_SMALL_HIGH_FORM != 0
// (n / d, n % d) for n = u1·2^64 + u0 by the short division's form (the
// t-presets: r close to 2^63 or 2^64): a product of u1 by a short constant
// and two corrections, exact while u1·GFPF_SMALL_HIGH_CONST < d, which the
// caller proves (gfpf_div_rem_small_high for the carry chains' high words).
GFPF_FN void gfpf_div_rem_short(gfpf_u64 u1, gfpf_u64 u0, gfpf_u64& q_out, gfpf_u64& rem_out) {
    const gfpf_u64 d = (gfpf_u64)(GFPF_R_NORM);
    const gfpf_u64 t = u1 * (gfpf_u64)(GFPF_SMALL_HIGH_CONST);
#if GFPF_SMALL_HIGH_FORM == 1
    // δ = 2d − 2^64: n = 2·u1·d + (u0 − t), and u0 − t in (−d, 2^64).
    const bool borrow = u0 < t;
    const gfpf_u64 rem = u0 - t + (borrow ? d : 0);
    const gfpf_u64 q = 2 * u1 - (gfpf_u64)borrow;
#else
    // e = 2^64 − d: n = u1·d + (u0 + t), and u0 + t in [0, 2^64 + d): past
    // 2^64 it is d more than its low word plus e, which is below t + e ≤ 2^64.
    gfpf_u64 rem = u0 + t;
    const bool carry = rem < t;
    rem += carry ? (gfpf_u64)(GFPF_SMALL_HIGH_CONST) : 0;
    const gfpf_u64 q = u1 + (gfpf_u64)carry;
#endif
    // Now below 2^64 < 2d: at most one d left.
    const bool over = rem >= d;
    q_out = q + (gfpf_u64)over;
    rem_out = over ? rem - d : rem;
}
#endif

// (n / d, n % d) for n = u1·2^64 + u0 whose high word u1 is small: the first
// division of a column's carry digit, a quotient's, the carry past the top
// digit (u1 ≤ GFPF_SMALL_HIGH_MAX, which gfpf_kernels::SmallHighDivision
// proves from the field's constants). Where r is close to 2^63 or 2^64 (the
// t-presets) the short division (gfpf_div_rem_short); Möller–Granlund's
// division elsewhere. Same quotient and remainder, so the same bits.
GFPF_FN void gfpf_div_rem_small_high(gfpf_u64 u1, gfpf_u64 u0, gfpf_u64& q_out, gfpf_u64& rem_out) {
#if GFPF_SMALL_HIGH_FORM == 0
    gfpf_div_rem_scaled(u1, u0, q_out, rem_out);
#else
    GFPF_CHECK(u1 <= GFPF_SMALL_HIGH_MAX, "a carry chain's high word is past the short division's bound");
    gfpf_div_rem_short(u1, u0, q_out, rem_out);
#endif
}

// The high word of (hi·2^64 + lo) << s, s < 64.
GFPF_FN gfpf_u64 gfpf_shl_words(gfpf_u64 hi, gfpf_u64 lo, unsigned s) {
    return (hi << s) | ((lo >> 1) >> (63 - s));
}

// acc mod r, returned, and acc div r into c1·2^64 + c0 (acc below 2^192 −
// 2^128 with the carry in it): shift once, two 2-by-1 divisions, the first
// of a small high word.
GFPF_FN gfpf_u64 gfpf_acc_digit(const GfpfAcc& acc, gfpf_u64& c0, gfpf_u64& c1) {
    const unsigned s = GFPF_R_SHIFT;
    gfpf_u64 q_hi, q_lo, rem;
    gfpf_div_rem_small_high(gfpf_shl_words(acc.w2, acc.w1, s), gfpf_shl_words(acc.w1, acc.w0, s), q_hi, rem);
    gfpf_div_rem_scaled(rem, acc.w0 << s, q_lo, rem);
    c0 = q_lo;
    c1 = q_hi;
    return rem >> s;
}

// Digit t of a carry chain in base r: (acc + carry) mod r, the carry
// (c1·2^64 + c0, below 2^128) becoming (acc + carry) div r. acc is
// nonnegative after its offset and below 2^192 − 2^128.
GFPF_FN gfpf_u64 gfpf_carry_digit(GfpfAcc acc, gfpf_u64& c0, gfpf_u64& c1) {
    gfpf_acc_add(acc, c0, c1, 0);
    return gfpf_acc_digit(acc, c0, c1);
}

// ---- a product's column in 32-bit carry chains ------------------------------
//
// A column's terms x·w (x, w < 2^64) summed in 32-bit words: `even` (five
// words) takes x0·w0 + x1·w1·2^64, `odd` (three words, weight 2^32) x0·w1 +
// x1·w0, each term in one PTX chain of mad.lo.cc / madc.hi.cc, which ptxas
// makes IMAD.WIDE.U32 with carries, the carries out of the chains kept for
// the column's end (gfpf_column_digit). gfpf_tile_mul's product took 1231
// instructions at t8 so where its 128-bit sums of 64-bit products took
// 1798 (probe kernels beside their loads and stores, the x = −1 branch
// left out; NVRTC 12.9, sm_90, nvdisasm 13.5, 2026-11-28). The host
// emulator runs the same instructions by the PTX ISA's semantics (CC.CF
// the carry, or the borrow of sub.cc and subc).
struct GfpfColumnSum {
    gfpf_u32 even[5];
    gfpf_u32 odd[3];
};

// The offset's high word (gfpf_column_offset_less) fits the fifth even
// word with room for the carries of 2^31 terms.
static_assert((gfpf_u64)(GFPF_OFFSET_FIRST_2) < (1ull << 31) && (gfpf_u64)(GFPF_OFFSET_REST_2) < (1ull << 31),
              "the offsets' high words fit 31 bits");

#ifdef GFPF_HOST_EMULATION
// d = a + b + CC.CF (the flag in and out when `in` and `out`).
static inline gfpf_u32 gfpf_emu_add(gfpf_u32 a, gfpf_u32 b, gfpf_u32& cf, bool in, bool out) {
    const gfpf_u64 t = (gfpf_u64)a + b + (in ? cf : 0);
    if (out) cf = (gfpf_u32)(t >> 32);
    return (gfpf_u32)t;
}
// d = a − (b + CC.CF) (the borrow in and out when `in` and `out`).
static inline gfpf_u32 gfpf_emu_sub(gfpf_u32 a, gfpf_u32 b, gfpf_u32& cf, bool in, bool out) {
    const gfpf_u64 t = (gfpf_u64)a - b - (in ? cf : 0);
    if (out) cf = (gfpf_u32)(t >> 63);
    return (gfpf_u32)t;
}
#endif

// s += x·w.
GFPF_FN void gfpf_column_mac(GfpfColumnSum& s, gfpf_u64 x, gfpf_u64 w) {
    const gfpf_u32 x0 = (gfpf_u32)x, x1 = (gfpf_u32)(x >> 32), w0 = (gfpf_u32)w, w1 = (gfpf_u32)(w >> 32);
#ifdef GFPF_HOST_EMULATION
    const gfpf_u64 p00 = (gfpf_u64)x0 * w0, p11 = (gfpf_u64)x1 * w1, p01 = (gfpf_u64)x0 * w1,
                   p10 = (gfpf_u64)x1 * w0;
    gfpf_u32 cf = 0;
    s.even[0] = gfpf_emu_add(s.even[0], (gfpf_u32)p00, cf, false, true);          // mad.lo.cc
    s.even[1] = gfpf_emu_add(s.even[1], (gfpf_u32)(p00 >> 32), cf, true, true);   // madc.hi.cc
    s.even[2] = gfpf_emu_add(s.even[2], (gfpf_u32)p11, cf, true, true);           // madc.lo.cc
    s.even[3] = gfpf_emu_add(s.even[3], (gfpf_u32)(p11 >> 32), cf, true, true);   // madc.hi.cc
    s.even[4] = gfpf_emu_add(s.even[4], 0, cf, true, false);                      // addc
    s.odd[0] = gfpf_emu_add(s.odd[0], (gfpf_u32)p01, cf, false, true);            // mad.lo.cc
    s.odd[1] = gfpf_emu_add(s.odd[1], (gfpf_u32)(p01 >> 32), cf, true, true);     // madc.hi.cc
    s.odd[2] = gfpf_emu_add(s.odd[2], 0, cf, true, false);                        // addc
    s.odd[0] = gfpf_emu_add(s.odd[0], (gfpf_u32)p10, cf, false, true);            // mad.lo.cc
    s.odd[1] = gfpf_emu_add(s.odd[1], (gfpf_u32)(p10 >> 32), cf, true, true);     // madc.hi.cc
    s.odd[2] = gfpf_emu_add(s.odd[2], 0, cf, true, false);                        // addc
#else
    asm("mad.lo.cc.u32 %0, %5, %6, %0;\n\t"
        "madc.hi.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.lo.cc.u32 %2, %7, %8, %2;\n\t"
        "madc.hi.cc.u32 %3, %7, %8, %3;\n\t"
        "addc.u32 %4, %4, 0;"
        : "+r"(s.even[0]), "+r"(s.even[1]), "+r"(s.even[2]), "+r"(s.even[3]), "+r"(s.even[4])
        : "r"(x0), "r"(w0), "r"(x1), "r"(w1));
    asm("mad.lo.cc.u32 %0, %3, %4, %0;\n\t"
        "madc.hi.cc.u32 %1, %3, %4, %1;\n\t"
        "addc.u32 %2, %2, 0;\n\t"
        "mad.lo.cc.u32 %0, %5, %6, %0;\n\t"
        "madc.hi.cc.u32 %1, %5, %6, %1;\n\t"
        "addc.u32 %2, %2, 0;"
        : "+r"(s.odd[0]), "+r"(s.odd[1]), "+r"(s.odd[2])
        : "r"(x0), "r"(w1), "r"(x1), "r"(w0));
#endif
}

// The offset (gfpf_acc_add_offset's, digit t) less a column's negative
// terms, from which its positive ones go on (odd words 0): the offset,
// k(r + 2)(r ± 1), exceeds the k − 1 negative terms' sum (below
// (k − 1)·r²), and is below 2^159, so five words hold it and the positive
// terms to come; `any`: whether there are negative terms (none in the last
// column). The negative terms first and then this: one sum live at a
// time, where two apart (joined at the column's end) spilled 4 to 8 bytes
// in t8's DFT_16 pair kernels at 64 registers (NVRTC 12.9, 2026-11-28).
GFPF_FN GfpfColumnSum gfpf_column_offset_less(int t, const GfpfColumnSum& minus, bool any) {
    const gfpf_u64 o0 = t == 0 ? (gfpf_u64)(GFPF_OFFSET_FIRST_0) : (gfpf_u64)(GFPF_OFFSET_REST_0);
    const gfpf_u64 o1 = t == 0 ? (gfpf_u64)(GFPF_OFFSET_FIRST_1) : (gfpf_u64)(GFPF_OFFSET_REST_1);
    const gfpf_u32 o2 = (gfpf_u32)(t == 0 ? (gfpf_u64)(GFPF_OFFSET_FIRST_2) : (gfpf_u64)(GFPF_OFFSET_REST_2));
    GfpfColumnSum s = {{(gfpf_u32)o0, (gfpf_u32)(o0 >> 32), (gfpf_u32)o1, (gfpf_u32)(o1 >> 32), o2}, {0, 0, 0}};
    if (!any) return s;
    gfpf_u32* e = s.even;
#ifdef GFPF_HOST_EMULATION
    gfpf_u32 cf = 0;
    e[0] = gfpf_emu_sub(e[0], minus.even[0], cf, false, true);  // sub.cc
    e[1] = gfpf_emu_sub(e[1], minus.even[1], cf, true, true);   // subc.cc
    e[2] = gfpf_emu_sub(e[2], minus.even[2], cf, true, true);
    e[3] = gfpf_emu_sub(e[3], minus.even[3], cf, true, true);
    e[4] = gfpf_emu_sub(e[4], minus.even[4], cf, true, false);  // subc
    e[1] = gfpf_emu_sub(e[1], minus.odd[0], cf, false, true);   // sub.cc
    e[2] = gfpf_emu_sub(e[2], minus.odd[1], cf, true, true);
    e[3] = gfpf_emu_sub(e[3], minus.odd[2], cf, true, true);
    e[4] = gfpf_emu_sub(e[4], 0, cf, true, false);
#else
    asm("sub.cc.u32 %0, %0, %5;\n\t"
        "subc.cc.u32 %1, %1, %6;\n\t"
        "subc.cc.u32 %2, %2, %7;\n\t"
        "subc.cc.u32 %3, %3, %8;\n\t"
        "subc.u32 %4, %4, %9;\n\t"
        "sub.cc.u32 %1, %1, %10;\n\t"
        "subc.cc.u32 %2, %2, %11;\n\t"
        "subc.cc.u32 %3, %3, %12;\n\t"
        "subc.u32 %4, %4, 0;"
        : "+r"(e[0]), "+r"(e[1]), "+r"(e[2]), "+r"(e[3]), "+r"(e[4])
        : "r"(minus.even[0]), "r"(minus.even[1]), "r"(minus.even[2]), "r"(minus.even[3]), "r"(minus.even[4]),
          "r"(minus.odd[0]), "r"(minus.odd[1]), "r"(minus.odd[2]));
#endif
    return s;
}

// Digit t of a carry chain from a column's sum (gfpf_column_offset_less's,
// then its positive terms): (sum + carry) mod r, the carry (c1·2^64 + c0,
// below 2^128) becoming its quotient by r, as gfpf_carry_digit.
GFPF_FN gfpf_u64 gfpf_column_digit(GfpfColumnSum sum, gfpf_u64& c0, gfpf_u64& c1) {
    gfpf_u32 top;
    const gfpf_u32 k0 = (gfpf_u32)c0, k1 = (gfpf_u32)(c0 >> 32), k2 = (gfpf_u32)c1, k3 = (gfpf_u32)(c1 >> 32);
    gfpf_u32* e = sum.even;
#ifdef GFPF_HOST_EMULATION
    gfpf_u32 cf = 0;
    e[0] = gfpf_emu_add(e[0], k0, cf, false, true);  // add.cc
    e[1] = gfpf_emu_add(e[1], k1, cf, true, true);   // addc.cc
    e[2] = gfpf_emu_add(e[2], k2, cf, true, true);
    e[3] = gfpf_emu_add(e[3], k3, cf, true, true);
    e[4] = gfpf_emu_add(e[4], 0, cf, true, true);
    top = gfpf_emu_add(0, 0, cf, true, false);      // addc
    e[1] = gfpf_emu_add(e[1], sum.odd[0], cf, false, true);
    e[2] = gfpf_emu_add(e[2], sum.odd[1], cf, true, true);
    e[3] = gfpf_emu_add(e[3], sum.odd[2], cf, true, true);
    e[4] = gfpf_emu_add(e[4], 0, cf, true, true);
    top = gfpf_emu_add(top, 0, cf, true, false);
#else
    asm("add.cc.u32 %0, %0, %6;\n\t"
        "addc.cc.u32 %1, %1, %7;\n\t"
        "addc.cc.u32 %2, %2, %8;\n\t"
        "addc.cc.u32 %3, %3, %9;\n\t"
        "addc.cc.u32 %4, %4, 0;\n\t"
        "addc.u32 %5, 0, 0;\n\t"
        "add.cc.u32 %1, %1, %10;\n\t"
        "addc.cc.u32 %2, %2, %11;\n\t"
        "addc.cc.u32 %3, %3, %12;\n\t"
        "addc.cc.u32 %4, %4, 0;\n\t"
        "addc.u32 %5, %5, 0;"
        : "+r"(e[0]), "+r"(e[1]), "+r"(e[2]), "+r"(e[3]), "+r"(e[4]), "=r"(top)
        : "r"(k0), "r"(k1), "r"(k2), "r"(k3), "r"(sum.odd[0]), "r"(sum.odd[1]), "r"(sum.odd[2]));
#endif
    const GfpfAcc acc = {((gfpf_u64)e[1] << 32) | e[0], ((gfpf_u64)e[3] << 32) | e[2], ((gfpf_u64)top << 32) | e[4]};
    return gfpf_acc_digit(acc, c0, c1);
}

// The carry c1·2^64 + c0 past digit k − 1 as a·r + b (b < r; a < r since the
// carry is below r^2).
GFPF_FN void gfpf_split_carry(gfpf_u64 c0, gfpf_u64 c1, gfpf_u64& a, gfpf_u64& b) {
    const unsigned s = GFPF_R_SHIFT;
    gfpf_div_rem_small_high(gfpf_shl_words(c1, c0, s), c0 << s, a, b);
    b >>= s;
}

// The chain's end: digits `out` and the carry past digit k − 1, carry·r^k =
// −carry, subtracted as the two-digit number a·r + b; canonical.
// Inline (gfpf_sub_inline, the subtrahend's zero digits folded): a call to
// the out-of-line gfpf_sub kept three elements on the stack.
GFPF_FN GfpfElem gfpf_subtract_carry(const GfpfElem& out, gfpf_u64 c0, gfpf_u64 c1) {
    GfpfElem sub = gfpf_zero();
    gfpf_split_carry(c0, c1, sub.d[1], sub.d[0]);
    return gfpf_sub_inline(out, sub);
}

// Multiplies canonical x and y.
GFPF_FIELD_FN GfpfElem gfpf_mul(const GfpfElem& x, const GfpfElem& y) {
    GFPF_COUNT_OP(GFPF_OP_MUL);
    if (x.d[GFPF_K - 1] == GFPF_R_VALUE) return gfpf_neg(y);
    if (y.d[GFPF_K - 1] == GFPF_R_VALUE) return gfpf_neg(x);
    GfpfElem out;
    // Carry of the chain: c1·2^64 + c0 (below 2^128).
    gfpf_u64 c0 = 0, c1 = 0;
    for (int i = 0; i < GFPF_K; ++i) {
        // u_i = Σ_{j≤i} x_j·y_{i−j} − Σ_{j>i} x_j·y_{i+k−j}, plus the offset.
        GfpfAcc acc = {0, 0, 0};
        for (int j = 0; j <= i; ++j) gfpf_acc_add_product(acc, x.d[j], y.d[i - j]);
        for (int j = i + 1; j < GFPF_K; ++j) gfpf_acc_sub_product(acc, x.d[j], y.d[i + GFPF_K - j]);
        gfpf_acc_add_offset(acc, i);
        out.d[i] = gfpf_carry_digit(acc, c0, c1);
    }
    return gfpf_subtract_carry(out, c0, c1);
}
