// Polynomial multiplication over GF(p) with NTL (ZZ_pX mul) and FLINT
// (fmpz_mod_poly_mul), timed on the same inputs as gfpf's `peers` benchmark.
//
// Built and run by `cargo bench -p gfpf-benches --bench peers` through
// gfpf_benches::peers; it is not part of any library.
//
//   peers [--only=ntl|--only=flint] <p in decimal> <threads> <min seconds> <log2 n>...
//
// `--only=` times one library (say, a second FLINT linked from FLINT_PREFIX,
// whose NTL would only repeat the system harness's timings).
//
// For each n it prints one JSON object per library on its own line:
//   {"library":"NTL","version":"11.5.1","gmp":"6.2.1","n":1024,"threads":1,
//    "reps":7,"median_ms":1.52,"min_ms":1.50,"checksum":"<decimal>"}
// The checksum is the product evaluated at CHECK_POINT mod p (Horner), so the
// caller can confirm that every library computed the same product as gfpf.
//
// Inputs: a and b have n coefficients each. Coefficient i of a is the integer
// whose little-endian 64-bit words are the next W outputs of SplitMix64,
// reduced mod p, where W = (bits of p) / 64 + 2; the generator state starts
// at SEED ^ (2n) for a and SEED ^ (2n + 1) for b.
// gfpf_benches::peers::inputs implements the same rule.

// gmp.h first: FLINT 3 declares its mpz conversions only when GMP's header
// has been seen.
#include <gmp.h>
#include <NTL/BasicThreadPool.h>
#include <NTL/ZZ_pX.h>
#include <NTL/version.h>
#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/fmpz_mod.h>
#include <flint/fmpz_mod_poly.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

static const uint64_t SEED = 0x5EED000000000000ull;
static const uint64_t CHECK_POINT = 0x9E3779B97F4A7C15ull;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A polynomial as GMP integers in [0, p).
struct Poly {
    std::vector<mpz_t> c;
    explicit Poly(size_t n) : c(n) {
        for (auto &x : c) mpz_init(x);
    }
    ~Poly() {
        for (auto &x : c) mpz_clear(x);
    }
    Poly(const Poly &) = delete;
    Poly &operator=(const Poly &) = delete;
};

static void fill(Poly &poly, uint64_t state, const mpz_t p) {
    size_t words = mpz_sizeinbase(p, 2) / 64 + 2;
    std::vector<uint64_t> buf(words);
    for (auto &x : poly.c) {
        for (auto &w : buf) w = splitmix64(&state);
        mpz_import(x, words, -1, sizeof(uint64_t), 0, 0, buf.data());
        mpz_mod(x, x, p);
    }
}

// Horner evaluation of the coefficients at CHECK_POINT, mod p.
static std::string checksum(const std::vector<mpz_t> &c, const mpz_t p) {
    mpz_t h, t;
    mpz_init(h);
    mpz_init_set_ui(t, 0);
    mpz_import(t, 1, -1, sizeof(uint64_t), 0, 0, &CHECK_POINT);
    for (size_t i = c.size(); i-- > 0;) {
        mpz_mul(h, h, t);
        mpz_add(h, h, c[i]);
        mpz_mod(h, h, p);
    }
    char *s = mpz_get_str(nullptr, 10, h);
    std::string out(s);
    void (*free_fn)(void *, size_t);
    mp_get_memory_functions(nullptr, nullptr, &free_fn);
    free_fn(s, out.size() + 1);
    mpz_clear(h);
    mpz_clear(t);
    return out;
}

// The median and the minimum of the timings of `run` in milliseconds, after
// one untimed call; at least 3 runs and at least `min_seconds` in total.
struct Timing {
    int reps;
    double median_ms, min_ms;
};

static Timing time_it(const std::function<void()> &run, double min_seconds) {
    run();
    std::vector<double> ms;
    double total = 0;
    while (ms.size() < 3 || (total < min_seconds && ms.size() < 1000)) {
        auto t0 = std::chrono::steady_clock::now();
        run();
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ms.push_back(s * 1e3);
        total += s;
    }
    std::sort(ms.begin(), ms.end());
    size_t m = ms.size();
    double median = m % 2 ? ms[m / 2] : 0.5 * (ms[m / 2 - 1] + ms[m / 2]);
    return {static_cast<int>(m), median, ms[0]};
}

static void report(const char *library, const char *version, size_t n, int threads, const Timing &t,
                   const std::string &check) {
    std::printf(
        "{\"library\":\"%s\",\"version\":\"%s\",\"gmp\":\"%s\",\"n\":%zu,\"threads\":%d,\"reps\":%d,"
        "\"median_ms\":%.6f,\"min_ms\":%.6f,\"checksum\":\"%s\"}\n",
        library, version, gmp_version, n, threads, t.reps, t.median_ms, t.min_ms, check.c_str());
    std::fflush(stdout);
}

static void to_zz(NTL::ZZ &out, const mpz_t x) {
    size_t bytes = (mpz_sizeinbase(x, 2) + 7) / 8;
    std::vector<unsigned char> buf(bytes + 1, 0);
    size_t written = 0;
    mpz_export(buf.data(), &written, -1, 1, 0, 0, x);
    NTL::ZZFromBytes(out, buf.data(), static_cast<long>(written));
}

static void from_zz(mpz_t out, const NTL::ZZ &x) {
    long bytes = NTL::NumBytes(x);
    std::vector<unsigned char> buf(bytes > 0 ? bytes : 1, 0);
    NTL::BytesFromZZ(buf.data(), x, bytes);
    mpz_import(out, bytes, -1, 1, 0, 0, buf.data());
}

static void ntl(const mpz_t p, const Poly &a, const Poly &b, int threads, double min_seconds) {
    NTL::SetNumThreads(threads);
    NTL::ZZ pz;
    to_zz(pz, p);
    NTL::ZZ_p::init(pz);
    size_t n = a.c.size();
    NTL::ZZ_pX x, y, z;
    NTL::ZZ t;
    for (size_t i = 0; i < n; i++) {
        to_zz(t, a.c[i]);
        NTL::SetCoeff(x, static_cast<long>(i), NTL::conv<NTL::ZZ_p>(t));
        to_zz(t, b.c[i]);
        NTL::SetCoeff(y, static_cast<long>(i), NTL::conv<NTL::ZZ_p>(t));
    }
    Timing timing = time_it([&] { NTL::mul(z, x, y); }, min_seconds);
    Poly c(static_cast<size_t>(NTL::deg(z) + 1));
    for (size_t i = 0; i < c.c.size(); i++) from_zz(c.c[i], NTL::rep(NTL::coeff(z, static_cast<long>(i))));
    report("NTL", NTL_VERSION, n, threads, timing, checksum(c.c, p));
}

static void flint(const mpz_t p, const Poly &a, const Poly &b, int threads, double min_seconds) {
    flint_set_num_threads(threads);
    fmpz_t pf, t;
    fmpz_init(pf);
    fmpz_init(t);
    fmpz_set_mpz(pf, p);
    fmpz_mod_ctx_t ctx;
    fmpz_mod_ctx_init(ctx, pf);
    fmpz_mod_poly_t x, y, z;
    fmpz_mod_poly_init(x, ctx);
    fmpz_mod_poly_init(y, ctx);
    fmpz_mod_poly_init(z, ctx);
    size_t n = a.c.size();
    for (size_t i = 0; i < n; i++) {
        fmpz_set_mpz(t, a.c[i]);
        fmpz_mod_poly_set_coeff_fmpz(x, static_cast<slong>(i), t, ctx);
        fmpz_set_mpz(t, b.c[i]);
        fmpz_mod_poly_set_coeff_fmpz(y, static_cast<slong>(i), t, ctx);
    }
    Timing timing = time_it([&] { fmpz_mod_poly_mul(z, x, y, ctx); }, min_seconds);
    Poly c(static_cast<size_t>(fmpz_mod_poly_length(z, ctx)));
    for (size_t i = 0; i < c.c.size(); i++) {
        fmpz_mod_poly_get_coeff_fmpz(t, z, static_cast<slong>(i), ctx);
        fmpz_get_mpz(c.c[i], t);
    }
    report("FLINT", FLINT_VERSION, n, threads, timing, checksum(c.c, p));
    fmpz_mod_poly_clear(x, ctx);
    fmpz_mod_poly_clear(y, ctx);
    fmpz_mod_poly_clear(z, ctx);
    fmpz_mod_ctx_clear(ctx);
    fmpz_clear(pf);
    fmpz_clear(t);
}

int main(int argc, char **argv) {
    bool run_ntl = true, run_flint = true;
    const char *program = argv[0];
    if (argc > 1 && std::strncmp(argv[1], "--only=", 7) == 0) {
        const char *which = argv[1] + 7;
        if (std::strcmp(which, "ntl") == 0) {
            run_flint = false;
        } else if (std::strcmp(which, "flint") == 0) {
            run_ntl = false;
        } else {
            std::fprintf(stderr, "peers: --only= takes ntl or flint, not %s\n", which);
            return 2;
        }
        argv++;
        argc--;
    }
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s [--only=ntl|--only=flint] <p in decimal> <threads> <min seconds> <log2 n>...\n",
                     program);
        return 2;
    }
    mpz_t p;
    if (mpz_init_set_str(p, argv[1], 10) != 0 || mpz_cmp_ui(p, 2) < 0) {
        std::fprintf(stderr, "peers: not a prime in decimal: %s\n", argv[1]);
        return 2;
    }
    int threads = std::atoi(argv[2]);
    double min_seconds = std::atof(argv[3]);
    if (threads < 1 || !(min_seconds >= 0)) {
        std::fprintf(stderr, "peers: bad thread count or time\n");
        return 2;
    }
    for (int i = 4; i < argc; i++) {
        int m = std::atoi(argv[i]);
        if (m < 0 || m > 24) {
            std::fprintf(stderr, "peers: log2 n out of range: %s\n", argv[i]);
            return 2;
        }
        size_t n = size_t{1} << m;
        Poly a(n), b(n);
        fill(a, SEED ^ (2 * n), p);
        fill(b, SEED ^ (2 * n + 1), p);
        if (run_ntl) ntl(p, a, b, threads, min_seconds);
        if (run_flint) flint(p, a, b, threads, min_seconds);
    }
    mpz_clear(p);
    flint_cleanup();
    return 0;
}
