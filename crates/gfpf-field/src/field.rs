//! The field value: constants built once, shared by every operation.

use std::fmt;

use rug::Integer;
use rug::integer::IsPrime;
use rug::ops::Pow;

use crate::FieldError;
use crate::conv::{Convolution, MulMethod};
use crate::element::Element;
use crate::preset::Preset;
use crate::sparse::SparseRadix;
use crate::wide::{Acc192, Divisor};

/// Roots ω_{2^m} for m up to this bound are tabulated when the field is built;
/// larger orders (only meaningful for huge transforms) are derived on demand.
pub const ROOT_TABLE_MAX_LOG2: u32 = 64;

/// How [`Field::mul`] accumulates and normalises, chosen when the field is
/// built from exact bounds on the offset coefficients z_i and the carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MulKernel {
    /// Every z_i + carry < r·2^64: `u128` sums and one word division by r per
    /// digit (p4, p8, p16: r < 2^60 and small k).
    NarrowSingle,
    /// Every z_i + carry < 2^128: `u128` sums, two divisions per digit (the
    /// other p-presets).
    Narrow,
    /// 192-bit sums, two divisions per digit (the t-presets, r ≈ 2^63..2^64).
    Wide,
}

impl MulKernel {
    /// A short description, e.g. for tables.
    pub fn describe(self) -> &'static str {
        match self {
            MulKernel::NarrowSingle => "schoolbook, 128-bit sums, 1 division/digit",
            MulKernel::Narrow => "schoolbook, 128-bit sums, 2 divisions/digit",
            MulKernel::Wide => "schoolbook, 192-bit sums, 2 divisions/digit",
        }
    }
}

/// From this k on, a field whose CRT bound 2·k·r² is met by **two** 62-bit
/// primes (the p-presets, r < 2^60) multiplies by convolution (ISSAC 2019
/// Algorithm 1) instead of schoolbook.
///
/// Measured with `field_tour --compare` (one thread, Xeon 2.8 GHz, 10^5 products, two
/// runs): p128 convolution 12.2–13.0 µs vs schoolbook 13.4–14.3 µs; p64
/// 5.8–6.0 µs vs 3.7–4.0 µs. Schoolbook grows as k², the convolution as
/// k·log k. Since schoolbook forms two coefficients per pass, p128 is a tie
/// (convolution 12.3–13.3 µs, schoolbook 12.3–14.1 µs over four runs); the
/// threshold stays, as the convolution's k·log k growth favours it beyond.
pub const CONVOLUTION_MIN_K_TWO_PRIMES: usize = 128;

/// The same threshold for fields that need **three** primes (the t-presets,
/// r ≈ 2^63..2^64): at k = 128 schoolbook still wins (t128: 13.3–14.6 µs vs
/// 19.4–21.1 µs), so the switch is at the next power of two, k = 256, which
/// only custom fields reach — an extrapolation, not a measurement.
pub const CONVOLUTION_MIN_K_THREE_PRIMES: usize = 256;

/// Miller–Rabin repetitions passed to GMP for custom primes. GMP runs a
/// Baillie–PSW test first; repetitions beyond 24 add random-base rounds.
const PRIMALITY_REPS: u32 = 26;

/// The prime field GF(p), p = r^k + 1 with k = `K` digits of radix r.
///
/// Built once (it precomputes the reciprocal of r, the offsets of the
/// multiplication, the non-residue and the canonical root tower of DESIGN §1)
/// and then passed by reference to every operation; operations allocate
/// nothing and never call GMP.
///
/// ```
/// use gfpf_field::{Field, Preset};
/// let f = Field::<8>::preset(Preset::T8)?;
/// let x = f.parse("123456789012345678901234567890")?;
/// let y = f.mul(&x, &f.r_element());          // x·r
/// assert_eq!(y, f.mul_pow_r(&x, 1));          // the same, as a digit shift
/// assert_eq!(f.to_integer(&y), f.to_integer(&x) * f.r() % f.p());
/// # Ok::<(), gfpf_field::FieldError>(())
/// ```
#[derive(Clone)]
pub struct Field<const K: usize> {
    pub(crate) preset: Option<Preset>,
    pub(crate) r: u64,
    pub(crate) sparse: SparseRadix,
    pub(crate) p: Integer,
    pub(crate) bits: u32,
    /// p - 1 as k little-endian words (p < 2^(64k)), for range checks.
    pub(crate) p_minus_one_words: [u64; K],
    /// r^(2^j) for 2^j < K: the divisors that split a value into halves of
    /// its base-r digits ([`Field::from_words`] for large k).
    pub(crate) radix_powers: Vec<Integer>,
    pub(crate) r_div: Divisor,
    /// Added to negacyclic coefficient 0 so it is non-negative: G(r+1), G = k(r+2).
    pub(crate) offset_first: Acc192,
    /// Added to coefficients 1..k: G(r-1). Σ offsets·r^i = G(r^k + 1) ≡ 0.
    pub(crate) offset_rest: Acc192,
    pub(crate) mul_kernel: MulKernel,
    pub(crate) mul_method: MulMethod,
    pub(crate) convolution: Option<Convolution>,
    two_adicity: u32,
    nonresidue: u64,
    omega_max: Element<K>,
    /// roots[m] = ω_{2^m} of the canonical tower, m = 0..=min(v, ROOT_TABLE_MAX_LOG2).
    roots: Vec<Element<K>>,
}

impl<const K: usize> fmt::Debug for Field<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("name", &self.name())
            .field("r", &self.r)
            .field("sparse", &self.sparse)
            .field("k", &K)
            .field("bits", &self.bits)
            .field("two_adicity", &self.two_adicity)
            .finish_non_exhaustive()
    }
}

/// Two fields are equal when they have the same r and k (hence the same p).
impl<const K: usize> PartialEq for Field<K> {
    fn eq(&self, other: &Self) -> bool {
        self.r == other.r
    }
}

impl<const K: usize> Eq for Field<K> {}

impl<const K: usize> Field<K> {
    /// The field of a preset. Fails if the preset's k is not `K`.
    pub fn preset(preset: Preset) -> Result<Self, FieldError> {
        if preset.k() != K {
            return Err(FieldError::DigitCountMismatch {
                preset: preset.name(),
                preset_k: preset.k(),
                requested_k: K,
            });
        }
        // Presets were checked prime (and the tests check again): skip the test here.
        Self::build(Some(preset), preset.r(), preset.sparse(), false)
    }

    /// The field of a preset given by name (`"t8"`, `"p16"`, ...).
    pub fn from_name(name: &str) -> Result<Self, FieldError> {
        Self::preset(Preset::from_name(name)?)
    }

    /// A custom field p = r^K + 1 with r given together with its sparse form.
    ///
    /// Checks that K is a power of two ≥ 2, that 2^32 ≤ r < 2^64, that the
    /// sparse form equals r, and that p is a probable prime (Baillie–PSW plus
    /// Miller–Rabin rounds, by GMP).
    pub fn custom(r: u64, sparse: SparseRadix) -> Result<Self, FieldError> {
        if sparse.value() != r as i128 {
            return Err(FieldError::SparseFormMismatch {
                r,
                sparse: sparse.to_string(),
                sparse_value: sparse.value().to_string(),
            });
        }
        Self::build(None, r, sparse, true)
    }

    /// A custom field whose radix is the value of `sparse` (see [`Field::custom`]).
    pub fn from_sparse(sparse: SparseRadix) -> Result<Self, FieldError> {
        let r = sparse
            .value_u64()
            .ok_or_else(|| FieldError::RadixOutOfRange(sparse.value().to_string()))?;
        Self::custom(r, sparse)
    }

    fn build(preset: Option<Preset>, r: u64, sparse: SparseRadix, check_prime: bool) -> Result<Self, FieldError> {
        if K < 2 || !K.is_power_of_two() {
            return Err(FieldError::UnsupportedDigitCount(K));
        }
        if r < 1 << 32 {
            return Err(FieldError::RadixOutOfRange(r.to_string()));
        }
        let p = Integer::from(r).pow(K as u32) + 1u32;
        if check_prime && p.is_probably_prime(PRIMALITY_REPS) == IsPrime::No {
            return Err(FieldError::NotPrime { r, k: K });
        }
        // p - 1 = r^K, so its 2-adic valuation is K times that of r.
        let two_adicity = K as u32 * r.trailing_zeros();
        let g = K as u128 * (r as u128 + 2);
        let offset_first = Acc192::mul_u64_u128(r + 1, g);
        let mut p_minus_one_words = [0u64; K];
        Integer::from(&p - 1u32).write_digits(&mut p_minus_one_words, rug::integer::Order::Lsf);
        let mut field = Self {
            preset,
            r,
            sparse,
            bits: p.significant_bits(),
            p_minus_one_words,
            radix_powers: std::iter::successors(Some(Integer::from(r)), |x| Some(Integer::from(x.square_ref())))
                .take(K.trailing_zeros() as usize)
                .collect(),
            p,
            r_div: Divisor::new(r),
            offset_first,
            offset_rest: Acc192::mul_u64_u128(r - 1, g),
            mul_kernel: Self::choose_mul_kernel(r, offset_first),
            mul_method: MulMethod::Schoolbook,
            convolution: None,
            two_adicity,
            nonresidue: 0,
            omega_max: Element::ZERO,
            roots: Vec::new(),
        };
        field.build_root_tower();
        let threshold = match Convolution::primes_needed(K, r) {
            Some(2) => CONVOLUTION_MIN_K_TWO_PRIMES,
            Some(3) => CONVOLUTION_MIN_K_THREE_PRIMES,
            _ => usize::MAX,
        };
        if K >= threshold {
            field = field.with_convolution()?;
        }
        Ok(field)
    }

    /// This field multiplying by the given method (the default is chosen by k,
    /// see [`CONVOLUTION_MIN_K_TWO_PRIMES`]); results are identical, only
    /// speed differs.
    pub fn with_mul_method(self, method: MulMethod) -> Result<Self, FieldError> {
        match method {
            MulMethod::Schoolbook => Ok(Self {
                mul_method: method,
                convolution: None,
                ..self
            }),
            MulMethod::Convolution { primes } => {
                let needed = Convolution::primes_needed(K, self.r).ok_or(FieldError::UnsupportedMulMethod {
                    method: "convolution",
                    reason: "three 62-bit primes do not exceed 2·k·r²",
                })?;
                if primes < needed {
                    return Err(FieldError::UnsupportedMulMethod {
                        method: "convolution",
                        reason: "too few primes: their product must exceed 2·k·r²",
                    });
                }
                let convolution = Convolution::new(K, primes).ok_or(FieldError::UnsupportedMulMethod {
                    method: "convolution",
                    reason: "only 2 or 3 primes are supported",
                })?;
                Ok(Self {
                    mul_method: method,
                    convolution: Some(convolution),
                    ..self
                })
            }
        }
    }

    /// This field multiplying by convolutions over the least number of primes
    /// that the CRT bound 2·k·r² allows.
    pub fn with_convolution(self) -> Result<Self, FieldError> {
        let primes = Convolution::primes_needed(K, self.r).ok_or(FieldError::UnsupportedMulMethod {
            method: "convolution",
            reason: "three 62-bit primes do not exceed 2·k·r²",
        })?;
        self.with_mul_method(MulMethod::Convolution { primes })
    }

    /// How this field forms products.
    pub fn mul_method(&self) -> MulMethod {
        self.mul_method
    }

    /// The largest value of z_i + carry in the normalisation of a product is
    /// below Z + Z/(r-1) + 1 with Z = offset_first + k(r-1)²; pick the
    /// cheapest kernel whose words hold it.
    fn choose_mul_kernel(r: u64, offset_first: Acc192) -> MulKernel {
        let offset = (Integer::from(offset_first.hi) << 128) + offset_first.lo;
        let z = offset + Integer::from(K) * Integer::from(r - 1).square();
        let t_max = Integer::from(&z / (r - 1)) + z + 1u32;
        if t_max < Integer::from(r) << 64 {
            MulKernel::NarrowSingle
        } else if t_max < Integer::from(1) << 128 {
            MulKernel::Narrow
        } else {
            MulKernel::Wide
        }
    }

    /// DESIGN §1 "canonical tower": g the least quadratic non-residue ≥ 2,
    /// z = g^((p-1)/2^v), ω_max = z^j with j the odd exponent making
    /// ω_max^(2^v/2k) = r (thesis Algorithm 3.1).
    fn build_root_tower(&mut self) {
        let p = &self.p;
        let v = self.two_adicity;
        let g = (2u64..)
            .find(|&g| Integer::from(g).legendre(p) == -1)
            .expect("a non-residue exists below p");
        let z = Integer::from(g)
            .pow_mod(&(Integer::from(p - 1u32) >> v), p)
            .expect("modulus is positive");
        let log2_2k = (2 * K).trailing_zeros();
        let w = z
            .clone()
            .pow_mod(&(Integer::from(1u32) << (v - log2_2k)), p)
            .expect("modulus is positive");
        // w is a primitive 2k-th root, as is r; r = w^j for exactly one odd j < 2k.
        let w2 = Integer::from(&w * &w) % p;
        let mut candidate = w;
        let mut j = 1u32;
        while candidate != self.r {
            candidate = candidate * &w2 % p;
            j += 2;
            assert!(j < 2 * K as u32, "r is a primitive 2k-th root of unity");
        }
        let omega_max = z.pow_mod(&Integer::from(j), p).expect("modulus is positive");
        self.nonresidue = g;
        self.omega_max = self.from_integer(&omega_max).expect("reduced modulo p");

        let top = v.min(ROOT_TABLE_MAX_LOG2);
        let mut root = self.omega_max;
        for _ in top..v {
            root = self.square(&root);
        }
        let mut roots = vec![Element::ZERO; top as usize + 1];
        for m in (0..=top as usize).rev() {
            roots[m] = root;
            root = self.square(&root);
        }
        self.roots = roots;
    }

    /// The preset this field was built from, if any.
    pub fn preset_kind(&self) -> Option<Preset> {
        self.preset
    }
    /// The preset name, or `None` for a custom field.
    pub fn name(&self) -> Option<&'static str> {
        self.preset.map(Preset::name)
    }
    /// The radix r.
    #[inline]
    pub fn r(&self) -> u64 {
        self.r
    }
    /// r in sparse form.
    pub fn sparse(&self) -> SparseRadix {
        self.sparse
    }
    /// The number of digits k (= `K`).
    pub const fn k(&self) -> usize {
        K
    }
    /// The prime p = r^k + 1.
    pub fn p(&self) -> &Integer {
        &self.p
    }
    /// The bit length of p.
    pub fn bits(&self) -> u32 {
        self.bits
    }
    /// The 2-adic valuation v of p - 1: transforms of size up to 2^v exist.
    pub fn two_adicity(&self) -> u32 {
        self.two_adicity
    }
    /// The least quadratic non-residue g ≥ 2 (step 1 of the canonical tower).
    pub fn nonresidue(&self) -> u64 {
        self.nonresidue
    }
    /// ω_max, the primitive 2^v-th root of the canonical tower, with ω_max^(2^v/2k) = r.
    pub fn omega_max(&self) -> Element<K> {
        self.omega_max
    }

    /// ω_N for N = 2^log2_n: ω_max^(2^(v - log2_n)). Then ω_N^(N/2k) = r for
    /// N ≥ 2k and ω_{N/2} = ω_N^2.
    pub fn root_of_unity(&self, log2_n: u32) -> Result<Element<K>, FieldError> {
        if log2_n > self.two_adicity {
            return Err(FieldError::RootOrderTooLarge {
                log2_n,
                two_adicity: self.two_adicity,
            });
        }
        if let Some(root) = self.roots.get(log2_n as usize) {
            return Ok(*root);
        }
        let mut root = self.omega_max;
        for _ in log2_n..self.two_adicity {
            root = self.square(&root);
        }
        Ok(root)
    }

    /// How many 62-bit NTT primes the convolution method needs for this
    /// field (their product must exceed 2·k·r²), whether or not it is the
    /// method in use; `None` if three do not suffice.
    pub fn convolution_primes(&self) -> Option<usize> {
        Convolution::primes_needed(K, self.r)
    }

    /// The multiplication kernel this field uses.
    pub fn mul_kernel(&self) -> MulKernel {
        self.mul_kernel
    }

    /// The constants another implementation of this field's multiplication
    /// needs to reproduce it bit for bit (gfpf-kernels compiles the CUDA
    /// kernels with them).
    pub fn mul_constants(&self) -> MulConstants {
        let words = |a: Acc192| [a.lo as u64, (a.lo >> 64) as u64, a.hi];
        MulConstants {
            r_normalized: self.r_div.normalized(),
            r_reciprocal: self.r_div.reciprocal(),
            r_shift: self.r_div.shift(),
            offset_first: words(self.offset_first),
            offset_rest: words(self.offset_rest),
        }
    }

    /// 0.
    pub const fn zero(&self) -> Element<K> {
        Element::ZERO
    }
    /// 1.
    pub fn one(&self) -> Element<K> {
        let mut d = [0; K];
        d[0] = 1;
        Element(d)
    }
    /// p - 1 = -1, stored as r^k (top digit r).
    pub fn minus_one(&self) -> Element<K> {
        let mut d = [0; K];
        d[K - 1] = self.r;
        Element(d)
    }
    /// r as an element (digit 1 is 1): the 2k-th root of unity of the digit shifts.
    pub fn r_element(&self) -> Element<K> {
        let mut d = [0; K];
        d[1] = 1;
        Element(d)
    }
}

/// What a reimplementation of [`Field::mul`] (a GPU kernel) needs besides r
/// and k, from [`Field::mul_constants`].
///
/// The product of canonical x and y is computed as in `gfpf_field`: the
/// negacyclic coefficients u_i = Σ_{j≤i} x_j·y_{i−j} − Σ_{j>i} x_j·y_{i+k−j} as
/// 192-bit two's-complement sums, plus `offset_first` (i = 0) or `offset_rest`
/// (a vector whose value is 0 mod p that makes every sum non-negative), then
/// one carry chain of divisions by r (Möller–Granlund with `r_reciprocal`),
/// the carry out of r^k subtracted (r^k = −1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MulConstants {
    /// r shifted left by `r_shift` (top bit set).
    pub r_normalized: u64,
    /// floor((2^128 − 1) / r_normalized) − 2^64.
    pub r_reciprocal: u64,
    /// The leading zeros of r.
    pub r_shift: u32,
    /// Offset of coefficient 0, 192 bits, least significant word first.
    pub offset_first: [u64; 3],
    /// Offset of the other coefficients.
    pub offset_rest: [u64; 3],
}
