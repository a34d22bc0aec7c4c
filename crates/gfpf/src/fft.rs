//! [`Fft`]: a planned transform of one size, forward and inverse, on the
//! CPU or a GPU.

use std::sync::Arc;

use gfpf_cpu::{CpuFft, Threading};
use gfpf_cuda::{CudaFft, DeviceBuffer};
use gfpf_executor::{PreparedFft, Transform, TwiddleLayout};
use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order};

use crate::device::cuda_device;
use crate::{Device, Error};

/// One direction of an [`Fft`], on the executor its device chose.
#[derive(Debug, Clone)]
enum Executor<const K: usize> {
    Cpu(Box<CpuFft<K>>),
    Cuda(Arc<CudaFft<K>>),
}

impl<const K: usize> Executor<K> {
    fn plan(
        device: Device,
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        threading: Threading,
        twiddles: TwiddleLayout,
    ) -> Result<Self, Error> {
        Ok(match device {
            Device::Cuda => Executor::Cuda(Arc::new(CudaFft::try_new(&cuda_device()?, field, n, direction, order)?)),
            _ => Executor::Cpu(Box::new(
                CpuFft::try_new_with_twiddles(field, n, direction, order, twiddles)?.with_threading(threading),
            )),
        })
    }

    fn prepared(&self) -> &PreparedFft<K> {
        match self {
            Executor::Cpu(fft) => Transform::prepared(fft.as_ref()),
            Executor::Cuda(fft) => Transform::prepared(fft.as_ref()),
        }
    }

    fn process(&self, data: &mut [Element<K>]) -> Result<(), Error> {
        match self {
            Executor::Cpu(fft) => Ok(Transform::process(fft.as_ref(), data)?),
            Executor::Cuda(fft) => Ok(Transform::process(fft.as_ref(), data)?),
        }
    }
}

/// DFT_N and its inverse over one field, planned once (stages, twiddle
/// tables, N^{-1}) and run on slices whose length is a multiple of N (each
/// N consecutive elements are one transform).
///
/// Forward: y_i = Σ_j x_j ω_N^(ij) with ω_N of the canonical tower, not
/// scaled; inverse: scaled by N^{-1}, so `inverse(forward(x)) == x`. In
/// [`Order::Natural`] (the default) both sides are in natural order; in
/// [`Order::DigitReversed`] the forward output (and the inverse input) is in
/// the plan's mixed-radix digit-reversed order and no permutation pass runs,
/// which is what convolutions want.
#[derive(Debug, Clone)]
pub struct Fft<const K: usize> {
    forward: Executor<K>,
    inverse: Executor<K>,
    device: Device,
}

/// Options of an [`Fft`]: `Fft::builder(&field, n).device(..).order(..).build()`.
#[derive(Debug, Clone)]
pub struct FftBuilder<'a, const K: usize> {
    field: &'a Field<K>,
    n: usize,
    device: Device,
    order: Order,
    threading: Threading,
    twiddles: TwiddleLayout,
}

impl<const K: usize> FftBuilder<'_, K> {
    /// Where to run (default [`Device::Auto`]).
    pub fn device(mut self, device: Device) -> Self {
        self.device = device;
        self
    }

    /// Natural (default) or digit-reversed order.
    pub fn order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }

    /// All cores of the current rayon pool (default) or one thread.
    pub fn threading(mut self, threading: Threading) -> Self {
        self.threading = threading;
        self
    }

    /// How the CPU keeps its twiddle tables (default [`TwiddleLayout::Auto`]:
    /// whole while they are at most a gigabyte and fit in memory, else in
    /// two levels of about √(N/2k) entries, one more product per twiddle).
    /// The device's kernels always read whole tables.
    pub fn twiddles(mut self, layout: TwiddleLayout) -> Self {
        self.twiddles = layout;
        self
    }

    /// Plans both directions. Errors: N not a power of two or above 2^v,
    /// too large for memory, CUDA asked for but not usable (or its kernels
    /// failing to compile, the device out of memory).
    pub fn build(self) -> Result<Fft<K>, Error> {
        let device = self.device.resolve_for(K, self.n)?;
        let plan = |direction| {
            Executor::plan(
                device,
                self.field,
                self.n,
                direction,
                self.order,
                self.threading,
                self.twiddles,
            )
        };
        Ok(Fft {
            forward: plan(Direction::Forward)?,
            inverse: plan(Direction::Inverse)?,
            device,
        })
    }
}

impl<const K: usize> Fft<K> {
    /// DFT_N in natural order on the best device available ([`Device::Auto`]).
    pub fn new(field: &Field<K>, n: usize) -> Result<Self, Error> {
        Self::builder(field, n).build()
    }

    /// A builder to choose the device, order or threading.
    pub fn builder(field: &Field<K>, n: usize) -> FftBuilder<'_, K> {
        FftBuilder {
            field,
            n,
            device: Device::Auto,
            order: Order::Natural,
            threading: Threading::Parallel,
            twiddles: TwiddleLayout::Auto,
        }
    }

    /// Forward transform of every N consecutive elements of `data`, in place.
    /// A length that is not a multiple of N, or an element that is not
    /// canonical ([`Error::Value`], as [`Field::check`] finds it), is an
    /// error and nothing is modified.
    pub fn forward(&self, data: &mut [Element<K>]) -> Result<(), Error> {
        self.check_values(data)?;
        self.forward.process(data)
    }

    /// Inverse transform (scaled by N^{-1}) of every N consecutive elements;
    /// errors as [`Fft::forward`].
    pub fn inverse(&self, data: &mut [Element<K>]) -> Result<(), Error> {
        self.check_values(data)?;
        self.inverse.process(data)
    }

    fn check_values(&self, data: &[Element<K>]) -> Result<(), Error> {
        match self.field().first_non_canonical(data) {
            Some((index, source)) => Err(Error::Value { index, source }),
            None => Ok(()),
        }
    }

    /// N.
    pub fn len(&self) -> usize {
        self.forward.prepared().plan().len()
    }

    /// Always false (N ≥ 1).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The order of the transformed side.
    pub fn order(&self) -> Order {
        self.forward.prepared().plan().order()
    }

    /// The frequency index held at `position` of the transformed side in
    /// [`Order::DigitReversed`] (the mixed-radix digit reversal of this
    /// transform's plan; `position` itself in [`Order::Natural`]), or `None`
    /// for a position ≥ N. The plan depends on the device: on CUDA the
    /// remainder radix of an N that is not a power of 2k goes outermost
    /// where the CPU puts it innermost, and k = 64 and 128 use base DFTs of
    /// at most 16 and 8 where the CPU uses 2k, so their digit-reversed
    /// orders differ; the forward and inverse transforms of one `Fft` always
    /// agree.
    ///
    /// ```
    /// use gfpf::{Fft, Field, Order, Preset};
    ///
    /// let field = Field::<8>::preset(Preset::T8)?;
    /// let fft = Fft::builder(&field, 512).order(Order::DigitReversed).build()?;
    /// let x: Vec<_> = (0..512).map(|i| field.from_u64(i)).collect();
    /// let mut y = x.clone();
    /// fft.forward(&mut y)?;
    /// let mut natural = x;
    /// Fft::new(&field, 512)?.forward(&mut natural)?;
    /// assert!((0..512).all(|l| Some(&y[l]) == fft.digit_reverse(l).map(|i| &natural[i])));
    /// assert_eq!(fft.digit_reverse(512), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn digit_reverse(&self, position: usize) -> Option<usize> {
        if position >= self.len() {
            return None;
        }
        Some(match self.order() {
            Order::Natural => position,
            Order::DigitReversed => self.forward.prepared().plan().digit_reverse(position),
        })
    }

    /// Where it runs (never `Auto`).
    pub fn device(&self) -> Device {
        self.device
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        self.forward.prepared().field()
    }

    /// ω_N, the root the forward transform uses.
    pub fn omega(&self) -> Element<K> {
        self.field()
            .root_of_unity(self.len().trailing_zeros())
            .expect("checked when planned")
    }

    /// The CPU executor of each direction (plans, twiddles, breakdowns),
    /// when the transform runs on the CPU.
    pub fn cpu(&self) -> Option<(&CpuFft<K>, &CpuFft<K>)> {
        match (&self.forward, &self.inverse) {
            (Executor::Cpu(f), Executor::Cpu(i)) => Some((f.as_ref(), i.as_ref())),
            _ => None,
        }
    }

    /// Forward transforms of every N consecutive elements of a buffer that
    /// stays on the GPU (a batch: its length a multiple of N), queued on the
    /// device's stream without waiting; chain further work on the same
    /// buffer, then `download` it. An error when this transform runs on the
    /// CPU ([`Error::NotOnDevice`]).
    ///
    /// ```no_run
    /// use gfpf::{Device, Fft, Field, Preset};
    /// use gfpf::cuda::DeviceBuffer;
    ///
    /// let field = Field::<8>::preset(Preset::T8)?;
    /// let fft = Fft::builder(&field, 1 << 16).device(Device::Cuda).build()?;
    /// let device = gfpf::cuda_device()?;
    /// let x = vec![field.one(); 4 << 16];                     // a batch of four
    /// let mut on_gpu = DeviceBuffer::upload(&device, &x).map_err(gfpf::Error::from)?;
    /// fft.forward_device(&mut on_gpu)?;
    /// fft.inverse_device(&mut on_gpu)?;
    /// assert_eq!(on_gpu.download(&device, &field).map_err(gfpf::Error::from)?, x);
    /// # Ok::<(), gfpf::Error>(())
    /// ```
    pub fn forward_device(&self, data: &mut DeviceBuffer<K>) -> Result<(), Error> {
        self.on_device(&self.forward, data)
    }

    /// Inverse transforms (scaled by N^{-1}) of a buffer on the GPU; see
    /// [`Fft::forward_device`].
    pub fn inverse_device(&self, data: &mut DeviceBuffer<K>) -> Result<(), Error> {
        self.on_device(&self.inverse, data)
    }

    fn on_device(&self, executor: &Executor<K>, data: &mut DeviceBuffer<K>) -> Result<(), Error> {
        match executor {
            Executor::Cuda(fft) => Ok(fft.process_device(data, None)?),
            Executor::Cpu(_) => Err(Error::NotOnDevice {
                what: "transforms of device buffers",
                device: Device::Cpu,
            }),
        }
    }

    /// The CUDA executor of each direction, when the transform runs on a GPU
    /// (for [`CudaFft::process_device`] on resident buffers).
    pub fn cuda(&self) -> Option<(&CudaFft<K>, &CudaFft<K>)> {
        match (&self.forward, &self.inverse) {
            (Executor::Cuda(f), Executor::Cuda(i)) => Some((f, i)),
            _ => None,
        }
    }
}
