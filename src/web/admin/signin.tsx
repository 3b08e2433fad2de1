import type { VNode } from 'preact';
import { SIGNIN_PASSWORD_MIN } from '../../domain/signin/password-policy.ts';
import { ErrorSummary, TextField, Checkbox, CsrfField, type FieldErrors } from './form-parts.tsx';
import { AdminFrame, PublicFrame, type AdminView, type PublicView } from './frame.tsx';

export interface SigninForm {
  action: string;
  token: string;
  login: string;
  remember: boolean;
  redirectTo: string;
  /** A refusal shown above the form (one message for every failed sign-in). */
  alert?: string;
}

/** 100 §5.1: the sign-in form; works without JavaScript. */
export function SigninPage(props: { view: PublicView; form: SigninForm }): VNode {
  const { view, form } = props;
  const { t } = view;
  return (
    <PublicFrame view={view} title={t('admin_signin_title')}>
      {form.alert ? <p role="alert" class="alert">{form.alert}</p> : null}
      <form method="post" action={form.action} class="admin-form admin-signin">
        <CsrfField token={form.token} />
        <input type="hidden" name="redirect_to" value={form.redirectTo} />
        <TextField name="login" label={t('admin_signin_login')} value={form.login} autocomplete="username" required requiredText={t('admin_required')} errors={{}} />
        <TextField name="password" label={t('admin_signin_password')} type="password" autocomplete="current-password" required requiredText={t('admin_required')} errors={{}} />
        <Checkbox name="remember" label={t('admin_signin_remember')} hint={t('admin_signin_remember_hint')} checked={form.remember} errors={{}} />
        <p><button type="submit" class="button">{t('admin_signin_submit')}</button></p>
      </form>
    </PublicFrame>
  );
}

/** 100 §5.3: sign-out is a POST; its GET shows one button. */
export function LogoutPage(props: { view: AdminView }): VNode {
  const { view } = props;
  return (
    <AdminFrame view={view} title={view.t('admin_logout_title')}>
      <p>{view.t('admin_logout_question')}</p>
      <form method="post" action={view.adminUrl('/logout')} class="admin-form">
        <CsrfField token={view.csrfToken} />
        <p><button type="submit" class="button">{view.t('admin_sign_out')}</button></p>
      </form>
    </AdminFrame>
  );
}

/** 100 §3.4: choose a password through a one-time link. */
export function InvitePage(props: { view: PublicView; action: string; token: string; login: string; errors: FieldErrors; unplaced?: string[] }): VNode {
  const { view, errors } = props;
  const { t } = view;
  return (
    <PublicFrame view={view} title={t('admin_invite_title')}>
      <ErrorSummary errors={errors} unplaced={props.unplaced} t={t} />
      <p>{t('admin_invite_intro', { login: props.login, min: SIGNIN_PASSWORD_MIN })}</p>
      <form method="post" action={props.action} class="admin-form" novalidate>
        <CsrfField token={props.token} />
        <input type="text" name="login" value={props.login} autocomplete="username" hidden />
        <TextField name="password" label={t('admin_invite_password')} type="password" autocomplete="new-password" required requiredText={t('admin_required')} errors={errors} />
        <TextField name="password_confirm" label={t('admin_invite_password_confirm')} type="password" autocomplete="new-password" required requiredText={t('admin_required')} errors={errors} />
        <p><button type="submit" class="button">{t('admin_invite_submit')}</button></p>
      </form>
    </PublicFrame>
  );
}
