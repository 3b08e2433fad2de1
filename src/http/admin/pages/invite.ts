import { passwordProblem, PASSWORD_REASONS } from '../../../domain/signin/password-policy.ts';
import { isTokenShaped, loginFormToken, newToken } from '../../../domain/signin/tokens.ts';
import { sessionKey } from '../../../services/signin/session-key.ts';
import type { LiveLink } from '../../../services/signin/signin-service.ts';
import type { FieldErrors } from '../../../web/admin/form-parts.tsx';
import { InvitePage } from '../../../web/admin/signin.tsx';
import type { AdminAnswer } from '../admin-request.ts';
import { publicErrorPage } from '../errors.ts';
import { tokenMatches } from '../protection.ts';
import type { PublicPage, PublicRequest } from '../router.ts';
import { clearedCookie, LOGIN_COOKIE, loginCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../session-cookie.ts';

/** The choose-password form, its `_token` bound to `cal_login` as the sign-in form's (100 §5.1). */
async function inviteForm(req: PublicRequest, link: LiveLink, status: number, errors: FieldErrors, code?: string, fresh = false): Promise<AdminAnswer> {
  const presented = readCookie(req.raw, LOGIN_COOKIE);
  const value = !fresh && isTokenShaped(presented) ? presented : newToken();
  const token = loginFormToken(await sessionKey(req.deps.storage), value);
  const unplaced = code === 'admin_token_invalid' ? [req.t('admin_form_expired_retry')] : undefined;
  return {
    status,
    body: InvitePage({ view: req.view(), action: req.adminUrl(`/invite/${req.params.token}`), token, login: link.user.login, errors, unplaced }),
    headers: code ? { 'X-Calendar-Error': code } : {},
    cookies: [loginCookie(value, req.cookies)],
  };
}

async function liveLinkOr410(req: PublicRequest): Promise<LiveLink | AdminAnswer> {
  const link = await req.services.signin.liveLink(req.params.token);
  return link ?? publicErrorPage(req.view(), 410, 'admin_link_expired');
}

async function showInvite(req: PublicRequest): Promise<AdminAnswer> {
  const link = await liveLinkOr410(req);
  return 'user' in link ? inviteForm(req, link, 200, {}) : link;
}

/** 100 §3.4: policy, confirmation, the link used (one of two racing posts wins), other sessions gone, signed in. */
async function acceptInvite(req: PublicRequest): Promise<AdminAnswer> {
  const link = await liveLinkOr410(req);
  if (!('user' in link)) return link;
  const presented = readCookie(req.raw, LOGIN_COOKIE);
  const expected = isTokenShaped(presented) ? loginFormToken(await sessionKey(req.deps.storage), presented) : undefined;
  if (expected === undefined || !tokenMatches(req.form.get('_token'), expected)) return inviteForm(req, link, 403, {}, 'admin_token_invalid', true);
  const password = req.form.get('password') ?? '';
  const problem = passwordProblem(password, link.user);
  if (problem) return inviteForm(req, link, 422, { password: req.t(problem.messageKey, problem.vars) }, 'rest_invalid_param');
  if (password !== (req.form.get('password_confirm') ?? '')) {
    return inviteForm(req, link, 422, { password_confirm: req.t(PASSWORD_REASONS.differ.messageKey) }, 'rest_invalid_param');
  }
  const { signin, sessions } = req.services;
  if (!(await signin.useLink(link.id))) return publicErrorPage(req.view(), 410, 'admin_link_expired');
  await signin.setPassword(link.user, password);
  await sessions.revokeAllOf(link.user.id);
  const session = await sessions.issue(link.user, false, { userAgent: req.raw.headers['user-agent'], ip: req.raw.ip }, readCookie(req.raw, SESSION_COOKIE));
  return {
    redirect: req.adminUrl('/', { message: 'password_set' }),
    cookies: [sessionCookie(session.token, session, req.cookies, req.deps.clock()), clearedCookie(LOGIN_COOKIE, req.cookies)],
  };
}

/** `/admin/invite/{token}` (100 §3.4). */
export const invitePublicPages: PublicPage[] = [{ path: '/invite/:token', get: showInvite, post: acceptInvite }];
