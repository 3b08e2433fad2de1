import type { moderationListMessagesEn } from './en.ts';

export const moderationListMessagesEs: Record<keyof typeof moderationListMessagesEn, string> = {
  admin_lists_bulk_approve: "Aprobar",
  admin_lists_bulk_reject: "Rechazar",
  admin_lists_bulk_spam: "Marcar como spam",
  admin_review_col: "Envío",
  admin_review_submitted_by: "Enviado por {submitter}",
  admin_review_unnamed: "Enviado por un visitante sin nombre",
  admin_review_received: "Recibido",
  admin_review_edition: "Edición: {language}",
  admin_review_decide: "Decidir sobre “{title}”",
  admin_review_only_submissions: "Solo eventos enviados",
  admin_dash_submissions: "Envíos",
  admin_dash_awaiting: "Envíos pendientes de revisión: {count} ({flagged} marcados)",
  admin_dash_dropped: "Descartados en las últimas 24 horas",
  'admin_dash_drop_bad-token': "Token de formulario no válido",
  'admin_dash_drop_too-fast': "Enviados demasiado rápido",
  admin_dash_drop_expired: "Formulario caducado",
  admin_dash_drop_reused: "Formulario enviado de nuevo",
  admin_dash_drop_honeypot: "Campo oculto rellenado",
  admin_dash_mail: "Correo",
  admin_dash_failed_mail: "Correos fallidos: {count}",
};
