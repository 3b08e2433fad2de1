/** The back office's users pages: built-in users (120 §7) and application passwords' last use (100 §10). */
export const usersEn = {
  users_built_in_marker: '(built-in)',
  users_built_in_note: 'Built-in account used for visitor submissions; it cannot sign in or be changed.',
  users_never_used: 'Never',
};
