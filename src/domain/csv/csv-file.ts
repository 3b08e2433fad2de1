import { CsvError, parse } from 'csv-parse/sync';
import { fieldOfHeader, IGNORED_FIELDS, labelOf, REQUIRED, type CsvKind } from './csv-columns.ts';

/** A file-level problem (140 §7.6): 400 `csv-parse-error`, CLI exit 2. */
export class CsvFileError extends Error {
  constructor(
    readonly reason: 'empty' | 'missing-column' | 'duplicate-column' | 'unbalanced-quote',
    readonly line: number,
    readonly detail?: string,
  ) {
    super(`line ${line}: ${reason}${detail ? ` (${detail})` : ''}`);
  }
}

/** Over a limit of 140 §7.2: 413 `csv-too-large`, CLI exit 2. */
export class CsvTooLargeError extends Error {
  constructor(readonly limit: 'bytes' | 'rows' | 'field' | 'columns') {
    super(`the file is too large (${limit})`);
  }
}

export interface CsvLimits {
  maxBytes: number;
  maxRows: number;
}

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_COLUMNS = 100;
const SEPARATORS = [',', ';', '\t'] as const;

export interface CsvRow {
  /** Physical line where the record starts (header = 1). */
  line: number;
  /** Record number (header = 1), the spreadsheet's row. */
  row: number;
  /** Trimmed, non-empty cells by field. */
  cells: Map<string, string>;
}

export interface CsvFile {
  separator: string;
  encoding: 'utf-8' | 'windows-1252';
  bom: boolean;
  columns: { mapped: Record<string, string>; ignored: string[] };
  /** Fields the file has a column for (an update changes only these). */
  fields: Set<string>;
  warnings: string[];
  rows: CsvRow[];
}

/**
 * Windows-1252's characters at 0x80–0x9F (undefined bytes kept as they are). Node's TextDecoder
 * accepts the label `windows-1252` but decodes ISO-8859-1, which has control codes there.
 */
const CP1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

function decodeWindows1252(bytes: Buffer): string {
  return Array.from(bytes, (byte) => (byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte))).join('');
}

function decode(bytes: Buffer): { text: string; encoding: CsvFile['encoding']; bom: boolean } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), encoding: 'utf-8', bom };
  } catch {
    return { text: decodeWindows1252(body), encoding: 'windows-1252', bom };
  }
}

/** The most frequent of `,`, `;`, tab outside quotes on the header line; ties → `,`. */
function detectSeparator(headerLine: string): string {
  const counts = new Map<string, number>(SEPARATORS.map((separator) => [separator, 0]));
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  return SEPARATORS.reduce((best, separator) => (counts.get(separator)! > counts.get(best)! ? separator : best), ',');
}

/** Reads a CSV file of the kind (140 §7.2): encoding, separator, header, rows with their positions. */
export function readCsvFile(bytes: Buffer, kind: CsvKind, limits: CsvLimits): CsvFile {
  if (bytes.length > limits.maxBytes) throw new CsvTooLargeError('bytes');
  const decoded = decode(bytes);
  // One line end for the parser; a line break inside a quoted cell becomes \n.
  const text = decoded.text.replace(/\r\n?/g, '\n');
  const headerLine = text.split('\n').find((line) => line.trim() !== '');
  if (headerLine === undefined) throw new CsvFileError('empty', 1);
  const separator = detectSeparator(headerLine);
  let records: { record: string[]; info: { lines: number }; raw: string }[];
  try {
    records = parse(text, { delimiter: separator, record_delimiter: '\n', relax_column_count: true, skip_empty_lines: false, info: true, raw: true, max_record_size: MAX_FIELD_BYTES * MAX_COLUMNS }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') throw new CsvTooLargeError('field');
    if (error instanceof CsvError) throw new CsvFileError('unbalanced-quote', (error as CsvError & { lines?: number }).lines ?? 1);
    throw error;
  }
  const positioned = records.map(({ record, info, raw }) => ({ cells: record.map((cell) => cell.trim()), line: info.lines - (raw.replace(/\n$/, '').match(/\n/g)?.length ?? 0) }));
  const nonEmpty = positioned.filter((record) => record.cells.some((cell) => cell !== ''));
  const header = nonEmpty[0];
  if (header === undefined) throw new CsvFileError('empty', 1);
  if (header.cells.length > MAX_COLUMNS) throw new CsvTooLargeError('columns');

  const warnings: string[] = decoded.encoding === 'windows-1252' ? ['decoded-windows-1252'] : [];
  const mapped: Record<string, string> = {};
  const ignored: string[] = [];
  const fieldAt = new Map<number, string>();
  header.cells.forEach((name, index) => {
    if (name === '') return;
    const field = fieldOfHeader(kind, name);
    if (field === undefined || IGNORED_FIELDS.has(field)) {
      ignored.push(name);
      warnings.push(`${field === undefined ? 'unknown-column' : 'column-ignored'}: ${name}`);
      return;
    }
    if ([...fieldAt.values()].includes(field)) throw new CsvFileError('duplicate-column', header.line, name);
    fieldAt.set(index, field);
    mapped[name] = field;
  });
  const fields = new Set(fieldAt.values());
  const missing = REQUIRED[kind].find((field) => !fields.has(field));
  if (missing !== undefined) throw new CsvFileError('missing-column', header.line, labelOf(kind, missing));

  const headerIndex = positioned.indexOf(header);
  const rows: CsvRow[] = [];
  positioned.forEach((record, index) => {
    if (index <= headerIndex || !record.cells.some((cell) => cell !== '')) return;
    if (record.cells.some((cell) => Buffer.byteLength(cell) > MAX_FIELD_BYTES)) throw new CsvTooLargeError('field');
    const cells = new Map<string, string>();
    for (const [column, field] of fieldAt) if ((record.cells[column] ?? '') !== '') cells.set(field, record.cells[column]);
    rows.push({ line: record.line, row: index - headerIndex + 1, cells });
  });
  if (rows.length > limits.maxRows) throw new CsvTooLargeError('rows');
  return { separator, encoding: decoded.encoding, bom: decoded.bom, columns: { mapped, ignored }, fields, warnings, rows };
}

