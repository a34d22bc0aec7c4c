//! gfpf-plan's integration tests, one binary: plans and their recipes, the
//! six-step decomposition, and the generated CUDA codelets run on the host.

mod common;
mod cuda_codelets_on_host;
mod plan;
mod six_step;
