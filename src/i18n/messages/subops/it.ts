import type { subopsEn } from './en.ts';

export const subopsIt: Record<keyof typeof subopsEn, string> = {
  rest_user_builtin: 'Questo è un utente interno del servizio: non può accedere, avere password per le applicazioni, essere eliminato o cambiare ruolo.',
  mail_test_off: 'La posta è disattivata: CALENDAR_SMTP_URL non è impostato.',
  mail_test_subject: 'Messaggio di prova dal calendario',
  mail_test_text: 'Questo messaggio è stato inviato per verificare le impostazioni di posta del calendario. Non è necessario fare nulla.',
};
