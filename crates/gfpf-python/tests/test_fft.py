"""Field.fft against a naive DFT with root_of_unity, on every preset."""

import pytest

import gfpf
from conftest import edge_values, field, random_values


def naive_dft(f, x, inverse=False):
    n = len(x)
    w = f.root_of_unity(n.bit_length() - 1)
    if inverse:
        w = pow(w, -1, f.p)
    y = [sum(xj * pow(w, i * j, f.p) for j, xj in enumerate(x)) % f.p for i in range(n)]
    if inverse:
        n_inv = pow(n, -1, f.p)
        y = [v * n_inv % f.p for v in y]
    return y


def test_root_of_unity_has_exact_order(preset):
    f = preset
    for log2_n in (0, 1, 5, f.two_adicity):
        w = f.root_of_unity(log2_n)
        assert pow(w, 2**log2_n, f.p) == 1
        if log2_n:
            assert pow(w, 2 ** (log2_n - 1), f.p) == f.p - 1
    with pytest.raises(gfpf.LengthError, match="2-adicity"):
        f.root_of_unity(f.two_adicity + 1)


@pytest.mark.parametrize("n", [1, 2, 4, 8, 16])
def test_fft_matches_the_naive_dft(preset, n):
    f = preset
    x = random_values(f, n, seed=n)
    assert f.fft(x) == naive_dft(f, x)
    assert f.fft(x, inverse=True) == naive_dft(f, x, inverse=True)
    assert f.ifft(f.fft(x)) == x


def test_edge_values_and_larger_sizes():
    for name in ("t2", "t8", "p16"):
        f = field(name)
        x = (edge_values(f) * 7)[:32]
        assert f.fft(x) == naive_dft(f, x)
        big = random_values(f, 1 << 12, seed=3)
        assert f.ifft(f.fft(big)) == big


def test_batches_as_rows_and_arrays():
    np = pytest.importorskip("numpy")
    f = field("t8")
    rows = [random_values(f, 8, seed=s) for s in range(3)]
    out = f.fft(rows)
    assert out == [naive_dft(f, r) for r in rows]
    digits = np.stack([f.to_digits(r) for r in rows])
    assert digits.shape == (3, 8, 8)
    out_digits = f.fft(digits)
    assert out_digits.shape == (3, 8, 8)
    assert [f.from_digits(d) for d in out_digits] == out
    flat = f.fft(f.to_digits(rows[0]))
    assert flat.shape == (8, 8) and f.from_digits(flat) == out[0]
    assert f.fft(tuple(rows[0])) == out[0]


def test_digit_reversed_order_is_a_permutation_that_round_trips():
    f = field("t8")
    x = random_values(f, 64, seed=9)
    natural = f.fft(x)
    reversed_ = f.fft(x, order="digit-reversed")
    assert sorted(natural) == sorted(reversed_) and natural != reversed_
    assert f.ifft(reversed_, order="digit-reversed") == x
    permutation = f.digit_reversal(64)
    assert sorted(permutation) == list(range(64))
    assert reversed_ == [natural[i] for i in permutation]


@pytest.mark.parametrize("name", ["t8", "t64"])
def test_digit_reversal_names_each_position_of_the_plan(name):
    f = field(name)
    for n in (1, 2, 512):
        x = random_values(f, n, seed=n)
        natural = f.fft(x, device="cpu")
        reversed_ = f.fft(x, order="digit-reversed", device="cpu")
        assert reversed_ == [natural[i] for i in f.digit_reversal(n, device="cpu")]


@pytest.mark.parametrize(
    "n, error", [(0, gfpf.LengthError), (3, gfpf.LengthError), (2**70, OverflowError)]
)
def test_digit_reversal_of_a_bad_length_is_an_error(n, error):
    with pytest.raises(error):
        field("t8").digit_reversal(n)


def test_threads_and_device_give_the_same_values():
    f = field("t8")
    x = random_values(f, 256, seed=1)
    expected = f.fft(x)
    assert f.fft(x, threads=1) == expected
    assert f.fft(x, device="cpu") == expected
    assert gfpf.Field("t8", threads=2).fft(x) == expected


@pytest.mark.parametrize(
    "values, error, message",
    [
        ([1, 2, 3], gfpf.LengthError, "not a power of two"),
        ([], gfpf.LengthError, "at least one value"),
        ([[1, 2], [3]], gfpf.LengthError, "row 1 has 1 values, row 0 has 2"),
        ([1.0, 2], gfpf.ElementTypeError, "value 0: expected an int, got float"),
        (["1", 2], gfpf.ElementTypeError, "value 0: expected an int, got str"),
        ("12", gfpf.ElementTypeError, "expected a sequence of ints"),
        (5, gfpf.ElementTypeError, "expected a sequence of ints"),
        ([1, -1], gfpf.ElementError, "value 1: negative value"),
        ([[1, 2], [3, -4]], gfpf.ElementError, "row 1, value 1: negative value"),
        ([0, 2**600], gfpf.ElementError, "value 1: value is not below p"),
    ],
)
def test_bad_values_are_refused_by_name(values, error, message):
    with pytest.raises(error, match=message):
        field("t8").fft(values)


def test_p_itself_is_refused_and_p_minus_one_is_not():
    f = field("t8")
    with pytest.raises(gfpf.ElementError, match="value 2: value is not below p"):
        f.fft([0, 1, f.p, 3])
    assert f.ifft(f.fft([0, 1, f.p - 1, 3])) == [0, 1, f.p - 1, 3]


def test_bad_arguments():
    f = field("t8")
    with pytest.raises(gfpf.ArgumentError, match="unknown order"):
        f.fft([1, 2], order="bit-reversed")
    with pytest.raises(gfpf.ArgumentError, match="unknown device"):
        f.fft([1, 2], device="tpu")
    with pytest.raises(gfpf.ArgumentError, match="threads"):
        f.fft([1, 2], threads=-1)


def test_numpy_integer_scalars_are_ints():
    np = pytest.importorskip("numpy")
    f = field("t8")
    assert f.fft([np.uint64(1), np.int32(2)]) == f.fft([1, 2])


def test_digit_arrays_of_any_layout_are_read_in_order():
    np = pytest.importorskip("numpy")
    f = field("t4")
    x = random_values(f, 16, seed=4)
    digits = f.to_digits(x)
    assert (f.fft(digits[::2]) == f.fft(np.ascontiguousarray(digits[::2]))).all()
    assert f.from_digits(f.fft(digits[::2])) == f.fft(x[::2])
    transposed = np.ascontiguousarray(digits.T).T  # Fortran order, same values
    assert not transposed.flags.c_contiguous
    assert f.from_digits(f.fft(transposed)) == f.fft(x)


def test_what_cannot_be_allocated_is_an_out_of_memory_error():
    np = pytest.importorskip("numpy")
    f = field("t8")
    huge = np.broadcast_to(np.zeros(8, dtype=np.uint64), (1 << 40, 8))  # 64 TiB, no memory behind it
    with pytest.raises(gfpf.OutOfMemoryError, match="cannot be allocated") as caught:
        f.fft(huge)
    assert isinstance(caught.value, MemoryError)
