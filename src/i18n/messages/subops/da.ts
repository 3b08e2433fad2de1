import type { subopsEn } from './en.ts';

export const subopsDa: Record<keyof typeof subopsEn, string> = {
  rest_user_builtin: 'Dette er en indbygget bruger i tjenesten: den kan ikke logge ind, have programadgangskoder, slettes eller skifte rolle.',
};
