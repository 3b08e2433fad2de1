import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** What the browser suites share: Chromium, the skip line rule, the screenshot folder, axe-core. */
export const CHROMIUM = '/usr/bin/chromium';
const required = process.env.TEST_BROWSER_REQUIRED === '1';
/** Skipped with one line without Chromium, unless TEST_BROWSER_REQUIRED=1 (CI) makes that a failure. */
export const skip = !existsSync(CHROMIUM) && !required ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
export const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's violations on a page, as `rule: targets` lines. With page scripts disabled its timers
 * do not run, so a promise stands in for them (evaluated code still runs).
 */
export async function axeViolationLines(page: Page, scriptsDisabled: boolean): Promise<string[]> {
  if (scriptsDisabled) {
    // A string: the test's compiler would wrap named functions in a helper the page lacks.
    await page.evaluate('let timer = 0; globalThis.setTimeout = (callback) => { void Promise.resolve().then(callback); return ++timer; }; globalThis.clearTimeout = () => {};');
  }
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  }, AXE_TAGS);
}
