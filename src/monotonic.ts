/**
 * Milliseconds on a monotonic clock, for durations. `performance.now()` would do the same
 * but loads perf_hooks (9 internal modules, ~2 ms) on first use; hrtime is already loaded.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
