//! `cargo xtask kernels --report --pipes`: each kernel's machine code
//! counted by the pipe that executes it, read back with `nvdisasm`.
//!
//! The time model lets an SM start four warp instructions a clock whatever
//! they are. Hopper's documents give each SM partition 16 INT32 lanes, half a
//! warp a clock, so an integer kernel issues at that rate on whichever pipe
//! its instructions crowd. The split below is Nsight Compute's description
//! of the pipelines: IMAD and its forms (IMAD.MOV, IMAD.SHL, IMAD.X,
//! IMAD.WIDE) on the FMA pipe; adds, compares, selects, shifts and logic on
//! the ALU. A static count (each instruction once, loops not weighted)
//! bounds how much the model's issue term could miss: a kernel whose ALU
//! share is s issues no faster than 2·s clocks an instruction if the ALU
//! takes half a warp a clock. Which holds is for a GPU's `ncu` to say.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pipe an instruction goes to, by its opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pipe {
    /// Integer adds, compares, selects, shifts, logic, moves.
    Alu,
    /// IMAD and its forms, FP32 arithmetic.
    Fma,
    /// FP64 arithmetic.
    Fp64,
    /// Loads, stores, shuffles, special registers.
    Memory,
    /// Branches, convergence barriers, block barriers, exit.
    Control,
    /// The uniform datapath (one value a warp).
    Uniform,
    /// Tensor-core matrix products.
    Tensor,
}

impl Pipe {
    /// Every pipe, in the report's order (each at its own index: the
    /// variants' order).
    pub const ALL: [Pipe; 7] = [
        Pipe::Alu,
        Pipe::Fma,
        Pipe::Fp64,
        Pipe::Memory,
        Pipe::Control,
        Pipe::Uniform,
        Pipe::Tensor,
    ];

    /// The pipe of `opcode` (its base, without modifiers: `IMAD` of
    /// `IMAD.WIDE.U32`).
    pub fn of(opcode: &str) -> Pipe {
        let base = opcode.split('.').next().unwrap_or(opcode);
        match base {
            "IMAD" | "IMUL" | "IDP" | "FFMA" | "FMUL" | "FADD" | "HFMA2" | "HMUL2" | "HADD2" => Pipe::Fma,
            "DFMA" | "DADD" | "DMUL" => Pipe::Fp64,
            "LDS" | "STS" | "LDG" | "STG" | "LDC" | "LD" | "ST" | "LDL" | "STL" | "SHFL" | "ATOM" | "ATOMS"
            | "ATOMG" | "RED" | "LDSM" | "S2R" | "CS2R" | "MEMBAR" => Pipe::Memory,
            "BRA" | "BRX" | "BSSY" | "BSYNC" | "BREAK" | "EXIT" | "CALL" | "RET" | "WARPSYNC" | "BAR" | "BMOV"
            | "NANOSLEEP" | "YIELD" => Pipe::Control,
            "HMMA" | "IMMA" | "DMMA" | "HGMMA" | "IGMMA" => Pipe::Tensor,
            _ if base.starts_with('U') || base == "S2UR" => Pipe::Uniform,
            _ => Pipe::Alu,
        }
    }
}

/// One kernel's instructions counted by pipe (each once: a static count),
/// and the cycles one warp alone takes to issue them once each in order
/// ([`crate::probes::static_schedules`]; 0 where unknown).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PipeMix {
    counts: [usize; Pipe::ALL.len()],
    scheduled_cycles: usize,
}

impl PipeMix {
    /// Instructions of `pipe`.
    pub fn count(&self, pipe: Pipe) -> usize {
        self.counts[pipe as usize]
    }

    /// Every instruction (NOPs, the padding after the last, not counted).
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// `pipe`'s share of the instructions, 0 for an empty kernel.
    pub fn share(&self, pipe: Pipe) -> f64 {
        self.count(pipe) as f64 / self.total().max(1) as f64
    }

    fn add(&mut self, pipe: Pipe) {
        self.counts[pipe as usize] += 1;
    }

    /// Cycles an instruction of its static schedule (one warp alone, each
    /// instruction once), `None` where the listing had no encodings.
    pub fn scheduled_cycles_an_instruction(&self) -> Option<f64> {
        (self.scheduled_cycles > 0).then(|| self.scheduled_cycles as f64 / self.total().max(1) as f64)
    }

    /// The line the compile child prints for `kernel` (read back by
    /// [`PipeMix::from_line`]).
    pub fn to_line(self, kernel: &str) -> String {
        let counts: Vec<String> = self.counts.iter().map(usize::to_string).collect();
        format!("{LINE_PREFIX} {kernel} {} {}", counts.join(" "), self.scheduled_cycles)
    }

    /// A line of [`PipeMix::to_line`]: the kernel and its mix.
    pub fn from_line(line: &str) -> Option<(String, PipeMix)> {
        let mut words = line.strip_prefix(LINE_PREFIX)?.split_whitespace();
        let kernel = words.next()?.to_owned();
        let mut mix = PipeMix::default();
        for count in &mut mix.counts {
            *count = words.next()?.parse().ok()?;
        }
        mix.scheduled_cycles = words.next()?.parse().ok()?;
        words.next().is_none().then_some((kernel, mix))
    }
}

/// The start of the compile child's pipe lines.
const LINE_PREFIX: &str = "pipes";

/// Every function of an `nvdisasm` listing with its instructions counted by
/// pipe: an instruction is a line with an address comment (`/*0040*/`) and
/// an opcode, its predicate (`@P0`, `@!UP1`) skipped; NOPs (padding) not
/// counted.
pub fn parse_nvdisasm(listing: &str) -> BTreeMap<String, PipeMix> {
    let schedules = crate::probes::static_schedules(listing);
    function_lines(listing)
        .into_iter()
        .map(|(name, lines)| {
            let mut mix = PipeMix::default();
            for opcode in lines.into_iter().filter_map(opcode_of).filter(|&o| o != "NOP") {
                mix.add(Pipe::of(opcode));
            }
            mix.scheduled_cycles = schedules.get(&name).map_or(0, |&c| c as usize);
            (name, mix)
        })
        .collect()
}

/// A listing's functions by their `.text.NAME:` sections, each with its
/// lines after that header, trimmed (the lines before the first section
/// dropped).
pub(crate) fn function_lines(listing: &str) -> Vec<(String, Vec<&str>)> {
    let mut functions: Vec<(String, Vec<&str>)> = Vec::new();
    for line in listing.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix(".text.").and_then(|l| l.strip_suffix(':')) {
            functions.push((name.to_owned(), Vec::new()));
        } else if let Some((_, lines)) = functions.last_mut() {
            lines.push(line);
        }
    }
    functions
}

/// The opcode of an instruction line (`/*0040*/ @!P0 IMAD.WIDE.U32 R2, …`),
/// or `None` for any other line.
pub(crate) fn opcode_of(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("/*")?;
    let (address, rest) = rest.split_once("*/")?;
    if address.is_empty() || !address.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let mut words = rest.split_whitespace();
    let mut word = words.next()?;
    if word.starts_with('@') {
        word = words.next()?;
    }
    let opcode = word.trim_end_matches(';');
    opcode
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase())
        .then_some(opcode)
}

/// `nvdisasm`: `$NVDISASM`, else on PATH, else a CUDA toolkit's, else the
/// one `pip install --target ~/.cache/gfpf/nvdisasm nvidia-cuda-nvdisasm`
/// unpacks.
pub fn find_nvdisasm() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("NVDISASM") {
        return Some(PathBuf::from(path));
    }
    let runs = |p: &Path| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let on_path = PathBuf::from("nvdisasm");
    if runs(&on_path) {
        return Some(on_path);
    }
    let toolkit = PathBuf::from("/usr/local/cuda/bin/nvdisasm");
    if runs(&toolkit) {
        return Some(toolkit);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?
        .join("gfpf/nvdisasm/nvidia");
    std::fs::read_dir(&cache)
        .ok()?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path().join("bin/nvdisasm"))
        .find(|p| runs(p))
}

/// What to tell a user without `nvdisasm`.
pub const NO_NVDISASM: &str = "nvdisasm not found: set NVDISASM, put a CUDA toolkit's on PATH, or \
    `python3 -m pip install --target ~/.cache/gfpf/nvdisasm nvidia-cuda-nvdisasm`";

/// `cubin`'s functions counted by pipe, through `nvdisasm`.
pub fn of_cubin(nvdisasm: &Path, module: &str, cubin: &[u8]) -> Result<BTreeMap<String, PipeMix>, String> {
    Ok(parse_nvdisasm(&listing_of_cubin(nvdisasm, module, cubin)?))
}

/// `cubin`'s machine code as `nvdisasm -c -hex` lists it (a temporary
/// file, removed after): each instruction's line, then a comment line with
/// the high 64 bits of its encoding, whose control bits say how ptxas
/// scheduled it ([`crate::probes::Control`]). Where `GFPF_LISTING_DIR`
/// names a folder, the listing is kept there too, as `MODULE.txt` (the
/// last architecture listed of a module).
pub fn listing_of_cubin(nvdisasm: &Path, module: &str, cubin: &[u8]) -> Result<String, String> {
    let path = std::env::temp_dir().join(format!("gfpf-pipes-{}-{module}.cubin", std::process::id()));
    std::fs::write(&path, cubin).map_err(|e| format!("writing {}: {e}", path.display()))?;
    let out = Command::new(nvdisasm).args(["-c", "-hex"]).arg(&path).output();
    let _ = std::fs::remove_file(&path);
    let out = out.map_err(|e| format!("running {}: {e}", nvdisasm.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            nvdisasm.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let listing = String::from_utf8_lossy(&out.stdout).into_owned();
    if let Some(dir) = std::env::var_os("GFPF_LISTING_DIR") {
        let path = Path::new(&dir).join(format!("{module}.txt"));
        std::fs::write(&path, &listing).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(listing)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listing in nvdisasm's layout: two functions, predicated
    /// instructions, the padding after EXIT.
    const LISTING: &str = "\
\t.section\t.text.gfpf_a,\"ax\",@progbits
\t.sectioninfo\t@\"SHI_REGISTERS=12\"
.text.gfpf_a:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   IMAD.WIDE.U32 R2, R5, 0x8, R2 ;
        /*0020*/               @P0 IADD3 R4, P0, R4, R10, RZ ;
        /*0030*/              @!P1 SEL R10, RZ, 0x1, P0 ;
        /*0040*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0050*/                   EXIT ;
        /*0060*/                   BRA `(.L_x_0) ;
        /*0070*/                   NOP;
.L_x_0:
.text.gfpf_b:
        /*0000*/                   DFMA R2, R4, R6, R2 ;
        /*0010*/                   SHFL.IDX PT, R3, R3, RZ, 0x1f ;
";

    #[test]
    fn listings_are_counted_by_pipe() {
        let mixes = parse_nvdisasm(LISTING);
        assert_eq!(mixes.len(), 2);
        let a = mixes["gfpf_a"];
        assert_eq!(a.total(), 7);
        assert_eq!(a.count(Pipe::Alu), 2);
        assert_eq!(a.count(Pipe::Fma), 1);
        assert_eq!(a.count(Pipe::Memory), 1);
        assert_eq!(a.count(Pipe::Uniform), 1);
        assert_eq!(a.count(Pipe::Control), 2);
        let b = mixes["gfpf_b"];
        assert_eq!((b.count(Pipe::Fp64), b.count(Pipe::Memory), b.total()), (1, 1, 2));
    }

    #[test]
    fn opcodes_go_to_their_pipes() {
        for (opcode, pipe) in [
            ("IMAD.MOV.U32", Pipe::Fma),
            ("IMAD.X", Pipe::Fma),
            ("IADD3.X", Pipe::Alu),
            ("LOP3.LUT", Pipe::Alu),
            ("ISETP.GE.U32.AND.EX", Pipe::Alu),
            ("SHF.R.U64", Pipe::Alu),
            ("LDS.64", Pipe::Memory),
            ("BSYNC", Pipe::Control),
            ("UIADD3", Pipe::Uniform),
            ("HMMA.16816.F32", Pipe::Tensor),
            ("DADD", Pipe::Fp64),
        ] {
            assert_eq!(Pipe::of(opcode), pipe, "{opcode}");
        }
    }

    #[test]
    fn lines_round_trip() {
        let mixes = parse_nvdisasm(LISTING);
        let line = mixes["gfpf_a"].to_line("gfpf_a");
        assert_eq!(PipeMix::from_line(&line), Some(("gfpf_a".to_owned(), mixes["gfpf_a"])));
        assert_eq!(PipeMix::from_line("pipes gfpf_a 1 2"), None);
        assert_eq!(PipeMix::from_line("registers 12"), None);
    }
}
