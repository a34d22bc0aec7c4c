//! The CUDA codelets as the generator emits them (`cargo xtask codegen --check`
//! keeps gfpf-kernels' `kernels/generated/codelets.cuh` equal to this text),
//! compiled as host C++ with the CUDA qualifiers defined away, compute exactly
//! what the codelet programs compute: the GPU's base cases are checked on
//! every machine with a C++ compiler, GPU or not. Skips (visibly) without `c++`.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::*;
use gfpf_plan::{CODELET_RADICES, Codelet, CodeletTwiddles, RootTower};

const HARNESS: &str = r#"
#define __device__
#define __forceinline__ inline
#include <cstdint>
#include <cstdio>
#include "codelets.cuh"
typedef unsigned long long u64;
typedef unsigned __int128 u128;
static u64 Q;
static u64 mulmod(u64 a, u64 b) { return (u64)((u128)a * b % Q); }
static u64 powmod(u64 a, u64 e) { u64 r = 1; while (e) { if (e & 1) r = mulmod(r, a); a = mulmod(a, a); e >>= 1; } return r; }
struct Ops {
    u64 rho[257]; // rho[radix] = the radix-th root of this direction
    const u64* tw;
    void butterfly(u64& a, u64& b) const { u64 s = a + b; if (s >= Q) s -= Q; u64 d = a >= b ? a - b : a + Q - b; a = s; b = d; }
    void mul_root_power(u64& a, int j, int radix) const { a = mulmod(a, powmod(rho[radix], j)); }
    void twiddle(u64& a, int slot) const { a = mulmod(a, tw[slot]); }
};
#define CASE(K) \
    if (radix == K && variant == 0) gfpf_dft_##K(o, x); \
    if (radix == K && variant == 1) gfpf_dft_##K##_twiddle_inputs(o, x); \
    if (radix == K && variant == 2) gfpf_dft_##K##_twiddle_outputs(o, x);
int main() {
    u64 root256, cases;
    if (scanf("%llu %llu %llu", &Q, &root256, &cases) != 3) return 2;
    for (u64 c = 0; c < cases; c++) {
        int radix, variant, inverse;
        if (scanf("%d %d %d", &radix, &variant, &inverse) != 3) return 2;
        static u64 x[256], tw[256];
        for (int i = 0; i < radix; i++) if (scanf("%llu", &x[i]) != 1) return 2;
        for (int i = 0; i < radix; i++) if (scanf("%llu", &tw[i]) != 1) return 2;
        Ops o;
        o.tw = tw;
        for (int k = 1; k <= 256; k *= 2) {
            u64 r = powmod(root256, 256 / k);
            o.rho[k] = inverse ? powmod(r, k - 1) : r;
        }
        CASE(2) CASE(4) CASE(8) CASE(16) CASE(32) CASE(64) CASE(128) CASE(256)
        for (int i = 0; i < radix; i++) printf("%llu ", x[i]);
        printf("\n");
    }
    return 0;
}
"#;

#[test]
fn cuda_codelets_compiled_for_the_host_match_the_programs() {
    let compiler = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    if Command::new(&compiler).arg("--version").output().is_err() {
        eprintln!("SKIPPED: no C++ compiler `{compiler}` to compile the CUDA codelets for the host");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gfpf-codelets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("harness.cpp"), HARNESS).unwrap();
    std::fs::write(dir.join("codelets.cuh"), gfpf_plan::emit::cuda_codelets()).unwrap();
    let exe = dir.join("harness");
    let status = Command::new(&compiler)
        .args(["-std=c++17", "-O1", "-I"])
        .arg(&dir)
        .arg(dir.join("harness.cpp"))
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success(), "compiling the CUDA codelets as C++ failed");

    let t = WordTower;
    let root256 = t.root(256).0;
    let mut cases = Vec::new();
    for radix in CODELET_RADICES {
        for (v, variant) in [CodeletTwiddles::None, CodeletTwiddles::Inputs, CodeletTwiddles::Outputs]
            .into_iter()
            .enumerate()
        {
            for inverse in [false, true] {
                let x: Vec<u64> = pseudo_random(radix, radix as u64 * 7 + v as u64)
                    .into_iter()
                    .map(|u| u % Q)
                    .collect();
                let tw: Vec<u64> = pseudo_random(radix, 5).into_iter().map(|u| u % Q).collect();
                cases.push((radix, v, variant, inverse, x, tw));
            }
        }
    }
    let mut input = format!("{Q} {root256} {}\n", cases.len());
    for (radix, v, _, inverse, x, tw) in &cases {
        input += &format!("{radix} {v} {}\n", u8::from(*inverse));
        for list in [x, tw] {
            input += &list.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
            input += "\n";
        }
    }
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for ((radix, _, variant, inverse, x, tw), line) in cases.iter().zip(lines) {
        let rho = {
            let r = t.root(*radix);
            if *inverse {
                (1..*radix - 1).fold(r, |acc, _| acc * r)
            } else {
                r
            }
        };
        let mut want: Vec<Word> = x.iter().map(|&u| Word(u)).collect();
        Codelet::with_twiddles(*radix, *variant).run(
            &mut want,
            |a, b| *a + *b,
            |a, b| *a - *b,
            |a, j| (0..j).fold(*a, |acc, _| acc * rho),
            |a, slot| *a * Word(tw[slot]),
        );
        let got: Vec<u64> = line.split_whitespace().map(|s| s.parse().unwrap()).collect();
        assert_eq!(
            got,
            want.iter().map(|w| w.0).collect::<Vec<_>>(),
            "K = {radix}, {variant:?}, inverse {inverse}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
