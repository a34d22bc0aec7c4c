//! `cargo xtask codegen [--check]`: the generated codelets and their table.

use gfpf_plan::emit;

use crate::workspace_root;

/// Every generated file: its path from the workspace root and its contents.
fn generated_files() -> Vec<(&'static str, String)> {
    vec![
        ("crates/gfpf-cpu/src/codelets/generated.rs", emit::rust_codelets()),
        (
            "crates/gfpf-kernels/kernels/generated/codelets.cuh",
            emit::cuda_codelets(),
        ),
        ("docs/CODELETS.md", emit::codelet_counts_markdown()),
    ]
}

/// Writes every generated file, or with `check` only compares them.
pub fn run(check: bool) -> Result<(), String> {
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
