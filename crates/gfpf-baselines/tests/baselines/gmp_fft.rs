//! The GMP baseline computes the same transforms as gfpf-cpu.

use gfpf_baselines::gmp_fft::GmpFft;
use gfpf_cpu::{CpuFft, Threading};
use gfpf_field::{Field, Preset};
use gfpf_plan::{Direction, Order};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rug::Integer;

fn check<const K: usize>(preset: Preset, n: usize) {
    let field = Field::<K>::preset(preset).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let x: Vec<_> = (0..n).map(|_| field.random(&mut rng)).collect();
    for direction in [Direction::Forward, Direction::Inverse] {
        for order in [Order::Natural, Order::DigitReversed] {
            let mut want = x.clone();
            CpuFft::try_new(&field, n, direction, order)
                .unwrap()
                .process(&mut want)
                .unwrap();
            let gmp = GmpFft::new(&field, n, direction, order).unwrap();
            for threading in [Threading::Serial, Threading::Parallel] {
                let mut data: Vec<Integer> = x.iter().map(|v| field.to_integer(v)).collect();
                let mut scratch = vec![Integer::from(12345); gmp.scratch_len()];
                gmp.process(&mut data, &mut scratch, threading).unwrap();
                let got: Vec<_> = data.iter().map(|v| field.from_integer(v).unwrap()).collect();
                assert_eq!(got, want, "{preset:?} N = {n} {direction:?} {order:?} {threading:?}");
            }
        }
    }
}

#[test]
fn gmp_baseline_matches_gfpf_cpu() {
    check::<4>(Preset::P4, 512);
    check::<8>(Preset::T8, 4096);
    check::<16>(Preset::P16, 2048);
}

/// Projection, NTTs, inverse NTTs and mixed-radix reconstruction give the
/// input back: the small-prime pipeline of the chapter 7 benchmarks is exact,
/// over 62-bit primes on `Plan` and over 50-bit primes on `Plan52` (also at
/// a length where `Plan52` spreads one transform over threads).
#[test]
fn small_prime_pipeline_round_trips() {
    use gfpf_baselines::small_primes::SmallPrimeDft;
    let field = Field::<8>::preset(Preset::T8).unwrap();
    let (s62, s50) = (
        SmallPrimeDft::primes_for_bits(field.bits()),
        SmallPrimeDft::primes_for_bits_50(field.bits()),
    );
    assert_eq!(s62, 9); // 505 bits: eight 62-bit primes (≈ 496 bits) are not enough
    assert_eq!(s50, 11); // ten 50-bit primes give ≈ 500 bits
    let cases = [
        (256, s62, SmallPrimeDft::new(256, 8, s62).unwrap()),
        (256, s50, SmallPrimeDft::with_plan52(256, 8, s50).unwrap()),
        (1 << 15, s50, SmallPrimeDft::with_plan52(1 << 15, 8, s50).unwrap()),
    ];
    for (n, s, dft) in cases {
        assert_eq!(dft.primes(), s);
        let mut rng = StdRng::seed_from_u64(3);
        let input: Vec<u64> = (0..n).flat_map(|_| field.to_words(&field.random(&mut rng))).collect();
        let mut residues = vec![0; dft.residue_len()];
        let mut out = vec![0; n * s];
        for parallel in [false, true] {
            dft.project(&input, &mut residues, parallel);
            dft.ntts(&mut residues, parallel);
            dft.inverse_ntts(&mut residues);
            dft.reconstruct(&residues, &mut out, parallel);
            for j in 0..n {
                assert_eq!(&out[j * s..j * s + 8], &input[j * 8..j * 8 + 8], "n = {n}, s = {s}");
                assert!(out[j * s + 8..(j + 1) * s].iter().all(|&w| w == 0));
            }
        }
    }
    assert!(SmallPrimeDft::with_plan52(256, 8, 33).is_err());
}
