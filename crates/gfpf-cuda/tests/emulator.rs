//! The shared executor suite (gfpf-testkit) on the host emulator: the CUDA
//! kernels compiled as C++ and run on the CPU through the same launches as
//! on a GPU, on every preset. Skips, saying why, where no C++ compiler runs.

use std::path::Path;

use gfpf_cuda::params::StageKernels;
use gfpf_field::Field;
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;
use gfpf_testkit::emulator::{EmulatedFft, EmulatorError, FiberSwitch, emulator_unavailable};

/// Where the compiled kernels are cached (one library per field).
fn kernel_dir() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
}

/// The emulator's executor for the suite, its stages run by
/// `STAGES`: [`THREAD_PER_DFT`], [`TILED`] or [`LANES`].
struct Emulated<const STAGES: u8>;

/// One thread per DFT everywhere (a second family of kernels beside the
/// device's).
const THREAD_PER_DFT: u8 = 0;
/// Every tiled stage of k ≤ 16 as a team of threads on whole elements, at
/// every size (the device takes them where a stage fills it, beyond the
/// suite's sizes).
const ELEMENT_TEAMS: u8 = 3;
/// Stride-1 stages tiled through shared memory (kernels with barriers; not
/// what the device runs, see `StageKernels`).
const TILED: u8 = 1;
/// What the device runs (`StageKernels::for_device`): an element over the
/// lanes of a warp segment (k/32 digits a lane from k = 64), warp
/// collectives; each DFT of a tiled stage shared by a team of segments
/// through shared memory (or of threads on whole elements where a stage of
/// k ≤ 16 fills the device: the `element_teams` suite runs those at every
/// size; the tiled stages with a segment per DFT, which the device no longer
/// runs, are checked at t8 by `barriers_each_needed_in_tiled_stages`).
const LANES: u8 = 2;

impl<const STAGES: u8> Executor for Emulated<STAGES> {
    const NAME: &'static str = match STAGES {
        TILED => "cuda kernels, stride-1 stages tiled (host emulation)",
        ELEMENT_TEAMS => "cuda kernels, tiled stages as teams of threads on whole elements (host emulation)",
        LANES => "cuda kernels, as the device runs them (host emulation)",
        _ => "cuda kernels, one thread per DFT (host emulation)",
    };
    type Fft<const K: usize> = EmulatedFft<K>;

    // A warp collective per digit operation switches all 32 fibers of a
    // warp: the lane kernels stop at 2^9 (16·16·2 at t8, 32·16 at p16), at
    // k = 32, whose products take 32 shuffles a lane or more, at 2^8
    // (8·32), and with several digits a lane at 2^7 (8·16 at t64, 2·8·8
    // at p128, where `wide_lanes_multiply_by_table_twiddles` goes to 2^9);
    // the other families, which the device no longer launches, at 2^11
    // (16·16·8 at t8) and from k = 64 at 2^10 (16·16·4, 8·8·8·2): mixed
    // radices and twiddled stages everywhere (at 2^12 one thread per DFT_8
    // of t128 took 19 s of the test command's time, 2026-11-27).
    fn max_log2(k: usize) -> u32 {
        match STAGES {
            LANES if k >= 64 => 7,
            LANES if k >= 32 => 8,
            LANES | ELEMENT_TEAMS => 9,
            _ if k >= 64 => 10,
            _ => 11,
        }
    }

    fn unavailable() -> Option<String> {
        emulator_unavailable()
    }

    fn plan<const K: usize>(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
    ) -> Result<EmulatedFft<K>, EmulatorError> {
        let stage_kernels = match STAGES {
            TILED => StageKernels::TiledStrideOne,
            LANES => StageKernels::for_device(K),
            ELEMENT_TEAMS => StageKernels::ElementTeams,
            _ => StageKernels::ThreadPerDft,
        };
        Ok(EmulatedFft::try_new(field, n, direction, order, kernel_dir())?.with_stage_kernels(stage_kernels))
    }
}

mod tiled {
    gfpf_testkit::executor_suite!(
        @presets crate::Emulated<{ crate::TILED }>;
        [#[cfg_attr(not(gfpf_cxx), ignore = "no host C++ compiler ($CXX or c++) where these tests were built")]];
        t8 T8 8
    );
}

mod lanes {
    gfpf_testkit::executor_suite!(
        @presets crate::Emulated<{ crate::LANES }>;
        [#[cfg_attr(not(gfpf_cxx), ignore = "no host C++ compiler ($CXX or c++) where these tests were built")]];
        t2 T2 2, t8 T8 8, p16 P16 16, t32 T32 32, t64 T64 64, p128 P128 128
    );
}

mod element_teams {
    gfpf_testkit::executor_suite!(
        @presets crate::Emulated<{ crate::ELEMENT_TEAMS }>;
        [#[cfg_attr(not(gfpf_cxx), ignore = "no host C++ compiler ($CXX or c++) where these tests were built")]];
        t2 T2 2, t4 T4 4, t8 T8 8
    );
}

// One thread per DFT, on the device's plans (base DFTs up to 16 at k = 64,
// 8 at k = 128): a second family beside the lane kernels, which the lane
// suite covers as the device runs them; one preset per size of k.
mod thread_per_dft {
    gfpf_testkit::executor_suite!(
        @presets crate::Emulated<{ crate::THREAD_PER_DFT }>;
        [#[cfg_attr(not(gfpf_cxx), ignore = "no host C++ compiler ($CXX or c++) where these tests were built")]];
        t8 T8 8, t64 T64 64, t128 T128 128
    );
}

/// Every stage over the lanes of a segment (StageKernels::DigitsOverLanes)
/// at k = 8 and 16, whose twiddled lane DFT_16 (a segment a DFT, or tiled
/// from k = 16) runs its twiddles in a loop that rotates the elements
/// through registers (the kernels' GFPF_LANE_TWIDDLE_LOOP; the device's
/// plans take those kernels only at strides below a team's columns, which
/// the lane suite's sizes do not reach): twiddled inputs and outputs, both
/// directions and orders, against gfpf-cpu.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn lane_dft16_twiddles_in_a_loop() {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (lane DFT_16 twiddles): {why}");
        return;
    }
    fn check<const K: usize>(preset: gfpf_field::Preset) {
        use gfpf_cuda::Kernel;
        use gfpf_plan::CodeletTwiddles;
        let field = Field::<K>::preset(preset).unwrap();
        let n = 1 << 9;
        let x = gfpf_testkit::oracle::sample(&field, n, 11);
        let mut placements = Vec::new();
        for (direction, order) in [
            (Direction::Forward, Order::Natural),
            (Direction::Forward, Order::DigitReversed),
            (Direction::Inverse, Order::Natural),
            (Direction::Inverse, Order::DigitReversed),
        ] {
            // Base DFTs up to 16 (k = 16's plans would take DFT_32).
            let fft = EmulatedFft::try_new(&field, n, direction, order, kernel_dir())
                .unwrap()
                .with_max_radix(16)
                .unwrap()
                .with_stage_kernels(StageKernels::DigitsOverLanes);
            for launch in gfpf_cuda::params::launches_with(fft.plan(), 1, StageKernels::DigitsOverLanes) {
                if let Kernel::LaneDft { radix: 16, twiddles } | Kernel::LaneTiledDft { radix: 16, twiddles } =
                    launch.kernel
                {
                    placements.push(twiddles);
                }
            }
            // In natural order against gfpf-cpu's; in digit-reversed order
            // by this plan's digit reversal (the forward's outputs, the
            // inverse's inputs).
            let mut natural = x.clone();
            gfpf_cpu::CpuFft::try_new(&field, n, direction, Order::Natural)
                .unwrap()
                .process(&mut natural)
                .unwrap();
            let reversed =
                |v: &[gfpf_field::Element<K>]| -> Vec<_> { (0..n).map(|l| v[fft.plan().digit_reverse(l)]).collect() };
            let (mut got, want) = match (order, direction) {
                (Order::Natural, _) => (x.clone(), natural),
                (Order::DigitReversed, Direction::Forward) => (x.clone(), reversed(&natural)),
                (Order::DigitReversed, Direction::Inverse) => (reversed(&x), natural),
            };
            gfpf_executor::Transform::process(&fft, &mut got).unwrap();
            assert!(
                got == want,
                "{}: 2^9 {direction:?} {order:?} differs from gfpf-cpu",
                preset.name()
            );
        }
        for twiddles in [CodeletTwiddles::Inputs, CodeletTwiddles::Outputs] {
            assert!(
                placements.contains(&twiddles),
                "{}: a lane DFT_16 with {twiddles:?} twiddles in {placements:?}",
                preset.name()
            );
        }
    }
    check::<8>(gfpf_field::Preset::T8);
    check::<16>(gfpf_field::Preset::P16);
}

/// Four digits a lane (k = 128) above N = 2k, where twiddles come from the
/// table and are multiplied over the lanes (the lane suite stops at 2k
/// there: its twiddles are shifts): N = 2^9 forward against rug.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn wide_lanes_multiply_by_table_twiddles() {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (wide lanes): {why}");
        return;
    }
    let field = Field::<128>::preset(gfpf_field::Preset::P128).unwrap();
    let n = 1 << 9;
    let x = gfpf_testkit::oracle::sample(&field, n, 9);
    let fft = EmulatedFft::try_new(&field, n, Direction::Forward, Order::Natural, kernel_dir()).unwrap();
    assert!(fft.plan().twiddle_table_len() > 1, "the table is used");
    let mut got = x.clone();
    gfpf_executor::Transform::process(&fft, &mut got).unwrap();
    assert!(got == gfpf_testkit::oracle::rug_radix2_fft(&field, &x));
}

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

/// The device's field product (the pointwise kernel: one element a thread
/// up to k = 16, an element over the lanes of a segment above) against
/// gfpf-cpu on every pair of edge values (0, 1, p − 1 with its top digit r,
/// r − 1, p − 2 with every digit r − 1, r^(k−1), …) and random ones, where
/// sign, carry and complement bounds are tightest.
fn pointwise_products_match_cpu_on_edge_values<const K: usize>(preset: gfpf_field::Preset) {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (emulated lane products, {}): {why}", preset.name());
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    let mut values = gfpf_testkit::oracle::sample(&field, 12, 7);
    let two = field.add(&field.one(), &field.one());
    values.push(field.sub(&field.minus_one(), &field.one()));
    values.push(field.sub(&field.minus_one(), &two));
    let (a, b): (Vec<_>, Vec<_>) = values.iter().flat_map(|x| values.iter().map(move |y| (*x, *y))).unzip();
    let (_, kernel, _) = gfpf_kernels::device_elementwise_kernels(K);
    let want = if K <= gfpf_kernels::ELEMENT_PRODUCTS_MAX_K {
        gfpf_kernels::Kernel::PointwiseMulElements
    } else {
        gfpf_kernels::Kernel::LanePointwiseMul
    };
    assert_eq!(kernel, want, "{}", preset.name());
    let mul = gfpf_testkit::emulator::EmulatedPolyMul::new(&field, kernel_dir());
    let got = mul
        .pointwise(&a, &b)
        .unwrap_or_else(|e| panic!("{}: {e}", preset.name()));
    for ((x, y), z) in a.iter().zip(&b).zip(&got) {
        assert!(*z == field.mul(x, y), "{}: {x:?} · {y:?}", preset.name());
    }
    assert!(matches!(
        mul.pointwise(&a[..2], &b[..1]),
        Err(EmulatorError::OperandLengths(2, 1))
    ));
}

#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn element_products_on_edge_values() {
    pointwise_products_match_cpu_on_edge_values::<2>(gfpf_field::Preset::T2);
    pointwise_products_match_cpu_on_edge_values::<4>(gfpf_field::Preset::T4);
    pointwise_products_match_cpu_on_edge_values::<8>(gfpf_field::Preset::T8);
    pointwise_products_match_cpu_on_edge_values::<8>(gfpf_field::Preset::P8);
    pointwise_products_match_cpu_on_edge_values::<16>(gfpf_field::Preset::T16);
}

#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn lane_products_on_edge_values_one_digit_a_lane() {
    pointwise_products_match_cpu_on_edge_values::<32>(gfpf_field::Preset::T32);
}

#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn lane_products_on_edge_values_several_digits_a_lane() {
    pointwise_products_match_cpu_on_edge_values::<64>(gfpf_field::Preset::T64);
    pointwise_products_match_cpu_on_edge_values::<128>(gfpf_field::Preset::P128);
}

/// The kernels of a modified gfpf_fft.cu for t8, or `None` (with the reason
/// printed) where no host compiler runs.
fn t8_kernels_from(source: &str, radices: &[usize], what: &str) -> Option<gfpf_testkit::emulator::HostKernels> {
    t8_kernels_switching(source, radices, what, FiberSwitch::Native)
}

/// As [`t8_kernels_from`], the fibers switched by `switch`.
fn t8_kernels_switching(
    source: &str,
    radices: &[usize],
    what: &str,
    switch: FiberSwitch,
) -> Option<gfpf_testkit::emulator::HostKernels> {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED ({what}): {why}");
        return None;
    }
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    Some(
        gfpf_testkit::emulator::HostKernels::build_from_switching(source, &field, radices, kernel_dir(), switch)
            .unwrap(),
    )
}

/// `source` with each barrier at `places` (byte offset, statement) behind a
/// switch: barrier i becomes `{ gfpf_test_reached[i] = 1; if
/// (gfpf_test_skipped_barrier != i) barrier }`, one statement still
/// wherever it stood. `int gfpf_test_skip_barrier(int i)` skips barrier i
/// (−1: none) and forgets which were reached; `int
/// gfpf_test_barrier_reached(int i)` says whether some thread reached
/// barrier i since. One library then serves every deletion, where a
/// library per deleted barrier took most of the suite's time; the tests
/// that use one hold it alone (the switch is the library's).
fn with_barrier_switch(source: &str, places: &[(usize, &str)]) -> String {
    let count = places.len();
    let mut switched = format!(
        "static int gfpf_test_skipped_barrier = -1;\n\
         static int gfpf_test_reached[{count}];\n\
         extern \"C\" int gfpf_test_skip_barrier(int i) {{\n\
             gfpf_test_skipped_barrier = i;\n\
             for (int b = 0; b < {count}; ++b) gfpf_test_reached[b] = 0;\n\
             return 0;\n\
         }}\n\
         extern \"C\" int gfpf_test_barrier_reached(int i) {{ return gfpf_test_reached[i]; }}\n"
    );
    let mut from = 0;
    for (i, &(at, barrier)) in places.iter().enumerate() {
        switched.push_str(&source[from..at]);
        switched.push_str(&format!(
            "{{ gfpf_test_reached[{i}] = 1; if (gfpf_test_skipped_barrier != {i}) {barrier} }}"
        ));
        from = at + barrier.len();
    }
    switched.push_str(&source[from..]);
    switched
}

/// Stages of stride 1 run as tiled kernels (a block's elements through
/// shared memory between two barriers), and deleting any one barrier
/// (`__syncthreads()`, or a `__syncwarp()` of a team's DFT) makes the
/// emulator fail the transform: a race on shared memory, a read of an
/// unwritten word, or results that depend on the threads' order. One
/// library serves every deletion (`with_barrier_switch`), and each deletion
/// runs the families whose kernels reach that barrier. (Named to start
/// first among the tests: its library is the suite's longest build.)
#[test]
fn barriers_each_needed_in_tiled_stages() {
    use gfpf_kernels::{FFT_SOURCE, Kernel};
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    // 16·16·8: the teams of DFT_8 and DFT_16 span warps (they meet at
    // __syncthreads); 16·16·4 below: DFT_4's fill one (at __syncwarp).
    let n = 1 << 11;
    for order in [Order::Natural, Order::DigitReversed] {
        let plan = gfpf_plan::Plan::try_new(n, 8, Direction::Forward, order).unwrap();
        let launches = gfpf_cuda::params::launches_with(&plan, 2, StageKernels::TiledStrideOne);
        assert!(
            launches.iter().any(|l| matches!(l.kernel, Kernel::TiledDft { .. })),
            "{order:?}: {:?}",
            launches.iter().map(|l| l.kernel).collect::<Vec<_>>()
        );
    }
    // Only the base sizes the transforms use.
    let quarter = 1 << 10;
    let mut radices = Vec::new();
    for size in [n, quarter] {
        let plan = gfpf_plan::Plan::try_new(size, 8, Direction::Forward, Order::Natural).unwrap();
        for radix in gfpf_cuda::params::radices_used(&plan) {
            if !radices.contains(&radix) {
                radices.push(radix);
            }
        }
    }
    assert!(radices.contains(&4), "{radices:?}");
    // The barriers, and each place where a team of segments meets (a
    // __syncthreads or a __syncwarp, by whether it spans warps).
    let mut places: Vec<(usize, &str)> = ["__syncthreads();", "__syncwarp();", "gfpf_team_meet<Tile>();"]
        .into_iter()
        .flat_map(|barrier| FFT_SOURCE.match_indices(barrier))
        .collect();
    places.sort();
    assert!(
        places.len() >= 5,
        "two barriers in each tiled kernel, one between layers"
    );
    let source = with_barrier_switch(FFT_SOURCE, &places);
    // And 16^3, whose stages of strides 16 and 256 are one launch of two,
    // with teams of threads (Kernel::ElementTeamPairMma in time in natural
    // order and in frequency in digit-reversed order, both stages'
    // twiddles on the tensor cores) and of segments (Kernel::TeamPair).
    let paired = 1 << 12;
    for (order, want) in [
        (
            Order::Natural,
            Kernel::ElementTeamPairMma {
                radix: 16,
                in_time: true,
                both_stages: true,
            },
        ),
        (
            Order::DigitReversed,
            Kernel::ElementTeamPairMma {
                radix: 16,
                in_time: false,
                both_stages: true,
            },
        ),
    ] {
        let pair_plan = gfpf_plan::Plan::try_new(paired, 8, Direction::Forward, order).unwrap();
        // Where the pair keeps its own column and row twiddles; by default
        // the stride-1 stage beside it takes them, and it keeps B alone.
        for (fold, want) in [
            (false, want),
            (
                true,
                Kernel::ElementTeamPairRowsMma {
                    radix: 16,
                    in_time: order == Order::Natural,
                },
            ),
        ] {
            let device = gfpf_cuda::params::DeviceShape {
                fold_pair_twiddles: fold,
                ..gfpf_cuda::params::DeviceShape::H100
            };
            let kernels: Vec<Kernel> =
                gfpf_cuda::params::launches_with_on(&pair_plan, 2, StageKernels::ElementTeams, &device)
                    .iter()
                    .map(|l| l.kernel)
                    .collect();
            assert!(
                kernels.contains(&want),
                "two stages a launch at 2^12, {order:?}, folded {fold}: {kernels:?}"
            );
        }
    }
    let pair_plan = gfpf_plan::Plan::try_new(paired, 8, Direction::Forward, Order::Natural).unwrap();
    assert!(
        gfpf_cuda::params::launches_with(&pair_plan, 2, StageKernels::DftTeams)
            .iter()
            .any(|l| matches!(l.kernel, Kernel::TeamPair { .. })),
        "two stages a launch at 2^12, teams of segments"
    );
    // The transforms: 2^11 and 2^12 in natural order, and 2^12 in
    // digit-reversed order (decimation in frequency: twiddled outputs);
    // the inverse of 2^10, whose scale by N^{-1} runs on the tensor cores
    // (Kernel::ScaleMma), or without them one element a thread
    // (Kernel::ScaleElements).
    // And 2^12 once more on −1 then zeros, whose stages' elements are all
    // −1 (the second transform's 0): the tensor cores' products by 1 give
    // −1 (top digit r), which the products' close in registers leaves open
    // (t8: the sets' rare close in shared memory).
    // And the stride-1 stages that take a pair's column and row twiddles on
    // the tensor cores (Kernel::ElementTeamDftMma): 2^16 in natural order
    // (in time, after its DFTs) and sixteen 2^12 to digit-reversed order
    // (in frequency, before them). (N, order, direction, transforms.)
    let sizes = [
        (n, Order::Natural, Direction::Forward, 2),
        (paired, Order::Natural, Direction::Forward, 2),
        (paired, Order::DigitReversed, Direction::Forward, 2),
        (quarter, Order::Natural, Direction::Forward, 2),
        (quarter, Order::Natural, Direction::Inverse, 2),
        (paired, Order::Natural, Direction::Forward, 2),
        (1 << 16, Order::Natural, Direction::Forward, 1),
        (paired, Order::DigitReversed, Direction::Forward, 16),
    ];
    let mut inputs = sizes.map(|(n, _, _, count)| gfpf_testkit::oracle::sample(&field, count * n, 9));
    inputs[5] = vec![field.zero(); 2 * paired];
    inputs[5][0] = field.minus_one();
    let wants = [0, 1, 2, 3, 4, 5, 6, 7].map(|i| {
        let mut x = inputs[i].clone();
        let (n, order, direction, _) = sizes[i];
        gfpf_cpu::CpuFft::try_new(&field, n, direction, order)
            .unwrap()
            .process(&mut x)
            .unwrap();
        x
    });
    // Held for the whole test: every run below loads the same library, and
    // its switch lives as long as one handle stays open.
    let Some(library) = t8_kernels_from(&source, &radices, "tiled kernels") else {
        return;
    };
    let skip = |i: i32| {
        // SAFETY: with_barrier_switch defines int gfpf_test_skip_barrier(int).
        unsafe { library.call_with_int("gfpf_test_skip_barrier", i) }.unwrap();
    };
    let reached = |i: usize| {
        // SAFETY: with_barrier_switch defines int gfpf_test_barrier_reached(int).
        unsafe { library.call_with_int("gfpf_test_barrier_reached", i as i32) }.unwrap() != 0
    };
    // Every tiled family: one thread per DFT, a segment per DFT, teams of
    // segments and teams of threads on whole elements (the device's at k ≤ 16).
    // (family, which size, tensor-core twiddle tables split in two: a
    // device whose bound, 128, the 2^12 pair's 256 (c, lo) tables exceed,
    // tensor cores: without, the inverse's scale runs one element a thread
    // on the threads, Kernel::ScaleElements; the pair's column and row
    // twiddles taken by the stride-1 stage beside it, as by default, or
    // the pair's own)
    let families = [
        (StageKernels::TiledStrideOne, 0, false, true, true),
        (StageKernels::DigitsOverLanes, 0, false, true, true),
        (StageKernels::DftTeams, 0, false, true, true),
        (StageKernels::ElementTeams, 0, false, true, true),
        (StageKernels::ElementTeams, 1, false, true, false),
        (StageKernels::ElementTeams, 1, false, true, true),
        (StageKernels::ElementTeams, 1, true, true, true),
        (StageKernels::ElementTeams, 2, false, true, false),
        (StageKernels::ElementTeams, 2, false, true, true),
        (StageKernels::DftTeams, 1, false, true, true),
        (StageKernels::DftTeams, 2, false, true, true),
        (StageKernels::DftTeams, 3, false, true, true),
        (StageKernels::ElementTeams, 4, false, true, true),
        (StageKernels::ElementTeams, 4, false, false, true),
        (StageKernels::ElementTeams, 5, false, true, false),
        (StageKernels::ElementTeams, 5, false, true, true),
        (StageKernels::ElementTeams, 6, false, true, true),
        (StageKernels::ElementTeams, 7, false, true, true),
    ];
    let run = |(family, size, split, tensor_cores, fold): (StageKernels, usize, bool, bool, bool)| {
        let kernels = t8_kernels_from(&source, &radices, "tiled kernels").unwrap();
        let (n, order, direction, _) = sizes[size];
        let device = gfpf_cuda::params::DeviceShape {
            tensor_twiddles_max: if split {
                128
            } else {
                gfpf_cuda::params::TENSOR_TWIDDLES_MAX
            },
            tensor_streamed_twiddles_max: if split {
                0
            } else {
                gfpf_cuda::params::TENSOR_STREAMED_TWIDDLES_MAX
            },
            tensor_cores,
            fold_pair_twiddles: fold,
            ..gfpf_cuda::params::DeviceShape::H100
        };
        let fft = EmulatedFft::with_kernels(&field, n, direction, order, kernels)
            .unwrap()
            .with_stage_kernels(family)
            .on_device(device);
        let mut x = inputs[size].clone();
        gfpf_executor::Transform::process(&fft, &mut x).map(|()| x)
    };
    // With every barrier kept: each family agrees with gfpf-cpu, and the
    // barriers its kernels reach.
    let reaching: Vec<Vec<usize>> = families
        .iter()
        .map(|&case| {
            skip(-1);
            assert!(
                run(case).unwrap() == wants[case.1],
                "{case:?}: the tiled kernels agree with gfpf-cpu"
            );
            (0..places.len()).filter(|&i| reached(i)).collect()
        })
        .collect();
    for (i, &(_, barrier)) in places.iter().enumerate() {
        // The families that reach it (one that does not cannot notice).
        let reach: Vec<usize> = (0..families.len()).filter(|&f| reaching[f].contains(&i)).collect();
        assert!(
            !reach.is_empty(),
            "barrier {i} ({barrier}) is in no kernel that a family here runs"
        );
        skip(i as i32);
        // The first family that notices is enough.
        let noticed = reach
            .iter()
            .map(|&f| families[f])
            .find_map(|case| match run(case) {
                Err(e @ (EmulatorError::Kernel(_) | EmulatorError::ScheduleDependent { .. })) => {
                    Some(format!("{case:?}: {e}"))
                }
                Ok(x) if x == wants[case.1] => None,
                other => panic!("barrier {i} ({barrier}) skipped, {case:?}: {other:?}"),
            })
            .unwrap_or_else(|| panic!("barrier {i} ({barrier}) skipped, and the emulator did not notice"));
        eprintln!("barrier {i} ({barrier}) skipped: {noticed}");
    }
    // And kept again, the library agrees once more (the switch was the cause).
    skip(-1);
    assert!(run((StageKernels::ElementTeams, 1, true, true, true)).unwrap() == wants[1]);
}

/// The t8 test kernels, `(name, source)`: each source defines
/// `gfpf_test_body` and launches it as `GFPF_BLOCK_KERNEL(gfpf_test_kernel,
/// gfpf_test_body)`, which `t8_test_kernels` renames.
fn t8_test_kernel_sources() -> Vec<(&'static str, String)> {
    let mut sources = vec![
        ("gfpf_test_warp_collectives", WARP_COLLECTIVES_KERNEL.to_owned()),
        ("gfpf_test_element_team_edges", element_team_edges_kernel()),
        ("gfpf_test_lane_edges", lane_edges_kernel()),
        ("gfpf_test_shared_twiddles", shared_twiddles_kernel(4)),
        ("gfpf_test_shared_twiddles16", shared_twiddles_kernel(16)),
        ("gfpf_test_divergent_warp", DIVERGENT_WARP_KERNEL.to_owned()),
        ("gfpf_test_shared_banks", SHARED_BANKS_KERNEL.to_owned()),
        ("gfpf_test_shared_skipped", SHARED_SKIPPED_KERNEL.to_owned()),
        ("gfpf_test_pair_teams_banks", pair_teams_banks_kernel(true)),
        ("gfpf_test_pair_teams_banks_x_first", pair_teams_banks_kernel(false)),
        ("gfpf_test_pair_members_banks", PAIR_MEMBERS_BANKS_KERNEL.to_string()),
    ];
    for (name, body, _) in BROKEN_KERNELS {
        sources.push((
            name,
            format!("{body}\nGFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)"),
        ));
    }
    sources
}

/// Every t8 test kernel appended to gfpf_fft.cu in one library, each in a
/// namespace of its own (a library a kernel took a compile each, 1.5 s of
/// the suite's CPU apiece), its fibers switched by `switch`; `None` (the
/// reason printed) where no host compiler runs.
fn t8_test_kernels(switch: FiberSwitch) -> Option<&'static gfpf_testkit::emulator::HostKernels> {
    type Library = std::sync::OnceLock<Option<gfpf_testkit::emulator::HostKernels>>;
    static NATIVE: Library = std::sync::OnceLock::new();
    static PORTABLE: Library = std::sync::OnceLock::new();
    let library = match switch {
        FiberSwitch::Native => &NATIVE,
        FiberSwitch::Portable => &PORTABLE,
    };
    library
        .get_or_init(|| {
            let mut source = format!("{}\n", gfpf_kernels::FFT_SOURCE);
            for (name, kernel) in t8_test_kernel_sources() {
                let kernel = kernel.replace(
                    "GFPF_BLOCK_KERNEL(gfpf_test_kernel,",
                    &format!("GFPF_BLOCK_KERNEL({name},"),
                );
                assert!(kernel.contains(name), "{name}: its source launches gfpf_test_body");
                source.push_str(&format!("namespace {name}_source {{\n{kernel}\n}}\n#undef E\n"));
            }
            // One base size: the test kernels need none of the codelets.
            t8_kernels_switching(&source, &[2], "test kernels", switch)
        })
        .as_ref()
}

/// Test kernel `name` (of `t8_test_kernel_sources`) launched over `threads`
/// threads in blocks of `block`; the words it wrote to its output (`words`
/// long).
fn run_test_kernel(name: &str, threads: u64, block: u32, words: usize) -> Option<Result<Vec<u64>, EmulatorError>> {
    run_test_kernel_switching(FiberSwitch::Native, name, threads, block, words)
}

/// As [`run_test_kernel`], the fibers switched by `switch`.
fn run_test_kernel_switching(
    switch: FiberSwitch,
    name: &str,
    threads: u64,
    block: u32,
    words: usize,
) -> Option<Result<Vec<u64>, EmulatorError>> {
    run_test_kernel_on_switching(switch, name, threads, block, vec![0u64; words])
}

/// As [`run_test_kernel_switching`], on a buffer the kernel reads as well
/// (its inputs).
fn run_test_kernel_on_switching(
    switch: FiberSwitch,
    name: &str,
    threads: u64,
    block: u32,
    mut buffer: Vec<u64>,
) -> Option<Result<Vec<u64>, EmulatorError>> {
    let kernels = t8_test_kernels(switch)?;
    let words = buffer.len();
    let (_, mut params) = gfpf_cuda::params::pointwise_mul(8, buffer.as_mut_ptr() as u64, 0, words);
    params.threads = threads;
    // SAFETY: the test kernels read and write at most `words` words of
    // `buffer`, and nothing else.
    Some(unsafe { kernels.launch_symbol(name, &params, block, 0, false) }.map(|_| buffer))
}

/// The kernel of `a_divergent_warp_runs_both_branches`: in warp 0, lane 0
/// counts a product and the other lanes two butterflies; in warp 1 every
/// lane one butterfly.
const DIVERGENT_WARP_KERNEL: &str = r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams&) {
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (warp == 0 && lane == 0) {
        GFPF_COUNT_OP(GFPF_OP_TILE_MUL);
    } else if (warp == 0) {
        GFPF_COUNT_OP(GFPF_OP_TILE_ADD_SUB);
        GFPF_COUNT_OP(GFPF_OP_TILE_ADD_SUB);
    } else {
        GFPF_COUNT_OP(GFPF_OP_TILE_ADD_SUB);
    }
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#;

/// Test kernel `name` over `threads` threads in one block, its traffic and
/// operations counted, on a buffer of `words` zeros it may write; `None`
/// where no host compiler runs.
fn counted_test_kernel(
    name: &str,
    threads: u32,
    words: usize,
) -> Option<(gfpf_testkit::emulator::LaunchTraffic, Vec<u64>)> {
    counted_test_kernel_on(name, threads, vec![0u64; words])
}

/// [`counted_test_kernel`] on `buffer`, which the kernel may read and
/// write.
fn counted_test_kernel_on(
    name: &str,
    threads: u32,
    mut buffer: Vec<u64>,
) -> Option<(gfpf_testkit::emulator::LaunchTraffic, Vec<u64>)> {
    let kernels = t8_test_kernels(FiberSwitch::Native)?;
    let words = buffer.len();
    let (_, mut params) = gfpf_cuda::params::pointwise_mul(8, buffer.as_mut_ptr() as u64, 0, words);
    params.threads = u64::from(threads);
    // SAFETY: the counted test kernels read and write at most `words` words
    // of `buffer`.
    let traffic = unsafe { kernels.launch_symbol(name, &params, threads, 0, true) }.unwrap();
    Some((traffic, buffer))
}

/// The counts a warp's path takes: a warp runs every branch any of its
/// lanes takes, so its path holds warp 0's product (lane 0's) and its two
/// butterflies (the other lanes'), where the busiest thread ran only the
/// butterflies; the warps issue one product and three butterflies, the
/// threads run 94.
#[test]
fn a_divergent_warp_runs_both_branches() {
    let Some((traffic, _)) = counted_test_kernel("gfpf_test_divergent_warp", 64, 1) else {
        return;
    };
    assert_eq!((traffic.ops.tile_mul, traffic.ops.tile_add_sub), (1, 94));
    assert_eq!((traffic.warp_ops.tile_mul, traffic.warp_ops.tile_add_sub), (1, 3));
    assert_eq!((traffic.path_ops.tile_mul, traffic.path_ops.tile_add_sub), (1, 2));
}

/// A warp's tensor-core products stage their tables with rows 80 bytes
/// apart (`GFPF_SHARED_TWIDDLE_ROW_WORDS`), so that the 16-byte reads of a
/// set's lanes, up to 11 of a table's rows at once, fall in different
/// banks but for rows δ and δ + 8, and each of a table's four stores
/// (two rows of device memory a lane, each as it is and complemented:
/// `gfpf_shared_twiddle_row`) puts at most two words on a bank pair: one
/// warp's products of random elements by 8 random twiddles take 416
/// wavefronts for 192 accesses (the conflict-free count is 384, most of it
/// the table's 8-byte reads at two wavefronts each). On zeros, and with
/// the elements closed in shared memory (16 accesses a lane more), they
/// took 452 for 210, where stores of four neighbouring rows took 476 and
/// rows 64 bytes apart 964.
#[test]
fn tensor_core_tables_are_staged_across_the_banks() {
    // Random values, their products checked against gfpf-cpu: the counts of
    // the common path (zeros would be left open by the close in registers
    // and closed again in shared memory).
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let xs = gfpf_testkit::oracle::sample(&field, 8 + 32, 33).split_off(8);
    let twiddles = gfpf_testkit::oracle::sample(&field, 8 + 8, 34).split_off(8);
    let mut buffer = vec![0u64; 1474];
    buffer[1473] = 8;
    for (m, x) in xs.iter().enumerate() {
        buffer[8 * m..8 * m + 8].copy_from_slice(x.digits());
    }
    buffer[256..768].copy_from_slice(&gfpf_kernels::tensor::shared_twiddle_tables(&field, &twiddles).unwrap());
    let Some((traffic, out)) = counted_test_kernel_on("gfpf_test_shared_twiddles", 32, buffer) else {
        return;
    };
    for (m, x) in xs.iter().enumerate() {
        assert_eq!(
            out[1216 + 8 * m..1216 + 8 * m + 8],
            field.mul(x, &twiddles[m / 4]).digits()[..]
        );
    }
    assert_eq!(
        (
            traffic.shared_requests,
            traffic.shared_ideal_wavefronts,
            traffic.shared_wavefronts
        ),
        (192, 384, 416),
        "the staged tables' rows share banks"
    );
}

/// Sixteen lanes a twiddle (two sets of eight columns at once,
/// `gfpf_tile_mul_shared_twiddles<16>`) read each table once for
/// sixteen products where sets of eight read it twice: one warp's 32
/// products of random elements by random twiddles, with the test kernel's
/// own 16 loads and stores a lane, take 72 accesses and 176 wavefronts (144
/// conflict-free: the test kernel's places, slots 5m + 3 with planes 37
/// words apart, put some digits' loads on one bank pair, where the pair
/// tiles' take none: `gpu-model --transform t8:20 --sites`), where four
/// lanes a twiddle take 192 and 416
/// (`tensor_core_tables_are_staged_across_the_banks`). (With the twiddle
/// as the B operand and the elements as A's rows, 72 and 160.)
#[test]
fn sixteen_lanes_a_twiddle_read_each_table_once() {
    // Random values, their products checked against gfpf-cpu: the counts of
    // the common path (a zero element, or −1, is left open by the close in
    // registers and closed again in shared memory, reading and writing
    // more).
    // (oracle::sample's values past its eight edge values.)
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let xs = gfpf_testkit::oracle::sample(&field, 8 + 32, 31).split_off(8);
    let twiddles = gfpf_testkit::oracle::sample(&field, 8 + 8, 32).split_off(8);
    let mut buffer = vec![0u64; 1474];
    buffer[1473] = 8;
    for (m, x) in xs.iter().enumerate() {
        buffer[8 * m..8 * m + 8].copy_from_slice(x.digits());
    }
    buffer[256..768].copy_from_slice(&gfpf_kernels::tensor::shared_twiddle_tables(&field, &twiddles).unwrap());
    let Some((rows, out)) = counted_test_kernel_on("gfpf_test_shared_twiddles16", 32, buffer) else {
        return;
    };
    for (m, x) in xs.iter().enumerate() {
        assert_eq!(
            out[1216 + 8 * m..1216 + 8 * m + 8],
            field.mul(x, &twiddles[m / 16]).digits()[..]
        );
    }
    assert_eq!(rows.ops.tile_mul_shared16, 32);
    assert_eq!(
        (
            rows.ops.shared_words,
            rows.shared_requests,
            rows.shared_ideal_wavefronts,
            rows.shared_wavefronts
        ),
        (2288, 72, 144, 176)
    );
}

/// The kernel of `shared_accesses_take_their_banks_wavefronts`: one warp
/// writes 17 rows of 32 words (8 bytes each), then reads word l (lane l),
/// word 0 (every lane), word 16·l and word 17·l, and lanes 0..15 word l.
const SHARED_BANKS_KERNEL: &str = r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {
    GFPF_SHARED_ARRAY(gfpf_u64, tile, 17 * 32);
    gfpf_u64* out = (gfpf_u64*)p.dst;
    const unsigned l = threadIdx.x;
    for (int j = 0; j < 17; ++j) tile[j * 32 + l] = j * 32 + l;
    __syncwarp();
    const gfpf_u64 own = tile[l], first = tile[0], strided = tile[16 * l], odd = tile[17 * l];
    gfpf_u64 half = 0;
    if (l < 16) half = tile[l];
    out[l] = own + first + strided + odd + half;
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#;

/// Shared-memory accesses take the wavefronts the device's 32 banks of 4
/// bytes need: a row of consecutive 8-byte words two (each bank holds two
/// of their 4-byte halves), one word read by every lane one (a
/// broadcast: the lanes' registers pack two to one), words 16·l (128
/// bytes apart, all in banks 0 and 1) 32, an odd stride 17·l two; and
/// half a warp's 8-byte words, which its banks serve at once, two, as the
/// crossbar moves one 32-bit register of every lane a wavefront.
#[test]
fn shared_accesses_take_their_banks_wavefronts() {
    let Some((traffic, buffer)) = counted_test_kernel("gfpf_test_shared_banks", 32, 32) else {
        return;
    };
    // Word w holds w: l, 0, 16·l, 17·l and (lanes 0..15) l summed.
    let expected: Vec<u64> = (0..32).map(|l| 34 * l + if l < 16 { l } else { 0 }).collect();
    assert_eq!(buffer, expected);
    assert_eq!(traffic.shared_requests, 17 + 5);
    assert_eq!(traffic.shared_wavefronts, 17 * 2 + 2 + 1 + 32 + 2 + 2);
    assert_eq!(traffic.shared_ideal_wavefronts, 17 * 2 + 2 + 1 + 2 + 2 + 2);
}

/// The kernel of `pair_teams_load_two_to_a_bank_pair`: one warp of the
/// DFT_16 pair tile's first super-DFT, its four teams on rows 0, 5, 10 and
/// 15 (the plain pairs' places q = 4b + b for a super-DFT's first warp;
/// the tensor cores' pairs lay their teams out across warps,
/// `pair_members_load_two_to_a_bank_pair`), one DFT_16
/// of zeros each (`gfpf_element_team_dft`, plain); with `y_first` false
/// the same layers with every butterfly's sum loading x first.
fn pair_teams_banks_kernel(y_first: bool) -> String {
    let dft = if y_first {
        "gfpf_element_team_dft<Tile, 16, GFPF_PLAIN>(p, tile, own, 1, member, (gfpf_u64)0, true);"
    } else {
        r#"for (int h = 8; h >= 1; h /= 2) {
        const int j = member & (h - 1), i0 = 2 * (member - j) + j, i1 = i0 + h;
        if (h > 1) {
            gfpf_tile_add_sub_mul_pow_r(tile, own + i0, own + i1, Tile::plane, j * (GFPF_K / h));
        } else {
            gfpf_tile_add_sub(tile, own + i0, own + i1, Tile::plane);
        }
        __syncwarp();
    }"#
    };
    format!(
        r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {{
    using Tile = GfpfElementTeamPairTile<16>;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, Tile::scratch);
    for (int w = threadIdx.x; w < Tile::scratch; w += 32) tile[w] = 0;
    __syncwarp();
    const int b = threadIdx.x / 8, member = threadIdx.x % 8;
    const int own = Tile::at(0, 4 * b + b, 0);
    {dft}
}}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#
    )
}

/// A warp of the DFT_16 pair tile's teams (its rows 17 words apart, digit
/// planes 3 modulo the 16 bank pairs apart) loads each butterfly's sum y
/// first where x's bank pair has the layer's bit set, in its third and
/// fourth teams where clear: each of those loads falls two to a bank pair
/// where four teams' x (or y) put up to three. The layers' accesses take
/// 286 wavefronts where loading x first takes 318 (256 the conflict-free
/// count: the sums' stores and the difference's shifted ones keep theirs),
/// beside the 554 of zeroing the tile. (Planes 5 apart, 300 and 332; with
/// the difference made from rotated loads and the sum's loaded again, 424,
/// 460 and 364.)
#[test]
fn pair_teams_load_two_to_a_bank_pair() {
    let Some((oriented, _)) = counted_test_kernel("gfpf_test_pair_teams_banks", 32, 1) else {
        return;
    };
    let (x_first, _) = counted_test_kernel("gfpf_test_pair_teams_banks_x_first", 32, 1).unwrap();
    assert_eq!(oriented.shared_requests, x_first.shared_requests);
    assert_eq!(oriented.shared_ideal_wavefronts, x_first.shared_ideal_wavefronts);
    assert_eq!(
        (
            oriented.shared_wavefronts,
            x_first.shared_wavefronts,
            oriented.shared_ideal_wavefronts
        ),
        (554 + 286, 554 + 318, 554 + 256)
    );
}

/// The kernel of `pair_members_load_two_to_a_bank_pair`: one warp of the
/// DFT_16 pair tile as `gfpf_pair_stage` lays out its teams' members, lane
/// l on DFT l mod 16 of super-DFT l / 16, each member in turn (a warp of
/// the kernels runs one), both stages' DFTs (rows, then columns at their
/// bit-reversed places), of zeros.
const PAIR_MEMBERS_BANKS_KERNEL: &str = r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {
    using Tile = GfpfElementTeamPairTile<16>;
    static_assert(Tile::uniform_members, "a warp's lanes on DFTs of their own");
    GFPF_SHARED_ARRAY(gfpf_u64, tile, Tile::scratch);
    for (int w = threadIdx.x; w < Tile::scratch; w += 32) tile[w] = 0;
    __syncthreads();
    const int g = threadIdx.x / 16, q = threadIdx.x % 16;
    for (int member = 0; member < 8; ++member) {
        gfpf_element_team_dft<Tile, 16, GFPF_PLAIN, true, 8>(p, tile, Tile::at(g, q, 0), 1, member, (gfpf_u64)0,
                                                             true);
        __syncthreads();
        gfpf_element_team_dft<Tile, 16, GFPF_PLAIN, true, 8>(p, tile, Tile::at(g, 0, gfpf_bit_reverse<16>(q)),
                                                             Tile::row, member, (gfpf_u64)0, true);
        __syncthreads();
    }
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#;

/// A warp whose lanes take DFTs of their own (16 of a super-DFT, 17 words
/// or 1 apart, then 16 of the next, 4 bank pairs on) and one member of
/// their teams, as the pair stages lay them out: every butterfly's loads
/// and stores, in both stages, fall two to a bank pair, the wavefronts the
/// conflict-free count (the layout of `pair_teams_load_two_to_a_bank_pair`
/// took 286 where 256).
#[test]
fn pair_members_load_two_to_a_bank_pair() {
    let Some((traffic, _)) = counted_test_kernel("gfpf_test_pair_members_banks", 32, 1) else {
        return;
    };
    // Each member's two stages of four layers, a butterfly at least 32
    // accesses, beside the zeroing's.
    assert!(traffic.shared_requests > 8 * 2 * 4 * 32, "{traffic:?}");
    assert_eq!(
        traffic.shared_wavefronts, traffic.shared_ideal_wavefronts,
        "{traffic:?}"
    );
}

/// Built with line tables, the emulator counts a launch's shared accesses
/// by source line, and they add up to the launch's: the kernel of
/// `shared_accesses_take_their_banks_wavefronts`, its lines 6 (17 rows of
/// stores), 8 (four loads, the strided one 32 wavefronts) and 10 (half a
/// warp's load).
#[test]
fn shared_accesses_are_counted_by_source_line() {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (shared accesses by line): {why}");
        return;
    }
    if std::process::Command::new("addr2line")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED (shared accesses by line): no addr2line (binutils) to name the lines");
        return;
    }
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let source = format!(
        "{}\n#line 1 \"banks_test.cu\"\n{SHARED_BANKS_KERNEL}",
        gfpf_kernels::FFT_SOURCE
    );
    let kernels =
        gfpf_testkit::emulator::HostKernels::build_from_with_line_tables(&source, &field, &[2], kernel_dir()).unwrap();
    let mut buffer = vec![0u64; 32];
    let (_, mut params) = gfpf_cuda::params::pointwise_mul(8, buffer.as_mut_ptr() as u64, 0, 32);
    params.threads = 32;
    // SAFETY: the kernel writes the 32 words of `buffer` and nothing else.
    let traffic = unsafe { kernels.launch_symbol("gfpf_test_kernel", &params, 32, 0, true) }.unwrap();
    let sites = kernels.take_shared_sites().unwrap();
    let counts: Vec<(&str, u32, u64, u64, u64)> = sites
        .iter()
        .map(|s| (s.file.as_str(), s.line, s.requests, s.wavefronts, s.ideal_wavefronts))
        .collect();
    assert_eq!(
        counts,
        [
            ("banks_test.cu", 8, 4, 2 + 1 + 32 + 2, 2 + 1 + 2 + 2),
            ("banks_test.cu", 6, 17, 34, 34),
            ("banks_test.cu", 10, 1, 2, 2),
        ]
    );
    assert_eq!(
        sites.iter().map(|s| s.wavefronts).sum::<u64>(),
        traffic.shared_wavefronts
    );
    // Taken: the next call has none.
    assert!(kernels.take_shared_sites().unwrap().is_empty());
}

/// The kernel of `a_skipped_shared_access_is_its_own_instruction`: one
/// warp writes 64 words, then lanes 0..15 read word 2·l and every lane
/// word 2·l + 1, without meeting between.
const SHARED_SKIPPED_KERNEL: &str = r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {
    GFPF_SHARED_ARRAY(gfpf_u64, tile, 64);
    gfpf_u64* out = (gfpf_u64*)p.dst;
    const unsigned l = threadIdx.x;
    tile[l] = l;
    tile[32 + l] = 32 + l;
    __syncwarp();
    gfpf_u64 even = 0;
    if (l < 16) even = tile[2 * l];
    const gfpf_u64 odd = tile[2 * l + 1];
    out[l] = even + odd;
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#;

/// A shared access that some lanes skip is its own instruction, as on the
/// device: lanes 0..15's reads of words 2·l (each bank pair of the even
/// ones twice) take two wavefronts, every lane's of words 2·l + 1 (each
/// odd bank pair four times) four. Counted as the n-th access of each
/// lane, lanes 16..31's odd words would share the first access with lanes
/// 0..15's even ones, and the two take four wavefronts where the device
/// takes six.
#[test]
fn a_skipped_shared_access_is_its_own_instruction() {
    let Some((traffic, buffer)) = counted_test_kernel("gfpf_test_shared_skipped", 32, 32) else {
        return;
    };
    let expected: Vec<u64> = (0..32).map(|l| if l < 16 { 4 * l + 1 } else { 2 * l + 1 }).collect();
    assert_eq!(buffer, expected);
    assert_eq!(traffic.shared_requests, 2 + 2);
    assert_eq!(traffic.shared_wavefronts, 2 + 2 + 2 + 4);
}

/// The kernel of `tensor_core_products_by_shared_twiddles_match_the_cpu`:
/// `gfpf_tile_mul_shared_twiddles<SHARED_BY>` over one warp, x_m·w_t for 32
/// elements in a tile of digit planes 37 words apart, t = (m / SHARED_BY +
/// o) mod 8, lane m's element at slot 5m + 3 mod 32 (so that a lane's
/// element is not its index).
///
/// The buffer: x (32 elements of 8 digits) at words 0..256, the 8
/// twiddles' tables (gfpf_kernels::tensor::shared_twiddle_tables) at
/// 256..768, x_m·w_t
/// at 1216..1472, o at 1472, and at 1473 the twiddle the kernel says is 1
/// (its products skipped), or 8 for none.
fn shared_twiddles_kernel(shared_by: usize) -> String {
    r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {
    gfpf_u64* buffer = (gfpf_u64*)p.dst;
    const unsigned lane = threadIdx.x & 31;
    const int plane = 37, slot = (5 * lane + 3) % 32;
    GFPF_SHARED_ARRAY(gfpf_u64, tile, 37 * GFPF_K);
    GFPF_SHARED_ARRAY(gfpf_u64, staging, 2 * GFPF_SHARED_TWIDDLE_STAGED_WORDS);
    for (int t = 0; t < GFPF_K; ++t) tile[slot + t * plane] = GFPF_GLOBAL_READ(buffer, GFPF_K * lane + t);
    const unsigned twiddle = (lane / SHARED_BY + (unsigned)GFPF_GLOBAL_READ(buffer, 1472)) % 8;
    __syncwarp();
    // (The rows alone take GFPF_TWIDDLE_ONE.)
    const bool one = SHARED_BY == 16 && twiddle == (unsigned)GFPF_GLOBAL_READ(buffer, 1473);
    gfpf_tile_mul_shared_twiddles<SHARED_BY>(tile, slot, plane, buffer + 256, one ? GFPF_TWIDDLE_ONE : twiddle, staging, 0);
    __syncwarp();
    for (int t = 0; t < GFPF_K; ++t) GFPF_GLOBAL_WRITE(buffer, 1216 + GFPF_K * lane + t, (gfpf_u64)tile[slot + t * plane]);
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#
    .replace("SHARED_BY", &shared_by.to_string())
}

/// Products by twiddles that four or sixteen elements each share, on the
/// tensor cores (`gfpf_tile_mul_shared_twiddles`, [`shared_twiddles_kernel`]:
/// sets of eight columns, and the twiddle as B with sixteen elements as
/// rows), against gfpf-cpu: 32 elements (0, 1, p − 1 with its top digit r,
/// r − 1, r, r^7, p − 2 among them) by 8 twiddles (1, p − 1, r, r^7 and
/// random ones), in launches that rotate the elements (and with sixteen
/// lanes a twiddle, the twiddles) so that each element meets every
/// twiddle.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn tensor_core_products_by_shared_twiddles_match_the_cpu() {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (tensor-core products): {why}");
        return;
    }
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let mut xs = vec![
        field.from_u64(0),
        field.one(),
        field.minus_one(),
        field.from_u64(field.r() - 1),
        field.r_element(),
        field.mul_pow_r(&field.one(), 7),
        field.sub(&field.minus_one(), &field.one()),
    ];
    xs.extend(gfpf_testkit::oracle::sample(&field, 25, 21));
    let mut twiddles = vec![
        field.one(),
        field.minus_one(),
        field.r_element(),
        field.mul_pow_r(&field.one(), 7),
    ];
    twiddles.extend(gfpf_testkit::oracle::sample(&field, 4, 22));
    // (kernel, lanes a twiddle, twiddle offsets, the tables as it reads
    // them): sixteen lanes take two twiddles a launch, so four offsets meet
    // all eight.
    let kernels = [
        (
            "gfpf_test_shared_twiddles",
            4,
            0..1,
            gfpf_kernels::tensor::shared_twiddle_tables(&field, &twiddles).unwrap(),
        ),
        (
            "gfpf_test_shared_twiddles16",
            16,
            0..4,
            gfpf_kernels::tensor::shared_twiddle_tables(&field, &twiddles).unwrap(),
        ),
    ];
    // The matrix products are warp collectives: with either fiber switch.
    for (switch, (kernel, shared_by, offsets, tables)) in [FiberSwitch::Native, FiberSwitch::Portable]
        .into_iter()
        .flat_map(|switch| kernels.clone().into_iter().map(move |k| (switch, k)))
    {
        // Twiddle 0 is 1: told so (its products skipped) or not (the tensor
        // cores multiply by 1, and −1 then borrows past digit 1).
        let cases = (0..8).flat_map(|r| offsets.clone().map(move |o| (r, 2 * o)));
        for (told, (rotation, offset)) in [0u64, 8].into_iter().flat_map(|t| cases.clone().map(move |c| (t, c))) {
            let mut buffer = vec![0u64; 1474];
            for m in 0..32 {
                buffer[8 * m..8 * m + 8].copy_from_slice(xs[(m + 4 * rotation) % 32].digits());
            }
            buffer[256..768].copy_from_slice(&tables);
            buffer[1472] = offset as u64;
            buffer[1473] = told;
            let Some(out) = run_test_kernel_on_switching(switch, kernel, 32, 32, buffer) else {
                return;
            };
            let out = out.unwrap_or_else(|e| panic!("{kernel}, {switch:?}, rotation {rotation}, told {told}: {e}"));
            for m in 0..32 {
                let (x, w) = (&xs[(m + 4 * rotation) % 32], &twiddles[(m / shared_by + offset) % 8]);
                assert_eq!(
                    out[1216 + 8 * m..1216 + 8 * m + 8],
                    field.mul(x, w).digits()[..],
                    "{kernel}: {x:?} · {w:?}"
                );
            }
        }
    }
}

/// The kernel of `warp_collectives_follow_cuda`.
const WARP_COLLECTIVES_KERNEL: &str = r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {
    gfpf_u64* out = (gfpf_u64*)p.dst;
    const gfpf_u64 n = p.threads;
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    gfpf_u64 v = t;
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    out[t] = v;
    out[n + t] = __ballot_sync(0xffffffffu, t % 3 == 0);
    out[2 * n + t] = __shfl_up_sync(0xffffffffu, (gfpf_u64)t, 1);
    out[3 * n + t] = __shfl_down_sync(0xffffffffu, (gfpf_u64)t, 2, 16);
    out[4 * n + t] = __shfl_sync(0xffffffffu, (gfpf_u64)t * 7, 3, 8);
    out[5 * n + t] = __any_sync(0xffffffffu, t == 40) + 2 * __all_sync(0xffffffffu, t < 1000);
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#;

/// Shuffles (index, up, down, xor, with widths), ballots, any and all, as
/// CUDA documents them, on two warps of one block and a second block, with
/// the native and the portable fiber switch.
#[test]
fn warp_collectives_follow_cuda() {
    for switch in [FiberSwitch::Native, FiberSwitch::Portable] {
        warp_collectives_follow_cuda_switching(switch);
    }
}

fn warp_collectives_follow_cuda_switching(switch: FiberSwitch) {
    let n = 128u64;
    let Some(out) = run_test_kernel_switching(switch, "gfpf_test_warp_collectives", n, 64, 6 * n as usize) else {
        return;
    };
    let out = out.unwrap();
    let n = n as usize;
    for t in 0..n {
        let (warp, lane) = (t / 32, t % 32);
        assert_eq!(
            out[t],
            (0..32).map(|l| (warp * 32 + l) as u64).sum::<u64>(),
            "xor sum, thread {t}"
        );
        let ballot = (0..32)
            .filter(|l| (warp * 32 + l) % 3 == 0)
            .fold(0u64, |b, l| b | 1 << l);
        assert_eq!(out[n + t], ballot, "ballot, thread {t}");
        assert_eq!(
            out[2 * n + t],
            if lane >= 1 { t - 1 } else { t } as u64,
            "up, thread {t}"
        );
        assert_eq!(
            out[3 * n + t],
            if lane % 16 + 2 < 16 { t + 2 } else { t } as u64,
            "down, thread {t}"
        );
        assert_eq!(
            out[4 * n + t],
            ((t & !7) + 3) as u64 * 7,
            "index in groups of 8, thread {t}"
        );
        assert_eq!(out[5 * n + t], u64::from(warp == 1) + 2, "any and all, thread {t}");
    }
}

/// Two stages a launch by teams of segments (`Kernel::TeamPair`, which the
/// device takes from 132 super-DFTs: the suites' sizes stay below) in all
/// four pairings of twiddle placements, t4 (DFT_8 × DFT_8, 128 threads a
/// block) and t8 (DFT_16 × DFT_16, 1024): forward in natural order
/// (inputs × inputs after the gather) and digit-reversed order (outputs ×
/// outputs, outputs × plain), inverse from digit-reversed order (plain ×
/// inputs, inputs × inputs), bit for bit against gfpf-cpu, batches of 2.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn team_pairs_match_the_cpu() {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (team pairs): {why}");
        return;
    }
    fn check<const K: usize>(preset: gfpf_field::Preset, sizes: &[usize]) {
        use gfpf_kernels::Kernel;
        let field = Field::<K>::preset(preset).unwrap();
        let mut variants = Vec::new();
        let cases = [
            (Direction::Forward, Order::Natural),
            (Direction::Forward, Order::DigitReversed),
            (Direction::Inverse, Order::DigitReversed),
        ];
        for (n, (direction, order)) in sizes.iter().flat_map(|&n| cases.map(|c| (n, c))) {
            let fft = EmulatedFft::try_new(&field, n, direction, order, kernel_dir())
                .unwrap()
                .with_stage_kernels(StageKernels::DftTeams);
            let plan = fft.plan().clone();
            for launch in gfpf_cuda::params::launches_with(&plan, 2, StageKernels::DftTeams) {
                if let Kernel::TeamPair { first, second, .. } = launch.kernel {
                    variants.push((first, second));
                }
            }
            let x = gfpf_testkit::oracle::sample(&field, 2 * n, 5);
            let mut want = x.clone();
            gfpf_cpu::CpuFft::try_new(&field, n, direction, order)
                .unwrap()
                .process(&mut want)
                .unwrap();
            let mut got = x;
            gfpf_executor::Transform::process(&fft, &mut got).unwrap();
            assert!(
                got == want,
                "{preset:?} 2^{} {direction:?} {order:?}",
                n.trailing_zeros()
            );
        }
        variants.sort_by_key(|v| format!("{v:?}"));
        variants.dedup();
        assert_eq!(variants.len(), 4, "{preset:?}: every pairing ran: {variants:?}");
    }
    // (2k)^4 and (2k)^2, (2k)^3: every pairing somewhere.
    check::<4>(gfpf_field::Preset::T4, &[1 << 12]);
    check::<8>(gfpf_field::Preset::T8, &[1 << 8, 1 << 12]);
}

/// On a device whose blocks take less shared memory than a pair of teams of
/// threads (t8: 106.7 KiB; 99 KB at compute capability 8.6 and 8.9) the
/// stages that fill it run as teams of threads one a launch, and in pairs
/// where the pair fits: both give gfpf-cpu's output. t8 2^12 on a device of
/// one SM, which a single transform fills (its launches as
/// `params::launches_on` plans them for that device), in time and in
/// frequency.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn element_teams_pair_only_within_the_device_shared_memory() {
    use gfpf_cuda::params::{DeviceShape, launches_on};
    use gfpf_kernels::Kernel;
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (element team pairs on a small device): {why}");
        return;
    }
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let n = 1 << 12;
    for order in [Order::Natural, Order::DigitReversed] {
        let x = gfpf_testkit::oracle::sample(&field, n, 23);
        let mut want = x.clone();
        gfpf_cpu::CpuFft::try_new(&field, n, Direction::Forward, order)
            .unwrap()
            .process(&mut want)
            .unwrap();
        for (shared, paired) in [(101_376, false), (232_448, true)] {
            let device = DeviceShape {
                multiprocessors: 1,
                max_shared_bytes_per_block: shared,
                ..DeviceShape::H100
            };
            let fft = EmulatedFft::try_new(&field, n, Direction::Forward, order, kernel_dir())
                .unwrap()
                .on_device(device);
            let launches = launches_on(fft.plan(), 1, &device);
            let kernels: Vec<Kernel> = launches.iter().map(|l| l.kernel).collect();
            let what = format!("{order:?}, {shared} bytes: {kernels:?}");
            assert!(
                kernels.iter().any(|k| matches!(k, Kernel::ElementTeamDft { .. })),
                "{what}"
            );
            assert_eq!(
                kernels.iter().any(|k| matches!(
                    k,
                    Kernel::ElementTeamPair { .. }
                        | Kernel::ElementTeamPairMma { .. }
                        | Kernel::ElementTeamPairRowsMma { .. }
                )),
                paired,
                "{what}"
            );
            assert!(
                kernels.iter().all(|k| gfpf_cuda::dynamic_shared_bytes(k, 8) <= shared),
                "{what}"
            );
            // What the emulator runs is what that device launches.
            let ran: Vec<Kernel> = fft.launch_counts(1, 1).unwrap().iter().map(|c| c.kernel).collect();
            assert_eq!(ran, kernels, "{what}");
            let mut got = x.clone();
            gfpf_executor::Transform::process(&fft, &mut got).unwrap();
            assert!(got == want, "{what}");
        }
    }
}

/// What `plan`'s transforms gave, `data` from `x` (transforms of N one
/// after another): forward, gfpf-cpu's natural-order outputs `natural` in
/// `order` (digit-reversed through the plan's own reversal); inverse, `x`
/// back.
fn assert_forward_or_back<const K: usize>(
    plan: &gfpf_plan::Plan,
    order: Order,
    natural: &[gfpf_field::Element<K>],
    x: &[gfpf_field::Element<K>],
    data: &[gfpf_field::Element<K>],
    what: &str,
) {
    if plan.direction() == Direction::Inverse {
        assert!(data == x, "{what}");
        return;
    }
    assert!(data == gfpf_testkit::oracle::in_order(plan, order, natural), "{what}");
}

/// Transforms whose element-team pair in time takes its first stage's
/// twiddles on the tensor cores (`Kernel::ElementTeamPairMma`: t8 and p8,
/// DFT_16 × DFT_16 at strides 16 and 256 in 2^12, forward in natural
/// order), forward in `orders` against
/// gfpf-cpu (digit-reversed through the plan's own reversal) and the
/// inverse taking each back, in batches of `batches` transforms; and on a
/// device without int8 tensor cores, the same through the plain pairs
/// (`Kernel::ElementTeamPair`).
fn tensor_core_pairs_match_the_cpu<const K: usize>(
    preset: gfpf_field::Preset,
    batches: &[usize],
    orders: &[Order],
    tensor_cores: bool,
    (tables_max, streamed_max): (usize, usize),
) {
    use gfpf_cuda::params::DeviceShape;
    use gfpf_kernels::Kernel;
    // At 2^12 (s = 16) the pair's tables: both stages' one a twiddle
    // (2·s·R + R² = 768) within the H100's bound; the first stage's alone
    // (s·R = 256) within 256 where none are streamed, or streamed past 128
    // (the second stage's products then on the threads); the first's split by the exponent's six low bits and six
    // high ones (64 + 64) within 128 where none are streamed.
    let device = DeviceShape {
        tensor_cores,
        tensor_twiddles_max: tables_max,
        tensor_streamed_twiddles_max: streamed_max,
        fold_pair_twiddles: false,
        ..DeviceShape::H100
    };
    let (both_stages, split_bits) = match (tables_max, streamed_max) {
        (256, 0) => (false, 0),
        (128, 0) => (false, 6),
        (128, _) => (false, 0),
        _ => (true, 0),
    };
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (tensor-core pairs, {}): {why}", preset.name());
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    let n = 1 << 12;
    for &batch in batches {
        let x = gfpf_testkit::oracle::sample(&field, n * batch, 31 + batch as u64);
        let mut natural = x.clone();
        let cpu = gfpf_cpu::CpuFft::try_new(&field, n, Direction::Forward, Order::Natural).unwrap();
        for chunk in natural.chunks_mut(n) {
            cpu.process(chunk).unwrap();
        }
        for &order in orders {
            let mut data = x.clone();
            for direction in [Direction::Forward, Direction::Inverse] {
                let fft = EmulatedFft::try_new(&field, n, direction, order, kernel_dir())
                    .unwrap()
                    .with_stage_kernels(StageKernels::ElementTeams)
                    .on_device(device);
                let kernels: Vec<Kernel> = fft.launches(batch).iter().map(|l| l.kernel).collect();
                let what = format!(
                    "{} {order:?} {direction:?} x{batch}, tensor cores {tensor_cores}: {kernels:?}",
                    preset.name()
                );
                // The inverse from digit-reversed order: its pair of s = 1
                // (first stage plain) takes B alone on the tensor cores
                // (R² = 256 tables), and the scale by N^{-1} runs there too.
                if direction == Direction::Inverse && order == Order::DigitReversed {
                    let rows = Kernel::ElementTeamPairRowsMma {
                        radix: 16,
                        in_time: true,
                    };
                    assert_eq!(kernels.contains(&rows), tensor_cores && tables_max >= 256, "{what}");
                    // The scale by N^{-1}: folded into that pair's tables,
                    // else on the tensor cores alone.
                    let launches = fft.launches(batch);
                    let folded = launches.iter().any(|l| l.kernel == rows && l.params.tensor_scale == 1);
                    assert_eq!(folded, kernels.contains(&rows), "{what}");
                    assert_eq!(kernels.contains(&Kernel::ScaleMma), tensor_cores && !folded, "{what}");
                }
                // Forward: in time from natural order, in frequency to
                // digit-reversed order.
                if direction == Direction::Forward {
                    let in_time = order == Order::Natural;
                    let twiddles = if in_time {
                        gfpf_plan::CodeletTwiddles::Inputs
                    } else {
                        gfpf_plan::CodeletTwiddles::Outputs
                    };
                    let (mma, plain) = (
                        Kernel::ElementTeamPairMma {
                            radix: 16,
                            in_time,
                            both_stages,
                        },
                        Kernel::ElementTeamPair {
                            radix: 16,
                            first: twiddles,
                            second: twiddles,
                        },
                    );
                    assert!(kernels.contains(if tensor_cores { &mma } else { &plain }), "{what}");
                    let splits: Vec<u64> = fft
                        .launches(batch)
                        .iter()
                        .filter(|l| l.kernel == mma)
                        .map(|l| l.params.tensor_split_bits)
                        .collect();
                    let want: &[u64] = if tensor_cores { &[split_bits] } else { &[] };
                    assert_eq!(splits, want, "{what}");
                    // The tensor cores' tables counted apart (the model reads
                    // them from L2): a warp stages one 512-byte table (16
                    // sectors) two sets of sixteen lanes, one a set of
                    // eight, two a set of four, in four sets a call and two
                    // calls a pass (16 warps a block); a sixteen-lane pass a
                    // factor of the first stage's (one or two), and with the
                    // second stage's a sixteen-lane pass (A) and B's: a
                    // block's 30 calls of eight lanes a twiddle ((a, b) with
                    // (b, a)), four sets each, the 15 sets of (0, δ)
                    // (twiddle 1) taking the diagonal's (δ, δ) instead, and
                    // (0, 0), 1 too, none: 120 tables. None reads another
                    // table, and a group whose twiddle is 1 (its exponent
                    // 0) reads none: a column j = 0 or a row a = 0 of each
                    // super-DFT, every one of the super-DFTs at c = 0, a
                    // split factor's exponent 0.
                    if tensor_cores && batch == 1 {
                        let counts = fft.launch_counts(1, u32::MAX).unwrap();
                        let launch = counts.iter().find(|c| c.kernel == mma).unwrap();
                        let params = fft.launches(1).into_iter().find(|l| l.kernel == mma).unwrap().params;
                        let blocks = launch.threads / 512;
                        let factors = if split_bits == 0 { 1 } else { 2 };
                        // s, the smaller stride, and the exponent's unit.
                        let s = (1u64 << params.log2_stride) / if in_time { 1 } else { 16 };
                        let u = if in_time { params.step } else { params.step << 4 };
                        let mask = (1u64 << split_bits) - 1;
                        let twiddled = |e: u64, f: u64| match (factors, f) {
                            (1, _) => e != 0,
                            (_, 0) => e & mask != 0,
                            _ => e >> split_bits != 0,
                        };
                        let (mut sixteen_lane_groups, mut b_tables) = (0, 0);
                        for g in 0..blocks * 4 {
                            let c = g % s;
                            for (j, f) in (0..16).flat_map(|j| (0..factors).map(move |f| (j, f))) {
                                sixteen_lane_groups += u64::from(twiddled(j * c * u, f));
                            }
                            if both_stages {
                                sixteen_lane_groups += (0..16).filter(|a| a * c != 0).count() as u64;
                            }
                        }
                        if both_stages {
                            b_tables = 30 * 4;
                        }
                        let t = launch.traffic;
                        assert_eq!(
                            t.tensor_table_sectors,
                            16 * sixteen_lane_groups + blocks * 16 * b_tables,
                            "{what}"
                        );
                        assert_eq!(t.tensor_table_sectors == t.table_sectors, both_stages, "{what}");
                        // B's, which every block reads, counted apart (the
                        // model reads them from L2 whatever the others).
                        assert_eq!(t.tensor_resident_sectors, blocks * 16 * b_tables, "{what}");
                    }
                }
                gfpf_executor::Transform::process(&fft, &mut data).unwrap();
                assert_forward_or_back(fft.plan(), order, &natural, &x, &data, &what);
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn tensor_core_pairs_match_the_cpu_t8_p8() {
    // p8 (Möller–Granlund's divisions, r below 2^60) in one batch: the
    // batch only moves which super-DFTs a block takes.
    let both = [Order::Natural, Order::DigitReversed];
    let h100 = (
        gfpf_cuda::params::TENSOR_TWIDDLES_MAX,
        gfpf_cuda::params::TENSOR_STREAMED_TWIDDLES_MAX,
    );
    // Both stages' twiddles on the tensor cores (t8 2^20's first pair).
    tensor_core_pairs_match_the_cpu::<8>(gfpf_field::Preset::T8, &[1, 2], &both, true, h100);
    tensor_core_pairs_match_the_cpu::<8>(gfpf_field::Preset::P8, &[1], &both, true, h100);
    // The first stage's alone, one table a twiddle in L2, or streamed (as
    // t8 2^20's second pair takes them).
    tensor_core_pairs_match_the_cpu::<8>(gfpf_field::Preset::T8, &[2], &both, true, (256, 0));
    tensor_core_pairs_match_the_cpu::<8>(gfpf_field::Preset::T8, &[1], &both, true, (128, h100.1));
    // The first stage's alone, two products a twiddle by the split tables
    // (where none are streamed).
    tensor_core_pairs_match_the_cpu::<8>(gfpf_field::Preset::T8, &[1, 2], &both, true, (128, 0));
    tensor_core_pairs_match_the_cpu::<8>(gfpf_field::Preset::P8, &[1], &both, true, (128, 0));
    // The plain pairs of DFT_16 × DFT_16, on devices without the tensor
    // cores.
    tensor_core_pairs_match_the_cpu::<8>(gfpf_field::Preset::T8, &[2], &both, false, h100);
}

/// A pair of s = 16 with both stages' twiddles on the tensor cores gives
/// its column and row twiddles to the stride-1 stage beside it (in time
/// the one before it, onto its outputs; in frequency the one after, onto
/// its inputs), one product a slot there, and keeps B alone
/// (Kernel::ElementTeamPairRowsMma): 2^12 of t8 and p8 in both orders,
/// forward and back, alone and two at once, against gfpf-cpu; and of a
/// field of eight digits whose r is below the tensor cores' range, where
/// the same launches make their products on the threads (the pair's
/// second-stage twiddles then without their column c). The stage takes
/// them on the tensor cores (Kernel::ElementTeamDftMma) where its blocks'
/// DFTs share their twiddles: 2^16 in time (its inputs gathered, 16
/// neighbouring columns), sixteen 2^12 in frequency (DFTs 256 apart), on
/// the threads otherwise.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn folded_pair_twiddles_match_the_cpu() {
    use gfpf_kernels::{Kernel, tensor::shared_twiddles_available};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (pair twiddles folded into the stride-1 stage): {why}");
        return;
    }
    // r = 2^a + 2^b below 2^49, 4 | r (2^12 | r^8).
    let low_r = (40..48)
        .flat_map(|a| (2..a).map(move |b| (a, b)))
        .find_map(|(a, b)| Field::<8>::from_sparse(format!("2^{a}+2^{b}").parse().unwrap()).ok())
        .expect("a field r^8 + 1 with r = 2^a + 2^b, 40 <= a < 48");
    let fields = [
        Field::<8>::preset(gfpf_field::Preset::T8).unwrap(),
        Field::<8>::preset(gfpf_field::Preset::P8).unwrap(),
        low_r,
    ];
    assert!(!shared_twiddles_available(&gfpf_kernels::DeviceConstants::of(
        &fields[2]
    )));
    // And t8's 2^16 (16^4), whose stride-1 stage in time gathers its
    // inputs by three digits: its DFTs' outputs then lie at the digit
    // reverse of their index, not at the index.
    // (field, N, batch, orders): the larger ones only where they fold on
    // the tensor cores.
    let both = [Order::Natural, Order::DigitReversed];
    let cases = fields
        .iter()
        .flat_map(|f| [(f, 1 << 12, 1, &both[..]), (f, 1 << 12, 2, &both[..])])
        .chain([
            (&fields[0], 1 << 16, 1, &both[..1]),
            (&fields[2], 1 << 16, 1, &both[..1]),
            (&fields[0], 1 << 12, 16, &both[1..]),
            (&fields[1], 1 << 12, 16, &both[1..]),
            (&fields[2], 1 << 12, 16, &both[1..]),
        ]);
    for (field, n, batch, orders) in cases {
        let on_tensor_cores = shared_twiddles_available(&gfpf_kernels::DeviceConstants::of(field));
        {
            let x = gfpf_testkit::oracle::sample(field, n * batch, 41 + batch as u64);
            let mut natural = x.clone();
            let cpu = gfpf_cpu::CpuFft::try_new(field, n, Direction::Forward, Order::Natural).unwrap();
            for chunk in natural.chunks_mut(n) {
                cpu.process(chunk).unwrap();
            }
            for &order in orders {
                let mut data = x.clone();
                for direction in [Direction::Forward, Direction::Inverse] {
                    let fft = EmulatedFft::try_new(field, n, direction, order, kernel_dir())
                        .unwrap()
                        .with_stage_kernels(StageKernels::ElementTeams);
                    let launches = fft.launches(batch);
                    let kernels: Vec<Kernel> = launches.iter().map(|l| l.kernel).collect();
                    let what = format!(
                        "r = {}, N = {n}, {order:?} {direction:?} x{batch}, tensor cores {on_tensor_cores}: {kernels:?}",
                        field.r()
                    );
                    // In time from natural order, in frequency to
                    // digit-reversed order (the inverse from it pairs the
                    // stride-1 stage itself, s = 1, B alone, as 2^16's
                    // forward transform to it does).
                    let in_time = order == Order::Natural;
                    if in_time || (direction == Direction::Forward && n == 1 << 12) {
                        let folded: Vec<&gfpf_cuda::params::Launch> =
                            launches.iter().filter(|l| l.params.folded_step != 0).collect();
                        assert_eq!(folded.len(), 2, "{what}");
                        let shared = if in_time {
                            n >= 1 << 16
                        } else {
                            (batch * n / 16) % 4096 == 0
                        };
                        let stage = if shared {
                            Kernel::ElementTeamDftMma { radix: 16, in_time }
                        } else {
                            Kernel::ElementTeamDft {
                                radix: 16,
                                twiddles: if in_time {
                                    gfpf_plan::CodeletTwiddles::Outputs
                                } else {
                                    gfpf_plan::CodeletTwiddles::Inputs
                                },
                            }
                        };
                        let rows = Kernel::ElementTeamPairRowsMma { radix: 16, in_time };
                        let want = if in_time { [stage, rows] } else { [rows, stage] };
                        assert_eq!([folded[0].kernel, folded[1].kernel], want, "{what}");
                        assert_eq!(folded[0].params.folded_step, folded[1].params.folded_step, "{what}");
                        assert!(
                            !kernels.iter().any(|k| matches!(k, Kernel::ElementTeamPairMma { .. })),
                            "{what}"
                        );
                    }
                    gfpf_executor::Transform::process(&fft, &mut data).unwrap();
                    assert_forward_or_back(fft.plan(), order, &natural, &x, &data, &what);
                }
            }
        }
    }
}

/// The pairs of s = 1 whose other stage is plain take their twiddles, B
/// alone, on the tensor cores (Kernel::ElementTeamPairRowsMma): in
/// frequency the last pair of a forward transform to digit-reversed order
/// of an even number of DFT_16 stages (2^8, and 2^9 after a DFT_2), in time
/// the first of the inverse from it; t8 and p8 against gfpf-cpu, forward
/// and back.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn tensor_core_rows_pairs_match_the_cpu_t8_p8() {
    rows_pairs_match_the_cpu::<8>(gfpf_field::Preset::T8);
    rows_pairs_match_the_cpu::<8>(gfpf_field::Preset::P8);
}

/// The scale by N^{-1} on the tensor cores (Kernel::ScaleMma) where a block's
/// 128 threads pass the last element (batch·N of 48, 96 and 192): every
/// lane of a warp takes part in its products, those past the end on zeros
/// they do not store. t8 and p8, forward then back against gfpf-cpu.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn tensor_core_scale_past_the_last_element_t8_p8() {
    scale_past_the_last_element::<8>(gfpf_field::Preset::T8);
    scale_past_the_last_element::<8>(gfpf_field::Preset::P8);
}

fn scale_past_the_last_element<const K: usize>(preset: gfpf_field::Preset) {
    use gfpf_kernels::Kernel;
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (the scale on the tensor cores, {}): {why}", preset.name());
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    for n in [16, 32, 64] {
        let batch = 3;
        let x = gfpf_testkit::oracle::sample(&field, n * batch, 43);
        let mut data = x.clone();
        for direction in [Direction::Forward, Direction::Inverse] {
            let fft = EmulatedFft::try_new(&field, n, direction, Order::Natural, kernel_dir())
                .unwrap()
                .with_stage_kernels(StageKernels::Teams);
            let kernels: Vec<Kernel> = fft.launches(batch).iter().map(|l| l.kernel).collect();
            let what = format!("{} {n} {direction:?} x{batch}: {kernels:?}", preset.name());
            if direction == Direction::Inverse {
                assert_eq!(kernels.last(), Some(&Kernel::ScaleMma), "{what}");
            }
            gfpf_executor::Transform::process(&fft, &mut data).unwrap();
        }
        assert!(data == x, "{} {n}: forward then back", preset.name());
    }
}

fn rows_pairs_match_the_cpu<const K: usize>(preset: gfpf_field::Preset) {
    use gfpf_kernels::Kernel;
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (tensor-core pairs of B alone, {}): {why}", preset.name());
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    for n in [1 << 8, 1 << 9] {
        let batch = 3;
        let x = gfpf_testkit::oracle::sample(&field, n * batch, 41);
        let mut natural = x.clone();
        let cpu = gfpf_cpu::CpuFft::try_new(&field, n, Direction::Forward, Order::Natural).unwrap();
        for chunk in natural.chunks_mut(n) {
            cpu.process(chunk).unwrap();
        }
        let mut data = x.clone();
        for (direction, in_time) in [(Direction::Forward, false), (Direction::Inverse, true)] {
            let fft = EmulatedFft::try_new(&field, n, direction, Order::DigitReversed, kernel_dir())
                .unwrap()
                .with_stage_kernels(StageKernels::ElementTeams);
            let kernels: Vec<Kernel> = fft.launches(batch).iter().map(|l| l.kernel).collect();
            let what = format!(
                "{} 2^{} {direction:?} x{batch}: {kernels:?}",
                preset.name(),
                n.trailing_zeros()
            );
            assert!(
                kernels.contains(&Kernel::ElementTeamPairRowsMma { radix: 16, in_time }),
                "{what}"
            );
            gfpf_executor::Transform::process(&fft, &mut data).unwrap();
            assert_forward_or_back(fft.plan(), Order::DigitReversed, &natural, &x, &data, &what);
        }
    }
}

/// Teams of segments take one element a segment (split teams) where a
/// launch fits a wave of the device and two elsewhere: t4 and t8 on an H100
/// and on a one-SM device, running exactly the launches the device would,
/// against gfpf-cpu forward in both orders (digit-reversed through the
/// plan's own reversal: 16·16·4 reverses otherwise than gfpf-cpu's plan),
/// and the inverse taking each back.
fn team_sizes_follow_the_wave<const K: usize>(preset: gfpf_field::Preset, n: usize) {
    use gfpf_cuda::params::{DeviceShape, StageKernels, launches_with_on};
    use gfpf_kernels::Kernel;
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (team sizes by the wave): {why}");
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    let one_sm = DeviceShape {
        multiprocessors: 1,
        ..DeviceShape::H100
    };
    let x = gfpf_testkit::oracle::sample(&field, n, 29);
    let mut natural = x.clone();
    gfpf_cpu::CpuFft::try_new(&field, n, Direction::Forward, Order::Natural)
        .unwrap()
        .process(&mut natural)
        .unwrap();
    for (device, split) in [(DeviceShape::H100, true), (one_sm, false)] {
        for order in [Order::Natural, Order::DigitReversed] {
            let mut data = x.clone();
            for direction in [Direction::Forward, Direction::Inverse] {
                let fft = EmulatedFft::try_new(&field, n, direction, order, kernel_dir())
                    .unwrap()
                    .with_stage_kernels(StageKernels::DftTeams)
                    .on_device(device);
                let kernels: Vec<Kernel> = launches_with_on(fft.plan(), 1, StageKernels::DftTeams, &device)
                    .iter()
                    .map(|l| l.kernel)
                    .collect();
                let what = format!(
                    "k = {K}, {} SMs, {order:?} {direction:?}: {kernels:?}",
                    device.multiprocessors
                );
                assert_eq!(
                    kernels.iter().any(|k| matches!(k, Kernel::SplitTeamDft { .. })),
                    split,
                    "{what}"
                );
                assert_eq!(
                    kernels.iter().any(|k| matches!(k, Kernel::TeamDft { .. })),
                    !split,
                    "{what}"
                );
                let ran: Vec<Kernel> = fft.launch_counts(1, 1).unwrap().iter().map(|c| c.kernel).collect();
                assert_eq!(ran, kernels, "{what}");
                gfpf_executor::Transform::process(&fft, &mut data).unwrap();
                assert_forward_or_back(fft.plan(), order, &natural, &x, &data, &what);
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn team_sizes_follow_the_wave_t4_t8() {
    // 8^3 and 16·16·4: every stage a team stage (stride 1, or strided from
    // natural input with whole columns), each over a wave of one SM (1536
    // threads) as a split team and within one of an H100.
    team_sizes_follow_the_wave::<4>(gfpf_field::Preset::T4, 1 << 9);
    team_sizes_follow_the_wave::<8>(gfpf_field::Preset::T8, 1 << 10);
}

/// t8 and its edge values (0, 1, p − 1 with its top digit r, r, r − 1, r²,
/// r^(k−1), −r) and four random ones.
fn t8_edge_values() -> (Field<8>, Vec<gfpf_field::Element<8>>) {
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let values = gfpf_testkit::oracle::sample(&field, 12, 17);
    (field, values)
}

/// The edge-value test kernels' prelude: `t8_edge_values` as a table,
/// `gfpf_test_values` (digit d of value a at a·k + d), and their count `E`.
fn t8_edge_values_prelude() -> String {
    let (_, values) = t8_edge_values();
    let table: Vec<String> = values
        .iter()
        .flat_map(|v| v.digits().iter().map(|d| format!("{d:#x}ull")))
        .collect();
    format!(
        "static const gfpf_u64 gfpf_test_values[] = {{{}}};\n#define E {}\n",
        table.join(", "),
        values.len()
    )
}

/// The kernel of `element_team_operations_match_cpu_on_edge_values`.
fn element_team_edges_kernel() -> String {
    t8_edge_values_prelude()
        + r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {
    // Three elements a thread, digit d of element j at tile[j + d·96]; then
    // a scratch element a thread (the product's twiddle).
    GFPF_SHARED_ARRAY(gfpf_u64, tile, 32 * 4 * GFPF_K);
    gfpf_u64* out = (gfpf_u64*)p.dst;
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const int plane = 96, x = threadIdx.x * 3, y = x + 1, z = x + 2;
    if (t < E * E) {
        const int a = t / E, b = t % E;
        for (int d = 0; d < GFPF_K; ++d) {
            tile[x + d * plane] = gfpf_test_values[a * GFPF_K + d];
            tile[y + d * plane] = gfpf_test_values[b * GFPF_K + d];
            tile[z + d * plane] = gfpf_test_values[a * GFPF_K + d];
        }
        for (int d = 0; d < GFPF_K; ++d) tile[96 * GFPF_K + d * 32 + threadIdx.x] = gfpf_test_values[b * GFPF_K + d];
        gfpf_tile_mul(tile, z, plane, 96 * GFPF_K + threadIdx.x, 32);
        gfpf_tile_add_sub(tile, x, y, plane);
        for (int d = 0; d < GFPF_K; ++d) {
            out[t * 3 * GFPF_K + d] = tile[z + d * plane];
            out[t * 3 * GFPF_K + GFPF_K + d] = tile[x + d * plane];
            out[t * 3 * GFPF_K + 2 * GFPF_K + d] = tile[y + d * plane];
        }
    }
    if (t < E * 2 * GFPF_K) {
        const int a = t / (2 * GFPF_K), i = t % (2 * GFPF_K);
        for (int d = 0; d < GFPF_K; ++d) tile[x + d * plane] = gfpf_test_values[a * GFPF_K + d];
        gfpf_tile_mul_pow_r(tile, x, plane, i);
        for (int d = 0; d < GFPF_K; ++d) out[E * E * 3 * GFPF_K + t * GFPF_K + d] = tile[x + d * plane];
    }
    if (t < E * E * 2 * GFPF_K) {
        const int a = t / (2 * GFPF_K) / E, b = t / (2 * GFPF_K) % E, i = t % (2 * GFPF_K);
        for (int d = 0; d < GFPF_K; ++d) {
            tile[x + d * plane] = gfpf_test_values[a * GFPF_K + d];
            tile[y + d * plane] = gfpf_test_values[b * GFPF_K + d];
        }
        // Odd threads load y first: the same result either way.
        gfpf_tile_add_sub_mul_pow_r(tile, x, y, plane, i, (t & 1) != 0);
        gfpf_u64* at = out + E * E * 3 * GFPF_K + E * 2 * GFPF_K * GFPF_K + t * 2 * GFPF_K;
        for (int d = 0; d < GFPF_K; ++d) {
            at[d] = tile[x + d * plane];
            at[GFPF_K + d] = tile[y + d * plane];
        }
        // The same with the shift's arm fixed in the code (each thread its
        // own arm here; a warp's lanes share one in the kernels).
        for (int d = 0; d < GFPF_K; ++d) {
            tile[x + d * plane] = gfpf_test_values[a * GFPF_K + d];
            tile[y + d * plane] = gfpf_test_values[b * GFPF_K + d];
        }
        gfpf_tile_add_sub_uniform_shift(tile, x, y, plane, i);
        at += E * E * 2 * GFPF_K * 2 * GFPF_K;
        for (int d = 0; d < GFPF_K; ++d) {
            at[d] = tile[x + d * plane];
            at[GFPF_K + d] = tile[y + d * plane];
        }
    }
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#
}

/// The element teams' operations on whole elements in shared memory
/// (`gfpf_tile_mul`, `gfpf_tile_add_sub`, `gfpf_tile_mul_pow_r`,
/// `gfpf_tile_add_sub_mul_pow_r` with its two paths and both load orders,
/// `gfpf_tile_add_sub_uniform_shift` with every arm) against
/// gfpf-cpu on every pair of t8's edge values (0, 1, p − 1 with its top
/// digit r, r, r − 1, r², r^(k−1), −r) and four random ones, every shift
/// 0 ≤ i < 2k: the rare paths (a carry or borrow out of the top digit, a
/// factor −1) that a transform of random data seldom takes.
#[test]
fn element_team_operations_match_cpu_on_edge_values() {
    const K: usize = 8;
    let (field, values) = t8_edge_values();
    let e = values.len();
    let threads = (e * e * 2 * K).next_multiple_of(32);
    let words = e * e * 3 * K + e * 2 * K * K + 2 * e * e * 2 * K * 2 * K;
    let Some(out) = run_test_kernel("gfpf_test_element_team_edges", threads as u64, 32, words) else {
        return;
    };
    let out = out.unwrap();
    let element = |at: usize| -> Vec<u64> { out[at..at + K].to_vec() };
    for (a, x) in values.iter().enumerate() {
        for (b, y) in values.iter().enumerate() {
            let at = (a * e + b) * 3 * K;
            assert_eq!(element(at), field.mul(x, y).digits().to_vec(), "{x:?} · {y:?}");
            assert_eq!(element(at + K), field.add(x, y).digits().to_vec(), "{x:?} + {y:?}");
            assert_eq!(element(at + 2 * K), field.sub(x, y).digits().to_vec(), "{x:?} − {y:?}");
        }
        for i in 0..2 * K {
            let at = e * e * 3 * K + (a * 2 * K + i) * K;
            assert_eq!(element(at), field.mul_pow_r(x, i).digits().to_vec(), "{x:?} · r^{i}");
        }
        for (b, y) in values.iter().enumerate() {
            for i in 0..2 * K {
                for (form, from) in [("run-time shift", 0), ("fixed shift", e * e * 2 * K * 2 * K)] {
                    let at = from + e * e * 3 * K + e * 2 * K * K + ((a * e + b) * 2 * K + i) * 2 * K;
                    assert_eq!(
                        element(at),
                        field.add(x, y).digits().to_vec(),
                        "{x:?} + {y:?} (r^{i}, {form})"
                    );
                    assert_eq!(
                        element(at + K),
                        field.mul_pow_r(&field.sub(x, y), i).digits().to_vec(),
                        "({x:?} − {y:?})·r^{i} ({form})"
                    );
                }
            }
        }
    }
}

/// The kernel of `butterfly_sides_over_lanes_match_cpu_on_edge_values`.
fn lane_edges_kernel() -> String {
    t8_edge_values_prelude()
        + r#"
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {
    gfpf_u64* out = (gfpf_u64*)p.dst;
    const gfpf_u64 t = (gfpf_u64)blockIdx.x * blockDim.x + threadIdx.x;
    // Segment g: values a and b, shift i (fastest).
    const gfpf_u64 g = t / GFPF_LANE_SEGMENT;
    const bool running = g < (gfpf_u64)E * E * 2 * GFPF_K;
    const int i = (int)(g % (2 * GFPF_K)), ab = (int)(g / (2 * GFPF_K) % (E * E)), a = ab / E, b = ab % E;
    const GfpfLanes l = gfpf_warp_lanes();
    GfpfLaneElem x, y;
    for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
        x.d[h] = gfpf_test_values[a * GFPF_K + l.digit(h)];
        y.d[h] = gfpf_test_values[b * GFPF_K + l.digit(h)];
    }
    const GfpfLaneElem shifted = gfpf_lane_sub_mul_pow_r(l, x, y, i);
    // The side a value: odd segments subtract, beside even ones adding.
    const GfpfLaneElem side = gfpf_lane_add_or_sub(l, x, y, (g & 1) != 0);
    const GfpfLaneElem sum = gfpf_lane_add(l, x, y);
    if (running) {
        for (int h = 0; h < GFPF_LANE_DIGITS; ++h) {
            out[g * 3 * GFPF_K + l.digit(h)] = shifted.d[h];
            out[g * 3 * GFPF_K + GFPF_K + l.digit(h)] = side.d[h];
            out[g * 3 * GFPF_K + 2 * GFPF_K + l.digit(h)] = sum.d[h];
        }
    }
}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#
}

/// A split team's butterfly sides over lanes (`gfpf_lane_add_or_sub` with
/// the side a value, the sums and differences of one warp's segments side by
/// side; `gfpf_lane_add`; `gfpf_lane_sub_mul_pow_r`, the difference and its
/// shift in one chain)
/// against gfpf-cpu on every pair of t8's edge values (0, 1, p − 1 with its
/// top digit r, r, r − 1, r², r^(k−1), −r) and four random ones, every shift
/// 0 ≤ i < 2k: a warp of four segments takes the two-step path where any of
/// its pairs holds −1, the one chain elsewhere, and both are checked.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn butterfly_sides_over_lanes_match_cpu_on_edge_values() {
    const K: usize = 8;
    let (field, values) = t8_edge_values();
    let e = values.len();
    let segments = e * e * 2 * K;
    let threads = (segments * gfpf_kernels::lane_segment(K)).next_multiple_of(128);
    let Some(out) = run_test_kernel("gfpf_test_lane_edges", threads as u64, 128, segments * 3 * K) else {
        return;
    };
    let out = out.unwrap();
    let element = |at: usize| -> Vec<u64> { out[at..at + K].to_vec() };
    for (a, x) in values.iter().enumerate() {
        for (b, y) in values.iter().enumerate() {
            for i in 0..2 * K {
                let g = (a * e + b) * 2 * K + i;
                let at = g * 3 * K;
                let (sum, difference) = (field.add(x, y), field.sub(x, y));
                assert_eq!(
                    element(at),
                    field.mul_pow_r(&difference, i).digits().to_vec(),
                    "({x:?} − {y:?}) · r^{i}"
                );
                let side = if g % 2 == 1 { difference } else { sum };
                assert_eq!(element(at + K), side.digits().to_vec(), "{x:?} ± {y:?}, segment {g}");
                assert_eq!(element(at + 2 * K), sum.digits().to_vec(), "{x:?} + {y:?}");
            }
        }
    }
}

/// `gfpf_div_rem_small_high`, the carry chains' short division, against
/// u128 division at the edges of its corrections: high words 0, 1, 2 and
/// up to the bound gfpf_kernels proves, low words around the product of the
/// high word by the form's constant, d and 2^64 − 1. t8 takes the form
/// q = 2·u1 (δ = 2d − 2^64 = 2^35), t128 the form q = u1 (e = 2^64 − d =
/// 2^28), p8 Möller–Granlund's division; at t8 a high word past the bound
/// fails the launch, naming the bound (the emulator checks every division
/// of the suites so).
#[test]
fn short_division_divides_exactly_at_its_edges() {
    use gfpf_kernels::{DeviceConstants, SmallHighDivision};
    fn check<const K: usize>(preset: gfpf_field::Preset, expected_form: u8) {
        let field = Field::<K>::preset(preset).unwrap();
        let form = SmallHighDivision::of(&DeviceConstants::of(&field));
        let d = field.mul_constants().r_normalized;
        let (form_number, constant, high_max) = match form {
            SmallHighDivision::MollerGranlund => (0, 0, d - 1),
            SmallHighDivision::TwiceLess { delta, high_max } => (1, delta, high_max),
            SmallHighDivision::OnceMore { e, high_max } => (2, e, high_max),
        };
        assert_eq!(form_number, expected_form, "{form:?}");
        let mut inputs = Vec::new();
        for u1 in [0, 1, 2, high_max / 2, high_max - 1, high_max] {
            let t = u1.wrapping_mul(constant);
            for u0 in [
                0,
                1,
                t.wrapping_sub(1),
                t,
                t.wrapping_add(1),
                d - 1,
                d,
                d.wrapping_add(1),
                u64::MAX - t,
                u64::MAX,
            ] {
                inputs.push((u1, u0));
            }
        }
        let table: Vec<String> = inputs
            .iter()
            .map(|(u1, u0)| format!("{u1:#x}ull, {u0:#x}ull"))
            .collect();
        // One thread a pair; a launch of one thread more adds a high word
        // past the bound (the first pair's, 0, plus the bound + 1).
        let kernel = format!(
            r#"
static const gfpf_u64 gfpf_test_inputs[] = {{{table}}};
GFPF_FN void gfpf_test_body(const GfpfStageParams& p) {{
    gfpf_u64* out = (gfpf_u64*)p.dst;
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < p.threads) {{
        const bool past = t == {n};
        const gfpf_u64 u1 = past ? GFPF_SMALL_HIGH_MAX + 1 : gfpf_test_inputs[2 * t];
        gfpf_div_rem_small_high(u1, gfpf_test_inputs[past ? 1 : 2 * t + 1], out[2 * t], out[2 * t + 1]);
    }}
}}
GFPF_BLOCK_KERNEL(gfpf_test_kernel, gfpf_test_body)
"#,
            table = table.join(", "),
            n = inputs.len(),
        );
        let source = format!("{}\n{kernel}\n", gfpf_kernels::FFT_SOURCE);
        let kernels = gfpf_testkit::emulator::HostKernels::build_from(&source, &field, &[2], kernel_dir()).unwrap();
        let run = |threads: usize| {
            let mut out = vec![0u64; 2 * threads];
            let (_, mut params) = gfpf_cuda::params::pointwise_mul(K, out.as_mut_ptr() as u64, 0, out.len());
            params.threads = threads as u64;
            // SAFETY: the test kernel writes 2·threads words of `out` and
            // reads nothing else.
            unsafe { kernels.launch_symbol("gfpf_test_kernel", &params, 64, 0, false) }.map(|_| out)
        };
        let out = run(inputs.len()).unwrap();
        for (i, &(u1, u0)) in inputs.iter().enumerate() {
            let n = (u128::from(u1) << 64) | u128::from(u0);
            let want = [(n / u128::from(d)) as u64, (n % u128::from(d)) as u64];
            assert_eq!(out[2 * i..2 * i + 2], want, "{}: {u1:#x}·2^64 + {u0:#x}", preset.name());
        }
        if form_number == 1 {
            let error = run(inputs.len() + 1).unwrap_err().to_string();
            assert!(error.contains("past the short division's bound"), "{error}");
        }
    }
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (short division): {why}");
        return;
    }
    check::<8>(gfpf_field::Preset::T8, 1);
    check::<128>(gfpf_field::Preset::T128, 2);
    check::<8>(gfpf_field::Preset::P8, 0);
}

/// The kernels of `broken_kernels_are_named`: (name, body, what the
/// emulator says).
const BROKEN_KERNELS: [(&str, &str, &str); 3] = [
    (
        "gfpf_test_exits_before_barrier",
        "GFPF_FN void gfpf_test_body(const GfpfStageParams& p) { if (threadIdx.x == 5) return; __syncthreads(); }",
        "thread 5 exited while 63 threads wait at __syncthreads()",
    ),
    (
        "gfpf_test_lane_skips_collective",
        "GFPF_FN void gfpf_test_body(const GfpfStageParams& p) { \
         if (threadIdx.x != 3) ((gfpf_u64*)p.dst)[threadIdx.x] = __shfl_sync(0xffffffffu, 1ull, 0); }",
        "thread 3 exited while its warp waits for it in a warp collective",
    ),
    (
        "gfpf_test_reads_unwritten_shared",
        "GFPF_FN void gfpf_test_body(const GfpfStageParams& p) { GFPF_SHARED_ARRAY(gfpf_u64, tile, 64); \
         if (threadIdx.x > 0) tile[threadIdx.x] = 1; __syncthreads(); \
         ((gfpf_u64*)p.dst)[threadIdx.x] = tile[63 - threadIdx.x]; }",
        "thread 63 reads shared tile[0], which no thread has written",
    ),
];

/// The emulator's other checks: a thread that leaves before a barrier its
/// block waits at, a warp collective one lane skips, a shared word read
/// before any thread wrote it; with the native and the portable fiber
/// switch.
#[test]
fn broken_kernels_are_named() {
    for switch in [FiberSwitch::Native, FiberSwitch::Portable] {
        for (name, _, expected) in BROKEN_KERNELS {
            let Some(result) = run_test_kernel_switching(switch, name, 64, 64, 64) else {
                return;
            };
            match result {
                Err(EmulatorError::Kernel(message)) => assert!(
                    message.contains(expected) && message.contains(&format!("kernel {name}, block 0")),
                    "{switch:?}: {message}"
                ),
                other => panic!("{switch:?}, {name}: expected \"{expected}\", got {other:?}"),
            }
        }
    }
}

/// The emulator counts global memory the way the device moves it, in 32-byte
/// sectors per warp-wide access: t8, N = 2^12, forward. Every stage writes
/// each of the N·k words once; the first stage (stride 1) writes 16
/// consecutive elements per thread, so a warp's store of one digit touches
/// 32 sectors for 8 bytes each (25% used), while its tiled twins store whole
/// sectors through shared memory (100%).
#[test]
fn global_traffic_is_counted_in_sectors() {
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (traffic): {why}");
        return;
    }
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let n = 1 << 12;
    let words = gfpf_cuda::to_digit_major(&gfpf_testkit::oracle::sample(&field, n, 3));
    let counted = |stage_kernels| {
        let fft = EmulatedFft::try_new(&field, n, Direction::Forward, Order::Natural, kernel_dir())
            .unwrap()
            .with_stage_kernels(stage_kernels);
        fft.run_words_counted(&mut words.clone()).unwrap()
    };
    let (plain, tiled, lanes) = (
        counted(StageKernels::ThreadPerDft),
        counted(StageKernels::TiledStrideOne),
        counted(StageKernels::DigitsOverLanes),
    );
    assert_eq!(plain.len(), 3);
    for (kernel, traffic) in plain.iter().chain(&tiled).chain(&lanes) {
        assert_eq!(
            traffic.bytes_written,
            (n * 8 * 8) as u64,
            "{kernel:?}: every word written once"
        );
        assert!(
            traffic.bytes_read >= (n * 8 * 8) as u64,
            "{kernel:?}: every word read at least once"
        );
        assert!(traffic.bytes_moved() >= traffic.bytes_read + traffic.bytes_written);
        eprintln!(
            "{kernel:?}: {} requests, {} bytes moved, sector efficiency {:.0}% (writes {:.0}%, data reads {:.0}%)",
            traffic.requests,
            traffic.bytes_moved(),
            traffic.sector_efficiency() * 100.0,
            traffic.bytes_written as f64 / (32 * traffic.sectors_written) as f64 * 100.0,
            (traffic.bytes_read - traffic.table_bytes) as f64
                / (32 * (traffic.sectors_read - traffic.table_sectors)) as f64
                * 100.0
        );
    }
    let write_efficiency =
        |t: &gfpf_testkit::emulator::LaunchTraffic| t.bytes_written as f64 / (32 * t.sectors_written) as f64;
    assert!(matches!(tiled[0].0, gfpf_kernels::Kernel::TiledDft { .. }));
    assert!(matches!(lanes[0].0, gfpf_kernels::Kernel::LaneTiledDft { .. }));
    assert_eq!(write_efficiency(&plain[0].1), 0.25);
    assert_eq!(write_efficiency(&tiled[0].1), 1.0);
    assert_eq!(write_efficiency(&lanes[0].1), 1.0);
    // The first stage reads a digit-reversed input, DFT t's input i at
    // 256·i + rev(t): a warp of one thread per DFT uses half of each sector
    // (rev(t) and rev(t + 16) are neighbours), the tile of neighbouring DFTs
    // a quarter, and the device's tile, which gathers the DFTs whose reversed
    // inputs are neighbours, whole sectors.
    let data_read_efficiency = |t: &gfpf_testkit::emulator::LaunchTraffic| {
        (t.bytes_read - t.table_bytes) as f64 / (32 * (t.sectors_read - t.table_sectors)) as f64
    };
    assert_eq!(data_read_efficiency(&plain[0].1), 0.5);
    assert_eq!(data_read_efficiency(&tiled[0].1), 0.25);
    assert_eq!(data_read_efficiency(&lanes[0].1), 1.0);
}

/// A case of [`word_size_ntt_matches_host`]: (log2 N, transforms a prime,
/// most stages a launch, stage groups where chosen, launches).
type NttCase<'a> = (u32, usize, u32, Option<&'a [u32]>, usize);

/// The word-size NTT kernel of words `W` against the host's transform, bit
/// for bit, on `primes` (two at once): for each case (log2 N, transforms a
/// prime, most stages a launch, stage groups where chosen, launches), the
/// forward transform against the O(N²) reference (on a sample of outputs
/// past 2^11), edge values (0, 1, q − 1) leading each input; the inverse
/// undoes it, and forward, pointwise product, inverse is the cyclic
/// convolution, the same where the inverse's first launch makes the
/// product.
fn word_size_ntt_matches_host<W: gfpf_cuda::ntt::NttWord>(primes: [u64; 2], cases: &[NttCase<'_>], seed: u64) {
    use gfpf_cuda::ntt::{NttPlan, ntt_reference, ntt_reference_outputs};
    use gfpf_small::primes::mul_mod;
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for &(log2_n, per_prime, max_stages, groups, launches) in cases {
        let n = 1usize << log2_n;
        let mut plan = NttPlan::<W>::try_new(n, &primes).unwrap().with_max_stages(max_stages);
        if let Some(groups) = groups {
            plan = plan.with_stage_groups(groups).unwrap();
        }
        assert_eq!(
            plan.launches(per_prime, Direction::Forward).len(),
            launches,
            "2^{log2_n}"
        );
        let ntt = gfpf_testkit::emulator::EmulatedNtt::new(plan, kernel_dir()).unwrap();
        let random = |rng: &mut rand::rngs::StdRng| {
            let mut data = Vec::new();
            for &q in &primes {
                for _ in 0..per_prime {
                    data.extend([0, 1, q - 1].map(W::from_u64));
                    data.extend((3..n).map(|_| W::from_u64(rng.random_range(0..q))));
                }
            }
            data
        };
        let input = random(&mut rng);
        let mut data = input.clone();
        ntt.run(&mut data, per_prime, Direction::Forward)
            .unwrap_or_else(|e| panic!("2^{log2_n}: {e}"));
        // The O(N²) reference on the first transform of each prime, and at
        // 2^14 on a sample of outputs.
        for (p, &q) in primes.iter().enumerate() {
            let at = p * per_prime * n;
            let x = &input[at..at + n];
            let got = &data[at..at + n];
            if log2_n <= 11 {
                assert!(
                    got == ntt_reference(x, W::from_u64(q)).as_slice(),
                    "2^{log2_n} modulo {q}"
                );
            } else {
                let outputs = [0, 1, 777, n / 2 + 5, n - 1];
                let want = ntt_reference_outputs(x, W::from_u64(q), outputs);
                for (i, w) in outputs.into_iter().zip(want) {
                    assert_eq!(got[i], w, "2^{log2_n} modulo {q}, output {i}");
                }
            }
        }
        // Forward, pointwise product with another transform, inverse: the
        // cyclic convolution (checked at a few outputs, each an O(N) sum).
        let other = random(&mut rng);
        let mut b = other.clone();
        ntt.run(&mut b, per_prime, Direction::Forward).unwrap();
        let mut product: Vec<W> = data
            .iter()
            .zip(&b)
            .enumerate()
            .map(|(i, (&x, &y))| {
                let q = primes[i / (per_prime * n)];
                W::from_u64(mul_mod(x.to_u64(), y.to_u64(), q))
            })
            .collect();
        // The same with the pointwise product made by the inverse's first
        // launch: the same words.
        let mut fused = data.clone();
        ntt.run_times(&mut fused, &b, per_prime, Direction::Inverse)
            .unwrap_or_else(|e| panic!("inverse of the product 2^{log2_n}: {e}"));
        ntt.run(&mut product, per_prime, Direction::Inverse)
            .unwrap_or_else(|e| panic!("inverse 2^{log2_n}: {e}"));
        assert!(fused == product, "pointwise product in the inverse, 2^{log2_n}");
        for (p, &q) in primes.iter().enumerate() {
            let at = p * per_prime * n;
            for i in [0, 1, n / 2 + 3, n - 1] {
                let want = (0..n).fold(0u64, |acc, j| {
                    let x = input[at + j].to_u64();
                    let y = other[at + (i + n - j) % n].to_u64();
                    (acc + mul_mod(x, y, q)) % q
                });
                assert_eq!(
                    product[at + i].to_u64(),
                    want,
                    "convolution 2^{log2_n} modulo {q}, output {i}"
                );
            }
        }
        // The inverse undoes the forward transform, every word.
        ntt.run(&mut data, per_prime, Direction::Inverse).unwrap();
        assert!(data == input, "inverse after forward, 2^{log2_n}");
    }
}

/// The word-size NTT in 32-bit words: one launch (2^6, 2^11: rounds of 4,
/// 4 and 3 stages, 32 words a thread at 2^14); three launches (2^11 at most
/// 4 stages a launch: rounds of 1 to 4 stages, tiles read and written
/// through shared memory where their rows are shorter than a sector); 2^14
/// in one launch of 512 threads holding 32 words each, and in two on
/// 32-column tiles; 2^17 in two, the first on tiles of 2048 rows by 8
/// columns (the largest, 2^24's first pass); 2^18 in three launches of
/// tiles of 1024 words at most (a device that gives a block less shared
/// memory).
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn word_size_ntt_matches_the_host_transform() {
    use gfpf_cuda::ntt::{NTT_PRIMES_31, NttPlan31, ntt_reference_outputs};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (emulated word-size NTT): {why}");
        return;
    }
    let primes = [NTT_PRIMES_31[0], NTT_PRIMES_31[2]];
    // 2^11 also in three launches of 3 + 2 + 6 stages, the middle one from
    // stage 3 on 32-column tiles (G = 64).
    word_size_ntt_matches_host::<u32>(
        primes,
        &[
            (6, 3, 14, None, 1),
            (11, 2, 14, None, 1),
            (11, 1, 4, None, 3),
            (14, 1, 14, None, 1),
            (14, 1, 13, None, 2),
            (17, 1, 14, Some(&[11u32, 6][..]), 2),
        ],
        31,
    );
    assert!(matches!(
        NttPlan31::try_new(1 << 10, &[(1 << 31) - 1]),
        Err(gfpf_cuda::ntt::NttError::NoRoot { .. })
    ));
    assert!(matches!(
        NttPlan31::try_new(48, &primes),
        Err(gfpf_cuda::ntt::NttError::Length(48))
    ));
    // Tiles of 1024 words (a device that gives a block less shared memory):
    // 2^18 in three launches, the same outputs as the host's, and back.
    let plan = NttPlan31::try_new(1 << 18, &primes[..1])
        .unwrap()
        .with_max_tile_words(1024);
    let launches = plan.launches(1, Direction::Forward);
    assert_eq!(launches.len(), 3);
    assert!(launches.iter().all(|l| l.tile_words() <= 1024));
    let ntt = gfpf_testkit::emulator::EmulatedNtt31::new(plan, kernel_dir()).unwrap();
    let q = primes[0] as u32;
    let input: Vec<u32> = (0..1u32 << 18).map(|i| i.wrapping_mul(2654435761) % q).collect();
    let mut data = input.clone();
    ntt.run(&mut data, 1, Direction::Forward).unwrap();
    let outputs = [0, 3, 1 << 17, (1 << 18) - 1];
    for (i, w) in outputs.into_iter().zip(ntt_reference_outputs(&input, q, outputs)) {
        assert_eq!(data[i], w, "1024-word tiles, output {i}");
    }
    ntt.run(&mut data, 1, Direction::Inverse).unwrap();
    assert!(data == input, "1024-word tiles: inverse after forward");
    // Groups that do not make the length, or a first pass past the tile.
    let plan = NttPlan31::try_new(1 << 17, &primes).unwrap();
    for groups in [&[11u32, 5][..], &[12, 5], &[2, 15], &[]] {
        assert!(matches!(
            plan.clone().with_stage_groups(groups),
            Err(gfpf_cuda::ntt::NttError::StageGroups { .. })
        ));
    }
    assert_eq!(
        plan.with_stage_groups(&[12, 5]).unwrap_err().to_string(),
        "stage groups [12, 5] do not make 2^17 in tiles: they must sum to 17, the last take 6 to 14 stages and \
         every other 1 to 11"
    );
}

/// A forward transform whose last launch rounds four stages at a time runs
/// its last round on the tensor cores (the plan's default), with the same
/// bits as the round in registers (`with_tensor_cores(false)`) and the
/// host's transform, under both schedules; the inverse undoes it. 2^12 in
/// one launch, 2^16 in 4 + 12 stages, 2^17 in 5 + 12.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn word_size_ntt_last_round_on_tensor_cores() {
    use gfpf_cuda::ntt::{NTT_PRIMES_31, NttPlan31, ntt_reference_outputs};
    use rand::{RngExt, SeedableRng};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (word-size NTT on tensor cores): {why}");
        return;
    }
    let primes = [NTT_PRIMES_31[0], 2013265921];
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    for (log2_n, groups) in [(12u32, None), (16, Some(&[4u32, 12][..])), (17, Some(&[5, 12][..]))] {
        let n = 1usize << log2_n;
        let mut plan = NttPlan31::try_new(n, &primes).unwrap();
        if let Some(groups) = groups {
            plan = plan.with_stage_groups(groups).unwrap();
        }
        assert!(plan.tensor_cores());
        let launches = plan.launches(1, Direction::Forward);
        let flags: Vec<u64> = launches.iter().map(|l| l.tensor_cores).collect();
        assert_eq!(flags.last(), Some(&1), "2^{log2_n}: {launches:?}");
        assert!(flags[..flags.len() - 1].iter().all(|&f| f == 0));
        assert!(plan.launches(1, Direction::Inverse).iter().all(|l| l.tensor_cores == 0));
        let mut input: Vec<u32> = Vec::new();
        for &q in &primes {
            let q = q as u32;
            input.extend([0, 1, q - 1, q - 1]);
            input.extend((4..n).map(|_| rng.random_range(0..q)));
        }
        let on = gfpf_testkit::emulator::EmulatedNtt31::new(plan.clone(), kernel_dir()).unwrap();
        let off = gfpf_testkit::emulator::EmulatedNtt31::new(plan.with_tensor_cores(false), kernel_dir()).unwrap();
        let mut data = input.clone();
        on.run(&mut data, 1, Direction::Forward).unwrap();
        let mut registers = input.clone();
        off.run(&mut registers, 1, Direction::Forward).unwrap();
        assert!(data == registers, "2^{log2_n}: tensor cores and registers differ");
        for (p, &q) in primes.iter().enumerate() {
            let outputs = [0, 1, 2, 15, 16, 777, n / 2 + 5, n - 1];
            let want = ntt_reference_outputs(&input[p * n..(p + 1) * n], q as u32, outputs);
            for (i, w) in outputs.into_iter().zip(want) {
                assert_eq!(data[p * n + i], w, "2^{log2_n} modulo {q}, output {i}");
            }
        }
        on.run(&mut data, 1, Direction::Inverse).unwrap();
        assert!(data == input, "2^{log2_n}: inverse after forward");
    }
}

/// What the time model charges a word-size NTT is what it ran: each launch
/// reads and writes every word of device memory once, by its groups
/// (`ntt_global_words`) or in a loop through the tile (`ntt_tile_words`,
/// which every forward transform's last launch takes), and every butterfly
/// of every stage is counted once, the 32-bit forward ones apart
/// (`ntt_forward_butterflies`) but for the last round's four stages on the
/// tensor cores, the inverse ones as `ntt_butterflies`.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn word_size_ntt_counts_its_words_and_butterflies() {
    use gfpf_cuda::ntt::{NTT_PRIMES_31, NttPlan31};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (word-size NTT counts): {why}");
        return;
    }
    for (log2_n, groups) in [(12u32, None), (16, Some(&[4u32, 12][..]))] {
        let n = 1u64 << log2_n;
        let mut plan = NttPlan31::try_new(n as usize, &[NTT_PRIMES_31[0]]).unwrap();
        if let Some(groups) = groups {
            plan = plan.with_stage_groups(groups).unwrap();
        }
        let launches = plan.launches(1, Direction::Forward).len() as u64;
        let ntt = gfpf_testkit::emulator::EmulatedNtt31::new(plan, kernel_dir()).unwrap();
        for direction in [Direction::Forward, Direction::Inverse] {
            let mut data: Vec<u32> = (0..n as u32).collect();
            // Every block run: the counts are exact.
            let counted = ntt.launch_counts(&mut data, None, 1, direction, u32::MAX).unwrap();
            assert_eq!(counted.len() as u64, launches);
            let sum = |f: fn(&gfpf_testkit::emulator::FieldOps) -> u64| {
                counted.iter().map(|c| f(&c.traffic.ops)).sum::<u64>()
            };
            let at = format!("2^{log2_n} {direction:?}");
            assert_eq!(
                sum(|o| o.ntt_global_words) + sum(|o| o.ntt_tile_words),
                2 * n * launches,
                "{at}"
            );
            if direction == Direction::Forward {
                assert!(sum(|o| o.ntt_tile_words) >= n, "{at}: the last launch's stores");
            }
            let butterflies = u64::from(log2_n) * n / 2;
            if direction == Direction::Forward {
                assert!(sum(|o| o.ntt_mma_tiles) > 0, "{at}");
                assert_eq!(sum(|o| o.ntt_forward_butterflies), butterflies - 4 * n / 2, "{at}");
                assert_eq!(sum(|o| o.ntt_butterflies), 0, "{at}");
            } else {
                assert_eq!(sum(|o| o.ntt_forward_butterflies), 0, "{at}");
                assert_eq!(sum(|o| o.ntt_butterflies), butterflies, "{at}");
            }
        }
    }
}

/// The 64-bit words' and FP64 NTTs count their butterflies by direction
/// (forward `ntt62_forward_butterflies` / `ntt50_forward_butterflies`,
/// inverse `ntt62_butterflies` / `ntt50_butterflies`), every stage's once,
/// and each launch's words once each way, as the model charges them.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn wide_word_size_ntts_count_their_butterflies_by_direction() {
    use gfpf_cuda::ntt::{F64Word, NTT_PRIMES_62, NttPlan, NttWord, ntt50_primes};
    use gfpf_testkit::emulator::{EmulatedNtt, FieldOps};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (wide word-size NTT counts): {why}");
        return;
    }
    fn check<W: NttWord>(q: u64, forward: fn(&FieldOps) -> u64, inverse: fn(&FieldOps) -> u64) {
        let log2_n = 12u32;
        let n = 1u64 << log2_n;
        let plan = NttPlan::<W>::try_new(n as usize, &[q]).unwrap();
        let launches = plan.launches(1, Direction::Forward).len() as u64;
        let ntt = EmulatedNtt::new(plan, kernel_dir()).unwrap();
        for direction in [Direction::Forward, Direction::Inverse] {
            let mut data: Vec<W> = (0..n).map(|i| W::from_u64(i % q)).collect();
            let counted = ntt.launch_counts(&mut data, None, 1, direction, u32::MAX).unwrap();
            let sum = |f: fn(&FieldOps) -> u64| counted.iter().map(|c| f(&c.traffic.ops)).sum::<u64>();
            let at = format!("{} bits, {direction:?}", W::BITS);
            let butterflies = u64::from(log2_n) * n / 2;
            let (ran, not_ran) = if direction == Direction::Forward {
                (forward, inverse)
            } else {
                (inverse, forward)
            };
            assert_eq!(sum(ran), butterflies, "{at}");
            assert_eq!(sum(not_ran), 0, "{at}");
            let tile_words = sum(|o| o.ntt_tile_words + o.ntt62_tile_words + o.ntt50_tile_words);
            assert_eq!(sum(|o| o.ntt_global_words) + tile_words, 2 * n * launches, "{at}");
        }
    }
    check::<u64>(
        NTT_PRIMES_62[0],
        |o| o.ntt62_forward_butterflies,
        |o| o.ntt62_butterflies,
    );
    check::<F64Word>(
        ntt50_primes(32, 1)[0],
        |o| o.ntt50_forward_butterflies,
        |o| o.ntt50_butterflies,
    );
}

/// The shapes the 64-bit words' and FP64 tests run (see
/// [`word_size_ntt_matches_host`]): one launch (2^6; 2^11 in rounds of 3, 3,
/// 3 and 2 stages; 2^14, the largest tile, 16 words a thread in two
/// groups); three launches of at most 4 stages (2^11); 2^15 in two; 2^17 in
/// two, the first on tiles of 2048 rows by 8 columns (2^24's first pass).
const SIXTY_FOUR_BIT_CASES: &[NttCase<'static>] = &[
    (6, 3, 14, None, 1),
    (11, 2, 14, None, 1),
    (11, 1, 4, None, 3),
    (14, 1, 14, None, 1),
    (15, 1, 14, None, 2),
    (17, 1, 14, Some(&[11, 6]), 2),
];

/// The word-size NTT in 64-bit words (primes c·2^32 + 1 below 2^62, three
/// stages a round, tiles of 16384 words, blocks of 1024 threads): one
/// launch (2^6; 2^11 in rounds of 3, 3, 3 and 2 stages; 2^14, the largest
/// tile, 16 words a thread in two groups); three launches of at most 4
/// stages (2^11); 2^15 in two; 2^17 in two, the first on tiles of 2048 rows
/// by 8 columns (2^24's first pass); and the largest and smallest primes of
/// the table.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn word_size_ntt_in_64_bit_words_matches_the_host_transform() {
    use gfpf_cuda::ntt::{NTT_PRIMES_62, NttPlan62};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (emulated 64-bit word-size NTT): {why}");
        return;
    }
    word_size_ntt_matches_host::<u64>([NTT_PRIMES_62[0], NTT_PRIMES_62[63]], SIXTY_FOUR_BIT_CASES, 62);
    // A launch of the other width's kernel is refused by the emulator.
    let plan = NttPlan62::try_new(64, &NTT_PRIMES_62[..1]).unwrap();
    let kernels = gfpf_testkit::emulator::HostKernels::build_ntt(kernel_dir()).unwrap();
    let table = plan.twiddle_table(Direction::Forward);
    let constants = plan.prime_constants();
    let mut data = vec![1u64; 64];
    let [launch] = plan.launches(1, Direction::Forward)[..] else {
        panic!("64 takes one launch");
    };
    let params = gfpf_cuda::ntt::NttParams {
        data: data.as_mut_ptr() as u64,
        twiddles: table.as_ptr() as u64,
        primes: constants.as_ptr() as u64,
        word_bytes: 4,
        ..launch
    };
    // SAFETY: `data` holds the plan's one transform, the table and
    // constants are the plan's; NttParams is GfpfNttParams's twin.
    let result = unsafe {
        kernels.launch_params(
            "gfpf_ntt62_stages",
            &params,
            params.threads,
            params.block_threads(),
            0,
            false,
            1,
            u64::from(launch.shared_bytes()),
        )
    };
    let error = result.unwrap_err().to_string();
    assert!(error.contains("word_bytes"), "{error}");
}

/// The word-size NTT in FP64 (primes c·2^32 + 1 below 2^50 computed on as
/// doubles, residues in memory as 64-bit integers; the 64-bit words'
/// rounds, tiles and blocks): the shapes of the 64-bit test, on the largest
/// and the 64th largest such prime; the products exact, so bit for bit.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn word_size_ntt_in_fp64_matches_the_host_transform() {
    use gfpf_cuda::ntt::{F64Word, NttError, NttPlan50, ntt50_primes};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (emulated FP64 word-size NTT): {why}");
        return;
    }
    let primes = ntt50_primes(32, 64);
    assert_eq!(primes.len(), 64);
    assert!(primes.iter().all(|&q| q > 1 << 49 && q < 1 << 50 && q % (1 << 32) == 1));
    word_size_ntt_matches_host::<F64Word>([primes[0], primes[63]], SIXTY_FOUR_BIT_CASES, 50);
    // Primes past 2^50, or not 1 mod 2^32, are refused.
    assert!(matches!(
        NttPlan50::try_new(64, &[gfpf_cuda::ntt::NTT_PRIMES_62[0]]),
        Err(NttError::NotPrime { bits: 50, .. })
    ));
    assert!(matches!(
        NttPlan50::try_new(64, &[gfpf_cuda::ntt::NTT_PRIMES_31[0]]),
        Err(NttError::PrimeForm(_))
    ));
}

/// The FP64 NTT's arithmetic (kernels/gfpf_ntt.cu) at the edges of what it
/// takes, on the largest prime below 2^50 it uses, the 64th and the
/// smallest above 2^49: `gfpf_ntt_mul_fp` (x·w mod q for |x| < 2q, |w| < q,
/// w/q rounded once as the tables hold it or twice as `times` makes it)
/// gives an integer in (−q, q) congruent to x·w, and `gfpf_ntt_reduce_fp`
/// (v mod q for |v| < 2q) one within q/2 + 1 of 0, for x, w and v at 0, ±1,
/// and next to ±q and ±2q, and at random.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn fp64_products_and_reductions_are_exact_at_their_edges() {
    use rand::{RngExt, SeedableRng};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (FP64 NTT arithmetic): {why}");
        return;
    }
    // The kernels' module holds an entry point for this test
    // (`gfpf_ntt_fp64_arithmetic`, host emulation only).
    let kernels = gfpf_testkit::emulator::HostKernels::build_ntt(kernel_dir()).unwrap();
    let all = gfpf_cuda::ntt::ntt50_primes(32, usize::MAX);
    assert!(all.len() > 1000 && all.iter().all(|&q| q > 1 << 49 && q < 1 << 50));
    let mut rng = rand::rngs::StdRng::seed_from_u64(50);
    let mut cases: Vec<[f64; 6]> = Vec::new();
    for q in [all[0], all[63], all[all.len() - 1]] {
        let qi = q as i64;
        let edges = |bound: i64| [0, 1, 2, bound / 2, bound - 2, bound - 1];
        let signed = |v: &[i64]| v.iter().flat_map(|&v| [v, -v]).collect::<Vec<_>>();
        let mut xs = signed(&edges(2 * qi));
        xs.extend(signed(&[qi - 1, qi, qi + 1]));
        let mut ws = signed(&edges(qi));
        for _ in 0..8 {
            xs.push(rng.random_range(-2 * qi + 1..2 * qi));
            ws.push(rng.random_range(-qi + 1..qi));
        }
        let q_inverse = 1.0 / q as f64;
        for (i, &x) in xs.iter().enumerate() {
            for (j, &w) in ws.iter().enumerate() {
                // w/q as the tables hold it (one rounding) and as `times`
                // makes it (w·(1/q), two).
                for w_over_q in [w as f64 / q as f64, w as f64 * q_inverse] {
                    let v = xs[(i + j) % xs.len()];
                    cases.push([x as f64, w as f64, w_over_q, q as f64, q_inverse, v as f64]);
                }
            }
        }
    }
    let mut out = vec![0f64; 2 * cases.len()];
    let params = gfpf_cuda::ntt::NttParams {
        data: out.as_mut_ptr() as u64,
        twiddles: cases.as_ptr() as u64,
        threads: cases.len() as u64,
        ..Default::default()
    };
    // SAFETY: the test kernel reads six doubles a case from `twiddles` and
    // writes two a case to `data`, `threads` cases.
    unsafe { kernels.launch_params("gfpf_ntt_fp64_arithmetic", &params, params.threads, 128, 0, false, 1, 0) }.unwrap();
    for (case, got) in cases.iter().zip(out.chunks(2)) {
        let [x, w, _, q, _, v] = case.map(|c| c as i128);
        let (product, reduced) = (got[0], got[1]);
        assert!(
            product.fract() == 0.0 && (product as i128).abs() < q && (product as i128 - x * w) % q == 0,
            "x·w mod q: {case:?} gave {product}"
        );
        assert!(
            reduced.fract() == 0.0 && (reduced as i128).abs() <= q / 2 + 1 && (reduced as i128 - v) % q == 0,
            "v mod q: {case:?} gave {reduced}"
        );
    }
}

/// The 64-bit join's digit sums pass 128 bits (up to s·2^125 at t8) and
/// carry into a third word: residues whose CRT coefficients y_j are near
/// (s − 1)/s of their primes, so that most digit sums pass 2^128 (checked
/// here on the host), joined into the integer they stand for, mod p. Random
/// products rarely reach there (a sum's mean is about 2^127).
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn join_in_64_bit_words_carries_sums_past_128_bits() {
    use gfpf_cuda::multimodular::MultiModularPlan62;
    use rug::Integer;
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (emulated 64-bit join): {why}");
        return;
    }
    let field = Field::<8>::preset(gfpf_field::Preset::T8).unwrap();
    let plan = MultiModularPlan62::try_new(&field, 64, 65).unwrap();
    let primes: Vec<u64> = plan.ntt().primes().to_vec();
    let s = primes.len() as u64;
    let m = primes.iter().fold(Integer::from(1), |acc, &q| acc * q);
    let m_j: Vec<Integer> = primes.iter().map(|&q| Integer::from(&m / q)).collect();
    // y_j = ⌊q_j·(s − 1)/s⌋ + t_j: Σ y_j/q_j just above s − 1 + (a coefficient
    // index's small share), so that x = Σ y_j·M_j − (s − 1)·M < M/2^10.
    let n = plan.ntt().len();
    let count = 4;
    let mut residues = vec![0u64; primes.len() * n];
    let mut want = Vec::new();
    let mut past_128 = 0;
    for c in 0..count {
        let mut y: Vec<u64> = primes
            .iter()
            .map(|&q| (u128::from(q) * u128::from(s - 1) / u128::from(s)) as u64)
            .collect();
        // Raise y_0 until the fraction is positive: the sum of the others'
        // shortfalls is below s/q_j each, so a few steps of q_0/2^20 do it.
        let fraction = |y: &[u64]| -> f64 {
            y.iter().zip(&primes).map(|(&y, &q)| y as f64 / q as f64).sum::<f64>() - (s - 1) as f64
        };
        while fraction(&y) < 1e-6 * (c + 1) as f64 {
            y[0] += primes[0] >> 24;
        }
        assert!(fraction(&y) < 2f64.powi(-12), "coefficient {c}");
        let x = y.iter().zip(&m_j).fold(Integer::new(), |acc, (&y, mj)| acc + mj * y) - &m * (s - 1);
        assert!(x > 0 && x < Integer::from(&m >> 10), "coefficient {c}");
        for (j, &q) in primes.iter().enumerate() {
            residues[j * n + c] = Integer::from(&x % q).to_u64().unwrap();
        }
        want.push(field.from_integer_reduced(&x));
        // The digit sums the kernel forms: Σ y_j·(M_j mod p)_d + k·(−M mod p)_d.
        let digits = |v: &Integer| field.from_integer_reduced(v).digits().to_vec();
        let neg_m = field.neg(&field.from_integer_reduced(&m)).digits().to_vec();
        for d in 0..8 {
            let sum = y
                .iter()
                .zip(&m_j)
                .map(|(&y, mj)| Integer::from(y) * digits(mj)[d])
                .fold(Integer::new(), |acc, t| acc + t)
                + Integer::from(s - 1) * neg_m[d];
            past_128 += usize::from(sum.significant_bits() > 128);
        }
    }
    assert!(past_128 >= count, "only {past_128} digit sums pass 2^128");
    let join = gfpf_testkit::emulator::EmulatedMultiModular::with_plan(plan, kernel_dir()).unwrap();
    let got = join.join(&residues, count).unwrap();
    assert!(got == want, "joins of sums past 2^128");
}

/// Deleting any barrier of the word-size NTT's source makes the emulator
/// fail a launch that reaches it: the stage kernel's two (between its
/// rounds, and before a tile goes out through shared memory), the warp
/// barrier of its round on the tensor cores (between the groups' reads and
/// writes), and the tensor-core DFT kernel's (after its block copies the
/// fragments to shared memory). One library serves every deletion
/// (`with_barrier_switch`).
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn word_size_ntt_barriers_each_needed() {
    use gfpf_cuda::ntt::{NTT_PRIMES_31, NttPlan31};
    use gfpf_testkit::emulator::{EmulatedNtt31, HostKernels};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (word-size NTT barriers): {why}");
        return;
    }
    let source = gfpf_kernels::NTT_SOURCE;
    let mut places: Vec<(usize, &str)> = ["__syncthreads();", "__syncwarp();"]
        .into_iter()
        .flat_map(|barrier| source.match_indices(barrier))
        .collect();
    places.sort();
    assert_eq!(places.len(), 4, "the NTT source's barriers");
    let switched = with_barrier_switch(source, &places);
    let kernels = || HostKernels::build_ntt_from(&switched, kernel_dir()).unwrap();
    // Held for the whole test, as in barriers_each_needed_in_tiled_stages.
    let library = kernels();
    let skip = |i: i32| {
        // SAFETY: with_barrier_switch defines int gfpf_test_skip_barrier(int).
        unsafe { library.call_with_int("gfpf_test_skip_barrier", i) }.unwrap();
    };
    let reached = |i: usize| {
        // SAFETY: with_barrier_switch defines int gfpf_test_barrier_reached(int).
        unsafe { library.call_with_int("gfpf_test_barrier_reached", i as i32) }.unwrap() != 0
    };
    let q = NTT_PRIMES_31[0];
    let words = |n: u32| -> Vec<u32> {
        (0..n)
            .map(|i| (u64::from(i.wrapping_mul(2654435761)) % q) as u32)
            .collect()
    };
    // 2^11 in one launch (three rounds, the last one out through shared
    // memory); 2^12 in one launch, its last round on the tensor cores; the
    // tensor-core DFT_16 kernel alone.
    let stage = NttPlan31::try_new(1 << 11, &NTT_PRIMES_31[..1]).unwrap();
    let round = NttPlan31::try_new(1 << 12, &NTT_PRIMES_31[..1]).unwrap();
    assert!(round.launches(1, Direction::Forward)[0].tensor_cores == 1);
    let run = |workload: usize| -> Result<(), EmulatorError> {
        match workload {
            0 => EmulatedNtt31::with_kernels(stage.clone(), kernels()).run(&mut words(1 << 11), 1, Direction::Forward),
            1 => EmulatedNtt31::with_kernels(round.clone(), kernels()).run(&mut words(1 << 12), 1, Direction::Forward),
            _ => run_dft16_mma(&kernels(), q, &mut vec![1u32; 16 * 64], None, 0),
        }
    };
    let workloads = [
        "2^11, one launch",
        "2^12, a round on the tensor cores",
        "the tensor-core DFT_16",
    ];
    let reaching: Vec<Vec<usize>> = (0..workloads.len())
        .map(|w| {
            skip(-1);
            run(w).unwrap_or_else(|e| panic!("{}, every barrier kept: {e}", workloads[w]));
            (0..places.len()).filter(|&i| reached(i)).collect()
        })
        .collect();
    for (i, &(at, barrier)) in places.iter().enumerate() {
        let w = (0..workloads.len())
            .find(|&w| reaching[w].contains(&i))
            .unwrap_or_else(|| panic!("barrier {i} ({barrier} at byte {at}) is in no kernel run here"));
        skip(i as i32);
        let error = run(w).expect_err(&format!(
            "{}: still ran without barrier {i} ({barrier} at byte {at})",
            workloads[w]
        ));
        eprintln!("barrier {i} ({barrier}) skipped, {}: {error}", workloads[w]);
    }
}

/// Runs the tensor-core DFT_16 kernel on 16 rows of `columns` words
/// (transformed in place) under one schedule, with per-column factors A·2^32
/// mod q (`twiddles`) or none.
fn run_dft16_mma(
    kernels: &gfpf_testkit::emulator::HostKernels,
    q: u64,
    data: &mut [u32],
    twiddles: Option<&[u32]>,
    schedule: u32,
) -> Result<(), EmulatorError> {
    use gfpf_cuda::ntt::{DFT16_MMA_BLOCK_THREADS, DFT16_MMA_FRAGMENT_WORDS, DFT16_MMA_KERNEL, NttParams, NttPlan31};
    let columns = data.len() / 16;
    assert!(columns.is_power_of_two() && columns >= 8);
    let fragments = gfpf_cuda::ntt::dft16_mma_fragments(q).unwrap();
    let constants = NttPlan31::try_new(64, &[q]).unwrap().prime_constants();
    let params = NttParams {
        data: data.as_mut_ptr() as u64,
        twiddles: fragments.as_ptr() as u64,
        primes: constants.as_ptr() as u64,
        other: twiddles.map_or(0, |t| t.as_ptr() as u64),
        threads: (columns / 8 * 32) as u64,
        log2_columns: u64::from(columns.trailing_zeros()),
        word_bytes: 4,
        ..Default::default()
    };
    // SAFETY: `data` holds 16 rows of `columns` words, the fragments are the
    // prime's 1024 words, the constants the prime's eight, `other` (where
    // given) `columns` words; NttParams is GfpfNttParams's twin.
    unsafe {
        kernels.launch_params(
            DFT16_MMA_KERNEL,
            &params,
            params.threads,
            DFT16_MMA_BLOCK_THREADS,
            schedule,
            false,
            1,
            4 * DFT16_MMA_FRAGMENT_WORDS as u64,
        )
    }
    .map(|_| ())
}

/// The tensor-core DFT_16 (int8 `mma` of the data's bytes by sliced
/// constants) computes, bit for bit under both schedules, what a round of
/// four forward stages computes on a group: y_p = A^rev(p)·Σ_m
/// x_m·w16^(m·rev(p)) mod q (the stage kernels' reference transform of
/// length 16, times the group's twiddles), for large and small primes, edge
/// columns (0, 1, q − 1 everywhere, alternating) and edge factors (A = 1, q
/// − 1, 0).
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn tensor_core_dft16_is_a_round_of_four_stages() {
    use gfpf_cuda::ntt::{NTT_PRIMES_31, ntt_reference};
    use rand::{RngExt, SeedableRng};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (tensor-core DFT_16): {why}");
        return;
    }
    let kernels = gfpf_testkit::emulator::HostKernels::build_ntt(kernel_dir()).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    let columns = 128;
    for q in [NTT_PRIMES_31[0], *NTT_PRIMES_31.last().unwrap(), 2013265921, 65537, 257] {
        let q32 = q as u32;
        let mut input: Vec<u32> = (0..16 * columns).map(|_| rng.random_range(0..q32)).collect();
        for m in 0..16 {
            input[m * columns] = q32 - 1;
            input[m * columns + 1] = 0;
            input[m * columns + 2] = 1;
            input[m * columns + 3] = if m % 2 == 0 { q32 - 1 } else { 0 };
        }
        let mut factors: Vec<u64> = (0..columns).map(|_| rng.random_range(0..q)).collect();
        factors[..3].copy_from_slice(&[1, q - 1, 0]);
        let montgomery: Vec<u32> = factors
            .iter()
            .map(|&a| ((u128::from(a) << 32) % u128::from(q)) as u32)
            .collect();
        for twiddled in [false, true] {
            let mut want = vec![0u32; 16 * columns];
            for c in 0..columns {
                let column: Vec<u32> = (0..16).map(|m| input[m * columns + c]).collect();
                for (p, y) in ntt_reference(&column, q32).into_iter().enumerate() {
                    let rev = (p.reverse_bits() >> (usize::BITS - 4)) as u32;
                    let a = if twiddled { factors[c] } else { 1 };
                    let power = u128::from(gfpf_small::primes::pow_mod(a, rev.into(), q));
                    want[p * columns + c] = (u128::from(y) * power % u128::from(q)) as u32;
                }
            }
            for schedule in [0, 1] {
                let mut data = input.clone();
                run_dft16_mma(&kernels, q, &mut data, twiddled.then_some(&montgomery[..]), schedule).unwrap();
                for (i, (got, want)) in data.iter().zip(&want).enumerate() {
                    assert_eq!(
                        got,
                        want,
                        "q = {q}, twiddled {twiddled}, schedule {schedule}: row {}, column {}",
                        i / columns,
                        i % columns
                    );
                }
            }
        }
    }
}

/// A launch of the word-size NTT that gives its blocks one word less
/// dynamic shared memory than its tile takes fails at the first word past
/// what it gave (the emulator bounds dynamic shared memory by the launch),
/// and runs with what `NttParams::shared_bytes` gives.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn word_size_ntt_needs_the_shared_memory_it_asks_for() {
    use gfpf_cuda::ntt::{NTT_KERNEL, NTT_PRIMES_31, NttParams, NttPlan31};
    if let Some(why) = emulator_unavailable() {
        eprintln!("SKIPPED (word-size NTT shared memory): {why}");
        return;
    }
    let plan = NttPlan31::try_new(1 << 11, &NTT_PRIMES_31[..1]).unwrap();
    let kernels = gfpf_testkit::emulator::HostKernels::build_ntt(kernel_dir()).unwrap();
    let table = plan.twiddle_table(Direction::Forward);
    let constants = plan.prime_constants();
    let mut data = vec![1u32; 1 << 11];
    let [launch] = plan.launches(1, Direction::Forward)[..] else {
        panic!("2^11 takes one launch");
    };
    let params = NttParams {
        data: data.as_mut_ptr() as u64,
        twiddles: table.as_ptr() as u64,
        primes: constants.as_ptr() as u64,
        ..launch
    };
    let run = |bytes: u64| {
        // SAFETY: `data` holds the plan's one transform, the table and
        // constants are the plan's; NttParams is GfpfNttParams's twin.
        unsafe {
            kernels.launch_params(
                NTT_KERNEL,
                &params,
                params.threads,
                params.block_threads(),
                0,
                false,
                1,
                bytes,
            )
        }
    };
    let error = run(u64::from(params.shared_bytes()) - 4).unwrap_err().to_string();
    assert!(error.contains("past the end"), "{error}");
    assert!(run(u64::from(params.shared_bytes())).is_ok());
}

/// Products through word-size primes (projection, NTTs, pointwise product,
/// the explicit CRT's join) against rug's schoolbook product, bit for bit,
/// edge values leading each operand, balanced and unbalanced lengths, and
/// shorter operands through a longer plan: every preset up to k = 16 (t8
/// takes 35 primes of 31 bits, t16 68; about half as many of 62 bits); t64, which
/// would need 269, is refused. In words `W`.
fn multimodular_products_match_rug<const K: usize, W: gfpf_cuda::ntt::NttWord>(preset: gfpf_field::Preset) {
    if let Some(why) = emulator_unavailable() {
        eprintln!(
            "SKIPPED (emulated multi-modular products, {}, {}-bit words): {why}",
            preset.name(),
            W::BITS
        );
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    for (i, (la, lb)) in [(1, 1), (17, 33), (64, 65)].into_iter().enumerate() {
        let a = gfpf_testkit::oracle::sample(&field, la, 140 + i as u64);
        let b = gfpf_testkit::oracle::sample(&field, lb, 180 + i as u64);
        let mul = gfpf_testkit::emulator::EmulatedMultiModular::<K, W>::new(&field, la, lb, kernel_dir()).unwrap();
        let got = mul
            .mul(&a, &b)
            .unwrap_or_else(|e| panic!("{} {la}x{lb}: {e}", preset.name()));
        assert!(
            got == gfpf_testkit::oracle::rug_polynomial_product(&field, &a, &b),
            "{} {la}x{lb} ({} primes)",
            preset.name(),
            mul.plan().ntt().primes().len()
        );
    }
    // One plan serves every product it covers, as the device's cached
    // engines do: shorter and swapped operands through the 64 × 65 plan.
    let mul = gfpf_testkit::emulator::EmulatedMultiModular::<K, W>::new(&field, 64, 65, kernel_dir()).unwrap();
    for (la, lb) in [(65, 17), (1, 64), (63, 2)] {
        let a = gfpf_testkit::oracle::sample(&field, la, 200 + la as u64);
        let b = gfpf_testkit::oracle::sample(&field, lb, 300 + lb as u64);
        assert!(
            mul.mul(&a, &b).unwrap() == gfpf_testkit::oracle::rug_polynomial_product(&field, &a, &b),
            "{} {la}x{lb} through the 64x65 plan",
            preset.name()
        );
    }
    let long = gfpf_testkit::oracle::sample(&field, 100, 1);
    assert!(mul.mul(&long, &long[..40]).is_err(), "a product past N is refused");
}

#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn multimodular_products_match_rug_up_to_k16() {
    use gfpf_field::Preset;
    multimodular_products_match_rug::<2, u32>(Preset::T2);
    multimodular_products_match_rug::<4, u32>(Preset::T4);
    multimodular_products_match_rug::<4, u32>(Preset::P4);
    multimodular_products_match_rug::<8, u32>(Preset::T8);
    multimodular_products_match_rug::<8, u32>(Preset::P8);
    multimodular_products_match_rug::<16, u32>(Preset::T16);
    multimodular_products_match_rug::<16, u32>(Preset::P16);
    let t64 = Field::<64>::preset(gfpf_field::Preset::T64).unwrap();
    assert!(matches!(
        gfpf_cuda::multimodular::MultiModularPlan31::try_new(&t64, 100, 100),
        Err(gfpf_cuda::ntt::NttError::TooManyPrimes { most: 96, .. })
    ));
}

/// The same products through primes below 2^62 in 64-bit words (the
/// 62-bit projection, NTT and 192-bit join), what the device takes where
/// 31-bit primes run out.
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn multimodular_products_in_64_bit_words_match_rug_up_to_k16() {
    use gfpf_field::Preset;
    multimodular_products_match_rug::<2, u64>(Preset::T2);
    multimodular_products_match_rug::<4, u64>(Preset::P4);
    multimodular_products_match_rug::<8, u64>(Preset::T8);
    multimodular_products_match_rug::<8, u64>(Preset::P8);
    // Above k = 8 the join's last carry is a launch of its own.
    multimodular_products_match_rug::<16, u64>(Preset::T16);
    multimodular_products_match_rug::<16, u64>(Preset::P16);
}

/// The same products through primes below 2^50 whose NTTs run in FP64
/// (`F64Word`: the 64-bit words' projection and join, the FP64 NTT), what
/// the device takes past the 31-bit primes' reach where its FP64 rate is
/// its integer rate: t8, and t16 whose join ends with a launch of its own
/// (the other presets run the same kernels as in 64-bit words, above).
#[test]
#[cfg_attr(
    not(gfpf_cxx),
    ignore = "no host C++ compiler ($CXX or c++) where these tests were built"
)]
fn multimodular_products_in_fp64_match_rug_up_to_k16() {
    use gfpf_cuda::ntt::F64Word;
    use gfpf_field::Preset;
    multimodular_products_match_rug::<8, F64Word>(Preset::T8);
    multimodular_products_match_rug::<16, F64Word>(Preset::T16);
}
