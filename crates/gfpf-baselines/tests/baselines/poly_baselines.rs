//! The polynomial-product baselines agree with gfpf (itself checked against
//! rug in gfpf-cpu's tests), edge values included.

use gfpf_baselines::poly_baselines::{MultiModularMul, kronecker_mul};
use gfpf_cpu::{MulAlgorithm, PolyMul};
use gfpf_field::{Field, Preset};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn check<const K: usize>(preset: Preset) {
    let f = Field::<K>::preset(preset).unwrap();
    let pm = PolyMul::new(&f).unwrap();
    for (la, lb) in [(1, 1), (3, 70), (64, 65), (200, 131)] {
        let mut rng = StdRng::seed_from_u64(la as u64);
        let mut a: Vec<_> = (0..la).map(|_| f.random(&mut rng)).collect();
        let mut b: Vec<_> = (0..lb).map(|_| f.random(&mut rng)).collect();
        a[0] = f.minus_one();
        b[lb - 1] = f.minus_one();
        let want = pm.mul(&a, &b, MulAlgorithm::Schoolbook).unwrap();
        assert!(kronecker_mul(&f, &a, &b) == want, "{preset} kronecker {la}x{lb}");
        let Some(mm) = MultiModularMul::new(f.bits(), la + lb - 1, la.min(lb)) else {
            assert!(f.bits() > 1900, "{preset}: the prime table covers it");
            continue;
        };
        let mm = mm.unwrap();
        for parallel in [false, true] {
            assert!(mm.mul(&f, &a, &b, parallel) == want, "{preset} multimodular {la}x{lb}");
        }
    }
}

#[test]
fn baselines_match_gfpf() {
    check::<2>(Preset::T2);
    check::<8>(Preset::T8);
    check::<8>(Preset::P8);
    check::<16>(Preset::T16);
    check::<128>(Preset::T128);
}
