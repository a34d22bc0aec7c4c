use super::*;
use crate::primes::FP_PRIMES_50;

/// The product in Z_q[x, y]/(x^N ∓ 1, y^K + 1), naively.
fn naive(a: &[u64], b: &[u64], k: usize, n: usize, q: u64, wrap: RowWrap) -> Vec<u64> {
    let mut c = vec![0u64; k * n];
    for i1 in 0..k {
        for j1 in 0..n {
            for i2 in 0..k {
                for j2 in 0..n {
                    let p = (a[i1 * n + j1] as u128 * b[i2 * n + j2] as u128 % q as u128) as u64;
                    let (i, j) = (i1 + i2, (j1 + j2) % n);
                    // x^N = −1 flips the sign once more for negacyclic rows.
                    let flips = (i >= k) as u32 + (wrap == RowWrap::Negacyclic && j1 + j2 >= n) as u32;
                    let slot = &mut c[(i % k) * n + j];
                    *slot = if flips.is_multiple_of(2) {
                        (*slot + p) % q
                    } else {
                        (*slot + q - p) % q
                    };
                }
            }
        }
    }
    c
}

#[test]
fn products_match_the_naive_product_on_every_isa() {
    let q = FP_PRIMES_50[1];
    let mut seed = 7u64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 11) % q
    };
    // K from 1 to 128: every split of the column transform into passes
    // (one to three, of one to three layers); N = 4 leaves IFMA's rows
    // to the scalar tail.
    let shapes = [
        (1, 1),
        (2, 4),
        (4, 8),
        (8, 16),
        (8, 4),
        (4, 64),
        (16, 8),
        (2, 32),
        (32, 8),
        (64, 4),
        (128, 2),
    ];
    for (isa, wrap) in Isa::available()
        .into_iter()
        .flat_map(|isa| [RowWrap::Cyclic, RowWrap::Negacyclic].map(|w| (isa, w)))
    {
        for (k, n) in shapes {
            let conv = BivariateConvolution::try_with_wrap(k, n, q, wrap)
                .unwrap()
                .with_isa(isa)
                .unwrap();
            assert_eq!(conv.wrap(), wrap);
            let mut a: Vec<u64> = (0..k * n).map(|_| next()).collect();
            let mut b: Vec<u64> = (0..k * n).map(|_| next()).collect();
            // Edge values.
            a[0] = q - 1;
            b[k * n - 1] = q - 1;
            let expected = naive(&a, &b, k, n, q, wrap);
            let original = a.clone();
            conv.forward(&mut a).unwrap();
            let mut round = a.clone();
            conv.inverse(&mut round).unwrap();
            assert_eq!(round, original, "round trip k={k} n={n} {isa:?} {wrap:?}");
            let mut square = a.clone();
            conv.square_spectra(&mut square).unwrap();
            conv.inverse(&mut square).unwrap();
            assert_eq!(
                square,
                naive(&original, &original, k, n, q, wrap),
                "square k={k} n={n} {isa:?} {wrap:?}"
            );
            conv.forward(&mut b).unwrap();
            conv.mul_spectra(&mut a, &b).unwrap();
            conv.inverse(&mut a).unwrap();
            assert_eq!(a, expected, "k={k} n={n} {isa:?} {wrap:?}");
        }
    }
}

/// The plan's column passes: every layer once, the twist in the first
/// forward pass and the untwist in the last inverse one, and factor 1
/// exactly where the vector kernels skip the product.
#[test]
fn column_passes_cover_every_layer_and_skip_only_unit_factors() {
    let q = FP_PRIMES_50[0];
    for log_k in 0..=7 {
        let k = 1 << log_k;
        let conv = BivariateConvolution::try_new(k, 8, q).unwrap();
        for (passes, forward) in [(&conv.columns_forward, true), (&conv.columns_inverse, false)] {
            let layers: usize = passes
                .iter()
                .map(|p| p.butterflies.len() * 2 / p.groups[0].rows.len().max(2))
                .sum();
            assert_eq!(layers, log_k, "k={k}");
            for (i, pass) in passes.iter().enumerate() {
                let carries = if forward { i == 0 } else { i == passes.len() - 1 };
                let mut seen = vec![false; k];
                for group in &pass.groups {
                    assert_eq!(group.twist.len(), if carries { group.rows.len() } else { 0 });
                    for &row in &group.rows {
                        assert!(!std::mem::replace(&mut seen[row], true), "k={k} row {row} twice");
                    }
                    let runs = group.rows.windows(2).all(|w| w[1] == w[0] + 1);
                    assert!(!pass.consecutive || runs, "k={k} pass {i}");
                    for (&(lo, hi), &(w, _)) in pass.butterflies.iter().zip(&group.factors) {
                        if pass.consecutive && lo % (2 * (hi - lo)) == 0 {
                            assert_eq!(w, 1, "k={k} pass {i} ({lo}, {hi})");
                        }
                    }
                }
                assert!(seen.iter().all(|&s| s), "k={k}: every row in a group");
            }
        }
    }
}

/// The column halves run on any range of columns (vector lanes and a
/// scalar tail): pieces of widths 5, 11 and 16 give what the whole
/// width gives.
#[test]
fn column_transforms_on_ranges_of_columns_match_the_whole_width() {
    let q = FP_PRIMES_50[2];
    for isa in Isa::available() {
        for k in [2, 8, 16, 128] {
            let n = 32;
            let conv = BivariateConvolution::try_new(k, n, q).unwrap().with_isa(isa).unwrap();
            let data: Vec<u64> = (0..k * n)
                .map(|i| ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 14) % q)
                .collect();
            let mut whole = data.clone();
            let mut rows: Vec<&mut [u64]> = whole.chunks_exact_mut(n).collect();
            conv.forward_columns(&mut rows).unwrap();
            let mut back = whole.clone();
            let mut rows: Vec<&mut [u64]> = back.chunks_exact_mut(n).collect();
            conv.inverse_columns(&mut rows).unwrap();
            let mut pieces = data.clone();
            for (start, end) in [(0, 5), (5, 16), (16, 32)] {
                let mut rows: Vec<&mut [u64]> = pieces.chunks_exact_mut(n).map(|r| &mut r[start..end]).collect();
                conv.forward_columns(&mut rows).unwrap();
            }
            // Lanes and scalar tail may leave different representatives
            // in [0, 2q).
            let reduced = |v: &[u64]| v.iter().map(|&x| x % q).collect::<Vec<_>>();
            assert_eq!(reduced(&pieces), reduced(&whole), "forward k={k} {isa:?}");
            pieces.clone_from(&whole);
            for (start, end) in [(0, 11), (11, 32)] {
                let mut rows: Vec<&mut [u64]> = pieces.chunks_exact_mut(n).map(|r| &mut r[start..end]).collect();
                conv.inverse_columns(&mut rows).unwrap();
            }
            assert_eq!(pieces, back, "inverse k={k} {isa:?}");
            // Without the rows' transforms in between, the inverse
            // undoes the forward up to the factor N^(−1)·2^(−52)·2^52.
            let n_inv = crate::primes::inv_mod(n as u64, q);
            let expected: Vec<u64> = data
                .iter()
                .map(|&x| (x as u128 * n_inv as u128 % q as u128) as u64)
                .collect();
            assert_eq!(back, expected, "round trip k={k} {isa:?}");
        }
    }
}

#[test]
fn pointwise_products_of_extreme_spectra_on_every_isa() {
    // Spectra may hold any value below 2q; the product is a·b·2^(−52).
    for q in [FP_PRIMES_50[0], 7681] {
        let edges = [0, 1, 2, q - 1, q, q + 1, 2 * q - 2, 2 * q - 1];
        let a: Vec<u64> = edges.iter().flat_map(|&x| edges.map(|_| x)).collect();
        let b: Vec<u64> = edges.iter().flat_map(|_| edges).collect();
        let r_inv = inv_mod(((1u128 << 52) % q as u128) as u64, q) as u128;
        for isa in Isa::available() {
            let conv = BivariateConvolution::try_new(2, 8, q).unwrap().with_isa(isa).unwrap();
            for square in [false, true] {
                let mut c = a.clone();
                if square {
                    conv.square_spectra(&mut c).unwrap();
                } else {
                    conv.mul_spectra(&mut c, &b).unwrap();
                }
                for (j, &got) in c.iter().enumerate() {
                    let y = if square { a[j] } else { b[j] };
                    let want = a[j] as u128 * y as u128 % q as u128 * r_inv % q as u128;
                    assert!(got < 2 * q, "{isa:?} q={q} {} · {y}: {got} ≥ 2q", a[j]);
                    assert_eq!(got as u128 % q as u128, want, "{isa:?} q={q} {} · {y}", a[j]);
                }
            }
        }
    }
}

#[test]
fn projected_words_are_reduced_and_transposed_on_every_isa() {
    let q = FP_PRIMES_50[2];
    let mut seed = 11u64;
    for isa in Isa::available() {
        for (k, count) in [(8, 16), (8, 21), (16, 8), (4, 13), (64, 9), (1, 3)] {
            let conv = BivariateConvolution::try_new(k, 8, q).unwrap().with_isa(isa).unwrap();
            let words: Vec<u64> = (0..k * count)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    // Edge values first: 0, 1, q − 1, q, 2^52 − 1, 2^52, u64::MAX.
                    [0, 1, q - 1, q, (1 << 52) - 1, 1 << 52, u64::MAX]
                        .get(i)
                        .copied()
                        .unwrap_or(seed)
                })
                .collect();
            let before: Vec<Vec<u64>> = (0..k)
                .map(|i| (0..count as u64).map(|j| (i as u64 * 7 + j * q / 5) % q).collect())
                .collect();
            for how in [Accumulate::Store, Accumulate::Add, Accumulate::Subtract] {
                let mut rows = before.clone();
                let mut slices: Vec<&mut [u64]> = rows.iter_mut().map(Vec::as_mut_slice).collect();
                conv.project_words(&words, &mut slices, how).unwrap();
                for i in 0..k {
                    for j in 0..count {
                        let (old, d) = (before[i][j] as u128, (words[j * k + i] % q) as u128);
                        let q = q as u128;
                        let want = match how {
                            Accumulate::Store => d,
                            Accumulate::Add => (old + d) % q,
                            Accumulate::Subtract => (old + q - d) % q,
                        };
                        assert_eq!(
                            rows[i][j] as u128, want,
                            "{isa:?} k={k} count={count} {how:?} ({i}, {j})"
                        );
                    }
                }
            }
            let mut short = vec![vec![0u64; count - 1]; k];
            let mut slices: Vec<&mut [u64]> = short.iter_mut().map(Vec::as_mut_slice).collect();
            assert!(conv.project_words(&words, &mut slices, Accumulate::Store).is_err());
        }
    }
}

#[test]
fn joined_pieces_give_the_product_on_every_isa() {
    let q = FP_PRIMES_50[0];
    for isa in Isa::available() {
        for (n, m) in [
            (2usize, 1usize),
            (8, 4),
            (16, 8),
            (128, 64),
            (128, 16),
            (64, 1),
            (32, 32),
        ] {
            let conv = BivariateConvolution::try_with_wrap(2, n, q, RowWrap::Negacyclic)
                .unwrap()
                .with_isa(isa)
                .unwrap();
            // A product of length n + m with edge values.
            let c: Vec<u64> = (0..(n + m) as u64)
                .map(|j| [q - 1, 0, 1][j as usize % 3].max(j * 977 % q))
                .collect();
            let mut c1 = vec![0u64; n];
            let mut c2 = vec![0u64; m];
            for (j, &x) in c.iter().enumerate() {
                let (t, negative) = (j % n, (j / n) % 2 == 1);
                c1[t] = if negative { (c1[t] + q - x) % q } else { (c1[t] + x) % q };
                c2[j % m] = (c2[j % m] + x) % q;
            }
            conv.join_with_cyclic(&mut c1, &mut c2).unwrap();
            assert_eq!([c1, c2].concat(), c, "{isa:?} n={n} m={m}");
        }
    }
    let cyclic = BivariateConvolution::try_new(2, 8, q).unwrap();
    assert!(cyclic.join_with_cyclic(&mut [0; 8], &mut [0; 4]).is_err());
    let negacyclic = BivariateConvolution::try_with_wrap(2, 8, q, RowWrap::Negacyclic).unwrap();
    assert!(matches!(
        negacyclic.join_with_cyclic(&mut [0; 8], &mut [0; 3]),
        Err(SmallError::LengthNotPowerOfTwo(3))
    ));
    assert!(matches!(
        negacyclic.join_with_cyclic(&mut [0; 8], &mut [0; 16]),
        Err(SmallError::LengthMismatch { expected: 8, got: 16 })
    ));
    assert!(negacyclic.join_with_cyclic(&mut [0; 4], &mut [0; 4]).is_err());
}

#[test]
fn mixed_radix_digits_rebuild_the_integer_on_every_isa() {
    let primes = &FP_PRIMES_50[..4];
    let mut seed = 3u64;
    for isa in Isa::available() {
        let garner = Garner52::try_new(primes).unwrap().with_isa(isa).unwrap();
        let len = 19;
        let values: Vec<u128> = (0..len as u128)
            .map(|j| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                match j {
                    0 => 0,
                    1 => u128::MAX,
                    _ => (seed as u128) << 64 | seed.rotate_left(17) as u128,
                }
            })
            .collect();
        let residues: Vec<Vec<u64>> = primes
            .iter()
            .map(|&q| values.iter().map(|&x| (x % q as u128) as u64).collect())
            .collect();
        let mut digits = vec![vec![0u64; len]; primes.len()];
        let rs: Vec<&[u64]> = residues.iter().map(Vec::as_slice).collect();
        let mut ds: Vec<&mut [u64]> = digits.iter_mut().map(Vec::as_mut_slice).collect();
        garner.mixed_radix(&rs, &mut ds, len).unwrap();
        for (j, &x) in values.iter().enumerate() {
            // x < 2^128 < q_0·q_1·q_2: the last digit is 0.
            let rebuilt = digits[0][j] as u128
                + primes[0] as u128 * (digits[1][j] as u128 + primes[1] as u128 * digits[2][j] as u128);
            assert_eq!((rebuilt, digits[3][j]), (x, 0), "{isa:?} column {j}");
        }
    }
    assert!(Garner52::try_new(&[FP_PRIMES_50[0], 3]).is_err());
    assert!(Garner52::try_new(&[]).is_err());
    assert!(Garner52::try_new(&[FP_PRIMES_50[0], FP_PRIMES_50[0]]).is_err());
}

#[test]
fn bad_shapes_are_errors() {
    let q = FP_PRIMES_50[0];
    assert!(matches!(
        BivariateConvolution::try_new(3, 8, q),
        Err(SmallError::LengthNotPowerOfTwo(3))
    ));
    assert!(BivariateConvolution::try_new(4, 8, 101).is_err());
    let conv = BivariateConvolution::try_new(4, 8, q).unwrap();
    assert!(matches!(
        conv.forward(&mut [0; 31]),
        Err(SmallError::LengthMismatch { expected: 32, got: 31 })
    ));
    let mut a = [0u64; 8];
    assert!(conv.mul_spectra(&mut a, &[0; 7]).is_err());
}
