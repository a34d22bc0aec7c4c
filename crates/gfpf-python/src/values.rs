//! Reading elements from Python (ints, nested lists of ints, NumPy digit
//! arrays) and writing them back in the form they came in.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use rayon::ThreadPool;

use crate::engine::Engine;
use crate::errors::{Kind, element_error, error, from_gfpf};
use crate::ints::{ints_to_words, words_to_list};

/// The form elements arrived in, so that results leave in the same form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Form {
    /// A flat sequence of ints.
    Ints,
    /// A sequence of `rows` sequences of ints, all of one length.
    Rows(usize),
    /// A NumPy array of base-r digits, with this shape (the last axis k).
    Digits(Vec<usize>),
}

/// Elements read from Python: their digits, and the form they came in.
pub(crate) struct Elements {
    pub digits: Vec<u64>,
    pub form: Form,
}

impl Elements {
    /// The number of elements.
    pub fn len(&self, k: usize) -> usize {
        self.digits.len() / k
    }
}

/// Reads `values`: a NumPy `uint64` array whose last axis holds an element's
/// k digits (checked canonical), or a sequence of ints (converted, checked
/// below p); with `rows`, also a sequence of sequences of ints.
pub(crate) fn read(
    engine: &Arc<dyn Engine>,
    values: &Bound<'_, PyAny>,
    what: &str,
    rows: bool,
    threads: Option<usize>,
) -> PyResult<Elements> {
    let py = values.py();
    let k = engine.k();
    if let Ok(array) = values.cast::<PyUntypedArray>() {
        let shape = array.shape().to_vec();
        let Ok(array) = values.cast::<PyArrayDyn<u64>>() else {
            return Err(error(
                Kind::ElementType,
                format!(
                    "{what}: a digit array must have dtype uint64, not {} (use .astype(numpy.uint64))",
                    array.dtype()
                ),
            ));
        };
        if shape.last() != Some(&k) {
            return Err(error(
                Kind::Length,
                format!(
                    "{what}: a digit array's last axis must hold the k = {k} digits of an element; its shape is {shape:?}"
                ),
            ));
        }
        // Any layout: a sliced or transposed array is copied in C order.
        let readonly = array
            .try_readonly()
            .map_err(|e| error(Kind::Argument, format!("{what}: {e}")))?;
        let view = readonly.as_array();
        let mut digits = word_buffer(view.len(), what)?;
        match view.as_slice() {
            Some(slice) => digits.extend_from_slice(slice),
            None => digits.extend(view.iter().copied()),
        }
        let checked = {
            let engine = engine.clone();
            let digits = &digits;
            run(py, threads, move || engine.check_digits(digits))
        }?;
        checked.map_err(|(index, e)| element_error(what, index, &e))?;
        return Ok(Elements {
            digits,
            form: Form::Digits(shape),
        });
    }
    let (mut words, form) = match nested_rows(values, rows)? {
        Some(row_list) => {
            let mut words = Vec::new();
            let mut row_len = None;
            for (i, row) in row_list.iter().enumerate() {
                let row_words = ints_to_words(row, k, &format!("row {i}, {what}"))?;
                if *row_len.get_or_insert(row_words.len()) != row_words.len() {
                    return Err(error(
                        Kind::Length,
                        format!(
                            "{what}: row {i} has {} values, row 0 has {}",
                            row_words.len() / k,
                            row_len.unwrap_or(0) / k
                        ),
                    ));
                }
                words.extend_from_slice(&row_words);
            }
            (words, Form::Rows(row_list.len()))
        }
        None => (ints_to_words(values, k, what)?, Form::Ints),
    };
    let converted = {
        let engine = engine.clone();
        let words = &mut words;
        run(py, threads, move || engine.words_to_digits(words))
    }?;
    converted.map_err(|(index, e)| match &form {
        Form::Rows(_) => {
            let n = words.len() / k / nested_count(&form);
            element_error(&format!("row {}, {what}", index / n), index % n, &e)
        }
        _ => element_error(what, index, &e),
    })?;
    Ok(Elements { digits: words, form })
}

fn nested_count(form: &Form) -> usize {
    match form {
        Form::Rows(r) => (*r).max(1),
        _ => 1,
    }
}

/// `values` as a list of rows when `rows` is asked for and its first item is
/// itself a sequence (not an int).
fn nested_rows<'py>(values: &Bound<'py, PyAny>, rows: bool) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
    if !rows {
        return Ok(None);
    }
    let Ok(list) = values
        .cast::<PyList>()
        .map(|l| l.as_any().clone())
        .or_else(|_| values.cast::<PyTuple>().map(|t| t.as_any().clone()))
    else {
        return Ok(None);
    };
    let first = match list.get_item(0) {
        Ok(first) => first,
        Err(_) => return Ok(None),
    };
    if first.cast::<PyList>().is_ok() || first.cast::<PyTuple>().is_ok() {
        Ok(Some(list.try_iter()?.collect::<PyResult<Vec<_>>>()?))
    } else {
        Ok(None)
    }
}

/// `digits` (elements of `engine`'s field) in `form`: a list of ints, a list
/// of lists, or a NumPy array of that shape (no copy: the array owns the
/// buffer).
pub(crate) fn write<'py>(
    py: Python<'py>,
    engine: &Arc<dyn Engine>,
    mut digits: Vec<u64>,
    form: &Form,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let k = engine.k();
    match form {
        Form::Digits(shape) => {
            let mut shape = shape.clone();
            let elements = digits.len() / k;
            // Results whose length differs from the input's (products) keep
            // only the element axis.
            if shape.iter().product::<usize>() != digits.len() {
                shape = vec![elements, k];
            }
            Ok(PyArray1::from_vec(py, digits).reshape(shape)?.into_any())
        }
        Form::Ints | Form::Rows(_) => {
            {
                let engine = engine.clone();
                let digits = &mut digits;
                run(py, threads, move || engine.digits_to_words(digits))?;
            }
            match form {
                Form::Rows(rows) if *rows > 0 => {
                    let row_words = digits.len() / rows;
                    let lists = digits
                        .chunks_exact(row_words.max(1))
                        .map(|row| words_to_list(py, row, k))
                        .collect::<PyResult<Vec<_>>>()?;
                    Ok(PyList::new(py, lists)?.into_any())
                }
                _ => Ok(words_to_list(py, &digits, k)?.into_any()),
            }
        }
    }
}

/// An empty buffer with room for `words` words, or an `OutOfMemoryError`
/// (never an abort) when the process cannot have that much.
pub(crate) fn word_buffer(words: usize, what: &str) -> PyResult<Vec<u64>> {
    let mut buffer = Vec::new();
    buffer.try_reserve_exact(words).map_err(|_| {
        let gib = (words as f64 * 8.0 / (1u64 << 30) as f64).ceil();
        error(
            Kind::OutOfMemory,
            format!("{what}s: {words} words ({gib} GiB) cannot be allocated"),
        )
    })?;
    Ok(buffer)
}

/// Runs `work` with the GIL released, on a pool of `threads` threads when
/// given (else on rayon's global pool, all cores).
pub(crate) fn run<T: Send>(py: Python<'_>, threads: Option<usize>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let pool = threads.map(pool).transpose()?;
    Ok(py.detach(move || match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }))
}

/// The pool of `threads` threads of the calling thread, built on its first
/// use there and kept until that thread ends. Each calling thread has pools
/// of its own: two Python threads asking for one thread each compute side
/// by side, not in turn on one shared worker.
fn pool(threads: usize) -> PyResult<Arc<ThreadPool>> {
    thread_local! {
        static POOLS: RefCell<HashMap<usize, Arc<ThreadPool>>> = RefCell::new(HashMap::new());
    }
    if let Some(pool) = POOLS.with_borrow(|pools| pools.get(&threads).cloned()) {
        return Ok(pool);
    }
    let pool = Arc::new(gfpf::thread_pool(threads).map_err(|e| from_gfpf(e.into()))?);
    POOLS.with_borrow_mut(|pools| pools.insert(threads, pool.clone()));
    Ok(pool)
}
