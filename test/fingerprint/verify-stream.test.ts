/**
 * The verify fingerprints a check's WHOLE output as it streams, not the 16 KiB head +
 * 48 KiB tail it keeps for display: a first error in the dropped middle is still the
 * fingerprint, and the failing tests come from the same scan.
 */
import { describe, expect, it } from 'vitest';
import { autoTask, Project } from '../engine/project.js';

// 40k lines of log (~1.6 MB) around one type error: far outside the kept head and tail.
const NOISY_CHECK = `const noise = (n) => { for (let i = 0; i < n; i++) process.stdout.write(\`INFO worker \${i} processed item \${i}\\n\`); };
noise(20000);
process.stdout.write("src/cart.ts(19,32): error TS2339: Property 'discount' does not exist on type 'Cart'.\\n");
noise(20000);
process.exitCode = 1;
`;

describe('ralf task verify: the fingerprint is streamed over the whole check output', () => {
  it('an error in the dropped middle of a long output is the fingerprint', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Cart discount', verify: 'node check.js' }), files: { 'check.js': NOISY_CHECK, 'src/a.js': '\n' } });
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.checks[0].output_tail).not.toContain('TS2339');
    expect(r.json.fingerprint).toBe("cart.ts: error TS2339: Property discount does not exist on type Cart.");
  });
});
