//! gfpf-field's integration tests, one binary (each would link the field
//! for every k again): the known-answer vectors, the arithmetic against rug
//! on every preset (property tests), presets and typed errors.

mod common;
mod known_answers;
mod oracle;
mod presets_and_errors;
