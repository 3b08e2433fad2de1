import { isTokenShaped, loginFormToken, newToken } from '../../../domain/signin/tokens.ts';
import { sessionKey } from '../../../services/signin/session-key.ts';
import { EDITION_PREFIXES, type Language } from '../../../i18n/catalog.ts';
import { SigninPage } from '../../../web/admin/signin.tsx';
import type { AdminAnswer } from '../admin-request.ts';
import { adminPrefix } from '../admin-view.ts';
import { tokenMatches } from '../protection.ts';
import { allowedRedirect, type PublicPage, type PublicRequest } from '../router.ts';
import { clearedCookie, LOGIN_COOKIE, loginCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../session-cookie.ts';

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The failure counters' keys of a sign-in (100 §5.2): the client address and the login given, lower-cased. */
export function throttleKeys(ip: string, login: string): string[] {
  return [`ip:${ip}`, ...(login !== '' ? [`login:${login.toLowerCase()}`] : [])];
}

interface FormState {
  status: number;
  login?: string;
  remember?: boolean;
  redirectTo?: string;
  alert?: string;
  message?: string;
  code?: string;
  headers?: Record<string, string>;
  /** A new `cal_login` value (the form expired), instead of the one the browser has. */
  freshCookie?: boolean;
}

/** The sign-in form, its `_token` bound to the `cal_login` cookie (set or refreshed with the form). */
async function signinForm(req: PublicRequest, state: FormState): Promise<AdminAnswer> {
  const presented = readCookie(req.raw, LOGIN_COOKIE);
  const value = !state.freshCookie && isTokenShaped(presented) ? presented : newToken();
  const token = loginFormToken(await sessionKey(req.deps.storage), value);
  const body = SigninPage({
    view: req.view(state.message),
    form: { action: req.adminUrl('/login'), token, login: state.login ?? '', remember: state.remember ?? false, redirectTo: state.redirectTo ?? '', alert: state.alert },
  });
  return {
    status: state.status,
    body,
    headers: { ...(state.code ? { 'X-Calendar-Error': state.code } : {}), ...state.headers },
    cookies: [loginCookie(value, req.cookies)],
  };
}

/** 120 §3: the allow-list gains the edition's `/events/community/` pages (members' forms and lists). */
function communityRedirect(target: string | undefined, basePath: string, lang: Language): string | undefined {
  return allowedRedirect(target, `${basePath}${EDITION_PREFIXES[lang]}/events/community`);
}

async function showSignin(req: PublicRequest): Promise<AdminAnswer> {
  if (req.session) return { redirect: req.adminUrl('/') };
  const redirectTo = single(req.query.redirect_to);
  // A member's submission form (120 §3) cannot keep what was typed across the sign-in: say so.
  const formLost = communityRedirect(redirectTo, req.deps.config.basePath, req.lang) !== undefined;
  const expired = formLost ? `${req.t('admin_session_expired')} ${req.t('admin_form_not_kept')}` : req.t('admin_session_expired');
  const message = single(req.query.signed_out) === '1' ? req.t('admin_signed_out') : single(req.query.expired) === '1' ? expired : undefined;
  return signinForm(req, { status: 200, redirectTo, message });
}

/** 100 §5.2, after the router's Origin check: form token, throttle, credentials, new session. */
async function signIn(req: PublicRequest): Promise<AdminAnswer> {
  const login = (req.form.get('login') ?? '').trim();
  const remember = req.form.get('remember') === '1';
  const redirectTo = req.form.get('redirect_to') ?? '';
  const kept = { login, remember, redirectTo };
  const presented = readCookie(req.raw, LOGIN_COOKIE);
  const expected = isTokenShaped(presented) ? loginFormToken(await sessionKey(req.deps.storage), presented) : undefined;
  if (expected === undefined || !tokenMatches(req.form.get('_token'), expected)) {
    return signinForm(req, { ...kept, status: 403, code: 'admin_token_invalid', alert: req.t('admin_form_expired_retry'), freshCookie: true });
  }
  const { throttle, signin, sessions } = req.services;
  const keys = throttleKeys(req.raw.ip, login);
  const wait = Math.max(...keys.map((key) => throttle.retryAfter(key)));
  if (wait > 0) {
    return signinForm(req, { ...kept, status: 429, code: 'rest_too_many_requests', alert: req.t('admin_too_many_attempts', { seconds: wait }), headers: { 'Retry-After': String(wait) } });
  }
  const user = await signin.verify(login, req.form.get('password') ?? '');
  if (user === null) {
    for (const key of keys) throttle.recordFailure(key);
    return signinForm(req, { ...kept, status: 422, code: 'admin_signin_failed', alert: req.t('admin_signin_failed') });
  }
  const session = await sessions.issue(user, remember, { userAgent: req.raw.headers['user-agent'], ip: req.raw.ip }, readCookie(req.raw, SESSION_COOKIE));
  const target = allowedRedirect(redirectTo, adminPrefix(req.deps.config.basePath, req.lang)) ?? communityRedirect(redirectTo, req.deps.config.basePath, req.lang) ?? req.adminUrl('/');
  return {
    redirect: target,
    cookies: [sessionCookie(session.token, session, req.cookies, req.deps.clock()), clearedCookie(LOGIN_COOKIE, req.cookies)],
  };
}

/** `/admin/login` (100 §5.1, §5.2). */
export const signinPublicPages: PublicPage[] = [{ path: '/login', get: showSignin, post: signIn }];
