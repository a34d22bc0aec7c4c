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
//!
//! The oracles and the known answers agree with each other:
//!
//! ```
//! use gfpf_field::{Field, Preset};
//! use gfpf_testkit::{known::known_answers, oracle::{naive_dft, rug_radix2_fft}};
//!
//! let field = Field::<8>::preset(Preset::T8).unwrap();
//! for answer in known_answers(&field).unwrap() {
//!     assert_eq!(naive_dft(&field, &answer.input, false), answer.output);
//!     assert_eq!(rug_radix2_fft(&field, &answer.input), answer.output);
//! }
//! ```

pub mod emulator;
pub mod known;
pub mod oracle;
pub mod suite;

use gfpf_executor::Transform;
use gfpf_field::Field;
use gfpf_plan::{Direction, Order};

/// How the suite gets transforms from an executor: a factory of
/// [`Transform`]s (the executor contract of gfpf-executor). The suite runs
/// everything through [`Transform::process`] and
/// [`Transform::process_with_scratch`], so it checks exactly what users call.
pub trait Executor {
    /// Shown in messages.
    const NAME: &'static str;

    /// The executor's transform type.
    type Fft<const K: usize>: Transform<K> + 'static;

    /// The largest log2 N the suite runs over k digits (below its own
    /// limits): an emulator, thousands of times slower than the hardware it
    /// stands for, stops where the plans' structures have all been seen.
    fn max_log2(k: usize) -> u32 {
        let _ = k;
        u32::MAX
    }

    /// `Some(reason)` when the executor cannot run on this machine; the suite
    /// then prints the reason and skips.
    fn unavailable() -> Option<String> {
        None
    }

    /// Plans a transform.
    fn plan<const K: usize>(
        field: &Field<K>,
        n: usize,
        direction: Direction,
        order: Order,
    ) -> Result<Self::Fft<K>, <Self::Fft<K> as Transform<K>>::Error>;
}

/// Instantiates the shared suite for an executor type: one test module per
/// preset, each with every check of [`suite`]. Attributes after the type
/// go on every test, e.g. an `ignore` with its reason chosen when the tests
/// are built (a GPU suite on a machine without a GPU):
/// `executor_suite!(crate::Gpu, #[cfg_attr(not(has_gpu), ignore = "no GPU")])`.
///
/// `executor_suite!(skip "reason")` makes the same tests, each ignored with
/// that reason and not compiled: where the machine that builds them lacks
/// what they need (no CUDA driver), they are listed and counted as skipped
/// without instantiating the suite for every preset.
#[macro_export]
macro_rules! executor_suite {
    (skip $reason:literal) => {
        ::gfpf_field::for_each_preset!($crate::executor_suite!(@skipped $reason;));
    };
    (@skipped $reason:literal; $($name:ident $preset:ident $k:literal),*) => {
        $(
            mod $name {
                #[test]
                #[ignore = $reason]
                fn known_answers() {}
                #[test]
                #[ignore = $reason]
                fn naive_dft() {}
                #[test]
                #[ignore = $reason]
                fn rug_radix2_fft() {}
                #[test]
                #[ignore = $reason]
                fn inverse_undoes_forward() {}
                #[test]
                #[ignore = $reason]
                fn convolution_theorem() {}
                #[test]
                #[ignore = $reason]
                fn linearity() {}
                #[test]
                #[ignore = $reason]
                fn batches_and_dirty_scratch() {}
                #[test]
                #[ignore = $reason]
                fn bad_lengths_are_errors() {}
            }
        )*
    };
    ($exec:ty $(, #[$attr:meta])* $(,)?) => {
        ::gfpf_field::for_each_preset!($crate::executor_suite!(@presets $exec; [$(#[$attr])*];));
    };
    (@test [$(#[$attr:meta])*] $test:item) => {
        #[test]
        $(#[$attr])*
        $test
    };
    // A subset of the presets: `executor_suite!(@presets Ty; t8 T8 8, p16 P16 16)`.
    (@presets $exec:ty; $($name:ident $preset:ident $k:literal),*) => {
        $crate::executor_suite!(@presets $exec; []; $($name $preset $k),*);
    };
    (@presets $exec:ty; $attrs:tt; $($name:ident $preset:ident $k:literal),*) => {
        $(
            mod $name {
                fn field() -> &'static ::gfpf_field::Field<$k> {
                    static F: ::std::sync::OnceLock<::gfpf_field::Field<$k>> = ::std::sync::OnceLock::new();
                    F.get_or_init(|| ::gfpf_field::Field::preset(::gfpf_field::Preset::$preset).unwrap())
                }
                $crate::executor_suite!(@test $attrs fn known_answers() {
                    $crate::suite::known_answers::<$exec, $k>(field());
                });
                $crate::executor_suite!(@test $attrs fn naive_dft() {
                    $crate::suite::naive_dft::<$exec, $k>(field());
                });
                $crate::executor_suite!(@test $attrs fn rug_radix2_fft() {
                    $crate::suite::rug_radix2_fft::<$exec, $k>(field());
                });
                $crate::executor_suite!(@test $attrs fn inverse_undoes_forward() {
                    $crate::suite::inverse_undoes_forward::<$exec, $k>(field());
                });
                $crate::executor_suite!(@test $attrs fn convolution_theorem() {
                    $crate::suite::convolution_theorem::<$exec, $k>(field());
                });
                $crate::executor_suite!(@test $attrs fn linearity() {
                    $crate::suite::linearity::<$exec, $k>(field());
                });
                $crate::executor_suite!(@test $attrs fn batches_and_dirty_scratch() {
                    $crate::suite::batches_and_dirty_scratch::<$exec, $k>(field());
                });
                $crate::executor_suite!(@test $attrs fn bad_lengths_are_errors() {
                    $crate::suite::bad_lengths_are_errors::<$exec, $k>(field());
                });
            }
        )*
    };
}
