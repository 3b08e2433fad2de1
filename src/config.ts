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
  };
}
