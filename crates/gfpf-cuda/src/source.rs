//! The kernel sources (kernels/ in the repository, embedded at build time),
//! assembled into one translation unit per module with the field's constants.

use std::fmt::Write as _;

use gfpf_field::DeviceConstants;
use gfpf_plan::CodeletTwiddles;

/// kernels/gfpf_field.cuh: the field arithmetic.
pub const FIELD_HEADER: &str = include_str!("../../../kernels/gfpf_field.cuh");
/// kernels/generated/codelets.cuh: the DFT_K codelets (`cargo xtask codegen`).
pub const CODELETS_HEADER: &str = include_str!("../../../kernels/generated/codelets.cuh");
/// kernels/gfpf_fft.cu: the stage and scale kernels.
pub const FFT_SOURCE: &str = include_str!("../../../kernels/gfpf_fft.cu");

/// A kernel of kernels/gfpf_fft.cu.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// One stage of base DFT_K (`radix` = K), one thread per DFT, with the
    /// stage's twiddles fused on the inputs, the outputs or absent.
    BaseDft {
        /// K.
        radix: usize,
        /// The codelet variant.
        twiddles: CodeletTwiddles,
    },
    /// Every element multiplied by N^{-1}.
    Scale,
}

impl Kernel {
    /// The kernel's symbol (`extern "C"`) in the compiled module.
    pub fn symbol(&self) -> String {
        match *self {
            Kernel::BaseDft { radix, twiddles } => {
                let variant = match twiddles {
                    CodeletTwiddles::None => "plain",
                    CodeletTwiddles::Inputs => "inputs",
                    CodeletTwiddles::Outputs => "outputs",
                };
                format!("gfpf_dft{radix}_{variant}")
            }
            Kernel::Scale => "gfpf_scale".to_owned(),
        }
    }
}

/// Every base size a plan over k digits can use: 2, 4, …, 2k (one kernel
/// module each).
pub fn base_sizes(k: usize) -> Vec<usize> {
    (1..=(2 * k).trailing_zeros()).map(|b| 1 << b).collect()
}

/// A name for the module of one field and set of base sizes, usable as a
/// file name: `gfpf_k8_r8000000400000000_dft16_2`.
pub fn module_name(constants: &DeviceConstants, radices: &[usize]) -> String {
    let mut name = format!("gfpf_k{}_r{:x}_dft", constants.k, constants.r);
    for (i, radix) in radices.iter().enumerate() {
        if i > 0 {
            name.push('_');
        }
        write!(name, "{radix}").unwrap();
    }
    name
}

/// The `#define`s that specialise the kernels to one field and set of base
/// sizes (see kernels/gfpf_field.cuh).
pub fn prelude(constants: &DeviceConstants, radices: &[usize]) -> String {
    let c = constants;
    let mut s = String::new();
    let w = &mut s;
    writeln!(w, "// gfpf kernels for k = {}, r = {:#x}", c.k, c.r).unwrap();
    writeln!(w, "#define GFPF_K {}", c.k).unwrap();
    writeln!(w, "#define GFPF_R {:#x}ull", c.r).unwrap();
    writeln!(w, "#define GFPF_R_NORM {:#x}ull", c.r_normalized).unwrap();
    writeln!(w, "#define GFPF_R_RECIP {:#x}ull", c.r_reciprocal).unwrap();
    writeln!(w, "#define GFPF_R_SHIFT {}", c.r_shift).unwrap();
    for (name, words) in [("FIRST", c.offset_first), ("REST", c.offset_rest)] {
        for (i, word) in words.iter().enumerate() {
            writeln!(w, "#define GFPF_OFFSET_{name}_{i} {word:#x}ull").unwrap();
        }
    }
    let list: String = radices.iter().map(|r| format!(" X({r})")).collect();
    writeln!(w, "#define GFPF_RADICES(X){list}").unwrap();
    s
}

/// One translation unit: the prelude, then gfpf_fft.cu with its `#include`s
/// of the headers above replaced by their text (NVRTC then needs no include
/// paths, and the staged binaries carry their kernels). `host_emulation`
/// compiles it as C++ for the host emulator.
pub fn translation_unit(constants: &DeviceConstants, radices: &[usize], host_emulation: bool) -> String {
    let mut s = String::new();
    if host_emulation {
        s.push_str("#define GFPF_HOST_EMULATION 1\n");
    }
    s.push_str(&prelude(constants, radices));
    inline_includes(FFT_SOURCE, &mut s);
    s
}

fn inline_includes(source: &str, out: &mut String) {
    for line in source.lines() {
        let included = match line.trim() {
            "#include \"gfpf_field.cuh\"" => Some(FIELD_HEADER),
            "#include \"generated/codelets.cuh\"" => Some(CODELETS_HEADER),
            _ => None,
        };
        match included {
            Some(text) => inline_includes(text, out),
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::{Field, Preset};

    #[test]
    fn every_include_is_inlined_and_every_constant_defined() {
        let c = Field::<8>::preset(Preset::T8).unwrap().device_constants();
        let unit = translation_unit(&c, &[16, 2], false);
        assert!(!unit.contains("#include"), "an #include was left in the unit");
        assert!(unit.contains("#define GFPF_R 0x8000000400000000ull"));
        assert!(unit.contains("#define GFPF_RADICES(X) X(16) X(2)"));
        for name in [
            "GFPF_R_NORM",
            "GFPF_R_RECIP",
            "GFPF_OFFSET_FIRST_2",
            "GFPF_OFFSET_REST_0",
        ] {
            assert!(unit.contains(&format!("#define {name} ")), "{name} missing");
        }
        assert!(unit.contains("gfpf_dft_16_twiddle_inputs"));
        assert!(translation_unit(&c, &[16], true).starts_with("#define GFPF_HOST_EMULATION 1\n"));
        assert_eq!(module_name(&c, &[16, 2]), "gfpf_k8_r8000000400000000_dft16_2");
        assert_eq!(base_sizes(8), vec![2, 4, 8, 16]);
    }

    #[test]
    fn kernel_symbols_match_the_source() {
        let names = [
            (Kernel::Scale, "gfpf_scale"),
            (
                Kernel::BaseDft {
                    radix: 16,
                    twiddles: CodeletTwiddles::Inputs,
                },
                "gfpf_dft16_inputs",
            ),
            (
                Kernel::BaseDft {
                    radix: 2,
                    twiddles: CodeletTwiddles::None,
                },
                "gfpf_dft2_plain",
            ),
        ];
        for (kernel, symbol) in names {
            assert_eq!(kernel.symbol(), symbol);
        }
        // The source defines the symbols with the same pattern.
        assert!(FFT_SOURCE.contains("gfpf_dft##R##_plain"));
        assert!(FFT_SOURCE.contains("GFPF_KERNEL(gfpf_scale,"));
    }
}
