//! The executor contract of gfpf: one trait every FFT executor over
//! GF(r^k + 1) implements ([`Transform`]), the prepared plan they all build
//! ([`PreparedFft`]) and the errors they all can return ([`TransformError`]).
//!
//! **Contract** (DESIGN §1, §3). A [`Transform`] of size N computes, for every
//! N consecutive elements of the slice it is given (a batch), in place:
//!
//! * forward: y_i = Σ_j x_j ω_N^(ij), ω_N of the field's canonical tower, not
//!   scaled; inverse: x_j = N^{-1} Σ_i y_i ω_N^(−ij), so inverse ∘ forward = id;
//! * in [`Order::Natural`] both sides in natural order; in
//!   [`Order::DigitReversed`] the forward output and the inverse input in the
//!   plan's mixed-radix digit-reversed order (no permutation pass: what
//!   convolutions want);
//! * the same results, bit for bit, on every executor.
//!
//! A slice whose length is not a multiple of N, or a scratch buffer shorter
//! than [`Transform::scratch_len`], is an error and leaves the data as it was.
//!
//! ```
//! use gfpf_executor::{PreparedFft, Transform, TransformError};
//! use gfpf_field::{Element, Field, Preset};
//! use gfpf_plan::{Direction, Order};
//!
//! /// Any executor: here, a naive O(N²) one written against the contract.
//! struct Naive<const K: usize>(PreparedFft<K>);
//!
//! impl<const K: usize> Transform<K> for Naive<K> {
//!     type Error = TransformError;
//!     fn prepared(&self) -> &PreparedFft<K> {
//!         &self.0
//!     }
//!     fn scratch_len(&self) -> usize {
//!         self.len()
//!     }
//!     fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), TransformError> {
//!         let (n, f) = (self.len(), self.field());
//!         self.check_lengths(data.len(), scratch.len())?;
//!         let mut w = f.root_of_unity(n.trailing_zeros())?;
//!         if self.direction() == Direction::Inverse {
//!             w = f.inverse(&w)?;
//!         }
//!         for x in data.chunks_exact_mut(n) {
//!             for (i, y) in scratch[..n].iter_mut().enumerate() {
//!                 *y = x.iter().enumerate().fold(f.zero(), |acc, (j, xj)| {
//!                     f.add(&acc, &f.mul(xj, &f.pow_u64(&w, (i * j % n) as u64)))
//!                 });
//!             }
//!             for (x, y) in x.iter_mut().zip(&scratch[..n]) {
//!                 *x = if self.direction() == Direction::Inverse { f.mul(y, self.prepared().n_inv()) } else { *y };
//!             }
//!         }
//!         Ok(())
//!     }
//! }
//!
//! let field = Field::<4>::preset(Preset::P4)?;
//! let x: Vec<_> = (0..16).map(|i| field.from_u64(i)).collect();
//! let forward = Naive(PreparedFft::try_new(&field, 8, Direction::Forward, Order::Natural)?);
//! let inverse = Naive(PreparedFft::try_new(&field, 8, Direction::Inverse, Order::Natural)?);
//! let mut y = x.clone();
//! forward.process(&mut y)?;                                   // a batch of two
//! assert_eq!(y[0], field.from_u64(28));                       // 0 + 1 + … + 7
//! inverse.process(&mut y)?;
//! assert_eq!(y, x);
//! assert!(matches!(forward.process(&mut y[..12]), Err(TransformError::LengthNotMultiple { len: 12, n: 8 })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// This crate's README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

use std::sync::Arc;

mod memory;
mod twiddles;
pub use memory::{CHECK_FITS_MIN_BYTES, check_fits, memory_limit, try_zeroed_elements};
pub use twiddles::{FULL_TWIDDLE_TABLE_MAX_BYTES, TableFiller, TwiddleLayout, TwiddleTable};

use gfpf_field::{Element, Field, FieldError};
pub use gfpf_plan::{Direction, Order};
use gfpf_plan::{Plan, PlanError};

/// What every executor can refuse. Each executor's error type wraps this one
/// (`From<TransformError>`) and adds only its own causes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransformError {
    /// The size is not a power of two (or the base size is invalid).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A field operation failed while building the plan's constants.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// N = 2^m needs a primitive N-th root of unity, which exists only for
    /// m ≤ v, the 2-adicity of p − 1.
    #[error("transform size {n} exceeds 2^{two_adicity}, the largest power of two dividing p - 1")]
    AboveTwoAdicity {
        /// N.
        n: usize,
        /// v.
        two_adicity: u32,
    },
    /// An allocation of a size `n` drives was refused (or its size does not
    /// fit in memory at all).
    #[error("{what} = {n} needs more memory than can be allocated")]
    TooLarge {
        /// The number that drove the allocation (what `what` names).
        n: usize,
        /// What `n` is: "transform size N", "TFT size", "multi-modular
        /// working space, in 64-bit words", ...
        what: &'static str,
    },
    /// What a transform or product will need exceeds what this process may
    /// use ([`memory_limit`]): refused before anything is allocated.
    #[error(
        "{what} = {n} needs {needed} at least; this process may use {limit} (memory and swap, or ulimit -v)",
        needed = memory::human_bytes(*needed_bytes),
        limit = memory::human_bytes(*limit_bytes)
    )]
    OutOfMemory {
        /// The number that drives the need (what `what` names).
        n: usize,
        /// What `n` is.
        what: &'static str,
        /// The estimate, in bytes.
        needed_bytes: u64,
        /// What this process may use, in bytes.
        limit_bytes: u64,
    },
    /// A batch's length must be a multiple of N.
    #[error("data length {len} is not a multiple of the transform size {n}")]
    LengthNotMultiple {
        /// The slice length.
        len: usize,
        /// N.
        n: usize,
    },
    /// The caller's scratch buffer is shorter than the executor needs.
    #[error("scratch buffer has {len} elements, the transform needs {needed}")]
    ScratchTooShort {
        /// Its length.
        len: usize,
        /// What the transform needs.
        needed: usize,
    },
}

/// An executor's error type: [`TransformError`] plus the executor's own
/// causes. `common` gives the shared part back, so that code written against
/// [`Transform`] can tell a bad length from a driver failure.
pub trait ExecutorError: std::error::Error + From<TransformError> + Send + Sync + 'static {
    /// The refusal every executor shares, if this is one.
    fn common(&self) -> Option<&TransformError>;
}

impl ExecutorError for TransformError {
    fn common(&self) -> Option<&TransformError> {
        Some(self)
    }
}

/// What an executor builds once per (field, N, direction, order): the plan,
/// the twiddle table w^m for m < N/2k (w = ω_N forward, ω_N^{-1} inverse;
/// every twiddle w^e of the plan is r^q·w^m, a shift and one table entry,
/// kept whole or in two levels: [`TwiddleTable`]) and N^{-1}. Cloning shares
/// the table.
#[derive(Clone, PartialEq, Eq)]
pub struct PreparedFft<const K: usize> {
    field: Field<K>,
    plan: Plan,
    /// Vectors behind the `Arc`, not a slice: `Arc<[T]>::from(Vec)` would
    /// copy a table of gigabytes into a second allocation.
    table: Arc<TwiddleTable<K>>,
    n_inv: Element<K>,
}

impl<const K: usize> std::fmt::Debug for PreparedFft<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedFft")
            .field("field", &self.field.name().unwrap_or("custom"))
            .field("plan", &self.plan)
            .field("table", &self.table)
            .finish()
    }
}

impl<const K: usize> PreparedFft<K> {
    /// Plans DFT_N over `field` and computes its constants on this thread.
    ///
    /// Errors: N not a power of two, above the 2-adicity, or too large for
    /// memory (checked before anything of size N is allocated).
    pub fn try_new(field: &Field<K>, n: usize, direction: Direction, order: Order) -> Result<Self, TransformError> {
        Self::try_new_with(field, n, direction, order, TwiddleLayout::Auto, |table, filler| {
            for (c, chunk) in table.chunks_mut(TableFiller::<K>::CHUNK).enumerate() {
                filler.fill(c, chunk);
            }
        })
    }

    /// As [`PreparedFft::try_new`], with the twiddle table kept as `layout`
    /// says and its chunks of [`TableFiller::CHUNK`] entries filled by
    /// `fill_table` (which may run them in parallel; it is called once per
    /// level): `fill_table(table, filler)` must call `filler.fill(c, chunk)`
    /// for every chunk `c` of `table`.
    pub fn try_new_with(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        layout: TwiddleLayout,
        fill_table: impl Fn(&mut [Element<K>], &TableFiller<'_, K>),
    ) -> Result<Self, TransformError> {
        let plan = Plan::try_new(n, K, direction, order)?;
        let v = field.two_adicity();
        if n.trailing_zeros() > v {
            return Err(TransformError::AboveTwoAdicity { n, two_adicity: v });
        }
        if n.checked_mul(size_of::<Element<K>>())
            .is_none_or(|bytes| bytes > isize::MAX as usize)
        {
            return Err(TransformError::TooLarge {
                n,
                what: "transform size N",
            });
        }
        let table = TwiddleTable::try_build(field, n, direction, plan.twiddle_table_len(), layout, fill_table)?;
        let n_inv = field.inverse(&field.from_u64(n as u64))?;
        Ok(PreparedFft {
            field: field.clone(),
            plan,
            table: Arc::new(table),
            n_inv,
        })
    }

    /// The same transform planned with no base DFT larger than `max_radix`
    /// and the remainder radix outermost ([`Plan::try_with_max_radix`]: the
    /// device's plans); the twiddle table and N^{-1} do not depend on the
    /// radices and are kept.
    ///
    /// Errors: `max_radix` not a power of two from 2 to 2k.
    pub fn with_max_radix(self, max_radix: usize) -> Result<Self, TransformError> {
        let p = &self.plan;
        let plan = Plan::try_with_max_radix(p.len(), K, p.direction(), p.order(), max_radix)?;
        Ok(PreparedFft { plan, ..self })
    }

    /// The same transform on the host's plan ([`Plan::try_new`]: base DFTs
    /// up to 2k, the remainder innermost), which [`PreparedFft::try_new`]
    /// makes; for undoing [`PreparedFft::with_max_radix`].
    pub fn with_host_plan(self) -> Result<Self, TransformError> {
        let p = &self.plan;
        let plan = Plan::try_new(p.len(), K, p.direction(), p.order())?;
        Ok(PreparedFft { plan, ..self })
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        &self.field
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// w^m for m < N/2k (shared by clones).
    pub fn table(&self) -> &TwiddleTable<K> {
        &self.table
    }

    /// N^{-1}.
    pub fn n_inv(&self) -> &Element<K> {
        &self.n_inv
    }
}

/// An FFT executor over GF(r^k + 1): one planned transform of size N, run in
/// place on batches (see the crate docs for the contract). Implemented by
/// `gfpf_cpu::CpuFft`, `gfpf_cuda::CudaFft` (host slices) and
/// `gfpf_cuda::EmulatedFft`.
pub trait Transform<const K: usize>: Send + Sync {
    /// The executor's error: [`TransformError`] plus its own causes.
    type Error: ExecutorError;

    /// The plan, twiddle table and N^{-1} this transform runs.
    fn prepared(&self) -> &PreparedFft<K>;

    /// Elements of scratch [`Transform::process_with_scratch`] needs (for any
    /// batch length).
    fn scratch_len(&self) -> usize;

    /// Transforms every N consecutive elements of `data` in place; `scratch`
    /// (any contents, at least [`Transform::scratch_len`] long) is
    /// overwritten. On error `data` is unchanged.
    fn process_with_scratch(&self, data: &mut [Element<K>], scratch: &mut [Element<K>]) -> Result<(), Self::Error>;

    /// As [`Transform::process_with_scratch`], allocating the scratch
    /// (refused as [`TransformError::TooLarge`] when it cannot be).
    fn process(&self, data: &mut [Element<K>]) -> Result<(), Self::Error> {
        let mut scratch = try_zeroed_elements(self.scratch_len(), self.len(), "transform size N (its scratch)")?;
        self.process_with_scratch(data, &mut scratch)
    }

    /// N.
    fn len(&self) -> usize {
        self.prepared().plan().len()
    }

    /// Always false (N ≥ 1).
    fn is_empty(&self) -> bool {
        false
    }

    /// Forward or inverse.
    fn direction(&self) -> Direction {
        self.prepared().plan().direction()
    }

    /// The order of the transformed side.
    fn order(&self) -> Order {
        self.prepared().plan().order()
    }

    /// The field.
    fn field(&self) -> &Field<K> {
        self.prepared().field()
    }

    /// The checks every executor makes before touching data: the batch is a
    /// multiple of N, the scratch is long enough.
    fn check_lengths(&self, data_len: usize, scratch_len: usize) -> Result<(), TransformError> {
        let n = self.len();
        if !data_len.is_multiple_of(n) {
            return Err(TransformError::LengthNotMultiple { len: data_len, n });
        }
        let needed = self.scratch_len();
        if scratch_len < needed {
            return Err(TransformError::ScratchTooShort {
                len: scratch_len,
                needed,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::Preset;

    #[test]
    fn table_is_the_powers_of_w_and_n_inv_inverts_n() {
        let f = Field::<8>::preset(Preset::T8).unwrap();
        for direction in [Direction::Forward, Direction::Inverse] {
            let p = PreparedFft::try_new(&f, 1 << 16, direction, Order::Natural).unwrap();
            let mut w = f.root_of_unity(16).unwrap();
            if direction == Direction::Inverse {
                w = f.inverse(&w).unwrap();
            }
            assert_eq!(p.table().len(), (1 << 16) / 16);
            assert!(p.table().len() > 2 * TableFiller::<8>::CHUNK, "several chunks");
            for (m, entry) in p.table().full().unwrap().iter().enumerate() {
                assert_eq!(*entry, f.pow_u64(&w, m as u64), "m = {m}");
            }
            assert_eq!(f.mul(p.n_inv(), &f.from_u64(1 << 16)), f.one());
        }
    }

    #[test]
    fn a_transform_of_two_to_the_31_plans_with_a_table_of_megabytes() {
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        let p = PreparedFft::try_new(&t8, 1 << 31, Direction::Inverse, Order::Natural).unwrap();
        assert_eq!(p.table().layout(), TwiddleLayout::Split);
        assert_eq!(p.table().len(), 1 << 27);
        assert_eq!(p.table().stored_len(), (1 << 14) + (1 << 13), "1.5 MiB, not 8 GiB");
        let w_inv = t8.inverse(&t8.root_of_unity(31).unwrap()).unwrap();
        for m in [1, (1 << 27) - 1, 123_456_789] {
            assert_eq!(p.table().get(&t8, m), t8.pow_u64(&w_inv, m as u64), "m = {m}");
        }
    }

    #[test]
    fn refusals() {
        let p4 = Field::<4>::preset(Preset::P4).unwrap();
        let at = |n| PreparedFft::try_new(&p4, n, Direction::Forward, Order::Natural);
        assert!(matches!(at(12), Err(TransformError::Plan(_))));
        assert!(matches!(at(0), Err(TransformError::Plan(_))));
        assert_eq!(
            at(1 << 45).unwrap_err(),
            TransformError::AboveTwoAdicity {
                n: 1 << 45,
                two_adicity: 44
            }
        );
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        assert!(matches!(
            PreparedFft::try_new(&t8, 1 << 62, Direction::Forward, Order::Natural),
            Err(TransformError::TooLarge {
                what: "transform size N",
                ..
            })
        ));
    }
}
