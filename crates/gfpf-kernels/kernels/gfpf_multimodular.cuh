// Products over GF(p) through word-size primes on the device, coefficient
// by coefficient (gfpf_cuda::multimodular): project each coefficient
// x = Σ d_i·r^i onto s primes q_j < 2^31, multiply the residues' transforms
// (gfpf_ntt.cu) pointwise, and join each product coefficient's s residues
// (Garner's mixed radix) into its value mod p. The s primes' product exceeds
// every coefficient of the integer product (below min(la, lb)·(p − 1)^2), so
// the join is exact before the reduction mod p.
//
// One thread a (coefficient, prime) in the projection and the pointwise
// product, one a coefficient in the join. Residues are prime-major: prime j's
// N words at j·N.
#pragma once

// The kernels' parameters (gfpf_cuda::multimodular::MultiModularParams
// mirrors them).
struct GfpfMultiModularParams {
    gfpf_u64 elements;     // digit-major elements (pitch `count`): read by the projection, written by the join
    gfpf_u64 residues;     // u32 words, prime-major, N a prime
    gfpf_u64 other;        // the pointwise product's second operand (residues, same layout)
    gfpf_u64 constants;    // u32 words: see gfpf_mm_project / gfpf_mm_join
    gfpf_u64 count;        // coefficients read or written
    gfpf_u64 n;            // N: words a prime (the projection zeroes those past `count`)
    gfpf_u64 primes;       // s
    gfpf_u64 threads;      // threads of the launch
};

// x·W·2^−32 mod q (x < 2^32, W < q < 2^31; q_neg_inv = −q^−1 mod 2^32).
GFPF_FN gfpf_u32 gfpf_mm_montgomery(gfpf_u32 x, gfpf_u32 w, gfpf_u32 q, gfpf_u32 q_neg_inv) {
    const gfpf_u64 t = (gfpf_u64)x * w;
    const gfpf_u32 m = (gfpf_u32)t * q_neg_inv;
    const gfpf_u32 u = (gfpf_u32)((t + (gfpf_u64)m * q) >> 32);
    return u >= q ? u - q : u;
}

// Words of a prime's projection constants: q, −q^−1 mod 2^32, 2^64 mod q,
// then for each digit i the pair (r^i·2^64, r^i·2^32) mod q.
#define GFPF_MM_PROJECT_WORDS (4 + 2 * GFPF_K)

// Thread t = j·N + c: residue c of prime j, Σ_i d_i·r^i mod q (0 past the
// coefficients). A digit d = h·2^32 + l gives h·(r^i·2^64)·2^−32 +
// l·(r^i·2^32)·2^−32: two Montgomery products, no other reduction.
GFPF_FN void gfpf_mm_project_thread(const GfpfMultiModularParams& p, gfpf_u64 t) {
    const gfpf_u64 j = t / p.n, c = t % p.n;
    const gfpf_u32* k = (const gfpf_u32*)p.constants + j * GFPF_MM_PROJECT_WORDS;
    const gfpf_u32 q = GFPF_TABLE_READ(k, 0), q_neg_inv = GFPF_TABLE_READ(k, 1);
    gfpf_u32 sum = 0;
    if (c < p.count) {
        const gfpf_u64* elements = (const gfpf_u64*)p.elements;
        for (int i = 0; i < GFPF_K; ++i) {
            const gfpf_u64 d = GFPF_GLOBAL_READ(elements, (gfpf_u64)i * p.count + c);
            const gfpf_u32 high = gfpf_mm_montgomery((gfpf_u32)(d >> 32), GFPF_TABLE_READ(k, 4 + 2 * i), q, q_neg_inv);
            const gfpf_u32 low = gfpf_mm_montgomery((gfpf_u32)d, GFPF_TABLE_READ(k, 5 + 2 * i), q, q_neg_inv);
            sum = sum + high >= q ? sum + high - q : sum + high;
            sum = sum + low >= q ? sum + low - q : sum + low;
        }
    }
    GFPF_GLOBAL_WRITE((gfpf_u32*)p.residues, t, sum);
}

// Thread t: residues[t] <- residues[t]·other[t] mod q of prime t / N: two
// Montgomery products, the second by 2^64 mod q (constants word 2).
GFPF_FN void gfpf_mm_pointwise_thread(const GfpfMultiModularParams& p, gfpf_u64 t) {
    const gfpf_u32* k = (const gfpf_u32*)p.constants + (t / p.n) * GFPF_MM_PROJECT_WORDS;
    const gfpf_u32 q = GFPF_TABLE_READ(k, 0), q_neg_inv = GFPF_TABLE_READ(k, 1);
    gfpf_u32* residues = (gfpf_u32*)p.residues;
    const gfpf_u32 x = GFPF_GLOBAL_READ(residues, t), y = GFPF_GLOBAL_READ((const gfpf_u32*)p.other, t);
    GFPF_GLOBAL_WRITE(residues, t, gfpf_mm_montgomery(gfpf_mm_montgomery(x, y, q, q_neg_inv), GFPF_TABLE_READ(k, 2), q,
                                                      q_neg_inv));
}

// The join's constants (u32 words, s primes): for j < s, q_j, −q_j^−1 mod
// 2^32; then the s·s Garner factors g[i][j] = q_i^−1·2^32 mod q_j (i < j,
// Montgomery form of the inverse, row i at 2s + i·s); then for j < s the
// element Q_j mod p, Q_j = q_0·…·q_{j−1}, as K digits of two u32 words each
// (low first) at 2s + s·s + j·2K.
//
// Thread c: Garner's digits u_j of the product coefficient from its s
// residues (u_0 = v_0, u_j = (…((v_j − u_0)·q_0^−1 − u_1)·q_1^−1 …) mod q_j),
// then Σ_j u_j·(Q_j mod p) as K digit sums (each below s·2^95), carried in
// base r, the carry past digit K − 1 (r^K = −1) subtracted: canonical, as
// gfpf_mul's own carry chain.
#define GFPF_MM_MAX_PRIMES 96
GFPF_FN void gfpf_mm_join_thread(const GfpfMultiModularParams& p, gfpf_u64 c) {
    const gfpf_u32* k = (const gfpf_u32*)p.constants;
    const int s = (int)p.primes;
    const gfpf_u32* residues = (const gfpf_u32*)p.residues;
    gfpf_u32 u[GFPF_MM_MAX_PRIMES];
    for (int j = 0; j < s; ++j) {
        const gfpf_u32 q = GFPF_TABLE_READ(k, 2 * j), q_neg_inv = GFPF_TABLE_READ(k, 2 * j + 1);
        gfpf_u32 v = GFPF_GLOBAL_READ(residues, (gfpf_u64)j * p.n + c);
        for (int i = 0; i < j; ++i) {
            // v − u_i, both below q_j after reducing u_i (u_i < q_i < 2^31).
            gfpf_u32 ui = u[i] >= q ? u[i] - q : u[i];
            v = v >= ui ? v - ui : v + q - ui;
            v = gfpf_mm_montgomery(v, GFPF_TABLE_READ(k, 2 * s + i * s + j), q, q_neg_inv);
        }
        u[j] = v;
    }
    const gfpf_u32* powers = k + 2 * s + s * s;
    GfpfElem out;
    gfpf_u64 c0 = 0, c1 = 0;
    const unsigned shift = GFPF_R_SHIFT;
    for (int d = 0; d < GFPF_K; ++d) {
        GfpfAcc acc = {c0, c1, 0};
        for (int j = 0; j < s; ++j) {
            const gfpf_u64 digit = (gfpf_u64)GFPF_TABLE_READ(powers, (gfpf_u64)j * 2 * GFPF_K + 2 * d) |
                                   ((gfpf_u64)GFPF_TABLE_READ(powers, (gfpf_u64)j * 2 * GFPF_K + 2 * d + 1) << 32);
            gfpf_acc_add_product(acc, u[j], digit);
        }
        // (acc mod r, acc div r): shift once, two 2-by-1 divisions.
        gfpf_u64 q_hi, q_lo, rem;
        gfpf_div_rem_scaled(gfpf_shl_words(acc.w2, acc.w1, shift), gfpf_shl_words(acc.w1, acc.w0, shift), q_hi, rem);
        gfpf_div_rem_scaled(rem, acc.w0 << shift, q_lo, rem);
        out.d[d] = rem >> shift;
        c0 = q_lo;
        c1 = q_hi;
    }
    // carry·r^K = −carry: subtract carry = a·r + b as a two-digit number.
    gfpf_u64 a, b;
    gfpf_div_rem_scaled(gfpf_shl_words(c1, c0, shift), c0 << shift, a, b);
    GfpfElem sub = gfpf_zero();
    sub.d[0] = b >> shift;
    sub.d[1] = a;
    const GfpfElem value = gfpf_sub(out, sub);
    gfpf_u64* elements = (gfpf_u64*)p.elements;
    for (int d = 0; d < GFPF_K; ++d) GFPF_GLOBAL_WRITE(elements, (gfpf_u64)d * p.count + c, value.d[d]);
}

#ifdef GFPF_HOST_EMULATION
#define GFPF_MM_KERNEL(name, body)                                                         \
    extern "C" int name(const GfpfMultiModularParams* p, GfpfEmuLaunch* launch) {          \
        return gfpf_emu::launch(#name, *launch, [p] {                                      \
            gfpf_u64 t = (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x;                  \
            if (t < p->threads) body(*p, t);                                               \
        });                                                                                \
    }
#else
#define GFPF_MM_KERNEL(name, body)                                                         \
    extern "C" __global__ void name(const GfpfMultiModularParams p) {                      \
        gfpf_u64 t = (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x;                      \
        if (t < p.threads) body(p, t);                                                     \
    }
#endif

GFPF_MM_KERNEL(gfpf_mm_project, gfpf_mm_project_thread)
GFPF_MM_KERNEL(gfpf_mm_pointwise, gfpf_mm_pointwise_thread)
GFPF_MM_KERNEL(gfpf_mm_join, gfpf_mm_join_thread)
