//! What every executor of this crate builds once per (field, N, direction,
//! order): the shared [`PreparedFft`] (plan, twiddle table, N^{-1}), the base
//! sizes its kernels need, and the launches of its plan.

use gfpf_executor::{PreparedFft, TableFiller, TransformError, TwiddleLayout};
use gfpf_field::Field;
use gfpf_plan::{Direction, Order, Plan};

use crate::CudaError;
use crate::params::{DeviceShape, Launch, launches_on, radices_used};

/// A planned transform's host-side data, ready to upload.
#[derive(Debug, Clone)]
pub(crate) struct Prepared<const K: usize> {
    pub fft: PreparedFft<K>,
    /// The distinct base sizes the plan's stages use.
    pub radices: Vec<usize>,
}

impl<const K: usize> Prepared<K> {
    pub fn new(field: &Field<K>, n: usize, direction: Direction, order: Order) -> Result<Self, CudaError> {
        // The table's chunks are independent: fill them on every host core
        // (this crate has no thread pool; scoped threads suffice). Whole: the
        // kernels read one entry per twiddle.
        let fft = PreparedFft::try_new_with(field, n, direction, order, TwiddleLayout::Full, |table, filler| {
            let chunk = TableFiller::<K>::CHUNK;
            let threads = std::thread::available_parallelism().map_or(1, usize::from);
            let per_thread = table.len().div_ceil(chunk).div_ceil(threads).max(1) * chunk;
            std::thread::scope(|scope| {
                for (t, part) in table.chunks_mut(per_thread).enumerate() {
                    scope.spawn(move || {
                        for (c, piece) in part.chunks_mut(chunk).enumerate() {
                            filler.fill(t * per_thread / chunk + c, piece);
                        }
                    });
                }
            });
        })?
        // Base DFTs no larger than a lane kernel holds in registers.
        .with_max_radix(gfpf_kernels::device_max_radix(K))?;
        Ok(Prepared {
            radices: radices_used(fft.plan()),
            fft,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        self.fft.plan()
    }

    /// The field.
    pub fn field(&self) -> &Field<K> {
        self.fft.field()
    }

    /// The launches for `len` elements (a multiple of N; none for 0) on
    /// `device` ([`launches_on`], for this field: [`DeviceShape::for_field`]).
    pub fn launches_for(&self, len: usize, device: &DeviceShape) -> Result<Vec<Launch>, CudaError> {
        let n = self.plan().len();
        if len == 0 {
            return Ok(Vec::new());
        }
        if !len.is_multiple_of(n) {
            return Err(TransformError::LengthNotMultiple { len, n }.into());
        }
        Ok(launches_on(self.plan(), len / n, &device.for_field(self.field())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::device_twiddle_table;
    use gfpf_field::Preset;

    #[test]
    fn parallel_table_equals_the_serial_one() {
        let f = Field::<8>::preset(Preset::T8).unwrap();
        for n in [1 << 16, 1 << 12, 32] {
            let parallel = Prepared::new(&f, n, Direction::Forward, Order::Natural).unwrap();
            let serial = PreparedFft::try_new(&f, n, Direction::Forward, Order::Natural)
                .and_then(|p| p.with_max_radix(gfpf_kernels::device_max_radix(8)))
                .unwrap();
            assert_eq!(parallel.fft, serial, "N = {n}");
        }
    }

    /// The device's whole table is w^e for every e < N (each entry the one
    /// before times w, w^(N/2) = −1, the inverse plan's w the forward's
    /// inverse); past FULL_TWIDDLE_TABLE_MAX_BYTES it is the plan's M = N/2k.
    #[test]
    fn whole_twiddle_tables_are_every_power() {
        use crate::params::{FULL_TWIDDLE_TABLE_MAX_BYTES, device_twiddle_entries};
        let f = Field::<8>::preset(Preset::T8).unwrap();
        let entries = |n, direction| -> Vec<gfpf_field::Element<8>> {
            let words = device_twiddle_table(&Prepared::new(&f, n, direction, Order::Natural).unwrap().fft).unwrap();
            words
                .chunks(8)
                .map(|d| f.element(d.try_into().unwrap()).unwrap())
                .collect()
        };
        for n in [32, 512, 4096] {
            let forward = entries(n, Direction::Forward);
            let inverse = entries(n, Direction::Inverse);
            assert_eq!((forward.len(), inverse.len()), (n, n));
            assert_eq!(f.mul(&forward[1], &inverse[1]), f.one(), "N = {n}");
            assert_eq!(forward[n / 2], f.neg(&f.one()), "N = {n}");
            for table in [&forward, &inverse] {
                assert_eq!(table[0], f.one());
                for e in 1..n {
                    assert_eq!(table[e], f.mul(&table[e - 1], &table[1]), "N = {n}, e = {e}");
                }
            }
        }
        let whole = FULL_TWIDDLE_TABLE_MAX_BYTES / 64;
        assert_eq!(device_twiddle_entries(whole, 8), whole);
        assert_eq!(device_twiddle_entries(2 * whole, 8), 2 * whole / 16);
        assert_eq!(device_twiddle_entries(16, 8), 1);
        assert_eq!(entries(2 * whole, Direction::Forward).len(), 2 * whole / 16);
    }

    #[test]
    fn table_and_inverse_size() {
        let f = Field::<8>::preset(Preset::T8).unwrap();
        let p = Prepared::new(&f, 1024, Direction::Inverse, Order::Natural).unwrap();
        // Small enough to keep whole: w^e for every e < N.
        assert_eq!(device_twiddle_table(&p.fft).unwrap().len(), 8 * 1024);
        assert_eq!(f.mul(p.fft.n_inv(), &f.from_u64(1024)), f.one());
        assert_eq!(
            p.launches_for(1000, &DeviceShape::H100).unwrap_err(),
            CudaError::Transform(TransformError::LengthNotMultiple { len: 1000, n: 1024 })
        );
        assert_eq!(p.launches_for(0, &DeviceShape::H100).unwrap(), vec![]);
        // N ≤ 2k: no twiddles, still a one-element device table.
        assert_eq!(
            device_twiddle_table(&Prepared::new(&f, 16, Direction::Forward, Order::Natural).unwrap().fft)
                .unwrap()
                .len(),
            8
        );
        assert!(matches!(
            Prepared::new(
                &Field::<4>::preset(Preset::P4).unwrap(),
                1 << 45,
                Direction::Forward,
                Order::Natural
            ),
            Err(CudaError::Transform(TransformError::AboveTwoAdicity { .. }))
        ));
    }
}
