import { decodeEntities } from './entities.ts';
import { slugify } from './slug.ts';
import { stripAllTagsAndScripts } from './strip-tags.ts';

// Event cost rules of 10 §3.4: what is stored, what `cost_details` shows and
// how the `cost` string is formatted.

export type CurrencyPosition = 'prefix' | 'postfix' | '';

export interface Currency {
  symbol: string;
  position: CurrencyPosition;
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: '';
  currency_position: CurrencyPosition;
  values: string[];
}

const NUMBER = /\d+(?:[.,]\d+)*/g;

/** The request's `cost` (string, number or list of them) as stored values. */
export function parseCostInput(input: unknown): string[] {
  const items = Array.isArray(input) ? input : [input];
  const values: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string' && !(typeof item === 'number' && Number.isFinite(item))) continue;
    const value = decodeEntities(stripAllTagsAndScripts(String(item))).trim();
    if (value !== '') values.push(value);
  }
  return values;
}

/**
 * The text around the numbers, when every priced value carries the same text
 * on the same side (`20$` → `$` postfix). Values without a number (`Free`)
 * say nothing about the currency and are skipped.
 */
export function inferCurrency(values: readonly string[]): Currency {
  const none: Currency = { symbol: '', position: '' };
  let found: Currency | undefined;
  for (const value of values) {
    const numbers = [...value.matchAll(NUMBER)];
    if (numbers.length === 0) continue;
    const first = numbers[0]!;
    const last = numbers[numbers.length - 1]!;
    const before = value.slice(0, first.index).trim();
    const after = value.slice(last.index + last[0].length).trim();
    // Text on both sides (`$10 USD`) names no single symbol position.
    if (before !== '' && after !== '') return none;
    const currency: Currency = before !== ''
      ? { symbol: before, position: 'prefix' }
      : after !== '' ? { symbol: after, position: 'postfix' } : none;
    if (found && (found.symbol !== currency.symbol || found.position !== currency.position)) return none;
    found = currency;
  }
  return found ?? none;
}

export function costDetails(values: readonly string[], symbol: string, position: CurrencyPosition): CostDetails {
  const { numbers, words } = costValues(values);
  return {
    currency_symbol: symbol,
    currency_code: '',
    currency_position: position,
    values: [...numbers.map((number) => number.text), ...words],
  };
}

/** The `cost` string: `min – max` of the numbers, 0 written as `freeWord`. */
export function formatCost(
  values: readonly string[],
  symbol: string,
  position: CurrencyPosition,
  freeWord: string,
): string {
  if (values.length === 0) return '';
  const { numbers } = costValues(values);
  if (numbers.length === 0) return values.join(', ');
  const format = ({ text, amount }: CostNumber): string => {
    if (amount === 0) return freeWord;
    const currency = symbol === '' ? '$' : symbol;
    return position === 'postfix' ? `${text}${currency}` : `${currency}${text}`;
  };
  const min = format(numbers[0]!);
  const max = format(numbers[numbers.length - 1]!);
  return min === max ? min : `${min} – ${max}`;
}

interface CostNumber {
  text: string;
  amount: number;
}

// Every number of every value, deduplicated by amount and sorted ascending;
// values without a number contribute their slug, after the numbers.
function costValues(values: readonly string[]): { numbers: CostNumber[]; words: string[] } {
  const numbers = new Map<number, CostNumber>();
  const words = new Set<string>();
  for (const value of values) {
    const found = value.match(NUMBER);
    if (!found) {
      const slug = slugify(value);
      if (slug !== '') words.add(slug);
      continue;
    }
    for (const raw of found) {
      const text = normalizeNumber(raw);
      const amount = Number(text);
      if (!numbers.has(amount)) numbers.set(amount, { text, amount });
    }
  }
  return {
    numbers: [...numbers.values()].sort((a, b) => a.amount - b.amount),
    words: [...words].sort(),
  };
}

// One separator is the decimal one (`,` or `.`, spec rule). With several,
// thousands separators are assumed (unverified in the reference): the same
// separator repeated is only grouping (`1,000,000`), and with mixed ones the
// last is the decimal (`1.000,50`, `1,000.50`).
function normalizeNumber(raw: string): string {
  const separators = raw.match(/[.,]/g) ?? [];
  if (separators.length <= 1) return raw.replace(',', '.');
  if (new Set(separators).size === 1) return raw.replace(/[.,]/g, '');
  const decimalAt = Math.max(raw.lastIndexOf('.'), raw.lastIndexOf(','));
  return `${raw.slice(0, decimalAt).replace(/[.,]/g, '')}.${raw.slice(decimalAt + 1)}`;
}
