//! The field's work behind one object-safe trait, so that Python's `Field`
//! and `Poly` hold a field whose digit count k is known only at run time.
//!
//! Everything here works on flat `u64` buffers: `n` elements are `n·k`
//! words, either base-r digits (the elements gfpf computes on, least
//! significant first) or the value's little-endian binary words (what a
//! Python int's bytes give). No method touches Python, so every one runs
//! with the GIL released.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use gfpf::{Device, Element, Error, Fft, Field, FieldError, FieldSpec, FieldVisitor, Order, PolyRing, RingOptions};
use rayon::prelude::*;

/// Elements converted per parallel task: below about this many a conversion
/// takes less than rayon's cost of spreading it.
const CONVERT_CHUNK: usize = 512;

/// A field of any supported k, with its polynomial ring and its cached
/// transform plans.
pub(crate) trait Engine: Send + Sync {
    /// k, the number of base-r digits (and of 64-bit words) per element.
    fn k(&self) -> usize;
    /// The field's description (name, r, sizes).
    fn info(&self) -> FieldInfo;
    /// The field's key: two fields are the same field when r and k agree
    /// (asked on every Poly operation, so not built from [`Engine::info`]).
    fn key(&self) -> (u64, usize);
    /// Binary words to digits in place, element by element; the first
    /// element whose value is not below p is the error.
    fn words_to_digits(&self, data: &mut [u64]) -> Result<(), (usize, FieldError)>;
    /// Digits to binary words in place.
    fn digits_to_words(&self, data: &mut [u64]);
    /// The first element that is not a canonical digit vector.
    fn check_digits(&self, data: &[u64]) -> Result<(), (usize, FieldError)>;
    /// Forward or inverse DFT_n of every n consecutive elements, in place;
    /// returns the device it ran on.
    fn fft(&self, data: &mut [u64], n: usize, inverse: bool, order: Order, device: Device) -> Result<Device, Error>;
    /// The product of two coefficient vectors (la + lb − 1 coefficients).
    fn mul(&self, a: &[u64], b: &[u64]) -> Result<Vec<u64>, Error>;
    /// The square of a coefficient vector.
    fn square(&self, a: &[u64]) -> Result<Vec<u64>, Error>;
    /// a + b (or a − b) coefficient by coefficient, the shorter padded.
    fn add(&self, a: &[u64], b: &[u64], subtract: bool) -> Vec<u64>;
    /// −a.
    fn neg(&self, a: &[u64]) -> Vec<u64>;
    /// c·a for one element c.
    fn scale(&self, a: &[u64], c: &[u64]) -> Vec<u64>;
    /// The polynomial's value at each point (Horner).
    fn evaluate(&self, coeffs: &[u64], points: &[u64]) -> Vec<u64>;
    /// The principal 2^log2_n-th root of unity the transforms use.
    fn root_of_unity(&self, log2_n: u32) -> Result<Vec<u64>, Error>;
    /// The frequency index at each position of a length-n transform in
    /// digit-reversed order on `device` (its plan's).
    fn digit_reversal(&self, n: usize, device: Device) -> Result<Vec<usize>, Error>;
}

/// What Python's `Field` shows of a field.
#[derive(Debug, Clone)]
pub(crate) struct FieldInfo {
    pub name: Option<&'static str>,
    pub r: u64,
    pub sparse: String,
    pub bits: u32,
    pub two_adicity: u32,
    /// p as k little-endian words.
    pub p_words: Vec<u64>,
}

/// Builds the engine of `spec`, its products on `device`.
pub(crate) fn engine(spec: &FieldSpec, device: Device) -> Result<Arc<dyn Engine>, Error> {
    struct Build(Device);
    impl FieldVisitor for Build {
        type Output = Result<Arc<dyn Engine>, Error>;
        fn visit<const K: usize>(self, field: Field<K>) -> Self::Output {
            let ring = PolyRing::with_options(
                &field,
                RingOptions {
                    device: self.0,
                    ..RingOptions::default()
                },
            )?;
            Ok(Arc::new(FieldEngine {
                field,
                ring,
                ffts: Mutex::new(HashMap::new()),
            }))
        }
    }
    spec.visit(Build(device))?
}

struct FieldEngine<const K: usize> {
    field: Field<K>,
    ring: PolyRing<K>,
    /// Plans by (n, inverse's order, device asked for). Built outside the
    /// lock (planning runs rayon work) and then published.
    ffts: Mutex<HashMap<(usize, Order, Device), Arc<Fft<K>>>>,
}

impl<const K: usize> FieldEngine<K> {
    fn plan(&self, n: usize, order: Order, device: Device) -> Result<Arc<Fft<K>>, Error> {
        let key = (n, order, device);
        if let Some(fft) = self.lock_ffts().get(&key) {
            return Ok(fft.clone());
        }
        let fft = Arc::new(Fft::builder(&self.field, n).order(order).device(device).build()?);
        Ok(self.lock_ffts().entry(key).or_insert(fft).clone())
    }

    fn lock_ffts(&self) -> std::sync::MutexGuard<'_, HashMap<(usize, Order, Device), Arc<Fft<K>>>> {
        // The lock guards only map lookups and inserts, which cannot panic
        // half-way; a poisoned map is still consistent.
        self.ffts.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn elements(data: &[u64]) -> &[Element<K>] {
        bytemuck::cast_slice(data)
    }

    fn elements_mut(data: &mut [u64]) -> &mut [Element<K>] {
        bytemuck::cast_slice_mut(data)
    }

    fn words(elements: Vec<Element<K>>) -> Vec<u64> {
        // Element<K> is repr(transparent) over [u64; K]: the same bytes.
        let mut elements = std::mem::ManuallyDrop::new(elements);
        let (ptr, len, cap) = (elements.as_mut_ptr(), elements.len(), elements.capacity());
        // SAFETY: the allocation holds `cap` values of [u64; K] (Pod, align
        // of u64), that is cap·K u64 with the same layout and alignment; the
        // original vector is not dropped.
        unsafe { Vec::from_raw_parts(ptr.cast::<u64>(), len * K, cap * K) }
    }
}

impl<const K: usize> Engine for FieldEngine<K> {
    fn k(&self) -> usize {
        K
    }

    fn key(&self) -> (u64, usize) {
        (self.field.r(), K)
    }

    fn info(&self) -> FieldInfo {
        let f = &self.field;
        FieldInfo {
            name: f.name(),
            r: f.r(),
            sparse: f.sparse().to_string(),
            bits: f.bits(),
            two_adicity: f.two_adicity(),
            p_words: {
                // p = r^k + 1 < 2^(64k): p − 1's words plus one, carried.
                let mut words = f.to_words(&f.minus_one()).to_vec();
                for w in words.iter_mut() {
                    let (sum, carry) = w.overflowing_add(1);
                    *w = sum;
                    if !carry {
                        break;
                    }
                }
                words
            },
        }
    }

    fn words_to_digits(&self, data: &mut [u64]) -> Result<(), (usize, FieldError)> {
        let field = &self.field;
        let first_error = Self::elements_mut(data)
            .par_chunks_mut(CONVERT_CHUNK)
            .enumerate()
            .filter_map(|(chunk, elements)| {
                for (i, x) in elements.iter_mut().enumerate() {
                    match field.from_words(x.digits()) {
                        Ok(digits) => *x = digits,
                        Err(e) => return Some((chunk * CONVERT_CHUNK + i, e)),
                    }
                }
                None
            })
            .min_by_key(|(index, _)| *index);
        first_error.map_or(Ok(()), Err)
    }

    fn digits_to_words(&self, data: &mut [u64]) {
        let field = &self.field;
        Self::elements_mut(data)
            .par_chunks_mut(CONVERT_CHUNK)
            .for_each(|elements| {
                for x in elements {
                    *x = Element::from_digits_unchecked(field.to_words(x));
                }
            });
    }

    fn check_digits(&self, data: &[u64]) -> Result<(), (usize, FieldError)> {
        self.field.first_non_canonical(Self::elements(data)).map_or(Ok(()), Err)
    }

    fn fft(&self, data: &mut [u64], n: usize, inverse: bool, order: Order, device: Device) -> Result<Device, Error> {
        let fft = self.plan(n, order, device)?;
        let elements = Self::elements_mut(data);
        if inverse {
            fft.inverse(elements)?;
        } else {
            fft.forward(elements)?;
        }
        Ok(fft.device())
    }

    fn mul(&self, a: &[u64], b: &[u64]) -> Result<Vec<u64>, Error> {
        let product = self.ring.mul_coeffs(Self::elements(a), Self::elements(b))?;
        Ok(Self::words(product))
    }

    fn square(&self, a: &[u64]) -> Result<Vec<u64>, Error> {
        Ok(Self::words(self.ring.square_coeffs(Self::elements(a))?))
    }

    fn add(&self, a: &[u64], b: &[u64], subtract: bool) -> Vec<u64> {
        let (a, b) = (Self::elements(a), Self::elements(b));
        let zero = Element::ZERO;
        let sum = (0..a.len().max(b.len()))
            .map(|i| {
                let (x, y) = (a.get(i).unwrap_or(&zero), b.get(i).unwrap_or(&zero));
                if subtract {
                    self.field.sub(x, y)
                } else {
                    self.field.add(x, y)
                }
            })
            .collect();
        Self::words(sum)
    }

    fn neg(&self, a: &[u64]) -> Vec<u64> {
        Self::words(Self::elements(a).iter().map(|x| self.field.neg(x)).collect())
    }

    fn scale(&self, a: &[u64], c: &[u64]) -> Vec<u64> {
        let c = &Self::elements(c)[0];
        Self::words(Self::elements(a).iter().map(|x| self.field.mul(x, c)).collect())
    }

    fn evaluate(&self, coeffs: &[u64], points: &[u64]) -> Vec<u64> {
        let coeffs = Self::elements(coeffs);
        let horner = |x: &Element<K>| {
            coeffs
                .iter()
                .rev()
                .fold(Element::ZERO, |acc, c| self.field.add(&self.field.mul(&acc, x), c))
        };
        Self::words(Self::elements(points).par_iter().map(horner).collect())
    }

    fn root_of_unity(&self, log2_n: u32) -> Result<Vec<u64>, Error> {
        Ok(Self::words(vec![self.field.root_of_unity(log2_n)?]))
    }

    fn digit_reversal(&self, n: usize, device: Device) -> Result<Vec<usize>, Error> {
        let fft = self.plan(n, Order::DigitReversed, device)?;
        Ok((0..n).filter_map(|l| fft.digit_reverse(l)).collect())
    }
}
