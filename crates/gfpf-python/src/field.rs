//! `gfpf.Field`: a prime field GF(p), p = r^k + 1, with its transforms.

use std::str::FromStr;
use std::sync::Arc;

use gfpf::{Device, FieldSpec, Order};
use numpy::PyArrayDyn;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyTuple};

use crate::engine::{Engine, FieldInfo, engine};
use crate::errors::{Kind, error, from_gfpf};
use crate::ints::word_int;
use crate::poly::PyPoly;
use crate::values::{self, Form, run};

/// A prime field GF(p) with p = r^k + 1, r a sparse 64-bit radix.
///
/// ``Field("t8")`` names one of the presets (``gfpf.presets()``);
/// ``Field("(2^63+2^34)^8+1")`` builds a custom field, checked prime.
/// ``device`` ("auto", "cpu" or "cuda") says where transforms and products
/// run; ``threads`` how many threads they use (default: all cores).
///
/// Elements are Python ints in [0, p) at the boundary, or NumPy ``uint64``
/// arrays of base-r digits (last axis k) for bulk data without one Python
/// int per value.
#[pyclass(name = "Field", module = "gfpf", frozen)]
pub(crate) struct PyField {
    spec: FieldSpec,
    pub(crate) engine: Arc<dyn Engine>,
    info: FieldInfo,
    device: Device,
    pub(crate) threads: Option<usize>,
}

/// A device name as Python passes it.
pub(crate) fn parse_device(name: &str) -> PyResult<Device> {
    Device::from_str(name).map_err(from_gfpf)
}

fn parse_order(name: &str) -> PyResult<Order> {
    match name {
        "natural" => Ok(Order::Natural),
        "digit-reversed" | "digit_reversed" => Ok(Order::DigitReversed),
        other => Err(error(
            Kind::Argument,
            format!("unknown order {other:?} (expected \"natural\" or \"digit-reversed\")"),
        )),
    }
}

/// A thread count as Python passes it: None (all cores) or 1 to the
/// machine's limit.
pub(crate) fn check_threads(threads: Option<i64>) -> PyResult<Option<usize>> {
    threads
        .map(|t| {
            let t = usize::try_from(t).unwrap_or(0);
            gfpf::cpu::check_thread_count(t).map_err(|e| from_gfpf(e.into()))
        })
        .transpose()
}

impl PyField {
    /// The same field (r and k), whatever its device and threads.
    pub(crate) fn same_field(&self, other: &PyField) -> bool {
        self.engine.key() == other.engine.key()
    }

    /// The field's p as a Python int.
    pub(crate) fn p_int<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        word_int(py, &self.info.p_words)
    }

    /// The text that builds this field again.
    pub(crate) fn spec_text(&self) -> String {
        self.spec.to_string()
    }

    /// The field of this name or spec, or the given Field itself.
    pub(crate) fn from_arg(field: &Bound<'_, PyAny>) -> PyResult<Py<PyField>> {
        if let Ok(field) = field.cast::<PyField>() {
            return Ok(field.clone().unbind());
        }
        if let Ok(text) = field.extract::<String>() {
            let py = field.py();
            return Py::new(py, PyField::new(py, &text, "auto", None)?);
        }
        Err(error(
            Kind::ElementType,
            format!(
                "field: expected a gfpf.Field or a field name such as \"t8\", got {}",
                field.get_type().name()?
            ),
        ))
    }
}

#[pymethods]
impl PyField {
    #[new]
    #[pyo3(signature = (spec, device = "auto", threads = None))]
    fn new(py: Python<'_>, spec: &str, device: &str, threads: Option<i64>) -> PyResult<Self> {
        let spec = FieldSpec::from_str(spec).map_err(from_gfpf)?;
        let device = parse_device(device)?;
        let threads = check_threads(threads)?;
        // A custom field's primality check, and CUDA's start, take a while.
        let engine = py.detach(|| engine(&spec, device)).map_err(from_gfpf)?;
        let info = engine.info();
        Ok(PyField {
            spec,
            engine,
            info,
            device,
            threads,
        })
    }

    /// p, the field's prime.
    #[getter]
    fn p<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.p_int(py)
    }

    /// r, the radix (p = r^k + 1).
    #[getter]
    fn r(&self) -> u64 {
        self.info.r
    }

    /// r in sparse form, e.g. "2^63+2^34".
    #[getter]
    fn r_sparse(&self) -> String {
        self.info.sparse.clone()
    }

    /// k, the number of base-r digits of an element.
    #[getter]
    fn k(&self) -> usize {
        self.engine.k()
    }

    /// The bit length of p.
    #[getter]
    fn bits(&self) -> u32 {
        self.info.bits
    }

    /// The largest v such that 2^v divides p − 1: transforms go up to 2^v.
    #[getter]
    fn two_adicity(&self) -> u32 {
        self.info.two_adicity
    }

    /// The preset's name ("t8"), or None for a custom field.
    #[getter]
    fn name(&self) -> Option<&'static str> {
        self.info.name
    }

    /// The text that builds this field again: a preset name or "(R)^K+1".
    #[getter]
    fn spec(&self) -> String {
        self.spec_text()
    }

    /// Where transforms and products run: "auto", "cpu" or "cuda".
    #[getter]
    fn device(&self) -> &'static str {
        self.device.name()
    }

    /// Threads per call (None: all cores of the machine).
    #[getter]
    fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// The transform of ``values``: forward, or inverse (scaled by 1/n) when
    /// ``inverse`` is true.
    ///
    /// ``values`` is a sequence of n ints (n a power of two up to
    /// 2^two_adicity), a sequence of such sequences (a batch, each row
    /// transformed), or a ``uint64`` digit array of shape (n, k) or
    /// (batch, n, k). The result has the same form. Output index i holds
    /// ``sum(x[j] * w**(i*j))`` with ``w = root_of_unity(log2(n))``; with
    /// ``order="digit-reversed"`` the forward output (and the inverse input)
    /// is in the plan's digit-reversed order, which a convolution can use
    /// without reordering.
    #[pyo3(signature = (values, inverse = false, order = "natural", device = None, threads = None))]
    fn fft<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
        inverse: bool,
        order: &str,
        device: Option<&str>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let order = parse_order(order)?;
        let device = device.map(parse_device).transpose()?.unwrap_or(self.device);
        let threads = check_threads(threads)?.or(self.threads);
        let k = self.engine.k();
        let mut elements = values::read(&self.engine, values, "value", true, threads)?;
        let total = elements.len(k);
        let n = match &elements.form {
            Form::Ints => total,
            Form::Rows(rows) => total / (*rows).max(1),
            Form::Digits(shape) => {
                if shape.len() < 2 {
                    return Err(error(
                        Kind::Length,
                        format!("values: a digit array has shape (n, k) or (batch, n, k), not {shape:?}"),
                    ));
                }
                shape[shape.len() - 2]
            }
        };
        if n == 0 {
            return Err(error(Kind::Length, "values: a transform needs at least one value"));
        }
        let ran = {
            let engine = self.engine.clone();
            let digits = &mut elements.digits;
            run(py, threads, move || engine.fft(digits, n, inverse, order, device))?
        };
        ran.map_err(from_gfpf)?;
        values::write(py, &self.engine, elements.digits, &elements.form, threads)
    }

    /// The inverse transform: ``fft(values, inverse=True, ...)``.
    #[pyo3(signature = (values, order = "natural", device = None, threads = None))]
    fn ifft<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
        order: &str,
        device: Option<&str>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.fft(py, values, true, order, device, threads)
    }

    /// The frequency index held at each position of a length-n transform in
    /// ``order="digit-reversed"``: ``fft(x, order="digit-reversed")[i] ==
    /// fft(x)[digit_reversal(n)[i]]``. The order follows the plan, which
    /// depends on the device (on CUDA, k = 32, 64 and 128 use smaller base
    /// transforms than on the CPU); ``device`` as in ``fft``.
    #[pyo3(signature = (n, device = None))]
    fn digit_reversal(&self, py: Python<'_>, n: usize, device: Option<&str>) -> PyResult<Vec<usize>> {
        let device = device.map(parse_device).transpose()?.unwrap_or(self.device);
        let engine = &self.engine;
        py.detach(|| engine.digit_reversal(n, device)).map_err(from_gfpf)
    }

    /// The principal 2^log2_n-th root of unity w that ``fft`` uses for
    /// transforms of length 2^log2_n.
    fn root_of_unity<'py>(&self, py: Python<'py>, log2_n: u32) -> PyResult<Bound<'py, PyAny>> {
        let words = self.engine.root_of_unity(log2_n).map_err(from_gfpf)?;
        let mut words = words;
        self.engine.digits_to_words(&mut words);
        word_int(py, &words)
    }

    /// Ints in [0, p) to a ``uint64`` array of shape (n, k): each row an
    /// element's base-r digits, least significant first.
    fn to_digits<'py>(&self, py: Python<'py>, values: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let elements = values::read(&self.engine, values, "value", false, self.threads)?;
        let n = elements.len(self.engine.k());
        values::write(
            py,
            &self.engine,
            elements.digits,
            &Form::Digits(vec![n, self.engine.k()]),
            self.threads,
        )
    }

    /// A digit array (last axis k, canonical digits) back to a list of ints.
    #[pyo3(name = "from_digits")]
    fn digits_to_ints<'py>(
        &self,
        py: Python<'py>,
        digits: &Bound<'py, PyArrayDyn<u64>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let elements = values::read(&self.engine, digits.as_any(), "digit row", false, self.threads)?;
        values::write(py, &self.engine, elements.digits, &Form::Ints, self.threads)
    }

    /// The polynomial with these coefficients (lowest degree first).
    fn poly(slf: &Bound<'_, Self>, coeffs: &Bound<'_, PyAny>) -> PyResult<PyPoly> {
        PyPoly::from_values(slf.clone().unbind(), coeffs)
    }

    fn __repr__(&self) -> String {
        let mut text = format!("Field('{}'", self.spec_text());
        if self.device != Device::Auto {
            text += &format!(", device='{}'", self.device.name());
        }
        if let Some(t) = self.threads {
            text += &format!(", threads={t}");
        }
        text + ")"
    }

    fn __str__(&self) -> String {
        let name = self.info.name.map(|n| format!("{n}: ")).unwrap_or_default();
        format!(
            "{name}GF(({})^{}+1), {} bits",
            self.info.sparse,
            self.engine.k(),
            self.info.bits
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyField>().is_ok_and(|o| self.same_field(o.get()))
    }

    fn __hash__(&self) -> u64 {
        let (r, k) = self.engine.key();
        r.rotate_left(7) ^ k as u64
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.get();
        let args = (this.spec_text(), this.device.name(), this.threads);
        PyTuple::new(py, [slf.get_type().into_any(), args.into_pyobject(py)?.into_any()])
    }
}

/// Whether `value` is a Python int (not a bool-like object of another type).
pub(crate) fn is_int(value: &Bound<'_, PyAny>) -> bool {
    value.cast::<PyInt>().is_ok()
}
