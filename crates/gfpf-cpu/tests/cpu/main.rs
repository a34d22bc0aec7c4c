//! gfpf-cpu's integration tests, one binary: the shared executor suite on
//! every path of the CPU executor (`suite`), and polynomial products and
//! truncated transforms (`poly`). One binary rather than two: each would
//! compile the executor for every k again.

mod poly;
mod suite;
