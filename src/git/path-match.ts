import { isAbsolute, relative } from 'node:path';
import { normalizeRelPath } from './pathspec.js';

/**
 * Whether `path` (relative to the project root, `/`-separated) is covered by one of
 * the declared `<files>` entries: the exact path, a directory containing it, or a
 * simple glob (`*`, `?`, `**`) matching it or one of its parent directories.
 * Absolute entries inside `root` are made relative first.
 */
export function isDeclared(path: string, declared: string[], root?: string): boolean {
  const target = normalizeRelPath(path);
  for (const entry of declared) {
    let pattern = entry.trim();
    if (pattern === '') continue;
    if (isAbsolute(pattern)) {
      if (!root) continue;
      pattern = relative(root, pattern);
      if (pattern.startsWith('..')) continue;
    }
    pattern = normalizeRelPath(pattern);
    if (pattern === '.' || pattern === '') return true;
    if (/[*?[]/.test(pattern)) {
      const re = globToRegExp(pattern);
      if (re.test(target) || parentDirs(target).some((dir) => re.test(dir))) return true;
    } else if (target === pattern || target.startsWith(`${pattern}/`)) {
      return true;
    }
  }
  return false;
}

function parentDirs(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
