//! `gfpf`: FFTs and polynomial products over big prime fields GF(r^k + 1)
//! from the command line. `gfpf --help` lists the subcommands.

mod bench;
mod gpu_bench;
mod io;
mod model_figures;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use gfpf::{Device, Fft, Field, FieldSpec, FieldVisitor, MulAlgorithm, Order, PolyRing, Preset, RingOptions};

use crate::io::{Format, encode, read_elements, source_name, write_output};

/// FFTs and polynomial products over big prime fields GF(p), p = r^k + 1.
#[derive(Debug, Parser)]
#[command(name = "gfpf", version, about, long_about = None)]
struct Cli {
    /// Worker threads, this one included (default: all cores).
    #[arg(long, global = true, value_name = "T")]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The preset primes: r, k, bits, 2-adicity, multiplication method.
    Primes,
    /// Forward DFT of a file of N values (N a power of two).
    Fft(TransformArgs),
    /// Inverse DFT (scaled by 1/N) of a file of N values.
    Ifft(TransformArgs),
    /// Product of two polynomials (coefficient files, lowest degree first).
    Polymul(PolymulArgs),
    /// Times FFTs and products against GMP and the small-prime approach.
    Bench(bench::BenchArgs),
    /// Checks every available executor against the reference on all presets.
    Verify(verify::VerifyArgs),
}

/// Field, device and file format, shared by the commands that compute.
#[derive(Debug, Args)]
struct Common {
    /// The prime: a preset (t2 … t128, p4 … p128) or (R)^K+1, e.g. "(2^63+2^34)^8+1".
    #[arg(long, value_name = "NAME", value_parser = parse_spec)]
    prime: FieldSpec,
    /// Where to compute.
    #[arg(long, value_enum, default_value_t = DeviceArg::Auto)]
    device: DeviceArg,
    /// File format of inputs and outputs.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write text output in 0x-hex instead of decimal.
    #[arg(long)]
    hex: bool,
}

#[derive(Debug, Args)]
struct TransformArgs {
    #[command(flatten)]
    common: Common,
    /// Order of the transformed side (digit-reversed skips the permutation).
    #[arg(long, value_enum, default_value_t = OrderArg::Natural)]
    order: OrderArg,
    /// The transform size, with --print-omega: a power of two, in digits or
    /// as 2^M (up to the field's 2-adicity, e.g. 2^272 for t8).
    #[arg(long, value_name = "N", requires = "print_omega", value_parser = parse_log2_size)]
    size: Option<u32>,
    /// Print ω_N of the canonical root tower and exit (no input file).
    #[arg(long, requires = "size", conflicts_with_all = ["input", "output"])]
    print_omega: bool,
    /// Input file (`-` for standard input).
    #[arg(required_unless_present = "print_omega")]
    input: Option<PathBuf>,
    /// Output file (default: standard output); written only on success.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct PolymulArgs {
    #[command(flatten)]
    common: Common,
    /// First factor's coefficients.
    a: PathBuf,
    /// Second factor's coefficients.
    b: PathBuf,
    /// Schoolbook, truncated FFT, or chosen by length.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Auto)]
    algorithm: AlgorithmArg,
    /// Output file (default: standard output); written only on success.
    #[arg(short, long, value_name = "C")]
    output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum DeviceArg {
    Cpu,
    Cuda,
    Auto,
}

impl From<DeviceArg> for Device {
    fn from(d: DeviceArg) -> Device {
        match d {
            DeviceArg::Cpu => Device::Cpu,
            DeviceArg::Cuda => Device::Cuda,
            DeviceArg::Auto => Device::Auto,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum AlgorithmArg {
    /// Schoolbook for short operands, multi-modular otherwise (the fastest
    /// measured).
    Auto,
    /// O(la·lb) schoolbook.
    Schoolbook,
    /// Truncated Fourier transform over GF(p) (needs la + lb − 1 ≤ 2^v).
    Tft,
    /// Word-size primes and CRT (la + lb − 1 ≤ 2^29).
    MultiModular,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OrderArg {
    Natural,
    DigitReversed,
}

/// A transform size N = 2^M given as digits or as `2^M`: M.
fn parse_log2_size(s: &str) -> Result<u32, String> {
    let s = s.trim();
    if let Some(m) = s.strip_prefix("2^") {
        return m
            .parse::<u32>()
            .map_err(|_| format!("{s:?}: expected 2^M with M a number"));
    }
    match s.parse::<u128>() {
        Ok(n) if n.is_power_of_two() => Ok(n.trailing_zeros()),
        Ok(n) => Err(format!("{n} is not a power of two")),
        Err(_) => Err(format!("{s:?}: expected a power of two, in digits or as 2^M")),
    }
}

fn parse_spec(s: &str) -> Result<FieldSpec, String> {
    s.parse().map_err(|e: gfpf::Error| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // This thread is one of the workers (as in NTL's and FLINT's pools), so
    // that parallel work started here runs on it and T − 1 others instead of
    // waiting for T others; a count beyond what the machine can use is
    // refused before any thread starts.
    if let Err(e) = gfpf::cpu::install_global_pool(cli.threads) {
        eprintln!("gfpf: error: --threads: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Primes => {
            primes();
            Ok(())
        }
        Command::Fft(args) => transform(args, false),
        Command::Ifft(args) => transform(args, true),
        Command::Polymul(args) => polymul(args),
        Command::Bench(args) => bench::run(&args),
        Command::Verify(args) => verify::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gfpf: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn primes() {
    struct Row;
    impl FieldVisitor for Row {
        type Output = String;
        fn visit<const K: usize>(self, f: Field<K>) -> String {
            let conv = f.convolution_primes().map_or("-".to_string(), |s| s.to_string());
            format!(
                "{:<5} {:<16} {:>4} {:>5} {:>9} {:>11}  {}",
                f.name().unwrap_or("custom"),
                f.sparse().to_string(),
                K,
                f.bits(),
                f.two_adicity(),
                conv,
                f.mul_method().describe()
            )
        }
    }
    println!(
        "{:<5} {:<16} {:>4} {:>5} {:>9} {:>11}  multiplication",
        "name", "r", "k", "bits", "2-adicity", "conv primes"
    );
    for p in Preset::ALL {
        match FieldSpec::Preset(p).visit(Row) {
            Ok(line) => println!("{line}"),
            Err(e) => println!("{:<5} error: {e}", p.name()),
        }
    }
}

fn transform(args: TransformArgs, inverse: bool) -> Result<(), String> {
    struct Job<'a>(&'a TransformArgs, bool);
    impl FieldVisitor for Job<'_> {
        type Output = Result<(), String>;
        fn visit<const K: usize>(self, field: Field<K>) -> Self::Output {
            let Job(args, inverse) = self;
            let c = &args.common;
            if args.print_omega {
                // Only the field's root tower: no plan, no tables.
                let log2_n = args.size.expect("clap requires --size");
                let omega = field.root_of_unity(log2_n).map_err(|_| {
                    format!(
                        "--size 2^{log2_n}: above 2^{v}, the largest power of two dividing p - 1",
                        v = field.two_adicity()
                    )
                })?;
                let text = if c.hex {
                    field.to_hex(&omega)
                } else {
                    field.to_decimal(&omega)
                };
                return write_output(None, format!("{text}\n").as_bytes());
            }
            let input = args.input.as_deref().expect("clap requires IN");
            // Check the device before reading possibly large input.
            Device::from(c.device).resolve_for(K, 1).map_err(|e| e.to_string())?;
            let mut data = read_elements(&field, input, c.format)?;
            let n = data.len();
            if !n.is_power_of_two() {
                return Err(format!(
                    "{}: {n} values; the transform size must be a power of two",
                    source_name(input)
                ));
            }
            let order = match args.order {
                OrderArg::Natural => Order::Natural,
                OrderArg::DigitReversed => Order::DigitReversed,
            };
            let fft = Fft::builder(&field, n)
                .device(c.device.into())
                .order(order)
                .build()
                .map_err(|e| format!("{}: {e}", source_name(input)))?;
            if inverse {
                fft.inverse(&mut data)
            } else {
                fft.forward(&mut data)
            }
            .map_err(|e| e.to_string())?;
            write_output(args.output.as_deref(), &encode(&field, &data, c.format, c.hex))
        }
    }
    args.common
        .prime
        .visit(Job(&args, inverse))
        .map_err(|e| e.to_string())?
}

fn polymul(args: PolymulArgs) -> Result<(), String> {
    struct Job<'a>(&'a PolymulArgs);
    impl FieldVisitor for Job<'_> {
        type Output = Result<(), String>;
        fn visit<const K: usize>(self, field: Field<K>) -> Self::Output {
            let args = self.0;
            let c = &args.common;
            let options = RingOptions {
                device: c.device.into(),
                algorithm: match args.algorithm {
                    AlgorithmArg::Auto => MulAlgorithm::Auto,
                    AlgorithmArg::Schoolbook => MulAlgorithm::Schoolbook,
                    AlgorithmArg::Tft => MulAlgorithm::Tft,
                    AlgorithmArg::MultiModular => MulAlgorithm::MultiModular,
                },
                ..RingOptions::default()
            };
            let ring = PolyRing::with_options(&field, options).map_err(|e| e.to_string())?;
            let a = read_elements(&field, &args.a, c.format)?;
            let b = read_elements(&field, &args.b, c.format)?;
            let product = ring.mul_coeffs(&a, &b).map_err(|e| e.to_string())?;
            write_output(args.output.as_deref(), &encode(&field, &product, c.format, c.hex))
        }
    }
    args.common.prime.visit(Job(&args)).map_err(|e| e.to_string())?
}
