"""FFTs and polynomial products over big prime fields GF(p), p = r^k + 1.

gfpf computes in fields whose prime is a generalized Fermat number
p = r^k + 1 with r a sparse 64-bit radix (primes of 128 to 8192 bits),
on all CPU cores (and NVIDIA GPUs where one is usable). The work runs in
Rust with the GIL released.

>>> import gfpf
>>> F = gfpf.Field("t8")                 # a 505-bit prime
>>> a = F.poly([1, 2, 3])                # 1 + 2x + 3x^2
>>> b = F.poly([5, 7])
>>> (a * b).coeffs
[5, 17, 29, 21]
>>> x = [1, 2, 3, 4]
>>> F.ifft(F.fft(x)) == x
True
>>> gfpf.polymul([1, 2], [3, 4], field="t8")
[3, 10, 8]
"""

from gfpf._errors import (
    ArgumentError,
    DeviceError,
    ElementError,
    ElementTypeError,
    Error,
    FieldError,
    FieldMismatchError,
    LengthError,
    OutOfMemoryError,
)
from gfpf._native import (
    SUPPORTED_K,
    Field,
    Poly,
    __version__,
    cuda_unavailable_reason,
    max_threads,
    polymul,
    presets,
)

__all__ = [
    "Field",
    "Poly",
    "polymul",
    "presets",
    "cuda_unavailable_reason",
    "max_threads",
    "SUPPORTED_K",
    "__version__",
    "Error",
    "FieldError",
    "ElementError",
    "ElementTypeError",
    "LengthError",
    "FieldMismatchError",
    "ArgumentError",
    "DeviceError",
    "OutOfMemoryError",
]
