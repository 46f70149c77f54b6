import { RalfError } from '../errors.js';
export async function run(_argv: string[]): Promise<number> {
  throw new RalfError('not_implemented', 'ralf config is being written');
}
