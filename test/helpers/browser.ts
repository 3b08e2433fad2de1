import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The browser suites' shared set-up (55 §15): Chromium, its skip rule, screenshots and axe-core. */
export const CHROMIUM = '/usr/bin/chromium';
const required = process.env.TEST_BROWSER_REQUIRED === '1';
/** Skipped with one line without Chromium, unless TEST_BROWSER_REQUIRED=1 (CI) makes that a failure. */
export const browserSkip: string | false = !existsSync(CHROMIUM) && !required ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
export const skip = browserSkip;
export const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Headless Chromium without its background traffic (so only the page's own requests happen); the screenshot folder made. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`TEST_BROWSER_REQUIRED=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface AxeViolation {
  id: string;
  nodes: string[][];
}

/**
 * axe-core injected into the page, violations only. It schedules its work with timers, which do
 * not run while page scripts are disabled; evaluated code still runs and settles promises, so
 * there a promise stands in for the timer.
 */
export async function axeViolations(page: Page, scriptsDisabled: boolean): Promise<AxeViolation[]> {
  if (scriptsDisabled) {
    // A string: the test's compiler would wrap named functions in a helper the page lacks.
    await page.evaluate('let timer = 0; globalThis.setTimeout = (callback) => { void Promise.resolve().then(callback); return ++timer; }; globalThis.clearTimeout = () => {};');
  }
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, nodes: v.nodes.map((n: any) => n.target) }));
  }, AXE_TAGS);
}

/** The same violations as `rule: targets` lines, for assertion messages. */
export async function axeViolationLines(page: Page, scriptsDisabled: boolean): Promise<string[]> {
  return (await axeViolations(page, scriptsDisabled)).map((v) => `${v.id}: ${v.nodes.map((target) => target.join(' ')).join(', ')}`);
}
