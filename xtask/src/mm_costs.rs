//! The time model's instruction charges for the multi-modular kernels
//! (kernels/gfpf_multimodular.cuh): the projection's and the join's
//! operations, in 32-bit and 64-bit words. `cargo xtask gpu-model` charges
//! them, and `cargo xtask kernels --probe --preset mm` prints each kernel's
//! loop over the primes an iteration beside what the model charges it
//! ([`crate::probes::count_mm`]); a test holds them to it.

// The loops over the primes (`cargo xtask kernels --probe --preset mm`,
// NVRTC 12.9 with `--device-int128`, sm_90, nvdisasm 13.5, 2026-11-30): the
// projection's is 62, 84 and 124 instructions a prime at t4, t8 and t16
// (64-bit words 130, 182 and 286), a join pass's 79 at g = 4 digits and 106
// to 109 at 8 (64-bit words, 2 digits a pass: 93 to 101). A prime's
// Montgomery products and the rest of its iteration are not told apart by
// the loops; the split follows the probes that counted a product alone (8
// instructions in 32-bit words).

/// SASS instructions of a Montgomery product of the multi-modular kernels
/// with its table load (the join's one a prime, the projection's two).
pub const MM_PRODUCT_INSTRUCTIONS: f64 = 8.0;

/// SASS instructions of a digit of the projection: two 32-bit products
/// (IMAD.WIDE.U32 each, `gfpf_mm_mul_wide`) and their table loads, summed
/// in 128 bits; a prime's loop is 42 + 5.1·k.
pub const MM_TERM_INSTRUCTIONS: f64 = 5.1;

/// SASS instructions of the join's accumulation of a residue times a digit
/// (32 × 64 bits as two 32-bit products) in 128 bits, with its table load:
/// a pass is 49 + 7.5·g a prime for g digits.
pub const MM_MAC_INSTRUCTIONS: f64 = 7.5;

/// SASS instructions of a prime of a projection beside its terms and
/// products (its constants, the reduction's adds, the store, the loop).
pub const MM_PRIME_INSTRUCTIONS: f64 = 26.0;

/// SASS instructions of a prime of a join's pass beside its product and
/// accumulations (the residue's load, the fraction's sum in the first
/// pass, the loop), either word.
pub const MM_JOIN_PRIME_INSTRUCTIONS: f64 = 41.0;

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

/// [`MM_PRODUCT_INSTRUCTIONS`] in 64-bit words (62-bit primes, 64 × 64-bit
/// products): the projection's loop is 78 + 13·k a prime.
pub const MM62_PRODUCT_INSTRUCTIONS: f64 = 26.0;
/// [`MM_MAC_INSTRUCTIONS`] of a 62-bit residue (a 62 × 64-bit product into
/// 192 bits): a pass of 2 digits is 95 a prime.
pub const MM62_MAC_INSTRUCTIONS: f64 = 14.0;
/// [`MM_TERM_INSTRUCTIONS`] in 64-bit words (two 32 × 62-bit products,
/// four IMAD.WIDE.U32).
pub const MM62_TERM_INSTRUCTIONS: f64 = 13.0;

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
    /// join's pass a prime ([`MM_JOIN_PRIME_INSTRUCTIONS`]), the residue's
    /// product and a digit sum's accumulation for each digit of the pass.
    pub fn prime_loop_instructions(self, k: usize) -> f64 {
        let k = k as f64;
        let group = self.join_group(k as usize) as f64;
        match self {
            MmKernel::Project => MM_PRIME_INSTRUCTIONS + k * MM_TERM_INSTRUCTIONS + 2.0 * MM_PRODUCT_INSTRUCTIONS,
            MmKernel::Project62 => MM_PRIME_INSTRUCTIONS + k * MM62_TERM_INSTRUCTIONS + 2.0 * MM62_PRODUCT_INSTRUCTIONS,
            MmKernel::Join => MM_JOIN_PRIME_INSTRUCTIONS + MM_PRODUCT_INSTRUCTIONS + group * MM_MAC_INSTRUCTIONS,
            MmKernel::Join62 => MM_JOIN_PRIME_INSTRUCTIONS + MM62_PRODUCT_INSTRUCTIONS + group * MM62_MAC_INSTRUCTIONS,
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
        let join62 = MM_JOIN_PRIME_INSTRUCTIONS + MM62_PRODUCT_INSTRUCTIONS + 2.0 * MM62_MAC_INSTRUCTIONS;
        assert_eq!(MmKernel::Join62.prime_loop_instructions(8), join62);
        assert_eq!(MmKernel::Join.join_group(16), 8);
        assert!(MmKernel::Project.agrees(8, project * 1.06) && !MmKernel::Project.agrees(8, project * 0.92));
    }
}
