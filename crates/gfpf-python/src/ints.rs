//! Python ints at the boundary: an int's little-endian bytes are read and
//! written by CPython (`int.to_bytes`, `int.from_bytes`, the only
//! byte-level access in the stable ABI), and the costly part, base-r digits
//! to and from binary words, runs in Rust on every core with the GIL
//! released ([`crate::engine::Engine::words_to_digits`]).

use pyo3::exceptions::PyOverflowError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList, PyString, PyTuple};

use crate::errors::{Kind, error};

/// The values of `items` (any iterable of ints, or of objects with
/// `__index__`) as k little-endian words each. A value of 2^(64k) or more
/// is refused here; one between p and 2^(64k) when converted to digits.
pub(crate) fn ints_to_words(items: &Bound<'_, PyAny>, k: usize, what: &str) -> PyResult<Vec<u64>> {
    let py = items.py();
    let nbytes = 8 * k;
    let to_bytes_args = PyTuple::new(
        py,
        [
            nbytes.into_pyobject(py)?.into_any(),
            intern!(py, "little").clone().into_any(),
        ],
    )?;
    if items.cast::<PyString>().is_ok() || items.cast::<PyBytes>().is_ok() {
        return Err(not_a_sequence(items, what));
    }
    let mut words = crate::values::word_buffer(items.len().unwrap_or(0).saturating_mul(k), what)?;
    for (index, item) in items.try_iter().map_err(|_| not_a_sequence(items, what))?.enumerate() {
        let item = item?;
        let value = as_int(&item, what, index)?;
        match value.call_method1(intern!(py, "to_bytes"), &to_bytes_args) {
            Ok(bytes) => {
                let bytes = bytes.cast_into::<PyBytes>()?;
                words.extend(
                    bytes
                        .as_bytes()
                        .chunks_exact(8)
                        .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))),
                );
            }
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
                let reason = if value.lt(0)? {
                    gfpf::FieldError::NegativeValue.to_string()
                } else {
                    format!("value is not below p (it has more than {} bits)", 64 * k)
                };
                return Err(error(Kind::Element, format!("{what} {index}: {reason}")));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(words)
}

/// `item` as a Python int: an int itself, or what `operator.index` makes of
/// it (NumPy's integer scalars); anything else is an `ElementTypeError`.
fn as_int<'py>(item: &Bound<'py, PyAny>, what: &str, index: usize) -> PyResult<Bound<'py, PyInt>> {
    if let Ok(int) = item.cast::<PyInt>() {
        return Ok(int.clone());
    }
    let py = item.py();
    let index_fn = py.import(intern!(py, "operator"))?.getattr(intern!(py, "index"))?;
    match index_fn.call1((item,)) {
        Ok(int) => Ok(int.cast_into::<PyInt>()?),
        Err(_) => Err(error(
            Kind::ElementType,
            format!(
                "{what} {index}: expected an int, got {} ({})",
                item.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_else(|_| "?".into()),
                item.repr().map(|r| r.to_string()).unwrap_or_default()
            ),
        )),
    }
}

fn not_a_sequence(items: &Bound<'_, PyAny>, what: &str) -> PyErr {
    let type_name = items
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    error(
        Kind::ElementType,
        format!("expected a sequence of ints ({what}s), got {type_name}"),
    )
}

/// One element's k little-endian words as a Python int.
pub(crate) fn word_int<'py>(py: Python<'py>, words: &[u64]) -> PyResult<Bound<'py, PyAny>> {
    if words[1..].iter().all(|&w| w == 0) {
        return Ok(words[0].into_pyobject(py)?.into_any());
    }
    let bytes: &[u8] = bytemuck::cast_slice(words);
    let bytes = if cfg!(target_endian = "little") {
        PyBytes::new(py, bytes)
    } else {
        let le: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        PyBytes::new(py, &le)
    };
    py.get_type::<PyInt>()
        .call_method1(intern!(py, "from_bytes"), (bytes, intern!(py, "little")))
}

/// Elements given as k little-endian words each, as a list of ints.
pub(crate) fn words_to_list<'py>(py: Python<'py>, words: &[u64], k: usize) -> PyResult<Bound<'py, PyList>> {
    let ints = words
        .chunks_exact(k)
        .map(|w| word_int(py, w))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, ints)
}
