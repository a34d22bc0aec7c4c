//! The NTL/FLINT harness computes the same products as gfpf on the shared
//! inputs (checked through the checksum), and the inputs follow their rule.
//!
//! Where the harness cannot be built (no C++ compiler or no libflint-dev /
//! libntl-dev when the tests were built: build.rs), its tests are ignored
//! with that reason, unless `GFPF_REQUIRE_PEERS` is set: `.ci/run` installs
//! the libraries and sets it, so CI always runs them.

use gfpf_baselines::peers::{Harness, PeerLibrary, checksum, inputs, target_dir};
use gfpf_cpu::{MulAlgorithm, PolyMul};
use gfpf_field::{Field, Preset};
use rug::Integer;

/// SplitMix64 written out again, independently of the library's copy.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn inputs_follow_the_documented_rule() {
    // The published first output of SplitMix64 from state 0.
    assert_eq!(splitmix64(&mut 0), 0xE220_A839_7B1D_CDAF);
    let field = Field::<8>::preset(Preset::T8).unwrap();
    let n = 4u64;
    let (a, b) = inputs(&field, n as usize);
    assert_eq!((a.len(), b.len()), (4, 4));
    let words = field.bits() as usize / 64 + 2;
    for (poly, state) in [
        (&a, 0x5EED_0000_0000_0000 ^ (2 * n)),
        (&b, 0x5EED_0000_0000_0000 ^ (2 * n + 1)),
    ] {
        let mut state = state;
        for x in poly.iter() {
            let digits: Vec<u64> = (0..words).map(|_| splitmix64(&mut state)).collect();
            let value = Integer::from_digits(&digits, rug::integer::Order::Lsf) % field.p();
            assert_eq!(field.to_integer(x), value);
        }
    }
}

#[test]
fn checksum_is_horner_at_the_check_point() {
    let field = Field::<4>::preset(Preset::P4).unwrap();
    let c = [field.from_u64(3), field.from_u64(5)];
    let expected = (Integer::from(5) * Integer::from(0x9E37_79B9_7F4A_7C15u64) + 3u32) % field.p();
    assert_eq!(checksum(&field, &c), expected.to_string());
    assert_eq!(checksum(&field, &[]), "0");
}

/// The harness, built (the build found its compiler and libraries).
fn harness() -> Harness {
    Harness::build(&target_dir().join("peers")).unwrap_or_else(|reason| panic!("{reason}"))
}

fn agree<const K: usize>(preset: Preset, harness: &Harness) {
    let field = Field::<K>::preset(preset).unwrap();
    let log2_sizes = [0, 3, 7];
    let timings = harness.run(field.p(), 1, 0.0, &log2_sizes).unwrap();
    assert_eq!(timings.len(), 2 * log2_sizes.len(), "one line per library and size");
    let pm = PolyMul::new(&field).unwrap();
    for t in &timings {
        let (a, b) = inputs(&field, t.n);
        let ours = pm.mul(&a, &b, MulAlgorithm::Auto).unwrap();
        assert_eq!(
            t.checksum,
            checksum(&field, &ours),
            "{} {preset:?} n = {}",
            t.library,
            t.n
        );
        assert!(t.reps >= 3 && t.median_ms >= t.min_ms && t.min_ms >= 0.0);
    }
}

#[test]
#[cfg_attr(
    not(gfpf_peers),
    ignore = "no C++ compiler or FLINT/NTL headers where these tests were built (sh scripts/setup.sh --peers)"
)]
fn ntl_and_flint_agree_with_gfpf() {
    let harness = harness();
    agree::<8>(Preset::T8, &harness);
    agree::<8>(Preset::P8, &harness);
    agree::<16>(Preset::T16, &harness);
}

#[test]
#[cfg_attr(
    not(gfpf_peers),
    ignore = "no C++ compiler or FLINT/NTL headers where these tests were built (sh scripts/setup.sh --peers)"
)]
fn one_library_runs_alone_and_t64_agrees() {
    let harness = harness();
    let p = Field::<4>::preset(Preset::P4).unwrap().p().clone();
    for (library, name) in [(PeerLibrary::Ntl, "NTL"), (PeerLibrary::Flint, "FLINT")] {
        let timings = harness.clone().only(library).run(&p, 1, 0.0, &[1, 2]).unwrap();
        assert_eq!(timings.len(), 2, "{name}: one line per size");
        assert!(timings.iter().all(|t| t.library == name), "{name}: {timings:?}");
    }
    // t64 (the bench's largest preset) at small sizes, both libraries.
    agree::<64>(Preset::T64, &harness);
}

#[test]
#[cfg_attr(
    not(gfpf_peers),
    ignore = "no C++ compiler or FLINT/NTL headers where these tests were built (sh scripts/setup.sh --peers)"
)]
fn harness_rejects_bad_arguments() {
    let harness = harness();
    let err = harness.run(&Integer::from(1), 1, 0.0, &[2]).unwrap_err();
    assert!(err.contains("not a prime"), "{err}");
}

/// Several threads building into a fresh directory at once must all get a
/// runnable program (CI once failed with "Text file busy" when one thread
/// ran the program while another was still writing it).
#[test]
#[cfg_attr(
    not(gfpf_peers),
    ignore = "no C++ compiler or FLINT/NTL headers where these tests were built (sh scripts/setup.sh --peers)"
)]
fn concurrent_builds_give_runnable_programs() {
    let dir = target_dir().join(format!("peers-concurrent-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let p = Field::<4>::preset(Preset::P4).unwrap().p().clone();
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..3)
            .map(|_| s.spawn(|| Harness::build(&dir).and_then(|h| h.run(&p, 1, 0.0, &[1]))))
            .collect();
        for run in runs {
            assert_eq!(run.join().unwrap().unwrap().len(), 2);
        }
    });
    std::fs::remove_dir_all(&dir).unwrap();
}
