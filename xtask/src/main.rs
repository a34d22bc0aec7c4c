//! `cargo xtask`: repository tasks that are code, not shell (rust-analyzer's
//! convention).
//!
//! * `cargo xtask codegen [--check]` writes every generated file (the Rust and
//!   CUDA DFT_K codelets and docs/CODELETS.md); `--check` writes nothing and
//!   fails when a checked-in file differs from the generator's output (CI).
//! * `cargo xtask build-kernels [--preset NAME] [--out DIR]` regenerates the
//!   codelets and compiles the CUDA kernel modules to PTX (nvcc, else NVRTC).
//! * `cargo xtask kernels --report [--preset NAME] [--arch sm_90]` compiles
//!   every kernel module to machine code with NVRTC and prints ptxas's
//!   per-kernel resources and occupancy against the budgets.
//! * `cargo xtask gpu-model` prints the traffic and time model of the CUDA
//!   executor on an H100, calibrated on its measured table (`--transform
//!   t8:17` models one transform's launches alone).
//! * `cargo xtask emulate [--preset NAME] [--max-log2n N] [--batch B]` runs
//!   the CUDA executor's transforms in the block-level emulator, with the
//!   launches a GPU would run, against gfpf-cpu bit for bit, at sizes and
//!   batches past the test suite's.
//! * `cargo xtask verify [--quick]` cross-checks every executor present against
//!   the references and testdata on every preset, N up to 2^16 (2^20 for t8).
//! * `cargo xtask bench [--quick] [--report-only]` runs the criterion benches
//!   and the NTL/FLINT comparison, then writes docs/BENCHMARKS.md and its charts.
//! * `cargo xtask test [ARGS]` runs `cargo test --workspace [ARGS]` and ends
//!   with how many tests passed, failed and were skipped, and why.
//! * `cargo xtask pytest [ARGS]` builds the Python package into the test
//!   environment of `scripts/setup.sh --python` and runs its pytest suite.

//!
//! `test` is built without dependencies; every other task needs the `tasks`
//! feature, and without it this program runs itself again with it (`cargo
//! run -p xtask --features tasks`), so that the test command does not first
//! compile what the tests' own build compiles again with other features.

#[cfg(feature = "tasks")]
mod bench;
#[cfg(feature = "tasks")]
mod charts;
#[cfg(feature = "tasks")]
mod codegen;
#[cfg(feature = "tasks")]
mod criterion_results;
#[cfg(feature = "model")]
mod emulate;
#[cfg(feature = "model")]
mod gpu_model;
#[cfg(feature = "tasks")]
mod kernel_report;
#[cfg(feature = "tasks")]
mod kernels;
#[cfg(feature = "tasks")]
mod mm_costs;
#[cfg(feature = "tasks")]
mod ntt_costs;
#[cfg(feature = "tasks")]
mod pipe_mix;
#[cfg(feature = "tasks")]
mod probes;
#[cfg(feature = "tasks")]
mod pytest;
#[cfg(feature = "tasks")]
mod report;
mod test;
#[cfg(feature = "tasks")]
mod tile_costs;
#[cfg(feature = "tasks")]
mod transform_spec;
#[cfg(feature = "tasks")]
mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[cfg(feature = "tasks")]
use clap::{Parser, Subcommand};

#[cfg(feature = "tasks")]
#[derive(Parser)]
#[command(name = "cargo xtask", about = "gfpf repository tasks")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[cfg(feature = "tasks")]
#[derive(Subcommand)]
enum Task {
    /// Regenerate the codelets (Rust and CUDA) and their documentation table.
    Codegen {
        /// Write nothing; exit non-zero if a generated file is missing or stale.
        #[arg(long)]
        check: bool,
    },
    /// Regenerate the codelets and compile the CUDA kernels to PTX
    /// (sm_80, sm_90) for GFPF_PTX_DIR.
    BuildKernels(kernels::BuildKernelsArgs),
    /// `--report`: every kernel module compiled to machine code (sm_80,
    /// sm_90) with NVRTC; registers, stack, spills, shared memory,
    /// occupancy and compile time per kernel, against the budgets.
    Kernels(kernel_report::KernelsArgs),
    /// A traffic and time model of the CUDA executor on an H100 (emulator
    /// counts and ptxas reports, calibrated on the measured table): a model,
    /// not a measurement. `--help` lists its options.
    #[command(disable_help_flag = true)]
    GpuModel {
        /// Passed on to the model (`--sample-blocks N`, `--timeout-s S`,
        /// `--launches`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// The CUDA executor's transforms, as a GPU would launch them, in the
    /// block-level emulator against gfpf-cpu, bit for bit (exits non-zero
    /// on any mismatch). `--help` lists its options.
    #[command(disable_help_flag = true)]
    Emulate {
        /// Passed on (`--preset t8`, `--min-log2n 10`, `--max-log2n 16`,
        /// `--batch 1`, `--max-elements 262144`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Check every executor against the references on every preset
    /// (release build of the `gfpf` program; exits non-zero on any mismatch).
    Verify(verify::VerifyArgs),
    /// Run the benchmarks and write docs/BENCHMARKS.md with SVG charts.
    Bench(bench::BenchArgs),
    /// Run `cargo test --workspace [ARGS]` and end with the totals: passed,
    /// failed, skipped and why.
    Test {
        /// Passed to `cargo test` (e.g. `-- --test-threads=1`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Build the Python package (maturin, release) into the environment of
    /// `scripts/setup.sh --python` and run its pytest suite with ARGS.
    Pytest {
        /// Passed to pytest (e.g. `-k polymul -x`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// The workspace root (xtask lives one level below it).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// The cargo that runs this task (so toolchain overrides carry over).
pub(crate) fn cargo() -> std::process::Command {
    let mut command = std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(workspace_root());
    command
}

/// Runs a command with inherited output; an error naming it when it fails.
#[cfg(feature = "tasks")]
pub(crate) fn run_command(command: &mut std::process::Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    eprintln!("xtask: running {shown}");
    let status = command.status().map_err(|e| format!("cannot start {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

/// `cargo xtask gpu-model` and `cargo xtask emulate`: with the `model`
/// feature, the task itself; without, this program built again with it
/// (the emulator's dependencies stay out of every other task's build).
#[cfg(feature = "tasks")]
fn model_task(task: &str, args: &[String]) -> Result<(), String> {
    #[cfg(feature = "model")]
    {
        use clap::Parser as _;
        let command_line = std::iter::once(task.to_owned()).chain(args.iter().cloned());
        // clap's own handling: `--help` prints the task's options, a bad
        // argument its usage (exit status 2).
        match task {
            "emulate" => emulate::run(&emulate::EmulateCli::parse_from(command_line).args),
            _ => gpu_model::run(&gpu_model::GpuModelCli::parse_from(command_line).args),
        }
    }
    #[cfg(not(feature = "model"))]
    {
        run_command(
            cargo()
                .args(["run", "--quiet", "-p", "xtask", "--features", "model", "--", task])
                .args(args),
        )
    }
}

/// The usage of `cargo xtask test` (clap's, where the `tasks` feature
/// brings clap).
#[cfg(not(feature = "tasks"))]
const TEST_USAGE: &str = "Run `cargo test --workspace [ARGS]` and end with the totals: passed, failed, skipped and why

Usage: cargo xtask test [ARGS]...

Arguments:
  [ARGS]...  Passed to `cargo test` (e.g. `-p gfpf-cpu`, or `-- --test-threads=1`)";

/// Without the `tasks` feature: `test` here, any other task (and `--help`)
/// by this program built again with the feature.
#[cfg(not(feature = "tasks"))]
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => {
            // As clap reads the task's trailing arguments: a first `--` is
            // the separator.
            let rest = match args.get(1).map(String::as_str) {
                Some("--") => &args[2..],
                Some("-h" | "--help") => {
                    println!("{TEST_USAGE}");
                    return ExitCode::SUCCESS;
                }
                _ => &args[1..],
            };
            test::run(rest)
        }
        _ => {
            // The task's own output and exit status, nothing added.
            let status = cargo()
                .args(["run", "--quiet", "-p", "xtask", "--features", "tasks", "--"])
                .args(&args)
                .status();
            return match status {
                Ok(status) if status.success() => ExitCode::SUCCESS,
                Ok(status) => ExitCode::from(status.code().map_or(1, |code| code.clamp(1, 255) as u8)),
                Err(e) => {
                    eprintln!("error: cannot run cargo: {e}");
                    ExitCode::FAILURE
                }
            };
        }
    };
    exit_code(result)
}

fn exit_code(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(feature = "tasks")]
fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Codegen { check } => codegen::run(check),
        Task::BuildKernels(args) => kernels::run(&args),
        Task::Kernels(args) => kernel_report::run(&args),
        Task::GpuModel { args } => model_task("gpu-model", &args),
        Task::Emulate { args } => model_task("emulate", &args),
        Task::Verify(args) => verify::run(&args),
        Task::Bench(args) => bench::run(&args),
        Task::Test { args } => test::run(&args),
        Task::Pytest { args } => pytest::run(&args),
    };
    exit_code(result)
}
