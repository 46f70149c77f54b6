import { describe, expect, it } from 'vitest';
import { addedDependencies, dependencyNames, manifestKind } from '../../src/git/manifests.js';
import { isDeclared } from '../../src/git/path-match.js';

describe('manifest parsing', () => {
  it('recognises manifest paths', () => {
    expect(manifestKind('package.json')).toBe('package.json');
    expect(manifestKind('apps/web/package.json')).toBe('package.json');
    expect(manifestKind('node_modules/x/package.json')).toBeNull();
    expect(manifestKind('requirements-dev.txt')).toBe('requirements');
    expect(manifestKind('requirements/base.txt')).toBe('requirements');
    expect(manifestKind('notes.txt')).toBeNull();
    expect(manifestKind('package-lock.json')).toBeNull();
    expect(manifestKind('Cargo.lock')).toBeNull();
  });

  it('reads poetry, optional and PEP 735 groups from pyproject.toml', () => {
    const text = [
      '[project]',
      'dependencies = ["Requests_OAuthlib>=1", "httpx"]  # inline',
      '[project.optional-dependencies]',
      'dev = [',
      '  "pytest>=8",',
      ']',
      '[dependency-groups]',
      'lint = ["ruff"]',
      '[tool.poetry.dependencies]',
      'python = "^3.11"',
      'Django = { version = "^5" }',
      '[tool.poetry.group.dev.dependencies]',
      'black = "*"',
      '[tool.ruff]',
      'line-length = 100',
    ].join('\n');
    expect([...dependencyNames('pyproject', text)!.keys()].sort()).toEqual([
      'black',
      'django',
      'httpx',
      'pytest',
      'requests-oauthlib',
      'ruff',
    ]);
  });

  it('reports nothing when the new version does not parse, and all names for a new file', () => {
    expect(addedDependencies('package.json', '{"dependencies":{}}', '{ broken')).toEqual([]);
    expect(addedDependencies('package.json', null, '{"dependencies":{"a":"1"}}')).toEqual([['a', 'dependencies']]);
    expect(addedDependencies('requirements', 'a==1\n-r base.txt\n', 'a==2\n-r base.txt\n-e ./local\nB_c>=1\n')).toEqual([
      ['./local', 'requirements'],
      ['b-c', 'requirements'],
    ]);
    expect(addedDependencies('pipfile', '[packages]\nflask = "*"\n', '[packages]\nflask = "*"\n[dev-packages]\npytest = "*"\n')).toEqual([
      ['pytest', 'dev-packages'],
    ]);
    expect(addedDependencies('go.mod', 'module m\n', 'module m\nrequire github.com/x/y v1.0.0\n')).toEqual([['github.com/x/y', 'require']]);
  });
});

describe('isDeclared', () => {
  it('matches exact paths, directory prefixes and simple globs', () => {
    expect(isDeclared('src/a.ts', ['src/a.ts'])).toBe(true);
    expect(isDeclared('src/a.ts', ['./src/a.ts'])).toBe(true);
    expect(isDeclared('src/lib/a.ts', ['src/lib'])).toBe(true);
    expect(isDeclared('src/lib/a.ts', ['src/lib/'])).toBe(true);
    expect(isDeclared('src/library.ts', ['src/lib'])).toBe(false);
    expect(isDeclared('src/a.ts', ['src/*.ts'])).toBe(true);
    expect(isDeclared('src/x/a.ts', ['src/*.ts'])).toBe(false);
    expect(isDeclared('src/x/a.ts', ['src/**/*.ts'])).toBe(true);
    expect(isDeclared('src/a.ts', ['src/**/*.ts'])).toBe(true);
    expect(isDeclared('src/x/y/z.md', ['src/*'])).toBe(true);
    expect(isDeclared('/proj/src/a.ts'.slice(6), ['/proj/src/a.ts'], '/proj')).toBe(true);
    expect(isDeclared('src/a.ts', [])).toBe(false);
  });
});
