/**
 * Waits between retries of a rate-limited or transient agent failure. The configured
 * list (`ralf_lite.run.backoff_seconds`, default 1 2 4 8 16) is the schedule: attempt k
 * waits about list[k], and when the list is exhausted the run stops with the failure.
 * Jitter (±25 % unless the target says otherwise: the Persistence Loop's ±20 %) spreads retries of parallel runs; `random` is injected
 * so the policy stays a pure function.
 */
export const JITTER_FRACTION = 0.25;

/**
 * Milliseconds to wait before retry number `attempt` (0-based), or null when the
 * schedule is exhausted. `retryAfterSeconds` (a host's Retry-After hint) raises the
 * wait but never lowers it.
 */
export function backoffDelayMs(schedule: readonly number[], attempt: number, random: () => number, retryAfterSeconds?: number | null, jitterFraction: number = JITTER_FRACTION): number | null {
  const base = schedule[attempt];
  if (base === undefined) return null;
  const jitter = 1 - jitterFraction + 2 * jitterFraction * clamp01(random());
  const ms = Math.round(base * 1000 * jitter);
  const floor = retryAfterSeconds && retryAfterSeconds > 0 ? Math.round(retryAfterSeconds * 1000) : 0;
  return Math.max(ms, floor);
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0.5;
}

/** Sleeps `ms`, ending early (resolving false) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
