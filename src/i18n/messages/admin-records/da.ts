import type { adminRecordsMessagesEn } from './en.ts';

export const adminRecordsMessagesDa: Record<keyof typeof adminRecordsMessagesEn, string> = {
  rest_cannot_demote_last_admin: 'Den sidste administrator kan ikke miste administratorrollen.',
  application_password_not_found: 'Programadgangskoden findes ikke.',
  rest_session_not_found: 'Sessionen findes ikke.',
  rest_cookie_auth_required: 'Denne rute kræver back office-sessionens cookie og dens nonce (X-WP-Nonce); en programadgangskode kan ikke bruge den.',
  reason_text_too_long: 'må højst være {max} tegn lang.',
  docs_events_api: 'Begivenheds-API',
  docs_admin_api: 'Administrations-API',
  docs_documents: 'API-dokumenter',
};
