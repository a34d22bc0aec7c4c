//! A transform named on `cargo xtask gpu-model`'s command line
//! (`--transform t8:12x256`), apart from the model so that the test command,
//! which builds xtask without the emulator, checks how it reads.

use gfpf_field::Preset;

/// A transform named on the command line (`--transform t8:12x256`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "model"), allow(dead_code))]
pub struct TransformSpec {
    /// The field.
    pub preset: Preset,
    /// log2 of the transform's length.
    pub log2_n: u32,
    /// Transforms in the batch.
    pub batch: usize,
}

impl std::str::FromStr for TransformSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (name, size) = s
            .split_once(':')
            .ok_or_else(|| format!("`{s}`: expected PRESET:LOG2N or PRESET:LOG2NxBATCH, as t8:12x256"))?;
        let preset = Preset::from_name(name).map_err(|e| format!("`{s}`: {e}"))?;
        let (log2_n, batch) = size.split_once('x').unwrap_or((size, "1"));
        let log2_n: u32 = log2_n
            .parse()
            .map_err(|_| format!("`{s}`: log2 N `{log2_n}` is not a whole number"))?;
        if !(1..=30).contains(&log2_n) {
            return Err(format!("`{s}`: log2 N must lie in 1..=30, not {log2_n}"));
        }
        let batch: usize = batch
            .parse()
            .ok()
            .filter(|&b| b > 0)
            .ok_or_else(|| format!("`{s}`: the batch `{batch}` is not a positive whole number"))?;
        Ok(TransformSpec { preset, log2_n, batch })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--transform` reads a preset, log2 N and an optional batch, and
    /// names what is wrong in the others.
    #[test]
    fn transform_specs_parse_or_say_why_not() {
        let spec = |s: &str| s.parse::<TransformSpec>();
        assert_eq!(
            spec("t8:17"),
            Ok(TransformSpec {
                preset: Preset::T8,
                log2_n: 17,
                batch: 1
            })
        );
        assert_eq!(
            spec("p8:12x256"),
            Ok(TransformSpec {
                preset: Preset::P8,
                log2_n: 12,
                batch: 256
            })
        );
        for (bad, says) in [
            ("t8", "expected PRESET:LOG2N"),
            ("t9:12", "`t9:12`"),
            ("t8:x4", "is not a whole number"),
            ("t8:0", "must lie in 1..=30"),
            ("t8:31", "must lie in 1..=30"),
            ("t8:12x0", "not a positive whole number"),
            ("t8:12x", "not a positive whole number"),
        ] {
            let err = spec(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
