//! The report's sections past the machine and the standing: products,
//! field multiplication, FFTs and the rest, each a table and its chart.

use super::*;

pub(super) fn products_section(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    md.push_str(
        "## Polynomial products against NTL and FLINT\n\n\
         n × n products over GF(p) (n coefficients per input, product of 2n − 1): gfpf `PolyMul` \
         with `MulAlgorithm::Auto` (schoolbook for the shortest, then the multi-modular engine), NTL `ZZ_pX` `mul`, FLINT `fmpz_mod_poly_mul`, on the same \
         inputs; every library's product is checked against gfpf's (a checksum) in the same run. \
         Bench: `peers`.\n\n",
    );
    let presets: Vec<&'static str> = inputs.peers.iter().map(|(p, _)| *p).collect();
    for preset in presets {
        let group = format!("peers_{preset}");
        let peers = &inputs.peers.iter().find(|(p, _)| *p == preset).unwrap().1;
        let all = peers.threads_all;
        let mut sizes: Vec<u64> = inputs
            .results
            .in_group(&group)
            .filter_map(|(_, p, _)| p.parse().ok())
            .chain(peers.points.iter().map(|p| p.n))
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        if sizes.is_empty() {
            continue;
        }
        let mut when: Vec<SystemTime> = peers.when.into_iter().collect();
        let mut series: Vec<Series> = Vec::new();
        let mut push = |name: String, n: u64, v: Option<f64>| {
            if let Some(v) = v {
                match series.iter_mut().find(|s| s.name == name) {
                    Some(s) => s.points.push((n as f64, v)),
                    None => series.push(Series {
                        name,
                        points: vec![(n as f64, v)],
                    }),
                }
            }
        };
        let libraries = peers.libraries();
        let mut header = String::from("| n | gfpf 1 thread |");
        for (_, name) in &libraries {
            let _ = write!(header, " {name} 1 thread |");
        }
        let _ = write!(header, " gfpf {all} threads |");
        for (_, name) in &libraries {
            let _ = write!(header, " {name} {all} threads |");
        }
        for threads in [1, all] {
            for (_, name) in &libraries {
                let _ = write!(header, " {name} / gfpf ({threads}) |");
            }
        }
        let columns = 2 + 3 * libraries.len() + libraries.len();
        let _ = write!(md, "### {preset}\n\n{header}\n|---|{}\n", "---:|".repeat(columns));
        for n in sizes {
            let mut ours = |f: &str| {
                inputs.results.get(&group, f, &n.to_string()).map(|m| {
                    when.push(m.when);
                    m.median_ns * 1e-6
                })
            };
            let (g1, ga) = (ours("gfpf_serial"), ours("gfpf_parallel"));
            let theirs = |threads: u64| -> Vec<Option<f64>> {
                libraries
                    .iter()
                    .map(|(lib, _)| peers.median_ms(lib, n, threads))
                    .collect()
            };
            let (t1, ta) = (theirs(1), theirs(all));
            let mut row = format!("| {} | {} |", pow2(n), opt_time(g1));
            for &t in &t1 {
                let _ = write!(row, " {} |", opt_time(t));
            }
            let _ = write!(row, " {} |", opt_time(ga));
            for &t in &ta {
                let _ = write!(row, " {} |", opt_time(t));
            }
            for (times, ours) in [(&t1, g1), (&ta, ga)] {
                for &t in times {
                    let _ = write!(row, " {} |", speedup(t, ours));
                }
            }
            let _ = writeln!(md, "{row}");
            push("gfpf, 1 thread".to_string(), n, g1);
            for ((_, name), &t) in libraries.iter().zip(&t1) {
                push(format!("{name}, 1 thread"), n, t);
            }
            push(format!("gfpf, {all} threads"), n, ga);
            for ((_, name), &t) in libraries.iter().zip(&ta) {
                push(format!("{name}, {all} threads"), n, t);
            }
        }
        let _ = writeln!(md, "\n({})\n", measured(when.iter()));
        let title = format!("n x n polynomial product over {preset}");
        md.push_str(&inputs.chart(
            &format!("products_{preset}.svg"),
            Chart {
                title: &title,
                x_label: "n (coefficients per input)",
                y_label: "time (ms)",
                series,
            },
        )?);
        md.push('\n');
    }
    Ok(())
}

pub(super) fn field_section(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    md.push_str(
        "## Field multiplication against GMP\n\n\
         One multiplication in GF(p), averaged over 1024 random pairs: gfpf's `Field::mul` (the method \
         the field chose: schoolbook digit products or the convolution method) and its squaring, \
         against rug (GMP) `mul` then `%` p; the bench also times the method the field did not \
         choose, the products four at a time (`Field::mul_lanes`, their chains of divisions \
         overlapped) and eight at a time in SIMD lanes (`LaneArith::mul_assign_each` on the CPU's \
         best lane instruction set: with AVX-512 IFMA in lanes for every preset (k ≤ 128, the \
         columns by Karatsuba steps from k = 16), four blocks of eight with their carry chains \
         interleaved, else four at a time; the blocks multiplied in place by fixed factors, as the \
         FFT's twiddles are). Bench: `field_mul`.\n\n\
         | preset | k | method | gfpf mul | other method | gfpf square | gfpf mul, 4 lanes | gfpf mul, SIMD lanes | GMP mulmod | GMP / gfpf | GMP / 4 lanes | GMP / SIMD lanes |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let per_op = |m: &Measurement| m.median_ns * 1e-6 / FIELD_MUL_BATCH;
    let mut when = Vec::new();
    let mut ours = Series {
        name: "gfpf mul".into(),
        points: vec![],
    };
    let mut gmp = Series {
        name: "GMP mulmod".into(),
        points: vec![],
    };
    let mut rows = 0;
    for preset in PRESETS {
        let group = format!("field_mul/{preset}");
        let get = |f: &str| inputs.results.get(&group, f, "");
        let (Some(mul), Some(gm)) = (get("gfpf_mul"), get("gmp_mulmod")) else {
            continue;
        };
        when.extend([mul.when, gm.when]);
        let k: u64 = preset[1..].parse().unwrap_or(0);
        let (m, g) = (per_op(mul), per_op(gm));
        // The bench names the method it times besides the field's own choice.
        let (method, other) = match (get("gfpf_mul_convolution"), get("gfpf_mul_schoolbook")) {
            (Some(conv), _) => ("schoolbook", format!("convolution {}", time_ms(per_op(conv)))),
            (None, Some(school)) => ("convolution", format!("schoolbook {}", time_ms(per_op(school)))),
            (None, None) => ("?", "-".to_string()),
        };
        let lanes = get("gfpf_mul_lanes4").map(per_op);
        let simd = get("gfpf_mul_simd8").map(per_op);
        let ratio = |t: Option<f64>| t.map_or("–".to_string(), |t| format!("{:.2}x", g / t));
        let _ = writeln!(
            md,
            "| {preset} | {k} | {method} | {} | {other} | {} | {} | {} | {} | {:.2}x | {} | {} |",
            time_ms(m),
            opt_time(get("gfpf_square").map(per_op)),
            opt_time(lanes),
            opt_time(simd),
            time_ms(g),
            g / m,
            ratio(lanes),
            ratio(simd)
        );
        if preset.starts_with('p') {
            ours.points.push((k as f64, m * 1e6));
            gmp.points.push((k as f64, g * 1e6));
        }
        rows += 1;
    }
    if rows == 0 {
        md.push_str(
            "| – | | | | | | | | | | | |\n\nNot measured yet: `cargo bench -p gfpf-benches --bench field_mul`.\n\n",
        );
        return Ok(());
    }
    let _ = writeln!(md, "\n({})\n", measured(when.iter()));
    md.push_str(&inputs.chart(
        "field_mul.svg",
        Chart {
            title: "one multiplication in GF(p), p-presets",
            x_label: "k (64-bit digits)",
            y_label: "time (ns)",
            series: vec![ours, gmp],
        },
    )?);
    md.push('\n');
    Ok(())
}

/// A section with one table (and, when `chart` is set, one chart) per preset
/// that has results in the criterion group `<prefix><preset>`.
struct PerPreset<'a> {
    intro: &'a str,
    prefix: &'a str,
    /// Chart title; `{preset}` is replaced.
    title: &'a str,
    columns: Vec<(&'a str, &'a str)>,
    ratios: Vec<(&'a str, usize, usize)>,
    chart: bool,
}

fn per_preset_section(md: &mut String, inputs: &mut Inputs, section: PerPreset<'_>) -> Result<(), String> {
    md.push_str(section.intro);
    for preset in PRESETS {
        let table = GroupTable {
            group: format!("{}{preset}", section.prefix),
            columns: section.columns.clone(),
            ratios: section.ratios.clone(),
            to_ms: ns_to_ms,
        };
        let Some((table_md, series, when)) = table.build(&inputs.results, "N") else {
            continue;
        };
        let _ = write!(md, "### {preset}\n\n{table_md}\n({})\n\n", measured(when.iter()));
        if section.chart {
            let title = section.title.replace("{preset}", preset);
            md.push_str(&inputs.chart(
                &format!("{}{preset}.svg", section.prefix),
                Chart {
                    title: &title,
                    x_label: "N",
                    y_label: "time (ms)",
                    series,
                },
            )?);
            md.push('\n');
        }
    }
    Ok(())
}

pub(super) fn fft_section(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    per_preset_section(
        md,
        inputs,
        PerPreset {
            intro: "## FFT against the same algorithm on GMP\n\n\
                    Forward DFT of size N, natural order: gfpf's CPU executor against the same six-step \
                    driver and generated codelets running on rug integers (ISSAC 2019's GMP variant). \
                    Bench: `fft`.\n\n",
            prefix: "fft_",
            title: "forward FFT over {preset}",
            columns: vec![
                ("gfpf 1 thread", "gfpf_serial"),
                ("GMP 1 thread", "gmp_serial"),
                ("gfpf all threads", "gfpf_parallel"),
                ("GMP all threads", "gmp_parallel"),
            ],
            ratios: vec![("GMP / gfpf (1)", 1, 0), ("GMP / gfpf (all)", 3, 2)],
            chart: true,
        },
    )
}

pub(super) fn other_sections(md: &mut String, inputs: &mut Inputs) -> Result<(), String> {
    per_preset_section(
        md,
        inputs,
        PerPreset {
            intro: "## Big prime against small primes (thesis chapter 7)\n\n\
                    The same GF(p) DFT computed by gfpf and by the small-prime approach: benchmark 1 \
                    projects the input to s word-size primes, runs s NTTs and reconstructs (same output), \
                    over 62-bit primes on the scalar `Plan` (62) and over 50-bit primes on `Plan52` (52: \
                    AVX-512 IFMA or AVX2 lanes, the project's fastest NTT; more primes); benchmark 2 is \
                    k `Plan52` NTTs alone over the same input bytes. Bench: `small_primes`.\n\n",
            prefix: "big_vs_small_",
            title: "GF(p) DFT over {preset}: big prime vs small primes",
            columns: vec![
                ("gfpf 1 thread", "gfpf_serial"),
                ("bench 1 (62), 1 thread", "bench1_*_serial"),
                ("bench 1 (52), 1 thread", "bench1p52_*_serial"),
                ("bench 2, 1 thread", "bench2_*_serial"),
                ("gfpf all threads", "gfpf_parallel"),
                ("bench 1 (62), all threads", "bench1_*_parallel"),
                ("bench 1 (52), all threads", "bench1p52_*_parallel"),
            ],
            ratios: vec![
                ("bench 1 (62) / gfpf (1)", 1, 0),
                ("bench 1 (52) / gfpf (1)", 2, 0),
                ("bench 1 (62) / gfpf (all)", 5, 4),
                ("bench 1 (52) / gfpf (all)", 6, 4),
            ],
            chart: true,
        },
    )?;
    // The same contest on the GPU, from the time model's data.
    let root = inputs
        .charts_dir
        .parent()
        .and_then(|docs| docs.parent())
        .ok_or("the charts' directory is not docs/benchmarks")?;
    for contest in super::gpu_contest::load(root)? {
        md.push_str(&super::gpu_contest::section(&contest));
    }
    per_preset_section(
        md,
        inputs,
        PerPreset {
            intro: "## Polynomial products against GMP and small primes\n\n\
                    The same products against GMP (Kronecker substitution, one `mpz_mul`) and the \
                    small-prime approach (s NTT convolutions, CRT, reduction mod p); N is the number of \
                    coefficients per input. Bench: `polymul`.\n\n",
            prefix: "polymul_",
            title: "",
            columns: vec![
                ("gfpf 1 thread", "gfpf_serial"),
                ("gfpf all threads", "gfpf_parallel"),
                ("GMP Kronecker", "gmp_kronecker"),
                ("small primes, 1 thread", "small_primes_serial_*"),
                ("small primes, all threads", "small_primes_parallel_*"),
            ],
            ratios: vec![("GMP / gfpf (1)", 2, 0), ("small primes / gfpf (all)", 4, 1)],
            chart: false,
        },
    )?;
    md.push_str(
        "## Word-size layer (gfpf-small)\n\nForward + inverse NTT, one thread (but the last column), ns per butterfly \
         (n/2 · log2 n butterflies each way), against the `concrete-ntt` crate (0.2, stable Rust: \
         AVX2) on the same prime in the same run. `Plan` is the 62-bit-capable scalar code; for \
         q < 2^50, `Plan52` runs in f64 lanes (AVX2 + FMA) or 52-bit integer lanes (AVX-512 IFMA), \
         whichever this CPU has. Bench: `ntt`.\n\n",
    );
    let per_butterfly = |ns: f64, n: u64| ns / (n as f64 * f64::from(n.max(2).trailing_zeros())) * 1e-6;
    let mut ntt_series = Vec::new();
    for q in ["q50", "q62", "q31"] {
        let mut columns = vec![("Plan", "forward_inverse")];
        let mut ratios = vec![("Plan / concrete-ntt", 0, 1)];
        columns.push(("concrete-ntt", "concrete_ntt"));
        if q == "q50" {
            columns.push(("Plan52, AVX2 + FMA", "lanes52_Avx2Fma"));
            columns.push(("Plan52, AVX-512 IFMA", "lanes52_Avx512Ifma"));
            columns.push(("Plan52, all threads", "lanes52_all_threads"));
            ratios.push(("AVX2 / concrete-ntt", 2, 1));
            ratios.push(("IFMA / concrete-ntt", 3, 1));
        }
        let table = GroupTable {
            group: format!("ntt/{q}"),
            columns: columns.clone(),
            ratios,
            to_ms: per_butterfly,
        };
        if let Some((table_md, mut series, when)) = table.build(&inputs.results, "n") {
            let _ = write!(md, "### {q}\n\n{table_md}\n({})\n\n", measured(when.iter()));
            for (line, (header, _)) in series.iter_mut().zip(&columns) {
                line.name = format!("{q} {header}");
                // The chart shows nanoseconds.
                line.points.iter_mut().for_each(|p| p.1 *= 1e6);
            }
            ntt_series.extend(series.into_iter().filter(|line| !line.points.is_empty()));
        }
    }
    if !ntt_series.is_empty() {
        md.push_str(&inputs.chart(
            "ntt.svg",
            Chart {
                title: "word-size NTT, forward + inverse",
                x_label: "n",
                y_label: "ns per butterfly",
                series: ntt_series,
            },
        )?);
        md.push('\n');
    }
    let dot = GroupTable {
        group: "dot/q50".into(),
        columns: vec![
            ("f64 λ-algorithm", "f64_lambda"),
            ("f64 (α, β, γ, δ) split", "f64_split"),
            ("integer Montgomery", "int_montgomery"),
        ],
        ratios: vec![("Montgomery / split", 2, 1)],
        to_ms: ns_to_ms,
    };
    if let Some((table_md, series, when)) = dot.build(&inputs.results, "n") {
        let _ = write!(
            md,
            "### Dot product mod a 50-bit prime\n\n{table_md}\n({})\n\n",
            measured(when.iter())
        );
        md.push_str(&inputs.chart(
            "dot.svg",
            Chart {
                title: "dot product mod q < 2^50",
                x_label: "n",
                y_label: "time (ms)",
                series,
            },
        )?);
        md.push('\n');
    }
    Ok(())
}
