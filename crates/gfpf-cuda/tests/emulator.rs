//! The shared executor suite (gfpf-testkit) on the host emulator: the CUDA
//! kernels compiled as C++ and run on the CPU through the same launches as
//! on a GPU, on every preset. Skips, saying why, where no C++ compiler runs.

use std::path::Path;

use gfpf_field::Field;
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;
use gfpf_testkit::emulator::{EmulatedFft, EmulatorError, emulator_unavailable};

/// Where the compiled kernels are cached (one library per field).
fn kernel_dir() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
}

struct Emulated;

impl Executor for Emulated {
    const NAME: &'static str = "cuda kernels (host emulation)";
    type Fft<const K: usize> = EmulatedFft<K>;

    fn unavailable() -> Option<String> {
        emulator_unavailable()
    }

    fn plan<const K: usize>(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
    ) -> Result<EmulatedFft<K>, EmulatorError> {
        EmulatedFft::try_new(field, n, direction, order, kernel_dir())
    }
}

gfpf_testkit::executor_suite!(
    crate::Emulated,
    #[cfg_attr(not(gfpf_cxx), ignore = "no host C++ compiler ($CXX or c++) where these tests were built")]
);

/// Products the way `CudaPolyMul` computes them (padded transforms in
/// digit-reversed order and the pointwise kernel) against rug's schoolbook
/// product, edge values included.
fn products_match_rug<const K: usize>(preset: gfpf_field::Preset) {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (emulated products, {}): {why}", preset.name());
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    let mul = gfpf_testkit::emulator::EmulatedPolyMul::new(&field, kernel_dir());
    for (i, (la, lb)) in [(1, 1), (2, 3), (17, 33), (64, 65), (100, 129)].into_iter().enumerate() {
        if (la + lb - 1usize).next_power_of_two().trailing_zeros() > field.two_adicity() {
            continue;
        }
        let a = gfpf_testkit::oracle::sample(&field, la, 40 + i as u64);
        let b = gfpf_testkit::oracle::sample(&field, lb, 80 + i as u64);
        let got = mul
            .mul(&a, &b)
            .unwrap_or_else(|e| panic!("{} {la}x{lb}: {e}", preset.name()));
        assert!(
            got == gfpf_testkit::oracle::rug_polynomial_product(&field, &a, &b),
            "{} {la}x{lb}",
            preset.name()
        );
    }
    assert!(mul.mul(&[], &[field.one()]).unwrap().is_empty());
}

macro_rules! product_tests {
    ($($name:ident $preset:ident $k:literal),*) => {
        mod products {
            $(
                #[test]
                #[cfg_attr(not(gfpf_cxx), ignore = "no host C++ compiler ($CXX or c++) where these tests were built")]
                fn $name() {
                    super::products_match_rug::<$k>(gfpf_field::Preset::$preset);
                }
            )*
        }
    };
}

gfpf_field::for_each_preset!(product_tests!());
