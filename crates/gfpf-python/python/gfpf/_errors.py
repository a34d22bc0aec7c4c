"""gfpf's exception classes.

Every error gfpf raises derives from :class:`gfpf.Error` and from the
built-in exception a Python caller would expect, so ``except ValueError``
catches a value out of range as it would anywhere else.
"""

__all__ = [
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


class Error(Exception):
    """Base class of every error gfpf raises."""


class FieldError(Error, ValueError):
    """Text that names no field (neither a preset nor ``(R)^K+1``), or a
    custom ``r^k + 1`` that is not prime."""


class ElementError(Error, ValueError):
    """A value that is not an element of the field: negative, not below p,
    or a digit array with a digit out of range. The message names its
    index."""


class ElementTypeError(Error, TypeError):
    """A value that is not an integer (a float, a string), or a digit
    array of another dtype than uint64."""


class LengthError(Error, ValueError):
    """A length or shape the operation cannot take: a transform size that
    is not a power of two or exceeds ``2**field.two_adicity``, rows of
    different lengths, a digit array whose last axis is not k."""


class FieldMismatchError(Error, ValueError):
    """Operands over two different fields."""


class ArgumentError(Error, ValueError):
    """A keyword argument out of range: an unknown device or order, a
    thread count the machine cannot use, a negative exponent."""


class DeviceError(Error, RuntimeError):
    """CUDA was asked for and cannot be used here, or the GPU failed."""


class OutOfMemoryError(Error, MemoryError):
    """The operation needs more memory than this process may use; nothing
    was allocated."""

# Shown as gfpf.ElementError, where users import them from.
for _name in __all__:
    globals()[_name].__module__ = "gfpf"
del _name
