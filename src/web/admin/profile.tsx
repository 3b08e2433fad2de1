import type { AdminView } from './frame.tsx';
import { CsrfField, ErrorSummary, TextField, type FieldErrors } from './form-parts.tsx';
import { ActionButton, AppPasswords, Sessions, type AppPasswordRow, type SessionRow } from './people-parts.tsx';

export interface ProfileProps {
  view: AdminView;
  errors: FieldErrors;
  unplaced: string[];
  passwords: AppPasswordRow[];
  sessions: SessionRow[];
}

/** `/admin/profile/` (100 §10): own sign-in password, application passwords and sessions. Password fields are never filled again. */
export function ProfilePage(props: ProfileProps) {
  const { view } = props;
  const action = view.adminUrl('/profile/');
  return (
    <>
      <ErrorSummary errors={props.errors} unplaced={props.unplaced} t={view.t} />
      <section aria-labelledby="change-password">
        <h2 id="change-password">{view.t('rec_change_password')}</h2>
        <form method="post" action={action} novalidate>
          <CsrfField token={view.csrfToken} />
          <TextField name="current_password" label={view.t('rec_current_password')} type="password" required errors={props.errors} autocomplete="current-password" />
          <TextField name="new_password" label={view.t('rec_new_password')} type="password" required errors={props.errors} autocomplete="new-password" hint={view.t('rec_new_password_hint')} />
          <TextField name="new_password_confirm" label={view.t('rec_new_password_confirm')} type="password" required errors={props.errors} autocomplete="new-password" />
          <button type="submit" name="action" value="change_password" class="button">
            {view.t('rec_change_password')}
          </button>
        </form>
      </section>
      <AppPasswords view={view} action={action} passwords={props.passwords} />
      <Sessions view={view} action={action} sessions={props.sessions} revokeOne />
      {props.sessions.some((session) => !session.current) && <ActionButton view={view} action={action} name="revoke_other_sessions" label={view.t('rec_revoke_other_sessions')} />}
    </>
  );
}
