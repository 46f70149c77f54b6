// In-process timing for `npm run bench`: what fingerprinting adds to a verify whose check
// printed 64 KiB. The output is real runner and compiler failures (test/fixtures/fingerprint,
// byte for byte, colour included) repeated to 64 KiB: many error lines, per-test blocks and
// stacks, so every stage (scan, line classes, extractors, strongest line, normalisation) works.
// It is fed in 16 KiB chunks to the same scan a verify feeds (`scanForFingerprint`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scanForFingerprint } from '../src/fingerprint/index.js';

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function measureFingerprint(args: { root: string; bytes: number; iterations: number }) {
  const dir = join(args.root, 'test', 'fixtures', 'fingerprint');
  const parts = readdirSync(dir)
    .filter((n) => n.endsWith('.txt'))
    .sort()
    .map((n) => readFileSync(join(dir, n)));
  const chunks: Buffer[] = [];
  let size = 0;
  for (let i = 0; size < args.bytes; i++) {
    const part = parts[i % parts.length]!.subarray(0, args.bytes - size);
    chunks.push(part);
    size += part.length;
  }
  const output = Buffer.concat(chunks);
  const once = () => {
    const scan = scanForFingerprint();
    for (let at = 0; at < output.length; at += 16 * 1024) scan.push(output.subarray(at, at + 16 * 1024));
    return scan.result({ exitCode: 1 });
  };
  for (let i = 0; i < 10; i++) once(); // warm-up: the JIT and the regex caches
  const times: number[] = [];
  let result = once();
  // CPU time too: on a machine shared with other work, wall time per call includes waiting for a core.
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < args.iterations; i++) {
    const t0 = performance.now();
    result = once();
    times.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  const cpu_ms = (cpu.user + cpu.system) / 1000 / args.iterations;
  return { bytes: output.length, iterations: args.iterations, p50_ms: percentile(times, 50), p95_ms: percentile(times, 95), cpu_ms, fingerprint: result.fingerprint };
}
