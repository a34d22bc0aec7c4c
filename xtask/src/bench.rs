//! `cargo xtask bench`: runs the criterion benches (gfpf-benches) and the
//! NTL/FLINT comparison (the `peers` bench drives the C++ harness), then
//! writes docs/BENCHMARKS.md and the SVG charts in docs/benchmarks/.

use clap::Args;

use crate::{cargo, report, run_command, workspace_root};

/// Options of `cargo xtask bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only the product comparison (n ≤ 2^14) and field multiplication:
    /// about ten minutes instead of about an hour.
    #[arg(long)]
    quick: bool,
    /// Run nothing; rewrite the report from the results already stored in
    /// target/criterion and target/peers.
    #[arg(long, conflicts_with = "quick")]
    report_only: bool,
}

/// Every criterion bench of gfpf-benches, in the order the full run takes them.
const ALL_BENCHES: [&str; 7] = ["field_mul", "ntt", "dot", "fft", "small_primes", "polymul", "peers"];

/// What `--quick` runs.
const QUICK_BENCHES: [&str; 2] = ["field_mul", "peers"];

/// Runs the benches (unless `--report-only`) and writes the report.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    if !args.report_only {
        let benches: &[&str] = if args.quick { &QUICK_BENCHES } else { &ALL_BENCHES };
        let mut command = cargo();
        command.args(["bench", "-p", "gfpf-benches"]);
        for bench in benches {
            command.args(["--bench", bench]);
        }
        if args.quick {
            command
                .env("GFPF_PEERS_LOG2N", "8..=14")
                .env("GFPF_PEERS_MIN_SECONDS", "0.3");
        }
        run_command(&mut command)?;
    }
    let root = workspace_root();
    let written = report::write(&root, &report::Commands::new(args.quick))?;
    for path in written {
        println!("wrote {}", path.strip_prefix(&root).unwrap_or(&path).display());
    }
    Ok(())
}
