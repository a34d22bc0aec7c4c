//! gfpf under hostile conditions: threads racing on shared rings and
//! transforms, and arbitrary bytes fed to every parser.

mod concurrency;
mod fuzz;
mod mutations;
mod targets;
