//! gfpf's errors as the Python exception classes of `gfpf._errors`, each
//! deriving from `gfpf.Error` and from the built-in exception a Python user
//! would catch (`ValueError`, `TypeError`, `MemoryError`, `RuntimeError`).

use gfpf::cpu::CpuError;
use gfpf::executor::TransformError;
use gfpf::{Error, FieldError};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// One exception class of `gfpf._errors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `gfpf.Error`: anything without a closer class.
    Base,
    /// Text that names no field, or a custom p that is not prime.
    Field,
    /// A value that is no element: negative, not below p, bad digits.
    Element,
    /// A value that is not an integer at all.
    ElementType,
    /// A length or shape the operation cannot take.
    Length,
    /// Operands of two different fields.
    FieldMismatch,
    /// A keyword argument out of range: device name, order, threads, exponent.
    Argument,
    /// CUDA asked for and not usable, or failing.
    Device,
    /// More memory than the process may use.
    OutOfMemory,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Base => "Error",
            Kind::Field => "FieldError",
            Kind::Element => "ElementError",
            Kind::ElementType => "ElementTypeError",
            Kind::Length => "LengthError",
            Kind::FieldMismatch => "FieldMismatchError",
            Kind::Argument => "ArgumentError",
            Kind::Device => "DeviceError",
            Kind::OutOfMemory => "OutOfMemoryError",
        }
    }

    fn cell(self) -> &'static PyOnceLock<Py<PyType>> {
        static CELLS: [PyOnceLock<Py<PyType>>; 9] = [const { PyOnceLock::new() }; 9];
        &CELLS[self as usize]
    }
}

/// The exception of class `kind` with this message.
pub(crate) fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| match kind.cell().import(py, "gfpf._errors", kind.class_name()) {
        Ok(class) => PyErr::from_type(class.clone(), message),
        // Only if the package's Python half is missing: still an exception.
        Err(_) => PyException::new_err(message),
    })
}

/// The class a field error belongs to.
fn field_error_kind(e: &FieldError) -> Kind {
    match e {
        FieldError::ValueTooLarge { .. }
        | FieldError::NegativeValue
        | FieldError::DigitOutOfRange { .. }
        | FieldError::WrongByteLength { .. }
        | FieldError::InvalidCharacter { .. }
        | FieldError::EmptyNumber
        | FieldError::ZeroInverse { .. } => Kind::Element,
        FieldError::RootOrderTooLarge { .. } | FieldError::LengthMismatch { .. } => Kind::Length,
        _ => Kind::Field,
    }
}

/// The Python exception for a gfpf error, with gfpf's own message.
pub(crate) fn from_gfpf(e: Error) -> PyErr {
    let kind = match &e {
        Error::Field(f) => field_error_kind(f),
        Error::Value { .. } | Error::Coefficient { .. } => Kind::Element,
        Error::Plan(_) => Kind::Length,
        Error::Transform(TransformError::TooLarge { .. } | TransformError::OutOfMemory { .. }) => Kind::OutOfMemory,
        Error::Transform(TransformError::AboveTwoAdicity { .. } | TransformError::LengthNotMultiple { .. }) => {
            Kind::Length
        }
        Error::Cpu(CpuError::ThreadCount { .. }) => Kind::Argument,
        Error::Cuda(_) | Error::NoCudaDevice { .. } | Error::NotOnDevice { .. } => Kind::Device,
        Error::UnknownDevice(_) => Kind::Argument,
        Error::InvalidFieldSpec { .. } | Error::UnsupportedDigitCount(_) => Kind::Field,
        Error::FieldMismatch { .. } => Kind::FieldMismatch,
        _ => Kind::Base,
    };
    error(kind, e.to_string())
}

/// The exception for element `index` of `what` failing with `e`.
pub(crate) fn element_error(what: &str, index: usize, e: &FieldError) -> PyErr {
    error(field_error_kind(e), format!("{what} {index}: {e}"))
}
