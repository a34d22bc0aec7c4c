//! The canonical root tower and arithmetic against the known-answer files of
//! testdata/ (a copy of shared/testdata): every file's p, 2-adicity,
//! non-residue, ω_max and ω_N, and its DFT recomputed naively.

use gfpf_field::{Field, Preset};
use gfpf_testkit::known::{KnownAnswerFile, known_answer_files};

fn check_file<const K: usize>(known: &KnownAnswerFile) {
    let file = &known.file;
    let f = Field::<K>::from_name(&known.prime).unwrap();
    assert_eq!(f.r(), known.r, "{file}: r");
    assert_eq!(*f.p(), known.p, "{file}: p");
    assert_eq!(f.two_adicity(), known.two_adicity, "{file}: v");
    assert_eq!(f.nonresidue(), known.nonresidue, "{file}: g");
    assert_eq!(f.to_integer(&f.omega_max()), known.omega_max, "{file}: omega_max");
    let n = known.n;
    let omega = f.root_of_unity(n.trailing_zeros()).unwrap();
    assert_eq!(f.to_integer(&omega), known.omega, "{file}: omega_N");

    let answer = known.elements(&f).unwrap();
    assert_eq!(answer.input.len(), n);
    // Naive DFT y_i = Σ_j x_j ω^(ij), powers of ω tabulated once.
    let mut powers = vec![f.one(); n];
    for i in 1..n {
        powers[i] = f.mul(&powers[i - 1], &omega);
    }
    for (i, want) in answer.output.iter().enumerate() {
        let mut acc = f.zero();
        for (j, x) in answer.input.iter().enumerate() {
            acc = f.add(&acc, &f.mul(x, &powers[(i * j) % n]));
        }
        assert_eq!(acc, *want, "{file}: output {i}");
    }
}

#[test]
fn every_known_answer_file() {
    let files = known_answer_files().unwrap();
    assert!(
        files.len() >= 10,
        "expected the shared known-answer files, found {}",
        files.len()
    );
    for known in &files {
        gfpf_field::dispatch_k!(known.k, K => check_file::<K>(known), _ => panic!("{}: unexpected k = {}", known.file, known.k));
    }
}

/// The tower's defining properties on every preset: ω_N^(N/2k) = r, ω_{N/2} = ω_N²,
/// ω_N has order exactly N; and the error above the 2-adicity.
fn tower_laws<const K: usize>(name: &str) {
    let f = Field::<K>::from_name(name).unwrap();
    let v = f.two_adicity();
    assert_eq!(f.root_of_unity(v).unwrap(), f.omega_max());
    assert_eq!(f.root_of_unity(0).unwrap(), f.one());
    assert_eq!(f.root_of_unity(1).unwrap(), f.minus_one());
    let log2_2k = (2 * K).trailing_zeros();
    assert_eq!(f.root_of_unity(log2_2k).unwrap(), f.r_element(), "{name}: ω_2k = r");
    for m in [1, log2_2k, log2_2k + 1, 10, 20, 30, 64, 65, v / 2, v - 1, v] {
        if m == 0 || m > v {
            continue;
        }
        let w = f.root_of_unity(m).unwrap();
        assert_eq!(
            f.square(&w),
            f.root_of_unity(m - 1).unwrap(),
            "{name}: ω_(2^{m})² = ω_(2^{})",
            m - 1
        );
        // ω^(2^(m-1)) = -1: order exactly 2^m.
        let mut x = w;
        for _ in 0..m - 1 {
            x = f.square(&x);
        }
        assert_eq!(x, f.minus_one(), "{name}: ω_(2^{m}) has order 2^{m}");
        if m >= log2_2k {
            let shift = (m - log2_2k) as usize;
            let mut exponent = vec![0u64; shift / 64 + 1];
            exponent[shift / 64] = 1 << (shift % 64);
            assert_eq!(
                f.pow(&w, &exponent),
                f.r_element(),
                "{name}: ω_N^(N/2k) = r at N = 2^{m}"
            );
        }
    }
    assert!(f.root_of_unity(v + 1).is_err());
}

#[test]
fn tower_laws_on_every_preset() {
    for preset in Preset::ALL {
        gfpf_field::dispatch_k!(preset.k(), K => tower_laws::<K>(preset.name()), _ => unreachable!());
    }
}
