// The tensor cores' int8 matrix product over the calling warp, shared by the
// word-size NTT (gfpf_ntt.cu's DFT_16) and the field's products by a
// constant: D = A·B + C for one m16n8k32 product of u8 matrices with s32
// accumulation (mma.sync, compute capability 8.0 and later; the emulator by
// the PTX ISA's fragments, gfpf_emu::MmaFragments). Lane l = 4g + q holds
// A's rows g and g + 8 in registers (0, 2) and (1, 3), bytes 4q.. and
// 16 + 4q.. of each; B's column g, rows 4q.. and 16 + 4q..; C's and D's rows
// g (registers 0, 1) and g + 8 (2, 3), columns 2q and 2q + 1.
#ifndef GFPF_MMA_CUH
#define GFPF_MMA_CUH

#ifdef GFPF_HOST_EMULATION
#define GFPF_MMA_FN static inline
#else
#define GFPF_MMA_FN static __device__ __forceinline__
#endif

// A_SIGNED, B_SIGNED: A's or B's bytes are signed (mma…s32.s8.u8.s32,
// …u8.s8…), the sums' values modulo 2^32 as ever.
template <bool A_SIGNED = false, bool B_SIGNED = false>
GFPF_MMA_FN void gfpf_mma_m16n8k32_u8(unsigned (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1,
                                      const unsigned (&c)[4]) {
#ifdef GFPF_HOST_EMULATION
    gfpf_emu::MmaFragments f;
    for (int i = 0; i < 4; ++i) {
        f.a[i] = a[i];
        f.c[i] = c[i];
    }
    f.b[0] = b0;
    f.b[1] = b1;
    f.a_signed = A_SIGNED;
    f.b_signed = B_SIGNED;
    gfpf_emu::mma_m16n8k32_u8(f);
    for (int i = 0; i < 4; ++i) d[i] = f.d[i];
#elif __CUDA_ARCH__ >= 800
#define GFPF_MMA_U8(types)                                                                                   \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32." types ".s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, " \
                 "{%8, %9}, {%10, %11, %12, %13};\n"                                                         \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                           \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "r"(c[0]), "r"(c[1]),      \
                   "r"(c[2]), "r"(c[3]))
    if (A_SIGNED && B_SIGNED) {
        GFPF_MMA_U8("s8.s8");
    } else if (A_SIGNED) {
        GFPF_MMA_U8("s8.u8");
    } else if (B_SIGNED) {
        GFPF_MMA_U8("u8.s8");
    } else {
        GFPF_MMA_U8("u8.u8");
    }
#undef GFPF_MMA_U8
#else
    __trap();
#endif
}

#endif
