import { h, type ComponentChildren } from 'preact';
import type { AppDeps } from '../../routes/index.ts';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import type { FieldErrors } from '../../../web/admin/form-parts.tsx';
import { SecretOnce } from '../../../web/admin/people-parts.tsx';
import { InvitationShown, NewUserForm, UsersTable, UserPage, type UserRow } from '../../../web/admin/users.tsx';
import type { AdminAnswer, AdminRequest } from '../admin-request.ts';
import { adminView } from '../admin-view.ts';
import { callAdminApi, type ApiOutcome } from '../call-api.ts';
import { adminErrorPage, apiErrorsToFields, refusalPage } from '../errors.ts';
import type { AdminPage } from '../router.ts';

const USER = '/users/(?P<id>\\d+)';

function framed(req: AdminRequest, title: string, children: ComponentChildren, status = 200, headers: Record<string, string> = {}): AdminAnswer {
  return { status, body: AdminFrame({ view: adminView(req), title, current: 'users', children }), headers };
}

async function usersTable(req: AdminRequest): Promise<AdminAnswer> {
  const listed = await callAdminApi(req, 'GET', '/users', {});
  if (!listed.ok) return refusalPage(req, listed);
  // The columns the API's user object lacks (sign-in state, counts), in one query.
  const overview = await req.deps.users.overview();
  const rows: UserRow[] = await Promise.all(
    (listed.body as { id: number; login: string; email: string; role: UserRow['role'] }[]).map(async (user) => ({
      ...user,
      can_sign_in: overview.get(user.id)?.can_sign_in ?? false,
      last_sign_in: overview.get(user.id)?.last_sign_in ?? null,
      sessions: overview.get(user.id)?.sessions ?? 0,
      application_passwords: overview.get(user.id)?.application_passwords ?? 0,
      built_in: await req.deps.users.isBuiltIn(user.id),
    })),
  );
  return framed(req, req.t('rec_users'), h(UsersTable, { view: adminView(req), users: rows }));
}

function newUserPage(req: AdminRequest, values: Record<string, string>, errors: FieldErrors = {}, unplaced: string[] = [], status = 200, headers: Record<string, string> = {}): AdminAnswer {
  return framed(req, req.t('rec_new_user'), h(NewUserForm, { view: adminView(req), values, errors, unplaced }), status, headers);
}

/** The one-time link (or secret) page: 201, only in this answer (100 §7.1). */
function shownOnce(req: AdminRequest, title: string, children: ComponentChildren): AdminAnswer {
  return framed(req, title, children, 201, { 'Cache-Control': 'no-store' });
}

async function createUser(req: AdminRequest): Promise<AdminAnswer> {
  const values = { login: req.form.get('login') ?? '', email: req.form.get('email') ?? '', role: req.form.get('role') ?? '' };
  const created = await callAdminApi(req, 'POST', '/users', { ...values, email: values.email === '' ? undefined : values.email, application_password: false, invite: true });
  if (!created.ok) {
    if (created.status !== 400) return refusalPage(req, created);
    const { errors, unplaced } = apiErrorsToFields(created, {});
    return newUserPage(req, values, errors, unplaced, 422, { 'X-Calendar-Error': created.code });
  }
  const { login, invitation_url: url, invitation_expires: expires } = created.body as { login: string; invitation_url: string; invitation_expires: string };
  return shownOnce(req, req.t('rec_new_user'), h(InvitationShown, { view: adminView(req), login, url, expires }));
}

async function userPage(req: AdminRequest, id: number, state: { values?: Record<string, string>; errors?: FieldErrors; unplaced?: string[] } = {}, status = 200, headers: Record<string, string> = {}): Promise<AdminAnswer> {
  const [user, passwords, sessions, builtIn] = await Promise.all([
    callAdminApi(req, 'GET', USER, { id }),
    callAdminApi(req, 'GET', `${USER}/application-passwords`, { id }),
    callAdminApi(req, 'GET', `${USER}/sessions`, { id }),
    req.deps.users.isBuiltIn(id),
  ]);
  if (!user.ok) return refusalPage(req, user);
  const values = state.values ?? { email: user.body.email, role: user.body.role };
  return framed(
    req,
    req.t('rec_user_title', { login: user.body.login }),
    h(UserPage, {
      view: adminView(req),
      user: user.body,
      values,
      errors: state.errors ?? {},
      unplaced: state.unplaced ?? [],
      passwords: passwords.ok ? passwords.body : [],
      sessions: sessions.ok ? sessions.body : [],
      builtIn,
    }),
    status,
    headers,
  );
}

async function userAction(req: AdminRequest): Promise<AdminAnswer> {
  const id = Number(req.params.id);
  const back = (message: string) => ({ redirect: req.adminUrl(`/users/${id}/`, { message }), status: 303 as const });
  const refusedHere = async (outcome: Extract<ApiOutcome, { ok: false }>, values?: Record<string, string>) => {
    if (outcome.status !== 400) return refusalPage(req, outcome);
    const { errors, unplaced } = apiErrorsToFields(outcome, {});
    return userPage(req, id, { values, errors, unplaced }, 422, { 'X-Calendar-Error': outcome.code });
  };
  switch (req.form.get('action')) {
    case 'save': {
      const values = { email: req.form.get('email') ?? '', role: req.form.get('role') ?? '' };
      const saved = await callAdminApi(req, 'PATCH', USER, { id, ...values });
      return saved.ok ? back('rec_saved') : refusedHere(saved, values);
    }
    case 'reset_signin': {
      const link = await callAdminApi(req, 'POST', `${USER}/sign-in-link`, { id, reset: true });
      if (!link.ok) return refusedHere(link);
      const user = await callAdminApi(req, 'GET', USER, { id });
      const login = user.ok ? user.body.login : String(id);
      return shownOnce(req, req.t('rec_user_title', { login }), h(InvitationShown, { view: adminView(req), login, url: link.body.url, expires: link.body.expires }));
    }
    case 'revoke_sessions': {
      const revoked = await callAdminApi(req, 'DELETE', `${USER}/sessions`, { id });
      return revoked.ok ? back('rec_sessions_revoked') : refusedHere(revoked);
    }
    case 'new_app_password': {
      const name = req.form.get('app_password_name') ?? '';
      const made = await callAdminApi(req, 'POST', `${USER}/application-passwords`, { id, name });
      if (!made.ok) return refusedHere(made);
      const view = adminView(req);
      return shownOnce(req, req.t('rec_user_title', { login: made.body.login }), [
        h(SecretOnce, { view, heading: req.t('rec_app_password_created', { name }), secret: made.body.application_password }),
        h('p', null, h('a', { href: req.adminUrl(`/users/${id}/`) }, req.t('rec_back_to_users'))),
      ]);
    }
    case 'revoke_app_password': {
      const revoked = await callAdminApi(req, 'DELETE', `${USER}/application-passwords/(?P<pid>\\d+)`, { id, pid: req.form.get('app_password_id') });
      return revoked.ok ? back('rec_app_password_revoked') : refusedHere(revoked);
    }
    case 'delete': {
      if (req.form.get('confirm_delete') !== '1') {
        return userPage(req, id, { errors: { confirm_delete: req.t('rec_confirm_delete_required') } }, 422, { 'X-Calendar-Error': 'rest_missing_callback_param' });
      }
      const deleted = await callAdminApi(req, 'DELETE', USER, { id });
      return deleted.ok ? { redirect: req.adminUrl('/users/', { message: 'rec_user_deleted' }), status: 303 } : refusedHere(deleted);
    }
    default:
      return adminErrorPage(req, 400, 'rest_invalid_param');
  }
}

/** `/admin/users/`, `/admin/users/new`, `/admin/users/{id}/` (100 §10): administrators, through the admin API. */
export function usersPages(_deps: AppDeps): AdminPage[] {
  return [
    { path: '/users/', access: 'administrator', get: usersTable },
    { path: '/users/new', access: 'administrator', get: async (req) => newUserPage(req, { login: '', email: '', role: 'author' }), post: createUser },
    { path: '/users/:id(^\\d+)/', access: 'administrator', get: (req) => userPage(req, Number(req.params.id)), post: userAction },
  ];
}
