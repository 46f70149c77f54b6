#!/bin/sh
# A stand-in for a real coding agent, so the example runs offline:
#   ralf run tasks --agent "sh scripted-agent.sh"
# ralf sends the task prompt on stdin; this script ignores it and writes the finished
# module (every approved task at once).
cat > /dev/null
mkdir -p src
cat > src/duration.mjs <<'JS'
const UNITS = { h: 3600, m: 60, s: 1 };

export function parseDuration(text) {
  const compact = String(text).replace(/\s+/g, '');
  if (!/^(\d+[hms])+$/.test(compact)) throw new RangeError(`not a duration: ${JSON.stringify(text)}`);
  let seconds = 0;
  for (const [, n, unit] of compact.matchAll(/(\d+)([hms])/g)) seconds += Number(n) * UNITS[unit];
  return seconds;
}

export function formatDuration(seconds) {
  if (seconds === 0) return '0s';
  let rest = seconds;
  let out = '';
  for (const [unit, size] of Object.entries(UNITS)) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) out += `${n}${unit}`;
  }
  return out;
}
JS
