import type { Role } from '../../src/domain/auth/capabilities.ts';
import { UsersService } from '../../src/services/users-service.ts';
import { SigninService } from '../../src/services/signin/signin-service.ts';
import { startTestApp, type TestApp, type TestAppOptions, type TestResponse } from '../helpers/test-app.ts';
import type { DialectName } from '../helpers/databases.ts';

/** Tests hash sign-in passwords at the lowest cost the setting allows (100 §15). */
export const TEST_HASH_COST = '14';
/** The public origin test apps run under (startTestApp's CALENDAR_PUBLIC_URL). */
export const ORIGIN = 'http://calendar.test';

/** A test app with the back office on and cheap hashes. */
export function startAdminApp(dialect: DialectName, options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp(dialect, { ...options, env: { CALENDAR_SIGNIN_HASH_COST: TEST_HASH_COST, ...options.env } });
}

export interface SigninUser {
  id: number;
  login: string;
  email: string;
  password: string;
}

let counter = 0;

/** A new user with `role` and a sign-in password (set through the service, cost 14). */
export async function createSigninUser(t: TestApp, role: Role, options: { login?: string; email?: string; password?: string } = {}): Promise<SigninUser> {
  counter += 1;
  const login = options.login ?? `${role}-signin-${counter}`;
  const email = options.email ?? `${login}@example.test`;
  const password = options.password ?? `correct horse ${counter} battery`;
  const created = await new UsersService(t.storage, () => new Date()).create({ login, role, email });
  await new SigninService(t.storage, Number(TEST_HASH_COST), () => new Date()).setPassword(created.user, password);
  return { id: created.user.id, login, email, password };
}

/** A signed-in browser as far as the server can tell: the session cookie and the session's `_token`. */
export interface AdminSession {
  /** `cal_session=…`, for a `Cookie` header. */
  cookie: string;
  /** The session's `_token` (= X-WP-Nonce). */
  token: string;
  /** `{base}{edition}/admin`. */
  prefix: string;
}

/** `name=value` of a Set-Cookie header list. */
export function setCookies(headers: TestResponse['headers']): Record<string, { value: string; attributes: string }> {
  const raw = headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const cookies: Record<string, { value: string; attributes: string }> = {};
  for (const line of list) {
    const [pair, ...rest] = line.split(';');
    const eq = pair.indexOf('=');
    cookies[pair.slice(0, eq).trim()] = { value: pair.slice(eq + 1), attributes: rest.join(';').trim() };
  }
  return cookies;
}

/** The hidden `_token` of the first form on a page. */
export function formToken(html: string): string {
  const match = /name="_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no _token on the page');
  return match[1];
}

/** The REST nonce of a back office page. */
export function restNonce(html: string): string {
  const match = /<meta name="calendar-rest-nonce" content="([^"]+)"/.exec(html);
  if (!match) throw new Error('no calendar-rest-nonce on the page');
  return match[1];
}

export function urlencoded(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  return params.toString();
}

/** The sign-in form's pre-sign-in cookie and token (GET /admin/login). */
export async function loginForm(t: TestApp, lang = ''): Promise<{ cookie: string; token: string; response: TestResponse }> {
  const response = await t.request('GET', `${t.config.basePath}${lang}/admin/login`);
  const cookie = setCookies(response.headers).cal_login;
  return { cookie: `cal_login=${cookie.value}`, token: formToken(response.text), response };
}

/** Posts the sign-in form as a browser would (Origin, cal_login, _token); the raw answer. */
export async function postLogin(t: TestApp, fields: Record<string, string>, options: { lang?: string; remoteAddress?: string } = {}): Promise<TestResponse> {
  const form = await loginForm(t, options.lang);
  return t.request('POST', `${t.config.basePath}${options.lang ?? ''}/admin/login`, {
    body: urlencoded({ _token: form.token, ...fields }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie: form.cookie },
    remoteAddress: options.remoteAddress,
  });
}

/** Signs `user` in through the real form; the session cookie and its `_token`. */
export async function signIn(t: TestApp, user: { login: string; password: string }, options: { remember?: boolean; lang?: string } = {}): Promise<AdminSession> {
  const lang = options.lang ?? '';
  const answer = await postLogin(t, { login: user.login, password: user.password, ...(options.remember ? { remember: '1' } : {}) }, { lang });
  if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status}`);
  const cookie = `cal_session=${setCookies(answer.headers).cal_session.value}`;
  const prefix = `${t.config.basePath}${lang}/admin`;
  const page = await t.request('GET', `${prefix}/`, { headers: { cookie } });
  return { cookie, token: restNonce(page.text), prefix };
}

/** A GET of a back office path (below `/admin`) as the signed-in browser. */
export function adminGet(t: TestApp, session: AdminSession, path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return t.request('GET', session.prefix + path, { headers: { cookie: session.cookie, ...headers } });
}

/**
 * Posts a form to a back office path (below `/admin`) as the browser would: urlencoded, same
 * Origin, the session's `_token` first (unless `fields._token` is given, or `token: null`).
 */
export function form(
  t: TestApp,
  session: AdminSession,
  path: string,
  fields: Record<string, string | string[]>,
  options: { origin?: string | null; referer?: string; token?: string | null } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie };
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null) headers.origin = origin;
  if (options.referer !== undefined) headers.referer = options.referer;
  const token = options.token === undefined ? session.token : options.token;
  const body = urlencoded({ ...(token === null ? {} : { _token: token }), ...fields });
  return t.request('POST', session.prefix + path, { body, headers });
}

/**
 * Signs in over real HTTP (a listening server at `baseUrl`, e.g. `http://127.0.0.1:PORT`, whose
 * public origin is that address): for tests that use fetch or hand the cookie to a browser
 * (`context.addCookies([{ name: 'cal_session', value, url: baseUrl }])`).
 */
export async function signInOverHttp(baseUrl: string, user: { login: string; password: string }, basePath = ''): Promise<AdminSession & { value: string }> {
  const page = await fetch(`${baseUrl}${basePath}/admin/login`);
  const loginCookie = (page.headers.getSetCookie().find((line) => line.startsWith('cal_login=')) ?? '').split(';')[0];
  const token = formToken(await page.text());
  const answer = await fetch(`${baseUrl}${basePath}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseUrl).origin, cookie: loginCookie },
    body: urlencoded({ _token: token, login: user.login, password: user.password }),
  });
  const session = (answer.headers.getSetCookie().find((line) => line.startsWith('cal_session=')) ?? '').split(';')[0];
  if (answer.status !== 303 || session === '') throw new Error(`sign-in failed: ${answer.status}`);
  const dashboard = await fetch(`${baseUrl}${basePath}/admin/`, { headers: { cookie: session } });
  return { cookie: session, value: session.slice('cal_session='.length), token: restNonce(await dashboard.text()), prefix: `${basePath}/admin` };
}

/** Signs in in a Playwright page through the form (JavaScript on or off), landing on the dashboard. */
export async function signInBrowser(page: { goto(url: string): Promise<unknown>; fill(selector: string, value: string): Promise<void>; click(selector: string): Promise<void>; waitForURL(url: RegExp): Promise<void> }, baseUrl: string, user: { login: string; password: string }, lang = ''): Promise<void> {
  await page.goto(`${baseUrl}${lang}/admin/login`);
  await page.fill('#field-login', user.login);
  await page.fill('#field-password', user.password);
  await page.click('button[type=submit]');
  await page.waitForURL(/\/admin\/(\?.*)?$/);
}
