//! [`CudaPolyMul`]: polynomial products over GF(p) entirely on the GPU.
//!
//! For a product of length ℓ = la + lb − 1 and S = 2^⌈log2 ℓ⌉: both operands
//! are uploaded once, zero-padded to S; a forward DFT_S in digit-reversed
//! order (decimation in frequency, in place, no permutation) transforms
//! each, one kernel multiplies them pointwise, and the inverse DFT_S takes
//! the digit-reversed product back to natural order and scales it; only the
//! ℓ coefficients of the result are read back. No host round trip between
//! the steps: they queue on the device's stream in order.
//!
//! Padded to a power of two, not truncated (gfpf-cpu's TFT): on the GPU the
//! work of a transform is spread over the whole card, and whether the
//! truncated transform's smaller operation count pays there is still to be
//! measured on one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::{CudaFunction, DevicePtr, DevicePtrMut};
use gfpf_executor::TransformError;
use gfpf_field::{Element, Field};
use gfpf_kernels::DeviceConstants;
use gfpf_plan::{Direction, Order};

use crate::fft::launch_kernel;
use crate::params::{THREADS_PER_BLOCK, pointwise_mul};
use crate::{CudaDevice, CudaError, CudaFft, DeviceBuffer};

/// The transforms and kernel of one padded size S.
struct SizePlans<const K: usize> {
    forward: CudaFft<K>,
    inverse: CudaFft<K>,
    pointwise: CudaFunction,
}

/// Polynomial products over one field on one GPU; the plans of each padded
/// size are built on first use and kept.
pub struct CudaPolyMul<const K: usize> {
    device: Arc<CudaDevice>,
    field: Field<K>,
    sizes: Mutex<HashMap<usize, Arc<SizePlans<K>>>>,
}

impl<const K: usize> std::fmt::Debug for CudaPolyMul<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaPolyMul")
            .field("device", &self.device)
            .field("field", &self.field.name().unwrap_or("custom"))
            .finish()
    }
}

impl<const K: usize> CudaPolyMul<K> {
    /// Products over `field` on `device`.
    pub fn new(device: &Arc<CudaDevice>, field: &Field<K>) -> Self {
        CudaPolyMul {
            device: Arc::clone(device),
            field: field.clone(),
            sizes: Mutex::new(HashMap::new()),
        }
    }

    /// The longest product: 2^v coefficients (v the 2-adicity of p − 1).
    pub fn max_product_len(&self) -> usize {
        1usize
            .checked_shl(self.field.two_adicity())
            .filter(|&m| m != 0)
            .unwrap_or(1 << (usize::BITS - 1))
    }

    fn plans(&self, s: usize) -> Result<Arc<SizePlans<K>>, CudaError> {
        if let Some(p) = self.sizes.lock().unwrap_or_else(|e| e.into_inner()).get(&s) {
            return Ok(Arc::clone(p));
        }
        let plan = |direction| CudaFft::try_new(&self.device, &self.field, s, direction, Order::DigitReversed);
        let forward = plan(Direction::Forward)?;
        let inverse = plan(Direction::Inverse)?;
        let radix = forward.plan().radices()[0];
        let pointwise = self
            .device
            .module(&DeviceConstants::of(&self.field), radix)?
            .load_function(&gfpf_kernels::device_elementwise_kernels(K).1.symbol())
            .map_err(|e| CudaError::driver("loading a kernel", 0, e))?;
        let plans = Arc::new(SizePlans {
            forward,
            inverse,
            pointwise,
        });
        self.sizes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(s, Arc::clone(&plans));
        Ok(plans)
    }

    /// The product of two coefficient vectors (lowest degree first), exactly
    /// la + lb − 1 coefficients (none if either is empty). Errors: a product
    /// longer than 2^v, device memory, the driver.
    pub fn mul(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, CudaError> {
        if a.is_empty() || b.is_empty() {
            return Ok(Vec::new());
        }
        let len = a.len() + b.len() - 1;
        let s = len.checked_next_power_of_two().ok_or(TransformError::TooLarge {
            n: len,
            what: "product length",
        })?;
        let plans = self.plans(s)?;
        let padded = |x: &[Element<K>]| -> Result<Vec<Element<K>>, CudaError> {
            let mut v = Vec::new();
            v.try_reserve_exact(s).map_err(|_| TransformError::TooLarge {
                n: s,
                what: "padded operand length",
            })?;
            v.extend_from_slice(x);
            v.resize(s, Element::ZERO);
            Ok(v)
        };
        let mut da = DeviceBuffer::upload(&self.device, &padded(a)?)?;
        let mut db = DeviceBuffer::upload(&self.device, &padded(b)?)?;
        self.mul_device(&plans, &mut da, &mut db)?;
        let mut out = da.download(&self.device, &self.field)?;
        out.truncate(len);
        Ok(out)
    }

    /// a ← a·b on device buffers of S elements each (S a power of two; both
    /// zero beyond their polynomials' lengths, the product shorter than S),
    /// queued on the stream; `b` is overwritten by its transform.
    fn mul_device(
        &self,
        plans: &SizePlans<K>,
        a: &mut DeviceBuffer<K>,
        b: &mut DeviceBuffer<K>,
    ) -> Result<(), CudaError> {
        let s = a.len();
        plans.forward.process_device(a, None)?;
        plans.forward.process_device(b, None)?;
        {
            let stream = self.device.stream();
            let (a_ptr, _a_sync) = a.words.device_ptr_mut(stream);
            let (b_ptr, _b_sync) = b.words.device_ptr(stream);
            // SAFETY: a and b hold S elements each, digit-major with pitch S,
            // which is all the pointwise kernel addresses for these parameters.
            unsafe {
                launch_kernel(
                    &self.device,
                    &plans.pointwise,
                    &pointwise_mul(K, a_ptr, b_ptr, s).1,
                    THREADS_PER_BLOCK,
                )?
            };
        }
        plans.inverse.process_device(a, None)
    }
}
