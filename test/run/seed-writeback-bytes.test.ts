/**
 * Write-back into files saved the way users' editors save them (BOM, CRLF, tabs, no final
 * newline, comments, odd spacing), end to end: `ralf run` in a real git repository with the
 * scripted seed agent. Only the finished item's own mark changes; every other byte of the
 * user's file stays; history lines are JSON; the commit holds the item's files and nothing of
 * the user's uncommitted work.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, ofType } from './helpers.js';
import { commitFiles, seedProject, seedRun, write, type SeedProject } from './seed-helpers.js';

const BOM = '\uFEFF';

/** The user's work in progress: a tracked file edited, an untracked note; neither may be committed. */
function userWorkInProgress(p: SeedProject): void {
  write(p, 'README.md', '# seed project\n\nhalf-written section\n');
  write(p, 'scratch.md', 'my notes\n');
}
function expectUserWorkUntouched(p: SeedProject): void {
  expect(git(p.root, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf').split('\n').map((l) => l.trim()).sort()).toEqual(['?? scratch.md', 'M README.md']);
  expect(readFileSync(join(p.root, 'README.md'), 'utf8')).toBe('# seed project\n\nhalf-written section\n');
}
const bytes = (p: SeedProject, rel: string) => readFileSync(join(p.root, rel), 'latin1');

describe('write-back keeps every byte the user wrote but the finished item\'s mark', () => {
  it('PRD checklist: BOM, CRLF, a comment, trailing spaces, no final newline', async () => {
    const prd = `${BOM}# PRD\r\n\r\n<!-- keep -->\r\n- [x] Scaffold\r\n- [ ] Make \`a.txt\` say ok   \r\n  - Verify: \`node gate.mjs\`\r\n* [ ] Make the wording friendlier\r\n1. [~] Blocked: \`b.txt\`\r\n   - Verify: \`node gate.mjs\` <!-- c -->`;
    const p = seedProject({ 'PRD.md': prd }, null);
    userWorkInProgress(p);
    const r = await seedRun(p, ['PRD.md']);
    expect(r.exitCode, JSON.stringify(ofType(r.events, 'task_end'))).toBe(0);
    expect(readFileSync(join(p.root, 'PRD.md'), 'utf8')).toBe(prd.replace('- [ ] Make', '- [x] Make'));
    expect(commitFiles(p, 'HEAD').sort()).toEqual(['A a.txt', 'A progress.md', 'M PRD.md']);
    expectUserWorkUntouched(p);
  });

  it('prd.json: BOM, CRLF, tabs, spaced colons, number formatting, no final newline', async () => {
    const json = `${BOM}{\r\n\t"project": "x",\r\n\t"userStories": [\r\n\t\t{ "id": "US-1", "title": "Make \`a.txt\` say ok", "acceptanceCriteria": ["\`node gate.mjs\` exits 0"], "priority": 1.50, "passes"  :  false, "notes": "" },\r\n\t\t{\r\n\t\t\t"id": "US-2",\r\n\t\t\t"title": "Friendlier wording",\r\n\t\t\t"passes": false,\r\n\t\t\t"acceptanceCriteria": ["Reads well"]\r\n\t\t},\r\n\t\t{ "id": "US-3", "title": "Done \\u00e9", "passes": true }\r\n\t]\r\n}`;
    const p = seedProject({ 'prd.json': json }, null);
    userWorkInProgress(p);
    const r = await seedRun(p, ['prd.json']);
    expect(r.exitCode, JSON.stringify(ofType(r.events, 'task_end'))).toBe(0);
    expect(bytes(p, 'prd.json')).toBe(Buffer.from(json.replace('"passes"  :  false, "notes"', '"passes"  :  true, "notes"')).toString('latin1'));
    const history = readFileSync(join(p.root, 'history.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { requirement_id: string; success: boolean });
    expect(history.map((h) => [h.requirement_id, h.success])).toEqual([['US-1', true]]);
    expect(commitFiles(p, 'HEAD').sort()).toEqual(['A a.txt', 'A history.jsonl', 'M prd.json']);
    expectUserWorkUntouched(p);
  });

  it('requirements.json + history.jsonl: a state key spelled `State`, an item with none, a history without a final newline', async () => {
    const reqs = '{\n  "requirements": [\n    {"id": "R-1", "requirement": "Make `a.txt` say ok", "verify": "node gate.mjs", "owner": "me"},\n    {"id": "R-2", "requirement": "Friendlier wording", "State": "Todo"},\n    {"id": "R-3", "requirement": "Make `c.txt` say ok", "verify": ["node gate.mjs"], "State": "Todo"}\n  ]\n}\n';
    const old = '{"timestamp":"2026-01-01T00:00:00Z","requirement_id":"R-1","success":false,"message":"first try"}';
    const p = seedProject({ 'requirements.json': reqs, 'history.jsonl': old }, null);
    userWorkInProgress(p);
    const r = await seedRun(p, ['requirements.json']);
    expect(r.exitCode, JSON.stringify(ofType(r.events, 'task_end'))).toBe(0);
    expect(ofType(r.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'passed'], [2, 'ran_once'], [3, 'passed']]);
    expect(readFileSync(join(p.root, 'requirements.json'), 'utf8')).toBe(reqs.replace('"owner": "me"}', '"owner": "me", "status": "done"}').replace('["node gate.mjs"], "State": "Todo"}', '["node gate.mjs"], "State": "done"}'));
    const lines = readFileSync(join(p.root, 'history.jsonl'), 'utf8');
    expect(lines.startsWith(`${old}\n`)).toBe(true);
    expect(lines.endsWith('\n')).toBe(true);
    expect(lines.trimEnd().split('\n').map((l) => (JSON.parse(l) as { requirement_id: string }).requirement_id)).toEqual(['R-1', 'R-1', 'R-3']);
    expect(commitFiles(p, 'HEAD').sort()).toEqual(['A c.txt', 'M history.jsonl', 'M requirements.json']);
    expectUserWorkUntouched(p);
  });

  it('task folders: a CRLF file with a comment and a quoted status moves to Done/ with only its state lines changed', async () => {
    const task = '---\r\n# owner: dana\r\ntitle: "Make `a.txt` say ok"\r\nstatus: "Approved"   # moved by a human\r\nverify: node gate.mjs\r\n---\r\n\r\n# Make `a.txt` say ok\r\n\r\nWrite it.\r\n';
    const other = '---\r\ntitle: Friendlier wording\r\nstatus: Approved\r\n---\r\n\r\nNo check anyone can run.\r\n';
    const p = seedProject({ 'Approved/001-a.md': task, 'Approved/002-wording.md': other, 'Done/000-x.md': '---\nstatus: Done\ntitle: x\n---\n' }, null);
    userWorkInProgress(p);
    const r = await seedRun(p, ['.']);
    expect(r.exitCode, JSON.stringify(ofType(r.events, 'task_end'))).toBe(0);
    const done = bytes(p, 'Done/001-a.md');
    const [front, body] = [done.slice(0, done.indexOf('\r\n---\r\n')), done.slice(done.indexOf('\r\n---\r\n'))];
    expect(body).toBe(task.slice(task.indexOf('\r\n---\r\n')));
    expect(front.split('\r\n').slice(0, 4)).toEqual(['---', '# owner: dana', 'title: "Make `a.txt` say ok"', 'status: "Done"   # moved by a human']);
    expect(front).not.toMatch(/[^\r]\n/);
    expect(bytes(p, 'Approved/002-wording.md')).toBe(other);
    expect(commitFiles(p, 'HEAD').sort()).toEqual(['A Done/001-a.md', 'A a.txt', 'D Approved/001-a.md']);
    expectUserWorkUntouched(p);
  });
});
