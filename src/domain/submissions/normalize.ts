/** C0 and C1 controls, DEL, U+2028 and U+2029. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** 120 §4.1: a single-line value: every control or line break one space, trimmed — no value can carry a line break into a header. */
export function singleLine(value: string): string {
  return value.replace(CONTROLS, ' ').trim();
}

/** 120 §4.1: the description keeps its lines (LF), other controls go. */
export function multiLine(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, '');
}

/** Occurrences of `http://`, `https://` and `www.`, case-insensitive (120 §4). */
export function countLinks(text: string): number {
  return (text.match(/https?:\/\/|www\./gi) ?? []).length;
}
