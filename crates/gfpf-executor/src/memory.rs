//! What a transform will need in memory, checked before it is allocated.
//!
//! Allocations whose size a user's N drives are fallible
//! ([`try_zeroed_elements`]); and since Linux grants more address space than
//! it has memory (and then ends the process with its OOM killer, no
//! message), planning also compares what a transform will need with what
//! this process may use ([`memory_limit`]) and refuses at once what cannot
//! fit ([`check_fits`]).

use gfpf_field::Element;

use crate::TransformError;

/// The bytes this process may use: the smaller of its address-space limit
/// (`ulimit -v`) and the machine's memory plus swap. `None` where neither
/// can be read (not Linux): then only the allocations themselves refuse.
pub fn memory_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok();
    let address_space = limits.as_deref().and_then(address_space_limit);
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let machine = meminfo.as_deref().and_then(memory_and_swap);
    match (address_space, machine) {
        (Some(a), Some(m)) => Some(a.min(m)),
        (a, m) => a.or(m),
    }
}

/// The soft "Max address space" of `/proc/self/limits` (None: unlimited).
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// MemTotal + SwapTotal of `/proc/meminfo`, in bytes.
fn memory_and_swap(meminfo: &str) -> Option<u64> {
    let field = |name: &str| -> Option<u64> {
        let line = meminfo.lines().find(|l| l.starts_with(name))?;
        let kib: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
        kib.checked_mul(1024)
    };
    Some(field("MemTotal:")?.saturating_add(field("SwapTotal:").unwrap_or(0)))
}

/// Needs below this many bytes are not compared with [`memory_limit`]:
/// reading it costs two files of `/proc` (about 15 µs, as much as a whole
/// t8 product of 4 × 4 coefficients), and such sizes are left to the
/// allocations themselves, which are fallible.
pub const CHECK_FITS_MIN_BYTES: u128 = 1 << 28;

/// Refuses ([`TransformError::OutOfMemory`]) `elements` elements of K
/// digits when they exceed [`memory_limit`]; `n` and `what` say for what.
/// Needs below [`CHECK_FITS_MIN_BYTES`] pass without a look.
pub fn check_fits<const K: usize>(n: usize, elements: u128, what: &'static str) -> Result<(), TransformError> {
    let needed = elements.saturating_mul(size_of::<Element<K>>() as u128);
    if needed < CHECK_FITS_MIN_BYTES {
        return Ok(());
    }
    match memory_limit() {
        Some(limit) if needed > u128::from(limit) => Err(TransformError::OutOfMemory {
            n,
            what,
            needed_bytes: u64::try_from(needed).unwrap_or(u64::MAX),
            limit_bytes: limit,
        }),
        _ => Ok(()),
    }
}

/// `len` zero elements, or [`TransformError::TooLarge`] (with `n` and
/// `what`) when they cannot be allocated.
pub fn try_zeroed_elements<const K: usize>(
    len: usize,
    n: usize,
    what: &'static str,
) -> Result<Vec<Element<K>>, TransformError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| TransformError::TooLarge { n, what })?;
    v.resize(len, Element::ZERO);
    Ok(v)
}

/// Bytes as GiB, MiB or KiB with one decimal, for messages.
pub(crate) fn human_bytes(bytes: u64) -> String {
    const UNITS: [(&str, u64); 4] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    match UNITS.iter().find(|(_, size)| bytes >= *size) {
        Some((unit, size)) => format!("{:.1} {unit}", bytes as f64 / *size as f64),
        None => format!("{bytes} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_meminfo_parse() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         21474836480          unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(21474836480));
        let unlimited = "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        let meminfo = "MemTotal:       24684092 kB\nMemFree:        1 kB\nSwapTotal:       1024 kB\n";
        assert_eq!(memory_and_swap(meminfo), Some((24684092 + 1024) * 1024));
        assert_eq!(memory_and_swap("MemFree: 3 kB\n"), None);
    }

    #[test]
    fn what_cannot_fit_is_refused_and_named() {
        if memory_limit().is_none() {
            eprintln!("skipped: this system reports no memory limit");
            return;
        }
        let e = check_fits::<8>(1 << 40, 3 << 40, "transform size N").unwrap_err();
        assert!(
            matches!(e, TransformError::OutOfMemory { n, .. } if n == 1 << 40),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with("transform size N = 1099511627776 needs 192.0 TiB"),
            "{e}"
        );
        assert_eq!(check_fits::<8>(16, 48, "transform size N"), Ok(()));
    }

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
        assert_eq!(human_bytes(5 << 40), "5.0 TiB");
    }
}
