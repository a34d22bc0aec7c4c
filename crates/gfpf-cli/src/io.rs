//! Reading and writing element files: one value per line (decimal or 0x-hex)
//! or little-endian binary, k·8 bytes per element; outputs written to a
//! temporary file next to the target and renamed on success.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use gfpf::{Element, Field};

/// How values are stored in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One value per line, decimal or 0x-hex (output: decimal, or hex with --hex).
    Text,
    /// Little-endian k·8-byte integers, one after another.
    Binary,
}

/// Where values came from, for error messages (`<stdin>` for `-`).
pub fn source_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let result = if path == Path::new("-") {
        io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes).map(|_| ()))
    };
    result.map_err(|e| format!("cannot read {}: {}", source_name(path), io_reason(&e)))?;
    Ok(bytes)
}

fn io_reason(e: &io::Error) -> String {
    // io::Error's Display adds "(os error 2)"; the kind is enough for users.
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        io::ErrorKind::IsADirectory => "it is a directory".into(),
        _ => e.to_string(),
    }
}

/// Reads the elements of `path` (`-` is standard input); every problem is
/// one line naming the file and the line (text) or element (binary).
pub fn read_elements<const K: usize>(field: &Field<K>, path: &Path, format: Format) -> Result<Vec<Element<K>>, String> {
    let name = source_name(path);
    let bytes = read_bytes(path)?;
    let values = match format {
        Format::Text => {
            let text = String::from_utf8(bytes).map_err(|e| {
                let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                format!("{name} line {line}: not UTF-8 text (use --format binary for binary files)")
            })?;
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    return Err(format!(
                        "{name} line {}: empty line (one value per line expected)",
                        i + 1
                    ));
                }
                out.push(field.parse(line).map_err(|e| format!("{name} line {}: {e}", i + 1))?);
            }
            out
        }
        Format::Binary => {
            let size = 8 * K;
            if bytes.len() % size != 0 {
                return Err(format!(
                    "{name}: {} bytes is not a whole number of {size}-byte elements (k = {K} little-endian u64 words each)",
                    bytes.len()
                ));
            }
            bytes
                .chunks_exact(size)
                .enumerate()
                .map(|(i, c)| field.from_le_bytes(c).map_err(|e| format!("{name} element {i}: {e}")))
                .collect::<Result<_, _>>()?
        }
    };
    if values.is_empty() {
        return Err(format!("{name}: no values"));
    }
    Ok(values)
}

/// The bytes of `values` in `format` (text: decimal, or 0x-hex if `hex`).
pub fn encode<const K: usize>(field: &Field<K>, values: &[Element<K>], format: Format, hex: bool) -> Vec<u8> {
    match format {
        Format::Text => {
            let mut s = String::new();
            for x in values {
                if hex {
                    s.push_str(&field.to_hex(x));
                } else {
                    s.push_str(&field.to_decimal(x));
                }
                s.push('\n');
            }
            s.into_bytes()
        }
        Format::Binary => values.iter().flat_map(|x| field.to_le_bytes(x)).collect(),
    }
}

/// Writes `bytes` to `path` atomically (a temporary file in the same
/// directory, renamed over it), or to standard output when `path` is None or
/// `-`. On failure no partial file is left behind.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), String> {
    let Some(path) = path.filter(|p| *p != Path::new("-")) else {
        let mut out = io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write to standard output: {}", io_reason(&e)));
    };
    let file_name = path
        .file_name()
        .ok_or_else(|| format!("cannot write {}: not a file name", path.display()))?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp: PathBuf = dir.join(format!(
        ".{}.gfpf-tmp-{}",
        file_name.to_string_lossy(),
        std::process::id()
    ));
    let result = fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_all()))
        .and_then(|_| fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write {}: {}", path.display(), io_reason(&e))
    })
}
