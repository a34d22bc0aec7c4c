//! Test rings shared by the gfpf-plan tests: integers mod a 62-bit NTT prime
//! and three gfpf-field presets, each with its canonical root tower.
#![allow(dead_code)]

use std::ops::{Add, Mul, Sub};
use std::sync::OnceLock;

use gfpf_field::{Element, Field, Preset};
use gfpf_plan::RootTower;
use gfpf_small::primes::{NTT_PRIMES_62, inv_mod, root_of_unity};
use num_traits::{One, Zero};

pub const Q: u64 = NTT_PRIMES_62[0];

/// Integers mod a 62-bit NTT prime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word(pub u64);

impl Add for Word {
    type Output = Word;
    fn add(self, o: Word) -> Word {
        Word(((self.0 as u128 + o.0 as u128) % Q as u128) as u64)
    }
}
impl Sub for Word {
    type Output = Word;
    fn sub(self, o: Word) -> Word {
        Word(if self.0 >= o.0 { self.0 - o.0 } else { self.0 + Q - o.0 })
    }
}
impl Mul for Word {
    type Output = Word;
    fn mul(self, o: Word) -> Word {
        Word((self.0 as u128 * o.0 as u128 % Q as u128) as u64)
    }
}
impl Zero for Word {
    fn zero() -> Word {
        Word(0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0
    }
}
impl One for Word {
    fn one() -> Word {
        Word(1)
    }
}

pub struct WordTower;
impl RootTower for WordTower {
    type Elem = Word;
    fn root(&self, n: usize) -> Word {
        Word(root_of_unity(Q, n.trailing_zeros()).unwrap())
    }
    fn inverse_of_size(&self, n: usize) -> Word {
        Word(inv_mod(n as u64 % Q, Q))
    }
}

pub fn pseudo_random(n: usize, seed: u64) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s >> 3
        })
        .collect()
}

// The same over gfpf-field presets, with base size 2k so every base DFT's
// root is a power of r.
/// A test ring over one gfpf-field preset.
macro_rules! field_ring {
    ($ty:ident, $tower:ident, $k:literal, $preset:ident, $field:ident) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $ty(pub Element<$k>);
        pub fn $field() -> &'static Field<$k> {
            static F: OnceLock<Field<$k>> = OnceLock::new();
            F.get_or_init(|| Field::preset(Preset::$preset).unwrap())
        }
        impl Add for $ty {
            type Output = $ty;
            fn add(self, o: $ty) -> $ty {
                $ty($field().add(&self.0, &o.0))
            }
        }
        impl Sub for $ty {
            type Output = $ty;
            fn sub(self, o: $ty) -> $ty {
                $ty($field().sub(&self.0, &o.0))
            }
        }
        impl Mul for $ty {
            type Output = $ty;
            fn mul(self, o: $ty) -> $ty {
                $ty($field().mul(&self.0, &o.0))
            }
        }
        impl Zero for $ty {
            fn zero() -> $ty {
                $ty(Element::ZERO)
            }
            fn is_zero(&self) -> bool {
                self.0.is_zero()
            }
        }
        impl One for $ty {
            fn one() -> $ty {
                $ty($field().one())
            }
        }
        pub struct $tower;
        impl RootTower for $tower {
            type Elem = $ty;
            fn root(&self, n: usize) -> $ty {
                $ty($field().root_of_unity(n.trailing_zeros()).unwrap())
            }
            fn inverse_of_size(&self, n: usize) -> $ty {
                let f = $field();
                $ty(f.inverse(&f.from_u64(n as u64)).unwrap())
            }
        }
    };
}

field_ring!(T2Elem, T2Tower, 2, T2, t2);
field_ring!(T8Elem, T8Tower, 8, T8, t8);
field_ring!(P4Elem, P4Tower, 4, P4, p4);
