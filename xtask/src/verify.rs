//! `cargo xtask verify`: builds the `gfpf` program in release mode and runs its
//! `verify` on every preset, N up to 2^16 (2^20 for t8): every executor
//! present (the CPU in parallel and serial; CUDA when usable, else reported as
//! skipped with the reason) against the known-answer files of testdata/, a
//! rug radix-2 FFT, round trips in both orders and rug products. The table is
//! `gfpf verify`'s; the exit status is non-zero on any mismatch.

use clap::Args;

use crate::{cargo, run_command};

/// Options of `cargo xtask verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Smaller sizes (2^12, t8 2^14) for a check in a minute or two.
    #[arg(long)]
    quick: bool,
}

/// The sizes checked against the rug FFT: (all presets, t8).
pub fn log2_sizes(quick: bool) -> (u32, u32) {
    if quick { (12, 14) } else { (16, 20) }
}

/// Builds and runs `gfpf verify` with the sizes.
pub fn run(args: &VerifyArgs) -> Result<(), String> {
    let (all, t8) = log2_sizes(args.quick);
    run_command(cargo().args([
        "run",
        "--release",
        "--quiet",
        "-p",
        "gfpf-cli",
        "--",
        "verify",
        "--max-log2n",
        &all.to_string(),
        "--max-log2n-for",
        &format!("t8={t8}"),
    ]))
    .map_err(|e| format!("verification failed: {e}"))
}
