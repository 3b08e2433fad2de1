import type { usersEn } from './en.ts';

export const usersDa: Record<keyof typeof usersEn, string> = {
  users_built_in_marker: '(indbygget)',
  users_built_in_note: 'Indbygget konto til besøgendes indsendelser; den kan ikke logge ind eller ændres.',
  users_never_used: 'Aldrig',
};
