//! Oracles and the shared executor test suite (DESIGN §4).
//!
//! An executor implements [`Executor`] and instantiates the whole suite with
//! one line, on every preset:
//!
//! ```text
//! gfpf_testkit::executor_suite!(MyExecutor);
//! ```
//!
//! The suite checks, per preset: the known-answer files of `testdata/`; a
//! naive O(N²) DFT; an independent radix-2 FFT on rug integers; inverse ∘
//! forward = id in both orders; the convolution theorem; linearity; batches;
//! dirty scratch buffers; errors for bad lengths. An executor that is not
//! usable here (no GPU) makes every test print why and return.

pub mod oracle;
pub mod suite;

use gfpf_field::{Element, Field};
use gfpf_plan::{Direction, Order};

/// What the suite needs from an executor.
pub trait Executor {
    /// Shown in messages.
    const NAME: &'static str;

    /// `Some(reason)` when the executor cannot run on this machine; the suite
    /// then prints the reason and skips.
    fn unavailable() -> Option<String> {
        None
    }

    /// Transforms `data` (a batch: its length a multiple of N) in place. With
    /// `scratch` given, uses it (contents arbitrary on entry); otherwise the
    /// executor allocates. Errors are returned as text.
    fn transform<const K: usize>(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
        data: &mut [Element<K>],
        scratch: Option<&mut [Element<K>]>,
    ) -> Result<(), String>;

    /// The scratch length the executor wants for a size-N plan.
    fn scratch_len<const K: usize>(field: &Field<K>, n: usize, direction: Direction, order: Order) -> usize;
}

/// Instantiates the shared suite for an executor type: one test module per
/// preset, each with every check of [`suite`].
#[macro_export]
macro_rules! executor_suite {
    ($exec:ty) => {
        $crate::executor_suite!(@presets $exec;
            t2 T2 2, t4 T4 4, t8 T8 8, t16 T16 16, t32 T32 32, t64 T64 64, t128 T128 128,
            p4 P4 4, p8 P8 8, p16 P16 16, p32 P32 32, p64 P64 64, p128 P128 128);
    };
    (@presets $exec:ty; $($name:ident $preset:ident $k:literal),*) => {
        $(
            mod $name {
                fn field() -> &'static ::gfpf_field::Field<$k> {
                    static F: ::std::sync::OnceLock<::gfpf_field::Field<$k>> = ::std::sync::OnceLock::new();
                    F.get_or_init(|| ::gfpf_field::Field::preset(::gfpf_field::Preset::$preset).unwrap())
                }
                #[test]
                fn known_answers() {
                    $crate::suite::known_answers::<$exec, $k>(field());
                }
                #[test]
                fn naive_dft() {
                    $crate::suite::naive_dft::<$exec, $k>(field());
                }
                #[test]
                fn rug_radix2_fft() {
                    $crate::suite::rug_radix2_fft::<$exec, $k>(field());
                }
                #[test]
                fn inverse_undoes_forward() {
                    $crate::suite::inverse_undoes_forward::<$exec, $k>(field());
                }
                #[test]
                fn convolution_theorem() {
                    $crate::suite::convolution_theorem::<$exec, $k>(field());
                }
                #[test]
                fn linearity() {
                    $crate::suite::linearity::<$exec, $k>(field());
                }
                #[test]
                fn batches_and_dirty_scratch() {
                    $crate::suite::batches_and_dirty_scratch::<$exec, $k>(field());
                }
                #[test]
                fn bad_lengths_are_errors() {
                    $crate::suite::bad_lengths_are_errors::<$exec, $k>(field());
                }
            }
        )*
    };
}
