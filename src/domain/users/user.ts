import { isRole, type Principal, type Role } from '../auth/capabilities.ts';

export interface User extends Principal {
  id: number;
  login: string;
  email: string;
  role: Role;
}

/** Logins as WordPress allows them (sanitize_user, strict): letters, digits, space, _ . - @. */
export function isValidLogin(login: string): boolean {
  return /^[A-Za-z0-9 _.@-]{1,60}$/.test(login) && login.trim() === login;
}

export function isValidEmail(email: string): boolean {
  return /^[^\s@<>"']{1,64}@[^\s@<>"']+\.[^\s@<>"']+$/.test(email) && email.length <= 100;
}

export function toUser(record: { id: number; login: string; email: string; role: string }): User {
  if (!isRole(record.role)) throw new Error(`stored user ${record.id} has an unknown role`);
  return { id: record.id, login: record.login, email: record.email, role: record.role };
}
