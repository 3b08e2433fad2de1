import type { subopsEn } from './en.ts';

export const subopsDa: Record<keyof typeof subopsEn, string> = {
  rest_user_builtin: 'Dette er en indbygget bruger i tjenesten: den kan ikke logge ind, have programadgangskoder, slettes eller skifte rolle.',
  mail_test_off: 'E-mail er slået fra: CALENDAR_SMTP_URL er ikke sat.',
  mail_test_subject: 'Testbesked fra kalenderen',
  mail_test_text: 'Denne besked blev sendt for at kontrollere kalenderens e-mailindstillinger. Du behøver ikke at gøre noget.',
};
