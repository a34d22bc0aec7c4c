//! Timing on the device with CUDA events, and the device's own copy
//! bandwidth: what `gfpf bench --device cuda` reports a transform against.

use cudarc::driver::sys::CUevent_flags;

use crate::{CudaDevice, CudaError};

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
        let ms = start
            .elapsed_ms(&end)
            .map_err(|e| CudaError::driver("reading the events' elapsed time", 0, e))?;
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
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
        assert_eq!(median(&mut []), 0.0);
    }
}
