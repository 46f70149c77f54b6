import { RalfError } from '../../src/errors.js';

/** The RalfError `fn` throws; fails the test when it throws something else or nothing. */
export function errorOf(fn: () => unknown): RalfError {
  try {
    fn();
  } catch (err) {
    if (err instanceof RalfError) return err;
    throw err;
  }
  throw new Error('expected a RalfError');
}
