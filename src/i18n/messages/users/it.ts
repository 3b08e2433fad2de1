import type { usersEn } from './en.ts';

export const usersIt: Record<keyof typeof usersEn, string> = {
  users_built_in_marker: '(interno)',
  users_built_in_note: 'Account interno usato per le proposte dei visitatori; non può accedere né essere modificato.',
  users_never_used: 'Mai',
};
