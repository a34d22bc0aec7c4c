//! `gfpf verify`: every executor available here against the references
//! (known-answer files, a rug radix-2 FFT, rug schoolbook products) on every
//! preset; a pass/fail table, and a failing exit status on any mismatch.

use std::time::Instant;

use clap::Args;
use gfpf::{Device, Fft, Field, FieldSpec, FieldVisitor, Order, PolyRing, Preset, RingOptions, Threading};
use gfpf_testkit::oracle::{rug_polynomial_product, rug_radix2_fft, sample};

/// Options of `gfpf verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Largest FFT size checked against the rug reference is 2^M.
    #[arg(long, value_name = "M", default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=20))]
    max_log2n: u32,
    /// Primes to check (repeatable; default: all presets).
    #[arg(long = "prime", value_name = "NAME", value_parser = crate::parse_spec)]
    primes: Vec<FieldSpec>,
    /// A different largest size for one prime, e.g. `t8=20` (repeatable).
    #[arg(long = "max-log2n-for", value_name = "NAME=M", value_parser = parse_override)]
    overrides: Vec<(FieldSpec, u32)>,
}

/// Parses `NAME=M` for `--max-log2n-for`.
fn parse_override(text: &str) -> Result<(FieldSpec, u32), String> {
    let (name, m) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=M, e.g. t8=20, got `{text}`"))?;
    let spec = crate::parse_spec(name)?;
    match m.trim().parse::<u32>() {
        Ok(m) if (1..=20).contains(&m) => Ok((spec, m)),
        _ => Err(format!("M must be an integer from 1 to 20, got `{m}`")),
    }
}

/// An executor as verify sees it.
#[derive(Clone, Copy)]
enum Executor {
    Cpu(Threading),
    Cuda,
}

impl Executor {
    fn name(self) -> &'static str {
        match self {
            Executor::Cpu(Threading::Parallel) => "cpu (all threads)",
            Executor::Cpu(Threading::Serial) => "cpu (one thread)",
            Executor::Cuda => "cuda",
        }
    }
}

/// Outcome of one group of checks: passed count, or the first failure.
type Check = Result<usize, String>;

struct Verify {
    executor: Executor,
    max_log2n: u32,
}

struct Outcome {
    known: Check,
    fft: Check,
    round_trip: Check,
    products: Check,
}

impl FieldVisitor for Verify {
    type Output = Outcome;
    fn visit<const K: usize>(self, field: Field<K>) -> Outcome {
        let (device, threading) = match self.executor {
            Executor::Cpu(threading) => (Device::Cpu, threading),
            Executor::Cuda => (Device::Cuda, Threading::Parallel),
        };
        let fft = |n: usize, order: Order| {
            Fft::builder(&field, n)
                .device(device)
                .order(order)
                .threading(threading)
                .build()
                .map_err(|e| format!("N = {n}: {e}"))
        };
        let known = (|| -> Check {
            let mut count = 0;
            // Embedded in the program: every testdata/ file of this preset.
            for known in gfpf_testkit::known::known_answers(&field).map_err(|e| e.to_string())? {
                let n = known.n;
                let plan = fft(n, Order::Natural)?;
                let mut y = known.input.clone();
                plan.forward(&mut y).map_err(|e| e.to_string())?;
                if y != known.output {
                    return Err(format!("known answer N = {n}: forward differs"));
                }
                plan.inverse(&mut y).map_err(|e| e.to_string())?;
                if y != known.input {
                    return Err(format!("known answer N = {n}: inverse differs"));
                }
                count += 1;
            }
            Ok(count)
        })();
        let max = self.max_log2n.min(field.two_adicity());
        let fft_check = (|| -> Check {
            for m in 1..=max {
                let n = 1usize << m;
                let x = sample(&field, n, m as u64);
                let mut y = x.clone();
                fft(n, Order::Natural)?.forward(&mut y).map_err(|e| e.to_string())?;
                if y != rug_radix2_fft(&field, &x) {
                    return Err(format!("N = {n}: forward differs from the rug FFT"));
                }
            }
            Ok(max as usize)
        })();
        let round_trip = (|| -> Check {
            for m in 0..=max {
                let n = 1usize << m;
                let x = sample(&field, 2 * n, 100 + m as u64);
                for order in [Order::Natural, Order::DigitReversed] {
                    let plan = fft(n, order)?;
                    let mut y = x.clone();
                    plan.forward(&mut y).map_err(|e| e.to_string())?;
                    plan.inverse(&mut y).map_err(|e| e.to_string())?;
                    if y != x {
                        return Err(format!("N = {n} {order:?}: inverse(forward(x)) != x"));
                    }
                }
            }
            Ok(2 * (max as usize + 1))
        })();
        let products = (|| -> Check {
            let options = RingOptions {
                device,
                threading,
                ..RingOptions::default()
            };
            let ring = PolyRing::with_options(&field, options).map_err(|e| e.to_string())?;
            let lengths = [(1, 1), (2, 3), (17, 33), (33, 31), (64, 65), (100, 129)];
            for (i, &(la, lb)) in lengths.iter().enumerate() {
                if la + lb - 1 > ring.max_product_len() {
                    continue;
                }
                let a = sample(&field, la, 7 * i as u64);
                let b = sample(&field, lb, 7 * i as u64 + 1);
                let got = ring.mul_coeffs(&a, &b).map_err(|e| e.to_string())?;
                if got != rug_polynomial_product(&field, &a, &b) {
                    return Err(format!("product {la} x {lb} differs from rug"));
                }
            }
            Ok(lengths.len())
        })();
        Outcome {
            known,
            fft: fft_check,
            round_trip,
            products,
        }
    }
}

/// A table cell: "-" for nothing checked, `ok(count)` for a pass, FAIL.
fn cell(c: &Check, ok: impl Fn(usize) -> String) -> String {
    match c {
        Ok(0) => "-".into(),
        Ok(n) => ok(*n),
        Err(_) => "FAIL".into(),
    }
}

/// Runs every check and prints the table; an error if anything failed.
pub fn run(args: &VerifyArgs) -> Result<(), String> {
    let primes: Vec<FieldSpec> = if args.primes.is_empty() {
        Preset::ALL.iter().map(|&p| p.into()).collect()
    } else {
        args.primes.clone()
    };
    let start = Instant::now();
    println!(
        "{:<8} {:<18} {:>13} {:>16} {:>11} {:>11}  result",
        "prime", "executor", "known answers", "FFT vs rug", "round trips", "products"
    );
    let mut failures = Vec::new();
    for spec in &primes {
        for executor in [
            Executor::Cpu(Threading::Parallel),
            Executor::Cpu(Threading::Serial),
            Executor::Cuda,
        ] {
            if let (Executor::Cuda, Some(reason)) = (executor, gfpf::cuda_unavailable_reason()) {
                println!("{:<8} {:<18} skipped: {reason}", spec.to_string(), executor.name());
                continue;
            }
            let max_log2n = args
                .overrides
                .iter()
                .rev()
                .find(|(s, _)| s == spec)
                .map_or(args.max_log2n, |&(_, m)| m);
            let outcome = spec.visit(Verify { executor, max_log2n }).map_err(|e| e.to_string())?;
            let checks = [&outcome.known, &outcome.fft, &outcome.round_trip, &outcome.products];
            let failed: Vec<&String> = checks.iter().filter_map(|c| c.as_ref().err()).collect();
            println!(
                "{:<8} {:<18} {:>13} {:>16} {:>11} {:>11}  {}",
                spec.to_string(),
                executor.name(),
                cell(&outcome.known, |n| format!("ok ({n})")),
                cell(&outcome.fft, |m| format!("ok (≤2^{m})")),
                cell(&outcome.round_trip, |n| format!("ok ({n})")),
                cell(&outcome.products, |n| format!("ok ({n})")),
                if failed.is_empty() { "pass" } else { "FAIL" }
            );
            for f in failed {
                failures.push(format!("{spec} {}: {f}", executor.name()));
            }
        }
    }
    println!("({:.1} s)", start.elapsed().as_secs_f64());
    if failures.is_empty() {
        Ok(())
    } else {
        for f in &failures {
            eprintln!("FAIL {f}");
        }
        Err(format!("{} check group(s) failed", failures.len()))
    }
}
