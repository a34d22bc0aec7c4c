//! libFuzzer entry of the `binary` target (see `targets.rs`).
#![no_main]

#[path = "../../crates/gfpf/tests/facade/targets.rs"]
#[allow(dead_code)]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::binary(data));
