//! The tests on a GPU (compiled only where the build found a CUDA driver:
//! `gfpf_cuda_driver`, see build.rs): the shared executor suite, bit-identity
//! of transforms and products with gfpf-cpu, transforms chained on the
//! device. Run without a device, each prints why it returns early.

use std::sync::{Arc, OnceLock};

use gfpf_cpu::{CpuFft, MulAlgorithm, PolyMul};
use gfpf_cuda::{CudaDevice, CudaError, CudaFft, CudaMulAlgorithm, CudaPolyMul, DeviceBuffer, cuda_unavailable};
use gfpf_field::{Field, Preset};
use gfpf_plan::{Direction, Order};
use gfpf_testkit::Executor;
use gfpf_testkit::oracle::sample;

/// The device shared by every test of this binary.
fn device() -> Result<&'static Arc<CudaDevice>, CudaError> {
    static DEVICE: OnceLock<Result<Arc<CudaDevice>, CudaError>> = OnceLock::new();
    DEVICE
        .get_or_init(|| {
            let d = CudaDevice::try_new(0)?;
            eprintln!(
                "GPU: {} (compute capability {:?}, {:?}, driver CUDA {:?})",
                d.name(),
                d.compute_capability(),
                d.shape(),
                d.driver_cuda_version()
            );
            Ok(d)
        })
        .as_ref()
        .map_err(Clone::clone)
}

struct Gpu;

impl Executor for Gpu {
    const NAME: &'static str = "cuda";
    type Fft<const K: usize> = CudaFft<K>;

    fn unavailable() -> Option<String> {
        cuda_unavailable()
    }

    fn plan<const K: usize>(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
    ) -> Result<CudaFft<K>, CudaError> {
        CudaFft::try_new(device()?, field, n, direction, order)
    }
}

gfpf_testkit::executor_suite!(crate::on_gpu::Gpu);

/// Largest N of the bit-identity check against gfpf-cpu (DESIGN/issue: up to
/// 2^20 on every preset, larger where memory allows).
const IDENTITY_MAX_LOG2: u32 = 20;

/// Forward and inverse, natural and digit-reversed, N = 2^1 … 2^20 (stepping
/// by 3 in the exponent, always ending at 2^20): the GPU's output equals
/// gfpf-cpu's word for word, including a batch of 3 at small N.
fn identical_to_cpu<const K: usize>(preset: Preset) {
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda, {}): {why}", preset.name());
        return;
    }
    let device = device().unwrap();
    let field = Field::<K>::preset(preset).unwrap();
    let top = IDENTITY_MAX_LOG2.min(field.two_adicity());
    let mut sizes: Vec<u32> = (1..top).step_by(3).collect();
    sizes.push(top);
    for log2_n in sizes {
        let n = 1usize << log2_n;
        let batch = if n <= 1024 { 3 } else { 1 };
        let x = sample(&field, n * batch, 40 + u64::from(log2_n));
        for (direction, order) in [
            (Direction::Forward, Order::Natural),
            (Direction::Forward, Order::DigitReversed),
            (Direction::Inverse, Order::Natural),
            (Direction::Inverse, Order::DigitReversed),
        ] {
            let mut cpu = x.clone();
            CpuFft::try_new(&field, n, direction, order)
                .unwrap()
                .process(&mut cpu)
                .unwrap();
            let mut gpu = x.clone();
            CudaFft::try_new(device, &field, n, direction, order)
                .and_then(|fft| fft.process(&mut gpu))
                .unwrap_or_else(|e| panic!("{} N = 2^{log2_n} {direction:?} {order:?}: {e}", preset.name()));
            if let Some(i) = (0..cpu.len()).find(|&i| cpu[i] != gpu[i]) {
                panic!(
                    "{} N = 2^{log2_n} {direction:?} {order:?}: GPU and CPU differ first at {i}",
                    preset.name()
                );
            }
        }
    }
}

/// Products on the GPU equal gfpf-cpu's, bit for bit, from tiny to long
/// (2^18 coefficients for k ≤ 16), by each device path: the big prime's
/// padded transforms, word-size primes (k ≤ 16), and Auto's choice.
fn products_identical_to_cpu<const K: usize>(preset: Preset) {
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda, {}): {why}", preset.name());
        return;
    }
    let field = Field::<K>::preset(preset).unwrap();
    let gpu = CudaPolyMul::new(device().unwrap(), &field);
    let cpu = PolyMul::new(&field).unwrap();
    let long = if K <= 16 { 1 << 17 } else { 1 << 12 };
    let mut algorithms = vec![CudaMulAlgorithm::BigPrime, CudaMulAlgorithm::Auto];
    if K <= 16 {
        algorithms.push(CudaMulAlgorithm::MultiModular);
    }
    for (la, lb) in [(1, 1), (3, 70), (1000, 1025), (long, long + 1)] {
        if (la + lb - 1usize).next_power_of_two().trailing_zeros() > field.two_adicity() {
            continue;
        }
        let a = sample(&field, la, la as u64);
        let b = sample(&field, lb, lb as u64);
        let want = cpu.mul(&a, &b, MulAlgorithm::Tft).unwrap();
        for &algorithm in &algorithms {
            let got = gpu
                .mul_with(&a, &b, algorithm)
                .unwrap_or_else(|e| panic!("{} {la}x{lb} {algorithm:?}: {e}", preset.name()));
            assert!(
                got == want,
                "{} {la}x{lb} {algorithm:?}: GPU and CPU products differ",
                preset.name()
            );
        }
    }
}

macro_rules! identity_tests {
    ($($name:ident $preset:ident $k:literal),*) => {
        mod identical_to_cpu {
            use super::*;
            $(
                #[test]
                fn $name() {
                    identical_to_cpu::<$k>(Preset::$preset);
                }
            )*
        }
        mod products_identical_to_cpu {
            use super::*;
            $(
                #[test]
                fn $name() {
                    products_identical_to_cpu::<$k>(Preset::$preset);
                }
            )*
        }
    };
}

gfpf_field::for_each_preset!(identity_tests!());

/// Products past the 31-bit primes' reach go through 62-bit primes in
/// 64-bit words (t8, 2^21 × 2^21 coefficients: 18 primes, N = 2^22), and
/// short ones through the 64-bit engine directly (t8; t16, whose join ends
/// with a launch of its own): all equal gfpf-cpu's.
#[test]
fn products_through_62_bit_primes_identical_to_cpu() {
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda): {why}");
        return;
    }
    let field = Field::<8>::preset(Preset::T8).unwrap();
    let cpu = PolyMul::new(&field).unwrap();
    let engine = gfpf_cuda::multimodular::CudaMultiModular::try_new(
        device().unwrap(),
        gfpf_cuda::multimodular::MultiModularPlan62::try_new(&field, 1000, 1025).unwrap(),
    )
    .unwrap();
    let (a, b) = (sample(&field, 1000, 7), sample(&field, 1025, 8));
    assert!(engine.mul(&a, &b).unwrap() == cpu.mul(&a, &b, MulAlgorithm::Tft).unwrap());
    let t16 = Field::<16>::preset(Preset::T16).unwrap();
    let engine = gfpf_cuda::multimodular::CudaMultiModular::try_new(
        device().unwrap(),
        gfpf_cuda::multimodular::MultiModularPlan62::try_new(&t16, 1000, 1025).unwrap(),
    )
    .unwrap();
    let (a, b) = (sample(&t16, 1000, 11), sample(&t16, 1025, 12));
    let want = PolyMul::new(&t16).unwrap().mul(&a, &b, MulAlgorithm::Tft).unwrap();
    assert!(engine.mul(&a, &b).unwrap() == want, "t16 through 62-bit primes");
    let gpu = CudaPolyMul::new(device().unwrap(), &field);
    let n = 1 << 21;
    // Auto as the model's contest has it at N = 2^22 (the primes reach it).
    let lead = gfpf_cuda::ModelledProduct::for_product(&field, 22)
        .unwrap()
        .word_size_primes_lead();
    assert_eq!(
        gpu.resolve(CudaMulAlgorithm::Auto, n, n),
        if lead {
            CudaMulAlgorithm::MultiModular
        } else {
            CudaMulAlgorithm::BigPrime
        }
    );
    let (a, b) = (sample(&field, n, 9), sample(&field, n, 10));
    let got = gpu.mul_with(&a, &b, CudaMulAlgorithm::MultiModular).unwrap();
    assert!(got == cpu.mul(&a, &b, MulAlgorithm::Tft).unwrap(), "t8 2^21 x 2^21");
}

/// The same products through primes below 2^50 whose NTTs run in FP64
/// (t8 and t16, the engine directly; what a device with fast FP64 takes
/// past the 31-bit primes' reach): equal to gfpf-cpu's.
#[test]
fn products_through_fp64_primes_identical_to_cpu() {
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda): {why}");
        return;
    }
    let field = Field::<8>::preset(Preset::T8).unwrap();
    let engine = gfpf_cuda::multimodular::CudaMultiModular::try_new(
        device().unwrap(),
        gfpf_cuda::multimodular::MultiModularPlan50::try_new(&field, 1000, 1025).unwrap(),
    )
    .unwrap();
    let (a, b) = (sample(&field, 1000, 17), sample(&field, 1025, 18));
    let want = PolyMul::new(&field).unwrap().mul(&a, &b, MulAlgorithm::Tft).unwrap();
    assert!(engine.mul(&a, &b).unwrap() == want, "t8 through FP64 primes");
    let t16 = Field::<16>::preset(Preset::T16).unwrap();
    let engine = gfpf_cuda::multimodular::CudaMultiModular::try_new(
        device().unwrap(),
        gfpf_cuda::multimodular::MultiModularPlan50::try_new(&t16, 1000, 1025).unwrap(),
    )
    .unwrap();
    let (a, b) = (sample(&t16, 1000, 21), sample(&t16, 1025, 22));
    let want = PolyMul::new(&t16).unwrap().mul(&a, &b, MulAlgorithm::Tft).unwrap();
    assert!(engine.mul(&a, &b).unwrap() == want, "t16 through FP64 primes");
}

/// Transforms chained on the device without host copies: forward then
/// inverse on one resident buffer gives the input back.
#[test]
fn chained_on_device() {
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda): {why}");
        return;
    }
    let device = device().unwrap();
    let field = Field::<8>::preset(Preset::T8).unwrap();
    let n = 1 << 12;
    let x = sample(&field, 2 * n, 5);
    let forward = CudaFft::try_new(device, &field, n, Direction::Forward, Order::DigitReversed).unwrap();
    let inverse = CudaFft::try_new(device, &field, n, Direction::Inverse, Order::DigitReversed).unwrap();
    let mut buffer = DeviceBuffer::upload(device, &x).unwrap();
    forward.process_device(&mut buffer, None).unwrap();
    inverse.process_device(&mut buffer, None).unwrap();
    assert_eq!(buffer.download(device, &field).unwrap(), x);
}

/// The device's shared memory a block and its SMs, as the driver reports
/// them, bound the launches a transform takes: every launch of t8 2^12
/// batches (pairs of stages where they fit) within the shared memory, and
/// batches from one to one large enough to fill the device (teams of
/// threads, stages in pairs of 106.7 KiB) give gfpf-cpu's output.
#[test]
fn launches_fit_the_device_shared_memory() {
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda): {why}");
        return;
    }
    use gfpf_cuda::params::launches_on;
    let device = device().unwrap();
    let shape = device.shape();
    let shared = shape.max_shared_bytes_per_block;
    eprintln!("{shape:?}");
    assert!(shape.multiprocessors >= 1, "{shape:?}");
    assert!(
        shared >= 48 * 1024,
        "{shared} bytes: below what every CUDA device gives"
    );
    let field = Field::<8>::preset(Preset::T8).unwrap();
    let n = 1 << 12;
    let fft = CudaFft::try_new(device, &field, n, Direction::Forward, Order::Natural).unwrap();
    for batch in [1, 64, 256] {
        for launch in launches_on(fft.plan(), batch, &shape) {
            assert!(
                gfpf_cuda::dynamic_shared_bytes(&launch.kernel, 8) <= shared,
                "{launch:?}"
            );
        }
    }
    // And batches between (on an H100: 1 and 6 as split teams, 7 past a
    // wave as teams of segments, 13 with two stages a launch, 32 the first
    // as teams of threads), each kernel loaded when the plan was made.
    let cpu = CpuFft::try_new(&field, n, Direction::Forward, Order::Natural).unwrap();
    for batch in [1, 6, 7, 13, 32, 256] {
        let mut x = sample(&field, batch * n, 11);
        let mut expected = x.clone();
        cpu.process(&mut expected).unwrap();
        fft.process(&mut x).unwrap();
        assert!(x == expected, "{batch} × 2^12 differs from gfpf-cpu");
    }
}

/// Device timing works on this driver (the elapsed-time symbol resolved
/// whichever name it exports): a copy of 64 MiB takes a positive, finite
/// time, and the copy bandwidth it gives is a plausible one (between 10
/// GB/s and 20 TB/s, read and write counted).
#[test]
fn device_timing_works_on_this_driver() {
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda): {why}");
        return;
    }
    let device = device().unwrap();
    let ms = device.time_ms(|| Ok(())).unwrap();
    assert!(ms.is_finite() && ms >= 0.0, "{ms} ms for nothing");
    let bandwidth = device.copy_bandwidth(64 << 20, 5).unwrap();
    eprintln!(
        "driver CUDA {:?}: copy {:.0} GB/s",
        device.driver_cuda_version(),
        bandwidth / 1e9
    );
    assert!((10e9..20e12).contains(&bandwidth), "{bandwidth} B/s");
}

/// The word-size NTT on the GPU, bit for bit against the host transform
/// (forward, at sizes of one, two and three launches, two primes at once)
/// and its inverse round trip; what the emulator checks, on the device.
#[test]
fn word_size_ntt_matches_the_host_transform() {
    use gfpf_cuda::ntt::{NTT_PRIMES_31, NTT_PRIMES_62};
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda): {why}");
        return;
    }
    // 2^24: two passes, the first on tiles of 64 KiB of dynamic shared
    // memory with 32-bit words, 128 KiB with 64-bit words and doubles (the
    // kernel's limit raised past 48 KiB).
    ntt_on_device::<u32>([NTT_PRIMES_31[0], NTT_PRIMES_31[3]], &[6, 11, 16, 22, 24]);
    ntt_on_device::<u64>([NTT_PRIMES_62[0], NTT_PRIMES_62[63]], &[6, 11, 13, 16, 23, 24]);
    let primes = gfpf_cuda::ntt::ntt50_primes(32, 64);
    ntt_on_device::<gfpf_cuda::ntt::F64Word>([primes[0], primes[63]], &[6, 11, 13, 16, 23, 24]);
}

/// The tensor-core DFT_16 (int8 `mma.sync` by the fragment layouts the
/// emulator assumes) gives on the device what the stage kernels' reference
/// transform of length 16 gives, times the group factors: the hardware's
/// check of the emulator's reading of the PTX ISA.
#[test]
fn tensor_core_dft16_matches_the_host_transform() {
    use gfpf_cuda::ntt::{NTT_PRIMES_31, dft16_mma_on_device, ntt_reference};
    if let Some(why) = cuda_unavailable() {
        eprintln!("SKIPPED (cuda): {why}");
        return;
    }
    let device = device().unwrap();
    if device.compute_capability() < (8, 0) {
        eprintln!(
            "SKIPPED (tensor-core DFT): compute capability {:?}",
            device.compute_capability()
        );
        return;
    }
    let columns = 1024;
    for q in [NTT_PRIMES_31[0], 2013265921, 257] {
        let input: Vec<u32> = (0..16 * columns as u64)
            .map(|i| ((i * 2_654_435_761 + 7) % q) as u32)
            .collect();
        let factors: Vec<u64> = (0..columns as u64).map(|c| (c * 40_503 + 1) % q).collect();
        let montgomery: Vec<u32> = factors
            .iter()
            .map(|&a| ((u128::from(a) << 32) % u128::from(q)) as u32)
            .collect();
        for twiddled in [false, true] {
            let mut data = input.clone();
            dft16_mma_on_device(device, q, &mut data, twiddled.then_some(&montgomery[..])).unwrap();
            for c in 0..columns {
                let column: Vec<u32> = (0..16).map(|m| input[m * columns + c]).collect();
                for (p, y) in ntt_reference(&column, q as u32).into_iter().enumerate() {
                    let rev = (p.reverse_bits() >> (usize::BITS - 4)) as u32;
                    let a = if twiddled { factors[c] } else { 1 };
                    let power = u128::from(gfpf_small::primes::pow_mod(a, rev.into(), q));
                    let want = (u128::from(y) * power % u128::from(q)) as u32;
                    assert_eq!(
                        data[p * columns + c],
                        want,
                        "q = {q}, twiddled {twiddled}: row {p}, column {c}"
                    );
                }
            }
        }
    }
}

/// [`word_size_ntt_matches_the_host_transform`] in words `W`.
fn ntt_on_device<W: gfpf_cuda::ntt::NttWord>(primes: [u64; 2], log2_lens: &[u32]) {
    use gfpf_cuda::ntt::{CudaNtt, NttPlan, ntt_reference_outputs};
    use gfpf_small::primes::mul_mod;
    let device = device().unwrap();
    for &log2_n in log2_lens {
        let n = 1usize << log2_n;
        let ntt = CudaNtt::try_new(device, NttPlan::<W>::try_new(n, &primes).unwrap()).unwrap();
        let input: Vec<W> = primes
            .iter()
            .flat_map(|&q| (0..2 * n as u64).map(move |i| W::from_u64((i * 2_654_435_761 + 12_345) % q)))
            .collect();
        let mut data = input.clone();
        ntt.process(&mut data, 2, Direction::Forward).unwrap();
        for (p, &q) in primes.iter().enumerate() {
            let at = 2 * p * n;
            let outputs = [0, 1, n / 3, n - 1];
            let want = ntt_reference_outputs(&input[at..at + n], W::from_u64(q), outputs);
            for (i, w) in outputs.into_iter().zip(want) {
                assert_eq!(
                    data[at + i],
                    w,
                    "{}-bit words, 2^{log2_n} modulo {q}, output {i}",
                    W::BITS
                );
            }
        }
        // The inverse of the pointwise product made by its first launch
        // (process_device_times) against the product made on the host, then
        // the inverse.
        let stream = device.stream();
        let forward = data.clone();
        let mut product: Vec<W> = forward
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let q = primes[i / (2 * n)];
                W::from_u64(mul_mod(x.to_u64(), x.to_u64(), q))
            })
            .collect();
        ntt.process(&mut product, 2, Direction::Inverse).unwrap();
        let mut x = stream.clone_htod(&forward).unwrap();
        let y = stream.clone_htod(&forward).unwrap();
        ntt.process_device_times(&mut x, &y, 2, Direction::Inverse).unwrap();
        let fused = stream.clone_dtoh(&x).unwrap();
        assert!(
            fused == product,
            "{}-bit words: pointwise product in the inverse, 2^{log2_n}",
            W::BITS
        );
        ntt.process(&mut data, 2, Direction::Inverse).unwrap();
        assert!(
            data == input,
            "{}-bit words: inverse after forward, 2^{log2_n}",
            W::BITS
        );
    }
}
