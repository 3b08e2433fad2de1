import type { Reason } from '../errors.ts';

export const SIGNIN_PASSWORD_MIN = 12;
export const SIGNIN_PASSWORD_MAX = 256;

/** The reasons of 100 §3.1's policy (`details.password.code`). */
export const PASSWORD_REASONS = {
  tooShort: { code: 'password-too-short', messageKey: 'admin_reason_password_too_short', vars: { min: SIGNIN_PASSWORD_MIN } },
  tooLong: { code: 'password-too-long', messageKey: 'admin_reason_password_too_long', vars: { max: SIGNIN_PASSWORD_MAX } },
  isLogin: { code: 'password-is-login', messageKey: 'admin_reason_password_is_login' },
  differ: { code: 'passwords-differ', messageKey: 'admin_reason_passwords_differ' },
} as const satisfies Record<string, Reason>;

/** The password as it is hashed: Unicode NFC, so the same characters typed differently match. */
export function normalizePassword(password: string): string {
  return password.normalize('NFC');
}

/**
 * Why a new sign-in password is refused (100 §3.1), or null: after NFC, 12–256 characters (code
 * points), not the login or e-mail (case-insensitive).
 */
export function passwordProblem(password: string, user: { login: string; email: string }): Reason | null {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < SIGNIN_PASSWORD_MIN) return PASSWORD_REASONS.tooShort;
  if (length > SIGNIN_PASSWORD_MAX) return PASSWORD_REASONS.tooLong;
  const lower = normalized.toLowerCase();
  if (lower === user.login.toLowerCase() || (user.email !== '' && lower === user.email.toLowerCase())) return PASSWORD_REASONS.isLogin;
  return null;
}
