import { colord, extend, type Colord } from 'colord';
import a11yPlugin from 'colord/plugins/a11y';
import mixPlugin from 'colord/plugins/mix';

extend([a11yPlugin, mixPlugin]);

/** Text and controls need this much contrast against what is behind them (WCAG 2.2 AA, 1.4.3). */
export const MIN_TEXT_CONTRAST = 4.5;

/** The page background of the light theme: the accent setting is judged against it. */
export const LIGHT_BACKGROUND = '#ffffff';

/** The dark theme's page background and its raised surface (cards, menus), the lighter of the two. */
export const DARK_BACKGROUND = '#14171c';
export const DARK_SURFACE = '#1d2128';

export const DEFAULT_ACCENT = '#0b57a4';

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** WCAG contrast ratio, floored to two decimals so a colour shown as 4.50 really reaches 4.5. */
export function contrast(foreground: string, background: string): number {
  return colord(foreground).contrast(background);
}

/** Why `raw` cannot be the accent colour (written for the start's one line), or null when it can. */
export function accentProblem(raw: string): string | null {
  if (!HEX_COLOUR.test(raw)) return `must be a colour written #rrggbb, got "${raw}"`;
  const ratio = contrast(raw, LIGHT_BACKGROUND);
  if (ratio < MIN_TEXT_CONTRAST) {
    return `${raw} has a contrast of ${ratio.toFixed(2)}:1 against the light background ${LIGHT_BACKGROUND}; text needs at least ${MIN_TEXT_CONTRAST}:1 (choose a darker colour)`;
  }
  return null;
}

/**
 * The accent of the dark theme: the same hue made lighter, step by step, until it reads on the
 * dark surface (and so on the darker background too). White always does, so the loop ends.
 */
export function darkAccent(accent: string): string {
  let colour: Colord = colord(accent);
  while (colour.contrast(DARK_SURFACE) < MIN_TEXT_CONTRAST) colour = colour.lighten(0.02);
  return colour.toHex();
}

/** The accent mixed into a background: the faint fill of chips and current items. */
export function tint(accent: string, background: string, share: number): string {
  return colord(background).mix(accent, share).toHex();
}

/** A stronger accent for hover: further from the background it sits on. */
export function emphasis(accent: string, towards: 'black' | 'white'): string {
  return colord(accent).mix(towards === 'black' ? '#000000' : '#ffffff', 0.25).toHex();
}
