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

gfpf_testkit::executor_suite!(crate::Emulated);
