"""Shared fixtures: the fields, edge values, and python-flint as the
reference for products."""

import functools
import random

import pytest

import gfpf

PRESETS = gfpf.presets()


@functools.lru_cache(maxsize=None)
def field(name, threads=None):
    """One Field per preset (and thread count), built once per test run."""
    return gfpf.Field(name, threads=threads)


def edge_values(f):
    """The values every arithmetic path must get right: 0, 1, p - 1 (top
    digit r), r - 1 and r."""
    return [0, 1, f.p - 1, f.r - 1, f.r]


def random_values(f, n, seed):
    """n values in [0, p), a fifth of them edge values."""
    rnd = random.Random(seed)
    edges = edge_values(f)
    return [rnd.choice(edges) if rnd.random() < 0.2 else rnd.randrange(f.p) for _ in range(n)]


def flint_product(f, a, b):
    """a * b by python-flint's fmpz_mod_poly, as len(a) + len(b) - 1
    coefficients (zeros kept), the form gfpf.polymul returns."""
    flint = pytest.importorskip("flint", reason="python-flint is not installed (pip install python-flint)")
    if not a or not b:
        return []
    ctx = flint.fmpz_mod_poly_ctx(f.p)
    coeffs = [int(c) for c in (ctx(a) * ctx(b)).coeffs()]
    return coeffs + [0] * (len(a) + len(b) - 1 - len(coeffs))


@pytest.fixture(params=PRESETS)
def preset(request):
    """Every preset field."""
    return field(request.param)
