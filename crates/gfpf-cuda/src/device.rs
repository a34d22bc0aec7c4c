//! A CUDA device: its context, the stream transforms run on, and the kernel
//! modules compiled for it (lazily, once per field, base size and
//! [`gfpf_kernels::ModulePart`]: a transform compiles only the parts its
//! launches take, those it lacks at once, a thread each).
//!
//! **Loading a module**, first found wins:
//! 1. `$GFPF_PTX_DIR/<module>.sm_XY.cubin`, then `.ptx` (built ahead by
//!    `cargo xtask build-kernels`);
//! 2. the on-disk cache ([`kernel_cache_dir`]): machine code for this
//!    architecture, keyed by a hash of the translation unit, the architecture
//!    and the driver version;
//! 3. compiled to machine code (cubin) for the device's architecture with
//!    NVRTC, else nvcc, then written to the cache.
//!
//! Machine code, not PTX: PTX is JIT-compiled by the driver at load, which
//! took minutes for the largest modules (t128's DFT_256: 266 s in nvcc on an
//! H100). Compilation runs outside the lock of the module table: a transform
//! waits only for its own modules, never behind another field's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::driver::{CudaContext, CudaModule, CudaStream};
use cudarc::nvrtc::{CompileOptions, Ptx};
use gfpf_kernels::DeviceConstants;

use crate::CudaError;
use crate::params::DeviceShape;
use gfpf_kernels::{ModulePart, part_module_name, translation_unit};

/// Environment variable naming a directory of prebuilt kernels
/// (`cargo xtask build-kernels`): `<module>.sm_<major><minor>.cubin` (or
/// `.ptx`) there is loaded instead of compiling at run time.
pub const PTX_DIR_ENV: &str = "GFPF_PTX_DIR";

/// Environment variable naming the on-disk cache of compiled kernels
/// (default: `$XDG_CACHE_HOME/gfpf/kernels` or `~/.cache/gfpf/kernels`);
/// `off` disables it.
pub const KERNEL_CACHE_ENV: &str = "GFPF_KERNEL_CACHE";

/// Where compiled modules are cached, or `None` when caching is off (or no
/// home directory is known).
pub fn kernel_cache_dir() -> Option<PathBuf> {
    match std::env::var_os(KERNEL_CACHE_ENV) {
        Some(v) if v == "off" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|c| c.join("gfpf").join("kernels")),
    }
}

/// The cache file of one module: the module's name, a hash of its source
/// (FNV-1a, stable across builds), the architecture and the driver version.
pub fn cache_file_name(module: &str, source: &str, (major, minor): (i32, i32), driver_version: i32) -> String {
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{module}-{hash:016x}.sm_{major}{minor}.drv{driver_version}.cubin")
}

/// Writes `bytes` to `path` through a private name and a rename, so that
/// concurrent processes never load a half-written file.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// `Some(reason)` when no CUDA device can be used here. Checks for libcuda
/// before any cudarc call (cudarc panics when the library is missing).
pub fn cuda_unavailable() -> Option<String> {
    // SAFETY: only tries to open the driver library with libloading.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Some("the CUDA driver library (libcuda.so) was not found".to_owned());
    }
    match CudaContext::device_count() {
        Ok(0) => Some("the CUDA driver reports no device".to_owned()),
        Ok(_) => None,
        Err(e) => Some(format!("the CUDA driver failed to initialise: {e:?}")),
    }
}

/// A module, loaded (or failed) once.
type ModuleCell = OnceLock<Result<Arc<CudaModule>, CudaError>>;

/// One GPU: a context, a stream, and the modules loaded on it.
pub struct CudaDevice {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    compute_capability: (i32, i32),
    fp64_at_integer_rate: bool,
    /// Its SMs and the most shared memory a block may take when a kernel
    /// asks for it.
    shape: DeviceShape,
    /// One cell per module: the table's lock is held only to find or add a
    /// cell; compiling and loading happen in the cell, outside it.
    modules: Mutex<HashMap<String, Arc<ModuleCell>>>,
}

impl std::fmt::Debug for CudaDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaDevice")
            .field("ordinal", &self.ctx.ordinal())
            .field("compute_capability", &self.compute_capability)
            .finish()
    }
}

/// Lets `function` launch with up to `bytes` of dynamic shared memory a
/// block. The driver's default allows 48 KiB less the kernel's static shared
/// memory, so any kernel that takes dynamic shared memory asks for its
/// amount (the driver refuses past the device's
/// [`DeviceShape::max_shared_bytes_per_block`] with the static part).
pub(crate) fn allow_dynamic_shared(function: &cudarc::driver::CudaFunction, bytes: u32) -> Result<(), CudaError> {
    if bytes == 0 {
        return Ok(());
    }
    function
        .set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            i32::try_from(bytes).unwrap_or(i32::MAX),
        )
        .map_err(|e| CudaError::driver("raising a kernel's dynamic shared memory", 0, e))
}

/// Whether a device of this compute capability whose FP32 rate is
/// `fp32_over_fp64` times its FP64 rate runs FP64 at its integer rate: FP64
/// at half the FP32 rate (the driver's ratio 2) is 64 results a clock an SM
/// from compute capability 9.0 (H100), the 32-bit integer rate; on 8.0
/// (A100) half of it, and 1/32 or 1/64 of FP32 on the others.
fn fp64_at_integer_rate(compute_capability: (i32, i32), fp32_over_fp64: i32) -> bool {
    compute_capability.0 >= 9 && (1..=2).contains(&fp32_over_fp64)
}

impl CudaDevice {
    /// Opens device `ordinal`; [`CudaError::NoCudaDevice`] when there is no
    /// driver or no such device.
    pub fn try_new(ordinal: usize) -> Result<Arc<Self>, CudaError> {
        if let Some(reason) = cuda_unavailable() {
            return Err(CudaError::NoCudaDevice { reason });
        }
        let count = CudaContext::device_count().map_err(|e| CudaError::driver("cuDeviceGetCount", 0, e))?;
        if ordinal >= count as usize {
            return Err(CudaError::NoCudaDevice {
                reason: format!("device {ordinal} asked for, the driver reports {count}"),
            });
        }
        let ctx = CudaContext::new(ordinal).map_err(|e| CudaError::driver("creating the context", 0, e))?;
        let compute_capability = ctx
            .compute_capability()
            .map_err(|e| CudaError::driver("reading the compute capability", 0, e))?;
        let stream = ctx
            .new_stream()
            .map_err(|e| CudaError::driver("creating a stream", 0, e))?;
        let fp32_over_fp64 = ctx
            .attribute(
                cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO,
            )
            .map_err(|e| CudaError::driver("reading the FP64 rate", 0, e))?;
        let max_shared_bytes_per_block = ctx
            .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .map_err(|e| CudaError::driver("reading the device's shared memory", 0, e))?;
        let multiprocessors = ctx
            .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(|e| CudaError::driver("reading the device's SMs", 0, e))?;
        Ok(Arc::new(CudaDevice {
            ctx,
            stream,
            compute_capability,
            fp64_at_integer_rate: fp64_at_integer_rate(compute_capability, fp32_over_fp64),
            shape: DeviceShape {
                multiprocessors: u32::try_from(multiprocessors).unwrap_or(1).max(1),
                max_shared_bytes_per_block: u32::try_from(max_shared_bytes_per_block).unwrap_or(0),
                tensor_cores: compute_capability.0 >= 8,
                tensor_twiddles_max: crate::params::TENSOR_TWIDDLES_MAX,
                tensor_streamed_twiddles_max: crate::params::TENSOR_STREAMED_TWIDDLES_MAX,
                fold_pair_twiddles: true,
                field_takes_tensor_tables: true,
            },
            modules: Mutex::new(HashMap::new()),
        }))
    }

    /// The device's name, as the driver gives it.
    pub fn name(&self) -> String {
        self.ctx.name().unwrap_or_else(|e| format!("unnamed device ({e:?})"))
    }

    /// What the launch choices take from the device: its SMs and its
    /// blocks' shared memory ([`crate::params::launches_on`]).
    pub fn shape(&self) -> DeviceShape {
        self.shape
    }

    /// The CUDA version of the device's driver, (major, minor): (13, 0)
    /// for driver 580; (0, 0) where the driver does not say.
    pub fn driver_cuda_version(&self) -> (i32, i32) {
        let version = driver_version();
        (version / 1000, version % 1000 / 10)
    }

    /// (major, minor) compute capability.
    pub fn compute_capability(&self) -> (i32, i32) {
        self.compute_capability
    }

    /// Whether the device runs FP64 at its 32-bit integer rate (64 results
    /// a clock an SM: H100, H200 and later data-centre GPUs), so that
    /// products past the 31-bit primes' reach take primes below 2^50 in
    /// FP64 ([`crate::multimodular::WordSizes::WithFp64`]) rather than
    /// 62-bit integers.
    pub fn fp64_at_integer_rate(&self) -> bool {
        self.fp64_at_integer_rate
    }

    /// The cudarc context (for users who chain their own kernels).
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The stream every transform of this device is queued on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Waits for everything queued on the stream.
    pub fn synchronize(&self) -> Result<(), CudaError> {
        self.stream
            .synchronize()
            .map_err(|e| CudaError::driver("synchronising the stream", 0, e))
    }

    /// One part of the module of one field and base size K (its DFT_K
    /// kernels of that part; the teams' part has the element-wise kernels
    /// too), loaded once per device (see the module docs for where it comes
    /// from). A failure is remembered: the same source would fail again.
    pub(crate) fn module(
        &self,
        constants: &DeviceConstants,
        radix: usize,
        part: ModulePart,
    ) -> Result<Arc<CudaModule>, CudaError> {
        let radices = [radix];
        let name = part_module_name(constants, &radices, part);
        let cell = {
            let mut modules = self.modules.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(modules.entry(name.clone()).or_default())
        };
        // Holding the cell while compiling is safe: compiling and loading run
        // no rayon work, so the thread that holds it never waits on a job of
        // a thread that waits for it (the CPU executor's caches, whose tables
        // are built in parallel, publish instead of holding their cells).
        cell.get_or_init(|| self.load_module(&name, &translation_unit(constants, &radices, part)))
            .clone()
    }

    /// Loads these parts of the modules of one field ((base size K, part)
    /// pairs, as [`CudaDevice::module`]); those not loaded yet compile at
    /// once, a thread each, where two or more do: a plan's first use waits
    /// for its longest compile rather than the sum of them (a t8 transform
    /// of 2^20 takes DFT_16's teams and tensor pairs, 8.0 and 10.5 s of
    /// NVRTC for sm_90 on the project VM, 2026-11-28), and a plan whose
    /// parts are loaded starts no thread. Every part is tried; the first
    /// failure is returned.
    pub(crate) fn load_modules(
        &self,
        constants: &DeviceConstants,
        parts: &[(usize, ModulePart)],
    ) -> Result<(), CudaError> {
        let loaded = |radix: usize, part: ModulePart| {
            let name = part_module_name(constants, &[radix], part);
            let modules = self.modules.lock().unwrap_or_else(|e| e.into_inner());
            modules.get(&name).is_some_and(|cell| cell.get().is_some())
        };
        let mut pending: Vec<(usize, ModulePart)> = parts
            .iter()
            .copied()
            .filter(|&(radix, part)| !loaded(radix, part))
            .collect();
        pending.sort();
        pending.dedup();
        if pending.len() < 2 {
            return pending
                .iter()
                .try_for_each(|&(radix, part)| self.module(constants, radix, part).map(drop));
        }
        std::thread::scope(|scope| {
            let loads: Vec<_> = pending
                .iter()
                .map(|&(radix, part)| scope.spawn(move || self.module(constants, radix, part).map(drop)))
                .collect();
            // Every thread joined before the first failure is returned.
            let results: Vec<Result<(), CudaError>> = loads
                .into_iter()
                .map(|load| load.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect();
            results.into_iter().collect()
        })
    }

    /// The word-size NTT module (kernels/gfpf_ntt.cu), loaded once per
    /// device as the others are.
    pub(crate) fn ntt_module(&self) -> Result<Arc<CudaModule>, CudaError> {
        let name = "gfpf_ntt".to_owned();
        let cell = {
            let mut modules = self.modules.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(modules.entry(name.clone()).or_default())
        };
        cell.get_or_init(|| self.load_module(&name, &gfpf_kernels::ntt_translation_unit(false)))
            .clone()
    }

    fn load_module(&self, name: &str, source: &str) -> Result<Arc<CudaModule>, CudaError> {
        let (major, minor) = self.compute_capability;
        let prebuilt = std::env::var_os(PTX_DIR_ENV).and_then(|dir| {
            ["cubin", "ptx"]
                .into_iter()
                .map(|ext| PathBuf::from(&dir).join(format!("{name}.sm_{major}{minor}.{ext}")))
                .find(|p| p.exists())
        });
        let image = match prebuilt {
            Some(path) if path.extension().is_some_and(|e| e == "ptx") => Ptx::from_file(path),
            Some(path) => Ptx::from_binary(std::fs::read(&path).map_err(|e| CudaError::Compile {
                module: name.to_owned(),
                log: format!("reading {}: {e}", path.display()),
            })?),
            None => Ptx::from_binary(self.cached_or_compiled(name, source)?),
        };
        self.ctx
            .load_module(image)
            .map_err(|e| CudaError::driver("loading the kernel module", 0, e))
    }

    /// Machine code for this device: from the disk cache, or compiled (and
    /// then cached; a cache that cannot be written is only a slower start).
    fn cached_or_compiled(&self, name: &str, source: &str) -> Result<Vec<u8>, CudaError> {
        let cache = kernel_cache_dir()
            .map(|dir| dir.join(cache_file_name(name, source, self.compute_capability, driver_version())));
        if let Some(bytes) = cache.as_ref().and_then(|path| std::fs::read(path).ok()) {
            return Ok(bytes);
        }
        let compiler = PtxCompiler::find(false).ok_or_else(|| CudaError::Compile {
            module: name.to_owned(),
            log: "neither NVRTC (libnvrtc.so) nor nvcc was found to compile the kernels; \
                  set GFPF_PTX_DIR to prebuilt kernels (cargo xtask build-kernels)"
                .to_owned(),
        })?;
        let cubin = compiler.compile_cubin(name, source, self.compute_capability)?;
        if let Some(path) = &cache {
            let _ = write_atomically(path, &cubin);
        }
        Ok(cubin)
    }
}

/// The CUDA driver's version (e.g. 13000), 0 when it cannot be read.
fn driver_version() -> i32 {
    let mut version = 0;
    // SAFETY: called only on a device that was opened, so the driver library
    // is loaded; the function writes one int.
    let _ = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    version
}

/// A compiler from CUDA C to PTX.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PtxCompiler {
    /// NVRTC, the run-time compiler library (libnvrtc.so), through cudarc.
    Nvrtc,
    /// The `nvcc` program at this path.
    Nvcc(PathBuf),
}

impl PtxCompiler {
    /// The first available of NVRTC and nvcc (from PATH or
    /// /usr/local/cuda/bin), in the order `prefer_nvcc` says.
    pub fn find(prefer_nvcc: bool) -> Option<Self> {
        // SAFETY: only tries to open the NVRTC library with libloading.
        let nvrtc = || unsafe { cudarc::nvrtc::sys::is_culib_present() }.then_some(PtxCompiler::Nvrtc);
        let nvcc = || {
            ["nvcc", "/usr/local/cuda/bin/nvcc"]
                .into_iter()
                .find(|c| {
                    Command::new(c)
                        .arg("--version")
                        .output()
                        .is_ok_and(|o| o.status.success())
                })
                .map(|c| PtxCompiler::Nvcc(PathBuf::from(c)))
        };
        if prefer_nvcc {
            nvcc().or_else(nvrtc)
        } else {
            nvrtc().or_else(nvcc)
        }
    }

    /// Compiles one translation unit (see [`gfpf_kernels::translation_unit`])
    /// to PTX for compute capability (major, minor).
    pub fn compile(&self, name: &str, source: &str, (major, minor): (i32, i32)) -> Result<String, CudaError> {
        let arch = format!("compute_{major}{minor}");
        let failed = |log: String| CudaError::Compile {
            module: name.to_owned(),
            log,
        };
        match self {
            PtxCompiler::Nvrtc => {
                let opts = CompileOptions {
                    options: nvrtc_options(&arch),
                    name: Some(format!("{name}.cu")),
                    ..Default::default()
                };
                cudarc::nvrtc::compile_ptx_with_opts(source, opts)
                    .map(|ptx| ptx.to_src())
                    .map_err(|e| failed(format!("{e:?}")))
            }
            PtxCompiler::Nvcc(nvcc) => run_nvcc(nvcc, name, source, "-ptx", &arch)
                .and_then(|bytes| String::from_utf8(bytes).map_err(|e| e.to_string()))
                .map_err(failed),
        }
    }

    /// Compiles one translation unit to machine code (cubin) for compute
    /// capability (major, minor): nothing is left for the driver to compile.
    pub fn compile_cubin(&self, name: &str, source: &str, (major, minor): (i32, i32)) -> Result<Vec<u8>, CudaError> {
        let arch = format!("sm_{major}{minor}");
        let failed = |log: String| CudaError::Compile {
            module: name.to_owned(),
            log,
        };
        match self {
            PtxCompiler::Nvrtc => nvrtc_cubin(name, source, &arch).map_err(failed),
            PtxCompiler::Nvcc(nvcc) => run_nvcc(nvcc, name, source, "-cubin", &arch).map_err(failed),
        }
    }
}

/// NVRTC's options for `arch` (`compute_XY` or `sm_XY`): C++17, and 128-bit
/// integers in device code (the lane product's sums; nvcc has them on Linux
/// without a flag, NVRTC only with one, from CUDA 11.5).
fn nvrtc_options(arch: &str) -> Vec<String> {
    vec![
        format!("--gpu-architecture={arch}"),
        "--std=c++17".to_owned(),
        "--device-int128".to_owned(),
    ]
}

/// `nvcc <mode> -arch=<arch>` on one translation unit (in a private temporary
/// directory): the output's bytes, or nvcc's log.
fn run_nvcc(nvcc: &Path, name: &str, source: &str, mode: &str, arch: &str) -> Result<Vec<u8>, String> {
    let dir = std::env::temp_dir().join(format!("gfpf-nvcc-{}", std::process::id()));
    let io = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(&dir).map_err(io)?;
    let (cu, out) = (dir.join(format!("{name}.cu")), dir.join(format!("{name}.{arch}{mode}")));
    std::fs::write(&cu, source).map_err(io)?;
    let run = Command::new(nvcc)
        .args([mode, "-std=c++17", &format!("-arch={arch}"), "-o"])
        .arg(&out)
        .arg(&cu)
        .output()
        .map_err(io)?;
    if !run.status.success() {
        return Err(String::from_utf8_lossy(&run.stderr).into_owned());
    }
    std::fs::read(&out).map_err(io)
}

/// NVRTC to machine code: compile one translation unit for a real
/// architecture (`sm_XY`) with `extra` options, then take the CUBIN (cudarc's
/// safe API returns PTX only) and the program log (`--ptxas-options=-v` makes
/// it ptxas's resource report); the log as the error when it fails.
pub(crate) fn nvrtc_cubin_and_log(
    name: &str,
    source: &str,
    arch: &str,
    extra: &[&str],
) -> Result<(Vec<u8>, String), String> {
    use cudarc::nvrtc::{result, sys};
    let source = std::ffi::CString::new(source).map_err(|e| e.to_string())?;
    let file = std::ffi::CString::new(format!("{name}.cu")).map_err(|e| e.to_string())?;
    let program = result::create_program(&source, Some(&file)).map_err(|e| format!("{e:?}"))?;
    let mut options = nvrtc_options(arch);
    options.extend(extra.iter().map(|&o| o.to_owned()));
    // SAFETY: `program` was created above and is destroyed once, below; the
    // buffers handed to NVRTC are sized by the sizes it reports.
    unsafe {
        let compiled = result::compile_program(program, &options);
        let log = result::get_program_log(program)
            .map(|log| std::ffi::CStr::from_ptr(log.as_ptr()).to_string_lossy().into_owned())
            .unwrap_or_default();
        let cubin = match compiled {
            Err(e) => Err(format!("{e:?}: {log}")),
            Ok(()) => {
                let mut size = 0usize;
                sys::nvrtcGetCUBINSize(program, &mut size)
                    .result()
                    .map_err(|e| format!("nvrtcGetCUBINSize: {e:?}"))
                    .and_then(|()| {
                        let mut bytes = vec![0u8; size];
                        sys::nvrtcGetCUBIN(program, bytes.as_mut_ptr().cast())
                            .result()
                            .map(|()| (bytes, log))
                            .map_err(|e| format!("nvrtcGetCUBIN: {e:?}"))
                    })
            }
        };
        let _ = result::destroy_program(program);
        cubin
    }
}

/// NVRTC to machine code for a real architecture (`sm_XY`).
fn nvrtc_cubin(name: &str, source: &str, arch: &str) -> Result<Vec<u8>, String> {
    nvrtc_cubin_and_log(name, source, arch, &[]).map(|(cubin, _)| cubin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_names_change_with_source_architecture_and_driver() {
        let base = cache_file_name("gfpf_k8_r1_dft16", "source", (9, 0), 13000);
        assert!(base.starts_with("gfpf_k8_r1_dft16-") && base.ends_with(".sm_90.drv13000.cubin"));
        assert_eq!(
            base,
            cache_file_name("gfpf_k8_r1_dft16", "source", (9, 0), 13000),
            "stable"
        );
        assert_ne!(base, cache_file_name("gfpf_k8_r1_dft16", "source!", (9, 0), 13000));
        assert_ne!(base, cache_file_name("gfpf_k8_r1_dft16", "source", (8, 0), 13000));
        assert_ne!(base, cache_file_name("gfpf_k8_r1_dft16", "source", (9, 0), 12080));
    }

    #[test]
    fn fp64_at_the_integer_rate_from_hopper_on() {
        // H100 and H200 (FP64 half of FP32: 64 a clock an SM); A100 (half of
        // FP32 too, but 32 a clock an SM); consumer cards (1/64); a driver
        // that reports no ratio.
        assert!(fp64_at_integer_rate((9, 0), 2));
        assert!(fp64_at_integer_rate((10, 0), 2));
        assert!(!fp64_at_integer_rate((8, 0), 2));
        assert!(!fp64_at_integer_rate((8, 9), 64));
        assert!(!fp64_at_integer_rate((12, 0), 64));
        assert!(!fp64_at_integer_rate((9, 0), 0));
    }

    #[test]
    fn cached_files_are_written_whole() {
        let dir = std::env::temp_dir().join(format!("gfpf-cache-test-{}", std::process::id()));
        let path = dir.join("a").join("m.cubin");
        write_atomically(&path, b"\x7fELF...").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"\x7fELF...");
        let leftovers = std::fs::read_dir(dir.join("a")).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
