import type { moderationListMessagesEn } from './en.ts';

export const moderationListMessagesIt: Record<keyof typeof moderationListMessagesEn, string> = {
  admin_lists_bulk_approve: "Approva",
  admin_lists_bulk_reject: "Rifiuta",
  admin_lists_bulk_spam: "Segna come spam",
  admin_review_col: "Proposta",
  admin_review_submitted_by: "Proposto da {submitter}",
  admin_review_unnamed: "Proposto da un visitatore senza nome",
  admin_review_received: "Ricevuto",
  admin_review_edition: "Edizione: {language}",
  admin_review_decide: "Decidi su “{title}”",
  admin_review_only_submissions: "Solo eventi proposti",
  admin_dash_submissions: "Proposte",
  admin_dash_awaiting: "Proposte in attesa di revisione: {count} ({flagged} segnalate)",
  admin_dash_dropped: "Scartate nelle ultime 24 ore",
  'admin_dash_drop_bad-token': "Token del modulo non valido",
  'admin_dash_drop_too-fast': "Inviate troppo in fretta",
  admin_dash_drop_expired: "Modulo scaduto",
  admin_dash_drop_reused: "Modulo inviato di nuovo",
  admin_dash_drop_honeypot: "Campo nascosto compilato",
  admin_dash_mail: "Posta",
  admin_dash_failed_mail: "E-mail non recapitate: {count}",
};
