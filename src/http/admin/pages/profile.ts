import { h, type ComponentChildren } from 'preact';
import { InvalidParamsError } from '../../../domain/errors.ts';
import { translate } from '../../../i18n/catalog.ts';
import type { AppDeps } from '../../routes/index.ts';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import type { FieldErrors } from '../../../web/admin/form-parts.tsx';
import { SecretOnce } from '../../../web/admin/people-parts.tsx';
import { ProfilePage } from '../../../web/admin/profile.tsx';
import type { AdminAnswer, AdminRequest } from '../admin-request.ts';
import { adminServices } from '../admin-services.ts';
import { adminView } from '../admin-view.ts';
import { callAdminApi, type ApiOutcome } from '../call-api.ts';
import { adminErrorPage, apiErrorsToFields, refusalPage } from '../errors.ts';
import type { AdminPage } from '../router.ts';
import { cookieSettings, readCookie, SESSION_COOKIE, sessionCookie } from '../session-cookie.ts';
import { throttleKeys } from './signin.ts';

function framed(req: AdminRequest, children: ComponentChildren, status = 200, headers: Record<string, string> = {}): AdminAnswer {
  const title = req.t('rec_profile');
  return { status, body: AdminFrame({ view: adminView(req), title, current: 'profile', children }), headers };
}

async function profilePage(req: AdminRequest, errors: FieldErrors = {}, unplaced: string[] = [], status = 200, headers: Record<string, string> = {}): Promise<AdminAnswer> {
  const [passwords, sessions] = await Promise.all([callAdminApi(req, 'GET', '/me/application-passwords'), callAdminApi(req, 'GET', '/me/sessions')]);
  return framed(
    req,
    h(ProfilePage, { view: adminView(req), errors, unplaced, passwords: passwords.ok ? passwords.body : [], sessions: sessions.ok ? sessions.body : [] }),
    status,
    headers,
  );
}

/**
 * 100 §10: a wrong current password is 422 and counts as a failed sign-in (§5.2's counters);
 * success ends the other sessions and rotates this one.
 */
async function changePassword(req: AdminRequest): Promise<AdminAnswer> {
  const { signin, sessions, throttle } = adminServices(req.deps);
  const keys = throttleKeys(req.raw.ip, req.user.login);
  const wait = Math.max(...keys.map((key) => throttle.retryAfter(key)));
  if (wait > 0) return adminErrorPage(req, 429, 'rest_too_many_requests', req.t('rest_too_many_requests', { seconds: wait }));
  if (!(await signin.check(req.user.id, req.form.get('current_password') ?? ''))) {
    for (const key of keys) throttle.recordFailure(key);
    return profilePage(req, { current_password: req.t('rec_wrong_password') }, [], 422, { 'X-Calendar-Error': 'admin_signin_failed' });
  }
  const password = req.form.get('new_password') ?? '';
  if (password !== (req.form.get('new_password_confirm') ?? '')) {
    return profilePage(req, { new_password_confirm: req.t('rec_passwords_differ') }, [], 422, { 'X-Calendar-Error': 'rest_invalid_param' });
  }
  try {
    await signin.setPassword(req.user, password, 'new_password');
  } catch (error) {
    if (!(error instanceof InvalidParamsError)) throw error;
    const errors = Object.fromEntries(Object.entries(error.failures).map(([name, { reason }]) => [name, translate(req.lang, reason.messageKey, reason.vars)]));
    return profilePage(req, errors, [], 422, { 'X-Calendar-Error': 'rest_invalid_param' });
  }
  await sessions.revokeAllOf(req.user.id, req.sessionId);
  const remember = (await sessions.listOf(req.user.id)).find((row) => row.id === req.sessionId)?.remember === 1;
  const session = await sessions.issue(req.user, remember, { userAgent: req.raw.headers['user-agent'], ip: req.raw.ip }, readCookie(req.raw, SESSION_COOKIE));
  return {
    redirect: req.adminUrl('/profile/', { message: 'rec_password_changed' }),
    status: 303,
    cookies: [sessionCookie(session.token, session, cookieSettings(req.raw, req.deps.config), req.deps.clock())],
  };
}

async function act(req: AdminRequest): Promise<AdminAnswer> {
  const back = (message: string) => ({ redirect: req.adminUrl('/profile/', { message }), status: 303 as const });
  const refusedHere = async (outcome: Extract<ApiOutcome, { ok: false }>) => {
    if (outcome.status !== 400 && outcome.status !== 404) return refusalPage(req, outcome);
    const { errors, unplaced } = apiErrorsToFields(outcome, { name: 'app_password_name' });
    return profilePage(req, errors, unplaced, 422, { 'X-Calendar-Error': outcome.code });
  };
  switch (req.form.get('action')) {
    case 'change_password':
      return changePassword(req);
    case 'new_app_password': {
      const name = req.form.get('app_password_name') ?? '';
      const made = await callAdminApi(req, 'POST', '/me/application-passwords', { name });
      if (!made.ok) return refusedHere(made);
      return framed(req, [
        h(SecretOnce, { view: adminView(req), heading: req.t('rec_app_password_created', { name }), secret: made.body.application_password }),
        h('p', null, h('a', { href: req.adminUrl('/profile/') }, req.t('rec_profile'))),
      ], 201, { 'Cache-Control': 'no-store' });
    }
    case 'revoke_app_password': {
      const revoked = await callAdminApi(req, 'DELETE', '/me/application-passwords/(?P<pid>\\d+)', { pid: req.form.get('app_password_id') });
      return revoked.ok ? back('rec_app_password_revoked') : refusedHere(revoked);
    }
    case 'revoke_session': {
      const revoked = await callAdminApi(req, 'DELETE', '/me/sessions/(?P<sid>\\d+)', { sid: req.form.get('session_id') });
      return revoked.ok ? back('rec_sessions_revoked') : refusedHere(revoked);
    }
    case 'revoke_other_sessions': {
      const revoked = await callAdminApi(req, 'DELETE', '/me/sessions');
      return revoked.ok ? back('rec_sessions_revoked') : refusedHere(revoked);
    }
    default:
      return adminErrorPage(req, 400, 'rest_invalid_param');
  }
}

/** `/admin/profile/` (100 §10): every signed-in user. */
export function profilePages(_deps: AppDeps): AdminPage[] {
  return [{ path: '/profile/', access: 'signed-in', get: (req) => profilePage(req), post: act }];
}
