import { availableParallelism } from 'node:os';
import { MAX_RADIUS, parseDecimal, parseUnit, type DistanceUnit } from './domain/geo/geo.ts';
import { ADMIN_NAMESPACE, NAMESPACE } from './render/urls.ts';
import type { SessionLimits } from './storage/database.ts';
import { passwordProblem } from './domain/signin/password-policy.ts';
import { translate } from './i18n/catalog.ts';
import { readCustomCss, readLogo, type LogoFile } from './web/theme/brand-files.ts';
import { accentProblem, DEFAULT_ACCENT } from './web/theme/colours.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Prefix before `/calendar/events/v1`, without trailing slash ('' or '/something'). */
  basePath: string;
  /** Prefix of every REST namespace and of the REST index (140 §1.1); defaults to `basePath`. */
  apiPath: string;
  /** Further namespaces the events routes answer under (90 §1), e.g. `tribe/events/v1`. */
  namespaceAliases: string[];
  /** Origin used in absolute links; null = derived from each request. */
  publicUrl: string | null;
  /** Site time zone (IANA name). */
  timezone: string;
  adminLogin: string;
  adminPassword: string | null;
  bodyLimit: number;
  logLevel: string;
  /** Log lines for people (`pretty`) or machines (`json`); null = pretty on a terminal, else JSON. */
  logFormat: 'json' | 'pretty' | null;
  /** Origins allowed by CORS: '*' reflects any origin (the reference's behaviour), [] turns CORS off. */
  corsOrigins: '*' | string[];
  /** Who may frame `/embed/…` (130 §10.1): any site, or these origins besides the service's own. */
  embedOrigins: '*' | string[];
  /** Requests per minute per client address; 0 = no limit. */
  rateLimitPerMinute: number;
  /** Failed authentications allowed per client address and per login in `authFailureWindowSeconds`. */
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  /** Longest time a client may take to send a whole request, in milliseconds. */
  requestTimeoutMs: number;
  /** Trust X-Forwarded-For for the client address (behind a load balancer). */
  trustProxy: boolean;
  /** 80 §1.3: writes to existing records without If-Match are refused (428). */
  requireIfMatch: boolean;
  /** 80 §3.8: days of change-feed history kept. */
  changesRetentionDays: number;
  /** The site's name in page titles, feeds and iCalendar files; null = the host of the public origin (50 B.7). */
  siteName: string | null;
  /** Largest iCalendar file an import reads (50 C.9). */
  importMaxBytes: number;
  /** Most VEVENTs one imported file may hold. */
  importMaxEvents: number;
  /** Origins an import may fetch a URL from; empty = URL imports refused. */
  importUrlAllowlist: string[];
  /** The public calendar pages (55 §1). */
  calendar: CalendarSettings;
  /** The organisation's colour, logo and stylesheet on every page. */
  brand: BrandSettings;
  /** Recurring events (60 §4.1): occurrences exist up to now + this many months + 7 days, at most this many per series. */
  recurrence: { horizonMonths: number; maxOccurrences: number };
  /** Default radius of a location search, in `distanceUnit` (70-geo §5). */
  geofenceRadius: number;
  /** Default unit of location search radii and distances. */
  distanceUnit: DistanceUnit;
  /** Webhook subscriptions and their delivery (80 §4, §5). */
  webhooks: WebhookSettings;
  /** 140 §4: the Prometheus endpoint, and the Bearer token it asks for (null = loopback clients only). */
  metrics: { enabled: boolean; token: string | null };
  /** 140 §5: how long a stop waits for requests in flight. */
  shutdownGraceMs: number;
  /** 140 §6: processes serving the port (1 = no cluster). */
  workers: number;
  /** Uploaded images (110-media §10). */
  media: MediaSettings;
  /** Limits on the service's PostgreSQL sessions (docs/postgres-limits.md); ignored on SQLite. */
  postgresLimits: SessionLimits;
  /** Backups (140 §3). */
  backup: BackupSettings;
  /** The back office (100 §15). */
  backOffice: BackOfficeSettings;
}

export interface BackOfficeSettings {
  /** `CALENDAR_BACK_OFFICE`: off → `/admin/…` answers 404 and REST cookie authentication (100 §6.2) is off. */
  enabled: boolean;
  /** The first administrator's sign-in password (first start only); null = generated and printed. */
  adminSigninPassword: string | null;
  /** A session without "keep me signed in" ends after this many hours without a request. */
  sessionIdleHours: number;
  /** A "keep me signed in" session ends this many days after sign-in. */
  sessionRememberDays: number;
  /** log2 of scrypt's N for sign-in passwords. */
  signinHashCost: number;
}

export interface BackupSettings {
  /** Where backups with default names go. */
  dir: string;
  /** Scheduled SQLite backups: the local time of the daily run, or null = off. */
  schedule: { hour: number; minute: number } | null;
  /** Newest backups a scheduled run keeps. */
  keep: number;
  /** 110's `directory` uploads, copied beside a backup; null when uploads live in the database. */
  uploadsDir: string | null;
}

export interface MediaSettings {
  /** Where files live: a directory, or the database (several instances without a shared disk). */
  uploads: 'directory' | 'database';
  uploadsDir: string;
  maxBytes: number;
  /** width × height × frames above which an upload is refused before decoding. */
  maxPixels: number;
  /** Images decoded and encoded at once per process. */
  concurrency: number;
  /** Fetch and process image URLs given as a record's `image` (§7.2). */
  sideload: boolean;
}

export interface WebhookSettings {
  /** Allow `http` URLs and private, loopback and link-local targets (tests, intranets). */
  allowInsecure: boolean;
  /** Most subscriptions. */
  max: number;
  /** Days attempt rows are kept. */
  logDays: number;
  /** AES-256-GCM key that encrypts stored signing secrets; null = stored as generated. */
  secretKey: Buffer | null;
  /** How long a claimed message belongs to the instance sending it. */
  leaseSeconds: number;
  /** Whole-request limit of one send. */
  timeoutMs: number;
  /** Waits (seconds) after failed attempts 1, 2, …; a message fails for good after one attempt more than listed. */
  retrySchedule: number[];
  /** How often each instance looks for changes to fan out and messages that are due. */
  pollMs: number;
}

/** 80 §4.4: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h — 9 attempts over about 45 h. */
export const WEBHOOK_RETRY_SCHEDULE = [10, 60, 300, 1800, 7200, 21_600, 43_200, 86_400];

/** The views this service renders (55, 130), in the view selector's order. */
export const CALENDAR_VIEWS = ['list', 'month', 'day', 'week', 'photo', 'summary'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

export interface CalendarSettings {
  defaultView: CalendarView;
  /** The enabled views, in the selector's order; `list` always among them. */
  views: CalendarView[];
  listPerPage: number;
  monthEventsPerDay: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekStart: number;
  /** Items of an RSS feed (130 §8.1). */
  feedItems: number;
  /** `<url>` entries per sitemap file (130 §9). */
  sitemapMaxUrls: number;
}
export interface BrandSettings {
  /** `#rrggbb`, lower case, readable on the light background. */
  accentColor: string;
  logo: LogoFile | null;
  /** The operator's stylesheet, linked after ours. */
  customCss: Buffer | null;
}

/** Recurring events (60 §4.1) when nothing is configured. */
export const RECURRENCE_DEFAULTS = { horizonMonths: 24, maxOccurrences: 1000 } as const;

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

const PATH_FORM = /^(\/[A-Za-z0-9._~-]+)*$/;

/** 140 §1.1: empty or `/segment[/segment…]`; one trailing `/` dropped, a missing leading one added. */
function normalizePath(name: string, raw: string | undefined): string {
  if (!raw) return '';
  const trimmed = raw.trim().replace(/\/$/, '');
  const path = trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  if (!PATH_FORM.test(path)) throw new ConfigError(`${name} must be empty or /segment[/segment…] with letters, digits and . _ ~ -, got "${raw}"`);
  return path;
}

/** First path segments the site itself answers under `{base}` (140 §1.1, 130 §3). */
const SITE_SEGMENTS = new Set([
  'events', 'event', 'venue', 'organizer', 'tag', 'embed', 'admin', 'uploads', 'assets', 'docs', 'da', 'it', 'es',
  'healthz', 'readyz', 'metrics', 'index.php', 'robots.txt', 'sitemap.xml', 'sitemaps', 'wp-sitemap.xml',
]);
/** Page prefixes an alias may not start with: its routes would shadow the pages' redirects. */
const PAGE_SEGMENTS = ['events', 'event', 'venue', 'organizer', 'tag'];

const isBelow = (path: string, prefix: string) => path.startsWith(`${prefix}/`);

/** 140 §1.1: the REST prefix, refused when it and the site's prefix would answer for the same addresses. */
function apiPath(raw: string | undefined, basePath: string, aliases: readonly string[]): string {
  const api = raw === undefined || raw.trim() === '' ? basePath : normalizePath('CALENDAR_API_PATH', raw);
  for (const alias of aliases) {
    if (PAGE_SEGMENTS.includes(alias.split('/')[0]!)) throw new ConfigError(`CALENDAR_NAMESPACE_ALIASES: "${alias}" starts like a page address (${PAGE_SEGMENTS.join(', ')})`);
  }
  if (api === basePath) return api;
  const conflict = (why: string) => new ConfigError(`CALENDAR_API_PATH "${api}" and CALENDAR_BASE_PATH "${basePath}" conflict: ${why}`);
  if (basePath !== '' && api !== '' && isBelow(basePath, api)) throw conflict('the site may not lie below the REST prefix');
  if (api !== '' && (basePath === '' || isBelow(api, basePath))) {
    const first = api.slice(basePath.length).split('/')[1];
    if (first !== undefined && SITE_SEGMENTS.has(first)) throw conflict(`"${first}" is an address of the site`);
  }
  return api;
}

const ALIAS_FORM = /^[a-z0-9-]+\/[a-z0-9-]+\/v[0-9]+$/;

/** 90 §1: a malformed, reserved or repeated entry stops the start with a line naming it. */
function namespaceAliases(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const aliases: string[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    const problem = !ALIAS_FORM.test(entry)
      ? 'is not of the form vendor/name/vN (lower-case letters, digits and hyphens)'
      : entry === NAMESPACE || entry === ADMIN_NAMESPACE
        ? 'is a namespace of the service itself'
        : aliases.includes(entry)
          ? 'is listed twice'
          : null;
    if (problem) throw new ConfigError(`CALENDAR_NAMESPACE_ALIASES: "${entry}" ${problem}`);
    aliases.push(entry);
  }
  return aliases;
}

function normalizePublicUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`CALENDAR_PUBLIC_URL must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('CALENDAR_PUBLIC_URL must use http or https');
  }
  return url.origin;
}

function timeZone(raw: string | undefined): string {
  const zone = raw && raw.trim() !== '' ? raw.trim() : 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new ConfigError(`CALENDAR_TIMEZONE must be an IANA time zone name, got "${zone}"`);
  }
  return zone;
}

function corsOrigins(raw: string | undefined): '*' | string[] {
  if (raw === undefined || raw.trim() === '*') return '*';
  return originList({ CALENDAR_CORS_ORIGINS: raw }, 'CALENDAR_CORS_ORIGINS');
}

/** A comma list of origins (`https://app.example.org`); empty or `none` = no origin. */
function originList(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = env[name] ?? '';
  if (raw.trim() === '' || raw.trim() === 'none') return [];
  return raw.split(',').map((origin) => {
    const trimmed = origin.trim();
    try {
      return new URL(trimmed).origin;
    } catch {
      throw new ConfigError(`${name} must list origins like https://app.example.org, got "${trimmed}"`);
    }
  });
}

/** `*`, `none`, or origins without a path (130 §2). */
function embedOrigins(raw: string | undefined): '*' | string[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return '*';
  if (raw.trim() === 'none') return [];
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== origin.replace(/\/$/, '')) {
      throw new ConfigError(`CALENDAR_EMBED_ORIGINS must be *, none or origins like https://news.example.org (no path), got "${origin}"`);
    }
    return parsed.origin;
  });
}

function logFormat(raw: string | undefined): 'json' | 'pretty' | null {
  if (raw === undefined || raw.trim() === '') return null;
  const format = raw.trim().toLowerCase();
  if (format === 'json' || format === 'pretty') return format;
  throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
}

const isCalendarView = (value: string): value is CalendarView => (CALENDAR_VIEWS as readonly string[]).includes(value);

/** CALENDAR_VIEWS (130 §2): a comma list without duplicates that names `list`, which archives fall back on. */
function calendarViews(raw: string | undefined): CalendarView[] {
  if (raw === undefined || raw.trim() === '') return [...CALENDAR_VIEWS];
  const named = raw.split(',').map((view) => view.trim());
  const problem = named.find((view) => !isCalendarView(view)) !== undefined
    ? `may name only ${CALENDAR_VIEWS.join(', ')}`
    : new Set(named).size !== named.length
      ? 'must not name a view twice'
      : !named.includes('list')
        ? 'must include list'
        : undefined;
  if (problem !== undefined) throw new ConfigError(`CALENDAR_VIEWS ${problem}, got "${raw}"`);
  return CALENDAR_VIEWS.filter((view) => named.includes(view));
}

/** CALENDAR_DEFAULT_VIEW: one of the enabled views; unset, month, else list. */
function calendarView(raw: string | undefined, views: readonly CalendarView[]): CalendarView {
  if (raw === undefined || raw.trim() === '') return views.includes('month') ? 'month' : 'list';
  const value = raw.trim();
  if (!isCalendarView(value)) throw new ConfigError(`CALENDAR_DEFAULT_VIEW must be one of ${CALENDAR_VIEWS.join(', ')}, got "${raw}"`);
  if (!views.includes(value)) throw new ConfigError(`CALENDAR_DEFAULT_VIEW "${value}" is not in CALENDAR_VIEWS`);
  return value;
}

function distanceUnit(raw: string | undefined): DistanceUnit {
  if (raw === undefined || raw === '') return 'mi';
  const unit = parseUnit(raw.trim());
  if (unit === undefined) throw new ConfigError(`CALENDAR_DISTANCE_UNIT must be miles or kms, got "${raw}"`);
  return unit;
}

function geofenceRadius(raw: string | undefined, unit: DistanceUnit): number {
  if (raw === undefined || raw === '') return 25;
  const value = parseDecimal(raw.trim());
  if (value === undefined || value <= 0 || value > MAX_RADIUS[unit]) {
    throw new ConfigError(`CALENDAR_GEOFENCE_RADIUS must be a number greater than 0 and at most ${MAX_RADIUS[unit]} (${unit}), got "${raw}"`);
  }
  return value;
}

function uploadsBackend(raw: string | undefined): MediaSettings['uploads'] {
  const value = raw || 'directory';
  if (value !== 'directory' && value !== 'database') throw new ConfigError(`CALENDAR_UPLOADS must be directory or database, not ${JSON.stringify(raw)}`);
  return value;
}

function flag(raw: string | undefined): boolean {
  return raw === 'true' || raw === '1';
}

function secretKey(raw: string | undefined): Buffer | null {
  if (raw === undefined || raw.trim() === '') return null;
  const key = Buffer.from(raw.trim(), 'base64');
  if (key.length !== 32) throw new ConfigError('CALENDAR_SECRET_KEY must be 32 bytes written in base64 (openssl rand -base64 32)');
  return key;
}

function retrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return WEBHOOK_RETRY_SCHEDULE;
  const waits = raw.split(',').map((part) => Number(part.trim()));
  if (waits.length > 20 || waits.some((wait) => !Number.isFinite(wait) || wait < 0 || wait > 86_400)) {
    throw new ConfigError(`CALENDAR_WEBHOOKS_RETRY_SCHEDULE must list at most 20 waits in seconds (0 to 86400), separated by commas, got "${raw}"`);
  }
  return waits;
}

function onOff(name: string, raw: string | undefined): boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'off' || value === '0' || value === 'false') return false;
  if (value === 'on' || value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

function metricsToken(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError('CALENDAR_METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces');
  return raw;
}

function workers(raw: string | undefined, databaseUrl: string, availableParallelism: () => number): number {
  const value = raw === undefined || raw.trim() === '' ? '1' : raw.trim();
  const count = value === 'auto' ? Math.min(64, availableParallelism()) : Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new ConfigError(`CALENDAR_WORKERS must be an integer between 1 and 64 or auto, got "${raw}"`);
  if (count > 1 && databaseUrl === 'sqlite::memory:') throw new ConfigError('CALENDAR_WORKERS: an in-memory SQLite database cannot be shared by several workers');
  return count;
}

function accentColor(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_ACCENT;
  const problem = accentProblem(raw.trim());
  if (problem !== null) throw new ConfigError(`CALENDAR_ACCENT_COLOR ${problem}`);
  return raw.trim().toLowerCase();
}

/** A file setting: read at start, so a missing or unusable file stops it there. */
function brandFile<T>(env: NodeJS.ProcessEnv, name: string, read: (path: string) => T | string): T | null {
  const path = env[name]?.trim();
  if (!path) return null;
  const file = read(path);
  if (typeof file === 'string') throw new ConfigError(`${name} ${file}`);
  return file;
}

/** `off` or a daily `HH:MM` (140 §3.5); PostgreSQL has no scheduled backups. */
function backupSchedule(raw: string | undefined, databaseUrl: string): BackupSettings['schedule'] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'off') return null;
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new ConfigError(`CALENDAR_BACKUP_SCHEDULE must be off or HH:MM, got "${raw}"`);
  if (!databaseUrl.startsWith('sqlite:')) throw new ConfigError('CALENDAR_BACKUP_SCHEDULE: use pg_dump from cron');
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const basePath = normalizePath('CALENDAR_BASE_PATH', env.CALENDAR_BASE_PATH);
  const aliases = namespaceAliases(env.CALENDAR_NAMESPACE_ALIASES);
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/calendar.db';
  const media: MediaSettings = {
    uploads: uploadsBackend(env.CALENDAR_UPLOADS),
    uploadsDir: env.CALENDAR_UPLOADS_DIR || './data/uploads',
    maxBytes: integer(env, 'CALENDAR_UPLOAD_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    maxPixels: integer(env, 'CALENDAR_UPLOAD_MAX_PIXELS', 50_000_000, 1_000_000, 268_402_689),
    concurrency: integer(env, 'CALENDAR_UPLOAD_CONCURRENCY', 2, 1, 16),
    sideload: flag(env.CALENDAR_IMAGE_SIDELOAD),
  };
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    basePath,
    apiPath: apiPath(env.CALENDAR_API_PATH, basePath, aliases),
    namespaceAliases: aliases,
    publicUrl: normalizePublicUrl(env.CALENDAR_PUBLIC_URL),
    timezone: timeZone(env.CALENDAR_TIMEZONE),
    adminLogin: env.CALENDAR_ADMIN_LOGIN || 'admin',
    adminPassword: env.CALENDAR_ADMIN_PASSWORD || null,
    bodyLimit: integer(env, 'CALENDAR_BODY_LIMIT', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormat(env.LOG_FORMAT),
    corsOrigins: corsOrigins(env.CALENDAR_CORS_ORIGINS),
    embedOrigins: embedOrigins(env.CALENDAR_EMBED_ORIGINS),
    rateLimitPerMinute: integer(env, 'CALENDAR_RATE_LIMIT', 0, 0, 1_000_000),
    authFailureLimit: integer(env, 'CALENDAR_AUTH_FAILURE_LIMIT', 10, 1, 1_000_000),
    authFailureWindowSeconds: integer(env, 'CALENDAR_AUTH_FAILURE_WINDOW', 900, 1, 86_400),
    requestTimeoutMs: integer(env, 'CALENDAR_REQUEST_TIMEOUT', 30_000, 1_000, 3_600_000),
    trustProxy: flag(env.CALENDAR_TRUST_PROXY),
    requireIfMatch: flag(env.CALENDAR_REQUIRE_IF_MATCH),
    changesRetentionDays: integer(env, 'CALENDAR_CHANGES_RETENTION_DAYS', 30, 1, 36_500),
    siteName: env.CALENDAR_SITE_NAME?.trim() || null,
    importMaxBytes: integer(env, 'CALENDAR_IMPORT_MAX_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    importMaxEvents: integer(env, 'CALENDAR_IMPORT_MAX_EVENTS', 5000, 1, 1_000_000),
    importUrlAllowlist: originList(env, 'CALENDAR_IMPORT_URL_ALLOWLIST'),
    calendar: {
      defaultView: calendarView(env.CALENDAR_DEFAULT_VIEW, calendarViews(env.CALENDAR_VIEWS)),
      views: calendarViews(env.CALENDAR_VIEWS),
      listPerPage: integer(env, 'CALENDAR_LIST_PER_PAGE', 12, 1, 50),
      monthEventsPerDay: integer(env, 'CALENDAR_MONTH_EVENTS_PER_DAY', 3, 1, 1000),
      weekStart: integer(env, 'CALENDAR_WEEK_START', 1, 0, 6),
      feedItems: integer(env, 'CALENDAR_FEED_ITEMS', 20, 1, 100),
      sitemapMaxUrls: integer(env, 'CALENDAR_SITEMAP_MAX_URLS', 50_000, 4, 50_000),
    },
    brand: {
      accentColor: accentColor(env.CALENDAR_ACCENT_COLOR),
      logo: brandFile(env, 'CALENDAR_LOGO_FILE', readLogo),
      customCss: brandFile(env, 'CALENDAR_CUSTOM_CSS', readCustomCss),
    },
    recurrence: {
      horizonMonths: integer(env, 'CALENDAR_RECURRENCE_HORIZON_MONTHS', RECURRENCE_DEFAULTS.horizonMonths, 1, 240),
      maxOccurrences: integer(env, 'CALENDAR_RECURRENCE_MAX_OCCURRENCES', RECURRENCE_DEFAULTS.maxOccurrences, 1, 10_000),
    },
    distanceUnit: distanceUnit(env.CALENDAR_DISTANCE_UNIT),
    geofenceRadius: geofenceRadius(env.CALENDAR_GEOFENCE_RADIUS, distanceUnit(env.CALENDAR_DISTANCE_UNIT)),
    postgresLimits: {
      statementTimeoutMs: integer(env, 'CALENDAR_POSTGRES_STATEMENT_TIMEOUT_MS', 60_000, 0, 86_400_000),
      idleInTransactionTimeoutMs: integer(env, 'CALENDAR_POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT_MS', 30_000, 0, 86_400_000),
    },
    webhooks: {
      allowInsecure: flag(env.CALENDAR_WEBHOOKS_ALLOW_INSECURE),
      max: integer(env, 'CALENDAR_WEBHOOKS_MAX', 50, 0, 10_000),
      logDays: integer(env, 'CALENDAR_WEBHOOKS_LOG_DAYS', 30, 1, 3650),
      secretKey: secretKey(env.CALENDAR_SECRET_KEY),
      leaseSeconds: integer(env, 'CALENDAR_WEBHOOKS_LEASE_SECONDS', 60, 1, 3600),
      timeoutMs: integer(env, 'CALENDAR_WEBHOOKS_TIMEOUT_MS', 10_000, 100, 300_000),
      retrySchedule: retrySchedule(env.CALENDAR_WEBHOOKS_RETRY_SCHEDULE),
      pollMs: integer(env, 'CALENDAR_WEBHOOKS_POLL_MS', 1000, 10, 60_000),
    },
    metrics: { enabled: onOff('CALENDAR_METRICS', env.CALENDAR_METRICS), token: metricsToken(env.CALENDAR_METRICS_TOKEN) },
    shutdownGraceMs: integer(env, 'CALENDAR_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    workers: workers(env.CALENDAR_WORKERS, databaseUrl, availableParallelism),
    media,
    backup: {
      dir: env.CALENDAR_BACKUP_DIR?.trim() || './data/backups/',
      schedule: backupSchedule(env.CALENDAR_BACKUP_SCHEDULE, databaseUrl),
      keep: integer(env, 'CALENDAR_BACKUP_KEEP', 14, 1, 1000),
      uploadsDir: media.uploads === 'database' ? null : media.uploadsDir,
    },
    backOffice: {
      enabled: onOffDefaultOn('CALENDAR_BACK_OFFICE', env.CALENDAR_BACK_OFFICE),
      adminSigninPassword: adminSigninPassword(env.CALENDAR_ADMIN_SIGNIN_PASSWORD, env.CALENDAR_ADMIN_LOGIN || 'admin'),
      sessionIdleHours: integer(env, 'CALENDAR_SESSION_IDLE_HOURS', 12, 1, 48),
      sessionRememberDays: integer(env, 'CALENDAR_SESSION_REMEMBER_DAYS', 14, 1, 365),
      signinHashCost: integer(env, 'CALENDAR_SIGNIN_HASH_COST', 17, 14, 20),
    },
  };
}

/** 100 §3.2: the first administrator's sign-in password, under 100 §3.1's policy. */
function adminSigninPassword(raw: string | undefined, login: string): string | null {
  if (raw === undefined || raw === '') return null;
  const problem = passwordProblem(raw, { login, email: '' });
  if (problem) throw new ConfigError(`CALENDAR_ADMIN_SIGNIN_PASSWORD ${translate('en', problem.messageKey, problem.vars)}`);
  return raw;
}

/** An on/off setting that is on unless said otherwise. */
function onOffDefaultOn(name: string, raw: string | undefined): boolean {
  return raw === undefined || raw.trim() === '' ? true : onOff(name, raw);
}
