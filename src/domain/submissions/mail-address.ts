/** The WHATWG "valid e-mail address" (what `type="email"` accepts), at most 254 characters (120 §10.1). */
const WHATWG_EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function isMailAddress(value: string): boolean {
  return value.length <= 254 && WHATWG_EMAIL.test(value);
}
