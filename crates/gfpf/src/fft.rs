//! [`Fft`]: a planned transform of one size, forward and inverse.

use gfpf_cpu::{CpuFft, Threading};
use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order};

use crate::{Device, Error};

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
    forward: CpuFft<K>,
    inverse: CpuFft<K>,
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

    /// Plans both directions. Errors: N not a power of two or above 2^v,
    /// too large for memory, CUDA asked for but not usable.
    pub fn build(self) -> Result<Fft<K>, Error> {
        let device = self.device.resolve()?;
        let plan = |direction| -> Result<CpuFft<K>, Error> {
            Ok(CpuFft::try_new(self.field, self.n, direction, self.order)?.with_threading(self.threading))
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
        }
    }

    /// Forward transform of every N consecutive elements of `data`, in place.
    /// A length that is not a multiple of N is an error (nothing modified).
    pub fn forward(&self, data: &mut [Element<K>]) -> Result<(), Error> {
        Ok(self.forward.process(data)?)
    }

    /// Inverse transform (scaled by N^{-1}) of every N consecutive elements.
    pub fn inverse(&self, data: &mut [Element<K>]) -> Result<(), Error> {
        Ok(self.inverse.process(data)?)
    }

    /// N.
    pub fn len(&self) -> usize {
        self.forward.len()
    }

    /// Always false (N ≥ 1).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The order of the transformed side.
    pub fn order(&self) -> Order {
        self.forward.plan().order()
    }

    /// Where it runs (never `Auto`).
    pub fn device(&self) -> Device {
        self.device
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        self.forward.field()
    }

    /// ω_N, the root the forward transform uses.
    pub fn omega(&self) -> Element<K> {
        self.field()
            .root_of_unity(self.len().trailing_zeros())
            .expect("checked when planned")
    }

    /// The CPU executor of each direction (plans, twiddles, breakdowns).
    pub fn cpu(&self) -> (&CpuFft<K>, &CpuFft<K>) {
        (&self.forward, &self.inverse)
    }
}
