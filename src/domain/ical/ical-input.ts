/**
 * The first passes of an iCalendar import (50 C.2, C.3): strict UTF-8, physical lines, unfolding
 * with the physical line where each logical line starts, and a structure check that ical.js does
 * not make (balanced components, well-formed dates, durations and rules). Every failure names
 * the line it was found at; nothing here touches storage.
 */

export type IcalInputReason =
  | 'invalid-utf8' | 'not-icalendar' | 'malformed-line' | 'unbalanced-component' | 'trailing-content'
  | 'malformed-date' | 'malformed-duration' | 'malformed-rrule';

/** A file rejected by C.3: nothing is written. */
export class IcalInputError extends Error {
  constructor(
    readonly line: number,
    readonly reason: IcalInputReason,
    readonly text: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** A file over a C.9 cap (413 `ical-too-large`); `line` where the cap was crossed, when one line did it. */
export class IcalTooLargeError extends Error {
  constructor(
    readonly limit: string,
    readonly line?: number,
  ) {
    super(`too large: ${limit}`);
  }
}

export interface IcalLimits {
  maxBytes: number;
  maxEvents: number;
}

export interface LogicalLine {
  /** Physical line (1-based) where the logical line starts. */
  line: number;
  text: string;
}

export interface IcalStructure {
  lines: LogicalLine[];
  /** The unfolded file with CRLF line ends, for the parser. */
  unfolded: string;
  /** Physical line of each top-level VEVENT's BEGIN, in file order. */
  veventLines: number[];
}

const MAX_LINE_BYTES = 1024 * 1024;
const MAX_DEPTH = 4;
const NAME = /^[A-Za-z0-9-]+$/;
const DATE_VALUE = /^\d{8}(T\d{6}Z?)?$/;
const DURATION = /^[+-]?P(?:\d+W|(?=\d|T\d)(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+S)?)?)$/;
const DATE_PROPERTIES = new Set(['DTSTART', 'DTEND', 'RECURRENCE-ID', 'EXDATE', 'RDATE']);

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) { i++; continue; }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  }
  return line;
}

/** Index of the `:` that ends a content line's name and parameters (quoted values may hold `:`). */
export function valueStart(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) return i;
  }
  return -1;
}

function nameOf(text: string): string {
  const end = text.search(/[;:]/);
  return (end < 0 ? text : text.slice(0, end)).toUpperCase();
}

function unfold(text: string): LogicalLine[] {
  const physical = text.split(/\r\n|\n|\r/);
  const lines: LogicalLine[] = [];
  physical.forEach((raw, index) => {
    const previous = lines[lines.length - 1];
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && previous) {
      previous.text += raw.slice(1);
    } else {
      lines.push({ line: index + 1, text: raw });
    }
    const current = lines[lines.length - 1];
    if (current.text.length > MAX_LINE_BYTES) throw new IcalTooLargeError('line', current.line);
  });
  return lines.filter((line) => line.text.trim() !== '');
}

function checkValue(entry: LogicalLine, name: string, value: string, isRule: (value: string) => boolean): void {
  const fail = (reason: IcalInputReason) => {
    throw new IcalInputError(entry.line, reason, entry.text.slice(0, 80));
  };
  if (DATE_PROPERTIES.has(name)) {
    for (const item of value.split(',')) {
      const [first, second] = item.split('/');
      const ok = name === 'RDATE' && second !== undefined
        ? DATE_VALUE.test(first) && (DATE_VALUE.test(second) || DURATION.test(second))
        : second === undefined && DATE_VALUE.test(first);
      if (!ok) fail('malformed-date');
    }
  } else if (name === 'DURATION' && !DURATION.test(value)) {
    fail('malformed-duration');
  } else if ((name === 'RRULE' || name === 'EXRULE') && !isRule(value)) {
    fail('malformed-rrule');
  }
}

/**
 * Decodes and checks a file (C.2 steps 1–3). `isRule` judges RRULE values (the parser's rule
 * grammar, kept out of this pure module).
 */
export function readIcalStructure(bytes: Uint8Array, limits: IcalLimits, isRule: (value: string) => boolean): IcalStructure {
  if (bytes.length > limits.maxBytes) throw new IcalTooLargeError('bytes');
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) throw new IcalInputError(lineAt(bytes, bad), 'invalid-utf8', '');
  let text = new TextDecoder('utf-8').decode(bytes);
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const lines = unfold(text);
  const stack: Array<{ name: string; line: number }> = [];
  const veventLines: number[] = [];
  let closed = false;
  for (const entry of lines) {
    const fail = (reason: IcalInputReason) => {
      throw new IcalInputError(entry.line, reason, entry.text.slice(0, 80));
    };
    if (closed) fail('trailing-content');
    const colon = valueStart(entry.text);
    const name = nameOf(entry.text);
    if (stack.length === 0 && !(name === 'BEGIN' && entry.text.slice(colon + 1).trim().toUpperCase() === 'VCALENDAR')) fail('not-icalendar');
    if (colon <= 0 || !NAME.test(name)) fail('malformed-line');
    const value = entry.text.slice(colon + 1);
    if (name === 'BEGIN') {
      const component = value.trim().toUpperCase();
      if (!NAME.test(component)) fail('malformed-line');
      stack.push({ name: component, line: entry.line });
      if (stack.length > MAX_DEPTH) throw new IcalTooLargeError('nesting', entry.line);
      if (component === 'VEVENT' && stack.length === 2) {
        veventLines.push(entry.line);
        if (veventLines.length > limits.maxEvents) throw new IcalTooLargeError('events', entry.line);
      }
    } else if (name === 'END') {
      if (stack.pop()?.name !== value.trim().toUpperCase()) fail('unbalanced-component');
      if (stack.length === 0) closed = true;
    } else {
      checkValue(entry, name, value, isRule);
    }
  }
  const open = stack[stack.length - 1];
  if (open) throw new IcalInputError(open.line, 'unbalanced-component', `BEGIN:${open.name}`);
  if (lines.length === 0) throw new IcalInputError(1, 'not-icalendar', '');
  return { lines, unfolded: lines.map((line) => line.text).join('\r\n') + '\r\n', veventLines };
}
