// Placeholder until its issue lands; replaced by the real command.
import { RalfError } from '../errors.js';

export async function run(_argv: string[]): Promise<number> {
  throw new RalfError('not_implemented', 'ralf demo is not implemented yet');
}
