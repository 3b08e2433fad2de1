import { da } from './messages/da.ts';
import { en, type Catalogue, type MessageKey } from './messages/en.ts';
import { es } from './messages/es.ts';
import { it } from './messages/it.ts';

export type { MessageKey } from './messages/en.ts';

export const LANGUAGES = ['en', 'da', 'it', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Language editions served under a path prefix; English has none. */
export const EDITION_PREFIXES: Record<Language, string> = { en: '', da: '/da', it: '/it', es: '/es' };

export const catalogues: Record<Language, Catalogue> = { en, da, it, es };

export type MessageVars = Record<string, string | number>;

export function translate(lang: Language, key: MessageKey, vars?: MessageVars): string {
  const text = catalogues[lang][key] ?? en[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
