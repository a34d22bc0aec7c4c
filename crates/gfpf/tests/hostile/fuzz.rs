//! The fuzz targets of `targets.rs` on stable Rust, for a bounded time in
//! the test command: every file of the seed corpus (`fuzz/corpus/<target>`)
//! first, then mutations of them (bit flips, bytes inserted, deleted and
//! repeated, numbers and separators spliced in, parts of other seeds).
//!
//! `GFPF_FUZZ_SECONDS` sets each target's time (default 2), `GFPF_FUZZ_SEED`
//! the mutations' seed (default: from the clock, printed so that a failure
//! can be replayed). A failing input is printed and written to
//! `target/fuzz-failures/<target>-<seed>` before the test fails.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::targets::{TARGETS, Target};

/// Fragments a mutation may splice in: what users type, what breaks
/// parsers (signs, prefixes, huge numbers, Unicode digits and spaces).
const FRAGMENTS: &[&str] = &[
    "0",
    "1",
    "-",
    "0x",
    "0X",
    " ",
    "\t",
    "\n",
    "\r\n",
    "+",
    "^",
    "(",
    ")",
    "2^63",
    "2^64",
    "^8+1",
    "18446744073709551615",
    "99999999999999999999999999999999999999999999999999999999999999999999999999999999",
    "\u{0663}",
    "\u{00a0}",
    "\u{feff}",
    "\u{ff11}",
    "é",
    "\0",
];

/// xorshift64*: small, fast, reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One random change to `input`.
fn mutate(input: &mut Vec<u8>, corpus: &[Vec<u8>], rng: &mut Rng) {
    let at = rng.below(input.len() + 1);
    match rng.below(8) {
        0 if !input.is_empty() => {
            let i = rng.below(input.len());
            input[i] ^= 1 << rng.below(8);
        }
        1 => input.insert(at, rng.next() as u8),
        2 if !input.is_empty() => {
            let end = (at + 1 + rng.below(8)).min(input.len());
            input.drain(at.min(end)..end);
        }
        3 => {
            let fragment = FRAGMENTS[rng.below(FRAGMENTS.len())].as_bytes();
            input.splice(at..at, fragment.iter().copied());
        }
        4 if !input.is_empty() => {
            // A repeated run: long numbers, long lines.
            let start = rng.below(input.len());
            let end = (start + 1 + rng.below(16)).min(input.len());
            let run: Vec<u8> = input[start..end].repeat(1 + rng.below(64));
            input.splice(start..start, run);
        }
        5 if !corpus.is_empty() => {
            let other = &corpus[rng.below(corpus.len())];
            let start = rng.below(other.len() + 1);
            let end = (start + rng.below(32)).min(other.len());
            input.splice(at..at, other[start..end].iter().copied());
        }
        6 if !input.is_empty() => {
            let i = rng.below(input.len());
            input[i] = b"0123456789abcdefxX+-^() \n"[rng.below(25)];
        }
        _ => input.truncate(at),
    }
    // Inputs stay small enough for many runs per second.
    input.truncate(1 << 12);
}

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

fn load_corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = corpus_dir(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("seed corpus {}: {e}", dir.display()))
        .map(|entry| entry.expect("a corpus entry").path())
        .collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).expect("a corpus file")).collect()
}

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
