import type { subopsEn } from './en.ts';

export const subopsIt: Record<keyof typeof subopsEn, string> = {
  rest_user_builtin: 'Questo è un utente interno del servizio: non può accedere, avere password per le applicazioni, essere eliminato o cambiare ruolo.',
};
