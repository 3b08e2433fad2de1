import { decodeHTMLStrict } from 'entities';

export { decodeHTML as decodeEntities } from 'entities';

// A "&" that already starts a character reference must not become "&amp;amp;".
const CHARACTER_REFERENCE = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;

/**
 * WordPress _wp_specialchars() without double encoding: `&`, `<`, `>` always,
 * quotes only when asked (ENT_QUOTES gives `&quot;` and `&#039;`).
 */
export function escapeSpecialChars(text: string, quotes: boolean): string {
  return text.replace(/[&<>"']/g, (char, offset: number) => {
    switch (char) {
      case '&':
        return startsCharacterReference(text, offset) ? '&' : '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return quotes ? '&quot;' : char;
      default:
        return quotes ? '&#039;' : char;
    }
  });
}

function startsCharacterReference(text: string, offset: number): boolean {
  CHARACTER_REFERENCE.lastIndex = offset;
  const match = CHARACTER_REFERENCE.exec(text);
  // Named references count only when HTML knows the name (`&foo;` is text).
  return match !== null && decodeHTMLStrict(match[0]) !== match[0];
}
