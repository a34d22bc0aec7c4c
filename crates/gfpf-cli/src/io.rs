//! Reading and writing element files: one value per line (decimal or 0x-hex)
//! or little-endian binary, k·8 bytes per element; outputs replace a file
//! whole or not at all, and go straight to devices and pipes
//! ([`write_output`]).

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
            // Blank lines at the end (an editor's final newline) end the
            // file; a value's own trailing spaces are trimmed by the parser.
            for (i, line) in text.trim_end().lines().enumerate() {
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

/// Writes `bytes` to `path`, or to standard output when `path` is None or
/// `-`. What is at `path` decides how:
/// - nothing, or a regular file: a temporary file in the same directory,
///   renamed over it, so that a failure leaves no partial file and the old
///   contents stay; the old file's permissions (and, as root, its owner)
///   are kept;
/// - a symbolic link: the same for the file it leads to (the link stays a
///   link), also when that file does not exist yet;
/// - a device, a FIFO or a socket (`/dev/null`, a named pipe), a file with
///   other hard links, or `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`:
///   opened and written in place, as a shell's `>` does.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), String> {
    let Some(path) = path.filter(|p| *p != Path::new("-")) else {
        let mut out = io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write to standard output: {}", io_reason(&e)));
    };
    let failed = |e: io::Error| format!("cannot write {}: {}", path.display(), io_reason(&e));
    let target = match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(format!("cannot write {}: it is a directory", path.display())),
        Ok(meta) if writes_in_place(path, &meta) => return write_in_place(path, bytes).map_err(failed),
        // A regular file, perhaps behind links: replace the file itself.
        Ok(meta) => Target {
            path: fs::canonicalize(path).map_err(failed)?,
            old: Some(meta),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Target {
            path: link_destination(path).map_err(failed)?,
            old: None,
        },
        Err(e) => return Err(failed(e)),
    };
    replace(&target, bytes).map_err(failed)
}

/// A regular file to replace, and its metadata if it exists.
struct Target {
    path: PathBuf,
    old: Option<fs::Metadata>,
}

/// Whether the existing file at `path` is written in place rather than
/// replaced (see [`write_output`]).
fn writes_in_place(path: &Path, meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let standard_stream = [Path::new("/dev/stdout"), Path::new("/dev/stderr")].contains(&path)
            || path.starts_with("/dev/fd")
            || path.starts_with("/proc/self/fd");
        !meta.is_file() || meta.nlink() > 1 || standard_stream
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        !meta.is_file()
    }
}

fn write_in_place(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = fs::OpenOptions::new().write(true).truncate(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Where a file created at `path` would be: `path` itself, or, when `path`
/// is a symbolic link to nothing, the end of its chain of links.
fn link_destination(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    // As the kernel's limit on nested links (ELOOP).
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Writes a temporary file beside the target and renames it over it.
fn replace(target: &Target, bytes: &[u8]) -> io::Result<()> {
    let path = &target.path;
    let file_name = path
        .file_name()
        .ok_or_else(|| io::Error::other("not a file name"))?
        .to_string_lossy();
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // A name of our own (create_new never follows a link someone left there).
    let (tmp, mut file) = (0..100)
        .find_map(|attempt| {
            let tmp = dir.join(format!(".{file_name}.gfpf-tmp-{}-{attempt}", std::process::id()));
            match fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(file) => Some(Ok((tmp, file))),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => None,
                Err(e) => Some(Err(e)),
            }
        })
        .unwrap_or_else(|| Err(io::Error::other("no free temporary file name")))?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(old) = &target.old {
            keep_permissions(&tmp, old)?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Gives the new file the old one's mode, and its owner where this process
/// may (as root; otherwise the new file is the caller's, as any rewrite is).
fn keep_permissions(tmp: &Path, old: &fs::Metadata) -> io::Result<()> {
    fs::set_permissions(tmp, old.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let new = fs::metadata(tmp)?;
        if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
            // Only root may give a file away; elsewhere this fails and the
            // caller keeps the file, as with any editor's rewrite.
            let _ = std::os::unix::fs::chown(tmp, Some(old.uid()), Some(old.gid()));
        }
    }
    Ok(())
}
