import type { moderationListMessagesEn } from './en.ts';

export const moderationListMessagesDa: Record<keyof typeof moderationListMessagesEn, string> = {
  admin_lists_bulk_approve: "Godkend",
  admin_lists_bulk_reject: "Afvis",
  admin_lists_bulk_spam: "Markér som spam",
  admin_review_col: "Indsendelse",
  admin_review_submitted_by: "Indsendt af {submitter}",
  admin_review_unnamed: "Indsendt af en besøgende uden navn",
  admin_review_received: "Modtaget",
  admin_review_edition: "Udgave: {language}",
  admin_review_decide: "Afgør “{title}”",
  admin_review_only_submissions: "Kun indsendte begivenheder",
  admin_dash_submissions: "Indsendelser",
  admin_dash_awaiting: "Indsendelser der venter på gennemgang: {count} ({flagged} markeret)",
  admin_dash_dropped: "Frasorteret de sidste 24 timer",
  'admin_dash_drop_bad-token': "Ugyldig formularnøgle",
  'admin_dash_drop_too-fast': "Sendt for hurtigt",
  admin_dash_drop_expired: "Formularen var udløbet",
  admin_dash_drop_reused: "Formularen sendt igen",
  admin_dash_drop_honeypot: "Skjult felt udfyldt",
  admin_dash_mail: "E-mail",
  admin_dash_failed_mail: "Mislykkede e-mails: {count}",
};
