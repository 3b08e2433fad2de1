import type { AdminView } from './frame.tsx';
import { CsrfField } from './form-parts.tsx';
import { RegionTable } from './region-table.tsx';

/** Stored UTC instants are shown as ISO text in a `<time>`; empty → a dash. */
export function When({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  const iso = value.includes('T') ? value : `${value.replace(' ', 'T')}Z`;
  return <time datetime={iso}>{iso.slice(0, 16).replace('T', ' ')} UTC</time>;
}

/**
 * A secret shown once (100 §7.1): only in the answer to the POST that made it (status 201,
 * no-store), never in an address or a later page.
 */
export function SecretOnce({ view, heading, secret, note }: { view: AdminView; heading: string; secret: string; note?: string }) {
  return (
    <section class="card secret-once" aria-labelledby="secret-once">
      <h2 id="secret-once">{heading}</h2>
      <p>
        <code class="secret">{secret}</code>
      </p>
      <p>{note ?? view.t('rec_secret_once')}</p>
    </section>
  );
}

/** A form with one button posting `action` (and hidden fields) to `action`. */
export function ActionButton({ view, action, name, label, fields = {}, secondary = true }: { view: AdminView; action: string; name: string; label: string; fields?: Record<string, string>; secondary?: boolean }) {
  return (
    <form method="post" action={action} class="inline-form">
      <CsrfField token={view.csrfToken} />
      {Object.entries(fields).map(([field, value]) => (
        <input type="hidden" name={field} value={value} />
      ))}
      <button type="submit" name="action" value={name} class={secondary ? 'button button-secondary' : 'button'}>
        {label}
      </button>
    </form>
  );
}

export interface AppPasswordRow {
  id: number;
  name: string;
  created: string;
  last_used: string | null;
}

/**
 * The application passwords of a user (names and dates), each with its revoke button, and a form
 * for a new one unless `offerNew` is false (a built-in user gets none).
 */
export function AppPasswords({ view, action, passwords, offerNew = true }: { view: AdminView; action: string; passwords: AppPasswordRow[]; offerNew?: boolean }) {
  return (
    <section aria-labelledby="app-passwords">
      <h2 id="app-passwords">{view.t('rec_app_passwords')}</h2>
      {passwords.length === 0 ? (
        <p>{view.t('rec_no_app_passwords')}</p>
      ) : (
        <RegionTable labelledBy="app-passwords" columns={[view.t('rec_col_name'), view.t('rec_col_created'), view.t('rec_col_last_used'), view.t('rec_col_actions')]}>
          {passwords.map((password) => (
            <tr>
              <td>{password.name || view.t('rec_unnamed')}</td>
              <td><When value={password.created} /></td>
              <td>{password.last_used === null ? view.t('users_never_used') : <When value={password.last_used} />}</td>
              <td>
                <ActionButton view={view} action={action} name="revoke_app_password" label={view.t('rec_revoke')} fields={{ app_password_id: String(password.id) }} />
              </td>
            </tr>
          ))}
        </RegionTable>
      )}
      {offerNew && (
        <form method="post" action={action} class="inline-form">
          <CsrfField token={view.csrfToken} />
          <p class="field">
            <label for="field-app_password_name">{view.t('rec_app_password_name')}</label>
            <input id="field-app_password_name" name="app_password_name" type="text" maxLength={100} autocomplete="off" />
          </p>
          <button type="submit" name="action" value="new_app_password" class="button">
            {view.t('rec_new_app_password')}
          </button>
        </form>
      )}
    </section>
  );
}

export interface SessionRow {
  id: number;
  created: string;
  last_seen: string;
  expires: string;
  user_agent: string;
  ip: string;
  current?: boolean;
}

/** Sessions of a user (100 §10): created, last seen, browser, address; one revoke button each when `revokeOne`. */
export function Sessions({ view, action, sessions, revokeOne }: { view: AdminView; action: string; sessions: SessionRow[]; revokeOne: boolean }) {
  return (
    <section aria-labelledby="sessions">
      <h2 id="sessions">{view.t('rec_sessions')}</h2>
      {sessions.length === 0 ? (
        <p>{view.t('rec_no_sessions')}</p>
      ) : (
        <RegionTable labelledBy="sessions" columns={[view.t('rec_col_created'), view.t('rec_col_last_seen'), view.t('rec_col_browser'), view.t('rec_col_address'), revokeOne && view.t('rec_col_actions')]}>
          {sessions.map((session) => (
            <tr>
              <td><When value={session.created} /></td>
              <td><When value={session.last_seen} /></td>
              <td>{session.user_agent || '—'}</td>
              <td>{session.ip || '—'}</td>
              {revokeOne && (
                <td>
                  {session.current ? (
                    <strong>{view.t('rec_this_session')}</strong>
                  ) : (
                    <ActionButton view={view} action={action} name="revoke_session" label={view.t('rec_revoke')} fields={{ session_id: String(session.id) }} />
                  )}
                </td>
              )}
            </tr>
          ))}
        </RegionTable>
      )}
    </section>
  );
}
