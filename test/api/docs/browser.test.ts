import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const CHROMIUM = '/usr/bin/chromium';
const required = process.env.TEST_BROWSER_REQUIRED === '1';
const skip = !existsSync(CHROMIUM) && !required ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
const OUTPUT_DIR = join(process.cwd(), 'test-output');

/**
 * The documentation page as a person uses it, in headless Chromium against the real server:
 * one edition's page shows translated descriptions and "try it" reaches the service. The page
 * does not touch the database beyond that one request, so SQLite is enough here.
 */
describe('documentation page in a browser', { skip }, () => {
  let t: TestApp;
  let origin: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`TEST_BROWSER_REQUIRED=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`);
    // Links from the request's Host, so that "try it" goes to this very server.
    t = await startTestApp('sqlite', { env: { CALENDAR_PUBLIC_URL: '' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'calendar-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await t?.close();
  });

  test('the Italian page shows translated descriptions, runs "try it" against the service, and breaks no CSP rule', async () => {
    const italian = (await t.request('GET', `/it${NS}/doc`)).body;
    const english = (await t.request('GET', `${NS}/doc`)).body;
    const parameter = italian.paths['/'].get.parameters[0];
    assert.notEqual(parameter.description, english.paths['/'].get.parameters[0].description, 'the Italian document translates the parameter');

    await page.goto(`${origin}/it/docs`);
    await page.locator('.swagger-ui .info .title').filter({ hasText: italian.info.title }).waitFor();

    const operation = page.locator('.opblock-get').filter({ has: page.locator('[data-path="/"]') });
    await operation.locator('.opblock-summary').click();
    await operation.locator('.parameters').getByText(parameter.description).waitFor();

    await operation.locator('.try-out__btn').click();
    await operation.locator('button.execute').click();
    const response = operation.locator('.live-responses-table');
    await response.locator('.response-col_status').filter({ hasText: '200' }).waitFor();
    assert.match(await response.innerText(), /"namespace": "calendar\/events\/v1"/);

    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'docs-it.png'), fullPage: true });
    assert.deepEqual(problems, []);
  });
});
