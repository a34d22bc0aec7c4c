//! From a digit count known at run time to code generic over `const K`.

/// The digit counts k for which gfpf compiles its arithmetic: every preset's
/// and every custom field's k is one of these (p has 64 to 8192 bits).
pub const DIGIT_COUNTS: [usize; 7] = [2, 4, 8, 16, 32, 64, 128];

/// Runs an expression with a `const` bound to a digit count known only at run
/// time: the one place that turns a run-time k into a const generic `K`.
///
/// `dispatch_k!(k, K => expr, _ => fallback)` evaluates `expr` with
/// `const K: usize = k` in scope when k is one of [`DIGIT_COUNTS`], and
/// `fallback` otherwise.
///
/// ```
/// use gfpf_field::{Field, Preset, dispatch_k};
///
/// fn bits<const K: usize>(preset: Preset) -> u32 {
///     Field::<K>::preset(preset).unwrap().bits()
/// }
/// let preset = Preset::P16;
/// assert_eq!(dispatch_k!(preset.k(), K => bits::<K>(preset), _ => 0), 931);
/// assert_eq!(dispatch_k!(3, K => K, _ => 0), 0); // k = 3 is not compiled
/// ```
#[macro_export]
macro_rules! dispatch_k {
    ($k:expr, $K:ident => $body:expr, _ => $fallback:expr $(,)?) => {
        match $k {
            2 => {
                const $K: usize = 2;
                $body
            }
            4 => {
                const $K: usize = 4;
                $body
            }
            8 => {
                const $K: usize = 8;
                $body
            }
            16 => {
                const $K: usize = 16;
                $body
            }
            32 => {
                const $K: usize = 32;
                $body
            }
            64 => {
                const $K: usize = 64;
                $body
            }
            128 => {
                const $K: usize = 128;
                $body
            }
            _ => $fallback,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::DIGIT_COUNTS;
    use crate::Preset;

    #[test]
    fn dispatch_covers_exactly_the_digit_counts() {
        for k in 0..=256 {
            let got = dispatch_k!(k, K => Some(K), _ => None);
            assert_eq!(got, DIGIT_COUNTS.contains(&k).then_some(k), "k = {k}");
        }
    }

    #[test]
    fn preset_list_is_preset_all() {
        macro_rules! listed {
            ($($name:ident $variant:ident $k:literal),*) => {
                [$((stringify!($name), Preset::$variant, $k)),*]
            };
        }
        let listed = crate::for_each_preset!(listed!());
        assert_eq!(listed.len(), Preset::ALL.len());
        for ((name, preset, k), all) in listed.into_iter().zip(Preset::ALL) {
            assert_eq!(preset, all);
            assert_eq!(name, preset.name());
            assert_eq!(k, preset.k());
            assert!(DIGIT_COUNTS.contains(&k), "{name}: k = {k} is not compiled");
        }
    }
}
