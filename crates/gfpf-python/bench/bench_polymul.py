"""Products from Python: gfpf against python-flint's fmpz_mod_poly.

Both start from lists of Python ints and end with a list of Python ints
(conversions included, as a user pays them); gfpf also from NumPy digit
arrays (no conversion). The contenders alternate round by round, and the
medians are reported with their ratios.

    python crates/gfpf-python/bench/bench_polymul.py [--field t8] [--sizes 12,14,16] [--rounds 7] [--threads 1]
"""

import argparse
import platform
import random
import statistics
import time

import gfpf


def timed(work):
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", default="t8")
    parser.add_argument("--sizes", default="12,14,16", help="log2 of the operands' length, comma-separated")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    import flint  # python-flint

    f = gfpf.Field(args.field, threads=args.threads)
    flint.ctx.threads = args.threads
    ctx = flint.fmpz_mod_poly_ctx(f.p)
    print(f"# {f}; {args.threads} thread(s); {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"# python-flint {flint.__version__}, gfpf {gfpf.__version__}; median of {args.rounds} alternating rounds")
    print("| n | python-flint | gfpf (ints) | gfpf (digit arrays) | flint / gfpf (ints) | flint / gfpf (arrays) |")
    print("|---|---|---|---|---|---|")
    for log2_n in map(int, args.sizes.split(",")):
        n = 1 << log2_n
        rnd = random.Random(log2_n)
        a = [rnd.randrange(f.p) for _ in range(n)]
        b = [rnd.randrange(f.p) for _ in range(n)]
        da, db = f.to_digits(a), f.to_digits(b)
        times = {"flint": [], "ints": [], "arrays": []}
        for _ in range(args.rounds):
            t, by_flint = timed(lambda: [int(c) for c in (ctx(a) * ctx(b)).coeffs()])
            times["flint"].append(t)
            t, by_gfpf = timed(lambda: gfpf.polymul(a, b, field=f))
            times["ints"].append(t)
            t, by_arrays = timed(lambda: gfpf.polymul(da, db, field=f))
            times["arrays"].append(t)
        assert by_gfpf == by_flint == f.from_digits(by_arrays), "products differ"
        m = {name: statistics.median(ts) for name, ts in times.items()}
        print(
            f"| 2^{log2_n} | {m['flint'] * 1e3:.1f} ms | {m['ints'] * 1e3:.1f} ms | {m['arrays'] * 1e3:.1f} ms "
            f"| {m['flint'] / m['ints']:.1f}x | {m['flint'] / m['arrays']:.1f}x |"
        )


if __name__ == "__main__":
    main()
