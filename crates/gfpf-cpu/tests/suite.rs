//! The shared executor suite (gfpf-testkit) on the CPU executor, parallel and
//! serial, on every preset.

use gfpf_cpu::{CpuFft, Threading};
use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;

fn transform<const K: usize>(
    threading: Threading,
    field: &Field<K>,
    n: usize,
    direction: Direction,
    order: Order,
    data: &mut [Element<K>],
    scratch: Option<&mut [Element<K>]>,
) -> Result<(), String> {
    let fft = CpuFft::try_new(field, n, direction, order)
        .map_err(|e| e.to_string())?
        .with_threading(threading);
    match scratch {
        Some(s) => fft.process_with_scratch(data, s),
        None => fft.process(data),
    }
    .map_err(|e| e.to_string())
}

fn scratch_len<const K: usize>(field: &Field<K>, n: usize, direction: Direction, order: Order) -> usize {
    CpuFft::try_new(field, n, direction, order).unwrap().scratch_len()
}

/// An executor type for the suite: `CpuFft` with the given threading.
macro_rules! cpu_executor {
    ($name:ident, $label:literal, $threading:expr) => {
        struct $name;
        impl Executor for $name {
            const NAME: &'static str = $label;
            fn transform<const K: usize>(
                field: &Field<K>,
                n: usize,
                direction: Direction,
                order: Order,
                data: &mut [Element<K>],
                scratch: Option<&mut [Element<K>]>,
            ) -> Result<(), String> {
                transform($threading, field, n, direction, order, data, scratch)
            }
            fn scratch_len<const K: usize>(field: &Field<K>, n: usize, direction: Direction, order: Order) -> usize {
                scratch_len(field, n, direction, order)
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
