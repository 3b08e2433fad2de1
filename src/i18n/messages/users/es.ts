import type { usersEn } from './en.ts';

export const usersEs: Record<keyof typeof usersEn, string> = {
  users_built_in_marker: '(interno)',
  users_built_in_note: 'Cuenta interna usada para los envíos de los visitantes; no puede iniciar sesión ni modificarse.',
  users_never_used: 'Nunca',
};
