//! A CUDA device: its context, the stream transforms run on, and the kernel
//! modules compiled for it (lazily, once per field and set of base sizes).

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

use cudarc::driver::{CudaContext, CudaModule, CudaStream};
use cudarc::nvrtc::{CompileOptions, Ptx};
use gfpf_kernels::DeviceConstants;

use crate::CudaError;
use gfpf_kernels::{module_name, translation_unit};

/// Environment variable naming a directory of prebuilt PTX
/// (`cargo xtask build-kernels`): `<module>.sm_<major><minor>.ptx` there is
/// loaded instead of compiling at run time.
pub const PTX_DIR_ENV: &str = "GFPF_PTX_DIR";

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

/// One GPU: a context, a stream, and the modules loaded on it.
pub struct CudaDevice {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    compute_capability: (i32, i32),
    modules: Mutex<HashMap<String, Arc<CudaModule>>>,
}

impl std::fmt::Debug for CudaDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaDevice")
            .field("ordinal", &self.ctx.ordinal())
            .field("compute_capability", &self.compute_capability)
            .finish()
    }
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
        Ok(Arc::new(CudaDevice {
            ctx,
            stream,
            compute_capability,
            modules: Mutex::new(HashMap::new()),
        }))
    }

    /// The device's name, as the driver gives it.
    pub fn name(&self) -> String {
        self.ctx.name().unwrap_or_else(|e| format!("unnamed device ({e:?})"))
    }

    /// (major, minor) compute capability.
    pub fn compute_capability(&self) -> (i32, i32) {
        self.compute_capability
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

    /// The module of one field and base size K (its three DFT_K kernels and
    /// the scale kernel): prebuilt PTX from [`PTX_DIR_ENV`], else NVRTC, else
    /// `nvcc`; compiled once per device.
    pub(crate) fn module(&self, constants: &DeviceConstants, radix: usize) -> Result<Arc<CudaModule>, CudaError> {
        let radices = [radix];
        let name = module_name(constants, &radices);
        let mut modules = self.modules.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = modules.get(&name) {
            return Ok(m.clone());
        }
        let (major, minor) = self.compute_capability;
        let prebuilt = std::env::var_os(PTX_DIR_ENV)
            .map(|dir| PathBuf::from(dir).join(format!("{name}.sm_{major}{minor}.ptx")))
            .filter(|p| p.exists());
        let ptx = match prebuilt {
            Some(path) => Ptx::from_file(path),
            None => compile(&name, &translation_unit(constants, &radices, false), (major, minor))?,
        };
        let module = self
            .ctx
            .load_module(ptx)
            .map_err(|e| CudaError::driver("loading the kernel module", 0, e))?;
        modules.insert(name, module.clone());
        Ok(module)
    }
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
                    options: vec![format!("--gpu-architecture={arch}"), "--std=c++17".to_owned()],
                    name: Some(format!("{name}.cu")),
                    ..Default::default()
                };
                cudarc::nvrtc::compile_ptx_with_opts(source, opts)
                    .map(|ptx| ptx.to_src())
                    .map_err(|e| failed(format!("{e:?}")))
            }
            PtxCompiler::Nvcc(nvcc) => {
                let dir = std::env::temp_dir().join(format!("gfpf-nvcc-{}", std::process::id()));
                let io = |e: std::io::Error| failed(e.to_string());
                std::fs::create_dir_all(&dir).map_err(io)?;
                let (cu, ptx) = (dir.join(format!("{name}.cu")), dir.join(format!("{name}.ptx")));
                std::fs::write(&cu, source).map_err(io)?;
                let out = Command::new(nvcc)
                    .args(["-ptx", "-std=c++17", &format!("-arch={arch}"), "-o"])
                    .arg(&ptx)
                    .arg(&cu)
                    .output()
                    .map_err(io)?;
                if !out.status.success() {
                    return Err(failed(String::from_utf8_lossy(&out.stderr).into_owned()));
                }
                std::fs::read_to_string(&ptx).map_err(io)
            }
        }
    }
}

/// PTX for the device's architecture: NVRTC when its library is present,
/// else nvcc.
fn compile(name: &str, source: &str, compute_capability: (i32, i32)) -> Result<Ptx, CudaError> {
    let compiler = PtxCompiler::find(false).ok_or_else(|| CudaError::Compile {
        module: name.to_owned(),
        log: "neither NVRTC (libnvrtc.so) nor nvcc was found to compile the kernels; \
              set GFPF_PTX_DIR to prebuilt PTX (cargo xtask build-kernels)"
            .to_owned(),
    })?;
    compiler.compile(name, source, compute_capability).map(Ptx::from_src)
}
