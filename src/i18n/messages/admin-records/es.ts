import type { adminRecordsMessagesEn } from './en.ts';

export const adminRecordsMessagesEs: Record<keyof typeof adminRecordsMessagesEn, string> = {
  rest_cannot_demote_last_admin: 'El último administrador no puede perder el rol de administrador.',
  application_password_not_found: 'No existe esa contraseña de aplicación.',
  rest_session_not_found: 'No existe esa sesión.',
  rest_cookie_auth_required: 'Esta ruta necesita la cookie de sesión del back office y su nonce (X-WP-Nonce); una contraseña de aplicación no puede usarla.',
  reason_text_too_long: 'debe tener como máximo {max} caracteres.',
  docs_events_api: 'API de eventos',
  docs_admin_api: 'API de administración',
  docs_documents: 'Documentos de la API',
};
