//! The native half of the `gfpf` Python package (`gfpf._native`): fields,
//! transforms and polynomials over GF(r^k + 1) from gfpf's Rust crates,
//! with the GIL released for every computation. The Python half
//! (`python/gfpf`) re-exports these names and defines the exception classes.

mod engine;
mod errors;
mod field;
mod ints;
mod poly;
mod values;

use pyo3::prelude::*;

/// The preset fields' names, smallest prime first.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    gfpf::Preset::ALL.iter().map(|p| p.name()).collect()
}

/// Why CUDA cannot be used here, or None when a GPU is usable.
#[pyfunction]
fn cuda_unavailable_reason(py: Python<'_>) -> Option<String> {
    py.detach(gfpf::cuda_unavailable_reason)
}

/// The most threads a call may ask for on this machine.
#[pyfunction]
fn max_threads() -> usize {
    gfpf::max_threads()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<field::PyField>()?;
    m.add_class::<poly::PyPoly>()?;
    m.add_function(wrap_pyfunction!(poly::polymul, m)?)?;
    m.add_function(wrap_pyfunction!(poly::_poly_from_digit_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_unavailable_reason, m)?)?;
    m.add_function(wrap_pyfunction!(max_threads, m)?)?;
    m.add("SUPPORTED_K", gfpf::SUPPORTED_K.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
