//! The device kernels compile with NVRTC to machine code (sm_90), one
//! module per base size as the executor loads them, where the NVRTC library
//! is present; ignored, saying why, where it was not found when the tests
//! were built (CI; build.rs). This catches CUDA-only
//! compile errors on machines without a GPU (the host emulator compiles the
//! same source as C++).
//!
//! Presets with k ≤ 16 only: the DFT_128 and DFT_256 modules of k = 64 and
//! 128 took NVRTC over 8 minutes (one thread holds 128–256 elements of
//! 64–128 digits); those sizes need a cooperative kernel, not a faster test.

use gfpf_cuda::resources::nvrtc_resources;
use gfpf_field::{Field, Preset};
use gfpf_kernels::{DeviceConstants, base_sizes, module_name, translation_unit};

fn nvrtc_unavailable() -> Option<String> {
    // SAFETY: only tries to open the NVRTC library with libloading.
    (!unsafe { cudarc::nvrtc::sys::is_culib_present() })
        .then(|| "the NVRTC library (libnvrtc.so) was not found".to_owned())
}

/// The largest k whose modules this test compiles.
const NVRTC_MAX_K: usize = 16;

/// The longest a module may take to compile (the budget of
/// `cargo xtask kernels --report`; today's k ≤ 16 modules take 2–5 s).
const MAX_MODULE_SECONDS: f64 = 30.0;

fn compiles<const K: usize>(preset: Preset) {
    if let Some(why) = nvrtc_unavailable() {
        eprintln!("SKIPPED (nvrtc, {}): {why}", preset.name());
        return;
    }
    assert!(K <= NVRTC_MAX_K, "k > {NVRTC_MAX_K}: see the module doc");
    let field = Field::<K>::preset(preset).unwrap();
    let c = DeviceConstants::of(&field);
    // One module per base size, as the executor loads them: machine code
    // for a real architecture (what the executor loads; PTX, which the
    // driver would JIT-compile, goes through the same front end), with
    // ptxas's report of every kernel's resources.
    for radix in base_sizes(K) {
        let name = module_name(&c, &[radix]);
        let report = nvrtc_resources(&name, &translation_unit(&c, &[radix], false), (9, 0))
            .unwrap_or_else(|e| panic!("{}: {e}", preset.name()));
        let cubin = &report.cubin;
        assert!(cubin.starts_with(b"\x7fELF"), "{name}: a cubin is an ELF image");
        // Every kernel the executor loads from this module, by its symbol
        // in the image's string table.
        let has = |symbol: &str| {
            cubin
                .windows(symbol.len() + 1)
                .any(|w| &w[..symbol.len()] == symbol.as_bytes() && w[symbol.len()] == 0)
        };
        for variant in ["plain", "inputs", "outputs"] {
            let symbol = format!("gfpf_dft{radix}_{variant}");
            assert!(has(&symbol), "{name}: {symbol} missing");
            assert!(
                report.kernels().any(|k| k.name == symbol),
                "{name}: no report for {symbol}"
            );
        }
        assert!(
            has("gfpf_scale") && has("gfpf_pointwise_mul"),
            "{name}: scale or pointwise missing"
        );
        assert!(!has("gfpf_scal"), "{name}: symbols are matched whole");
        // The budget today's kernels meet (the others, no stack frame, no
        // spills and occupancy, are `cargo xtask kernels --report`'s to
        // show: k = 16's DFT_16 with twiddled outputs spills 3.8 KB): the
        // module compiled within 30 s.
        let seconds = report.compile_time.as_secs_f64();
        assert!(seconds <= MAX_MODULE_SECONDS, "{name}: compiled in {seconds:.1} s");
        eprintln!("{name}: cubin {} bytes, {seconds:.1} s", cubin.len());
    }
}

macro_rules! nvrtc_tests {
    ($($name:ident $preset:ident $k:literal),*) => {
        $(
            #[test]
            #[cfg_attr(not(gfpf_nvrtc), ignore = "no NVRTC library (libnvrtc.so) where these tests were built")]
            fn $name() {
                compiles::<$k>(Preset::$preset);
            }
        )*
    };
}

// Presets with k ≤ 16 (NVRTC_MAX_K); the others' modules need the
// cooperative kernels (see the module doc), so they are not tests.
nvrtc_tests!(t2 T2 2, t4 T4 4, t8 T8 8, t16 T16 16, p4 P4 4, p8 P8 8, p16 P16 16);
