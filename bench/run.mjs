#!/usr/bin/env node
// ralf-lite benchmark: whole-process medians as ratios against `node -e 0` measured in the
// same run (machines are noisy; ratios are what we compare), in-process state I/O
// percentiles, and peak RSS while a check floods 1 GB of output.
//
//   npm run bench                    # full run (~1–2 min)
//   BENCH_RUNS=10 npm run bench      # fewer repetitions
//   BENCH_FLOOD_MB=200 npm run bench # smaller flood
//   BENCH_ONLY=verify npm run bench  # only the parts whose name matches (regex; baseline always)
//   BENCH_GSD_TOOLS=/path/to/get-shit-done/bin/gsd-tools.cjs npm run bench   # add GSD's helper as a peer
//   BENCH_ONLY=scale npm run bench   # only the repository-size rows (and the tiny verify they compare with)
//
// Writes bench/results.json. Targets (issue 8): status <= 1.2x, verify <= 1.5x, report <= 2x,
// config <= 1.3x node start-up, plan on the largest real plan <= 2x (issue 13); checkpoint write
// p95 < 5 ms; RSS < 150 MB on the 1 GB flood; every regex of src/ < 50 ms a call on adversarial long lines.
// Scale (issue 18): the same trivial verify in a repository with 100k tracked files, 20k or 100k
// untracked files, or one 1 GB untracked file, each as a ratio to the verify in the tiny repository
// (<= 1.5x; <= 2x with the 1 GB file), and the state size after 100 iterations (< 1 MB). Each
// scale row also shows its floor: the tiny verify plus two listings of the tree as the snapshot
// runs them (a verify lists the tree before and after its checks: a threaded stat pass over the
// snapshot's private index beside the walk for new files). Each row also shows its ratio in CPU
// time (user + system, children included), which a loaded machine blurs less than wall time.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { closeSync, cpSync, ftruncateSync, mkdtempSync, mkdirSync, openSync, writeFileSync, readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 25);
const floodMb = Number(process.env.BENCH_FLOOD_MB ?? 1024);
const node = process.execPath;
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const wanted = (name) => only === null || only.test(name);

function ms(ns) {
  return Number(ns) / 1e6;
}
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
const median = (xs) => percentile([...xs].sort((a, b) => a - b), 50);

// ---------- fixtures ----------
const work = mkdtempSync(join(tmpdir(), 'ralf-bench-'));
// The runtime as a user installs it: the package's dist/ and package.json, with no node_modules
// around them. Run from the checkout, a bundle's optional probes find the repository's dev
// dependencies (js-yaml inside gray-matter loads `esprima` if it can, ~6-10 ms of `ralf plan`)
// that an installed copy does not have.
const installed = join(work, 'node_modules', 'ralf-lite');
cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
cpSync(join(root, 'package.json'), join(installed, 'package.json'));
const cli = join(installed, 'dist', 'ralf.js');
const env = { ...process.env, HOME: join(work, 'home'), NO_COLOR: '1' };
for (const k of Object.keys(env)) if (/^(OPENCODE|CLAUDE|RALF_)/.test(k) || k === 'CLAUDECODE') delete env[k];
mkdirSync(env.HOME, { recursive: true });

function git(cwd, ...args) {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
}

/** `populate(dir)` runs before the first commit (tracked files); `after(dir)` after it (untracked ones). */
/** The task's `<done>` is a manual criterion: verifies pass it with `--done-confirmed` (else exit 11, "confirm"). */
function makeProject(name, verify, { populate, after } = {}) {
  const dir = join(work, name);
  const phase = join(dir, '.planning', 'phases', '01-bench');
  mkdirSync(phase, { recursive: true });
  writeFileSync(join(dir, '.planning', 'config.json'), JSON.stringify({ mode: 'yolo', ralf_lite: { max_iterations: 100, error_fingerprint_repeats: 100, no_progress_repeats: 100 } }, null, 2));
  writeFileSync(
    join(phase, '01-01-PLAN.md'),
    `---\nphase: 01-bench\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: [a.txt]\nautonomous: true\n---\n\n<objective>bench</objective>\n\n<tasks>\n<task type="auto">\n  <name>Task 1: trivial</name>\n  <files>a.txt</files>\n  <action>nothing</action>\n  <verify>\`${verify}\`</verify>\n  <done>passes</done>\n</task>\n</tasks>\n`,
  );
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  populate?.(dir);
  git(dir, 'init', '-q');
  // No background gc: it would still be writing into .git when the run removes its directory.
  git(dir, 'config', 'gc.auto', '0');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  after?.(dir);
  return { dir, plan: join(phase, '01-01-PLAN.md'), summary: join(phase, '01-01-SUMMARY.md') };
}

/**
 * `count` small files, 100 per directory, under `dir/<sub>/`: a source tree or a build output.
 * `distinct` contents only (git stores each once), so generating 100k tracked files does not
 * take a minute of writing objects; the snapshot's cost depends on the number of files.
 */
function manyFiles(sub, count, distinct = count) {
  return (dir) => {
    for (let d = 0; d * 100 < count; d++) {
      const at = join(dir, sub, `d${d}`);
      mkdirSync(at, { recursive: true });
      for (let f = 0; f < 100 && d * 100 + f < count; f++) writeFileSync(join(at, `f${f}.js`), `export const v = ${(d * 100 + f) % distinct};\n`);
    }
  };
}

/** A 1 GB file that is a hole on disk: git still reads (and would hash) 1 GB of zeros. */
function sparseFile(name, bytes) {
  return (dir) => {
    const fd = openSync(join(dir, name), 'w');
    ftruncateSync(fd, bytes);
    closeSync(fd);
  };
}

const trivial = makeProject('trivial', 'true');
// The agent edits the task's file between verifies: each run then also diffs the tree.
const edited = makeProject('edited', 'true');
let edits = 0;
const editTaskFile = () => writeFileSync(join(edited.dir, 'a.txt'), `edit ${++edits}\n`);
// A separate project for the report: its SUMMARY.md must not change the verify project's tree.
const reported = makeProject('reported', 'true');
// A 2,000-line SUMMARY.md for the report benchmark.
const lines = ['---', 'phase: 01-bench', 'plan: 01', '---', '', '# Phase 1 Plan 1: Bench Summary', ''];
for (let i = 0; lines.length < 2000; i++) lines.push(i % 50 === 0 ? `## Section ${i}` : `- line ${i} with **bold** and \`code\` | pipes |`);
writeFileSync(reported.summary, `${lines.join('\n')}\n`);

function largestFixturePlan() {
  const base = resolve(root, '..', 'shared', 'fixtures', 'gsd-real');
  let best = null;
  const walk = (d) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('PLAN.md')) {
        const size = statSync(p).size;
        if (!best || size > best.size) best = { path: p, size };
      }
    }
  };
  walk(base);
  return best?.path;
}
const bigPlan = largestFixturePlan();

// ---------- repository scale (generated once per run, only when their rows run) ----------
const TINY_VERIFY = 'ralf task verify (check: true)';
const scaleRows = [
  { name: 'ralf task verify, 100k tracked files (scale)', make: () => makeProject('tracked-100k', 'true', { populate: manyFiles('src', 100_000, 1000) }), target: 1.5 },
  { name: 'ralf task verify, 20k untracked files (scale)', make: () => makeProject('untracked-20k', 'true', { after: manyFiles('out', 20_000) }), target: 1.5 },
  { name: 'ralf task verify, 100k untracked files (scale)', make: () => makeProject('untracked-100k', 'true', { after: manyFiles('out', 100_000) }), target: 1.5 },
  { name: 'ralf task verify, 1 GB untracked file (scale)', make: () => makeProject('untracked-1gb', 'true', { after: sparseFile('big.bin', 1024 ** 3) }), target: 2 },
];

// ---------- whole-process timings (interleaved round-robin) ----------
/**
 * User + system CPU time (ms) of the child processes this one has waited for, from
 * /proc/self/stat (Linux; null elsewhere): a command's share includes the git and shell
 * processes it starts. In clock ticks of 10 ms, so only a mean over many runs means anything.
 * On a machine shared with other work this is the number to compare (docs/BENCH.md).
 */
function childrenCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime, USER_HZ 100
  } catch {
    return null;
  }
}

const commands = [
  { name: 'node -e 0', args: ['-e', '0'], baseline: true },
  { name: 'ralf --version', args: [cli, '--version'] },
  { name: 'ralf config --json', args: [cli, 'config', '--json', '--cwd', trivial.dir], target: 1.3 },
  { name: 'ralf status --json', args: [cli, 'status', '--json', '--cwd', trivial.dir], target: 1.2 },
  // The Claude Code Stop hook on every turn end: no loop of this session open (the common case).
  { name: 'ralf hook stop (Stop hook, no open loop)', args: [cli, 'hook', 'stop'], input: JSON.stringify({ session_id: 'bench-session', cwd: trivial.dir, hook_event_name: 'Stop', stop_hook_active: false }), target: 1.3 },
  { name: 'ralf task verify (check: true)', args: [cli, 'task', 'verify', trivial.plan, '1', '--json', '--done-confirmed'], target: 1.5, okCodes: [0, 10, 11, 20] },
  { name: 'ralf task verify (true, file edited)', args: [cli, 'task', 'verify', edited.plan, '1', '--json', '--done-confirmed'], before: editTaskFile, okCodes: [0, 10, 11, 20] },
  { name: 'ralf report (2,000-line SUMMARY)', args: [cli, 'report', reported.plan, '--json'], target: 2 },
  // The peer yardstick: GSD's own helper reading one config key (see docs/BENCH.md).
  ...(process.env.BENCH_GSD_TOOLS ? [{ name: 'gsd-tools.cjs config-get mode (peer)', args: [process.env.BENCH_GSD_TOOLS, 'config-get', 'mode'] }] : []),
  ...(bigPlan ? [{ name: `ralf plan (largest fixture, ${Math.round(statSync(bigPlan).size / 1024)} KB)`, args: [cli, 'plan', bigPlan, '--json'], target: 2 }] : []),
];

for (let i = commands.length - 1; i >= 0; i--) if (!commands[i].baseline && !wanted(commands[i].name)) commands.splice(i, 1);
// A scale row is a ratio to the tiny verify: that one runs too, interleaved with it.
const scaleWanted = scaleRows.filter((r) => wanted(r.name));
if (scaleWanted.length > 0 && !commands.some((c) => c.name === TINY_VERIFY)) {
  commands.push({ name: TINY_VERIFY, args: [cli, 'task', 'verify', trivial.plan, '1', '--json', '--done-confirmed'], target: 1.5, okCodes: [0, 10, 11, 20] });
}
for (const row of scaleWanted) {
  const t0 = Date.now();
  const p = row.make();
  process.stderr.write(`bench: generated ${row.name.replace(/^ralf task verify, | \(scale\)$/g, '')} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  commands.push({ name: row.name, args: [cli, 'task', 'verify', p.plan, '1', '--json', '--done-confirmed'], target: row.target, ratioTo: TINY_VERIFY, okCodes: [0, 10, 11, 20] });
  // The floor under the row: a verify lists the tree twice (before and after the checks), and
  // one listing cannot cost less than one lstat per file of the snapshot's private index, on
  // git's threads (git diff-files preloads the index that way), beside the directory walk that
  // finds files the index does not have yet (git ls-files --others; git's untracked cache
  // cannot serve it: docs/BENCH.md). Both at once, as the snapshot runs them, from one sh.
  // Runs after the row's first verify has written that index.
  commands.push({
    name: `${row.name} floor`,
    floorOf: row.name,
    exe: 'sh',
    args: ['-c', 'git diff-files --name-only -z >/dev/null & git ls-files -z --others --exclude-standard >/dev/null; wait'],
    cwd: p.dir,
    env: { GIT_INDEX_FILE: join(p.dir, '.git', 'ralf-snapshot-index'), GIT_OPTIONAL_LOCKS: '0' },
  });
}
for (const c of commands) {
  // The first run of a scale row is its first verify (the one allowed to cost more): timed apart.
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c.exe ?? node, c.args, { env: { ...env, ...c.env }, cwd: c.cwd ?? trivial.dir, encoding: 'utf8', input: c.input, maxBuffer: 1 << 28 });
  c.first_ms = ms(process.hrtime.bigint() - t0);
  const ok = (c.okCodes ?? [0]).includes(r.status);
  c.available = ok;
  if (!ok) c.error = (r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n').slice(-1)[0];
  c.samples = [];
  c.cpu = 0;
  // A command that takes seconds (a regression in a scale row) gets a few runs, not `runs`.
  c.maxSamples = c.first_ms > 2000 ? 3 : runs;
}
process.stderr.write(`bench: ${runs} interleaved runs of ${commands.filter((c) => c.available).length} commands…\n`);
for (let i = 0; i < runs + 2; i++) {
  for (const c of commands) {
    if (!c.available || c.samples.length >= c.maxSamples) continue;
    c.before?.();
    const t0 = process.hrtime.bigint();
    const cpu0 = childrenCpuMs();
    spawnSync(c.exe ?? node, c.args, { env: { ...env, ...c.env }, cwd: c.cwd ?? trivial.dir, stdio: [c.input === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'], input: c.input });
    const t = ms(process.hrtime.bigint() - t0);
    if (i >= 2) {
      c.samples.push(t); // two warm-up rounds
      c.cpu = cpu0 === null || c.cpu === null ? null : c.cpu + childrenCpuMs() - cpu0;
    }
  }
}
const baseline = median(commands.find((c) => c.baseline).samples);
const cpuMean = (c) => (c.cpu === null || c.samples.length === 0 ? null : c.cpu / c.samples.length);
const baselineCpu = cpuMean(commands.find((c) => c.baseline));

// ---------- in-process state write/read ----------
async function stateIo() {
  const out = join(work, 'internals.mjs');
  try {
    const { build } = await import('esbuild');
    await build({ entryPoints: [join(root, 'bench', 'internals.ts')], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent', banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" } });
  } catch (err) {
    return { error: `cannot build bench/internals.ts: ${String(err.message).split('\n')[0]}` };
  }
  const mod = await import(out);
  return mod.measureStateIo({ projectRoot: trivial.dir, planPath: trivial.plan, iterations: 500 });
}
const io = wanted('checkpoint state write read') ? await stateIo() : { error: 'skipped (BENCH_ONLY)' };

// ---------- in-process fingerprint of a 64 KiB output (issue 17: < 5 ms) ----------
async function fingerprint64k() {
  const out = join(work, 'fingerprint.mjs');
  try {
    const { build } = await import('esbuild');
    await build({ entryPoints: [join(root, 'bench', 'fingerprint.ts')], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent' });
  } catch (err) {
    return { error: `cannot build bench/fingerprint.ts: ${String(err.message).split('\n')[0]}` };
  }
  return (await import(out)).measureFingerprint({ root, bytes: 64 * 1024, iterations: 200 });
}
const fp64 = wanted('fingerprint 64 KiB') ? await fingerprint64k() : { error: 'skipped (BENCH_ONLY)' };

// ---------- the slowest regex of src/ on adversarial long lines (bench/regex-stress.mjs) ----------
// Catches backtracking that is quadratic or worse before a user's output or file does (< 50 ms a call).
const regexStress = wanted('regex stress') ? (await import('./regex-stress.mjs')).stressRegexes() : { error: 'skipped (BENCH_ONLY)' };

// ---------- peak RSS while a check floods output ----------
async function floodRss() {
  const flood = makeProject('flood', `node -e "const b=Buffer.alloc(1<<20,120);let n=${floodMb};(function w(){while(n>0){n--;if(!process.stdout.write(b))return process.stdout.once('drain',w)}})()"; exit 1`);
  const child = spawn(node, [cli, 'task', 'verify', flood.plan, '1', '--json'], { env, cwd: flood.dir, stdio: ['ignore', 'ignore', 'ignore'] });
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peakKb = Math.max(peakKb, hwm);
    } catch {
      /* exited */
    }
  }, 20);
  const t0 = Date.now();
  const code = await new Promise((res) => child.on('exit', (c) => res(c)));
  clearInterval(poll);
  return { flood_mb: floodMb, peak_rss_mb: Math.round(peakKb / 1024), exit_code: code, seconds: (Date.now() - t0) / 1000 };
}
const rss = !wanted('flood rss') ? { error: 'skipped (BENCH_ONLY)' } : process.platform === 'linux' ? await floodRss() : { error: 'needs /proc (Linux)' };

// ---------- state size after 100 iterations ----------
// A failing check with an edit before each verify (a novel tree, so the loop goes on) in a repository
// with 20k untracked files: the state must stay small however many files the tree has.
function stateSize(iterations = 100) {
  const p = makeProject('state-100', 'sh -c "exit 1"', { after: manyFiles('out', 20_000) });
  writeFileSync(join(p.dir, '.planning', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: iterations, error_fingerprint_repeats: 100, no_progress_repeats: 100 } }));
  const t0 = Date.now();
  let last = null;
  let slowest = 0;
  for (let i = 1; i <= iterations; i++) {
    writeFileSync(join(p.dir, 'a.txt'), `edit ${i}\n`);
    const t = Date.now();
    const r = spawnSync(node, [cli, 'task', 'verify', p.plan, '1', '--json'], { env, cwd: p.dir, encoding: 'utf8', maxBuffer: 1 << 30 });
    slowest = Math.max(slowest, Date.now() - t);
    last = r.status;
    if (r.status !== 10 && r.status !== 20) return { error: `iteration ${i}: exit ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-1)[0]}` };
    if (r.status === 20) break;
  }
  const stateDir = join(p.dir, '.planning', 'ralf');
  const size = (ext) => readdirSync(stateDir).filter((n) => n.endsWith(ext) && !n.startsWith('.')).reduce((sum, n) => sum + statSync(join(stateDir, n)).size, 0);
  return { iterations, state_bytes: size('.json'), log_bytes: size('.jsonl'), last_exit: last, seconds: (Date.now() - t0) / 1000, slowest_verify_ms: slowest };
}
const state = wanted('state size') ? stateSize() : { error: 'skipped (BENCH_ONLY)' };

// ---------- report ----------
const floors = commands.filter((c) => c.floorOf && c.available);
const rows = commands.filter((c) => !c.floorOf).map((c) => {
  if (!c.available) return { name: c.name, median_ms: null, ratio: null, target: c.target ?? null, ok: null, note: `unavailable: ${c.error}` };
  const m = median(c.samples);
  const ref = c.ratioTo ? commands.find((o) => o.name === c.ratioTo) : null;
  const ratio = m / (ref ? median(ref.samples) : baseline);
  const floor = floors.find((f) => f.floorOf === c.name);
  // Two walks of the tree at the floor's cost, on top of the tiny verify.
  const floorRatio = floor && ref ? (median(ref.samples) + 2 * median(floor.samples)) / median(ref.samples) : null;
  // The same ratio in CPU time (mean, children included): what a loaded machine does not blur.
  const cpu = cpuMean(c);
  const refCpu = ref ? cpuMean(ref) : baselineCpu;
  const cpuRatio = cpu !== null && refCpu ? cpu / refCpu : null;
  const floorCpu = floor && refCpu ? cpuMean(floor) : null;
  const floorCpuRatio = floorCpu !== null ? (refCpu + 2 * floorCpu) / refCpu : null;
  const note = c.ratioTo ? `(vs tiny verify; first verify ${Math.round(c.first_ms)} ms${floor ? `; floor ${floorRatio.toFixed(2)}x${floorCpuRatio !== null ? `, cpu ${floorCpuRatio.toFixed(2)}x` : ''}: two listings of ${Math.round(median(floor.samples))} ms` : ''})` : undefined;
  return { name: c.name, median_ms: +m.toFixed(1), ratio: +ratio.toFixed(2), ratio_to: c.ratioTo ?? 'node -e 0', ...(cpu !== null ? { cpu_ms: +cpu.toFixed(1), cpu_ratio: cpuRatio === null ? null : +cpuRatio.toFixed(2) } : {}), first_ms: +c.first_ms.toFixed(1), samples: c.samples.length, target: c.target ?? null, ok: c.target ? ratio <= c.target : null, ...(floor ? { listing_ms: +median(floor.samples).toFixed(1), floor_ratio: +floorRatio.toFixed(2), ...(floorCpuRatio !== null ? { floor_cpu_ratio: +floorCpuRatio.toFixed(2) } : {}) } : {}), ...(note ? { note } : {}) };
});
const pad = (s, n) => String(s).padEnd(n);
const lines2 = [];
lines2.push(`${pad('command', 48)} ${pad('median', 9)} ${pad('ratio', 7)} ${pad('cpu', 7)} ${pad('target', 7)} result`);
for (const r of rows) {
  lines2.push(`${pad(r.name, 48)} ${pad(r.median_ms === null ? '—' : `${r.median_ms} ms`, 9)} ${pad(r.ratio === null ? '—' : `${r.ratio}x`, 7)} ${pad(r.cpu_ratio == null ? '—' : `${r.cpu_ratio}x`, 7)} ${pad(r.target ? `<=${r.target}x` : '', 7)} ${r.ok === null ? (r.note ?? '') : `${r.ok ? 'ok' : 'MISS'} ${r.note ?? ''}`}`);
}
if (state.error) lines2.push(`state size: ${state.error}`);
else lines2.push(`${pad(`state after ${state.iterations} iterations, 20k untracked`, 48)} ${(state.state_bytes / 1024).toFixed(0)} KB state, ${(state.log_bytes / 1024).toFixed(0)} KB log (target state < 1 MB) ${state.state_bytes < 1024 * 1024 ? 'ok' : 'MISS'}  [${state.seconds.toFixed(0)} s, slowest verify ${state.slowest_verify_ms} ms]`);
if (io.error) lines2.push(`state I/O: ${io.error}`);
else {
  lines2.push(`${pad('checkpoint (state) write, in-process', 48)} p50 ${io.write_p50_ms.toFixed(2)} ms, p95 ${io.write_p95_ms.toFixed(2)} ms (target p95 < 5 ms) ${io.write_p95_ms < 5 ? 'ok' : 'MISS'}`);
  lines2.push(`${pad('state read, in-process', 48)} p50 ${io.read_p50_ms.toFixed(2)} ms, p95 ${io.read_p95_ms.toFixed(2)} ms`);
}
if (fp64.error) lines2.push(`fingerprint 64 KiB: ${fp64.error}`);
else lines2.push(`${pad('fingerprint 64 KiB output (scan + result), in-process', 48)} p50 ${fp64.p50_ms.toFixed(2)} ms, p95 ${fp64.p95_ms.toFixed(2)} ms, CPU ${fp64.cpu_ms.toFixed(2)} ms a call (target p50 < 5 ms) ${fp64.p50_ms < 5 ? 'ok' : 'MISS'}`);
if (regexStress.error) lines2.push(`regex stress: ${regexStress.error}`);
else {
  const w = regexStress.slowest;
  lines2.push(`${pad(`slowest of ${regexStress.regexes} regexes, ${regexStress.inputs} adversarial lines`, 48)} ${w.ms} ms a call (target < 50 ms) ${w.ms < 50 ? 'ok' : 'MISS'}  [${w.where}, ${w.input}]`);
}
if (rss.error) lines2.push(`flood RSS: ${rss.error}`);
else lines2.push(`${pad(`peak RSS, check printing ${rss.flood_mb} MB`, 48)} ${rss.peak_rss_mb} MB (target < 150 MB) ${rss.peak_rss_mb < 150 ? 'ok' : 'MISS'}  [verify exit ${rss.exit_code}, ${rss.seconds.toFixed(1)} s]`);
console.log(lines2.join('\n'));

const results = { date: new Date().toISOString(), node: process.version, runs, only: process.env.BENCH_ONLY ?? null, baseline_ms: +baseline.toFixed(1), commands: rows, state_io: io, fingerprint_64k: fp64, regex_stress: regexStress.error ? regexStress : { regexes: regexStress.regexes, inputs: regexStress.inputs, slowest: regexStress.slowest }, flood: rss, state_size: state };
mkdirSync(join(root, 'bench'), { recursive: true });
writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('\nwrote bench/results.json');
rmSync(work, { recursive: true, force: true, maxRetries: 5 });
