/** Admin API additions and the back office's record and people pages (100 §9–§10). */
export const adminRecordsMessagesEn = {
  rest_cannot_demote_last_admin: 'The last administrator cannot lose the administrator role.',
  application_password_not_found: 'No such application password.',
  rest_session_not_found: 'No such session.',
  rest_cookie_auth_required: 'This route needs the back office session cookie and its nonce (X-WP-Nonce); an application password cannot use it.',
  reason_text_too_long: 'must be at most {max} characters long.',
  docs_events_api: 'Events API',
  docs_admin_api: 'Administration API',
  docs_documents: 'API documents',
} as const;
