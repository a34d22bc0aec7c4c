//! Mutations of seed inputs for the fuzz drivers: the stable driver of the
//! fuzz targets (`fuzz.rs`) and the `gfpf` program's file fuzzing (its CLI
//! tests include this file).

use std::path::{Path, PathBuf};

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
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One random change to `input`.
pub fn mutate(input: &mut Vec<u8>, corpus: &[Vec<u8>], rng: &mut Rng) {
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

pub fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

pub fn load_corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = corpus_dir(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("seed corpus {}: {e}", dir.display()))
        .map(|entry| entry.expect("a corpus entry").path())
        .collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).expect("a corpus file")).collect()
}
