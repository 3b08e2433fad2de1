/** Built-in users (120 §7) and the mail test command (120 §10.3). */
export const subopsEn = {
  rest_user_builtin: 'This is a built-in user of the service: it cannot sign in, hold application passwords, be deleted or change role.',
};
