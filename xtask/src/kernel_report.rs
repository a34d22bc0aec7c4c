//! `cargo xtask kernels --report`: every kernel module of every preset
//! compiled to machine code for sm_80 and sm_90 with NVRTC, and ptxas's
//! per-kernel report read back (registers, stack frame, spills, shared
//! memory), with the theoretical occupancy at the kernel's block size and
//! each module's compile time, against the budgets of the kernels the device
//! launches: no stack frame and no spills on sm_80 and sm_90, the
//! theoretical occupancy on sm_90 of [`gfpf_kernels::occupancy_budget`],
//! every module compiled in at most 30 s of CPU time
//! ([`gfpf_cuda::resources::MODULE_COMPILE_BUDGET`]).
//!
//! With `--pipes`, each kernel's machine code is also counted by the pipe
//! that runs it (nvdisasm; [`crate::pipe_mix`]): its ALU and FMA shares.
//!
//! Each module compiles in a child process (this program, `--one`), so that
//! a module past `--timeout-s` is stopped and reported rather than waited
//! for (with `--all-families`, one thread per DFT at k ≥ 64 takes NVRTC
//! minutes).

use std::collections::BTreeMap;
use std::io::Read as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Args;
use gfpf_cuda::Kernel;
use gfpf_cuda::resources::{MODULE_COMPILE_BUDGET, ModuleResources, SmLimits, nvrtc_resources, parse_ptxas_report};
use gfpf_field::Preset;
use gfpf_kernels::{
    ModulePart, device_base_sizes, device_module_parts, module_name, part_module_name, translation_unit,
    translation_unit_all_families,
};
use gfpf_plan::CodeletTwiddles;

use crate::kernels::constants;
use crate::mm_costs;
use crate::ntt_costs;
use crate::pipe_mix::{self, NO_NVDISASM, Pipe, PipeMix, find_nvdisasm};
use crate::probes;
use crate::tile_costs::{self, TileOp};

/// Options of `cargo xtask kernels`.
#[derive(Args, Debug)]
pub struct KernelsArgs {
    /// Print the machine-code report (the only action so far).
    #[arg(long)]
    report: bool,
    /// Only these presets (repeatable; default: every preset).
    #[arg(long = "preset")]
    presets: Vec<String>,
    /// Only this architecture (sm_80 or sm_90; default: both).
    #[arg(long)]
    arch: Option<String>,
    /// Stop a module's compile after this many seconds.
    #[arg(long, default_value_t = 120)]
    timeout_s: u64,
    /// Also the stage kernels the device does not launch (one thread per
    /// DFT and tiled, where the lane kernels run), to compare.
    #[arg(long)]
    all_families: bool,
    /// Also each kernel's machine code counted by pipe (ALU, FMA, …) with
    /// nvdisasm: the ALU's and the FMA pipe's shares, and 2 × the ALU's,
    /// the clocks an instruction if the ALU takes half a warp a clock
    /// (see xtask/src/pipe_mix.rs); and the cycles an instruction one warp
    /// alone waits, its instructions issued once each in order as ptxas
    /// scheduled them, variable latencies assumed (cyc/i,
    /// xtask/src/probes.rs).
    #[arg(long)]
    pipes: bool,
    /// Print the element teams' operations' machine instructions on a
    /// lane's common path and their shared-memory words, as the time model
    /// charges them (probe kernels, `xtask/src/probes.cu`; default preset
    /// t8, architecture sm_90; needs nvdisasm); with `--preset ntt`, the
    /// word-size NTT's loops an iteration beside the model's charges
    /// (`xtask/src/ntt_probes.cu`); with `--preset mm`, the multi-modular
    /// kernels' loops over the primes at t4, t8 and t16.
    #[arg(long)]
    probe: bool,
    /// Internal: compile one module (PRESET RADIX ARCH FAMILIES) and print
    /// its report.
    #[arg(long, num_args = 4, hide = true)]
    one: Vec<String>,
}

fn limits(arch: &str) -> Result<SmLimits, String> {
    match arch {
        "sm_80" => Ok(SmLimits::SM80),
        "sm_90" => Ok(SmLimits::SM90),
        other => Err(format!("unknown architecture {other} (sm_80 or sm_90)")),
    }
}

/// The kernel of a symbol, for its block size.
pub fn kernel_of(symbol: &str) -> Option<Kernel> {
    match symbol {
        "gfpf_scale_lanes" => return Some(Kernel::LaneScale),
        "gfpf_scale_elements_mma" => return Some(Kernel::ScaleMma),
        "gfpf_pointwise_mul_lanes" => return Some(Kernel::LanePointwiseMul),
        "gfpf_scale_elements" => return Some(Kernel::ScaleElements),
        "gfpf_pointwise_mul_elements" => return Some(Kernel::PointwiseMulElements),
        _ => {}
    }
    if let Some(pair) = pair_kernel_of(symbol) {
        return Some(pair);
    }
    let rest = symbol.strip_prefix("gfpf_dft")?;
    let (radix, rest) = rest.split_once('_')?;
    let radix = radix.parse().ok()?;
    let (variant, suffix) = match rest.split_once('_') {
        Some((v, suffix)) => (v, Some(suffix)),
        None => (rest, None),
    };
    let twiddles = match variant {
        "plain" => CodeletTwiddles::None,
        "inputs" => CodeletTwiddles::Inputs,
        "outputs" => CodeletTwiddles::Outputs,
        _ => return None,
    };
    match suffix {
        None => Some(Kernel::BaseDft { radix, twiddles }),
        Some("tiled") => Some(Kernel::TiledDft { radix, twiddles }),
        Some("lanes") => Some(Kernel::LaneDft { radix, twiddles }),
        Some("lanes_tiled") => Some(Kernel::LaneTiledDft { radix, twiddles }),
        Some("team") => Some(Kernel::TeamDft { radix, twiddles }),
        Some("split_team") => Some(Kernel::SplitTeamDft { radix, twiddles }),
        Some("elements") => Some(Kernel::ElementTeamDft { radix, twiddles }),
        Some("elements_mma") if twiddles != CodeletTwiddles::None => Some(Kernel::ElementTeamDftMma {
            radix,
            in_time: twiddles == CodeletTwiddles::Outputs,
        }),
        Some(_) => None,
    }
}

/// The kernel of a two-stage symbol, `gfpf_dft16x16_inputs_inputs_elements`,
/// `…_elements_mma`, `…_elements_mma_both` or `…_team`.
fn pair_kernel_of(symbol: &str) -> Option<Kernel> {
    let rest = symbol.strip_prefix("gfpf_dft")?;
    for (suffix, in_time) in [
        ("_plain_inputs_elements_mma_rows", true),
        ("_outputs_plain_elements_mma_rows", false),
    ] {
        if let Some(radices) = rest.strip_suffix(suffix) {
            let (radix, again) = radices.split_once('x')?;
            return (radix == again)
                .then(|| radix.parse().ok())
                .flatten()
                .map(|radix| Kernel::ElementTeamPairRowsMma { radix, in_time });
        }
    }
    for (suffix, in_time, both_stages) in [
        ("_inputs_inputs_elements_mma", true, false),
        ("_inputs_inputs_elements_mma_both", true, true),
        ("_outputs_outputs_elements_mma", false, false),
        ("_outputs_outputs_elements_mma_both", false, true),
    ] {
        if let Some(radices) = rest.strip_suffix(suffix) {
            let (radix, again) = radices.split_once('x')?;
            return (radix == again)
                .then(|| radix.parse().ok())
                .flatten()
                .map(|radix| Kernel::ElementTeamPairMma {
                    radix,
                    in_time,
                    both_stages,
                });
        }
    }
    let (rest, segments) = match rest.strip_suffix("_elements") {
        Some(rest) => (rest, false),
        None => (rest.strip_suffix("_team")?, true),
    };
    let (radices, rest) = rest.split_once('_')?;
    let (radix, again) = radices.split_once('x')?;
    let (first, second) = rest.split_once('_')?;
    let twiddles = |v: &str| match v {
        "plain" => Some(CodeletTwiddles::None),
        "inputs" => Some(CodeletTwiddles::Inputs),
        "outputs" => Some(CodeletTwiddles::Outputs),
        _ => None,
    };
    (radix == again).then_some(())?;
    let (radix, first, second) = (radix.parse().ok()?, twiddles(first)?, twiddles(second)?);
    Some(if segments {
        Kernel::TeamPair { radix, first, second }
    } else {
        Kernel::ElementTeamPair { radix, first, second }
    })
}

/// The child: compiles one module and prints ptxas's report (NVRTC's log),
/// then a last line `compile time WALL CPU` (seconds).
fn compile_one(preset: &str, radix: &str, arch: &str, families: &str, pipes: bool) -> Result<(), String> {
    if preset == NTT_MODULE && families == PROBES {
        return compile_ntt_probes(arch);
    }
    if preset == NTT_MODULE {
        let unit = gfpf_kernels::ntt_translation_unit(false);
        let report = nvrtc_resources(NTT_MODULE, &unit, limits(arch)?.capability()).map_err(|e| e.to_string())?;
        println!("{}", report.log);
        print_pipes(NTT_MODULE, &report, pipes)?;
        print_compile_time(&report);
        return Ok(());
    }
    let preset = Preset::from_name(preset).map_err(|e| e.to_string())?;
    let radix: usize = radix.parse().map_err(|e| format!("radix {radix}: {e}"))?;
    let c = constants(preset)?;
    if families == PROBES {
        return compile_probes(&c, radix, arch);
    }
    if families == MM_LOOPS {
        return compile_mm_loops(&c, arch);
    }
    let (name, unit) = match families {
        "all" => (module_name(&c, &[radix]), translation_unit_all_families(&c, &[radix])),
        part => {
            let part = ModulePart::ALL.into_iter().find(|p| p.name() == part).ok_or_else(|| {
                format!("families {part}: all, or a module part (segments, teams, pairs, tensor_pairs)")
            })?;
            (
                part_module_name(&c, &[radix], part),
                translation_unit(&c, &[radix], part),
            )
        }
    };
    let report = nvrtc_resources(&name, &unit, limits(arch)?.capability()).map_err(|e| e.to_string())?;
    println!("{}", report.log);
    print_pipes(&name, &report, pipes)?;
    print_compile_time(&report);
    Ok(())
}

/// The child's argument for the probe kernels' unit.
const PROBES: &str = "probes";

/// The child of `--probe`: the field's DFT_`radix` teams unit with the probe
/// kernels, compiled with `GFPF_PROBE`, each function's count printed
/// ([`probes::ProbeCount::to_line`]).
fn compile_probes(c: &gfpf_kernels::DeviceConstants, radix: usize, arch: &str) -> Result<(), String> {
    let nvdisasm = find_nvdisasm().ok_or_else(|| format!("--probe: {NO_NVDISASM}"))?;
    let (counts, report) = probes::count_field(c, radix, limits(arch)?.capability(), &nvdisasm)?;
    for (function, count) in counts {
        println!("{}", count.to_line(&function));
    }
    print_compile_time(&report);
    Ok(())
}

/// The child's argument for the multi-modular kernels' loops.
const MM_LOOPS: &str = "mm_loops";

/// The presets `--probe --preset mm` reads the multi-modular kernels of:
/// one pass of the 32-bit join at k = 4 and 8, two at 16.
const MM_PROBE_PRESETS: [Preset; 3] = [Preset::T4, Preset::T8, Preset::T16];

/// The child of `--probe --preset mm`: the field's multi-modular kernels'
/// loops over the primes, each printed as `SYMBOL.i` (its i-th such loop,
/// [`probes::LoopBody::to_line`]).
fn compile_mm_loops(c: &gfpf_kernels::DeviceConstants, arch: &str) -> Result<(), String> {
    let nvdisasm = find_nvdisasm().ok_or_else(|| format!("--probe: {NO_NVDISASM}"))?;
    let (loops, report) = probes::count_mm(c, limits(arch)?.capability(), &nvdisasm)?;
    for (symbol, bodies) in loops {
        for (i, body) in bodies.iter().enumerate() {
            println!("{}", body.to_line(&format!("{symbol}.{i}")));
        }
    }
    print_compile_time(&report);
    Ok(())
}

/// `--probe --preset mm`: the multi-modular kernels' loops over the primes
/// at t4, t8 and t16 on `arch`, an iteration's instructions beside what the
/// time model charges it ([`crate::mm_costs`]).
fn run_mm_probes(arch: &str, timeout: Duration) -> Result<(), String> {
    println!(
        "{:<6} {:<6} {:<22} {:>7} {:>7} {:>7}",
        "preset", "arch", "loop", "instr", "model", "agrees"
    );
    for preset in MM_PROBE_PRESETS {
        let k = preset.k();
        let report = compile_named_in_child(preset.name(), 2 * k, arch, MM_LOOPS, false, timeout)?;
        let bodies: Vec<(String, probes::LoopBody)> =
            report.log.lines().filter_map(probes::LoopBody::from_line).collect();
        if bodies.is_empty() {
            return Err(format!(
                "--probe --preset mm: no loop counted at {}\n{}",
                preset.name(),
                report.log
            ));
        }
        for (name, body) in bodies {
            let symbol = name.split('.').next().unwrap_or(&name);
            let kernel = mm_costs::MmKernel::ALL.into_iter().find(|m| m.symbol() == symbol);
            let (model, agrees) = kernel.map_or_else(
                || ("-".to_owned(), "-".to_owned()),
                |m| {
                    let agrees = m.agrees(k, body.instructions as f64);
                    (
                        format!("{:.1}", m.prime_loop_instructions(k)),
                        (if agrees { "yes" } else { "NO" }).to_owned(),
                    )
                },
            );
            println!(
                "{:<6} {arch:<6} {name:<22} {:>7} {model:>7} {agrees:>7}",
                preset.name(),
                body.instructions
            );
        }
    }
    println!(
        "(each multi-modular kernel's loops over the primes, `SYMBOL.i` its i-th (the join: a pass over \
         the residues for each group of digits), an iteration's instructions; model: the time model's, \
         its charges for the operations the emulator counts in an iteration, xtask/src/mm_costs.rs; \
         agrees: within 7%)"
    );
    Ok(())
}

/// The child of `--probe --preset ntt`: the NTT module with its probe
/// kernels, each one's loop body printed ([`probes::LoopBody::to_line`]).
fn compile_ntt_probes(arch: &str) -> Result<(), String> {
    let nvdisasm = find_nvdisasm().ok_or_else(|| format!("--probe: {NO_NVDISASM}"))?;
    let (bodies, report) = probes::count_ntt(limits(arch)?.capability(), &nvdisasm)?;
    for (function, body) in bodies {
        println!("{}", body.to_line(&function));
    }
    print_compile_time(&report);
    Ok(())
}

/// `--probe --preset ntt`: the word-size NTT's loops on `arch`, each
/// iteration's instructions and shared words beside what the time model
/// charges it ([`crate::ntt_costs`]).
fn run_ntt_probes(arch: &str, timeout: Duration) -> Result<(), String> {
    let report = compile_named_in_child(NTT_MODULE, 0, arch, PROBES, false, timeout)?;
    let bodies: BTreeMap<String, probes::LoopBody> =
        report.log.lines().filter_map(probes::LoopBody::from_line).collect();
    if bodies.is_empty() {
        return Err(format!("--probe --preset ntt: no probe counted\n{}", report.log));
    }
    println!(
        "{:<6} {:<6} {:<22} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "module", "arch", "loop", "instr", "shared", "model", "m.words", "agrees"
    );
    for (name, body) in &bodies {
        let ntt_loop = ntt_costs::NttLoop::of_probe(name);
        let iterations = ntt_loop.map_or(1.0, |l| l.iterations(body.global_stores));
        let instructions = body.instructions as f64 / iterations;
        let (model, words, agrees) = ntt_loop.map_or_else(
            || ("-".to_owned(), "-".to_owned(), "-".to_owned()),
            |l| {
                (
                    format!("{:.1}", l.instructions()),
                    format!("{:.0}", l.shared_words()),
                    (if l.agrees(instructions) { "yes" } else { "NO" }).to_owned(),
                )
            },
        );
        println!(
            "{:<6} {arch:<6} {name:<22} {instructions:>7.1} {:>7.1} {model:>7} {words:>7} {agrees:>7}",
            "ntt",
            body.shared_words as f64 / iterations
        );
    }
    println!(
        "(instructions an iteration of each probe's loop, as the stage kernels run it: a round's group \
         of 2^r rows from the tile to the tile, forward or inverse, by word (31: 32-bit, 62: 64-bit, 50: \
         FP64); a word in through the tile, with its pointwise product, out through it (a loop of stores \
         unrolled: a word a store); the tensor cores' 8 groups; shared: the machine code's shared-memory \
         words (a 16-byte access two); model: the time model's instructions, its charge and 2 a shared \
         word as the emulator counts them (m.words); agrees: within the bound ntt_costs::NttLoop::agreement \
         sets, xtask/src/ntt_costs.rs)"
    );
    Ok(())
}

/// `--probe`: each preset's operations (default t8) on `arch` (default
/// sm_90), less the empty probe.
fn run_probes(args: &KernelsArgs) -> Result<(), String> {
    if find_nvdisasm().is_none() {
        return Err(format!("--probe: {NO_NVDISASM}"));
    }
    let names = if args.presets.is_empty() {
        vec!["t8".to_owned()]
    } else {
        args.presets.clone()
    };
    let arch = args.arch.as_deref().unwrap_or("sm_90");
    limits(arch)?;
    let (modules, names): (Vec<String>, Vec<String>) = names.into_iter().partition(|n| n == "ntt" || n == "mm");
    for module in &modules {
        let timeout = Duration::from_secs(args.timeout_s);
        if module == "ntt" {
            run_ntt_probes(arch, timeout)?;
        } else {
            run_mm_probes(arch, timeout)?;
        }
    }
    if names.is_empty() {
        return Ok(());
    }
    println!(
        "{:<6} {:<6} {:<26} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "preset", "arch", "operation", "instr", "shared", "charge", "model", "cycles", "slow", "m.cyc"
    );
    for name in names {
        let preset = Preset::from_name(&name).map_err(|e| e.to_string())?;
        let k = preset.k();
        if !(2..=16).contains(&k) {
            return Err(format!("{name}: the element teams run at k = 2 … 16, not {k}"));
        }
        let report = compile_named_in_child(
            preset.name(),
            2 * k,
            arch,
            PROBES,
            false,
            Duration::from_secs(args.timeout_s),
        )?;
        let counts: BTreeMap<String, probes::ProbeCount> =
            report.log.lines().filter_map(probes::ProbeCount::from_line).collect();
        let short_division = tile_costs::short_division(&constants(preset)?);
        for op in probes::operations(&counts)? {
            let tile_op = TileOp::of_probe(&op.name);
            let model = tile_op
                .and_then(|tile_op| tile_costs::charge(tile_op, k, short_division))
                .map_or_else(|| "-".to_owned(), |charge| format!("{charge:.0}"));
            let model_cycles = tile_op
                .and_then(|tile_op| tile_costs::scheduled(tile_op, k, short_division, false))
                .map_or_else(|| "-".to_owned(), |(cycles, _)| format!("{cycles:.0}"));
            println!(
                "{:<6} {arch:<6} {:<26} {:>7} {:>7} {:>7} {model:>7} {:>7} {:>7} {model_cycles:>7}",
                preset.name(),
                op.name,
                op.instructions,
                op.shared_words,
                op.instructions - 2 * op.shared_words,
                op.cycles,
                op.slow_cycles
            );
        }
    }
    println!(
        "(instructions on a lane's common path less the empty probe's, a loop's body once an iteration; \
         shared: its 8-byte shared-memory words; charge: instructions less 2 a word, what the time \
         model would charge the operation beside its words; model: what it charges, xtask/src/tile_costs.rs; \
         cycles: one warp alone, issued as ptxas scheduled it (stall counts, barriers) with variable \
         latencies assumed (probes::ASSUMED_LATENCIES), less the empty probe's; slow: the same at \
         probes::SLOW_LATENCIES, half as long again; m.cyc: the cycles the time model's scheduled \
         path takes, xtask/src/tile_costs.rs)"
    );
    Ok(())
}

/// With `pipes`, the child's line of each function's instructions by pipe
/// (read back by [`pipes_of`]).
fn print_pipes(module: &str, report: &ModuleResources, pipes: bool) -> Result<(), String> {
    if !pipes {
        return Ok(());
    }
    let nvdisasm = find_nvdisasm().ok_or_else(|| format!("--pipes: {NO_NVDISASM}"))?;
    for (function, mix) in pipe_mix::of_cubin(&nvdisasm, module, &report.cubin)? {
        println!("{}", mix.to_line(&function));
    }
    Ok(())
}

/// The pipe lines of a child's output, by function.
pub fn pipes_of(report: &ModuleResources) -> BTreeMap<String, PipeMix> {
    report.log.lines().filter_map(PipeMix::from_line).collect()
}

/// The child's last line: `compile time WALL CPU`, in seconds.
fn print_compile_time(report: &ModuleResources) {
    println!(
        "{COMPILE_TIME} {} {}",
        report.compile_time.as_secs_f64(),
        report.compile_cpu_time.as_secs_f64()
    );
}

/// The word-size NTT module's name (no preset: no field constants).
const NTT_MODULE: &str = "gfpf_ntt";

/// The least theoretical occupancy on sm_90 the word-size NTT kernel must
/// allow at its largest blocks.
const NTT_OCCUPANCY_BUDGET: f64 = 0.5;

/// The child's last line starts with this.
const COMPILE_TIME: &str = "compile time";

/// The parent: the child's report, read with the same parser.
fn parse_child(out: &str) -> Result<ModuleResources, String> {
    let line = out
        .lines()
        .find_map(|line| line.strip_prefix(COMPILE_TIME))
        .ok_or("the compile printed no time")?;
    let seconds = line
        .split_whitespace()
        .map(|s| s.parse::<f64>().map(Duration::from_secs_f64))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("compile time {line}: {e}"))?;
    let [wall, cpu] = seconds[..] else {
        return Err(format!("compile time {line}: not a wall and a CPU time"));
    };
    Ok(ModuleResources {
        functions: parse_ptxas_report(out),
        compile_time: wall,
        compile_cpu_time: cpu,
        cubin: Vec::new(),
        log: out.to_owned(),
    })
}

/// What one compile of a field's base size holds: every family of stage
/// kernels in one unit (reports and models that compare them), or one part
/// of the device's module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Families {
    /// Every family, every part ([`translation_unit_all_families`]).
    All,
    /// One part of the device's module, as the device loads it.
    Device(ModulePart),
}

impl Families {
    /// The child's argument.
    fn arg(self) -> &'static str {
        match self {
            Families::All => "all",
            Families::Device(part) => part.name(),
        }
    }
}

/// Runs one module's compile in a child, stopped after `timeout`; with
/// `pipes`, the kernels' pipe counts in the report's log too
/// ([`pipes_of`]).
pub fn compile_in_child(
    preset: Preset,
    radix: usize,
    arch: &str,
    families: Families,
    pipes: bool,
    timeout: Duration,
) -> Result<ModuleResources, String> {
    compile_named_in_child(preset.name(), radix, arch, families.arg(), pipes, timeout)
}

/// The word-size NTT module's compile, in a child as the others.
pub fn compile_ntt_in_child(arch: &str, pipes: bool, timeout: Duration) -> Result<ModuleResources, String> {
    compile_named_in_child(NTT_MODULE, 0, arch, "device", pipes, timeout)
}

/// This very program, for its compile children: on Linux /proc/self/exe,
/// which runs the binary this process started from even after a build has
/// replaced target/debug/xtask (another `cargo xtask` started meanwhile);
/// the path of the binary there made the children fail to start, and the
/// model fall back to assumed occupancies for every module it compiled
/// after.
fn this_program() -> Result<std::path::PathBuf, String> {
    let proc_self = std::path::Path::new("/proc/self/exe");
    if proc_self.exists() {
        return Ok(proc_self.to_path_buf());
    }
    std::env::current_exe().map_err(|e| e.to_string())
}

fn compile_named_in_child(
    module: &str,
    radix: usize,
    arch: &str,
    families: &str,
    pipes: bool,
    timeout: Duration,
) -> Result<ModuleResources, String> {
    let mut command = Command::new(this_program()?);
    command.arg("kernels");
    if pipes {
        command.arg("--pipes");
    }
    command
        .args(["--one", module, &radix.to_string(), arch, families])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::test::with_nvrtc_on_path(&mut command)?;
    let mut child = command.spawn().map_err(|e| format!("cannot start the compile: {e}"))?;
    // Both pipes drained while the child runs: read only after it exits, a
    // report or log past the pipe's buffer (64 KiB) would block the child
    // until the timeout.
    type Pipe = Box<dyn std::io::Read + Send>;
    let drain = |pipe: Option<Pipe>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Pipe));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Pipe));
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let out = out.join().unwrap_or_default();
            let err = err.join().unwrap_or_default();
            if !status.success() {
                return Err(format!("compile failed: {}", err.trim()));
            }
            return parse_child(&out);
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("not done after {} s (stopped)", timeout.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One kernel's line of the report; with its pipe mix, the ALU's and the
/// FMA pipe's shares and 2 × the ALU's.
#[allow(clippy::too_many_arguments)]
fn print_row(
    preset: &str,
    module: &str,
    arch: &str,
    f: &gfpf_cuda::resources::KernelResources,
    stack: u32,
    occupancy: f64,
    seconds: f64,
    mix: Option<&PipeMix>,
) {
    let pipes = mix.map_or(String::new(), |m| {
        format!(
            " {:>6} {:>4.0}% {:>4.0}% {:>5.2} {:>5}",
            m.total(),
            m.share(Pipe::Alu) * 100.0,
            m.share(Pipe::Fma) * 100.0,
            2.0 * m.share(Pipe::Alu),
            m.scheduled_cycles_an_instruction()
                .map_or_else(|| "-".to_owned(), |c| format!("{c:.1}"))
        )
    });
    println!(
        "{preset:<6} {module:>19} {arch:<6} {:<22} {:>5} {stack:>7} {:>9} {:>6} {:>6.0}% {seconds:>7.1}s{pipes}",
        f.name.trim_start_matches("gfpf_"),
        f.registers,
        format!("{}/{}", f.spill_store_bytes, f.spill_load_bytes),
        f.shared_bytes,
        occupancy * 100.0,
    );
}

/// Runs the task.
pub fn run(args: &KernelsArgs) -> Result<(), String> {
    if let [preset, radix, arch, families] = args.one.as_slice() {
        return compile_one(preset, radix, arch, families, args.pipes);
    }
    if args.probe {
        return run_probes(args);
    }
    if !args.report {
        return Err("nothing to do: `cargo xtask kernels --report` or `--probe`".to_owned());
    }
    // Said before any module compiles, not after the first.
    if args.pipes && find_nvdisasm().is_none() {
        return Err(format!("--pipes: {NO_NVDISASM}"));
    }
    let presets: Vec<Preset> = if args.presets.is_empty() {
        Preset::ALL.to_vec()
    } else {
        args.presets
            .iter()
            .map(|p| Preset::from_name(p).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?
    };
    let archs: Vec<SmLimits> = match &args.arch {
        Some(a) => vec![limits(a)?],
        None => vec![SmLimits::SM80, SmLimits::SM90],
    };
    let timeout = Duration::from_secs(args.timeout_s);
    let pipe_columns = if args.pipes {
        format!(
            " {:>6} {:>5} {:>5} {:>5} {:>5}",
            "instr", "alu", "fma", "2·alu", "cyc/i"
        )
    } else {
        String::new()
    };
    println!(
        "{:<6} {:>19} {:<6} {:<22} {:>5} {:>7} {:>9} {:>6} {:>7} {:>8}{pipe_columns}",
        "preset", "module", "arch", "kernel", "regs", "stack", "spill s/l", "smem", "occup.", "cpu"
    );
    let mut over = Vec::new();
    let (mut fft_kernels, mut within) = (0usize, 0usize);
    for &preset in &presets {
        let k = preset.k();
        for radix in device_base_sizes(k) {
            // The parts that hold a kernel the device launches.
            let units: Vec<Families> = if args.all_families {
                vec![Families::All]
            } else {
                device_module_parts(k, radix)
                    .into_iter()
                    .map(Families::Device)
                    .collect()
            };
            for (limits, families) in archs.iter().flat_map(|l| units.iter().map(move |f| (l, *f))) {
                let module = match families {
                    Families::All => format!("DFT_{radix}"),
                    Families::Device(part) => format!("DFT_{radix} {}", part.name()),
                };
                let report = match compile_in_child(preset, radix, limits.arch, families, args.pipes, timeout) {
                    Ok(report) => report,
                    Err(e) => {
                        println!("{:<6} {module:>19} {:<6} {e}", preset.name(), limits.arch);
                        over.push(format!("{} {module} {}: {e}", preset.name(), limits.arch));
                        continue;
                    }
                };
                let seconds = report.compile_cpu_time.as_secs_f64();
                let mixes = pipes_of(&report);
                if report.compile_cpu_time > MODULE_COMPILE_BUDGET {
                    over.push(format!(
                        "{} {module} {}: compiled in {seconds:.0} s of CPU",
                        preset.name(),
                        limits.arch
                    ));
                }
                for f in report.kernels() {
                    let kernel = kernel_of(&f.name);
                    let multimodular = gfpf_cuda::multimodular::MULTIMODULAR_KERNELS.contains(&f.name.as_str());
                    let block = match kernel {
                        Some(kernel) => gfpf_cuda::block_threads(&kernel, k),
                        None if multimodular => gfpf_cuda::multimodular::MULTIMODULAR_THREADS_PER_BLOCK,
                        None => gfpf_cuda::THREADS_PER_BLOCK,
                    };
                    let dynamic = kernel.map_or(0, |kernel| gfpf_cuda::dynamic_shared_bytes(&kernel, k));
                    let f = &f.with_dynamic_shared(dynamic);
                    let occupancy = limits.occupancy(f, block);
                    let stack = f.stack_frame_bytes.max(report.callee_stack_frame_bytes());
                    let budget = kernel
                        .and_then(|kernel| gfpf_kernels::occupancy_budget(&kernel, k))
                        .or(multimodular.then_some(gfpf_cuda::multimodular::MULTIMODULAR_OCCUPANCY_BUDGET));
                    if let Some(least) = budget {
                        fft_kernels += 1;
                        let mut fails = Vec::new();
                        if stack > 0 || f.spill_store_bytes > 0 {
                            fails.push(format!("{stack} bytes of stack, {} of spills", f.spill_store_bytes));
                        }
                        // Occupancy is budgeted on the H100 the bounds were
                        // chosen for; no stack and no spills on both.
                        if limits.arch == "sm_90" && occupancy < least {
                            fails.push(format!("occupancy {:.0}% < {:.0}%", occupancy * 100.0, least * 100.0));
                        }
                        if fails.is_empty() {
                            within += 1;
                        } else {
                            over.push(format!(
                                "{} {} {}: {}",
                                preset.name(),
                                limits.arch,
                                f.name,
                                fails.join(", ")
                            ));
                        }
                    }
                    print_row(
                        preset.name(),
                        &module,
                        limits.arch,
                        f,
                        stack,
                        occupancy,
                        seconds,
                        mixes.get(&f.name),
                    );
                }
            }
        }
    }
    // The word-size NTT module (no preset).
    for limits in &archs {
        let report = match compile_ntt_in_child(limits.arch, args.pipes, timeout) {
            Ok(report) => report,
            Err(e) => {
                println!("{:<6} {:>19} {:<6} {e}", "ntt", "NTT", limits.arch);
                over.push(format!("{NTT_MODULE} {}: {e}", limits.arch));
                continue;
            }
        };
        let seconds = report.compile_cpu_time.as_secs_f64();
        let mixes = pipes_of(&report);
        for f in report.kernels() {
            // The tile is dynamic shared memory: the largest a launch of the
            // kernel's word width takes, on its largest blocks.
            let Some(&(_, block, most_shared)) = gfpf_cuda::ntt::NTT_KERNELS.iter().find(|(k, ..)| *k == f.name) else {
                over.push(format!(
                    "{NTT_MODULE} {}: not a kernel of gfpf_cuda::ntt::NTT_KERNELS",
                    f.name
                ));
                continue;
            };
            let f = &f.with_dynamic_shared(most_shared);
            let occupancy = limits.occupancy(f, block);
            let stack = f.stack_frame_bytes.max(report.callee_stack_frame_bytes());
            fft_kernels += 1;
            if stack == 0
                && f.spill_store_bytes == 0
                && (limits.arch != "sm_90" || occupancy >= NTT_OCCUPANCY_BUDGET)
                && report.compile_cpu_time <= MODULE_COMPILE_BUDGET
            {
                within += 1;
            } else {
                over.push(format!(
                    "{NTT_MODULE} {} {}: {stack} bytes of stack, {} of spills, occupancy {:.0}%, {seconds:.1} s",
                    limits.arch,
                    f.name,
                    f.spill_store_bytes,
                    occupancy * 100.0
                ));
            }
            print_row(
                "ntt",
                "NTT",
                limits.arch,
                f,
                stack,
                occupancy,
                seconds,
                mixes.get(&f.name),
            );
        }
    }
    println!(
        "\nbudgets (device kernels: stack 0 and no spills on each architecture, occupancy on sm_90 per gfpf_kernels::occupancy_budget, the multi-modular kernels' {:.0}%, the word-size NTT's {:.0}%; modules <= {} s of CPU): {within} of {fft_kernels} device kernels within (kernels times architectures); {} findings",
        gfpf_cuda::multimodular::MULTIMODULAR_OCCUPANCY_BUDGET * 100.0,
        NTT_OCCUPANCY_BUDGET * 100.0,
        MODULE_COMPILE_BUDGET.as_secs(),
        over.len()
    );
    for line in &over {
        println!("  over: {line}");
    }
    Ok(())
}
