//! What each kernel of a module costs in machine code, without a GPU: NVRTC
//! compiles the module for a real architecture with `--ptxas-options=-v`,
//! and ptxas's report is read back (registers, stack frame, spill stores and
//! loads, shared memory, barriers), with the module's compile time and the
//! theoretical occupancy those resources allow ([`SmLimits`]).

use std::time::{Duration, Instant};

use crate::CudaError;

/// One function's resources as ptxas reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelResources {
    /// The function's name (a kernel's `extern "C"` symbol, or a device
    /// function's mangled name).
    pub name: String,
    /// Whether it is a kernel (an entry function) rather than a device
    /// function it calls.
    pub entry: bool,
    /// Registers per thread.
    pub registers: u32,
    /// Bytes of stack frame per thread (local memory).
    pub stack_frame_bytes: u32,
    /// Bytes of spill stores per thread.
    pub spill_store_bytes: u32,
    /// Bytes of spill loads per thread.
    pub spill_load_bytes: u32,
    /// Bytes of static shared memory per block.
    pub shared_bytes: u32,
    /// Named barriers used.
    pub barriers: u32,
}

impl KernelResources {
    /// The same kernel launched with `bytes` of dynamic shared memory a
    /// block: its static shared memory and those together, what a block
    /// takes of an SM (and what [`SmLimits::occupancy`] counts).
    pub fn with_dynamic_shared(&self, bytes: u32) -> KernelResources {
        KernelResources {
            shared_bytes: self.shared_bytes + bytes,
            ..self.clone()
        }
    }
}

/// A module's report: every function ptxas described, how long the
/// compile took, and the machine code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleResources {
    /// The functions, in the order ptxas described them.
    pub functions: Vec<KernelResources>,
    /// NVRTC's wall time for the whole module (PTX and machine code).
    pub compile_time: Duration,
    /// The CPU time the compiling thread spent in NVRTC (which compiles on
    /// the caller's thread): the compile-time budget's measure, which other
    /// work sharing the cores does not inflate as it does the wall time.
    pub compile_cpu_time: Duration,
    /// The machine code (an ELF image; empty where only a report was read).
    pub cubin: Vec<u8>,
    /// NVRTC's program log: ptxas's report, which `functions` was read from.
    pub log: String,
}

impl ModuleResources {
    /// The kernels (entry functions) only.
    pub fn kernels(&self) -> impl Iterator<Item = &KernelResources> {
        self.functions.iter().filter(|f| f.entry)
    }

    /// The largest stack frame of any function the kernels may call (device
    /// functions compiled out of line).
    pub fn callee_stack_frame_bytes(&self) -> u32 {
        self.functions
            .iter()
            .filter(|f| !f.entry)
            .map(|f| f.stack_frame_bytes)
            .max()
            .unwrap_or(0)
    }
}

/// The number before `unit` in `text` ("1408 bytes stack frame" → 1408).
fn number_before(text: &str, unit: &str) -> Option<u32> {
    let at = text.find(unit)?;
    text[..at].split_whitespace().last()?.parse().ok()
}

/// Reads ptxas's `-v` report (as NVRTC's program log holds it): entry
/// functions from "Compiling entry function 'X'", each function's frame and
/// spills from "Function properties for X", registers, shared memory and
/// barriers from the "Used N registers" line after an entry.
pub fn parse_ptxas_report(log: &str) -> Vec<KernelResources> {
    let mut functions: Vec<KernelResources> = Vec::new();
    let index = |functions: &mut Vec<KernelResources>, name: &str| -> usize {
        match functions.iter().position(|f| f.name == name) {
            Some(i) => i,
            None => {
                functions.push(KernelResources {
                    name: name.to_owned(),
                    ..KernelResources::default()
                });
                functions.len() - 1
            }
        }
    };
    let mut properties_of: Option<usize> = None;
    let mut last_entry: Option<usize> = None;
    for line in log.lines() {
        let text = line.trim_start_matches("ptxas").trim_start_matches(" info").trim();
        let text = text.trim_start_matches(':').trim();
        if let Some(rest) = text.strip_prefix("Compiling entry function '") {
            let name = rest.split('\'').next().unwrap_or_default();
            let i = index(&mut functions, name);
            functions[i].entry = true;
            last_entry = Some(i);
        } else if let Some(name) = text.strip_prefix("Function properties for ") {
            properties_of = Some(index(&mut functions, name.trim()));
        } else if text.contains("bytes stack frame") {
            if let Some(i) = properties_of.take() {
                let f = &mut functions[i];
                f.stack_frame_bytes = number_before(text, "bytes stack frame").unwrap_or(0);
                f.spill_store_bytes = number_before(text, "bytes spill stores").unwrap_or(0);
                f.spill_load_bytes = number_before(text, "bytes spill loads").unwrap_or(0);
            }
        } else if text.starts_with("Used ")
            && text.contains("registers")
            && let Some(i) = last_entry
        {
            let f = &mut functions[i];
            f.registers = number_before(text, "registers").unwrap_or(0);
            f.barriers = number_before(text, "barriers").unwrap_or(0);
            f.shared_bytes = number_before(text, "bytes smem").unwrap_or(0);
        }
    }
    functions
}

/// The most CPU time one module may take to compile (the machine-code
/// budgets' compile time, held by `cargo xtask kernels --report` and the
/// NVRTC tests). CPU time rather than wall time: tests compile several
/// modules at once on few cores, and their wall times grow with the sharing
/// (t8's DFT_16 module, whole: 19.1 s of CPU on sm_90 and 21.0 s on sm_80
/// on the project VM, 26–29 s of wall time among three other compiles on
/// its two cores, and 30.1 s on the CI machine, 2026-11-27; in its parts,
/// gfpf_kernels::ModulePart, at most 15.9 s on sm_80, the pairs on the
/// threads, 2026-11-28).
pub const MODULE_COMPILE_BUDGET: Duration = Duration::from_secs(30);

/// The calling thread's CPU time so far (`CLOCK_THREAD_CPUTIME_ID`); zero
/// where the clock cannot be read.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec for the call's duration.
    let read = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if read != 0 {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec.try_into().unwrap_or(0), now.tv_nsec.try_into().unwrap_or(0))
}

/// Compiles one translation unit to machine code for `sm_{major}{minor}`
/// with NVRTC and reads back ptxas's report.
pub fn nvrtc_resources(name: &str, source: &str, (major, minor): (i32, i32)) -> Result<ModuleResources, CudaError> {
    let started = Instant::now();
    let started_cpu = thread_cpu_time();
    let (cubin, log) =
        crate::device::nvrtc_cubin_and_log(name, source, &format!("sm_{major}{minor}"), &["--ptxas-options=-v"])
            .map_err(|log| CudaError::Compile {
                module: name.to_owned(),
                log,
            })?;
    Ok(ModuleResources {
        functions: parse_ptxas_report(&log),
        compile_time: started.elapsed(),
        compile_cpu_time: thread_cpu_time().saturating_sub(started_cpu),
        cubin,
        log,
    })
}

/// What one streaming multiprocessor offers, for occupancy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmLimits {
    /// The architecture, as `sm_XY`.
    pub arch: &'static str,
    /// 32-bit registers per SM.
    pub registers: u32,
    /// Registers are allocated per warp in units of this many.
    pub register_unit: u32,
    /// Resident threads per SM.
    pub threads: u32,
    /// Resident blocks per SM.
    pub blocks: u32,
    /// Shared memory per SM usable by blocks, in bytes.
    pub shared_bytes: u32,
    /// Shared memory the system reserves per block, in bytes.
    pub shared_reserved_per_block: u32,
}

impl SmLimits {
    /// Ampere A100 (compute capability 8.0).
    pub const SM80: SmLimits = SmLimits {
        arch: "sm_80",
        registers: 65536,
        register_unit: 256,
        threads: 2048,
        blocks: 32,
        shared_bytes: 164 * 1024,
        shared_reserved_per_block: 1024,
    };
    /// Hopper H100 (compute capability 9.0).
    pub const SM90: SmLimits = SmLimits {
        arch: "sm_90",
        registers: 65536,
        register_unit: 256,
        threads: 2048,
        blocks: 32,
        shared_bytes: 228 * 1024,
        shared_reserved_per_block: 1024,
    };

    /// The compute capability (major, minor).
    pub fn capability(&self) -> (i32, i32) {
        match self.arch {
            "sm_80" => (8, 0),
            _ => (9, 0),
        }
    }

    /// The theoretical occupancy (resident warps over the SM's 64) of a
    /// kernel with these resources launched in blocks of
    /// `threads_per_block`: the least of what registers, shared memory,
    /// threads and blocks allow.
    pub fn occupancy(&self, kernel: &KernelResources, threads_per_block: u32) -> f64 {
        let warps_per_block = threads_per_block.div_ceil(32).max(1);
        let max_warps = self.threads / 32;
        let registers_per_warp = (kernel.registers.max(1) * 32).div_ceil(self.register_unit) * self.register_unit;
        let by_registers = self.registers / (registers_per_warp * warps_per_block);
        let by_shared = if kernel.shared_bytes == 0 {
            u32::MAX
        } else {
            self.shared_bytes / (kernel.shared_bytes + self.shared_reserved_per_block)
        };
        let by_threads = max_warps / warps_per_block;
        let blocks = by_registers.min(by_shared).min(by_threads).min(self.blocks);
        f64::from(blocks * warps_per_block) / f64::from(max_warps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compile_clock_counts_this_threads_work_only() {
        let sleeping = thread_cpu_time();
        std::thread::sleep(Duration::from_millis(200));
        let slept = thread_cpu_time() - sleeping;
        let working = thread_cpu_time();
        let started = Instant::now();
        let mut x = 1u64;
        while started.elapsed() < Duration::from_millis(200) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let worked = thread_cpu_time() - working;
        assert!(slept < Duration::from_millis(50), "asleep 200 ms: {slept:?} of CPU");
        assert!(worked > Duration::from_millis(20), "busy 200 ms: {worked:?} of CPU");
    }

    const LOG: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'gfpf_dft16_inputs' for 'sm_90'
ptxas info    : Function properties for gfpf_dft16_inputs
ptxas         .     1408 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 94 registers, used 1 barriers, 4096 bytes smem
ptxas info    : Compile time = 2.519 ms
ptxas info    : Function properties for _Z8gfpf_mulRK8GfpfElemS1_
ptxas         .     64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'gfpf_scale' for 'sm_90'
ptxas info    : Function properties for gfpf_scale
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, 384 bytes cmem[0]
";

    #[test]
    fn the_report_is_read_function_by_function() {
        let functions = parse_ptxas_report(LOG);
        assert_eq!(functions.len(), 3);
        assert_eq!(
            functions[0],
            KernelResources {
                name: "gfpf_dft16_inputs".into(),
                entry: true,
                registers: 94,
                stack_frame_bytes: 1408,
                spill_store_bytes: 8,
                spill_load_bytes: 12,
                shared_bytes: 4096,
                barriers: 1,
            }
        );
        assert!(!functions[1].entry && functions[1].stack_frame_bytes == 64);
        assert_eq!((functions[2].registers, functions[2].shared_bytes), (40, 0));
        let module = ModuleResources {
            functions,
            compile_time: Duration::ZERO,
            compile_cpu_time: Duration::ZERO,
            cubin: Vec::new(),
            log: String::new(),
        };
        assert_eq!(module.kernels().count(), 2);
        assert_eq!(module.callee_stack_frame_bytes(), 64);
    }

    #[test]
    fn occupancy_is_limited_by_registers_shared_memory_and_threads() {
        let kernel = |registers, shared_bytes| KernelResources {
            registers,
            shared_bytes,
            ..KernelResources::default()
        };
        let h100 = SmLimits::SM90;
        // 94 registers → 96 per thread, 3072 per warp: 21 warps, 5 blocks of 4.
        assert_eq!(h100.occupancy(&kernel(94, 0), 128), 20.0 / 64.0);
        assert_eq!(h100.occupancy(&kernel(32, 0), 128), 1.0);
        // 32 KiB of shared memory per block of 32 threads: 6 blocks, 6 warps.
        assert_eq!(h100.occupancy(&kernel(32, 32768), 32), 6.0 / 64.0);
        assert_eq!(SmLimits::SM80.occupancy(&kernel(32, 32768), 32), 4.0 / 64.0);
    }
}
