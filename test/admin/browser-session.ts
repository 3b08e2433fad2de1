import { createServer, type AddressInfo } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { signInOverHttp, startAdminApp } from './helpers.ts';

/** A free local port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A back office app (SQLite) listening on a free port whose public origin is that very address,
 * as the browser must send it for 100 §6.1's Origin check; the test's own requests stay injected.
 */
export async function startBrowserAdminApp(env: Record<string, string> = {}): Promise<{ t: TestApp; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await startAdminApp('sqlite', { env: { CALENDAR_PUBLIC_URL: origin, ...env } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, origin };
}

/** Signs `user` in over HTTP once and gives one browser context per option set, each carrying that session's cookie. */
export async function signedInContexts(browser: Browser, origin: string, user: { login: string; password: string }, options: BrowserContextOptions[]): Promise<BrowserContext[]> {
  const session = await signInOverHttp(origin, user);
  const contexts: BrowserContext[] = [];
  for (const option of options) {
    const context = await browser.newContext(option);
    await context.addCookies([{ name: 'cal_session', value: session.value, url: origin }]);
    contexts.push(context);
  }
  return contexts;
}
