//! The shared executor suite (gfpf-testkit) on the CPU executor, parallel and
//! serial, on every preset; with its base DFTs one at a time and in SIMD
//! lanes on every lane instruction set this CPU has, on five presets; and
//! with two-level twiddle tables on each path that reads them.

use gfpf_cpu::{CpuError, CpuFft, Threading, TwiddleLayout};
use gfpf_field::{Field, LaneIsa};
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;

/// An executor type for the suite: `CpuFft` with the given threading, and
/// where given its twiddle table layout, lane instruction set and lane
/// twiddle blocks (left out: the executor's own choice).
macro_rules! cpu_executor {
    // The option given, else the default.
    (@or $default:expr) => { $default };
    (@or $default:expr, $given:expr) => { $given };
    (
        $name:ident, $label:literal, $threading:expr
        $(, twiddles = $layout:expr)? $(, lanes = $isa:expr)? $(, lane_twiddles = $keep:expr)?
    ) => {
        struct $name;
        impl Executor for $name {
            const NAME: &'static str = $label;
            type Fft<const K: usize> = CpuFft<K>;
            fn unavailable() -> Option<String> {
                let isa: Option<LaneIsa> = cpu_executor!(@or None $(, $isa)?);
                isa.and_then(|isa| isa.ensure_available().err().map(|e| e.to_string()))
            }
            fn plan<const K: usize>(
                field: &Field<K>,
                n: usize,
                direction: Direction,
                order: Order,
            ) -> Result<CpuFft<K>, CpuError> {
                let layout = cpu_executor!(@or TwiddleLayout::Auto $(, $layout)?);
                let fft = CpuFft::try_new_with_twiddles(field, n, direction, order, layout)?.with_threading($threading);
                $(let fft = fft.with_lane_twiddles($keep);)?
                $(let fft = fft.with_lane_isa($isa)?;)?
                Ok(fft)
            }
        }
    };
}

cpu_executor!(Parallel, "cpu (rayon)", Threading::Parallel);
cpu_executor!(
    SplitInLanes,
    "cpu (two-level twiddles, lanes)",
    Threading::Parallel,
    twiddles = TwiddleLayout::Split,
    lanes = Some(LaneIsa::best()),
    lane_twiddles = true
);
cpu_executor!(
    SplitGathered,
    "cpu (two-level twiddles, lanes, gathered)",
    Threading::Parallel,
    twiddles = TwiddleLayout::Split,
    lanes = Some(LaneIsa::best()),
    lane_twiddles = false
);
cpu_executor!(
    SplitOneByOne,
    "cpu (two-level twiddles, one DFT at a time)",
    Threading::Parallel,
    twiddles = TwiddleLayout::Split,
    lanes = None,
    lane_twiddles = false
);
// Products in lanes without the ready twiddle blocks: factors gathered from
// the table and shifted in lanes, as transforms above
// `LANE_TWIDDLES_MAX_WORDS` do.
cpu_executor!(
    LanesGathered,
    "cpu (lanes, twiddles gathered)",
    Threading::Serial,
    lane_twiddles = false
);
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
    gfpf_testkit::executor_suite!(crate::suite::Parallel);
}

mod serial {
    gfpf_testkit::executor_suite!(crate::suite::Serial);
}

// The other paths on a spread of presets (the full suites above already run
// the CPU's default, its best lane instruction set): k = 2 (fewer digits than
// a tile), t4 (r just below 2^64), t8 and p16 (products in lanes with IFMA),
// t64 (products by Karatsuba steps where they run in lanes, in-place
// butterflies).
mod one_by_one {
    gfpf_testkit::executor_suite!(@presets crate::suite::OneByOne; t2 T2 2, t4 T4 4, t8 T8 8, p16 P16 16, t64 T64 64);
}

mod lanes_portable {
    gfpf_testkit::executor_suite!(@presets crate::suite::LanesPortable; t2 T2 2, t4 T4 4, t8 T8 8, p16 P16 16, t64 T64 64);
}

mod lanes_avx2 {
    gfpf_testkit::executor_suite!(@presets crate::suite::LanesAvx2; t2 T2 2, t4 T4 4, t8 T8 8, p16 P16 16, t64 T64 64);
}

mod lanes_avx512 {
    gfpf_testkit::executor_suite!(@presets crate::suite::LanesAvx512; t2 T2 2, t4 T4 4, t8 T8 8, p16 P16 16, t64 T64 64);
}

mod lanes_gathered {
    gfpf_testkit::executor_suite!(@presets crate::suite::LanesGathered; t4 T4 4, t8 T8 8, p16 P16 16, t64 T64 64);
}

// Two-level twiddle tables at every size (by default only above
// `FULL_TWIDDLE_TABLE_MAX_BYTES`): the products of each path that reads the
// table (lane blocks, lane gathers, four at a time on whole elements, one by
// one), the scaled table of inverses included.
mod split_twiddles_in_lanes {
    gfpf_testkit::executor_suite!(@presets crate::suite::SplitInLanes; t2 T2 2, t4 T4 4, t8 T8 8, p16 P16 16, t64 T64 64);
}

mod split_twiddles_gathered {
    gfpf_testkit::executor_suite!(@presets crate::suite::SplitGathered; t4 T4 4, t8 T8 8, p16 P16 16);
}

mod split_twiddles_one_by_one {
    gfpf_testkit::executor_suite!(@presets crate::suite::SplitOneByOne; t2 T2 2, t8 T8 8, p16 P16 16, t64 T64 64);
}
