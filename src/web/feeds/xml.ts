/** Characters XML 1.0 forbids (`Char` production): C0 controls but TAB/LF/CR, U+FFFE, U+FFFF, lone surrogates. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text or an attribute value for an XML document: forbidden characters dropped, markup escaped. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"]/g, (c) => ENTITIES[c]);
}

type Attributes = Record<string, string | number | undefined>;

/** `<name a="…">text</name>`; attributes left undefined are omitted, `text` undefined = empty element. */
export function xmlElement(name: string, attributes: Attributes, text?: string): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${xmlText(String(value))}"`)
    .join('');
  return text === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${xmlText(text)}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** `2026-04-12 17:30:00` (UTC) as an instant. */
export function utcInstant(utc: string): Date {
  return new Date(`${utc.replace(' ', 'T')}Z`);
}
