//! Whether the NTL/FLINT harness can be built where these tests
//! are built (a C++ compiler, FLINT's and NTL's headers): `gfpf_peers`.
//! Without it the harness's tests are ignored with that reason instead of
//! passing without running. `GFPF_REQUIRE_PEERS` (set by `.ci/run`, which
//! installs the libraries) sets it whatever is found, so that a missing
//! library fails there.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(gfpf_peers)");
    for var in ["GFPF_REQUIRE_PEERS", "CXX", "FLINT_PREFIX"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    println!("cargo::rerun-if-changed=build.rs");
    let mut include_dirs = vec![PathBuf::from("/usr/include"), PathBuf::from("/usr/local/include")];
    include_dirs.push(PathBuf::from("/opt/homebrew/include"));
    if let Some(prefix) = std::env::var_os("FLINT_PREFIX") {
        include_dirs.push(Path::new(&prefix).join("include"));
    }
    let header = |name: &str| include_dirs.iter().any(|dir| dir.join(name).exists());
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let compiler = Command::new(cxx)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let found = compiler && header("flint/fmpz_mod_poly.h") && header("NTL/ZZ_pX.h");
    if found || std::env::var_os("GFPF_REQUIRE_PEERS").is_some() {
        println!("cargo::rustc-cfg=gfpf_peers");
    }
}
