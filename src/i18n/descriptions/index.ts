import type { Language } from '../catalog.ts';

/**
 * Parameter and field descriptions are written in English where they are declared (the route
 * schemas); the editions translate them through these catalogues, keyed by the English text.
 */
const catalogues: Record<Exclude<Language, 'en'>, Record<string, string>> = { da: {}, it: {}, es: {} };

export function translateDescription(lang: Language, english: string): string {
  if (lang === 'en') return english;
  return catalogues[lang][english] ?? english;
}
