//! Tables and plans built on first use, without holding a lock while they
//! are built.
//!
//! Building a table may run rayon parallel code. A thread that waits in a
//! rayon join steals other jobs, and a stolen job may need the very table
//! being built: had the builder held the cell's lock (`OnceLock::get_or_init`
//! does), the stolen job would wait on its own thread forever, and every
//! other user of the cell behind it. So every cache of this crate builds its
//! value outside the cell and then publishes it: threads that race on a
//! first use may each build a copy (the first one published is kept, the
//! others dropped), but none ever waits on another. Failures are returned,
//! not kept, so a later call tries again (an allocation refused under
//! memory pressure may succeed then).

use std::sync::OnceLock;

/// The cell's value, built by `build` outside the cell and published if the
/// cell is still empty (another thread's value wins a race).
pub(crate) fn get_or_publish<T>(cell: &OnceLock<T>, build: impl FnOnce() -> T) -> &T {
    if let Some(value) = cell.get() {
        return value;
    }
    let value = build();
    // Err: another thread published first; its value is the one kept.
    let _ = cell.set(value);
    cell.get().expect("the cell was set above or by another thread")
}

/// As [`get_or_publish`] for a fallible build: an error is returned and
/// nothing is published.
pub(crate) fn get_or_try_publish<T, E>(cell: &OnceLock<T>, build: impl FnOnce() -> Result<T, E>) -> Result<&T, E> {
    if let Some(value) = cell.get() {
        return Ok(value);
    }
    let value = build()?;
    let _ = cell.set(value);
    Ok(cell.get().expect("the cell was set above or by another thread"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_published_value_is_kept() {
        let cell = OnceLock::new();
        assert_eq!(*get_or_publish(&cell, || 1), 1);
        assert_eq!(*get_or_publish(&cell, || 2), 1);
    }

    #[test]
    fn failures_are_not_kept() {
        let cell = OnceLock::new();
        assert_eq!(get_or_try_publish(&cell, || Err::<u32, _>("full")), Err("full"));
        assert_eq!(get_or_try_publish(&cell, || Ok::<_, &str>(3)), Ok(&3));
        assert_eq!(get_or_try_publish(&cell, || Ok::<_, &str>(4)), Ok(&3));
    }

    #[test]
    fn a_build_that_reads_the_same_cell_does_not_wait_on_itself() {
        // What a stolen rayon job does while its thread builds: with
        // `get_or_init` this re-entrant use blocks forever.
        let cell = OnceLock::new();
        let value = get_or_publish(&cell, || *get_or_publish(&cell, || 5) + 1);
        assert_eq!(*value, 5);
    }
}
