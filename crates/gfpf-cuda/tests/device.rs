//! The shared executor suite and bit-identity with gfpf-cpu, on a real GPU
//! (`on_gpu`). Built where no CUDA driver is found (CI), the same tests are
//! listed as ignored with that reason and not compiled (build.rs sets
//! `gfpf_cuda_driver`; `GFPF_CUDA_TESTS=1` forces it when building for a
//! GPU machine). These must pass on a GPU before the CUDA executor is
//! called done. `no_device_is_an_error` runs everywhere.

use gfpf_cuda::{CudaDevice, CudaError, cuda_unavailable};

#[cfg(gfpf_cuda_driver)]
#[path = "device/on_gpu.rs"]
mod on_gpu;

/// Built without a CUDA driver: the tests of `on_gpu/`, same names, ignored
/// with the reason.
#[cfg(not(gfpf_cuda_driver))]
mod on_gpu {
    gfpf_testkit::executor_suite!(skip "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine");

    macro_rules! skipped_identity_tests {
        ($($name:ident $preset:ident $k:literal),*) => {
            mod identical_to_cpu {
                $(
                    #[test]
                    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
                    fn $name() {}
                )*
            }
            mod products_identical_to_cpu {
                $(
                    #[test]
                    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
                    fn $name() {}
                )*
            }
        };
    }

    gfpf_field::for_each_preset!(skipped_identity_tests!());

    #[test]
    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
    fn chained_on_device() {}

    #[test]
    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
    fn word_size_ntt_matches_the_host_transform() {}

    #[test]
    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
    fn tensor_core_dft16_matches_the_host_transform() {}

    #[test]
    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
    fn products_through_62_bit_primes_identical_to_cpu() {}

    #[test]
    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
    fn products_through_fp64_primes_identical_to_cpu() {}

    #[test]
    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
    fn launches_fit_the_device_shared_memory() {}

    #[test]
    #[ignore = "no CUDA driver (libcuda.so) where these tests were built; GFPF_CUDA_TESTS=1 builds them for a GPU machine"]
    fn device_timing_works_on_this_driver() {}
}

/// Every test of `device/on_gpu.rs` outside its per-preset macros has an
/// ignored stub above, so that a build without a driver reports each one
/// skipped (four were missing, and the count of skipped tests fell short).
#[test]
fn every_device_test_is_listed_where_it_cannot_run() {
    let on_gpu = include_str!("device/on_gpu.rs");
    let stubs = include_str!("device.rs");
    let mut lines = on_gpu.lines();
    let mut missing = Vec::new();
    let mut tests = 0;
    while let Some(line) = lines.next() {
        if line != "#[test]" {
            continue;
        }
        let Some(name) = lines
            .find_map(|l| l.strip_prefix("fn "))
            .and_then(|rest| rest.split('(').next())
        else {
            break;
        };
        tests += 1;
        if !stubs.contains(&format!("    fn {name}() {{}}")) {
            missing.push(name);
        }
    }
    assert!(tests >= 7, "{tests} top-level tests found in device/on_gpu.rs");
    assert!(missing.is_empty(), "no ignored stub for {missing:?}");
}

/// Without a device the constructor is a clear error, never a panic.
#[test]
fn no_device_is_an_error() {
    match cuda_unavailable() {
        Some(why) => {
            let e = CudaDevice::try_new(0).unwrap_err();
            assert!(matches!(e, CudaError::NoCudaDevice { .. }), "{e}");
            eprintln!("no device, as expected here: {why}");
        }
        None => {
            let e = CudaDevice::try_new(1 << 20).unwrap_err();
            assert!(matches!(e, CudaError::NoCudaDevice { .. }), "{e}");
        }
    }
}
