//! Thread counts: how many threads a pool may have, and rayon's global pool
//! with the calling thread as one of its workers.
//!
//! The executors run on whatever rayon pool they are called in; these are
//! for programs that choose a thread count from user input (the `gfpf`
//! program's `--threads`), so that a mistyped count is refused at once
//! instead of starting tens of thousands of OS threads.

use crate::CpuError;

/// Threads a pool may have per core the operating system reports: more
/// only share the cores (and each costs a stack and a scheduler entry).
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The cap on a pool's threads never falls below this, so that tests and
/// programs may oversubscribe a small machine on purpose (a pool of 8 on 2
/// cores exposes scheduling bugs that 2 threads hide).
pub const MIN_THREADS_CAP: usize = 64;

/// The cores the operating system lets this process use (1 if it cannot
/// tell).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The most threads [`check_thread_count`] accepts:
/// [`MAX_THREADS_PER_CORE`] per core, at least [`MIN_THREADS_CAP`].
pub fn max_threads() -> usize {
    available_cores()
        .saturating_mul(MAX_THREADS_PER_CORE)
        .max(MIN_THREADS_CAP)
}

/// `threads` if it is between 1 and [`max_threads`], else
/// [`CpuError::ThreadCount`] naming the limit and the cores.
pub fn check_thread_count(threads: usize) -> Result<usize, CpuError> {
    let max = max_threads();
    if (1..=max).contains(&threads) {
        Ok(threads)
    } else {
        Err(CpuError::ThreadCount {
            requested: threads,
            max,
            cores: available_cores(),
        })
    }
}

/// Starts rayon's global pool with `threads` workers (default: one per
/// core), the calling thread one of them
/// (`ThreadPoolBuilder::use_current_thread`), as NTL's `SetNumThreads` and
/// FLINT's `flint_set_num_threads` count the caller: parallel work started
/// on this thread then runs on it and `threads − 1` others instead of
/// waiting while `threads` others run it. Returns the pool's thread count.
///
/// Call it before anything uses rayon. Errors: a count refused by
/// [`check_thread_count`], or a global pool that was already started or
/// could not start ([`CpuError::ThreadPool`]).
///
/// ```no_run
/// // At the start of main, before anything runs on rayon's pool.
/// let threads = gfpf_cpu::install_global_pool(Some(2))?;
/// assert_eq!(threads, 2);
/// assert_eq!(rayon::current_num_threads(), 2);
/// assert!(gfpf_cpu::install_global_pool(Some(1_000_000)).is_err());
/// # Ok::<(), gfpf_cpu::CpuError>(())
/// ```
pub fn install_global_pool(threads: Option<usize>) -> Result<usize, CpuError> {
    let threads = threads.map(check_thread_count).transpose()?.unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .use_current_thread()
        .build_global()
        .map_err(|e| CpuError::ThreadPool { reason: e.to_string() })?;
    Ok(rayon::current_num_threads())
}

/// A pool of its own with `threads` workers (checked by
/// [`check_thread_count`]), for [`rayon::ThreadPool::install`].
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, CpuError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(check_thread_count(threads)?)
        .build()
        .map_err(|e| CpuError::ThreadPool { reason: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_beyond_the_cap_are_refused_by_name() {
        assert_eq!(check_thread_count(1), Ok(1));
        assert_eq!(check_thread_count(max_threads()), Ok(max_threads()));
        assert!(max_threads() >= MIN_THREADS_CAP);
        for bad in [0, max_threads() + 1, 100_000] {
            let e = check_thread_count(bad).unwrap_err();
            assert!(
                matches!(e, CpuError::ThreadCount { requested, .. } if requested == bad),
                "{e}"
            );
            assert!(e.to_string().contains(&bad.to_string()), "{e}");
        }
        assert!(thread_pool(100_000).is_err());
        assert_eq!(thread_pool(3).unwrap().current_num_threads(), 3);
    }
}
