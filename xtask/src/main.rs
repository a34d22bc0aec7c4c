//! `cargo xtask`: repository tasks that are code, not shell (rust-analyzer's
//! convention).
//!
//! * `cargo xtask codegen` writes every generated file: the Rust and CUDA
//!   DFT_K codelets and the operation-count table of docs/CODELETS.md.
//! * `cargo xtask codegen --check` writes nothing and fails when a checked-in
//!   file differs from what the generator produces (CI runs it).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gfpf_plan::emit;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "gfpf repository tasks")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Regenerate the codelets (Rust and CUDA) and their documentation table.
    Codegen {
        /// Write nothing; exit non-zero if a generated file is missing or stale.
        #[arg(long)]
        check: bool,
    },
}

/// Every generated file: its path from the workspace root and its contents.
fn generated_files() -> Vec<(&'static str, String)> {
    vec![
        ("crates/gfpf-cpu/src/codelets/generated.rs", emit::rust_codelets()),
        ("kernels/generated/codelets.cuh", emit::cuda_codelets()),
        ("docs/CODELETS.md", emit::codelet_counts_markdown()),
    ]
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn codegen(check: bool) -> Result<(), String> {
    let root = workspace_root();
    let mut stale = Vec::new();
    for (path, text) in generated_files() {
        let full = root.join(path);
        let current = std::fs::read_to_string(&full).ok();
        if current.as_deref() == Some(text.as_str()) {
            continue;
        }
        if check {
            stale.push(match current {
                None => format!("{path}: missing"),
                Some(_) => format!("{path}: differs from the generator's output"),
            });
            continue;
        }
        if let Some(dir) = full.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&full, text).map_err(|e| format!("cannot write {}: {e}", full.display()))?;
        println!("wrote {path}");
    }
    if stale.is_empty() {
        if check {
            println!("generated files are up to date");
        }
        Ok(())
    } else {
        Err(format!(
            "{}\nrun `cargo xtask codegen` and commit the result",
            stale.join("\n")
        ))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Codegen { check } => codegen(check),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
