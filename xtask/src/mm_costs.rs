//! The time model's instruction charges for the multi-modular kernels
//! (kernels/gfpf_multimodular.cuh): the projection's and the join's
//! operations, in 32-bit and 64-bit words. `cargo xtask gpu-model` charges
//! them, and `cargo xtask kernels --probe --preset mm` prints each kernel's
//! loop over the primes an iteration beside what the model charges it
//! ([`crate::probes::count_mm`]); a test holds them to it.

/// SASS instructions of a Montgomery product of the multi-modular kernels
/// with its table load and modular add (the join's one a prime, the
/// projection's two a prime; about 11.5 in the
/// projection's loop before it summed in 128 bits, which was 11 + 11.5·2k
/// a prime: 103, 195 and 376 at t4, t8 and t16; kernels/
/// gfpf_multimodular.cuh, NVRTC 12.9, sm_90, nvdisasm, 2026-11-25).
pub const MM_PRODUCT_INSTRUCTIONS: f64 = 12.0;

/// SASS instructions of a digit of the projection (two 32-bit products
/// and their table loads, summed in 128 bits): its loop is 16 + 11.3·k a
/// prime beside its two Montgomery products (84, 131 and 219 at t4, t8 and
/// t16; same compile).
pub const MM_TERM_INSTRUCTIONS: f64 = 11.3;

/// SASS instructions of the join's accumulation of a residue times a digit
/// in 128 bits, with its table load: a join pass is 28 + 13·g a prime for
/// g digits (132 at t8, g = 8; 80–84 at t16, g = 4; same compile), its
/// Montgomery product and [`MM_PRIME_INSTRUCTIONS`] beside.
pub const MM_MAC_INSTRUCTIONS: f64 = 13.0;

/// SASS instructions of a prime of a projection or a join pass beside its
/// products and accumulations (loads, the reduction or the double sum, the
/// loop): 16 in both (same compile).
pub const MM_PRIME_INSTRUCTIONS: f64 = 16.0;

/// SASS instructions of a base-r digit of the join's carry chain: two
/// Möller–Granlund divisions, the shifts, the wrap's share and the store
/// (what the join has after its loops less the wrap's accumulations, over
/// k: 107 at t8, 126 at t16 with its passes' set-up; same compile).
#[cfg_attr(not(feature = "model"), allow(dead_code))]
pub const MM_DIGIT_INSTRUCTIONS: f64 = 110.0;

/// The same where the field's short division serves the first division of
/// each carry digit (`gfpf_div_rem_small_high`, the t-presets): the join's
/// kernel 1168 → 1008 instructions at t8 and 2608 → 2328 at t16, 18 a
/// digit fewer (nvdisasm 13.5 of the NVRTC 12.9 sm_90 modules before and
/// after, 2026-11-26).
#[cfg_attr(not(feature = "model"), allow(dead_code))]
pub const MM_DIGIT_SHORT_DIVISION_INSTRUCTIONS: f64 = 92.0;

/// The multi-modular kernels' operations in 64-bit words (62-bit primes),
/// each its 32-bit twin's figure above plus what probe kernels at t8 count
/// beyond the twin's (eight operations unrolled, less a probe of the same
/// loads; NVRTC 12.9 with `--device-int128`, sm_90, nvdisasm 13.5,
/// 2026-11-27): a Montgomery product 32 against 8 (64 × 64-bit products),
/// a join accumulation 17 against 7 (a 62 × 64-bit product into 192 bits),
/// a projection digit 18 against 10 (32 × 62-bit products).
pub const MM62_PRODUCT_INSTRUCTIONS: f64 = MM_PRODUCT_INSTRUCTIONS + 24.0;
/// See [`MM62_PRODUCT_INSTRUCTIONS`].
pub const MM62_MAC_INSTRUCTIONS: f64 = MM_MAC_INSTRUCTIONS + 10.0;
/// See [`MM62_PRODUCT_INSTRUCTIONS`].
pub const MM62_TERM_INSTRUCTIONS: f64 = MM_TERM_INSTRUCTIONS + 8.0;

/// A multi-modular kernel whose loop over the primes the model charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmKernel {
    /// `gfpf_mm_project`: a prime's residue of a coefficient, 32-bit words.
    Project,
    /// `gfpf_mm_join`: a prime's residue into a pass's digit sums.
    Join,
    /// `gfpf_mm62_project`: the projection in 64-bit words.
    Project62,
    /// `gfpf_mm62_join`: the join in 64-bit words.
    Join62,
}

impl MmKernel {
    /// Every kernel, in the order the table prints them.
    pub const ALL: [MmKernel; 4] = [MmKernel::Project, MmKernel::Join, MmKernel::Project62, MmKernel::Join62];

    /// The kernel's symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            MmKernel::Project => "gfpf_mm_project",
            MmKernel::Join => "gfpf_mm_join",
            MmKernel::Project62 => "gfpf_mm62_project",
            MmKernel::Join62 => "gfpf_mm62_join",
        }
    }

    /// The digits a join's pass over the residues sums (`GfpfMmWord::GROUP`):
    /// up to 8 of 32-bit words' sums, 2 of 64-bit words'.
    pub fn join_group(self, k: usize) -> usize {
        match self {
            MmKernel::Join62 | MmKernel::Project62 => k.min(2),
            MmKernel::Join | MmKernel::Project => k.min(8),
        }
    }

    /// What the model charges an iteration of the kernel's loop over the
    /// primes at k digits, as the emulator counts its operations: the
    /// projection a prime ([`MM_PRIME_INSTRUCTIONS`]), its 2k half-digit
    /// terms (k counted) and its reduction's two Montgomery products; a
    /// join's pass a prime, the residue's product and a digit sum's
    /// accumulation for each digit of the pass.
    pub fn prime_loop_instructions(self, k: usize) -> f64 {
        let k = k as f64;
        let group = self.join_group(k as usize) as f64;
        match self {
            MmKernel::Project => MM_PRIME_INSTRUCTIONS + k * MM_TERM_INSTRUCTIONS + 2.0 * MM_PRODUCT_INSTRUCTIONS,
            MmKernel::Project62 => MM_PRIME_INSTRUCTIONS + k * MM62_TERM_INSTRUCTIONS + 2.0 * MM62_PRODUCT_INSTRUCTIONS,
            MmKernel::Join => MM_PRIME_INSTRUCTIONS + MM_PRODUCT_INSTRUCTIONS + group * MM_MAC_INSTRUCTIONS,
            MmKernel::Join62 => MM_PRIME_INSTRUCTIONS + MM62_PRODUCT_INSTRUCTIONS + group * MM62_MAC_INSTRUCTIONS,
        }
    }

    /// Whether a loop of the kernel's machine code of `instructions` an
    /// iteration agrees with the charge at k digits: within 7% (the join's
    /// first pass also sums the residues' fractions, which the prime's
    /// charge takes).
    pub fn agrees(self, k: usize, instructions: f64) -> bool {
        let model = self.prime_loop_instructions(k);
        (instructions - model).abs() <= 0.07 * model
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// t8: the projection's 8 terms and 2 products; the join's one pass of
    /// 8 digits (32-bit words) or four of 2 (64-bit words).
    #[test]
    fn a_prime_is_charged_its_operations() {
        let project = MM_PRIME_INSTRUCTIONS + 8.0 * MM_TERM_INSTRUCTIONS + 2.0 * MM_PRODUCT_INSTRUCTIONS;
        assert_eq!(MmKernel::Project.prime_loop_instructions(8), project);
        let join62 = MM_PRIME_INSTRUCTIONS + MM62_PRODUCT_INSTRUCTIONS + 2.0 * MM62_MAC_INSTRUCTIONS;
        assert_eq!(MmKernel::Join62.prime_loop_instructions(8), join62);
        assert_eq!(MmKernel::Join.join_group(16), 8);
        assert!(MmKernel::Project.agrees(8, project * 1.06) && !MmKernel::Project.agrees(8, project * 0.92));
    }
}
