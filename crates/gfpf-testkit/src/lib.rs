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
    type Fft<const K: usize>: Transform<K>;

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
/// preset, each with every check of [`suite`].
#[macro_export]
macro_rules! executor_suite {
    ($exec:ty) => {
        ::gfpf_field::for_each_preset!($crate::executor_suite!(@presets $exec;));
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
