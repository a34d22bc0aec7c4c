"""gfpf.Field: properties, names, equality, pickling and refusals."""

import pickle
import re

import pytest

import gfpf
from conftest import PRESETS, field


def test_presets_are_the_thirteen_named_fields():
    assert PRESETS == ["t2", "t4", "t8", "t16", "t32", "t64", "t128", "p4", "p8", "p16", "p32", "p64", "p128"]
    assert gfpf.SUPPORTED_K == [2, 4, 8, 16, 32, 64, 128]


def test_properties_describe_p(preset):
    f = preset
    assert f.p == f.r**f.k + 1
    assert f.bits == f.p.bit_length()
    assert 2**32 <= f.r < 2**64
    v = f.two_adicity
    assert (f.p - 1) % 2**v == 0 and (f.p - 1) % 2 ** (v + 1) != 0
    assert f.name in PRESETS
    assert eval(f.r_sparse.replace("^", "**")) == f.r
    assert f.k in gfpf.SUPPORTED_K


def test_custom_spec_builds_the_same_field():
    t8 = field("t8")
    custom = gfpf.Field(f"({t8.r_sparse})^8+1")
    assert custom == t8 and hash(custom) == hash(t8)
    assert custom.name is None
    assert custom.spec == "(2^63+2^34)^8+1"
    assert repr(custom) == "Field('(2^63+2^34)^8+1')"
    assert gfpf.Field(" ( 2^63 + 2^34 ) ^ 8 + 1 ") == t8
    assert field("t8") != field("t4") and field("t8") != "t8"


def test_repr_and_str():
    assert repr(field("t8")) == "Field('t8')"
    assert repr(gfpf.Field("t4", device="cpu", threads=1)) == "Field('t4', device='cpu', threads=1)"
    assert str(field("t8")) == "t8: GF((2^63+2^34)^8+1), 505 bits"


def test_pickle_keeps_spec_device_and_threads():
    f = gfpf.Field("p16", device="cpu", threads=1)
    g = pickle.loads(pickle.dumps(f))
    assert g == f and repr(g) == repr(f) and g.threads == 1 and g.device == "cpu"


@pytest.mark.parametrize(
    "text, message",
    [
        ("t7", "unknown prime preset"),
        ("", "unknown prime preset"),
        ("(2^63+2^34)^6+1", "k = 6"),
        ("(2^63+2^34)^8", "missing +1"),
        ("(2^63+2^35)^8+1", "not prime"),
        ("(2^20)^8+1", "out of range"),
    ],
)
def test_bad_field_text_is_a_field_error(text, message):
    with pytest.raises(gfpf.FieldError, match=re.escape(message)) as caught:
        gfpf.Field(text)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, gfpf.Error)


def test_bad_device_and_thread_counts_are_argument_errors():
    with pytest.raises(gfpf.ArgumentError, match="unknown device"):
        gfpf.Field("t8", device="tpu")
    with pytest.raises(gfpf.ArgumentError, match="threads asked for"):
        gfpf.Field("t8", threads=0)
    with pytest.raises(gfpf.ArgumentError, match="threads asked for"):
        gfpf.Field("t8", threads=10**6)
    assert gfpf.max_threads() >= 1


def test_cuda_without_a_gpu_is_a_device_error():
    reason = gfpf.cuda_unavailable_reason()
    if reason is None:
        pytest.skip("a CUDA device is usable here: the refusal cannot be shown")
    with pytest.raises(gfpf.DeviceError, match="no usable CUDA device"):
        gfpf.Field("t8", device="cuda")
    # auto falls back to the CPU.
    assert gfpf.Field("t8", device="auto").poly([1, 2]) * 2 == gfpf.Field("t8").poly([2, 4])


def test_digits_round_trip_and_layout(preset):
    np = pytest.importorskip("numpy")
    f = preset
    values = [0, 1, f.p - 1, f.r - 1, f.r, 12345]
    digits = f.to_digits(values)
    assert digits.dtype == np.uint64 and digits.shape == (len(values), f.k)
    # Row i holds value i's base-r digits, least significant first; p - 1
    # is r^k, stored with top digit r.
    for value, row in zip(values, digits.tolist()):
        assert sum(d * f.r**i for i, d in enumerate(row)) == value
    assert digits.tolist()[2] == [0] * (f.k - 1) + [f.r]
    assert f.from_digits(digits) == values


def test_digit_arrays_are_checked():
    np = pytest.importorskip("numpy")
    f = field("t4")
    bad = np.zeros((3, 4), dtype=np.uint64)
    bad[1, 2] = f.r
    with pytest.raises(gfpf.ElementError, match="digit row 1: digit 2"):
        f.from_digits(bad)
    with pytest.raises(gfpf.LengthError, match="last axis"):
        f.from_digits(np.zeros((3, 8), dtype=np.uint64))
    with pytest.raises(gfpf.ElementTypeError, match="uint64"):
        f.fft(np.zeros((4, 4), dtype=np.int64))


def test_cuda_gives_the_cpu_values_where_a_gpu_is_usable():
    reason = gfpf.cuda_unavailable_reason()
    if reason is not None:
        pytest.skip(f"no usable CUDA device: {reason}")
    from conftest import random_values

    cpu, cuda = gfpf.Field("t8", device="cpu"), gfpf.Field("t8", device="cuda")
    x = random_values(cpu, 1 << 12, seed=2)
    assert cuda.fft(x) == cpu.fft(x) and cuda.ifft(cuda.fft(x)) == x
    a, b = random_values(cpu, 3000, seed=3), random_values(cpu, 2000, seed=4)
    assert gfpf.polymul(a, b, field=cuda) == gfpf.polymul(a, b, field=cpu)
