//! The shared executor suite (gfpf-testkit) on the CPU executor, parallel and
//! serial, on every preset.

use gfpf_cpu::{CpuError, CpuFft, Threading};
use gfpf_field::Field;
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;

/// An executor type for the suite: `CpuFft` with the given threading.
macro_rules! cpu_executor {
    ($name:ident, $label:literal, $threading:expr) => {
        struct $name;
        impl Executor for $name {
            const NAME: &'static str = $label;
            type Fft<const K: usize> = CpuFft<K>;
            fn plan<const K: usize>(
                field: &Field<K>,
                n: usize,
                direction: Direction,
                order: Order,
            ) -> Result<CpuFft<K>, CpuError> {
                Ok(CpuFft::try_new(field, n, direction, order)?.with_threading($threading))
            }
        }
    };
}

cpu_executor!(Parallel, "cpu (rayon)", Threading::Parallel);
cpu_executor!(Serial, "cpu (one thread)", Threading::Serial);

mod parallel {
    gfpf_testkit::executor_suite!(crate::Parallel);
}

mod serial {
    gfpf_testkit::executor_suite!(crate::Serial);
}
