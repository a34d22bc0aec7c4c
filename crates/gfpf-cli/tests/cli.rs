//! The `gfpf` program as users run it: results, formats, and every kind of
//! bad input giving a one-line error, a failing exit status, and no output
//! file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use gfpf_testkit::known::{KnownAnswerFile, known_answer_files};

fn gfpf(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gfpf")).args(args).output().unwrap()
}

fn gfpf_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gfpf"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// A fresh empty directory per test.
fn scratch_dir() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gfpf-cli-test-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn known(file: &str) -> KnownAnswerFile {
    known_answer_files()
        .unwrap()
        .into_iter()
        .find(|f| f.file == file)
        .unwrap_or_else(|| panic!("{file} is not in testdata/"))
}

fn strings(v: &[rug::Integer]) -> Vec<String> {
    v.iter().map(ToString::to_string).collect()
}

#[test]
fn primes_lists_every_preset() {
    let out = stdout(&gfpf(&["primes"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 14, "{out}");
    let t8: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("t8 "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(&t8[..6], ["t8", "2^63+2^34", "8", "505", "272", "3"]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("p128") && l.contains("convolution over 2 primes"))
    );
}

#[test]
fn fft_matches_the_known_answers_and_ifft_undoes_it() {
    let dir = scratch_dir();
    let json = known("dft_t8_n256.json");
    let input = dir.join("x.txt");
    fs::write(&input, strings(&json.input).join("\n") + "\n").unwrap();
    let y = dir.join("y.txt");
    stdout(&gfpf(&["fft", "--prime", "t8", s(&input), "-o", s(&y)]));
    let got: Vec<String> = fs::read_to_string(&y).unwrap().lines().map(str::to_owned).collect();
    assert_eq!(got, strings(&json.output));
    let back = stdout(&gfpf(&["ifft", "--prime", "t8", "--device", "cpu", s(&y)]));
    assert_eq!(back.lines().collect::<Vec<_>>(), strings(&json.input));
    // Digit-reversed order round-trips too, and --threads 1 gives the same.
    let dr = dir.join("dr.bin");
    stdout(&gfpf(&[
        "fft",
        "--prime",
        "t8",
        "--order",
        "digit-reversed",
        "--threads",
        "1",
        s(&input),
        "-o",
        s(&dr),
    ]));
    let back = stdout(&gfpf(&["ifft", "--prime", "t8", "--order", "digit-reversed", s(&dr)]));
    assert_eq!(back.lines().collect::<Vec<_>>(), strings(&json.input));
    // ω_N of the tower.
    let omega = stdout(&gfpf(&["fft", "--prime", "t8", "--size", "256", "--print-omega"]));
    assert_eq!(omega.trim(), json.omega.to_string());
}

#[test]
fn hex_binary_stdin_and_custom_primes() {
    let dir = scratch_dir();
    let x = dir.join("x.txt");
    fs::write(&x, "1\n0x2\n3\n0X4\n").unwrap();
    let dec = stdout(&gfpf(&["fft", "--prime", "p4", s(&x)]));
    let hex = stdout(&gfpf(&["fft", "--prime", "p4", "--hex", s(&x)]));
    assert!(dec.lines().next().unwrap() == "10" && hex.lines().next().unwrap() == "0xa");
    // Hex output reads back; binary in gives binary out of k·8 bytes each.
    let h = dir.join("h.txt");
    fs::write(&h, &hex).unwrap();
    let round = stdout(&gfpf(&["ifft", "--prime", "p4", s(&h)]));
    assert_eq!(round, "1\n2\n3\n4\n");
    let bin: Vec<u8> = (1u64..=4)
        .flat_map(|v| [v, 0, 0, 0])
        .flat_map(u64::to_le_bytes)
        .collect();
    let b = dir.join("x.bin");
    fs::write(&b, &bin).unwrap();
    let yb = dir.join("y.bin");
    stdout(&gfpf(&[
        "fft",
        "--prime",
        "p4",
        "--format",
        "binary",
        s(&b),
        "-o",
        s(&yb),
    ]));
    assert_eq!(fs::read(&yb).unwrap().len(), 4 * 32);
    assert_eq!(&fs::read(&yb).unwrap()[..8], &10u64.to_le_bytes());
    // Standard input, and a custom prime equal to t8.
    let out = stdout(&gfpf_stdin(&["fft", "--prime", "(2^63+2^34)^8+1", "-"], "1\n2\n"));
    // DFT_2 of (1, 2) is (3, 1 − 2 = p − 1).
    let t8 = gfpf::Field::<8>::preset(gfpf::Preset::T8).unwrap();
    assert_eq!(out, format!("3\n{}\n", t8.to_decimal(&t8.minus_one())));
}

#[test]
fn polymul_products() {
    let dir = scratch_dir();
    let (a, b, c) = (dir.join("a.txt"), dir.join("b.txt"), dir.join("c.txt"));
    fs::write(&a, "1\n2\n3\n").unwrap();
    fs::write(&b, "5\n7\n").unwrap();
    stdout(&gfpf(&["polymul", "--prime", "t16", s(&a), s(&b), "-o", s(&c)]));
    assert_eq!(fs::read_to_string(&c).unwrap(), "5\n17\n29\n21\n");
    // Long enough for the TFT: (1 + x + … + x^99)² = Σ min(i + 1, 199 − i) x^i.
    let ones = "1\n".repeat(100);
    fs::write(&a, &ones).unwrap();
    let out = stdout(&gfpf(&["polymul", "--prime", "p8", s(&a), s(&a)]));
    let coeffs: Vec<u64> = out.lines().map(|l| l.parse().unwrap()).collect();
    let want: Vec<u64> = (0..199).map(|i| if i < 100 { i + 1 } else { 199 - i }).collect();
    assert_eq!(coeffs, want);
}

/// Runs a failing command: exit status 1 (2 for usage errors), one line on
/// stderr containing `needle`, and `out` not created.
fn fails(args: &[&str], needle: &str, out: Option<&Path>) {
    let o = gfpf(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?} succeeded");
    assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}: {:?}", o.status);
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    if o.status.code() == Some(1) {
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    if let Some(out) = out {
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
    assert!(o.stdout.is_empty(), "{args:?} printed output");
}

#[test]
fn bad_input_is_a_one_line_error_and_no_file() {
    let dir = scratch_dir();
    let out = dir.join("out.txt");
    let o = s(&out);
    let file = |name: &str, text: &[u8]| {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        p
    };
    let bad_char = file("bad_char.txt", b"1\n12x4\n");
    fails(
        &["fft", "--prime", "t8", s(&bad_char), "-o", o],
        "bad_char.txt line 2: invalid character 'x'",
        Some(&out),
    );
    let negative = file("neg.txt", b"-5\n1\n");
    fails(
        &["fft", "--prime", "t8", s(&negative), "-o", o],
        "neg.txt line 1: negative value",
        Some(&out),
    );
    let p = gfpf::Field::<4>::preset(gfpf::Preset::P4).unwrap().p().to_string();
    let too_big = file("big.txt", format!("1\n{p}\n").as_bytes());
    fails(
        &["fft", "--prime", "p4", s(&too_big), "-o", o],
        "big.txt line 2: value is not below p",
        Some(&out),
    );
    let three = file("three.txt", b"1\n2\n3\n");
    fails(
        &["fft", "--prime", "t8", s(&three), "-o", o],
        "3 values; the transform size must be a power of two",
        Some(&out),
    );
    let eight = file("eight.txt", b"1\n2\n3\n4\n5\n6\n7\n8\n");
    // (2^35 + 2)^2 + 1 is prime with 2-adicity 2: no 8th root of unity.
    fails(
        &["fft", "--prime", "(2^35+2^1)^2+1", s(&eight), "-o", o],
        "exceeds 2^2",
        Some(&out),
    );
    let forty = file("forty.txt", "7\n".repeat(40).as_bytes());
    fails(
        &[
            "polymul",
            "--prime",
            "(2^35+2^1)^2+1",
            "--algorithm",
            "tft",
            s(&forty),
            s(&forty),
            "-o",
            o,
        ],
        "exceeds 2^2",
        Some(&out),
    );
    // Without --algorithm tft the product falls back to schoolbook.
    let square = stdout(&gfpf(&["polymul", "--prime", "(2^35+2^1)^2+1", s(&forty), s(&forty)]));
    assert_eq!(square.lines().nth(39), Some("1960"));
    // Blank lines at the end are the end of the file, as for any Unix tool.
    let trailing = file("trailing.txt", b"1\n2\n3\n4\n\n \n");
    assert_eq!(
        stdout(&gfpf(&["fft", "--prime", "t8", s(&trailing)])).lines().count(),
        4
    );
    let blank = file("blank.txt", b"1\n\n2\n");
    fails(
        &["ifft", "--prime", "t8", s(&blank), "-o", o],
        "blank.txt line 2: empty line",
        Some(&out),
    );
    let bin = file("x.bin", &[0u8; 65]);
    fails(
        &["fft", "--prime", "t8", "--format", "binary", s(&bin), "-o", o],
        "65 bytes is not a whole number of 64-byte elements",
        Some(&out),
    );
    let empty = file("empty.txt", b"");
    fails(
        &["fft", "--prime", "t8", s(&empty), "-o", o],
        "empty.txt: no values",
        Some(&out),
    );
    fails(
        &["polymul", "--prime", "t8", s(&empty), s(&three), "-o", o],
        "empty.txt: no values",
        Some(&out),
    );
    fails(
        &["fft", "--prime", "t9", s(&three), "-o", o],
        "unknown prime preset \"t9\"",
        Some(&out),
    );
    fails(
        &["fft", "--prime", "(2^63+2^33)^8+1", s(&eight), "-o", o],
        "is not prime",
        Some(&out),
    );
    let missing = dir.join("missing.txt");
    fails(
        &["fft", "--prime", "t8", s(&missing), "-o", o],
        "cannot read",
        Some(&out),
    );
    fails(
        &["polymul", "--prime", "t8", s(&three), s(&missing), "-o", o],
        "missing.txt: no such file",
        Some(&out),
    );
    if gfpf::cuda_unavailable_reason().is_some() {
        // No GPU here (CI): asking for one is a one-line error, no output.
        fails(
            &["fft", "--prime", "t8", "--device", "cuda", s(&eight), "-o", o],
            "no usable CUDA device",
            Some(&out),
        );
        fails(
            &[
                "polymul",
                "--prime",
                "t8",
                "--device",
                "cuda",
                s(&three),
                s(&three),
                "-o",
                o,
            ],
            "no usable CUDA device",
            Some(&out),
        );
        fails(&["bench", "--quick", "--device", "cuda"], "no usable CUDA device", None);
    } else {
        // On a GPU: transforms and products run there, with the host's
        // results.
        assert_eq!(
            stdout(&gfpf(&["fft", "--prime", "t8", "--device", "cuda", s(&eight)])),
            stdout(&gfpf(&["fft", "--prime", "t8", s(&eight)]))
        );
        assert_eq!(
            stdout(&gfpf(&[
                "polymul",
                "--prime",
                "t8",
                "--device",
                "cuda",
                s(&three),
                s(&three)
            ])),
            stdout(&gfpf(&["polymul", "--prime", "t8", s(&three), s(&three)]))
        );
    }
    fails(
        &["fft", "--prime", "t8", "--size", "3", "--print-omega"],
        "power of two",
        None,
    );
    fails(
        &["fft", "--prime", "t8", "--size", "2^273", "--print-omega"],
        "--size 2^273: above 2^272",
        None,
    );
    fails(
        &["fft", "--prime", "t8", "--size", "16", "--print-omega", s(&eight)],
        "cannot be used with",
        None,
    );
    // A thread count the machine cannot use is refused before any starts.
    for count in ["0", "100000"] {
        fails(
            &["fft", "--prime", "t8", "--threads", count, s(&eight), "-o", o],
            &format!("--threads: {count} threads asked for: between 1 and"),
            Some(&out),
        );
    }
    // An existing output is left as it was when the command fails.
    fs::write(&out, "keep\n").unwrap();
    fails(&["fft", "--prime", "t8", s(&three), "-o", o], "power of two", None);
    assert_eq!(fs::read_to_string(&out).unwrap(), "keep\n");
    // And no temporary files are left in the directory.
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("gfpf-tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

/// `-o` replaces a regular file whole (keeping its mode), replaces what a
/// symbolic link leads to (the link stays), and writes through to devices
/// and named pipes.
#[cfg(unix)]
#[test]
fn outputs_keep_links_modes_and_devices() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = scratch_dir();
    let input = dir.join("x4.txt");
    fs::write(&input, "1\n2\n3\n4\n").unwrap();
    let expected = stdout(&gfpf(&["fft", "--prime", "t8", s(&input)]));
    let run = |out: &Path| stdout(&gfpf(&["fft", "--prime", "t8", s(&input), "-o", s(out)]));

    let private = dir.join("private.txt");
    fs::write(&private, "old\n").unwrap();
    fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
    run(&private);
    assert_eq!(fs::read_to_string(&private).unwrap(), expected);
    assert_eq!(fs::metadata(&private).unwrap().permissions().mode() & 0o777, 0o600);

    let target = dir.join("target.txt");
    fs::write(&target, "old\n").unwrap();
    let link = dir.join("link.txt");
    symlink("target.txt", &link).unwrap();
    run(&link);
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), expected);

    // A link to a file that does not exist yet: the file is created.
    let dangling = dir.join("dangling.txt");
    symlink("later.txt", &dangling).unwrap();
    run(&dangling);
    assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(dir.join("later.txt")).unwrap(), expected);

    // Another hard link to the file sees the result.
    let twin = dir.join("twin.txt");
    fs::hard_link(&private, &twin).unwrap();
    run(&private);
    fs::write(&input, "5\n6\n7\n8\n").unwrap();
    let expected2 = stdout(&gfpf(&["fft", "--prime", "t8", s(&input)]));
    run(&private);
    assert_eq!(fs::read_to_string(&twin).unwrap(), expected2);

    // /dev/null stays a device.
    run(Path::new("/dev/null"));
    assert!(!fs::metadata("/dev/null").unwrap().is_file());

    // A named pipe is written through, not replaced by a file.
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|st| st.success()) {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
        };
        run(&fifo);
        assert_eq!(reader.join().unwrap(), expected2);
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    } else {
        eprintln!("skipped: the named-pipe case (no mkfifo here)");
    }

    fails(
        &["fft", "--prime", "t8", s(&input), "-o", s(&dir)],
        "it is a directory",
        None,
    );
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("gfpf-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn verify_passes_and_reports_cuda_skipped() {
    let out = stdout(&gfpf(&[
        "verify",
        "--prime",
        "t8",
        "--prime",
        "p64",
        "--max-log2n",
        "8",
        "--max-log2n-for",
        "p64=5",
    ]));
    let gpu = gfpf::cuda_unavailable_reason().is_none();
    let passes = out.lines().filter(|l| l.ends_with("pass")).count();
    assert_eq!(passes, if gpu { 6 } else { 4 }, "{out}");
    assert!(gpu || out.contains("cuda") && out.contains("skipped"), "{out}");
    // The override applies to p64 only.
    let sizes: Vec<&str> = out
        .lines()
        .filter(|l| l.ends_with("pass"))
        .map(|l| {
            if l.contains("≤2^8") {
                "8"
            } else if l.contains("≤2^5") {
                "5"
            } else {
                "?"
            }
        })
        .collect();
    let want: &[&str] = if gpu {
        &["8", "8", "8", "5", "5", "5"]
    } else {
        &["8", "8", "5", "5"]
    };
    assert_eq!(sizes, want, "{out}");
    fails(&["verify", "--max-log2n-for", "t8"], "NAME=M", None);
    fails(&["verify", "--max-log2n-for", "t8=30"], "from 1 to 20", None);
    fails(&["verify", "--max-log2n-for", "q9=3"], "q9", None);
}

/// `bench --model FILE` reads the time model's figures before it times
/// anything: a missing or malformed file is a one-line error naming it, and
/// without `--device cuda` the option is refused (it compares GPU times).
#[test]
fn bench_model_file_errors_are_named() {
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/benchmarks/gpu_contest.json");
    fails(&["bench", "--quick", "--model", model], "it needs --device cuda", None);
    fails(
        &[
            "bench",
            "--quick",
            "--device",
            "cuda",
            "--model",
            "/nonexistent/model.json",
        ],
        "/nonexistent/model.json: ",
        None,
    );
    let dir = scratch_dir();
    let bad = dir.join("model.json");
    std::fs::write(&bad, r#"{"commit": "c", "date": "d", "products": []}"#).unwrap();
    fails(
        &["bench", "--quick", "--device", "cuda", "--model", s(&bad)],
        "not a GPU model file (cargo xtask gpu-model --contest): no \"dft\" rows",
        None,
    );
}

#[test]
fn bench_quick_prints_its_table() {
    let out = stdout(&gfpf(&["--threads", "2", "bench", "--quick", "--prime", "t2"]));
    assert!(out.contains("FFT ") && out.contains("product "), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("FFT") || l.starts_with("product"))
            .count(),
        4
    );
    // Like with like, and said: one ratio column per thread count.
    assert!(out.contains("GMP/gfpf 1T") && out.contains("small/gfpf 2T"), "{out}");
    assert!(
        !out.contains("Avx512") && !out.contains("Avx2 "),
        "internal names: {out}"
    );
    // NTL and FLINT beside gfpf where installed, else how to add them.
    match gfpf_baselines::peers::Harness::build(&gfpf_baselines::peers::cache_dir()) {
        Ok(_) => {
            assert!(out.contains("Products against NTL and FLINT"), "{out}");
            assert!(
                out.contains("fastest/gfpf 1T") && out.contains("fastest/gfpf 2T"),
                "{out}"
            );
            assert_eq!(out.lines().filter(|l| l.starts_with("t2 ")).count(), 2, "{out}");
        }
        Err(_) => assert!(out.contains("scripts/setup.sh --peers"), "{out}"),
    }
    // One thread: no second gfpf column that repeats the first.
    let one = stdout(&gfpf(&["--threads", "1", "bench", "--quick", "--prime", "t2"]));
    assert!(
        !one.contains("gfpf 1T     gfpf 1T") && one.contains("small/gfpf 1T"),
        "{one}"
    );
}

#[path = "../../gfpf/tests/facade/mutations.rs"]
#[allow(dead_code)]
mod mutations;

/// Files of values built from the fuzz targets' seed corpus and mutated
/// (bytes flipped, inserted, deleted, repeated; numbers, separators and
/// Unicode spliced in), given to `gfpf fft`, `ifft` and `polymul` in text and
/// binary formats: each run succeeds with one output line per value (a power
/// of two of them) or fails with one line, an exit status of 1 or 2 and no
/// output file; never a panic or a signal. `GFPF_FUZZ_SEED` replays a run.
#[test]
fn mutated_input_files_never_crash_the_program() {
    use mutations::{Rng, load_corpus, mutate};
    let seed = std::env::var("GFPF_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(1, |d| d.as_nanos() as u64) | 1
        });
    let mut rng = Rng(seed);
    let values = load_corpus("values");
    let binary = load_corpus("binary");
    let dir = scratch_dir();
    let input = dir.join("in");
    let out = dir.join("out");
    let (mut ok, mut refused) = (0, 0);
    for round in 0..600 {
        let text_format = rng.below(3) != 0;
        let mut bytes = if text_format {
            // 1 to 8 lines of seed values.
            let lines = 1 + rng.below(8);
            let mut b = Vec::new();
            for _ in 0..lines {
                b.extend_from_slice(&values[rng.below(values.len())]);
                b.push(b'\n');
            }
            b
        } else {
            binary[rng.below(binary.len())].clone()
        };
        for _ in 0..rng.below(4) {
            mutate(&mut bytes, &values, &mut rng);
        }
        fs::write(&input, &bytes).unwrap();
        let _ = fs::remove_file(&out);
        let format = if text_format { "text" } else { "binary" };
        let command = ["fft", "ifft", "polymul"][round % 3];
        let mut args = vec![command, "--prime", "t8", "--format", format, s(&input)];
        if command == "polymul" {
            args.push(s(&input));
        }
        args.extend(["-o", s(&out)]);
        let o = gfpf(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        let replay = format!(
            "GFPF_FUZZ_SEED={seed} round {round}: {args:?} on b\"{}\"",
            bytes.escape_ascii()
        );
        assert!(!err.contains("panicked"), "{replay}: {err}");
        match o.status.code() {
            Some(0) => {
                ok += 1;
                assert!(out.exists(), "{replay}: no output");
            }
            Some(1 | 2) => {
                refused += 1;
                assert!(!out.exists(), "{replay}: left an output file");
                assert_eq!(err.trim_end().lines().count(), 1, "{replay}: {err}");
            }
            other => panic!("{replay}: exit {other:?} {err}"),
        }
    }
    eprintln!("mutated files: {ok} accepted, {refused} refused (GFPF_FUZZ_SEED={seed})");
    assert!(ok > 0 && refused > 0, "the mutations should give both kinds");
}
