"""Type stubs of gfpf's native module (the names gfpf re-exports)."""

from typing import Any, Iterable, List, Literal, Optional, Sequence, SupportsIndex, Union, final, overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "Field",
    "Poly",
    "polymul",
    "_poly_from_digit_bytes",
    "presets",
    "cuda_unavailable_reason",
    "max_threads",
    "SUPPORTED_K",
    "__version__",
]
__version__: str
SUPPORTED_K: List[int]

_DeviceName = Literal["auto", "cpu", "cuda"]
_OrderName = Literal["natural", "digit-reversed"]
_DigitArray = npt.NDArray[np.uint64]
"""Base-r digits, uint64, the last axis k (least significant digit first)."""
_Values = Union[Sequence[SupportsIndex], _DigitArray]

@final
class Field:
    """A prime field GF(p), p = r^k + 1 with r a sparse 64-bit radix.

    ``Field("t8")`` names a preset (``presets()``); ``Field("(2^63+2^34)^8+1")``
    builds a custom field, checked prime. ``device`` says where transforms
    and products run, ``threads`` how many threads each call uses (None: all
    cores)."""

    def __new__(cls, spec: str, device: _DeviceName = "auto", threads: Optional[int] = None) -> Field: ...
    @property
    def p(self) -> int:
        """The prime."""
    @property
    def r(self) -> int:
        """The radix: p = r^k + 1."""
    @property
    def r_sparse(self) -> str:
        """r in sparse form, e.g. "2^63+2^34"."""
    @property
    def k(self) -> int:
        """The number of base-r digits of an element."""
    @property
    def bits(self) -> int:
        """The bit length of p."""
    @property
    def two_adicity(self) -> int:
        """The largest v with 2^v dividing p - 1: transforms go up to 2^v."""
    @property
    def name(self) -> Optional[str]:
        """The preset's name, or None for a custom field."""
    @property
    def spec(self) -> str:
        """The text that builds this field again."""
    @property
    def device(self) -> _DeviceName:
        """Where transforms and products run."""
    @property
    def threads(self) -> Optional[int]:
        """Threads per call (None: all cores)."""
    @overload
    def fft(
        self,
        values: Sequence[SupportsIndex],
        inverse: bool = False,
        order: _OrderName = "natural",
        device: Optional[_DeviceName] = None,
        threads: Optional[int] = None,
    ) -> List[int]: ...
    @overload
    def fft(
        self,
        values: Sequence[Sequence[SupportsIndex]],
        inverse: bool = False,
        order: _OrderName = "natural",
        device: Optional[_DeviceName] = None,
        threads: Optional[int] = None,
    ) -> List[List[int]]: ...
    @overload
    def fft(
        self,
        values: _DigitArray,
        inverse: bool = False,
        order: _OrderName = "natural",
        device: Optional[_DeviceName] = None,
        threads: Optional[int] = None,
    ) -> _DigitArray: ...
    @overload
    def ifft(
        self,
        values: Sequence[SupportsIndex],
        order: _OrderName = "natural",
        device: Optional[_DeviceName] = None,
        threads: Optional[int] = None,
    ) -> List[int]: ...
    @overload
    def ifft(
        self,
        values: Sequence[Sequence[SupportsIndex]],
        order: _OrderName = "natural",
        device: Optional[_DeviceName] = None,
        threads: Optional[int] = None,
    ) -> List[List[int]]: ...
    @overload
    def ifft(
        self,
        values: _DigitArray,
        order: _OrderName = "natural",
        device: Optional[_DeviceName] = None,
        threads: Optional[int] = None,
    ) -> _DigitArray: ...
    def digit_reversal(self, n: int, device: Optional[_DeviceName] = None) -> List[int]:
        """The frequency index at each position of a length-n transform in
        order="digit-reversed" (the plan's; it depends on the device)."""
    def root_of_unity(self, log2_n: int) -> int:
        """The principal 2^log2_n-th root of unity that fft uses."""
    def to_digits(self, values: Iterable[SupportsIndex]) -> _DigitArray:
        """Ints in [0, p) to an (n, k) digit array."""
    def from_digits(self, digits: _DigitArray) -> List[int]:
        """A digit array back to ints."""
    def poly(self, coeffs: _Values) -> Poly:
        """The polynomial with these coefficients, lowest degree first."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Poly:
    """An immutable polynomial over a Field; trailing zeros are dropped."""

    def __new__(cls, coeffs: _Values, field: Union[Field, str]) -> Poly: ...
    @property
    def field(self) -> Field: ...
    @property
    def degree(self) -> int:
        """The degree; -1 for the zero polynomial."""
    @property
    def coeffs(self) -> List[int]:
        """The coefficients, lowest degree first."""
    def digits(self) -> _DigitArray:
        """The coefficients as an (n, k) digit array."""
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __getitem__(self, index: int, /) -> int: ...
    @overload
    def __call__(self, x: int) -> int: ...
    @overload
    def __call__(self, x: Sequence[SupportsIndex]) -> List[int]: ...
    def __add__(self, other: Union[Poly, int], /) -> Poly: ...
    def __radd__(self, other: int, /) -> Poly: ...
    def __sub__(self, other: Union[Poly, int], /) -> Poly: ...
    def __rsub__(self, other: int, /) -> Poly: ...
    def __mul__(self, other: Union[Poly, int], /) -> Poly: ...
    def __rmul__(self, other: int, /) -> Poly: ...
    def __pow__(self, exponent: int, modulo: None = None, /) -> Poly: ...
    def __rpow__(self, base: object, modulo: None = None, /) -> Any: ...
    def __neg__(self) -> Poly: ...
    def __pos__(self) -> Poly: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@overload
def polymul(
    a: Sequence[SupportsIndex], b: Sequence[SupportsIndex], field: Union[Field, str], *, threads: Optional[int] = None
) -> List[int]: ...
@overload
def polymul(a: _DigitArray, b: _Values, field: Union[Field, str], *, threads: Optional[int] = None) -> _DigitArray: ...
def presets() -> List[str]:
    """The preset fields' names."""

def cuda_unavailable_reason() -> Optional[str]:
    """Why CUDA cannot be used here, or None when a GPU is usable."""

def max_threads() -> int:
    """The most threads a call may ask for on this machine."""

def _poly_from_digit_bytes(field: Field, digits: bytes) -> Poly: ...
