//! `cargo xtask pytest [ARGS]`: builds the Python package (crates/gfpf-python)
//! into the test environment that `scripts/setup.sh --python` made, with
//! maturin in release mode, then runs its pytest suite.

use std::path::PathBuf;
use std::process::Command;

use crate::{run_command, workspace_root};

/// The Python of the test environment: `GFPF_PYTHON` when set, else the
/// virtual environment `setup.sh --python` creates in the user's cache.
fn python() -> Result<PathBuf, String> {
    if let Some(python) = std::env::var_os("GFPF_PYTHON") {
        return Ok(PathBuf::from(python));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .ok_or("neither XDG_CACHE_HOME nor HOME is set: set GFPF_PYTHON to a Python with maturin and pytest")?;
    let python = cache.join("gfpf/pyenv/bin/python");
    if python.exists() {
        Ok(python)
    } else {
        Err(format!(
            "no Python test environment at {}: run `sh scripts/setup.sh --python` first (or set GFPF_PYTHON)",
            python.display()
        ))
    }
}

/// Builds and installs the package, then runs pytest with `args`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let python = python()?;
    let venv = python
        .parent()
        .and_then(|bin| bin.parent())
        .ok_or_else(|| format!("{} is not inside a virtual environment", python.display()))?;
    let root = workspace_root();
    let package = root.join("crates/gfpf-python");
    run_command(
        Command::new(&python)
            .args(["-m", "maturin", "develop", "--release", "--quiet", "--manifest-path"])
            .arg(package.join("Cargo.toml"))
            .env("VIRTUAL_ENV", venv)
            .current_dir(&root),
    )?;
    run_command(
        Command::new(&python)
            .args(["-m", "pytest", "-ra"])
            .arg(package.join("tests"))
            .args(args)
            .current_dir(&package),
    )
}
