//! The canonical root tower and arithmetic against shared/testdata: every file's
//! p, 2-adicity, non-residue, ω_max and ω_N, and its DFT recomputed naively.

mod common;

use gfpf_field::{Element, Field};
use rug::Integer;
use serde_json::Value;

fn big(v: &Value) -> Integer {
    let s = v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
    s.parse().expect("decimal")
}

fn check_file<const K: usize>(json: &Value, file: &str) {
    let f = Field::<K>::from_name(json["prime"].as_str().unwrap()).unwrap();
    assert_eq!(f.r(), big(&json["r"]), "{file}: r");
    assert_eq!(*f.p(), big(&json["p"]), "{file}: p");
    assert_eq!(
        f.two_adicity() as u64,
        json["two_adicity"].as_u64().unwrap(),
        "{file}: v"
    );
    assert_eq!(f.nonresidue(), json["nonresidue"].as_u64().unwrap(), "{file}: g");
    assert_eq!(
        f.to_integer(&f.omega_max()),
        big(&json["omega_max"]),
        "{file}: omega_max"
    );
    let n = json["n"].as_u64().unwrap() as usize;
    let omega = f.root_of_unity(n.trailing_zeros()).unwrap();
    assert_eq!(f.to_integer(&omega), big(&json["omega"]), "{file}: omega_N");

    let parse = |key: &str| -> Vec<Element<K>> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| f.parse(v.as_str().unwrap()).unwrap())
            .collect()
    };
    let (input, output) = (parse("input"), parse("output"));
    assert_eq!(input.len(), n);
    // Naive DFT y_i = Σ_j x_j ω^(ij), powers of ω tabulated once.
    let mut powers = vec![f.one(); n];
    for i in 1..n {
        powers[i] = f.mul(&powers[i - 1], &omega);
    }
    for (i, want) in output.iter().enumerate() {
        let mut acc = f.zero();
        for (j, x) in input.iter().enumerate() {
            acc = f.add(&acc, &f.mul(x, &powers[(i * j) % n]));
        }
        assert_eq!(acc, *want, "{file}: output {i}");
    }
}

#[test]
fn every_known_answer_file() {
    let dir = common::testdata_path("");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the shared known-answer files in {}",
        dir.display()
    );
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        match json["k"].as_u64().unwrap() {
            2 => check_file::<2>(&json, &name),
            4 => check_file::<4>(&json, &name),
            8 => check_file::<8>(&json, &name),
            16 => check_file::<16>(&json, &name),
            32 => check_file::<32>(&json, &name),
            64 => check_file::<64>(&json, &name),
            128 => check_file::<128>(&json, &name),
            k => panic!("{name}: unexpected k = {k}"),
        }
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
    tower_laws::<2>("t2");
    tower_laws::<4>("t4");
    tower_laws::<8>("t8");
    tower_laws::<16>("t16");
    tower_laws::<32>("t32");
    tower_laws::<64>("t64");
    tower_laws::<128>("t128");
    tower_laws::<4>("p4");
    tower_laws::<8>("p8");
    tower_laws::<16>("p16");
    tower_laws::<32>("p32");
    tower_laws::<64>("p64");
    tower_laws::<128>("p128");
}
