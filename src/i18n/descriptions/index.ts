import type { Language } from '../catalog.ts';
import { da } from './da.ts';
import { es } from './es.ts';
import { it } from './it.ts';

/**
 * Parameter and field descriptions are written in English where they are declared (the route
 * schemas); the editions translate them through these catalogues, keyed by the English text.
 * A test lists every text the documents use that a catalogue lacks.
 */
export const descriptionCatalogues: Readonly<Record<Exclude<Language, 'en'>, Readonly<Record<string, string>>>> = { da, it, es };

export function translateDescription(lang: Language, english: string): string {
  if (lang === 'en') return english;
  const catalogue = descriptionCatalogues[lang];
  return Object.hasOwn(catalogue, english) ? catalogue[english] : english;
}
