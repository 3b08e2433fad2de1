import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The README and docs/ promise commands; this keeps those promises true without running an
 * install: the quick start's two commands are the ones package.json provides (the started-bundle
 * smoke test runs what `npm start` runs, and CI runs `npm ci && npm test`), every `npm run NAME`
 * names a script, and every page the docs link to exists.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPTS: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];

function read(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8');
}

/** The first fenced block after the "## Quick start" heading. */
function quickStartBlock(readme: string): string {
  const section = readme.split(/^## Quick start$/m)[1];
  assert.ok(section, 'the README has a "## Quick start" section');
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section);
  assert.ok(block, 'the quick start shows its commands in a sh block');
  return block[1];
}

describe('README and docs commands', () => {
  test('the quick start shows exactly the two commands package.json provides', () => {
    const commands = quickStartBlock(read('README.md'))
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter((line) => line !== '');
    assert.deepEqual(commands, ['npm ci && npm start', 'npm ci && npm test']);
    assert.ok(SCRIPTS.start, 'package.json has a start script');
    assert.ok(SCRIPTS.test, 'package.json has a test script');
  });

  test('every `npm run NAME` in the README and docs/ is a package.json script', () => {
    const unknown = PAGES.flatMap((page) =>
      [...read(page).matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]).filter((name) => !(name in SCRIPTS)).map((name) => `${page}: npm run ${name}`),
    );
    assert.deepEqual(unknown, []);
  });

  test('every relative link of the README and docs/ opens a file', () => {
    const broken = PAGES.flatMap((page) =>
      [...read(page).matchAll(/\]\(([^)#:\s]+)(?:#[^)]*)?\)/g)]
        .map((match) => match[1])
        .filter((target) => !existsSync(join(ROOT, dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
    assert.deepEqual(broken, []);
  });
});
