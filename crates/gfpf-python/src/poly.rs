//! `gfpf.Poly`: a polynomial over a `gfpf.Field`, and `gfpf.polymul` on
//! plain lists or digit arrays.

use std::hash::{Hash, Hasher};

use pyo3::IntoPyObjectExt;
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::errors::{Kind, error, from_gfpf};
use crate::field::{PyField, check_threads, is_int};
use crate::ints::{ints_to_words, word_int};
use crate::values::{self, Form, run};

/// A polynomial over a ``gfpf.Field``, immutable.
///
/// ``Poly([1, 2, 3], "t8")`` is 1 + 2x + 3x^2 over t8 (``field`` is a
/// ``Field`` or a field name); ``field.poly(coeffs)`` does the same.
/// Coefficients are ints in [0, p), lowest degree first, or a ``uint64``
/// digit array of shape (n, k); trailing zeros are dropped.
///
/// ``+``, ``-``, ``*`` (by a Poly or an int, ints reduced mod p), ``**``
/// (a non-negative int), ``==``, ``p(x)`` (the value at x, or at each of a
/// list of points), ``len(p)``, ``p[i]``, ``p.degree`` (-1 for zero).
#[pyclass(name = "Poly", module = "gfpf", frozen)]
pub(crate) struct PyPoly {
    field: Py<PyField>,
    /// Base-r digits, k per coefficient, no trailing zero coefficient.
    digits: Vec<u64>,
}

impl PyPoly {
    /// The polynomial of `field` with these coefficient values.
    pub(crate) fn from_values(field: Py<PyField>, coeffs: &Bound<'_, PyAny>) -> PyResult<Self> {
        let f = field.get();
        let elements = values::read(&f.engine, coeffs, "coefficient", false, f.threads)?;
        Ok(Self::from_digits(field, elements.digits))
    }

    fn from_digits(field: Py<PyField>, mut digits: Vec<u64>) -> Self {
        let k = field.get().engine.k();
        while digits.len() >= k && digits[digits.len() - k..].iter().all(|&d| d == 0) {
            digits.truncate(digits.len() - k);
        }
        PyPoly { field, digits }
    }

    fn k(&self) -> usize {
        self.field.get().engine.k()
    }

    fn same(&self, other: &PyPoly) -> PyResult<()> {
        let (a, b) = (self.field.get(), other.field.get());
        if a.same_field(b) {
            Ok(())
        } else {
            Err(error(
                Kind::FieldMismatch,
                format!(
                    "polynomials over different fields ({} and {})",
                    a.spec_text(),
                    b.spec_text()
                ),
            ))
        }
    }

    /// `other` as a polynomial of this field: a Poly (same field), or an int
    /// (reduced mod p) as a constant; None for anything else.
    fn operand(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u64>>> {
        if let Ok(poly) = other.cast::<PyPoly>() {
            let poly = poly.get();
            self.same(poly)?;
            return Ok(Some(poly.digits.clone()));
        }
        if is_int(other) {
            return Ok(Some(self.scalar(other)?));
        }
        Ok(None)
    }

    /// An int reduced mod p, as one element's digits.
    fn scalar(&self, value: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
        let py = value.py();
        let field = self.field.get();
        let reduced = value.rem(field.p_int(py)?)?;
        let mut words = ints_to_words(PyList::new(py, [reduced])?.as_any(), self.k(), "scalar")?;
        field
            .engine
            .words_to_digits(&mut words)
            .map_err(|(_, e)| from_gfpf(e.into()))?;
        Ok(words)
    }

    fn with(&self, py: Python<'_>, digits: Vec<u64>) -> PyPoly {
        PyPoly::from_digits(self.field.clone_ref(py), digits)
    }

    fn product(&self, py: Python<'_>, a: &[u64], b: &[u64]) -> PyResult<Vec<u64>> {
        let field = self.field.get();
        let engine = field.engine.clone();
        let square = std::ptr::eq(a, b);
        run(py, field.threads, move || {
            if square { engine.square(a) } else { engine.mul(a, b) }
        })?
        .map_err(from_gfpf)
    }

    fn sum(&self, py: Python<'_>, other: &Bound<'_, PyAny>, subtract: bool, reflected: bool) -> PyResult<Py<PyAny>> {
        let Some(b) = self.operand(other)? else {
            return Ok(py.NotImplemented());
        };
        let engine = &self.field.get().engine;
        let digits = if reflected {
            engine.add(&b, &self.digits, subtract)
        } else {
            engine.add(&self.digits, &b, subtract)
        };
        self.with(py, digits).into_py_any(py)
    }
}

#[pymethods]
impl PyPoly {
    #[new]
    #[pyo3(signature = (coeffs, field))]
    fn new(coeffs: &Bound<'_, PyAny>, field: &Bound<'_, PyAny>) -> PyResult<Self> {
        PyPoly::from_values(PyField::from_arg(field)?, coeffs)
    }

    /// The field of the coefficients.
    #[getter]
    fn field(&self, py: Python<'_>) -> Py<PyField> {
        self.field.clone_ref(py)
    }

    /// The degree; -1 for the zero polynomial.
    #[getter]
    fn degree(&self) -> isize {
        (self.digits.len() / self.k()) as isize - 1
    }

    /// The coefficients as ints, lowest degree first (none for zero).
    #[getter]
    fn coeffs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let field = self.field.get();
        values::write(py, &field.engine, self.digits.clone(), &Form::Ints, field.threads)
    }

    /// The coefficients as a ``uint64`` array of shape (len, k), base-r
    /// digits.
    fn digits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let field = self.field.get();
        let k = self.k();
        values::write(
            py,
            &field.engine,
            self.digits.clone(),
            &Form::Digits(vec![self.digits.len() / k, k]),
            None,
        )
    }

    fn __len__(&self) -> usize {
        self.digits.len() / self.k()
    }

    fn __bool__(&self) -> bool {
        !self.digits.is_empty()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let len = self.__len__() as isize;
        let i = if index < 0 { index + len } else { index };
        if !(0..len).contains(&i) {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "coefficient index {index} out of range for {len} coefficients"
            )));
        }
        let k = self.k();
        let mut words = self.digits[i as usize * k..(i as usize + 1) * k].to_vec();
        self.field.get().engine.digits_to_words(&mut words);
        word_int(py, &words)
    }

    /// The value at ``x`` (an int, reduced mod p), or a list of values at
    /// each point of a sequence.
    fn __call__<'py>(&self, py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let field = self.field.get();
        let (points, scalar) = if is_int(x) {
            (self.scalar(x)?, true)
        } else {
            (
                values::read(&field.engine, x, "point", false, field.threads)?.digits,
                false,
            )
        };
        let values = {
            let engine = field.engine.clone();
            let (coeffs, points) = (&self.digits, &points);
            run(py, field.threads, move || engine.evaluate(coeffs, points))?
        };
        let list = values::write(py, &field.engine, values, &Form::Ints, field.threads)?;
        if scalar { list.get_item(0) } else { Ok(list) }
    }

    fn __add__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.sum(py, other, false, false)
    }

    fn __radd__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.sum(py, other, false, true)
    }

    fn __sub__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.sum(py, other, true, false)
    }

    fn __rsub__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.sum(py, other, true, true)
    }

    fn __neg__(&self, py: Python<'_>) -> PyPoly {
        self.with(py, self.field.get().engine.neg(&self.digits))
    }

    fn __pos__(&self, py: Python<'_>) -> PyPoly {
        self.with(py, self.digits.clone())
    }

    fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(poly) = other.cast::<PyPoly>() {
            let poly = poly.get();
            self.same(poly)?;
            let digits = self.product(py, &self.digits, &poly.digits)?;
            return self.with(py, digits).into_py_any(py);
        }
        if is_int(other) {
            let c = self.scalar(other)?;
            return self
                .with(py, self.field.get().engine.scale(&self.digits, &c))
                .into_py_any(py);
        }
        Ok(py.NotImplemented())
    }

    fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__mul__(py, other)
    }

    fn __pow__(
        &self,
        py: Python<'_>,
        exponent: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        if modulo.is_some_and(|m| !m.is_none()) {
            return Err(error(Kind::Argument, "pow() with a modulus is not supported for Poly"));
        }
        if !is_int(exponent) {
            return Ok(py.NotImplemented());
        }
        let e: i64 = exponent
            .extract()
            .map_err(|_| error(Kind::Argument, format!("exponent {exponent} is too large")))?;
        if e < 0 {
            return Err(error(
                Kind::Argument,
                format!("exponent {e} is negative: a polynomial has no inverse in GF(p)[x]"),
            ));
        }
        let one = self.scalar(&1u64.into_pyobject(py)?.into_any())?;
        // Square-and-multiply from the top bit.
        let mut result = one;
        for bit in (0..64 - (e as u64).leading_zeros()).rev() {
            result = self.product(py, &result, &result)?;
            if (e >> bit) & 1 == 1 {
                result = self.product(py, &result, &self.digits)?;
            }
        }
        self.with(py, result).into_py_any(py)
    }

    fn __richcmp__(&self, py: Python<'_>, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let equal = if let Ok(poly) = other.cast::<PyPoly>() {
            let poly = poly.get();
            self.field.get().same_field(poly.field.get()) && self.digits == poly.digits
        } else if is_int(other) {
            let c = PyPoly::from_digits(self.field.clone_ref(py), self.scalar(other)?);
            self.digits == c.digits
        } else {
            return Ok(py.NotImplemented());
        };
        match op {
            CompareOp::Eq => equal.into_py_any(py),
            CompareOp::Ne => (!equal).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.field.get().engine.key().hash(&mut hasher);
        self.digits.hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let coeffs = self.coeffs(py)?;
        Ok(format!("Poly({}, {})", coeffs.repr()?, self.field.bind(py).repr()?))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        let coeffs: Vec<Bound<'_, PyAny>> = self.coeffs(py)?.try_iter()?.collect::<PyResult<_>>()?;
        let mut terms = Vec::new();
        for (i, c) in coeffs.iter().enumerate().rev() {
            if c.eq(0)? {
                continue;
            }
            let c = c.str()?.to_string();
            terms.push(match i {
                0 => c,
                1 if c == "1" => "x".into(),
                1 => format!("{c}*x"),
                _ if c == "1" => format!("x^{i}"),
                _ => format!("{c}*x^{i}"),
            });
        }
        Ok(if terms.is_empty() {
            "0".into()
        } else {
            terms.join(" + ")
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.get();
        let restore = py.import("gfpf._native")?.getattr("_poly_from_digit_bytes")?;
        let bytes = PyBytes::new(py, bytemuck::cast_slice(&this.digits));
        PyTuple::new(
            py,
            [restore, (this.field.clone_ref(py), bytes).into_pyobject(py)?.into_any()],
        )
    }
}

/// Unpickles a Poly: its field and its digits' native-endian bytes, checked
/// canonical again.
#[pyfunction]
pub(crate) fn _poly_from_digit_bytes(field: Py<PyField>, digits: &[u8]) -> PyResult<PyPoly> {
    let f = field.get();
    if !digits.len().is_multiple_of(8 * f.engine.k()) {
        return Err(error(
            Kind::Length,
            "pickled Poly: digit bytes are not a whole number of elements",
        ));
    }
    let digits: Vec<u64> = digits
        .chunks_exact(8)
        .map(|b| u64::from_ne_bytes(b.try_into().expect("8 bytes")))
        .collect();
    f.engine
        .check_digits(&digits)
        .map_err(|(i, e)| crate::errors::element_error("pickled coefficient", i, &e))?;
    Ok(PyPoly::from_digits(field, digits))
}

/// The product of two coefficient sequences over ``field``: exactly
/// len(a) + len(b) − 1 coefficients (none when either is empty), trailing
/// zeros kept.
///
/// ``a`` and ``b`` are sequences of ints in [0, p) (the result is a list of
/// ints) or ``uint64`` digit arrays of shape (n, k) (the result is one too).
/// ``field`` is a ``Field`` or a field name; ``threads`` overrides the
/// field's.
#[pyfunction]
#[pyo3(signature = (a, b, field, *, threads = None))]
pub(crate) fn polymul<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    field: &Bound<'py, PyAny>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let field = PyField::from_arg(field)?;
    let f = field.get();
    let threads = check_threads(threads)?.or(f.threads);
    let a = values::read(&f.engine, a, "coefficient of a", false, threads)?;
    let b = values::read(&f.engine, b, "coefficient of b", false, threads)?;
    let product = {
        let engine = f.engine.clone();
        let (x, y) = (&a.digits, &b.digits);
        run(py, threads, move || engine.mul(x, y))?.map_err(from_gfpf)?
    };
    let form = match (&a.form, &b.form) {
        (Form::Digits(_), _) => Form::Digits(Vec::new()),
        _ => Form::Ints,
    };
    values::write(py, &f.engine, product, &form, threads)
}
