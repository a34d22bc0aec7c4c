//! `cargo xtask kernels --probe`: the machine instructions of the element
//! teams' operations on shared memory, as the time model charges them.
//!
//! Each probe kernel (`probes.cu`) runs one operation on one warp's elements
//! between the same loads and stores as an empty probe, compiled by NVRTC
//! with `GFPF_PROBE`, which leaves out the operations' rare branches (a
//! carry past a digit of exactly r − 1, an element −1; `GFPF_RARE`). A
//! rolled loop's body counts once an iteration ([`PROBES`] gives each
//! probe's trip counts, its loops by where they start in the machine code),
//! so that the probe's instructions less the empty probe's are the
//! operation's common path on a lane. The model charges a shared-memory
//! word apart (2 instructions: its load or store and an address), so an
//! operation's charge is its instructions less 2 for each of its shared
//! words (an 8-byte access one word, a 16-byte one two).

use std::collections::BTreeMap;
use std::path::Path;

use gfpf_cuda::resources::{ModuleResources, nvrtc_resources};
use gfpf_kernels::{DeviceConstants, ModulePart, part_module_name, translation_unit};

use crate::pipe_mix::{self, opcode_of};

/// The probe kernels, appended to a field's translation unit.
pub const PROBES_SOURCE: &str = include_str!("probes.cu");

/// The prefix of the empty probe and of every probe kernel's name.
const PROBE_PREFIX: &str = "gfpf_probe_";

/// Each probe's rolled loops' trip counts, its loops in the order they start
/// in the machine code (an inner loop after its outer one): the tensor
/// cores' products their sets, four of eight columns, or two pairs of sets
/// where sixteen lanes share a twiddle, and four lanes a twiddle their two
/// tables' staging in each set.
pub const PROBES: &[(&str, &[u64])] = &[
    ("empty", &[]),
    ("tile_mul", &[]),
    ("tile_add_sub", &[]),
    ("tile_mul_pow_r", &[]),
    ("tile_stage_twiddles", &[]),
    ("tile_add_sub_mul_pow_r", &[]),
    ("tile_add_sub_shift", &[]),
    ("tile_mul_shared16", &[2]),
    ("tile_mul_shared8", &[4]),
    ("tile_mul_shared4", &[4, 2]),
];

/// The compile child's lines start with this.
pub const LINE_PREFIX: &str = "probe";

/// One function's machine code on its path: its instructions (NOPs, the
/// padding, not counted) and the shared-memory words its loads and stores
/// move, each a loop's body times its trips, and the cycles one warp alone
/// takes to issue them as ptxas scheduled them ([`warp_alone_cycles`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProbeCount {
    /// Instructions.
    pub instructions: u64,
    /// 8-byte words of its shared loads and stores (LDS, STS; a 16-byte
    /// access two, a narrower one one).
    pub shared_words: u64,
    /// Cycles from its first instruction's issue to its last's, one warp
    /// alone on its scheduler, at [`ASSUMED_LATENCIES`] (0 where the
    /// listing has no encodings).
    pub cycles: u64,
    /// The same at [`SLOW_LATENCIES`].
    pub slow_cycles: u64,
}

impl ProbeCount {
    /// The line the compile child prints for `function`.
    pub fn to_line(self, function: &str) -> String {
        format!(
            "{LINE_PREFIX} {function} {} {} {} {}",
            self.instructions, self.shared_words, self.cycles, self.slow_cycles
        )
    }

    /// A line of [`ProbeCount::to_line`].
    pub fn from_line(line: &str) -> Option<(String, ProbeCount)> {
        let mut words = line.strip_prefix(LINE_PREFIX)?.strip_prefix(' ')?.split_whitespace();
        let function = words.next()?.to_owned();
        let instructions = words.next()?.parse().ok()?;
        let shared_words = words.next()?.parse().ok()?;
        let cycles = words.next()?.parse().ok()?;
        let slow_cycles = words.next()?.parse().ok()?;
        words.next().is_none().then_some((
            function,
            ProbeCount {
                instructions,
                shared_words,
                cycles,
                slow_cycles,
            },
        ))
    }
}

/// How ptxas scheduled one instruction: the control bits of an sm_70-and-
/// later instruction, bits 105 to 127 of its 128 (bits 41 to 63 of the
/// encoding's high word, which `nvdisasm -hex` prints on the line after
/// the instruction's), as Jia et al. decoded them for Volta ("Dissecting
/// the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018, §2.2):
/// 4 bits of stall, a yield bit, the write and read barrier indices (7:
/// none) and the 6-bit mask of barriers it waits on. The same layout reads
/// sm_90's code consistently: an instruction that reads a variable-latency
/// result waits on the barrier its producer set (checked on the probes'
/// listings: `S2R R0` sets barrier 1, the `IMAD.WIDE.U32 R2, R0, …` after it
/// waits on mask 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Control {
    /// Cycles before the warp's next instruction may issue: the fixed-
    /// latency results' wait, which ptxas sets (no interlock covers them).
    pub stall: u8,
    /// The barrier released when its result is written (variable latency).
    pub write_barrier: Option<u8>,
    /// The barrier released when its operands have been read (a store's).
    pub read_barrier: Option<u8>,
    /// Barriers it waits on before issuing (bit b: barrier b).
    pub wait_mask: u8,
}

impl Control {
    /// The control bits of an encoding's high 64 bits.
    pub fn of_high_word(high: u64) -> Control {
        let bits = high >> 41;
        let barrier = |at: u32| Some(((bits >> at) & 7) as u8).filter(|&b| b != 7);
        Control {
            stall: (bits & 0xf) as u8,
            write_barrier: barrier(5),
            read_barrier: barrier(8),
            wait_mask: ((bits >> 11) & 0x3f) as u8,
        }
    }
}

/// Latencies, in cycles from issue, assumed for the instructions ptxas
/// tracks by barrier (variable latency); a fixed-latency instruction's wait
/// is its stall count, which the code itself gives. None of these is
/// measured here: they are the orders of magnitude published for recent
/// NVIDIA GPUs (shared memory about 20–30 cycles, L2 about 200–270,
/// device memory about 400–600, a warp's `mma` about 30), and
/// `kernels --probe` prints the cycles at these and at [`SLOW_LATENCIES`]
/// so that what rests on them shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Latencies {
    /// A shared-memory load's result (LDS, LDSM, ATOMS).
    pub shared: u64,
    /// A warp shuffle's result (SHFL).
    pub shuffle: u64,
    /// An integer or floating-point `mma`'s result (IMMA, HMMA, DMMA).
    pub mma: u64,
    /// A global load's result (LDG, LD): the tensor cores' tables, read
    /// from L2 in the kernels (the probes' own loads and stores cancel
    /// against the empty probe's).
    pub global: u64,
    /// A local load's result (LDL): the one-thread-per-DFT kernels' elements,
    /// whose stack frames pass L1 (their measured DRAM traffic was 9 times
    /// their data's), so device memory's latency. No device kernel has one.
    pub local: u64,
    /// A constant's or a special register's (LDC, S2R, S2UR, CS2R when
    /// tracked).
    pub constant: u64,
    /// Any other tracked result (VOTE's where tracked, conversions).
    pub other: u64,
    /// A store's or shuffle's operands read (the read barrier's release).
    pub operands: u64,
}

/// The latencies [`ProbeCount::cycles`] takes.
pub const ASSUMED_LATENCIES: Latencies = Latencies {
    shared: 30,
    shuffle: 30,
    mma: 32,
    global: 260,
    local: 600,
    constant: 20,
    other: 20,
    operands: 12,
};

/// Half as long again (the operands' read as it was): what the cycles
/// become if the memory pipe's latencies are longer than assumed.
pub const SLOW_LATENCIES: Latencies = Latencies {
    shared: 45,
    shuffle: 45,
    mma: 48,
    global: 390,
    local: 900,
    constant: 30,
    other: 30,
    operands: 12,
};

impl Latencies {
    /// The latency of `opcode`'s result.
    fn result(&self, opcode: &str) -> u64 {
        match opcode.split('.').next().unwrap_or(opcode) {
            "LDS" | "LDSM" | "ATOMS" => self.shared,
            "SHFL" => self.shuffle,
            "IMMA" | "HMMA" | "DMMA" => self.mma,
            "LDG" | "LD" | "ATOMG" | "RED" => self.global,
            "LDL" => self.local,
            "LDC" | "S2R" | "S2UR" | "CS2R" => self.constant,
            _ => self.other,
        }
    }
}

/// One warp alone on its scheduler running `trace` (each instruction's
/// opcode and control bits, in issue order): each instruction issues once
/// the one before has waited out its stall count (at least a cycle) and
/// once the barriers in its mask are released; a variable-latency result
/// releases its write barrier `latencies.result` after its issue, its
/// operands their read barrier `latencies.operands` after. The cycles from
/// the first issue to the last instruction's end (its stall). This is the
/// serial path of one warp as the machine code schedules it, the
/// dependences' latencies included, where the time model's path term
/// charges a fixed number of cycles an instruction.
pub fn warp_alone_cycles<'a>(trace: impl IntoIterator<Item = (&'a str, Control)>, latencies: &Latencies) -> u64 {
    let mut next = 0u64;
    let mut released = [0u64; 6];
    for (opcode, control) in trace {
        let waited = (0..6)
            .filter(|b| control.wait_mask & (1 << b) != 0)
            .map(|b| released[b])
            .max()
            .unwrap_or(0);
        let issue = next.max(waited);
        if let Some(b) = control.write_barrier {
            released[b as usize] = released[b as usize].max(issue + latencies.result(opcode));
        }
        if let Some(b) = control.read_barrier {
            released[b as usize] = released[b as usize].max(issue + latencies.operands);
        }
        next = issue + u64::from(control.stall.max(1));
    }
    next
}

/// The shared-memory words of one instruction: 0 unless an LDS or STS.
fn shared_words_of(opcode: &str) -> u64 {
    let mut parts = opcode.split('.');
    match parts.next() {
        Some("LDS" | "STS") => {
            if parts.any(|m| m == "128") {
                2
            } else {
                1
            }
        }
        _ => 0,
    }
}

/// One function of a listing: its instructions' opcodes and branch targets
/// (by instruction index), in order.
#[derive(Debug, Default)]
struct Function {
    opcodes: Vec<String>,
    /// Each instruction's control bits, where the listing has its encoding
    /// (`nvdisasm -hex`).
    controls: Vec<Option<Control>>,
    /// Index of each branch's target, by the branch's index.
    branches: Vec<(usize, String)>,
    labels: BTreeMap<String, usize>,
}

impl Function {
    /// Its rolled loops, (first, last) instruction, by first: the backward
    /// branches, less the branch to itself that ends every function after
    /// its EXIT.
    fn loops(&self) -> Result<Vec<(usize, usize)>, String> {
        let mut loops = Vec::new();
        for (at, label) in &self.branches {
            let target = *self
                .labels
                .get(label)
                .ok_or_else(|| format!("a branch to {label}, not in the function"))?;
            if target < *at || (target == *at && *at + 1 < self.opcodes.len()) {
                loops.push((target, *at));
            }
        }
        loops.sort();
        Ok(loops)
    }

    /// The instructions' indices in the order one warp runs them: the
    /// function in order, each rolled loop's body `trips` times (a nested
    /// loop's whole run each time its outer body runs).
    fn trace(&self, loops: &[(usize, usize)], trips: &[u64]) -> Vec<usize> {
        let mut trace = Vec::new();
        let mut left: Vec<u64> = trips.to_vec();
        let mut at = 0;
        while at < self.opcodes.len() {
            trace.push(at);
            // A loop's last instruction (its branch back): again from its
            // first while trips are left, else on, its count set for the
            // next time its outer body runs.
            match loops.iter().position(|&(_, last)| last == at) {
                Some(l) if left[l] > 1 => {
                    left[l] -= 1;
                    at = loops[l].0;
                }
                Some(l) => {
                    left[l] = trips[l];
                    at += 1;
                }
                None => at += 1,
            }
        }
        trace
    }

    /// Instructions and shared words, each loop's body (nested ones
    /// included) weighted by `trips`, one a loop in [`Function::loops`]'
    /// order; and the cycles of one warp alone, where the listing has the
    /// encodings.
    fn count(&self, trips: &[u64]) -> Result<ProbeCount, String> {
        let loops = self.loops()?;
        if loops.len() != trips.len() {
            return Err(format!(
                "{} rolled loops in the machine code, {} trip counts given",
                loops.len(),
                trips.len()
            ));
        }
        self.check_no_spills()?;
        // Each loop's body as often as it runs, nested ones within.
        let trace = self.trace(&loops, trips);
        let cycles = |latencies: &Latencies| self.cycles(trace.iter().copied(), latencies).unwrap_or(0);
        Ok(ProbeCount {
            instructions: trace.len() as u64,
            shared_words: trace.iter().map(|&at| shared_words_of(&self.opcodes[at])).sum(),
            cycles: cycles(&ASSUMED_LATENCIES),
            slow_cycles: cycles(&SLOW_LATENCIES),
        })
    }

    /// An error where the machine code spills: a probe that spills counts
    /// its local loads and stores as the operation's (k = 16's did under 64
    /// registers, where its kernels have 128).
    fn check_no_spills(&self) -> Result<(), String> {
        match self
            .opcodes
            .iter()
            .find(|o| o.starts_with("LDL") || o.starts_with("STL"))
        {
            Some(spill) => Err(format!(
                "spills ({spill}): compiled under another register bound than its kernels'"
            )),
            None => Ok(()),
        }
    }

    /// Its longest rolled loop's body, once: where ptxas unrolled a loop
    /// (a loop of stores, four words an iteration, after one that takes
    /// the words left over), the unrolled one.
    fn loop_body(&self) -> Result<LoopBody, String> {
        self.check_no_spills()?;
        let loops = self.loops()?;
        let (first, last) = loops
            .iter()
            .copied()
            .max_by_key(|&(first, last)| last - first)
            .ok_or("no rolled loop in the machine code")?;
        Ok(self.body(first, last))
    }

    /// The body of the loop from instruction `first` to `last`, once.
    fn body(&self, first: usize, last: usize) -> LoopBody {
        let body = &self.opcodes[first..=last];
        let count = |prefix: &str| body.iter().filter(|o| o.starts_with(prefix)).count() as u64;
        LoopBody {
            instructions: body.len() as u64,
            shared_words: body.iter().map(|o| shared_words_of(o)).sum(),
            global_stores: count("STG"),
            global_loads: count("LDG"),
        }
    }

    /// The bodies of its rolled loops that read device memory (the loops
    /// over a multi-modular kernel's primes, which read their constants;
    /// the projection's loops that zero the padding read nothing), in
    /// order, each once.
    fn loading_loop_bodies(&self) -> Result<Vec<LoopBody>, String> {
        self.check_no_spills()?;
        Ok(self
            .loops()?
            .into_iter()
            .map(|(first, last)| self.body(first, last))
            .filter(|body| body.global_loads > 0)
            .collect())
    }

    /// One warp alone's cycles issuing the instructions at `order`
    /// ([`warp_alone_cycles`]); `None` where the listing had no encodings.
    fn cycles(&self, order: impl IntoIterator<Item = usize>, latencies: &Latencies) -> Option<u64> {
        let controls: Vec<Control> = self.controls.iter().copied().collect::<Option<_>>()?;
        (!controls.is_empty()).then(|| {
            warp_alone_cycles(
                order.into_iter().map(|at| (self.opcodes[at].as_str(), controls[at])),
                latencies,
            )
        })
    }
}

/// The 64-bit word of a comment line alone (`/* 0x000e220000000800 */`,
/// the high word of the instruction above in `nvdisasm -hex`).
fn high_word_of(line: &str) -> Option<u64> {
    let hex = line.strip_prefix("/*")?.strip_suffix("*/")?.trim().strip_prefix("0x")?;
    u64::from_str_radix(hex, 16).ok()
}

/// Every function of an `nvdisasm -c` listing, by its `.text.NAME:`
/// section, as [`crate::pipe_mix::parse_nvdisasm`] reads them.
fn functions(listing: &str) -> BTreeMap<String, Function> {
    let mut functions = BTreeMap::new();
    for (name, lines) in pipe_mix::function_lines(listing) {
        let mut function = Function::default();
        // Whether the line is the encoding's high word of the instruction
        // just pushed (`nvdisasm -hex`: a comment line after it).
        let mut high_word_next = false;
        for line in lines {
            if let Some(label) = line.strip_suffix(':').filter(|l| l.starts_with(".L")) {
                function.labels.insert(label.to_owned(), function.opcodes.len());
                continue;
            }
            if std::mem::take(&mut high_word_next)
                && let Some(high) = high_word_of(line)
                && let Some(control) = function.controls.last_mut()
            {
                *control = Some(Control::of_high_word(high));
                continue;
            }
            // A trap is a rare branch's body in a probe (GFPF_RARE), off
            // the common path.
            let Some(opcode) = opcode_of(line).filter(|&o| o != "NOP" && o != "BPT.TRAP") else {
                continue;
            };
            high_word_next = true;
            if opcode.starts_with("BRA")
                && let Some(label) = line
                    .split_once("`(")
                    .and_then(|(_, rest)| rest.split_once(')'))
                    .map(|(label, _)| label)
            {
                function.branches.push((function.opcodes.len(), label.to_owned()));
            }
            function.opcodes.push(opcode.to_owned());
            function.controls.push(None);
        }
        functions.insert(name, function);
    }
    functions
}

/// Every function of a listing with its encodings (`nvdisasm -hex`), by
/// name: the cycles one warp alone takes to issue each of its instructions
/// once, in order, at [`ASSUMED_LATENCIES`] (loops not weighted, every
/// branch's code counted: a static schedule, as the pipe counts are static).
/// Its cycles an instruction say how long a kernel's instructions wait on
/// one another: 3.3 to 4.5 for the device's kernels, 4.75 to 10.7 for the
/// one-thread-per-DFT kernels of the measured rows, whose elements are in
/// local memory (t8's 8.3 to 9.5; NVRTC 12.9, sm_90, 2026-11-30).
pub fn static_schedules(listing: &str) -> BTreeMap<String, u64> {
    functions(listing)
        .into_iter()
        .filter_map(|(name, f)| Some((name, f.cycles(0..f.opcodes.len(), &ASSUMED_LATENCIES)?)))
        .collect()
}

/// The probes of a listing counted ([`PROBES`]' trip counts), by kernel
/// name; an error where a probe's loops are not those given.
pub fn count_listing(listing: &str) -> Result<BTreeMap<String, ProbeCount>, String> {
    let functions = functions(listing);
    let mut counts = BTreeMap::new();
    for (name, function) in &functions {
        let Some(probe) = name.strip_prefix(PROBE_PREFIX) else {
            continue;
        };
        let trips = PROBES
            .iter()
            .find(|(p, _)| *p == probe)
            .map(|(_, trips)| *trips)
            .ok_or_else(|| format!("{name}: no trip counts in probes::PROBES"))?;
        counts.insert(name.clone(), function.count(trips).map_err(|e| format!("{name}: {e}"))?);
    }
    Ok(counts)
}

/// The field's DFT_`radix` teams unit with the probe kernels compiled by
/// NVRTC with `GFPF_PROBE` for `capability`, read back with `nvdisasm` and
/// counted ([`count_listing`]), with the compile's report. Where
/// `GFPF_PROBE_LISTING` names a file, the listing is written there too.
pub fn count_field(
    c: &DeviceConstants,
    radix: usize,
    capability: (i32, i32),
    nvdisasm: &Path,
) -> Result<(BTreeMap<String, ProbeCount>, ModuleResources), String> {
    let name = format!("{}_probes", part_module_name(c, &[radix], ModulePart::Teams));
    let unit = format!(
        "#define GFPF_PROBE 1\n{}\n{PROBES_SOURCE}",
        translation_unit(c, &[radix], ModulePart::Teams)
    );
    let report = nvrtc_resources(&name, &unit, capability).map_err(|e| e.to_string())?;
    let listing = pipe_mix::listing_of_cubin(nvdisasm, &name, &report.cubin)?;
    write_listing_where_asked(&listing)?;
    Ok((count_listing(&listing)?, report))
}

/// Writes a probes' listing to the file `GFPF_PROBE_LISTING` names, if any.
fn write_listing_where_asked(listing: &str) -> Result<(), String> {
    match std::env::var_os("GFPF_PROBE_LISTING") {
        Some(path) => std::fs::write(&path, listing).map_err(|e| format!("writing {}: {e}", path.to_string_lossy())),
        None => Ok(()),
    }
}

/// The word-size NTT's probe kernels (`ntt_probes.cu`), appended to the
/// NTT module's translation unit: each runs one loop of the stage kernels
/// alone, set up as they set it up.
pub const NTT_PROBES_SOURCE: &str = include_str!("ntt_probes.cu");

/// The prefix of the NTT probes' names (`gfpf_probe_ntt31_radix4_forward`:
/// a round's group of 2^4 rows of 32-bit words, forward; `…_pointwise`: a
/// word read with its pointwise product; `ntt31_mma`: the tensor cores' 8
/// groups).
pub const NTT_PROBE_PREFIX: &str = "gfpf_probe_ntt";

/// A probe's loop's body, once: what a loop of the stage kernels costs an
/// iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LoopBody {
    /// Instructions (NOPs, the padding, not counted).
    pub instructions: u64,
    /// Shared-memory words of its loads and stores ([`ProbeCount::shared_words`]).
    pub shared_words: u64,
    /// Its stores to device memory (STG): the words an iteration of a loop
    /// of stores moves.
    pub global_stores: u64,
    /// Its loads from device memory (LDG).
    pub global_loads: u64,
}

impl LoopBody {
    /// The line the compile child prints for `function`.
    pub fn to_line(self, function: &str) -> String {
        format!(
            "{LINE_PREFIX} {function} {} {} {} {}",
            self.instructions, self.shared_words, self.global_stores, self.global_loads
        )
    }

    /// A line of [`LoopBody::to_line`].
    pub fn from_line(line: &str) -> Option<(String, LoopBody)> {
        let mut words = line.strip_prefix(LINE_PREFIX)?.strip_prefix(' ')?.split_whitespace();
        let name = words.next()?.to_owned();
        let mut number = || words.next()?.parse().ok();
        let body = LoopBody {
            instructions: number()?,
            shared_words: number()?,
            global_stores: number()?,
            global_loads: number()?,
        };
        words.next().is_none().then_some((name, body))
    }
}

/// The NTT probes of a listing ([`NTT_PROBE_PREFIX`]), each one's loop body,
/// by name less the prefix `gfpf_probe_`; an error where a probe has no
/// rolled loop, or spills.
pub fn count_ntt_listing(listing: &str) -> Result<BTreeMap<String, LoopBody>, String> {
    functions(listing)
        .iter()
        .filter(|(name, _)| name.starts_with(NTT_PROBE_PREFIX))
        .map(|(name, function)| {
            let body = function.loop_body().map_err(|e| format!("{name}: {e}"))?;
            Ok((name[PROBE_PREFIX.len()..].to_owned(), body))
        })
        .collect()
}

/// The NTT module with its probe kernels, compiled by NVRTC for
/// `capability`, read back with `nvdisasm` and counted
/// ([`count_ntt_listing`]), with the compile's report.
pub fn count_ntt(
    capability: (i32, i32),
    nvdisasm: &Path,
) -> Result<(BTreeMap<String, LoopBody>, ModuleResources), String> {
    let name = "gfpf_ntt_probes";
    let unit = format!("{}\n{NTT_PROBES_SOURCE}", gfpf_kernels::ntt_translation_unit(false));
    let report = nvrtc_resources(name, &unit, capability).map_err(|e| e.to_string())?;
    let listing = pipe_mix::listing_of_cubin(nvdisasm, name, &report.cubin)?;
    write_listing_where_asked(&listing)?;
    Ok((count_ntt_listing(&listing)?, report))
}

/// The multi-modular kernels of a field (crate::mm_costs::MmKernel), each
/// one's loops over the primes (its loops that read device memory), by
/// symbol, from the field's DFT_2k teams unit compiled by NVRTC for
/// `capability` and read back with `nvdisasm`.
pub fn count_mm(
    c: &DeviceConstants,
    capability: (i32, i32),
    nvdisasm: &Path,
) -> Result<(BTreeMap<String, Vec<LoopBody>>, ModuleResources), String> {
    let radix = 2 * c.k;
    let name = part_module_name(c, &[radix], ModulePart::Teams);
    let unit = translation_unit(c, &[radix], ModulePart::Teams);
    let report = nvrtc_resources(&name, &unit, capability).map_err(|e| e.to_string())?;
    let listing = pipe_mix::listing_of_cubin(nvdisasm, &name, &report.cubin)?;
    write_listing_where_asked(&listing)?;
    let functions = functions(&listing);
    let loops = crate::mm_costs::MmKernel::ALL
        .iter()
        .map(|kernel| {
            let symbol = kernel.symbol();
            let function = functions
                .get(symbol)
                .ok_or_else(|| format!("{symbol}: not in {name}"))?;
            let bodies = function.loading_loop_bodies().map_err(|e| format!("{symbol}: {e}"))?;
            Ok((symbol.to_owned(), bodies))
        })
        .collect::<Result<_, String>>()?;
    Ok((loops, report))
}

/// An operation's probe less the empty probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// The probe's name less the prefix.
    pub name: String,
    /// Instructions on a lane's common path.
    pub instructions: i64,
    /// Shared-memory words.
    pub shared_words: i64,
    /// One warp alone's cycles ([`ProbeCount::cycles`]).
    pub cycles: i64,
    /// The same at [`SLOW_LATENCIES`].
    pub slow_cycles: i64,
}

/// The probes' rows: each operation's counts less the empty probe's, by
/// operation name; an error without the empty probe.
pub fn operations(counts: &BTreeMap<String, ProbeCount>) -> Result<Vec<Operation>, String> {
    let empty = counts
        .get(&format!("{PROBE_PREFIX}empty"))
        .ok_or("the listing has no empty probe")?;
    let less = |a: u64, b: u64| a as i64 - b as i64;
    Ok(counts
        .iter()
        .filter_map(|(name, count)| {
            let operation = name.strip_prefix(PROBE_PREFIX)?;
            (operation != "empty").then(|| Operation {
                name: operation.to_owned(),
                instructions: less(count.instructions, empty.instructions),
                shared_words: less(count.shared_words, empty.shared_words),
                cycles: less(count.cycles, empty.cycles),
                slow_cycles: less(count.slow_cycles, empty.slow_cycles),
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two probes in nvdisasm's layout: the empty one, and one with a loop of
    /// two instructions (a 16-byte load among them) that runs four times
    /// (tile_mul_shared8's trips), each ending in the branch to itself.
    const LISTING: &str = "\
.text.gfpf_probe_empty:
        /*0000*/                   LDS.64 R2, [R4] ;
        /*0010*/                   STS.64 [R4], R2 ;
        /*0020*/                   EXIT ;
.L_x_0:
        /*0030*/                   BRA `(.L_x_0);
        /*0040*/                   NOP;
.text.gfpf_probe_tile_mul_shared8:
        /*0000*/                   LDS.64 R2, [R4] ;
.L_x_1:
        /*0010*/                   LDS.128 R8, [R6+0x10] ;
        /*0020*/               @P0 BRA `(.L_x_1) ;
        /*0030*/                   IMMA.16832.U8.U8 R12, R8, R2, R12 ;
        /*0040*/                   STS.64 [R4], R2 ;
        /*0050*/                   STS [R5], R3 ;
        /*0060*/                   EXIT ;
.L_x_3:
        /*0070*/                   BPT.TRAP 0x1 ;
.L_x_2:
        /*0080*/                   BRA `(.L_x_2);
";

    /// A probe whose machine code spills is an error, not a count.
    #[test]
    fn a_probe_that_spills_is_an_error() {
        let listing = LISTING.replace("STS [R5], R3", "STL [R1], R3");
        let error = count_listing(&listing).unwrap_err();
        assert!(
            error.contains("gfpf_probe_tile_mul_shared8") && error.contains("spills"),
            "{error}"
        );
    }

    #[test]
    fn probes_count_loops_by_their_trips_less_the_empty_probe() {
        let counts = count_listing(LISTING).unwrap();
        assert_eq!(
            counts["gfpf_probe_empty"],
            ProbeCount {
                instructions: 4,
                shared_words: 2,
                ..ProbeCount::default()
            }
        );
        // 1 + 4·2 + 5 instructions (the trap, a rare branch's body, not
        // counted); 1 + 4·2 + 2 words.
        assert_eq!(
            counts["gfpf_probe_tile_mul_shared8"],
            ProbeCount {
                instructions: 14,
                shared_words: 11,
                ..ProbeCount::default()
            }
        );
        assert_eq!(
            operations(&counts).unwrap(),
            vec![Operation {
                name: "tile_mul_shared8".to_owned(),
                instructions: 10,
                shared_words: 9,
                cycles: 0,
                slow_cycles: 0
            }]
        );
        let line = counts["gfpf_probe_tile_mul_shared8"].to_line("gfpf_probe_tile_mul_shared8");
        assert_eq!(
            ProbeCount::from_line(&line),
            Some((
                "gfpf_probe_tile_mul_shared8".to_owned(),
                counts["gfpf_probe_tile_mul_shared8"]
            ))
        );
        assert!(operations(&BTreeMap::new()).is_err());
    }

    /// The model's charges (crate::tile_costs) are what the probes give at
    /// k = 8, within 3% (the compiler's version moves them a little), for
    /// the short division (t8) and Möller–Granlund's (p8): a change to an
    /// operation that moves its machine code fails here until its charge
    /// is counted again (`cargo xtask kernels --probe`). Skipped, with the
    /// reason, without NVRTC or nvdisasm (`scripts/setup.sh --test`
    /// installs both).
    #[test]
    fn the_models_charges_are_the_probes() {
        use crate::tile_costs::{TileOp, charge};
        if gfpf_cuda::PtxCompiler::find(false) != Some(gfpf_cuda::PtxCompiler::Nvrtc) {
            eprintln!("SKIPPED (probes against the charges): the NVRTC library (libnvrtc.so) was not found");
            return;
        }
        let Some(nvdisasm) = crate::pipe_mix::find_nvdisasm() else {
            eprintln!("SKIPPED (probes against the charges): {}", crate::pipe_mix::NO_NVDISASM);
            return;
        };
        for preset in [gfpf_field::Preset::T8, gfpf_field::Preset::P8] {
            let c = crate::kernels::constants(preset).unwrap();
            let short_division = crate::tile_costs::short_division(&c);
            let (counts, _) = count_field(&c, 16, (9, 0), &nvdisasm).unwrap();
            let rows = operations(&counts).unwrap();
            assert!(rows.len() >= 8, "{preset:?}: {rows:?}");
            for row in rows {
                let operation = &row.name;
                let op = TileOp::of_probe(operation).unwrap_or_else(|| panic!("{operation}: no charge"));
                let probe = (row.instructions - 2 * row.shared_words) as f64;
                let model = charge(op, 8, short_division).unwrap();
                assert!(
                    (probe - model).abs() <= 0.03 * model,
                    "{preset:?} {operation}: the probe gives {probe}, the model charges {model}"
                );
                for (slow, probe_cycles) in [(false, row.cycles), (true, row.slow_cycles)] {
                    let (cycles, words) = crate::tile_costs::scheduled(op, 8, short_division, slow).unwrap();
                    assert!(
                        (probe_cycles as f64 - cycles).abs() <= 0.03 * cycles && row.shared_words as f64 == words,
                        "{preset:?} {operation} (slow {slow}): the probe's warp alone takes {probe_cycles} cycles on {} words, the model {cycles} on {words}",
                        row.shared_words
                    );
                }
            }
        }
    }

    /// The model's charges for the word-size NTT (crate::ntt_costs) are
    /// what the NTT probes' loops give on sm_90, each within the bound
    /// `NttLoop::agreement` sets: a change to a kernel's loop that moves its
    /// machine code fails here until its charge is counted again (`cargo
    /// xtask kernels --probe --preset ntt`). Skipped, with the reason,
    /// without NVRTC or nvdisasm.
    #[test]
    fn the_models_ntt_charges_are_the_probes() {
        use crate::ntt_costs::NttLoop;
        if gfpf_cuda::PtxCompiler::find(false) != Some(gfpf_cuda::PtxCompiler::Nvrtc) {
            eprintln!("SKIPPED (NTT probes against the charges): the NVRTC library (libnvrtc.so) was not found");
            return;
        }
        let Some(nvdisasm) = crate::pipe_mix::find_nvdisasm() else {
            eprintln!(
                "SKIPPED (NTT probes against the charges): {}",
                crate::pipe_mix::NO_NVDISASM
            );
            return;
        };
        let (bodies, _) = count_ntt((9, 0), &nvdisasm).unwrap();
        // Groups of 2, 3 and 4 stages (32-bit words) or 2 and 3 (the
        // others) both ways, each word's three loops through the tile, the
        // tensor cores' tile.
        assert_eq!(bodies.len(), 24, "{bodies:?}");
        for (name, body) in &bodies {
            let ntt_loop = NttLoop::of_probe(name).unwrap_or_else(|| panic!("{name}: no charge"));
            let instructions = body.instructions as f64 / ntt_loop.iterations(body.global_stores);
            assert!(
                ntt_loop.agrees(instructions),
                "{name}: the probe's loop takes {instructions} instructions an iteration, the model {} ({:?})",
                ntt_loop.instructions(),
                ntt_loop.agreement()
            );
        }
    }

    /// The model's charges for the multi-modular kernels (crate::mm_costs)
    /// are what their loops over the primes give on sm_90 at t4, t8 and t16,
    /// each within 7%: a change to a kernel that moves its machine code
    /// fails here until its charges are counted again (`cargo xtask kernels
    /// --probe --preset mm`). Skipped, with the reason, without NVRTC or
    /// nvdisasm.
    #[test]
    fn the_models_mm_charges_are_the_kernels_loops() {
        use crate::mm_costs::MmKernel;
        if gfpf_cuda::PtxCompiler::find(false) != Some(gfpf_cuda::PtxCompiler::Nvrtc) {
            eprintln!(
                "SKIPPED (multi-modular loops against the charges): the NVRTC library (libnvrtc.so) was not found"
            );
            return;
        }
        let Some(nvdisasm) = crate::pipe_mix::find_nvdisasm() else {
            eprintln!(
                "SKIPPED (multi-modular loops against the charges): {}",
                crate::pipe_mix::NO_NVDISASM
            );
            return;
        };
        for preset in [gfpf_field::Preset::T4, gfpf_field::Preset::T8, gfpf_field::Preset::T16] {
            let c = crate::kernels::constants(preset).unwrap();
            let k = c.k;
            let (loops, _) = count_mm(&c, (9, 0), &nvdisasm).unwrap();
            for kernel in MmKernel::ALL {
                let bodies = &loops[kernel.symbol()];
                // The projection's one loop; the join's one a pass.
                let passes = match kernel {
                    MmKernel::Project | MmKernel::Project62 => 1,
                    MmKernel::Join | MmKernel::Join62 => k / kernel.join_group(k),
                };
                assert_eq!(bodies.len(), passes, "{preset:?} {}: {bodies:?}", kernel.symbol());
                for body in bodies {
                    assert!(
                        kernel.agrees(k, body.instructions as f64),
                        "{preset:?} {}: a loop of {} instructions a prime, the model {}",
                        kernel.symbol(),
                        body.instructions,
                        kernel.prime_loop_instructions(k)
                    );
                }
            }
        }
    }

    /// An NTT probe's loop: its longest loop's body (a loop of stores
    /// unrolled, after the loop of the words left over), its stores.
    #[test]
    fn ntt_probes_count_their_longest_loop() {
        let listing = "\
.text.gfpf_probe_ntt31_tile_out:
        /*0000*/                   S2R R0, SR_TID.X ;
.L_x_1:
        /*0010*/                   LDS R2, [R4] ;
        /*0020*/                   STG.E desc[UR4][R6.64], R2 ;
        /*0030*/               @P0 BRA `(.L_x_1) ;
.L_x_2:
        /*0040*/                   LDS R2, [R4] ;
        /*0050*/                   LDS R3, [R4+0x4] ;
        /*0060*/                   STG.E desc[UR4][R6.64], R2 ;
        /*0070*/                   STG.E desc[UR4][R8.64], R3 ;
        /*0080*/               @P1 BRA `(.L_x_2) ;
        /*0090*/                   EXIT ;
.L_x_3:
        /*00a0*/                   BRA `(.L_x_3);
.text.gfpf_probe_empty:
        /*0000*/                   EXIT ;
";
        let bodies = count_ntt_listing(listing).unwrap();
        let body = LoopBody {
            instructions: 5,
            shared_words: 2,
            global_stores: 2,
            global_loads: 0,
        };
        assert_eq!(bodies.len(), 1);
        assert_eq!(bodies["ntt31_tile_out"], body);
        let line = body.to_line("ntt31_tile_out");
        assert_eq!(LoopBody::from_line(&line), Some(("ntt31_tile_out".to_owned(), body)));
        let spilled = listing.replace("LDS R3, [R4+0x4]", "LDL R3, [R1]");
        assert!(count_ntt_listing(&spilled).unwrap_err().contains("spills"));
        let no_loop = ".text.gfpf_probe_ntt31_tile_in:\n        /*0000*/                   EXIT ;\n";
        assert!(count_ntt_listing(no_loop).is_err());
    }

    /// The control bits read back from two of sm_90's encodings (a probe's
    /// listing, NVRTC 12.9): `S2R R0, SR_TID.X` sets barrier 1 and stalls
    /// 7; the `IMAD.WIDE.U32 R2, R0, 0x8, R2` that reads R0 waits on it
    /// (mask 2) and stalls 5.
    #[test]
    fn control_bits_are_read_from_the_high_word() {
        assert_eq!(
            Control::of_high_word(0x000e_6e00_0000_2100),
            Control {
                stall: 7,
                write_barrier: Some(1),
                read_barrier: None,
                wait_mask: 0
            }
        );
        assert_eq!(
            Control::of_high_word(0x002f_ca00_078e_0002),
            Control {
                stall: 5,
                write_barrier: None,
                read_barrier: None,
                wait_mask: 2
            }
        );
    }

    /// The high word of an encoding with these control bits (the rest 0).
    fn high_word(stall: u64, write: u64, read: u64, mask: u64) -> String {
        format!("/* 0x{:016x} */", (stall | write << 5 | read << 8 | mask << 11) << 41)
    }

    /// One warp alone: a shared load (barrier 0, the result 30 cycles on),
    /// an add that waits for it, a store that releases barrier 1 when its
    /// operands are read (12 cycles), a loop of two that runs four times
    /// (tile_mul_shared8's trips), its first instruction waiting on the
    /// store; each stall waited out.
    #[test]
    fn a_warp_alone_issues_as_its_stalls_and_barriers_say() {
        let none = 7;
        let listing = format!(
            "\
.text.gfpf_probe_empty:
        /*0000*/                   EXIT ;
{exit}
.text.gfpf_probe_tile_mul_shared8:
        /*0000*/                   LDS.64 R2, [R4] ;
{lds}
        /*0010*/                   IADD3 R2, R2, 0x1, RZ ;
{iadd}
        /*0020*/                   STS.64 [R4], R2 ;
{sts}
.L_x_1:
        /*0030*/                   IMAD R6, R6, 0x3, RZ ;
{imad}
        /*0040*/               @P0 BRA `(.L_x_1) ;
{bra}
        /*0050*/                   EXIT ;
{exit}
.L_x_2:
        /*0060*/                   BRA `(.L_x_2);
{bra}
",
            exit = high_word(5, none, none, 0),
            lds = high_word(1, 0, none, 0),
            iadd = high_word(4, none, none, 1),
            sts = high_word(1, none, 1, 0),
            imad = high_word(2, none, none, 2),
            bra = high_word(5, none, none, 0),
        );
        let counts = count_listing(&listing).unwrap();
        // LDS at 0, IADD3 at 30 (its barrier), STS at 34 (operands read at
        // 46), IMAD at 46, BRA at 48, then IMAD and BRA at 53 and 55, 60
        // and 62, 67 and 69, EXIT at 74, BRA at 79: 84.
        assert_eq!(counts["gfpf_probe_tile_mul_shared8"].cycles, 84);
        assert_eq!(counts["gfpf_probe_tile_mul_shared8"].instructions, 13);
        // At the slow latencies only the load's result is later (45).
        assert_eq!(counts["gfpf_probe_tile_mul_shared8"].slow_cycles, 99);
        assert_eq!(counts["gfpf_probe_empty"].cycles, 5);
        let rows = operations(&counts).unwrap();
        assert_eq!((rows[0].cycles, rows[0].slow_cycles), (79, 94));
        // Each instruction once, in order (a kernel's static schedule):
        // the loop's two once, EXIT at 53, the last BRA at 58: 63.
        assert_eq!(static_schedules(&listing)["gfpf_probe_tile_mul_shared8"], 63);
        // Without the encodings, no cycles.
        let plain: String = listing
            .lines()
            .filter(|l| !l.contains("/* 0x"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(count_listing(&plain).unwrap()["gfpf_probe_tile_mul_shared8"].cycles, 0);
        assert!(static_schedules(&plain).is_empty());
    }

    #[test]
    fn a_probe_whose_loops_are_not_its_trip_counts_is_an_error() {
        // tile_mul is given no loops; this one has one.
        let listing = LISTING.replace("tile_mul_shared8", "tile_mul");
        let err = count_listing(&listing).unwrap_err();
        assert!(err.contains("1 rolled loops") && err.contains("0 trip counts"), "{err}");
    }
}
