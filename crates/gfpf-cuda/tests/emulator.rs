//! The shared executor suite (gfpf-testkit) on the host emulator: the CUDA
//! kernels compiled as C++ and run on the CPU through the same launches as
//! on a GPU, on every preset. Skips, saying why, where no C++ compiler runs.

use std::path::Path;

use gfpf_cuda::{EmulatedFft, emulator_unavailable};
use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;

/// Where the compiled kernels are cached (one library per field).
fn kernel_dir() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
}

struct Emulated;

impl Executor for Emulated {
    const NAME: &'static str = "cuda kernels (host emulation)";

    fn unavailable() -> Option<String> {
        emulator_unavailable()
    }

    fn transform<const K: usize>(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        data: &mut [Element<K>],
        _scratch: Option<&mut [Element<K>]>,
    ) -> Result<(), String> {
        // Device-side scratch is the executor's own; host scratch is unused.
        EmulatedFft::try_new(field, n, direction, order, kernel_dir())
            .and_then(|fft| fft.process(data))
            .map_err(|e| e.to_string())
    }

    fn scratch_len<const K: usize>(_field: &Field<K>, _n: usize, _direction: Direction, _order: Order) -> usize {
        0
    }
}

gfpf_testkit::executor_suite!(crate::Emulated);
