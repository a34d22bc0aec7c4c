//! `cargo xtask test [ARGS]`: `cargo test --workspace [ARGS]` (xtask's own
//! tests with its `tasks` feature), its output
//! passed through as it comes, then a summary of every test binary's
//! results: how many ran, how many failed, and how many were skipped and
//! why (tests that cannot run on this machine are ignored with their reason
//! when they are built: no GPU, no NVRTC, no NTL/FLINT). A test that finds
//! at run time that it cannot run (an instruction set this CPU lacks, no
//! usable device) prints `SKIPPED (what): why` and returns: libtest counts
//! it as passed, so the tests run with `--show-output` and the summary
//! counts it as skipped, with its reason, from its captured output (which
//! is otherwise left out, as libtest leaves it out without the flag).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Totals over every `test result:` line, and the skipped tests by reason.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Summary {
    /// As libtest counts them: those that skipped at run time included.
    pub passed: u64,
    pub failed: u64,
    pub ignored: u64,
    /// Passed tests that said they skipped.
    pub skipped_at_run_time: u64,
    pub binaries: u64,
    /// Reason → how many tests were skipped for it.
    pub reasons: BTreeMap<String, u64>,
    /// Within a binary's `successes:` section (`--show-output`): the
    /// captured output of its passed tests.
    in_successes: bool,
    /// The passed test whose output is being read, until its first
    /// `SKIPPED` line.
    reading: Option<String>,
}

impl Summary {
    /// Takes in one line of libtest's output; what to show for it (the
    /// captured output of passed tests is shown only where they skipped).
    pub(crate) fn read_line(&mut self, line: &str) -> Option<String> {
        if self.in_successes && !line.starts_with("test result: ") {
            if let Some(name) = line.strip_prefix("---- ").and_then(|l| l.strip_suffix(" stdout ----")) {
                self.reading = Some(name.to_owned());
            } else if let Some(at) = line.find("SKIPPED")
                && let Some(name) = self.reading.take()
            {
                let what = line[at + "SKIPPED".len()..].trim();
                // `(what): why` → why; the label names the case, the
                // reason is what tests share.
                let reason = match what.strip_prefix('(').and_then(|w| w.split_once("): ")) {
                    Some((_, why)) => why,
                    None => what.trim_start_matches(':').trim(),
                };
                let reason = if reason.is_empty() { "no reason given" } else { reason };
                *self.reasons.entry(format!("{reason} (at run time)")).or_default() += 1;
                self.skipped_at_run_time += 1;
                return Some(format!("test {name} skipped at run time: {what}"));
            }
            return None;
        }
        if line == "successes:" {
            self.in_successes = true;
            return None;
        }
        if let Some(rest) = line.strip_prefix("test result: ") {
            self.in_successes = false;
            self.reading = None;
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
        Some(line.to_owned())
    }

    /// The closing lines: the reasons, then `tests: N passed, N failed, N skipped`.
    pub(crate) fn report(&self) -> String {
        let mut text = format!("\n== {} test binaries\n", self.binaries);
        for (reason, count) in &self.reasons {
            text.push_str(&format!("   {count:>4} skipped: {reason}\n"));
        }
        text.push_str(&format!(
            "tests: {} passed, {} failed, {} skipped\n",
            self.passed - self.skipped_at_run_time,
            self.failed,
            self.ignored + self.skipped_at_run_time
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
    // The passed tests' captured output, for the skips they print.
    if !args.iter().any(|a| a == "--") {
        command.arg("--");
    }
    command.arg("--show-output");
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
        // A closed stdout (a pager quit) must not stop the tests.
        if let Some(shown) = summary.read_line(&line) {
            let _ = writeln!(out, "{shown}");
        }
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

    /// `--show-output`'s section of passed tests' output: hidden, but for a
    /// test that says it skipped, which then counts as skipped with its
    /// reason (the part after the label).
    #[test]
    fn skips_at_run_time_are_counted_from_captured_output() {
        let mut s = Summary::default();
        let shown: Vec<Option<String>> = [
            "running 3 tests",
            "test lanes::t8::naive_dft ... ok",
            "test lanes::t4::naive_dft ... ok",
            "test other ... ok",
            "",
            "successes:",
            "",
            "---- lanes::t8::naive_dft stdout ----",
            "SKIPPED (cpu (lanes, AVX-512)): AVX-512 is not available on this CPU",
            "",
            "---- lanes::t4::naive_dft stdout ----",
            "SKIPPED (cpu (lanes, AVX-512)): AVX-512 is not available on this CPU",
            "SKIPPED (cpu (lanes, AVX-512)): AVX-512 is not available on this CPU",
            "---- other stdout ----",
            "barrier 3 skipped: found",
            "",
            "successes:",
            "    lanes::t4::naive_dft",
            "    lanes::t8::naive_dft",
            "    other",
            "",
            "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.10s",
            "test after ... ok",
        ]
        .into_iter()
        .map(|line| s.read_line(line))
        .collect();
        assert_eq!(s.skipped_at_run_time, 2, "once a test, however often it says so");
        assert_eq!(
            s.reasons["AVX-512 is not available on this CPU (at run time)"], 2,
            "{:?}",
            s.reasons
        );
        assert!(
            s.report().ends_with("tests: 1 passed, 0 failed, 2 skipped\n"),
            "{}",
            s.report()
        );
        assert_eq!(
            shown[8].as_deref(),
            Some(
                "test lanes::t8::naive_dft skipped at run time: (cpu (lanes, AVX-512)): AVX-512 is not available on this CPU"
            )
        );
        let hidden: Vec<usize> = (0..shown.len()).filter(|&i| shown[i].is_none()).collect();
        assert_eq!(hidden, [5, 6, 7, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
        assert_eq!(
            shown[22].as_deref(),
            Some("test after ... ok"),
            "shown again after the section"
        );
    }
}
