import { ROLES, type Role } from '../../domain/auth/capabilities.ts';
import type { MessageKey } from '../../i18n/catalog.ts';
import type { AdminView } from './frame.tsx';
import { Checkbox, CsrfField, ErrorSummary, Select, TextField, type FieldErrors } from './form-parts.tsx';
import { ActionButton, AppPasswords, SecretOnce, Sessions, When, type AppPasswordRow, type SessionRow } from './people-parts.tsx';
import { RegionTable } from './region-table.tsx';

export interface UserRow {
  id: number;
  login: string;
  email: string;
  role: Role;
  can_sign_in: boolean;
  last_sign_in: string | null;
  sessions: number;
  application_passwords: number;
  /** A built-in user (120 §7): marked in the table; its page offers no action the services refuse it. */
  built_in: boolean;
}

function roleOptions(view: AdminView) {
  return ROLES.map((role) => ({ value: role, label: view.t(`rec_role_${role}` as MessageKey) }));
}

/** `/admin/users/` (100 §10): the table of users. */
export function UsersTable({ view, users }: { view: AdminView; users: UserRow[] }) {
  return (
    <>
      <p>
        <a class="button" href={view.adminUrl('/users/new')}>
          {view.t('rec_new_user')}
        </a>
      </p>
      <RegionTable labelledBy="users-caption" caption={view.t('rec_users')} columns={[view.t('rec_col_login'), view.t('rec_field_email'), view.t('rec_field_role'), view.t('rec_col_can_sign_in'), view.t('rec_col_last_sign_in'), view.t('rec_sessions'), view.t('rec_app_passwords')]}>
        {users.map((user) => (
          <tr>
            <th scope="row">
              <a href={view.adminUrl(`/users/${user.id}/`)}>{user.login}</a>
              {user.built_in && <> {view.t('users_built_in_marker')}</>}
            </th>
            <td>{user.email || '—'}</td>
            <td>{view.t(`rec_role_${user.role}` as MessageKey)}</td>
            <td>{view.t(user.can_sign_in ? 'rec_yes' : 'rec_no')}</td>
            <td><When value={user.last_sign_in} /></td>
            <td>{user.sessions}</td>
            <td>{user.application_passwords}</td>
          </tr>
        ))}
      </RegionTable>
    </>
  );
}

/** `/admin/users/new`: login, e-mail, role. */
export function NewUserForm({ view, values, errors, unplaced }: { view: AdminView; values: Record<string, string>; errors: FieldErrors; unplaced: string[] }) {
  return (
    <>
      <ErrorSummary errors={errors} unplaced={unplaced} t={view.t} />
      <form method="post" action={view.adminUrl('/users/new')} novalidate>
        <CsrfField token={view.csrfToken} />
        <TextField name="login" label={view.t('rec_col_login')} value={values.login} required errors={errors} autocomplete="off" />
        <TextField name="email" label={view.t('rec_field_email')} value={values.email} type="email" errors={errors} autocomplete="off" />
        <Select name="role" label={view.t('rec_field_role')} value={values.role || 'author'} options={roleOptions(view)} errors={errors} />
        <button type="submit" name="action" value="create" class="button">
          {view.t('rec_create_user')}
        </button>
      </form>
    </>
  );
}

/** The 201 answer of a new user or a reset: the one-time sign-in link, shown this once. */
export function InvitationShown({ view, login, url, expires }: { view: AdminView; login: string; url: string; expires: string }) {
  return (
    <>
      <SecretOnce view={view} heading={view.t('rec_invitation_for', { login })} secret={url} note={view.t('rec_invitation_note', { expires })} />
      <p>
        <a href={view.adminUrl('/users/')}>{view.t('rec_back_to_users')}</a>
      </p>
    </>
  );
}

export interface UserPageProps {
  view: AdminView;
  user: { id: number; login: string; email: string; role: Role };
  values: Record<string, string>;
  errors: FieldErrors;
  unplaced: string[];
  passwords: AppPasswordRow[];
  sessions: SessionRow[];
  /** A built-in user (120 §7): no save, sign-in reset, new application password or deletion, which the services refuse it. */
  builtIn: boolean;
}

/**
 * `/admin/users/{id}/`: role and e-mail, sign-in reset, sessions, application passwords, deletion.
 * A built-in user's page says why it offers none of the actions that change the user or let
 * anyone sign in as it; ending sessions and revoking passwords stay (the services allow them).
 */
export function UserPage(props: UserPageProps) {
  const { view, user, builtIn } = props;
  const action = view.adminUrl(`/users/${user.id}/`);
  return (
    <>
      <ErrorSummary errors={props.errors} unplaced={props.unplaced} t={view.t} />
      {builtIn ? (
        <>
          <p class="notices">{view.t('users_built_in_note')}</p>
          <dl>
            <dt>{view.t('rec_field_email')}</dt>
            <dd>{user.email || '—'}</dd>
            <dt>{view.t('rec_field_role')}</dt>
            <dd>{view.t(`rec_role_${user.role}` as MessageKey)}</dd>
          </dl>
        </>
      ) : (
        <>
          <form method="post" action={action} novalidate>
            <CsrfField token={view.csrfToken} />
            <TextField name="email" label={view.t('rec_field_email')} value={props.values.email} type="email" errors={props.errors} autocomplete="off" />
            <Select name="role" label={view.t('rec_field_role')} value={props.values.role} options={roleOptions(view)} errors={props.errors} />
            <button type="submit" name="action" value="save" class="button">
              {view.t('rec_update')}
            </button>
          </form>
          <section aria-labelledby="signin">
            <h2 id="signin">{view.t('rec_signin_heading')}</h2>
            <p>{view.t('rec_reset_signin_hint')}</p>
            <ActionButton view={view} action={action} name="reset_signin" label={view.t('rec_reset_signin')} />
          </section>
        </>
      )}
      <Sessions view={view} action={action} sessions={props.sessions} revokeOne={false} />
      {props.sessions.length > 0 && <ActionButton view={view} action={action} name="revoke_sessions" label={view.t('rec_revoke_sessions')} />}
      <AppPasswords view={view} action={action} passwords={props.passwords} offerNew={!builtIn} />
      {!builtIn && (
        <section aria-labelledby="delete-user">
          <h2 id="delete-user">{view.t('rec_delete_user')}</h2>
          <form method="post" action={action} novalidate>
            <CsrfField token={view.csrfToken} />
            <Checkbox name="confirm_delete" label={view.t('rec_confirm_delete', { login: user.login })} checked={false} errors={props.errors} />
            <button type="submit" name="action" value="delete" class="button button-secondary">
              {view.t('rec_delete_user')}
            </button>
          </form>
        </section>
      )}
    </>
  );
}
