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
    ("tile_mul_shared16", &[2]),
    ("tile_mul_shared8", &[4]),
    ("tile_mul_shared4", &[4, 2]),
];

/// The compile child's lines start with this.
pub const LINE_PREFIX: &str = "probe";

/// One function's machine code on its path: its instructions (NOPs, the
/// padding, not counted) and the shared-memory words its loads and stores
/// move, each a loop's body times its trips.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProbeCount {
    /// Instructions.
    pub instructions: u64,
    /// 8-byte words of its shared loads and stores (LDS, STS; a 16-byte
    /// access two, a narrower one one).
    pub shared_words: u64,
}

impl ProbeCount {
    /// The line the compile child prints for `function`.
    pub fn to_line(self, function: &str) -> String {
        format!("{LINE_PREFIX} {function} {} {}", self.instructions, self.shared_words)
    }

    /// A line of [`ProbeCount::to_line`].
    pub fn from_line(line: &str) -> Option<(String, ProbeCount)> {
        let mut words = line.strip_prefix(LINE_PREFIX)?.strip_prefix(' ')?.split_whitespace();
        let function = words.next()?.to_owned();
        let instructions = words.next()?.parse().ok()?;
        let shared_words = words.next()?.parse().ok()?;
        words.next().is_none().then_some((
            function,
            ProbeCount {
                instructions,
                shared_words,
            },
        ))
    }
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

    /// Instructions and shared words, each loop's body (nested ones
    /// included) weighted by `trips`, one a loop in [`Function::loops`]'
    /// order.
    fn count(&self, trips: &[u64]) -> Result<ProbeCount, String> {
        let loops = self.loops()?;
        if loops.len() != trips.len() {
            return Err(format!(
                "{} rolled loops in the machine code, {} trip counts given",
                loops.len(),
                trips.len()
            ));
        }
        // A probe that spills counts its local loads and stores as the
        // operation's (k = 16's did under 64 registers, where its kernels
        // have 128).
        if let Some(spill) = self
            .opcodes
            .iter()
            .find(|o| o.starts_with("LDL") || o.starts_with("STL"))
        {
            return Err(format!(
                "spills ({spill}): compiled under another register bound than its kernels'"
            ));
        }
        let mut count = ProbeCount::default();
        for (at, opcode) in self.opcodes.iter().enumerate() {
            let weight: u64 = loops
                .iter()
                .zip(trips)
                .filter(|((first, last), _)| (*first..=*last).contains(&at))
                .map(|(_, trips)| trips)
                .product();
            count.instructions += weight;
            count.shared_words += weight * shared_words_of(opcode);
        }
        Ok(count)
    }
}

/// Every function of an `nvdisasm -c` listing, by its `.text.NAME:`
/// section, as [`crate::pipe_mix::parse_nvdisasm`] reads them.
fn functions(listing: &str) -> BTreeMap<String, Function> {
    let mut functions = BTreeMap::new();
    for (name, lines) in pipe_mix::function_lines(listing) {
        let mut function = Function::default();
        for line in lines {
            if let Some(label) = line.strip_suffix(':').filter(|l| l.starts_with(".L")) {
                function.labels.insert(label.to_owned(), function.opcodes.len());
                continue;
            }
            // A trap is a rare branch's body in a probe (GFPF_RARE), off
            // the common path.
            let Some(opcode) = opcode_of(line).filter(|&o| o != "NOP" && o != "BPT.TRAP") else {
                continue;
            };
            if opcode.starts_with("BRA")
                && let Some(label) = line
                    .split_once("`(")
                    .and_then(|(_, rest)| rest.split_once(')'))
                    .map(|(label, _)| label)
            {
                function.branches.push((function.opcodes.len(), label.to_owned()));
            }
            function.opcodes.push(opcode.to_owned());
        }
        functions.insert(name, function);
    }
    functions
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
    if let Some(path) = std::env::var_os("GFPF_PROBE_LISTING") {
        std::fs::write(&path, &listing).map_err(|e| format!("writing {}: {e}", path.to_string_lossy()))?;
    }
    Ok((count_listing(&listing)?, report))
}

/// The probes' rows: each operation's instructions and shared words less the
/// empty probe's, by operation name (the kernel's less the prefix); an
/// error without the empty probe.
pub fn operations(counts: &BTreeMap<String, ProbeCount>) -> Result<Vec<(String, i64, i64)>, String> {
    let empty = counts
        .get(&format!("{PROBE_PREFIX}empty"))
        .ok_or("the listing has no empty probe")?;
    Ok(counts
        .iter()
        .filter_map(|(name, count)| {
            let operation = name.strip_prefix(PROBE_PREFIX)?;
            (operation != "empty").then(|| {
                (
                    operation.to_owned(),
                    count.instructions as i64 - empty.instructions as i64,
                    count.shared_words as i64 - empty.shared_words as i64,
                )
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
                shared_words: 2
            }
        );
        // 1 + 4·2 + 5 instructions (the trap, a rare branch's body, not
        // counted); 1 + 4·2 + 2 words.
        assert_eq!(
            counts["gfpf_probe_tile_mul_shared8"],
            ProbeCount {
                instructions: 14,
                shared_words: 11
            }
        );
        assert_eq!(
            operations(&counts).unwrap(),
            vec![("tile_mul_shared8".to_owned(), 10, 9)]
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
            for (operation, instructions, words) in rows {
                let op = TileOp::of_probe(&operation).unwrap_or_else(|| panic!("{operation}: no charge"));
                let probe = (instructions - 2 * words) as f64;
                let model = charge(op, 8, short_division).unwrap();
                assert!(
                    (probe - model).abs() <= 0.03 * model,
                    "{preset:?} {operation}: the probe gives {probe}, the model charges {model}"
                );
            }
        }
    }

    #[test]
    fn a_probe_whose_loops_are_not_its_trip_counts_is_an_error() {
        // tile_mul is given no loops; this one has one.
        let listing = LISTING.replace("tile_mul_shared8", "tile_mul");
        let err = count_listing(&listing).unwrap_err();
        assert!(err.contains("1 rolled loops") && err.contains("0 trip counts"), "{err}");
    }
}
