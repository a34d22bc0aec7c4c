//! What this crate's tests can use on the machine that builds them, so that
//! a test that cannot run here is reported as ignored with its reason
//! rather than passing without running:
//! - `gfpf_cuda_driver`: the CUDA driver library (`libcuda.so`) is found,
//!   for the tests on a GPU (`tests/device.rs`);
//! - `gfpf_nvrtc`: the NVRTC library is found (`tests/nvrtc.rs`);
//! - `gfpf_cxx`: a host C++ compiler runs (`$CXX`, else `c++`), for the
//!   kernels' host emulation (`tests/emulator.rs`).
//!
//! `GFPF_CUDA_TESTS=1` sets the first two whatever is found (to build the
//! tests on one machine and run them on a GPU machine), `GFPF_CUDA_TESTS=0`
//! clears them. The tests that run still check at run time.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    for cfg in ["gfpf_cuda_driver", "gfpf_nvrtc", "gfpf_cxx"] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    for var in ["GFPF_CUDA_TESTS", "CUDA_PATH", "CXX", "LD_LIBRARY_PATH"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    println!("cargo::rerun-if-changed=build.rs");
    let forced = std::env::var("GFPF_CUDA_TESTS").ok();
    let cuda = |library: &str| match forced.as_deref() {
        Some("1") => true,
        Some("0") => false,
        _ => library_found(library),
    };
    if cuda("libcuda.so") {
        println!("cargo::rustc-cfg=gfpf_cuda_driver");
    }
    if cuda("libnvrtc.so") {
        println!("cargo::rustc-cfg=gfpf_nvrtc");
    }
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    if Command::new(cxx)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        println!("cargo::rustc-cfg=gfpf_cxx");
    }
}

/// Whether the dynamic loader would find `name` (or a versioned
/// `name.N`): in `LD_LIBRARY_PATH`, the CUDA toolkit's directory, or the
/// loader's cache.
fn library_found(name: &str) -> bool {
    let mut dirs: Vec<PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
        .map(|paths| std::env::split_paths(&paths).collect())
        .unwrap_or_default();
    if let Some(cuda) = std::env::var_os("CUDA_PATH") {
        dirs.push(PathBuf::from(cuda).join("lib64"));
    }
    dirs.push(PathBuf::from("/usr/local/cuda/lib64"));
    let in_dirs = dirs.iter().any(|dir| {
        std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().starts_with(name))
        })
    });
    in_dirs
        || Command::new("ldconfig")
            .arg("-p")
            .output()
            .or_else(|_| Command::new("/sbin/ldconfig").arg("-p").output())
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(name))
}
