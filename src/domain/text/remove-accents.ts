// WordPress remove_accents() for the default (English) locale, except that
// ß becomes "ss" (project decision; WordPress writes "s" outside German
// locales).

// Letters that have no canonical decomposition, and the two currency signs
// WordPress also rewrites.
const SPECIAL: Readonly<Record<string, string>> = {
  'ª': 'a', 'º': 'o', 'Æ': 'AE', 'æ': 'ae', 'Ð': 'D', 'ð': 'd', 'Ø': 'O', 'ø': 'o',
  'Þ': 'TH', 'þ': 'th', 'ß': 'ss', 'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i',
  'Ĳ': 'IJ', 'ĳ': 'ij', 'ĸ': 'k', 'Ŀ': 'L', 'ŀ': 'l', 'Ł': 'L', 'ł': 'l', 'ŉ': 'n',
  'Ŋ': 'N', 'ŋ': 'n', 'Œ': 'OE', 'œ': 'oe', 'Ŧ': 'T', 'ŧ': 't', 'ſ': 's',
  'Ə': 'E', 'ǝ': 'e', 'ɑ': 'a', '€': 'E', '£': '',
};

// WordPress's table covers accented Latin letters of these blocks only; the
// same diacritics on Greek or Cyrillic letters (й, ά) must survive so that
// those slugs match the reference's percent-encoded ones.
function inWordPressTable(codePoint: number): boolean {
  return (codePoint >= 0xc0 && codePoint <= 0x17f)
    || codePoint === 0x1a0 || codePoint === 0x1a1 || codePoint === 0x1af || codePoint === 0x1b0
    || (codePoint >= 0x1cd && codePoint <= 0x1dc)
    || (codePoint >= 0x218 && codePoint <= 0x21b)
    || (codePoint >= 0x1ea0 && codePoint <= 0x1ef9);
}

const ASCII_LETTER_WITH_MARKS = /^[A-Za-z]\p{M}+$/u;

export function removeAccents(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  let result = '';
  for (const char of text.normalize('NFC')) {
    result += SPECIAL[char] ?? unaccented(char);
  }
  return result;
}

function unaccented(char: string): string {
  if (!inWordPressTable(char.codePointAt(0)!)) return char;
  const decomposed = char.normalize('NFD');
  return ASCII_LETTER_WITH_MARKS.test(decomposed) ? decomposed[0]! : char;
}
