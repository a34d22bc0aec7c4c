"""Poly and polymul against python-flint's fmpz_mod_poly, on every preset."""

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gfpf
from conftest import PRESETS, edge_values, field, flint_product, random_values

# Lengths on both sides of the schoolbook threshold and of powers of two,
# odd ones included.
LENGTHS = [(0, 3), (1, 1), (1, 7), (3, 5), (17, 33), (64, 64), (100, 257), (513, 1000)]


@pytest.mark.parametrize("la, lb", LENGTHS)
def test_polymul_matches_flint_on_every_preset(preset, la, lb):
    f = preset
    if f.k >= 64 and la * lb > 64 * 64:
        la, lb = la // 4 + 1, lb // 4 + 1
    a = random_values(f, la, seed=la)
    b = random_values(f, lb, seed=lb + 1)
    assert gfpf.polymul(a, b, field=f) == flint_product(f, a, b)


def test_long_products_match_flint():
    for name, n in (("t8", 1 << 13), ("t2", 3000), ("p16", 1500)):
        f = field(name)
        a, b = random_values(f, n, seed=1), random_values(f, n + 7, seed=2)
        assert gfpf.polymul(a, b, field=f) == flint_product(f, a, b)


def test_squares_and_edge_values_match_flint(preset):
    f = preset
    a = edge_values(f) * 5
    assert gfpf.polymul(a, a, field=f) == flint_product(f, a, a)
    assert (f.poly(a) ** 2).coeffs == flint_product(f, a, a)


def _values(name):
    f = field(name)
    element = st.one_of(st.sampled_from(edge_values(f)), st.integers(min_value=0, max_value=f.p - 1))
    return st.lists(element, max_size=80)


@pytest.mark.parametrize("name", ["t2", "t8", "p32"])
def test_products_by_hypothesis(name):
    f = field(name)

    @settings(max_examples=60, deadline=None)
    @given(_values(name), _values(name))
    def check(a, b):
        assert gfpf.polymul(a, b, field=f) == flint_product(f, a, b)
        pa, pb = f.poly(a), f.poly(b)
        assert (pa * pb) == f.poly(flint_product(f, a, b))
        assert (pa + pb).coeffs == _trim([(x + y) % f.p for x, y in _zip(a, b)])
        assert (pa - pb).coeffs == _trim([(x - y) % f.p for x, y in _zip(a, b)])

    check()


def _zip(a, b):
    n = max(len(a), len(b))
    return zip(a + [0] * (n - len(a)), b + [0] * (n - len(b)))


def _trim(c):
    while c and c[-1] == 0:
        c.pop()
    return c


def test_poly_operators():
    f = field("t8")
    p = f.p
    a, b = f.poly([1, 2, 3]), gfpf.Poly([5, 7], "t8")
    assert (a * b).coeffs == [5, 17, 29, 21]
    assert a + b == f.poly([6, 9, 3]) and a - b == f.poly([p - 4, p - 5, 3])
    assert -a == f.poly([p - 1, p - 2, p - 3]) and +a == a
    assert 2 * a == a * 2 == f.poly([2, 4, 6]) and a * -1 == -a
    assert a + 1 == 1 + a == f.poly([2, 2, 3])
    assert a - 1 == f.poly([0, 2, 3]) and 1 - a == f.poly([0, p - 2, p - 3])
    assert a**0 == f.poly([1]) == 1 and a**1 == a and a**3 == a * a * a
    assert f.poly([]) ** 0 == 1 and f.poly([]) ** 5 == 0
    assert a(2) == 1 + 4 + 12 and a(p - 1) == 2 and a([0, 1, 2]) == [1, 6, 17]
    assert a.degree == 2 and f.poly([0, 0]).degree == -1 and len(a) == 3
    assert a[0] == 1 and a[-1] == 3 and not f.poly([0]) and bool(a)
    assert f.poly([1, 2, 0, 0]) == f.poly([1, 2]) and f.poly([1, 2, 0]).coeffs == [1, 2]
    assert a != b and a != "a" and hash(a) == hash(f.poly([1, 2, 3]))
    assert repr(a) == "Poly([1, 2, 3], Field('t8'))"
    assert str(a) == "3*x^2 + 2*x + 1" and str(f.poly([0, 1])) == "x" and str(f.poly([])) == "0"
    assert a.field == f
    with pytest.raises(IndexError):
        a[3]


def test_poly_refusals():
    f = field("t8")
    a = f.poly([1, 2])
    with pytest.raises(gfpf.FieldMismatchError, match="different fields"):
        a * field("t4").poly([1])
    with pytest.raises(gfpf.FieldMismatchError):
        a + field("p8").poly([1])
    with pytest.raises(gfpf.ArgumentError, match="negative"):
        a**-1
    with pytest.raises(TypeError):
        a * 1.5
    with pytest.raises(TypeError):
        a + "x"
    with pytest.raises(gfpf.ElementError, match="coefficient 1: value is not below p"):
        f.poly([0, f.p])
    with pytest.raises(gfpf.ElementError, match="coefficient 0: negative value"):
        f.poly([-1])
    with pytest.raises(gfpf.ElementTypeError, match="coefficient 2: expected an int, got float"):
        f.poly([1, 2, 3.0])
    with pytest.raises(gfpf.ElementError, match="coefficient of b 1"):
        gfpf.polymul([1], [2, -3], field=f)
    with pytest.raises(gfpf.FieldError):
        gfpf.polymul([1], [2], field="t9")
    with pytest.raises(gfpf.ElementTypeError, match="expected a gfpf.Field or a field name"):
        gfpf.polymul([1], [2], field=8)


def test_polymul_on_digit_arrays_returns_digit_arrays():
    np = pytest.importorskip("numpy")
    f = field("t16")
    a, b = random_values(f, 300, seed=5), random_values(f, 200, seed=6)
    product = gfpf.polymul(f.to_digits(a), f.to_digits(b), field=f)
    assert isinstance(product, np.ndarray) and product.shape == (499, f.k)
    assert f.from_digits(product) == flint_product(f, a, b)
    assert f.poly(f.to_digits(a)) == f.poly(a)
    assert f.poly(a).digits().tolist() == f.to_digits(a).tolist()
    assert gfpf.polymul([], [1], field=f) == []


def test_pickle_round_trips_every_preset():
    for name in PRESETS:
        f = field(name)
        a = f.poly(random_values(f, 9, seed=1))
        b = pickle.loads(pickle.dumps(a))
        assert b == a and b.field == f and b.coeffs == a.coeffs


def test_unpickling_checks_the_digits():
    f = field("t2")
    a = f.poly([f.p - 1])
    restore, (field_, data) = a.__reduce__()
    bad = bytearray(data)
    bad[0] = 1  # p - 1 is (0, r): a nonzero low digit beside top digit r is no element
    with pytest.raises(gfpf.ElementError):
        restore(field_, bytes(bad))
    with pytest.raises(gfpf.LengthError):
        restore(field_, data[:-1])


def test_random_products_by_seed_across_thread_counts():
    f1, f2 = gfpf.Field("t8", threads=1), gfpf.Field("t8", threads=2)
    rnd = random.Random(7)
    a = [rnd.randrange(f1.p) for _ in range(5000)]
    b = [rnd.randrange(f1.p) for _ in range(4000)]
    assert gfpf.polymul(a, b, field=f1) == gfpf.polymul(a, b, field=f2) == gfpf.polymul(a, b, field=f1, threads=2)
