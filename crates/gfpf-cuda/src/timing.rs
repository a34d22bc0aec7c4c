//! Timing on the device with CUDA events, and the device's own copy
//! bandwidth: what `gfpf bench --device cuda` reports a transform against.

use std::sync::OnceLock;

use cudarc::driver::sys::{self, CUevent, CUevent_flags, CUresult};
use cudarc::driver::{CudaEvent, DriverError};

use crate::{CudaDevice, CudaError};

/// The driver's elapsed-time entry point: `cuEventElapsedTime(ms, start, end)`.
type ElapsedFn = unsafe extern "C" fn(*mut f32, CUevent, CUevent) -> CUresult;

/// The driver's names for it, newest first: `_v2` from CUDA 12.8 (driver
/// 570); the drivers of CUDA 12.0–12.7 (and Jetson's JetPack 6) export only
/// the plain name. cudarc, built here for the 13.0 API, calls only `_v2`
/// and panics ("Missing symbol") where the driver lacks it, so gfpf
/// resolves the symbol itself.
const ELAPSED_SYMBOLS: [&[u8]; 2] = [b"cuEventElapsedTime_v2\0", b"cuEventElapsedTime\0"];

/// The first of [`ELAPSED_SYMBOLS`] that `lookup` finds.
fn first_symbol<F>(lookup: impl Fn(&[u8]) -> Option<F>) -> Option<F> {
    ELAPSED_SYMBOLS.iter().find_map(|name| lookup(name))
}

/// The milliseconds from `start` to `end`, both waited for, through
/// whichever elapsed-time symbol the driver exports.
fn elapsed_ms(start: &CudaEvent, end: &CudaEvent) -> Result<f32, DriverError> {
    static ELAPSED: OnceLock<Option<ElapsedFn>> = OnceLock::new();
    let elapsed = ELAPSED.get_or_init(|| {
        first_symbol(|name| {
            // SAFETY: the driver library is loaded (these events exist), and
            // both names are the driver's `CUresult (float*, CUevent,
            // CUevent)`, which `ElapsedFn` spells.
            unsafe { sys::culib().get::<ElapsedFn>(name).ok().map(|symbol| *symbol) }
        })
    });
    let Some(elapsed) = *elapsed else {
        return Err(DriverError(CUresult::CUDA_ERROR_NOT_FOUND));
    };
    start.context().bind_to_thread()?;
    start.synchronize()?;
    end.synchronize()?;
    let mut ms = 0f32;
    // SAFETY: both events are live, recorded and complete (synchronised
    // above), on the context bound to this thread; `ms` is writable.
    unsafe { elapsed(&mut ms, start.cu_event(), end.cu_event()) }.result()?;
    Ok(ms)
}

impl CudaDevice {
    /// The device time, in milliseconds, of the work `queue` puts on this
    /// device's stream (CUDA events before and after; waits for the end).
    pub fn time_ms(&self, queue: impl FnOnce() -> Result<(), CudaError>) -> Result<f64, CudaError> {
        let event = |what| {
            self.stream()
                .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(|e| CudaError::driver(what, 0, e))
        };
        let start = event("recording a start event")?;
        queue()?;
        let end = event("recording an end event")?;
        let ms = elapsed_ms(&start, &end).map_err(|e| CudaError::driver("reading the events' elapsed time", 0, e))?;
        Ok(f64::from(ms))
    }

    /// Device-to-device copy bandwidth in bytes per second, counting read and
    /// write (2·`bytes` per copy): the median of `reps` timed copies of a
    /// `bytes`-long buffer after one warm-up.
    pub fn copy_bandwidth(&self, bytes: usize, reps: usize) -> Result<f64, CudaError> {
        let words = bytes.div_ceil(8).max(1);
        let stream = self.stream();
        let src = stream
            .alloc_zeros::<u64>(words)
            .map_err(|e| CudaError::driver("allocating the copy source", words * 8, e))?;
        let mut dst = stream
            .alloc_zeros::<u64>(words)
            .map_err(|e| CudaError::driver("allocating the copy target", words * 8, e))?;
        let mut copy = || {
            stream
                .memcpy_dtod(&src, &mut dst)
                .map_err(|e| CudaError::driver("copying on the device", words * 8, e))
        };
        copy()?;
        let mut times = Vec::with_capacity(reps.max(1));
        for _ in 0..reps.max(1) {
            times.push(self.time_ms(&mut copy)?);
        }
        let ms = median(&mut times);
        Ok(2.0 * (words * 8) as f64 / (ms * 1e-3))
    }
}

/// The median of `times` (sorted in place); 0 for none.
pub fn median(times: &mut [f64]) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::{ELAPSED_SYMBOLS, first_symbol, median};

    #[test]
    fn elapsed_time_takes_the_newest_symbol_the_driver_has() {
        // A driver exporting `exports`: the name found, where it is one.
        fn driver<'a>(exports: &'a [&'a [u8]]) -> impl Fn(&[u8]) -> Option<&'a [u8]> + 'a {
            move |name| exports.iter().copied().find(|e| *e == name)
        }
        let (v2, v1) = (ELAPSED_SYMBOLS[0], ELAPSED_SYMBOLS[1]);
        // CUDA 12.8 and later export both; 12.0–12.7 only the plain name.
        assert_eq!(first_symbol(driver(&[v1, v2])), Some(v2));
        assert_eq!(first_symbol(driver(&[v1])), Some(v1));
        assert_eq!(first_symbol(driver(&[])), None);
        assert!(v2.starts_with(b"cuEventElapsedTime_v2") && v1 == b"cuEventElapsedTime\0");
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
        assert_eq!(median(&mut []), 0.0);
    }
}
