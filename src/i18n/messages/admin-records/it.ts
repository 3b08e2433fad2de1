import type { adminRecordsMessagesEn } from './en.ts';

export const adminRecordsMessagesIt: Record<keyof typeof adminRecordsMessagesEn, string> = {
  rest_cannot_demote_last_admin: 'L’ultimo amministratore non può perdere il ruolo di amministratore.',
  application_password_not_found: 'Password per le applicazioni inesistente.',
  rest_session_not_found: 'Sessione inesistente.',
  rest_cookie_auth_required: 'Questa rotta richiede il cookie di sessione del back office e il suo nonce (X-WP-Nonce); una password per le applicazioni non può usarla.',
  reason_text_too_long: 'deve essere lungo al massimo {max} caratteri.',
  docs_events_api: 'API degli eventi',
  docs_admin_api: 'API di amministrazione',
  docs_documents: 'Documenti delle API',
};
