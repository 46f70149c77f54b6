#!/bin/sh
# A stand-in for a real coding agent, so the example runs offline:
#   ralf run requirements.json --agent "sh scripted-agent.sh"
# ralf sends the requirement's prompt on stdin; this script ignores it and writes the
# finished project (every requirement at once).
cat > /dev/null
mkdir -p src bin
cat > src/stats.mjs <<'JS'
export function mean(numbers) {
  if (numbers.length === 0) return NaN;
  return numbers.reduce((sum, n) => sum + n, 0) / numbers.length;
}

export function median(numbers) {
  if (numbers.length === 0) return NaN;
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
JS
cat > bin/stats.mjs <<'JS'
#!/usr/bin/env node
import { mean, median } from '../src/stats.mjs';

const numbers = process.argv.slice(2).map(Number);
console.log(`mean=${mean(numbers)} median=${median(numbers)}`);
JS
