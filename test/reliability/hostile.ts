import fc from 'fast-check';
import qs from 'qs';

/**
 * fast-check arbitraries of hostile request parts: values, parameter lists in every encoding
 * the service accepts (and some it must refuse), bodies and headers.
 */

/** Strings that have broken services before: injections, impossible dates, odd numbers, odd text. */
export const HOSTILE_STRINGS: readonly string[] = [
  "' OR 1=1 --",
  '"; DROP TABLE events; --',
  "1; DELETE FROM objects; --",
  "%' OR '1'='1",
  "') UNION SELECT hash FROM app_passwords --",
  '\\',
  "'",
  '"',
  '`',
  '%',
  '_',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '</script><script>alert(document.cookie)</script>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '2025-02-30',
  '9999-99-99',
  '0000-00-00 00:00:00',
  '2025-13-01 25:61:61',
  '1970-01-01T00:00:00Z',
  '2025-04-12T19:30:00+99:00',
  '-271821-04-19',
  '275760-09-14',
  '@-1',
  'now',
  'tomorrow 9am',
  'next wednesday 4pm',
  '+1000000000 years',
  '-1 week',
  '-1',
  '0',
  '1',
  '1.5',
  ' 7 ',
  '1e309',
  '-1e309',
  '9007199254740993',
  '9007199254740991',
  '2147483648',
  '4294967296',
  '-9999999999999999999999',
  '99999999999999999999999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '\t\v\f',
  '\u202e\u202d',
  '\ufeff',
  '\ud800',
  '\udfff\ud800',
  '🎉🎉',
  'Zürich',
  '日本語のイベント',
  'ﷺ',
  '../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'any',
  'publish',
  'draft',
  'pending',
  'private',
  'future',
  'trash',
  'edit',
  'view',
  'UTC+99',
  'UTC-5:30',
  'Europe/Nowhere',
  'Europe/Rome',
  'http://127.0.0.1:22/x.jpg',
  'https://example.org/image.png?x=<script>',
  'file:///etc/passwd',
  'http://',
  'mailto:a@b',
  'a,b,,c',
  '1,2,3',
  '1 2 3',
];

const MANY_IDS = Array.from({ length: 1_500 }, (_, index) => index + 1);
const LONG_STRINGS = ['x'.repeat(5_000), 'é'.repeat(3_000), '<b>'.repeat(2_000), '1,'.repeat(2_000), '-'.repeat(500), MANY_IDS.join(','), MANY_IDS.map((id) => `w${id}`).join(' ')];

/** A hostile string: a known one, random text of any code points, or a mix of both. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...HOSTILE_STRINGS), { minLength: 2, maxLength: 4 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_STRINGS) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.integer(),
  fc.constantFrom(2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 0.1, -0.5, 5e-324, 1e21),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** JSON values, nested a little, with hostile leaves. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: hostileString },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom(MANY_IDS, MANY_IDS.map(String), MANY_IDS.map((id) => ({ id }))) },
    { weight: 2, arbitrary: tie('object') },
  ),
  object: fc
    .array(fc.tuple(fc.oneof(hostileString, fc.constantFrom('id', 'venue', 'organizer', 'name', '__proto__', 'constructor')), tie('value')), { maxLength: 4 })
    .map((pairs) => new JsonObject(pairs as Array<[string, unknown]>)),
})).value;

/**
 * A JSON object kept as its list of members, so that it can carry duplicate keys and a literal
 * `__proto__` member, which plain objects cannot.
 */
export class JsonObject {
  constructor(readonly members: Array<[string, unknown]>) {}
}

/** A structure nested deeper than any sane client sends (and than recursive code can follow). */
export class DeepNesting {
  constructor(readonly depth: number, readonly kind: 'array' | 'object') {}
}

export function toJsonText(value: unknown): string {
  if (value instanceof JsonObject) {
    return `{${value.members.map(([key, member]) => `${JSON.stringify(key)}:${toJsonText(member)}`).join(',')}}`;
  }
  if (value instanceof DeepNesting) {
    return value.kind === 'array' ? '['.repeat(value.depth) + ']'.repeat(value.depth) : '{"a":'.repeat(value.depth) + '1' + '}'.repeat(value.depth);
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  // Lone surrogates go out as JSON escapes, exactly as a client's JSON.stringify writes them.
  return JSON.stringify(value) ?? 'null';
}

/** Parameter names: the route's own, the framework's global ones and hostile ones. */
export function parameterName(routeArgs: readonly string[]): fc.Arbitrary<string> {
  const globals = ['_fields', '_envelope', '_method', '_embed', '_jsonp', 'context', 'password', 'page', 'per_page', 'status', 'force', 'id', 'slug'];
  const hostile = ['__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'constructor[prototype][polluted]', '', '[]', 'a[b][c][d][e][f][g]', 'é', 'x'.repeat(300)];
  const arbitraries: Array<fc.WeightedArbitrary<string>> = [
    { weight: 2, arbitrary: fc.constantFrom(...globals) },
    { weight: 1, arbitrary: fc.constantFrom(...hostile) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 8 }) },
  ];
  if (routeArgs.length > 0) arbitraries.unshift({ weight: 6, arbitrary: fc.constantFrom(...routeArgs) });
  return fc.oneof(...arbitraries);
}

/** How one name=value pair is written in a query string or form body. */
type PairStyle = 'plain' | 'brackets' | 'indexed' | 'keyed' | 'raw';

export interface EncodedPair {
  name: string;
  value: string;
  style: PairStyle;
}

/** Lone surrogates cannot be written as UTF-8; a client sends U+FFFD instead. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function encode(text: string): string {
  return encodeURIComponent(wellFormed(text));
}

/** Percent-encodes what a URL cannot carry, leaving the rest (`&`, `=`, `[`, `%`) raw. */
function rawish(text: string): string {
  return [...wellFormed(text)].map((ch) => (/[\x21-\x7e]/.test(ch) && ch !== '#' ? ch : encode(ch))).join('');
}

export function encodePairs(pairs: readonly EncodedPair[]): string {
  return pairs
    .map(({ name, value, style }) => {
      switch (style) {
        case 'plain':
          return `${encode(name)}=${encode(value)}`;
        case 'brackets':
          return `${encode(name)}[]=${encode(value)}`;
        case 'indexed':
          return `${encode(name)}[0]=${encode(value)}`;
        case 'keyed':
          return `${encode(name)}[id]=${encode(value)}`;
        case 'raw':
          return `${rawish(name)}=${rawish(value)}`;
      }
    })
    .join('&');
}

export function pairs(routeArgs: readonly string[], maxLength = 6): fc.Arbitrary<EncodedPair[]> {
  const pair = fc.record({
    name: parameterName(routeArgs),
    value: hostileString,
    style: fc.constantFrom<PairStyle>('plain', 'plain', 'plain', 'brackets', 'indexed', 'keyed', 'raw'),
  });
  // Duplicates: the same name twice with different values or encodings.
  return fc
    .array(pair, { maxLength })
    .chain((list) =>
      list.length === 0
        ? fc.constant(list)
        : fc.boolean().chain((duplicate) => (duplicate ? pair.map((extra) => [...list, { ...extra, name: list[0].name }]) : fc.constant(list))),
    );
}

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
let uniqueCounter = 0;
const unique = (prefix: string) => fc.constant(null).map(() => `${prefix}${++uniqueCounter}`);

/**
 * Values a well-behaved client sends for a parameter of that name, so that generated requests
 * get past validation and reach the handlers, where a hostile value in one other field hurts most.
 */
const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  title: fc.constantFrom('Spring Concert', '<b>Bold</b> night', 'Caffè & cake'),
  venue: fc.oneof(unique('Hall '), fc.record({ venue: unique('Inline Hall '), city: fc.constantFrom('Pisa', 'Aarhus') })),
  organizer: fc.oneof(unique('Society '), fc.array(fc.record({ organizer: unique('Inline Society ') }), { maxLength: 2 })),
  name: unique('Term '),
  login: unique('user'),
  role: fc.constantFrom('editor', 'author', 'contributor', 'subscriber'),
  email: fc.constantFrom('a@example.org', ''),
  start_date: fc.constantFrom('2030-04-12 19:30', 'tomorrow 9am', '2031-01-01', '1893456000'),
  end_date: fc.constantFrom('2030-04-12 22:00', '+2 days', '2031-01-02 10:00'),
  date: fc.constantFrom('2025-01-01 10:00', 'yesterday', '2040-01-01'),
  date_utc: fc.constantFrom('2025-01-01T10:00:00Z', 'now'),
  timezone: fc.constantFrom('Europe/Rome', 'UTC', 'UTC+2', 'America/New_York', ''),
  status: fc.constantFrom(...STATUSES),
  all_day: fc.boolean(),
  featured: fc.constantFrom(true, false, '1', '0'),
  sticky: fc.boolean(),
  show_map: fc.constantFrom(true, 'yes', '0'),
  cost: fc.constantFrom('10', '€15', ['5', '20'], 'Free'),
  website: fc.constantFrom('https://example.org', ''),
  image: fc.constantFrom('https://example.org/a.jpg', ''),
  categories: fc.constantFrom(['Music'], 'Music,Theatre'),
  tags: fc.constantFrom(['jazz'], 'jazz,folk'),
  description: fc.constantFrom('Text\n\nMore text', '<p>Hi</p><script>x()</script>'),
  excerpt: fc.constantFrom('Short'),
  slug: fc.constantFrom('a-slug', 'Another Slug'),
  password: fc.constantFrom('sesame', ''),
  page: fc.constantFrom('1', '2', 1),
  per_page: fc.constantFrom('5', '50', '51', 100),
  search: fc.constantFrom('concert', 'hall'),
  force: fc.boolean(),
  context: fc.constantFrom('edit', 'view'),
  hide_empty: fc.constantFrom('0', 'false'),
  order: fc.constantFrom('asc', 'desc'),
  orderby: fc.constantFrom('name', 'count', 'include'),
  strict_dates: fc.constantFrom('true', 'false'),
  starts_after: fc.constantFrom('2020-01-01'),
  ends_before: fc.constantFrom('2035-01-01'),
  address: fc.constantFrom('Via Roma 1'),
  city: fc.constantFrom('Pisa'),
  phone: fc.constantFrom('+39 050 000'),
};

/**
 * A body a real client would send for the route (its arguments with plausible values), with one
 * or two members replaced by hostile JSON.
 */
export function plausibleMembers(routeArgs: readonly string[], required: readonly string[] = []): fc.Arbitrary<Array<[string, unknown]>> {
  if (routeArgs.length === 0) return fc.constant([]);
  const optional = routeArgs.filter((name) => !required.includes(name) && PLAUSIBLE[name] !== undefined);
  const plausible = fc.subarray(optional, { maxLength: Math.min(4, optional.length) }).chain((names) => {
    const chosen = [...required, ...names];
    return chosen.length === 0
      ? fc.constant([] as Array<[string, unknown]>)
      : fc.tuple(...chosen.map((name) => (PLAUSIBLE[name] ?? hostileString).map((value): [string, unknown] => [name, value])));
  });
  const hostile = fc.array(fc.tuple(fc.constantFrom(...routeArgs), hostileJson), { maxLength: 2 });
  return fc.tuple(plausible, hostile).map(([good, bad]) => {
    const badNames = new Set(bad.map(([name]) => name));
    return [...good.filter(([name]) => !badNames.has(name)), ...bad];
  });
}

function plain(value: unknown): unknown {
  if (value instanceof JsonObject) {
    const object: Record<string, unknown> = Object.create(null);
    for (const [key, member] of value.members) Object.defineProperty(object, key, { value: plain(member), enumerable: true, configurable: true, writable: true });
    return object;
  }
  return Array.isArray(value) ? value.map(plain) : value;
}

/** Members written as a PHP-style query string or form body (`a[]=1&a[]=2`, `venue[city]=Pisa`). */
export function formEncode(members: Array<[string, unknown]>): string {
  return qs.stringify(plain(new JsonObject(members)), { encodeValuesOnly: false, allowDots: false, strictNullHandling: false });
}

export interface HostileBody {
  kind: string;
  payload?: string | Buffer;
  contentType?: string;
}

const OVER_LIMIT = Buffer.alloc(1024 * 1024 + 10, 'a');
const DEEP_ARRAY = new DeepNesting(100_000, 'array');
const DEEP_OBJECT = new DeepNesting(20_000, 'object');

function multipart(pairsList: readonly EncodedPair[], boundary: string): string {
  const parts = pairsList.map(
    ({ name, value }) => `--${boundary}\r\ncontent-disposition: form-data; name="${name.replace(/["\r\n]/g, '')}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}--${boundary}--\r\n`;
}

/** Request bodies of every kind the service might receive. */
export function hostileBody(routeArgs: readonly string[]): fc.Arbitrary<HostileBody> {
  const jsonMembers = fc.array(fc.tuple(parameterName(routeArgs), hostileJson), { maxLength: 6 });
  const json = (kind: string, build: fc.Arbitrary<string>, contentType = 'application/json'): fc.Arbitrary<HostileBody> =>
    build.map((payload) => ({ kind, payload, contentType }));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<HostileBody>({ kind: 'none' }) },
    { weight: 6, arbitrary: json('json object', jsonMembers.map((members) => toJsonText(new JsonObject(members)))) },
    { weight: 8, arbitrary: json('plausible json with hostile members', plausibleMembers(routeArgs).map((members) => toJsonText(new JsonObject(members)))) },
    { weight: 1, arbitrary: json('json non-object', hostileJson.filter((value) => !(value instanceof JsonObject)).map(toJsonText)) },
    {
      weight: 1,
      arbitrary: json(
        'json deeply nested',
        fc.tuple(parameterName(routeArgs), fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT)).map(([name, deep]) => toJsonText(new JsonObject([[name, deep]]))),
      ),
    },
    {
      weight: 2,
      arbitrary: json(
        'json broken',
        fc.oneof(
          jsonMembers.map((members) => toJsonText(new JsonObject(members)).slice(0, -1)),
          fc.constantFrom('{"a":}', "{'title':'x'}", '{"a":1,}', '\ufeff{"a":1}', '{"a":"\u0000"', 'nul', '[', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}'),
        ),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<HostileBody>(
        { kind: 'over the body limit', payload: OVER_LIMIT, contentType: 'application/json' },
        { kind: 'over the body limit (form)', payload: OVER_LIMIT, contentType: 'application/x-www-form-urlencoded' },
      ),
    },
    { weight: 3, arbitrary: pairs(routeArgs).map((list) => ({ kind: 'form', payload: encodePairs(list), contentType: 'application/x-www-form-urlencoded' })) },
    {
      weight: 2,
      arbitrary: fc.tuple(pairs(routeArgs), fc.boolean()).map(([list, good]) => ({
        kind: good ? 'multipart' : 'multipart with the wrong boundary',
        payload: multipart(list, 'XyZ'),
        contentType: `multipart/form-data; boundary=${good ? 'XyZ' : 'other'}`,
      })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constantFrom('text/plain', 'application/xml', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/octet-stream', ';;;', 'application/json, text/html'),
        fc.oneof(hostileString, jsonMembers.map((members) => toJsonText(new JsonObject(members)))),
      ).map(([contentType, payload]) => ({ kind: 'mismatched content type', payload, contentType })),
    },
  );
}

/** Extra headers: method overrides, languages, origins, forwarded addresses, odd credentials. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constant('x-http-method-override'), fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'delete', 'x')),
      fc.tuple(fc.constant('accept-language'), fc.constantFrom('da', 'it-IT,it;q=0.9', '*', 'xx', ';;')),
      fc.tuple(fc.constant('origin'), fc.constantFrom('https://evil.example', 'null', 'http://calendar.test')),
      fc.tuple(fc.constant('x-forwarded-for'), fc.constantFrom('1.2.3.4', 'not-an-ip', '::1, 10.0.0.1')),
      fc.tuple(fc.constant('accept'), fc.constantFrom('text/html', 'application/xml', '*/*')),
      fc.tuple(
        fc.constant('authorization'),
        fc.constantFrom('Basic', 'Basic !!!', `Basic ${Buffer.from('nobody').toString('base64')}`, `Basic ${Buffer.from(':x').toString('base64')}`, 'Bearer', 'Bearer x', 'Digest x', 'Basic ' + 'A'.repeat(5000)),
      ),
    ),
    { maxLength: 2 },
  )
  .map((entries) => Object.fromEntries(entries));
