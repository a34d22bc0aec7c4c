//! `cargo xtask emulate`: the CUDA executor's transforms, with the launches
//! a GPU would run (an H100's shape), run in the block-level emulator
//! (`gfpf_testkit::emulator`) and compared bit for bit with gfpf-cpu, at
//! sizes and batches past the test suite's: forward in natural and
//! digit-reversed order against gfpf-cpu's natural-order transform, and the
//! inverse taking each back. Every launch runs under two schedules with its
//! shared memory checked for races, as in the tests. Exits non-zero on any
//! mismatch or emulator error; prints each case's launches and seconds.

use std::path::Path;
use std::time::Instant;

use clap::{Args, Parser};
use gfpf_executor::Transform;
use gfpf_field::{Field, Preset};
use gfpf_plan::{Direction, Order};
use gfpf_testkit::emulator::{EmulatedFft, emulator_unavailable};

/// `cargo xtask emulate`: the CUDA executor's transforms, launched as on an
/// H100, in the block-level emulator against gfpf-cpu, bit for bit (the task
/// runs this program again with the `model` feature, as `gpu-model` does).
#[derive(Debug, Parser)]
#[command(name = "emulate")]
pub struct EmulateCli {
    #[command(flatten)]
    pub args: EmulateArgs,
}

/// Options of `cargo xtask emulate`.
#[derive(Debug, Args)]
pub struct EmulateArgs {
    /// Presets (repeatable; default t8).
    #[arg(long = "preset")]
    presets: Vec<String>,
    /// Smallest N, as log2.
    #[arg(long, default_value_t = 10)]
    min_log2n: u32,
    /// Largest N, as log2.
    #[arg(long, default_value_t = 16)]
    max_log2n: u32,
    /// Transforms a batch (repeatable; default 1 and 3: a device-filling
    /// batch changes the stages' kernels, an odd one their sharing).
    #[arg(long = "batch")]
    batches: Vec<usize>,
    /// The most elements (N × batch) a case may take; larger ones are
    /// reported as skipped (t8 2^20 takes about a minute a transform).
    #[arg(long, default_value_t = 1 << 18)]
    max_elements: usize,
}

/// One case's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Match,
    Mismatch,
}

/// Runs the task.
pub fn run(args: &EmulateArgs) -> Result<(), String> {
    if let Some(why) = emulator_unavailable() {
        return Err(format!("the emulator cannot run here: {why}"));
    }
    if args.min_log2n > args.max_log2n {
        return Err(format!(
            "--min-log2n {} is past --max-log2n {}",
            args.min_log2n, args.max_log2n
        ));
    }
    let presets = if args.presets.is_empty() {
        vec!["t8".to_owned()]
    } else {
        args.presets.clone()
    };
    let batches = if args.batches.is_empty() {
        vec![1, 3]
    } else {
        args.batches.clone()
    };
    if let Some(&zero) = batches.iter().find(|&&b| b == 0) {
        return Err(format!("--batch {zero}: a batch takes at least one transform"));
    }
    let dir = std::env::temp_dir().join("gfpf-emulate");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    println!(
        "{:<6} {:>5} {:>6} {:<15} {:<8} {:<9} {:>8}  launches",
        "preset", "N", "batch", "order", "dir", "result", "seconds"
    );
    let (mut cases, mut mismatches, mut skipped) = (0usize, 0usize, 0usize);
    for name in &presets {
        let preset = Preset::from_name(name).map_err(|e| e.to_string())?;
        for log2_n in args.min_log2n..=args.max_log2n {
            for &batch in &batches {
                let n = 1usize << log2_n;
                if n.saturating_mul(batch) > args.max_elements {
                    println!(
                        "{:<6} {:>5} {batch:>6} skipped: {} elements, past --max-elements {}",
                        preset.name(),
                        format!("2^{log2_n}"),
                        n * batch,
                        args.max_elements
                    );
                    skipped += 1;
                    continue;
                }
                let outcomes = gfpf_field::dispatch_k!(
                    preset.k(),
                    K => check::<K>(preset, log2_n, batch, &dir),
                    _ => Err(format!("no preset has k = {}", preset.k())),
                )?;
                cases += outcomes.len();
                mismatches += outcomes.iter().filter(|&&o| o == Outcome::Mismatch).count();
            }
        }
    }
    println!("{cases} transforms checked, {mismatches} mismatched, {skipped} cases skipped");
    if mismatches > 0 {
        return Err(format!(
            "{mismatches} of {cases} emulated transforms differ from gfpf-cpu"
        ));
    }
    Ok(())
}

/// One size and batch of `preset`: forward and back in both orders, each
/// printed; the outcomes.
fn check<const K: usize>(preset: Preset, log2_n: u32, batch: usize, dir: &Path) -> Result<Vec<Outcome>, String> {
    let field = Field::<K>::preset(preset).map_err(|e| e.to_string())?;
    let n = 1usize << log2_n;
    let x = gfpf_testkit::oracle::sample(&field, n * batch, u64::from(log2_n) * 1000 + batch as u64);
    let mut natural = x.clone();
    let cpu = gfpf_cpu::CpuFft::try_new(&field, n, Direction::Forward, Order::Natural).map_err(|e| e.to_string())?;
    for chunk in natural.chunks_mut(n) {
        cpu.process(chunk).map_err(|e| e.to_string())?;
    }
    let mut outcomes = Vec::new();
    for order in [Order::Natural, Order::DigitReversed] {
        let mut data = x.clone();
        for direction in [Direction::Forward, Direction::Inverse] {
            let fft = EmulatedFft::try_new(&field, n, direction, order, dir).map_err(|e| e.to_string())?;
            let kernels: Vec<String> = fft.launches(batch).iter().map(|l| l.kernel.symbol()).collect();
            let start = Instant::now();
            fft.process(&mut data)
                .map_err(|e| format!("{} 2^{log2_n} x{batch} {order:?} {direction:?}: {e}", preset.name()))?;
            let seconds = start.elapsed().as_secs_f64();
            let want = match direction {
                Direction::Inverse => x.clone(),
                Direction::Forward => gfpf_testkit::oracle::in_order(fft.plan(), order, &natural),
            };
            let outcome = if data == want {
                Outcome::Match
            } else {
                Outcome::Mismatch
            };
            println!(
                "{:<6} {:>5} {batch:>6} {:<15} {:<8} {:<9} {seconds:>8.1}  {}",
                preset.name(),
                format!("2^{log2_n}"),
                format!("{order:?}"),
                format!("{direction:?}"),
                if outcome == Outcome::Match {
                    "bit-equal"
                } else {
                    "MISMATCH"
                },
                kernels.join(" ")
            );
            outcomes.push(outcome);
            // The inverse starts from the right forward output, so that a
            // mismatch is told apart in each direction.
            data = want;
        }
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small transform of each direction and order runs bit-equal with
    /// gfpf-cpu; a bad size range and an empty batch are errors, not runs.
    #[test]
    fn small_transforms_match_and_bad_ranges_are_refused() {
        if let Some(why) = emulator_unavailable() {
            eprintln!("SKIPPED (emulated transforms against gfpf-cpu): {why}");
            return;
        }
        let dir = std::env::temp_dir().join("gfpf-emulate-test");
        std::fs::create_dir_all(&dir).unwrap();
        let outcomes = check::<2>(Preset::T2, 6, 3, &dir).unwrap();
        assert_eq!(outcomes, vec![Outcome::Match; 4]);
        let args = |min_log2n, batches: Vec<usize>| EmulateArgs {
            presets: vec!["t2".to_owned()],
            min_log2n,
            max_log2n: 6,
            batches,
            max_elements: 1 << 10,
        };
        assert!(run(&args(7, vec![1])).unwrap_err().contains("--min-log2n 7"));
        assert!(run(&args(6, vec![0])).unwrap_err().contains("--batch 0"));
    }
}
