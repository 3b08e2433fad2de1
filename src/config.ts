export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Prefix before `/calendar/events/v1`, without trailing slash ('' or '/something'). */
  basePath: string;
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
  /** Requests per minute per client address; 0 = no limit. */
  rateLimitPerMinute: number;
  /** Failed authentications allowed per client address and per login in `authFailureWindowSeconds`. */
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  /** Longest time a client may take to send a whole request, in milliseconds. */
  requestTimeoutMs: number;
  /** Trust X-Forwarded-For for the client address (behind a load balancer). */
  trustProxy: boolean;
}

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

function normalizeBasePath(raw: string | undefined): string {
  if (!raw) return '';
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
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
  if (raw.trim() === '' || raw.trim() === 'none') return [];
  return raw.split(',').map((origin) => {
    const trimmed = origin.trim();
    try {
      return new URL(trimmed).origin;
    } catch {
      throw new ConfigError(`CALENDAR_CORS_ORIGINS must list origins like https://app.example.org, got "${trimmed}"`);
    }
  });
}

function logFormat(raw: string | undefined): 'json' | 'pretty' | null {
  if (raw === undefined || raw.trim() === '') return null;
  const format = raw.trim().toLowerCase();
  if (format === 'json' || format === 'pretty') return format;
  throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/calendar.db',
    basePath: normalizeBasePath(env.CALENDAR_BASE_PATH),
    publicUrl: normalizePublicUrl(env.CALENDAR_PUBLIC_URL),
    timezone: timeZone(env.CALENDAR_TIMEZONE),
    adminLogin: env.CALENDAR_ADMIN_LOGIN || 'admin',
    adminPassword: env.CALENDAR_ADMIN_PASSWORD || null,
    bodyLimit: integer(env, 'CALENDAR_BODY_LIMIT', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormat(env.LOG_FORMAT),
    corsOrigins: corsOrigins(env.CALENDAR_CORS_ORIGINS),
    rateLimitPerMinute: integer(env, 'CALENDAR_RATE_LIMIT', 0, 0, 1_000_000),
    authFailureLimit: integer(env, 'CALENDAR_AUTH_FAILURE_LIMIT', 10, 1, 1_000_000),
    authFailureWindowSeconds: integer(env, 'CALENDAR_AUTH_FAILURE_WINDOW', 900, 1, 86_400),
    requestTimeoutMs: integer(env, 'CALENDAR_REQUEST_TIMEOUT', 30_000, 1_000, 3_600_000),
    trustProxy: env.CALENDAR_TRUST_PROXY === 'true' || env.CALENDAR_TRUST_PROXY === '1',
  };
}
