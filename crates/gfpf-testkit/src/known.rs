//! The known-answer vectors of `testdata/` (DESIGN §1; format in
//! `testdata/README.md`): one loader for every test and for `gfpf verify`.
//!
//! The files are embedded at build time (every `testdata/dft_*.json`, found by
//! the build script), parsed into [`KnownAnswerFile`] (integers, no field
//! needed) and converted to a field's elements by
//! [`KnownAnswerFile::elements`], which also checks p and ω_N against the
//! field. Every malformed file is a [`KnownAnswerError`] naming the file and
//! the key.

use gfpf_field::{Element, Field};
use rug::Integer;
use serde_json::Value;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/known_answer_files.rs"));
}

/// What can be wrong with a known-answer file or its use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KnownAnswerError {
    /// The file is not JSON.
    #[error("{file}: not JSON: {reason}")]
    Json {
        /// The file name.
        file: String,
        /// serde_json's message.
        reason: String,
    },
    /// A key is missing or holds the wrong kind of value.
    #[error("{file}: `{key}` is missing or not {expected}")]
    Key {
        /// The file name.
        file: String,
        /// The key.
        key: &'static str,
        /// What it should hold.
        expected: &'static str,
    },
    /// A value does not fit the field or the file's other values.
    #[error("{file}: {what}")]
    Inconsistent {
        /// The file name.
        file: String,
        /// What differs.
        what: String,
    },
}

/// One known-answer file, as written: y = DFT_N(x) with ω_N of the canonical
/// tower, natural order, unscaled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownAnswerFile {
    /// The file name, e.g. `dft_t8_n256.json`.
    pub file: String,
    /// The preset's name, e.g. `t8`.
    pub prime: String,
    /// r.
    pub r: Integer,
    /// k.
    pub k: usize,
    /// p = r^k + 1.
    pub p: Integer,
    /// The 2-adic valuation v of p − 1.
    pub two_adicity: u32,
    /// The smallest quadratic non-residue g ≥ 2.
    pub nonresidue: u64,
    /// ω_max, of order 2^v.
    pub omega_max: Integer,
    /// N.
    pub n: usize,
    /// ω_N.
    pub omega: Integer,
    /// x, N values in [0, p), edge values first.
    pub input: Vec<Integer>,
    /// DFT_N(x).
    pub output: Vec<Integer>,
}

/// A known answer as a field's elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownAnswer<const K: usize> {
    /// The file name.
    pub name: String,
    /// N.
    pub n: usize,
    /// x.
    pub input: Vec<Element<K>>,
    /// DFT_N(x), natural order.
    pub output: Vec<Element<K>>,
}

impl KnownAnswerFile {
    /// Parses one file's text.
    pub fn parse(file: &str, text: &str) -> Result<Self, KnownAnswerError> {
        let json: Value = serde_json::from_str(text).map_err(|e| KnownAnswerError::Json {
            file: file.to_owned(),
            reason: e.to_string(),
        })?;
        let key_error = |key: &'static str, expected: &'static str| KnownAnswerError::Key {
            file: file.to_owned(),
            key,
            expected,
        };
        let word = |key: &'static str| json[key].as_u64().ok_or_else(|| key_error(key, "an integer"));
        // Large values are decimal strings; small ones may be JSON numbers.
        let integer = |key: &'static str, v: &Value| -> Result<Integer, KnownAnswerError> {
            match v {
                Value::String(s) => s.parse().ok(),
                Value::Number(n) => n.as_u64().map(Integer::from),
                _ => None,
            }
            .ok_or_else(|| key_error(key, "a decimal integer"))
        };
        let list = |key: &'static str| -> Result<Vec<Integer>, KnownAnswerError> {
            json[key]
                .as_array()
                .ok_or_else(|| key_error(key, "a list of decimal integers"))?
                .iter()
                .map(|v| integer(key, v))
                .collect()
        };
        let known = KnownAnswerFile {
            file: file.to_owned(),
            prime: json["prime"]
                .as_str()
                .ok_or_else(|| key_error("prime", "a preset name"))?
                .to_owned(),
            r: integer("r", &json["r"])?,
            k: word("k")? as usize,
            p: integer("p", &json["p"])?,
            two_adicity: u32::try_from(word("two_adicity")?).map_err(|_| key_error("two_adicity", "below 2^32"))?,
            nonresidue: word("nonresidue")?,
            omega_max: integer("omega_max", &json["omega_max"])?,
            n: word("n")? as usize,
            omega: integer("omega", &json["omega"])?,
            input: list("input")?,
            output: list("output")?,
        };
        let inconsistent = |what: String| KnownAnswerError::Inconsistent {
            file: file.to_owned(),
            what,
        };
        if !known.n.is_power_of_two() || known.input.len() != known.n || known.output.len() != known.n {
            return Err(inconsistent(format!(
                "n = {} with {} inputs and {} outputs",
                known.n,
                known.input.len(),
                known.output.len()
            )));
        }
        Ok(known)
    }

    /// x and DFT_N(x) as elements of `field`, after checking that the file is
    /// for this p and that its ω_N is the field's.
    pub fn elements<const K: usize>(&self, field: &Field<K>) -> Result<KnownAnswer<K>, KnownAnswerError> {
        let inconsistent = |what: String| KnownAnswerError::Inconsistent {
            file: self.file.clone(),
            what,
        };
        if *field.p() != self.p {
            return Err(inconsistent(format!("p is not the field's ({})", field.p())));
        }
        let omega = field
            .root_of_unity(self.n.trailing_zeros())
            .map_err(|e| inconsistent(e.to_string()))?;
        if field.to_integer(&omega) != self.omega {
            return Err(inconsistent(format!("ω_{} is not the field's", self.n)));
        }
        let convert = |values: &[Integer], key: &str| -> Result<Vec<Element<K>>, KnownAnswerError> {
            values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    field
                        .from_integer(v)
                        .map_err(|e| inconsistent(format!("{key}[{i}]: {e}")))
                })
                .collect()
        };
        Ok(KnownAnswer {
            name: self.file.clone(),
            n: self.n,
            input: convert(&self.input, "input")?,
            output: convert(&self.output, "output")?,
        })
    }
}

/// Every known-answer file of `testdata/`, in file-name order.
pub fn known_answer_files() -> Result<Vec<KnownAnswerFile>, KnownAnswerError> {
    embedded::FILES
        .iter()
        .map(|(file, text)| KnownAnswerFile::parse(file, text))
        .collect()
}

/// The known answers of the preset named `prime` (none for other fields).
pub fn known_answer_files_for(prime: &str) -> Result<Vec<KnownAnswerFile>, KnownAnswerError> {
    Ok(known_answer_files()?
        .into_iter()
        .filter(|f| f.prime.eq_ignore_ascii_case(prime))
        .collect())
}

/// The known answers of `field` as its elements (none for a custom field).
pub fn known_answers<const K: usize>(field: &Field<K>) -> Result<Vec<KnownAnswer<K>>, KnownAnswerError> {
    let Some(name) = field.name() else {
        return Ok(Vec::new());
    };
    known_answer_files_for(name)?
        .iter()
        .map(|f| f.elements(field))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfpf_field::Preset;

    #[test]
    fn every_file_loads_and_every_preset_with_a_file_converts() {
        let files = known_answer_files().unwrap();
        assert!(files.len() >= 10, "expected the shared files, found {}", files.len());
        assert!(files.iter().any(|f| f.file == "dft_t8_n256.json" && f.n == 256));
        let t8 = Field::<8>::preset(Preset::T8).unwrap();
        let answers = known_answers(&t8).unwrap();
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0].input[2], t8.minus_one(), "edge value p − 1 first");
    }

    #[test]
    fn malformed_files_are_errors_that_name_the_file_and_key() {
        let err = KnownAnswerFile::parse("x.json", "{").unwrap_err();
        assert!(matches!(err, KnownAnswerError::Json { .. }) && err.to_string().starts_with("x.json"));
        let t8 = &known_answer_files_for("t8").unwrap()[0];
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../testdata")
                .join(&t8.file),
        )
        .unwrap();
        let no_omega = text.replacen("\"omega\":", "\"omega_typo\":", 1);
        let err = KnownAnswerFile::parse("y.json", &no_omega).unwrap_err();
        assert_eq!(err.to_string(), "y.json: `omega` is missing or not a decimal integer");
        let short = text.replacen("\"n\": 16", "\"n\": 32", 1);
        assert!(matches!(
            KnownAnswerFile::parse("z.json", &short),
            Err(KnownAnswerError::Inconsistent { .. })
        ));
        // The right file for the wrong field.
        let p8 = Field::<8>::preset(Preset::P8).unwrap();
        assert!(
            t8.elements(&p8)
                .unwrap_err()
                .to_string()
                .contains("p is not the field's")
        );
    }
}
