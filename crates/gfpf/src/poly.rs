//! Polynomials over GF(p): [`PolyRing`] (a field with its multiplication
//! engine and caches) and [`Polynomial`] (coefficients tied to a ring).

use std::fmt;
use std::sync::Arc;

use gfpf_cpu::{MulAlgorithm, PolyMul, Threading};
use gfpf_cuda::{CudaError, CudaMulAlgorithm, CudaPolyMul};
use gfpf_field::{Element, Field};

use crate::{Device, Error};

/// How a [`PolyRing`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RingOptions {
    /// Where products run (default [`Device::Auto`], which is the CPU for
    /// products until GPU products are timed against it; [`Device::Cuda`]
    /// runs them on the GPU: operands uploaded once, the product read back
    /// once, computed by padded big-prime transforms or through word-size
    /// primes as `algorithm` says, see [`PolyRing::with_options`]).
    pub device: Device,
    /// All cores of the current rayon pool (default) or one thread.
    pub threading: Threading,
    /// Schoolbook, TFT, multi-modular, or chosen by length (the default).
    pub algorithm: MulAlgorithm,
}

/// GF(p)\[x\] for one field: cheap to clone (shared), thread-safe; FFT plans
/// and twiddle vectors of each size are built on first use and kept.
///
/// Products of any lengths, by default ([`MulAlgorithm::Auto`]) schoolbook
/// when the shorter operand has at most [`gfpf_cpu::auto_schoolbook_max_len`]
/// coefficients, otherwise through word-size primes (multi-modular), which
/// measured 4 to 8 times faster than the big-prime TFT on the CPU.
#[derive(Clone)]
pub struct PolyRing<const K: usize> {
    inner: Arc<RingInner<K>>,
}

struct RingInner<const K: usize> {
    mul: PolyMul<K>,
    /// The GPU engine when the device is CUDA.
    gpu: Option<CudaPolyMul<K>>,
    options: RingOptions,
    device: Device,
}

impl<const K: usize> fmt::Debug for PolyRing<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PolyRing")
            .field("field", &self.field().name().unwrap_or("custom"))
            .field("r", &self.field().r())
            .field("device", &self.inner.device)
            .field("options", &self.inner.options)
            .finish()
    }
}

impl<const K: usize> PolyRing<K> {
    /// GF(p)\[x\] with the default options.
    pub fn new(field: &Field<K>) -> Result<Self, Error> {
        Self::with_options(field, RingOptions::default())
    }

    /// GF(p)\[x\] with the given device, threading and algorithm.
    ///
    /// On [`Device::Cuda`], `algorithm` maps to the device's paths
    /// ([`gfpf_cuda::CudaMulAlgorithm`]): `Tft` to the big-prime transforms,
    /// `MultiModular` to word-size primes on the device (on the host where
    /// the device's primes do not reach: k ≥ 32, or a product too long for
    /// enough of them), `Auto` to the schoolbook on the host for the
    /// shortest operands and otherwise to the device's own choice (word-size
    /// primes where the time model's contest has them lead at the padded
    /// length and they reach it, [`gfpf_cuda::ModelledProduct`]; the big
    /// prime otherwise), and
    /// `Schoolbook` to the host.
    pub fn with_options(field: &Field<K>, options: RingOptions) -> Result<Self, Error> {
        // Auto keeps products on the CPU: GPU products have not been timed
        // against the CPU's truncated transforms yet, so no crossover is known.
        let (device, gpu) = match options.device {
            Device::Cpu | Device::Auto => (Device::Cpu, None),
            Device::Cuda => (Device::Cuda, Some(CudaPolyMul::new(&crate::cuda_device()?, field))),
        };
        let mul = PolyMul::new(field)?.with_threading(options.threading);
        Ok(PolyRing {
            inner: Arc::new(RingInner {
                mul,
                gpu,
                options,
                device,
            }),
        })
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        self.inner.mul.field()
    }

    /// The options it was built with.
    pub fn options(&self) -> RingOptions {
        self.inner.options
    }

    /// Where its transforms run (never `Auto`).
    pub fn device(&self) -> Device {
        self.inner.device
    }

    /// The longest product it can compute by TFT: 2^v coefficients.
    pub fn max_product_len(&self) -> usize {
        self.inner.mul.max_product_len()
    }

    /// The polynomial with these coefficients (lowest degree first; trailing
    /// zeros are dropped). Each must be a canonical element of this field.
    pub fn poly(&self, coeffs: Vec<Element<K>>) -> Result<Polynomial<K>, Error> {
        self.check_all(&coeffs)?;
        Ok(self.wrap(coeffs))
    }

    /// The polynomial with these word-sized coefficients.
    pub fn poly_from_u64(&self, coeffs: &[u64]) -> Polynomial<K> {
        self.wrap(coeffs.iter().map(|&c| self.field().from_u64(c)).collect())
    }

    /// A polynomial of `len` uniformly random coefficients.
    pub fn random<R: rand_core::Rng + ?Sized>(&self, len: usize, rng: &mut R) -> Polynomial<K> {
        self.wrap((0..len).map(|_| self.field().random(rng)).collect())
    }

    /// The zero polynomial.
    pub fn zero(&self) -> Polynomial<K> {
        self.wrap(Vec::new())
    }

    /// The product of two coefficient vectors, exactly la + lb − 1
    /// coefficients (none if either is empty), trailing zeros kept. Inputs
    /// are checked like [`PolyRing::poly`].
    pub fn mul_coeffs(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, Error> {
        self.check_all(a)?;
        self.check_all(b)?;
        self.product(a, b)
    }

    /// The product of checked coefficient vectors, on the ring's device.
    fn product(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Vec<Element<K>>, Error> {
        if let Some(product) = self.on_gpu(a, b)? {
            return Ok(product);
        }
        Ok(self.inner.mul.mul(a, b, self.inner.options.algorithm)?)
    }

    /// The square of checked coefficients, on the ring's device.
    fn squared(&self, a: &[Element<K>]) -> Result<Vec<Element<K>>, Error> {
        if let Some(square) = self.on_gpu(a, a)? {
            return Ok(square);
        }
        Ok(self.inner.mul.square(a, self.inner.options.algorithm)?)
    }

    /// The square of a coefficient vector, 2·la − 1 coefficients.
    pub fn square_coeffs(&self, a: &[Element<K>]) -> Result<Vec<Element<K>>, Error> {
        self.check_all(a)?;
        self.squared(a)
    }

    /// The product on the GPU when the device is CUDA (see
    /// [`PolyRing::with_options`]); `None` runs it on the host. `Auto`
    /// keeps the schoolbook's short operands on the host (a handful of
    /// multiplications, cheaper there than a round trip), and
    /// `MultiModular` goes to the host where the device's primes do not
    /// reach (their plan refuses it).
    fn on_gpu(&self, a: &[Element<K>], b: &[Element<K>]) -> Result<Option<Vec<Element<K>>>, Error> {
        let Some(gpu) = self.inner.gpu.as_ref() else {
            return Ok(None);
        };
        let (shorter, len) = (a.len().min(b.len()), (a.len() + b.len()).saturating_sub(1));
        let algorithm = match self.inner.options.algorithm {
            MulAlgorithm::Tft => CudaMulAlgorithm::BigPrime,
            MulAlgorithm::MultiModular => CudaMulAlgorithm::MultiModular,
            MulAlgorithm::Auto
                if MulAlgorithm::Auto.resolve(K, shorter, len, self.inner.mul.max_product_len())
                    != MulAlgorithm::Schoolbook =>
            {
                CudaMulAlgorithm::Auto
            }
            _ => return Ok(None),
        };
        match gpu.mul_with(a, b, algorithm) {
            Err(CudaError::Ntt(_)) if algorithm == CudaMulAlgorithm::MultiModular => Ok(None),
            product => Ok(Some(product?)),
        }
    }

    /// The multiplication engine (TFT, schoolbook), for callers that manage
    /// their own coefficient vectors and want no checks.
    pub fn engine(&self) -> &PolyMul<K> {
        &self.inner.mul
    }

    fn check_all(&self, coeffs: &[Element<K>]) -> Result<(), Error> {
        match self.field().first_non_canonical(coeffs) {
            Some((index, source)) => Err(Error::Coefficient { index, source }),
            None => Ok(()),
        }
    }

    fn wrap(&self, mut coeffs: Vec<Element<K>>) -> Polynomial<K> {
        while coeffs.last().is_some_and(Element::is_zero) {
            coeffs.pop();
        }
        Polynomial {
            ring: self.clone(),
            coeffs,
        }
    }

    fn same_ring(&self, other: &PolyRing<K>) -> Result<(), Error> {
        if Arc::ptr_eq(&self.inner, &other.inner) || self.field() == other.field() {
            Ok(())
        } else {
            Err(Error::FieldMismatch {
                left: self.field().r(),
                right: other.field().r(),
            })
        }
    }
}

/// A polynomial over GF(p): coefficients lowest degree first, no trailing
/// zeros (the zero polynomial has none), every one canonical. Made by a
/// [`PolyRing`]; operations between polynomials of different fields are
/// errors.
#[derive(Clone)]
pub struct Polynomial<const K: usize> {
    ring: PolyRing<K>,
    coeffs: Vec<Element<K>>,
}

impl<const K: usize> Polynomial<K> {
    /// The coefficients, lowest degree first.
    pub fn coeffs(&self) -> &[Element<K>] {
        &self.coeffs
    }

    /// The coefficient vector.
    pub fn into_coeffs(self) -> Vec<Element<K>> {
        self.coeffs
    }

    /// The number of coefficients (degree + 1; 0 for the zero polynomial).
    pub fn len(&self) -> usize {
        self.coeffs.len()
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// Alias of [`Polynomial::is_zero`].
    pub fn is_empty(&self) -> bool {
        self.is_zero()
    }

    /// The degree; `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        self.coeffs.len().checked_sub(1)
    }

    /// The ring it belongs to.
    pub fn ring(&self) -> &PolyRing<K> {
        &self.ring
    }

    /// self · other.
    pub fn mul(&self, other: &Polynomial<K>) -> Result<Polynomial<K>, Error> {
        self.ring.same_ring(&other.ring)?;
        let c = self.ring.product(&self.coeffs, &other.coeffs)?;
        Ok(self.ring.wrap(c))
    }

    /// self².
    pub fn square(&self) -> Result<Polynomial<K>, Error> {
        let c = self.ring.squared(&self.coeffs)?;
        Ok(self.ring.wrap(c))
    }

    /// self + other.
    pub fn add(&self, other: &Polynomial<K>) -> Result<Polynomial<K>, Error> {
        self.combine(other, |f, x, y| f.add(x, y))
    }

    /// self − other.
    pub fn sub(&self, other: &Polynomial<K>) -> Result<Polynomial<K>, Error> {
        self.combine(other, |f, x, y| f.sub(x, y))
    }

    /// −self.
    pub fn neg(&self) -> Polynomial<K> {
        let f = self.ring.field();
        self.ring.wrap(self.coeffs.iter().map(|c| f.neg(c)).collect())
    }

    /// The value at x (Horner).
    pub fn evaluate(&self, x: &Element<K>) -> Element<K> {
        let f = self.ring.field();
        self.coeffs
            .iter()
            .rev()
            .fold(Element::ZERO, |acc, c| f.add(&f.mul(&acc, x), c))
    }

    fn combine(
        &self,
        other: &Polynomial<K>,
        op: impl Fn(&Field<K>, &Element<K>, &Element<K>) -> Element<K>,
    ) -> Result<Polynomial<K>, Error> {
        self.ring.same_ring(&other.ring)?;
        let f = self.ring.field();
        let n = self.len().max(other.len());
        let at = |v: &[Element<K>], i: usize| v.get(i).copied().unwrap_or(Element::ZERO);
        let c = (0..n)
            .map(|i| op(f, &at(&self.coeffs, i), &at(&other.coeffs, i)))
            .collect();
        Ok(self.ring.wrap(c))
    }
}

impl<const K: usize> PartialEq for Polynomial<K> {
    fn eq(&self, other: &Self) -> bool {
        self.ring.field() == other.ring.field() && self.coeffs == other.coeffs
    }
}

impl<const K: usize> Eq for Polynomial<K> {}

impl<const K: usize> fmt::Debug for Polynomial<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Polynomial({self})")
    }
}

/// Decimal coefficients, lowest degree first: `3 + 5*x + 1*x^2`; `0` for zero.
impl<const K: usize> fmt::Display for Polynomial<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.coeffs.is_empty() {
            return f.write_str("0");
        }
        let field = self.ring.field();
        let mut first = true;
        for (i, c) in self.coeffs.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
            if !first {
                f.write_str(" + ")?;
            }
            first = false;
            match i {
                0 => write!(f, "{}", field.display(c))?,
                1 => write!(f, "{}*x", field.display(c))?,
                _ => write!(f, "{}*x^{i}", field.display(c))?,
            }
        }
        Ok(())
    }
}
