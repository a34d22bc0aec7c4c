//! [`CudaFft`]: a plan, its twiddle table and N^{-1} kept on the device, run
//! stage by stage on the device's stream; [`DeviceBuffer`]: elements resident
//! on the device, digit-major.

use std::sync::{Arc, Mutex};

use cudarc::driver::{CudaFunction, CudaSlice, DevicePtr, DevicePtrMut, DeviceRepr, LaunchConfig, PushKernelArg};
use gfpf_executor::{PreparedFft, Transform, TransformError};
use gfpf_field::{Element, Field};
use gfpf_kernels::DeviceConstants;
use gfpf_plan::{Direction, Order, Plan};

use crate::device::CudaDevice;
use crate::layout::{device_twiddle_table, from_digit_major, tensor_twiddle_table, try_to_digit_major};
use crate::params::{StageParams, block_threads, dynamic_shared_bytes, kernels_of_any_batch};
use crate::prepared::Prepared;
use crate::{CudaError, Kernel};

/// Elements of GF(r^k + 1) on the device, digit-major (digit d of element j
/// at d·len + j). Transforms work on it in place, so chains of transforms
/// need no host copies.
pub struct DeviceBuffer<const K: usize> {
    pub(crate) words: CudaSlice<u64>,
    len: usize,
}

impl<const K: usize> std::fmt::Debug for DeviceBuffer<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceBuffer")
            .field("k", &K)
            .field("len", &self.len)
            .finish()
    }
}

impl<const K: usize> DeviceBuffer<K> {
    /// Copies `data` to the device (converting to digit-major on the host).
    pub fn upload(device: &CudaDevice, data: &[Element<K>]) -> Result<Self, CudaError> {
        let words = try_to_digit_major(data)?;
        let words = device
            .stream()
            .clone_htod(&words)
            .map_err(|e| CudaError::driver("uploading elements", words.len() * 8, e))?;
        Ok(DeviceBuffer { words, len: data.len() })
    }

    /// `len` zero elements on the device.
    pub fn zeros(device: &CudaDevice, len: usize) -> Result<Self, CudaError> {
        let words = device
            .stream()
            .alloc_zeros::<u64>(len.max(1) * K)
            .map_err(|e| CudaError::driver("allocating a device buffer", len * K * 8, e))?;
        Ok(DeviceBuffer { words, len })
    }

    /// Copies the elements back (waits for the stream), checking that every
    /// one is canonical.
    pub fn download(&self, device: &CudaDevice, field: &Field<K>) -> Result<Vec<Element<K>>, CudaError> {
        let words = device
            .stream()
            .clone_dtoh(&self.words)
            .map_err(|e| CudaError::driver("downloading elements", self.len * K * 8, e))?;
        from_digit_major(field, &words[..self.len * K])
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The digit-major words (k·len), for users' own kernels.
    pub fn words(&self) -> &CudaSlice<u64> {
        &self.words
    }
}

/// An FFT of one size and direction over one field on one GPU: the plan,
/// the kernels it needs (compiled once per device), the twiddle table and
/// N^{-1}, resident on the device.
pub struct CudaFft<const K: usize> {
    device: Arc<CudaDevice>,
    prepared: Prepared<K>,
    functions: Vec<(Kernel, CudaFunction)>,
    table: CudaSlice<u64>,
    n_inv: CudaSlice<u64>,
    /// The tensor cores' twiddle tables of the [`Kernel::ElementTeamPairMma`]
    /// launches run so far, by kernel, first stage's log2 stride and step
    /// and the tables' split (made on first use: a batch's launches decide
    /// which pairs run).
    tensor_tables: Mutex<Vec<(TensorTableKey, Arc<CudaSlice<u64>>)>>,
}

/// A launch's kernel with tensor-core tables ([`Kernel::ElementTeamPairMma`]
/// in time or not, both stages or not; [`Kernel::ElementTeamPairRowsMma`];
/// [`Kernel::ElementTeamDftMma`]; [`Kernel::ScaleMma`]) and its
/// parameters' log2 stride, twiddle step, `tensor_split_bits`,
/// `tensor_scale` and `folded_step`
/// ([`crate::params::tensor_stage_params`]), which fix its tables.
type TensorTableKey = (Kernel, u64, u64, u64, u64, u64);

impl<const K: usize> std::fmt::Debug for CudaFft<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaFft")
            .field("device", &self.device)
            .field("plan", self.prepared.plan())
            .finish()
    }
}

impl<const K: usize> CudaFft<K> {
    /// Plans a transform of size N over `field` on `device`: compiles (or
    /// reuses) its kernels and uploads the twiddle table.
    pub fn try_new(
        device: &Arc<CudaDevice>,
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
    ) -> Result<Self, CudaError> {
        let prepared = Prepared::new(field, n, direction, order)?;
        let constants = DeviceConstants::of(field);
        let mut functions = Vec::new();
        // Every kernel a batch can take: split teams, teams of segments,
        // teams of threads (params::kernels_of_any_batch). DFT_K kernels
        // from the module of K, the part that has them; scale from the
        // teams' part of the first base size's. Those parts compiled at once.
        let kernels = kernels_of_any_batch(prepared.plan(), &device.shape().for_field(field));
        let module_of = |kernel: &Kernel| (kernel.radix().unwrap_or(prepared.radices[0]), kernel.module_part());
        device.load_modules(&constants, &kernels.iter().map(module_of).collect::<Vec<_>>())?;
        for kernel in kernels {
            let (radix, part) = module_of(&kernel);
            let f = device
                .module(&constants, radix, part)?
                .load_function(&kernel.symbol())
                .map_err(|e| CudaError::driver("loading a kernel", 0, e))?;
            crate::device::allow_dynamic_shared(&f, dynamic_shared_bytes(&kernel, K))?;
            functions.push((kernel, f));
        }
        let stream = device.stream();
        let host_table = device_twiddle_table(&prepared.fft)?;
        let table = stream
            .clone_htod(&host_table)
            .map_err(|e| CudaError::driver("uploading the twiddle table", host_table.len() * 8, e))?;
        let n_inv = stream
            .clone_htod(prepared.fft.n_inv().digits())
            .map_err(|e| CudaError::driver("uploading N^-1", K * 8, e))?;
        Ok(CudaFft {
            device: device.clone(),
            prepared,
            functions,
            table,
            n_inv,
            tensor_tables: Mutex::new(Vec::new()),
        })
    }

    /// The tensor cores' twiddle tables of a launch of `kernel` whose first
    /// stage has `params` on the device ([`tensor_twiddle_table`]), made
    /// and uploaded on first use.
    fn tensor_table(&self, params: &StageParams, kernel: &Kernel) -> Result<Arc<CudaSlice<u64>>, CudaError> {
        let key = (
            *kernel,
            params.log2_stride,
            params.step,
            params.tensor_split_bits,
            params.tensor_scale,
            params.folded_step,
        );
        let mut tables = self.tensor_tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, table)) = tables.iter().find(|(k, _)| *k == key) {
            return Ok(table.clone());
        }
        let words = tensor_twiddle_table(
            self.prepared.field(),
            &device_twiddle_table(&self.prepared.fft)?,
            params,
            kernel,
        )?;
        let table = Arc::new(
            self.device
                .stream()
                .clone_htod(&words)
                .map_err(|e| CudaError::driver("uploading the tensor-core twiddle tables", words.len() * 8, e))?,
        );
        tables.push((key, table.clone()));
        Ok(table)
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        self.prepared.plan()
    }

    /// N.
    pub fn len(&self) -> usize {
        self.prepared.plan().len()
    }

    /// Always false (N ≥ 1).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The device.
    pub fn device(&self) -> &Arc<CudaDevice> {
        &self.device
    }

    /// Device elements of scratch [`CudaFft::process_device`] needs for a
    /// buffer of `len` elements: all of it when the plan has a scratch
    /// stage (every stage runs over the whole batch at once), else 0.
    pub fn device_scratch_len(&self, len: usize) -> usize {
        if self.prepared.plan().scratch_len() > 0 { len } else { 0 }
    }

    /// Queues the transform of `data` (a multiple of N elements,
    /// one transform per N) on the device's stream; returns without waiting.
    /// `scratch` must hold [`CudaFft::device_scratch_len`] elements, or be `None`
    /// to allocate.
    pub fn process_device(
        &self,
        data: &mut DeviceBuffer<K>,
        scratch: Option<&mut DeviceBuffer<K>>,
    ) -> Result<(), CudaError> {
        let launches = self.prepared.launches_for(data.len, &self.device.shape())?;
        let needed = self.device_scratch_len(data.len);
        let mut own;
        let scratch = match scratch {
            Some(s) if s.len >= needed => s,
            Some(s) => {
                return Err(TransformError::ScratchTooShort { len: s.len, needed }.into());
            }
            None => {
                own = DeviceBuffer::zeros(&self.device, needed)?;
                &mut own
            }
        };
        let stream = self.device.stream();
        let (data_ptr, _data_sync) = data.words.device_ptr_mut(stream);
        let (scratch_ptr, _scratch_sync) = scratch.words.device_ptr_mut(stream);
        let (table_ptr, _table_sync) = self.table.device_ptr(stream);
        let (n_inv_ptr, _n_inv_sync) = self.n_inv.device_ptr(stream);
        // Every launch's tensor-core tables first (held until the launches
        // are queued).
        let tensor_tables: Vec<Option<Arc<CudaSlice<u64>>>> = launches
            .iter()
            .map(|l| {
                crate::params::tensor_stage_params(l)
                    .map(|params| self.tensor_table(&params, &l.kernel))
                    .transpose()
            })
            .collect::<Result<_, _>>()?;
        for (launch, tensor_table) in launches.iter().zip(&tensor_tables) {
            let (tensor_ptr, _tensor_sync) = match tensor_table {
                Some(t) => {
                    let (ptr, sync) = t.device_ptr(stream);
                    (ptr, Some(sync))
                }
                None => (0, None),
            };
            let params = launch.bind(data_ptr, scratch_ptr, table_ptr, n_inv_ptr, tensor_ptr);
            let function = &self
                .functions
                .iter()
                .find(|(k, _)| *k == launch.kernel)
                .ok_or_else(|| CudaError::MissingKernel(launch.kernel.symbol()))?
                .1;
            // SAFETY: the addresses are live device buffers of the sizes the
            // launch addresses: data and scratch hold batch·N elements
            // digit-major with pitch batch·N (checked above), the table M
            // entries with pitch M, N^{-1} k words.
            unsafe {
                launch_kernel(
                    &self.device,
                    function,
                    &params,
                    block_threads(&launch.kernel, K),
                    dynamic_shared_bytes(&launch.kernel, K),
                )?
            };
        }
        Ok(())
    }

    /// Transforms host `data` in place: upload, run, download (waits).
    pub fn process(&self, data: &mut [Element<K>]) -> Result<(), CudaError> {
        Transform::process(self, data)
    }

    fn process_host(&self, data: &mut [Element<K>]) -> Result<(), CudaError> {
        let mut buffer = DeviceBuffer::upload(&self.device, data)?;
        self.process_device(&mut buffer, None)?;
        let out = buffer.download(&self.device, self.prepared.field())?;
        data.copy_from_slice(&out);
        Ok(())
    }
}

/// Queues one launch of `function` over `params.threads` threads on the
/// device's stream, each block given `shared_bytes` of dynamic shared
/// memory ([`dynamic_shared_bytes`]).
///
/// # Safety
/// Every address in `params` must be a live device buffer (or table) as large
/// as the kernel addresses for these parameters.
pub(crate) unsafe fn launch_kernel(
    device: &CudaDevice,
    function: &CudaFunction,
    params: &StageParams,
    threads_per_block: u32,
    shared_bytes: u32,
) -> Result<(), CudaError> {
    // SAFETY: the stage kernels' only argument is GfpfStageParams by value
    // (StageParams mirrors it); the caller vouches for its addresses.
    unsafe {
        launch_with_shared(
            device,
            function,
            params,
            params.threads,
            threads_per_block,
            shared_bytes,
        )
    }
}

/// Queues one launch of `function` with `params` as its only argument, over
/// `threads` threads in blocks of `threads_per_block`, on the device's
/// stream.
///
/// # Safety
/// `P` must mirror the kernel's one parameter, and every address in `params`
/// must be a live device buffer (or table) as large as the kernel addresses
/// for these parameters.
pub(crate) unsafe fn launch_with<P: DeviceRepr>(
    device: &CudaDevice,
    function: &CudaFunction,
    params: &P,
    threads: u64,
    threads_per_block: u32,
) -> Result<(), CudaError> {
    // SAFETY: the caller's guarantees, passed on; no dynamic shared memory.
    unsafe { launch_with_shared(device, function, params, threads, threads_per_block, 0) }
}

/// As [`launch_with`], each block given `shared_bytes` of dynamic shared
/// memory (the function's limit raised where it passes 48 KiB).
///
/// # Safety
/// As [`launch_with`].
pub(crate) unsafe fn launch_with_shared<P: DeviceRepr>(
    device: &CudaDevice,
    function: &CudaFunction,
    params: &P,
    threads: u64,
    threads_per_block: u32,
    shared_bytes: u32,
) -> Result<(), CudaError> {
    let too_many = CudaError::TooManyThreads {
        threads: usize::try_from(threads).unwrap_or(usize::MAX),
    };
    let blocks = threads.div_ceil(u64::from(threads_per_block));
    let grid = u32::try_from(blocks)
        .ok()
        .filter(|&b| b < i32::MAX as u32)
        .ok_or(too_many)?;
    let cfg = LaunchConfig {
        grid_dim: (grid, 1, 1),
        block_dim: (threads_per_block, 1, 1),
        shared_mem_bytes: shared_bytes,
    };
    // SAFETY: the caller vouches that P is the kernel's parameter and for
    // its addresses.
    unsafe { device.stream().launch_builder(function).arg(params).launch(cfg) }
        .map_err(|e| CudaError::driver("launching a kernel", 0, e))?;
    Ok(())
}

/// Host slices: upload, transform on the device, download. The device
/// scratch is the transform's own, so no host scratch is asked for.
impl<const K: usize> Transform<K> for CudaFft<K> {
    type Error = CudaError;
    fn prepared(&self) -> &PreparedFft<K> {
        &self.prepared.fft
    }
    fn scratch_len(&self) -> usize {
        0
    }
    fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), CudaError> {
        self.check_lengths(data.len(), scratch.len())?;
        if data.is_empty() {
            return Ok(());
        }
        self.process_host(data)
    }
}
