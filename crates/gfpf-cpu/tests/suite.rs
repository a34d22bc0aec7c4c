//! The shared executor suite (gfpf-testkit) on the CPU executor, parallel and
//! serial, on every preset; and, on one thread, with its base DFTs one at a
//! time and in SIMD lanes on every lane instruction set this CPU has.

use gfpf_cpu::{CpuError, CpuFft, Threading};
use gfpf_field::{Field, LaneIsa};
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;

/// An executor type for the suite: `CpuFft` with the given threading and
/// lane instruction set (`default` keeps the executor's own choice).
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
    ($name:ident, $label:literal, $threading:expr, lanes = $isa:expr) => {
        struct $name;
        impl Executor for $name {
            const NAME: &'static str = $label;
            type Fft<const K: usize> = CpuFft<K>;
            fn unavailable() -> Option<String> {
                let isa: Option<LaneIsa> = $isa;
                isa.and_then(|isa| isa.ensure_available().err().map(|e| e.to_string()))
            }
            fn plan<const K: usize>(
                field: &Field<K>,
                n: usize,
                direction: Direction,
                order: Order,
            ) -> Result<CpuFft<K>, CpuError> {
                CpuFft::try_new(field, n, direction, order)?
                    .with_threading($threading)
                    .with_lane_isa($isa)
            }
        }
    };
}

cpu_executor!(Parallel, "cpu (rayon)", Threading::Parallel);
cpu_executor!(Serial, "cpu (one thread)", Threading::Serial);
cpu_executor!(OneByOne, "cpu (one DFT at a time)", Threading::Serial, lanes = None);
cpu_executor!(
    LanesPortable,
    "cpu (lanes, portable)",
    Threading::Serial,
    lanes = Some(LaneIsa::Portable)
);
cpu_executor!(
    LanesAvx2,
    "cpu (lanes, AVX2)",
    Threading::Serial,
    lanes = Some(LaneIsa::Avx2)
);
cpu_executor!(
    LanesAvx512,
    "cpu (lanes, AVX-512)",
    Threading::Parallel,
    lanes = Some(LaneIsa::Avx512)
);

mod parallel {
    gfpf_testkit::executor_suite!(crate::Parallel);
}

mod serial {
    gfpf_testkit::executor_suite!(crate::Serial);
}

mod one_by_one {
    gfpf_testkit::executor_suite!(crate::OneByOne);
}

mod lanes_portable {
    gfpf_testkit::executor_suite!(crate::LanesPortable);
}

mod lanes_avx2 {
    gfpf_testkit::executor_suite!(crate::LanesAvx2);
}

mod lanes_avx512 {
    gfpf_testkit::executor_suite!(crate::LanesAvx512);
}
