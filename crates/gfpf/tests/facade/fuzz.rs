//! The fuzz targets of `targets.rs` on stable Rust, for a bounded time in
//! the test command: every file of the seed corpus (`fuzz/corpus/<target>`)
//! first, then mutations of them (bit flips, bytes inserted, deleted and
//! repeated, numbers and separators spliced in, parts of other seeds).
//!
//! `GFPF_FUZZ_SECONDS` sets each target's time (default 2), `GFPF_FUZZ_SEED`
//! the mutations' seed (default: from the clock, printed so that a failure
//! can be replayed). A failing input is printed and written to
//! `target/fuzz-failures/<target>-<seed>` before the test fails.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::mutations::{Rng, load_corpus, mutate};
use crate::targets::{TARGETS, Target};

fn setting(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name}={value:?}: expected a number")),
    )
}

/// Runs `target` on `input`; on a panic, records the input and fails.
fn run_one(name: &str, target: Target, input: &[u8], seed: u64) {
    if let Err(panic) = std::panic::catch_unwind(|| target(input)) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/fuzz-failures");
        let file = dir.join(format!("{name}-{seed}"));
        let saved = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&file, input));
        eprintln!(
            "fuzz target {name} failed (GFPF_FUZZ_SEED={seed}) on b\"{}\" ({})",
            input.escape_ascii(),
            match saved {
                Ok(()) => format!("saved as {}", file.display()),
                Err(e) => format!("not saved: {e}"),
            }
        );
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn fuzz_targets_hold_on_their_corpus_and_its_mutations() {
    let seconds = setting("GFPF_FUZZ_SECONDS").unwrap_or(2);
    let seed = setting("GFPF_FUZZ_SEED").unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(1, |d| d.as_nanos() as u64) | 1
    });
    for (name, target) in TARGETS {
        let corpus = load_corpus(name);
        assert!(!corpus.is_empty(), "{name}: empty seed corpus");
        for input in &corpus {
            run_one(name, target, input, seed);
        }
        let mut rng = Rng(seed);
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let mut runs = 0u64;
        while Instant::now() < deadline {
            let mut input = corpus[rng.below(corpus.len())].clone();
            for _ in 0..1 + rng.below(4) {
                mutate(&mut input, &corpus, &mut rng);
            }
            run_one(name, target, &input, seed);
            runs += 1;
        }
        eprintln!(
            "fuzz {name}: {} seeds and {runs} mutations in {seconds} s (GFPF_FUZZ_SEED={seed})",
            corpus.len()
        );
    }
}
