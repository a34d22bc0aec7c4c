//! Embeds every known-answer file of the repository's `testdata/` (a copy of
//! shared/testdata, DESIGN §1), so that the loader needs no hand list and the
//! programs that use it (`gfpf verify`, staged test binaries) carry them.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with("dft_") && name.ends_with(".json"))
        .collect();
    names.sort();
    let mut out = String::from("/// Every `testdata/dft_*.json`: (file name, contents).\n");
    writeln!(out, "pub(crate) const FILES: [(&str, &str); {}] = [", names.len()).unwrap();
    for name in &names {
        let path = dir.join(name).canonicalize().expect("listed file exists");
        writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("known_answer_files.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
