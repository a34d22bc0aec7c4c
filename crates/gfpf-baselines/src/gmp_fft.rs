//! ISSAC 2019's GMP variant: the same six-step plan, driver and generated
//! codelets as gfpf-cpu, but every operation on rug integers (GMP): additions
//! with a conditional subtraction of p, and every multiplication, including
//! those by powers of r inside the base cases, a GMP product and remainder.

use gfpf_cpu::codelets::CodeletOps;
use gfpf_cpu::{CpuError, PlanArith, Threading, TwiddleLayout, run_plan, twiddle_table};
use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order, Plan};
use rug::Integer;
use rug::ops::SubFrom;

/// A planned transform on rug integers in [0, p).
pub struct GmpFft {
    plan: Plan,
    p: Integer,
    /// w^m, m < N/2k.
    table: Vec<Integer>,
    /// r^s, s < 2k.
    r_pows: Vec<Integer>,
    n_inv: Integer,
    words: usize,
    inverse: bool,
    k: usize,
}

impl GmpFft {
    /// Plans DFT_N over `field` (constants converted once from the field's).
    pub fn new<const K: usize>(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
    ) -> Result<Self, CpuError> {
        let plan = Plan::try_new(n, K, direction, order)?;
        let to_int = |x: &Element<K>| field.to_integer(x);
        let layout = TwiddleLayout::Full;
        let table = twiddle_table(
            field,
            n,
            direction,
            plan.twiddle_table_len(),
            layout,
            Threading::Parallel,
        )?;
        let table = table.into_full(field)?;
        let mut r_pows = Vec::with_capacity(2 * K);
        let mut acc = field.one();
        for _ in 0..2 * K {
            r_pows.push(to_int(&acc));
            acc = field.mul(&acc, &field.r_element());
        }
        Ok(GmpFft {
            plan,
            p: field.p().clone(),
            table: table.iter().map(to_int).collect(),
            r_pows,
            n_inv: to_int(&field.inverse(&field.from_u64(n as u64))?),
            words: K,
            inverse: direction == Direction::Inverse,
            k: K,
        })
    }

    /// The scratch length.
    pub fn scratch_len(&self) -> usize {
        self.plan.scratch_len()
    }

    /// Transforms `data` in place (the same driver as gfpf-cpu).
    pub fn process(&self, data: &mut [Integer], scratch: &mut [Integer], threading: Threading) -> Result<(), CpuError> {
        let arith = GmpArith { fft: self };
        run_plan(&self.plan, &arith, data, scratch, threading)
    }
}

struct GmpArith<'a> {
    fft: &'a GmpFft,
}

/// Codelet operations on rug integers.
pub struct GmpOps<'a> {
    fft: &'a GmpFft,
    twiddle_unit: Option<usize>,
}

impl GmpOps<'_> {
    fn mul_mod(&self, x: &mut Integer, y: &Integer) {
        *x *= y;
        *x %= &self.fft.p;
    }
}

impl CodeletOps for GmpOps<'_> {
    type Elem = Integer;

    fn butterfly(&self, x: &mut [Integer], a: usize, b: usize) {
        let (lo, hi) = x.split_at_mut(b);
        let (xa, xb) = (&mut lo[a], &mut hi[0]);
        // a' = a + b, b' = a' − 2b = a − b: in place, no allocation.
        *xa += &*xb;
        *xb <<= 1;
        xb.sub_from(&*xa);
        if *xa >= self.fft.p {
            *xa -= &self.fft.p;
        }
        if *xb < 0 {
            *xb += &self.fft.p;
        }
    }

    fn mul_root_power(&self, x: &mut [Integer], a: usize, j: usize, radix: usize) {
        let k2 = 2 * self.fft.k;
        let s = j * (k2 / radix);
        let s = if self.fft.inverse { k2 - s } else { s };
        self.mul_mod(&mut x[a], &self.fft.r_pows[s]);
    }

    fn twiddle(&self, x: &mut [Integer], a: usize) {
        if let Some(unit) = self.twiddle_unit {
            let (q, m) = self.fft.plan.split_exponent(a * unit);
            if m != 0 {
                self.mul_mod(&mut x[a], &self.fft.table[m]);
            }
            if q != 0 {
                let k2 = 2 * self.fft.k;
                let s = if self.fft.inverse { k2 - q } else { q };
                self.mul_mod(&mut x[a], &self.fft.r_pows[s]);
            }
        }
    }
}

impl PlanArith for GmpArith<'_> {
    type Elem = Integer;
    type DftScratch = ();
    type Ops<'b>
        = GmpOps<'b>
    where
        Self: 'b;
    fn words(&self) -> usize {
        self.fft.words
    }

    fn ops(&self, twiddle_unit: Option<usize>) -> GmpOps<'_> {
        GmpOps {
            fft: self.fft,
            twiddle_unit,
        }
    }

    fn scale(&self, x: &mut Integer) {
        *x *= &self.fft.n_inv;
        *x %= &self.fft.p;
    }
}
