//! The facade's integration tests, one binary (each would compile the whole
//! stack for every k again): its API as users call it (`api`), and gfpf
//! under hostile conditions: threads racing on shared rings and transforms,
//! and arbitrary bytes fed to every parser.

mod api;
mod concurrency;
mod fuzz;
mod mutations;
mod targets;
