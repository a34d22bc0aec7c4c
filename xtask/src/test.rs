//! `cargo xtask test [ARGS]`: `cargo test --workspace [ARGS]` (xtask's own
//! tests with its `tasks` feature), its output
//! passed through as it comes, then a summary of every test binary's
//! results: how many ran, how many failed, and how many were skipped and
//! why (tests that cannot run on this machine are ignored with their reason
//! when they are built: no GPU, no NVRTC, no NTL/FLINT).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Totals over every `test result:` line, and the ignored tests by reason.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Summary {
    pub passed: u64,
    pub failed: u64,
    pub ignored: u64,
    pub binaries: u64,
    /// Reason → how many tests were ignored for it.
    pub reasons: BTreeMap<String, u64>,
}

impl Summary {
    /// Takes in one line of libtest's output.
    pub(crate) fn read_line(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("test result: ") {
            self.binaries += 1;
            for part in rest.split(';') {
                let mut words = part.split_whitespace().rev();
                let (Some(what), Some(count)) = (words.next(), words.next()) else {
                    continue;
                };
                let Ok(count) = count.parse::<u64>() else { continue };
                match what {
                    "passed" => self.passed += count,
                    "failed" => self.failed += count,
                    "ignored" => self.ignored += count,
                    _ => {}
                }
            }
        } else if line.starts_with("test ")
            && let Some((_, reason)) = line.split_once(" ... ignored")
        {
            let reason = reason.trim_start_matches(',').trim();
            let reason = if reason.is_empty() { "no reason given" } else { reason };
            *self.reasons.entry(reason.to_owned()).or_default() += 1;
        }
    }

    /// The closing lines: the reasons, then `tests: N passed, N failed, N skipped`.
    pub(crate) fn report(&self) -> String {
        let mut text = format!("\n== {} test binaries\n", self.binaries);
        for (reason, count) in &self.reasons {
            text.push_str(&format!("   {count:>4} skipped: {reason}\n"));
        }
        text.push_str(&format!(
            "tests: {} passed, {} failed, {} skipped\n",
            self.passed, self.failed, self.ignored
        ));
        text
    }
}

/// The NVRTC library `scripts/setup.sh --test` installs from PyPI, if it
/// is there: `$XDG_CACHE_HOME/gfpf/nvrtc` (else `~/.cache/...`).
fn nvrtc_cache_dir() -> Option<std::path::PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| std::path::PathBuf::from(home).join(".cache")))?;
    let lib = cache.join("gfpf/nvrtc/nvidia/cuda_nvrtc/lib");
    lib.join("libnvrtc.so.12").exists().then_some(lib)
}

/// Puts the NVRTC that `scripts/setup.sh --test` unpacks first on
/// `command`'s loader path, where it is.
pub(crate) fn with_nvrtc_on_path(command: &mut std::process::Command) -> Result<(), String> {
    if let Some(dir) = nvrtc_cache_dir() {
        let mut paths = vec![dir];
        paths.extend(
            std::env::var_os("LD_LIBRARY_PATH")
                .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
                .unwrap_or_default(),
        );
        let joined = std::env::join_paths(paths).map_err(|e| format!("LD_LIBRARY_PATH: {e}"))?;
        command.env("LD_LIBRARY_PATH", joined);
    }
    Ok(())
}

/// Runs the workspace's tests and prints the summary; an error when any
/// failed (or cargo could not build them).
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut command = crate::cargo();
    // xtask's own tests with its tasks (this program is built without them).
    command
        .args(["test", "--workspace", "--features", "xtask/tasks"])
        .args(args);
    // The build probe and the NVRTC tests find it through the loader's path.
    with_nvrtc_on_path(&mut command)?;
    // A build from scratch without incremental compilation's bookkeeping:
    // 243 s against 278 s for `cargo test --workspace --no-run` from a clean
    // clone on the project VM (2 cores, 2026-11-25). A developer's own
    // setting wins.
    if std::env::var_os("CARGO_INCREMENTAL").is_none() {
        command.env("CARGO_INCREMENTAL", "0");
    }
    command.stdout(Stdio::piped());
    let shown = format!("{command:?}");
    eprintln!("xtask: running {shown}");
    let mut child = command.spawn().map_err(|e| format!("cannot start {shown}: {e}"))?;
    let mut summary = Summary::default();
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut out = std::io::stdout().lock();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading the tests' output: {e}"))?;
        summary.read_line(&line);
        // A closed stdout (a pager quit) must not stop the tests.
        let _ = writeln!(out, "{line}");
    }
    let status = child.wait().map_err(|e| format!("waiting for {shown}: {e}"))?;
    let _ = write!(out, "{}", summary.report());
    let _ = out.flush();
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_reasons_add_up() {
        let mut s = Summary::default();
        for line in [
            "running 3 tests",
            "test a::b ... ok",
            "test gpu::t8 ... ignored, no CUDA driver (libcuda.so) where these tests were built",
            "test gpu::t4 ... ignored, no CUDA driver (libcuda.so) where these tests were built",
            "test plain ... ignored",
            "test result: ok. 1 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; finished in 0.00s",
            "test result: FAILED. 5 passed; 2 failed; 0 ignored; 0 measured; 1 filtered out; finished in 1.2s",
        ] {
            s.read_line(line);
        }
        assert_eq!((s.passed, s.failed, s.ignored, s.binaries), (6, 2, 3, 2));
        assert_eq!(s.reasons["no CUDA driver (libcuda.so) where these tests were built"], 2);
        assert_eq!(s.reasons["no reason given"], 1);
        assert!(
            s.report().ends_with("tests: 6 passed, 2 failed, 3 skipped\n"),
            "{}",
            s.report()
        );
    }
}
