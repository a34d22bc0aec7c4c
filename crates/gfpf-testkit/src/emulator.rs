//! The host emulator of the CUDA executor: gfpf-kernels' sources compiled as
//! C++ for the CPU (they are written so that they also compile with
//! `GFPF_HOST_EMULATION`), run launch by launch with the same
//! [`StageParams`] and the same launch sequence (`gfpf_cuda::params`) as on
//! the device, every thread index in turn.
//!
//! It exists so that the kernels' arithmetic and indexing, and gfpf-cuda's
//! launch sequence, are tested against gfpf-cpu on machines without a GPU
//! (CI). It says nothing about device-only matters (launch geometry, memory
//! limits, the driver); those need a GPU run. It lives in the test kit, not
//! in gfpf-cuda's public API.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use gfpf_cuda::params::{StageParams, launches, pointwise_mul};
use gfpf_cuda::{CudaError, device_twiddle_table, from_digit_major, to_digit_major};
use gfpf_executor::{ExecutorError, PreparedFft, Transform, TransformError};
use gfpf_field::{Element, Field};
use gfpf_kernels::{DeviceConstants, Kernel, base_sizes, module_name, translation_unit};
use gfpf_plan::{Direction, Order, Plan};

/// Why the emulator could not plan or run a transform.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmulatorError {
    /// A refusal every executor shares.
    #[error(transparent)]
    Transform(#[from] TransformError),
    /// The layout conversion found a non-canonical element.
    #[error(transparent)]
    Layout(#[from] CudaError),
    /// The host compiler rejected the kernel source.
    #[error("compiling the {module} kernels for the host failed: {log}")]
    Compile {
        /// The module.
        module: String,
        /// The compiler's log.
        log: String,
    },
    /// Building or loading the host library failed.
    #[error("host emulator: {0}")]
    Host(String),
}

impl ExecutorError for EmulatorError {
    fn common(&self) -> Option<&TransformError> {
        match self {
            EmulatorError::Transform(e) => Some(e),
            _ => None,
        }
    }
}

/// The C++ compiler the emulator uses: `$CXX`, else `c++`.
pub fn host_compiler() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "c++".to_owned())
}

/// `Some(reason)` when no host C++ compiler runs here.
pub fn emulator_unavailable() -> Option<String> {
    let cxx = host_compiler();
    match Command::new(&cxx).arg("--version").output() {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "`{cxx} --version` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) => Some(format!("no host C++ compiler (`{cxx}`): {e}")),
    }
}

/// The kernels of one field compiled for the host, loaded.
#[derive(Debug)]
pub struct HostKernels {
    library: libloading::Library,
    path: PathBuf,
}

impl HostKernels {
    /// Compiles (or reuses, keyed by a hash of the source) the kernels of
    /// `field` for every base size 2 … 2k into `dir`, and loads them.
    pub fn build<const K: usize>(field: &Field<K>, dir: &Path) -> Result<Self, EmulatorError> {
        let constants = DeviceConstants::of(field);
        let radices = base_sizes(K);
        let source = translation_unit(&constants, &radices, true);
        let mut hasher = DefaultHasher::new();
        source.hash(&mut hasher);
        let stem = format!("{}-{:016x}", module_name(&constants, &radices), hasher.finish());
        let path = dir.join(format!("{stem}.so"));
        // One build at a time in this process: tests on several threads ask
        // for the same library at once.
        static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _building = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
        let emulator_error = |what: &str, e: std::io::Error| EmulatorError::Host(format!("{what}: {e}"));
        if !path.exists() {
            std::fs::create_dir_all(dir).map_err(|e| emulator_error("creating the build directory", e))?;
            // Private names, then an atomic rename: concurrent builds (test
            // threads, processes) never see a half-written library.
            let tag = format!("{}.{:?}", std::process::id(), std::thread::current().id());
            let tag: String = tag.chars().filter(char::is_ascii_alphanumeric).collect();
            let src = dir.join(format!("{stem}.{tag}.cpp"));
            let tmp = dir.join(format!("{stem}.{tag}.tmp"));
            std::fs::write(&src, &source).map_err(|e| emulator_error("writing the source", e))?;
            let out = Command::new(host_compiler())
                .args(["-std=c++17", "-O1", "-shared", "-fPIC", "-w", "-o"])
                .arg(&tmp)
                .arg(&src)
                .output()
                .map_err(|e| emulator_error("running the host compiler", e))?;
            let _ = std::fs::remove_file(&src);
            if !out.status.success() {
                return Err(EmulatorError::Compile {
                    module: stem,
                    log: String::from_utf8_lossy(&out.stderr).into_owned(),
                });
            }
            std::fs::rename(&tmp, &path).map_err(|e| emulator_error("installing the library", e))?;
        }
        // SAFETY: the library is ours, just compiled from kernels/ as plain
        // C++ with no initialisers that run on load.
        let library = unsafe { libloading::Library::new(&path) }
            .map_err(|e| EmulatorError::Host(format!("loading {}: {e}", path.display())))?;
        Ok(HostKernels { library, path })
    }

    /// The compiled library's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `kernel` for every thread of `params`.
    ///
    /// # Safety
    /// The addresses in `params` must point to host buffers as large as the
    /// launch reads and writes (as [`gfpf_cuda::params::launches`] sizes them).
    pub unsafe fn launch(&self, kernel: &Kernel, params: &StageParams) -> Result<(), EmulatorError> {
        let symbol = kernel.symbol();
        // SAFETY: every kernel symbol of gfpf_fft.cu has this signature in
        // host emulation: `extern "C" void name(const GfpfStageParams*)`.
        let f = unsafe {
            self.library
                .get::<unsafe extern "C" fn(*const StageParams)>(symbol.as_bytes())
        }
        .map_err(|e| EmulatorError::Host(format!("kernel {symbol}: {e}")))?;
        // SAFETY: the caller guarantees the buffers; StageParams matches the C struct.
        unsafe { f(params) };
        Ok(())
    }
}

/// A transform run by the host emulator: the same plan, launches and kernel
/// code as `gfpf_cuda::CudaFft`, on host memory.
#[derive(Debug)]
pub struct EmulatedFft<const K: usize> {
    prepared: PreparedFft<K>,
    /// The twiddle table digit-major (at least one element, as on the device).
    table: Vec<u64>,
    kernels: HostKernels,
}

impl<const K: usize> EmulatedFft<K> {
    /// Plans a transform; kernels are compiled into (or reused from) `dir`.
    pub fn try_new(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        dir: &Path,
    ) -> Result<Self, EmulatorError> {
        let prepared = PreparedFft::try_new(field, n, direction, order)?;
        let table = device_twiddle_table(&prepared)?;
        let kernels = HostKernels::build(field, dir)?;
        Ok(EmulatedFft {
            prepared,
            table,
            kernels,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        self.prepared.plan()
    }

    fn run(&self, data: &mut [Element<K>]) -> Result<(), EmulatorError> {
        if data.is_empty() {
            return Ok(());
        }
        let mut words = to_digit_major(data);
        self.run_words(&mut words)?;
        let out = from_digit_major(self.prepared.field(), &words)?;
        data.copy_from_slice(&out);
        Ok(())
    }

    /// Transforms digit-major words (a batch: k·len words, len a multiple of
    /// N) in place, as `CudaFft::process_device` does a device buffer.
    pub fn run_words(&self, words: &mut [u64]) -> Result<(), EmulatorError> {
        let len = words.len() / K;
        let mut scratch = vec![0u64; if self.plan().scratch_len() > 0 { words.len() } else { 0 }];
        let n_inv = *self.prepared.n_inv().digits();
        for launch in &launches(self.plan(), len / self.len()) {
            let params = launch.bind(
                words.as_mut_ptr() as u64,
                scratch.as_mut_ptr() as u64,
                self.table.as_ptr() as u64,
                n_inv.as_ptr() as u64,
            );
            // SAFETY: data and scratch hold batch·N elements digit-major
            // (pitch batch·N, as the launches say), the table M entries with
            // pitch M, N^{-1} k words: everything the kernels address.
            unsafe { self.kernels.launch(&launch.kernel, &params)? };
        }
        Ok(())
    }
}

/// Polynomial products the way `gfpf_cuda::CudaPolyMul` computes them (both
/// operands padded to S, forward DFT_S in digit-reversed order, the pointwise
/// kernel, inverse DFT_S), on host memory through the emulated kernels.
#[derive(Debug)]
pub struct EmulatedPolyMul<const K: usize> {
    field: Field<K>,
    dir: PathBuf,
}

impl<const K: usize> EmulatedPolyMul<K> {
    /// Products over `field`; kernels are compiled into (or reused from) `dir`.
    pub fn new(field: &Field<K>, dir: &Path) -> Self {
        EmulatedPolyMul {
            field: field.clone(),
            dir: dir.to_owned(),
        }
    }

    /// The product, exactly la + lb − 1 coefficients (none if either is empty).
    pub fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, EmulatorError> {
        if a.is_empty() || b.is_empty() {
            return Ok(Vec::new());
        }
        let len = a.len() + b.len() - 1;
        let s = len.next_power_of_two();
        let plan = |direction| EmulatedFft::try_new(&self.field, s, direction, Order::DigitReversed, &self.dir);
        let (forward, inverse) = (plan(Direction::Forward)?, plan(Direction::Inverse)?);
        let padded = |x: &[Element<K>]| {
            let mut v = x.to_vec();
            v.resize(s, Element::ZERO);
            to_digit_major(&v)
        };
        let (mut wa, mut wb) = (padded(a), padded(b));
        forward.run_words(&mut wa)?;
        forward.run_words(&mut wb)?;
        let params = pointwise_mul(wa.as_mut_ptr() as u64, wb.as_ptr() as u64, s);
        // SAFETY: both buffers hold S elements digit-major with pitch S.
        unsafe { forward.kernels.launch(&Kernel::PointwiseMul, &params)? };
        inverse.run_words(&mut wa)?;
        let mut out = from_digit_major(&self.field, &wa)?;
        out.truncate(len);
        Ok(out)
    }
}

/// Host slices, as `gfpf_cuda::CudaFft` takes them: the emulator's own
/// scratch is the digit-major copy it makes, so it asks for none.
impl<const K: usize> Transform<K> for EmulatedFft<K> {
    type Error = EmulatorError;
    fn prepared(&self) -> &PreparedFft<K> {
        &self.prepared
    }
    fn scratch_len(&self) -> usize {
        0
    }
    fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), EmulatorError> {
        self.check_lengths(data.len(), scratch.len())?;
        self.run(data)
    }
}
