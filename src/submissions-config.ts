import { ConfigError } from './config.ts';
import { isMailAddress } from './domain/submissions/mail-address.ts';

/** Visitor submissions (120 §2). */
export interface SubmissionSettings {
  /** Who may submit: nobody, signed-in members, or anyone. */
  mode: 'off' | 'members' | 'anyone';
  /** The status a submission is stored with; never published unreviewed. */
  status: 'pending' | 'draft';
  /** Terms the submitter must accept; '' = none. */
  terms: string;
  perHour: number;
  minSeconds: number;
  /** Upper bound N of the ALTCHA counter; 0 = proof of work off. */
  pow: number;
  /** Addresses alerted on each stored submission. */
  notify: string[];
  retentionDays: number;
}

/** The mail outbox (120 §10). */
export interface MailSettings {
  /** null = no mail is queued or sent. */
  smtp: SmtpSettings | null;
  /** `From`: name and address. */
  from: { name: string; address: string } | null;
  retrySchedule: number[];
  pollMs: number;
  timeoutMs: number;
  leaseSeconds: number;
}

export interface SmtpSettings {
  /** TLS from the start (`smtps:`) or STARTTLS (`smtp:`, required unless the host is loopback). */
  secure: boolean;
  host: string;
  port: number;
  user: string | null;
  password: string | null;
  /** Plain SMTP allowed: a loopback host. */
  loopback: boolean;
}

export const MAIL_RETRY_SCHEDULE = [60, 300, 900, 3600, 10_800, 21_600, 43_200, 86_400];

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${env[name]}"`);
  return value;
}

function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[]): T {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return values[0];
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${env[name]}"`);
  return raw as T;
}

function pow(raw: string | undefined): number {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'on') return 10_000;
  if (value === 'off') return 0;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 10 || n > 1_000_000) throw new ConfigError(`CALENDAR_SUBMISSIONS_POW must be off, on or an integer between 10 and 1000000, got "${raw}"`);
  return n;
}

function notify(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const addresses = raw.split(',').map((entry) => entry.trim());
  const bad = addresses.find((address) => !isMailAddress(address));
  if (bad !== undefined) throw new ConfigError(`CALENDAR_SUBMISSIONS_NOTIFY: "${bad}" is not an e-mail address`);
  if (addresses.length > 20) throw new ConfigError('CALENDAR_SUBMISSIONS_NOTIFY lists more than 20 addresses');
  return addresses;
}

const isLoopbackHost = (host: string) => host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]' || host === '::1';

/** `smtp://[user:pass@]host[:port]` or `smtps://…`; credentials never appear in the message. */
export function smtpSettings(raw: string | undefined): SmtpSettings | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError('CALENDAR_SMTP_URL must be smtp://[user:pass@]host[:port] or smtps://…');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('CALENDAR_SMTP_URL must start with smtp:// or smtps://');
  if (url.search !== '' || (url.pathname !== '' && url.pathname !== '/')) throw new ConfigError('CALENDAR_SMTP_URL takes no path or query string');
  if (url.hostname === '') throw new ConfigError('CALENDAR_SMTP_URL names no host');
  const secure = url.protocol === 'smtps:';
  return {
    secure,
    host: url.hostname,
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    user: url.username === '' ? null : decodeURIComponent(url.username),
    password: url.password === '' ? null : decodeURIComponent(url.password),
    loopback: isLoopbackHost(url.hostname),
  };
}

function mailFrom(raw: string | undefined, publicUrl: string | null, siteName: string | null, smtp: SmtpSettings | null): MailSettings['from'] {
  const value = raw?.trim() ?? '';
  if (value === '') {
    if (publicUrl === null) {
      if (smtp !== null) throw new ConfigError('CALENDAR_MAIL_FROM is required when CALENDAR_SMTP_URL is set and CALENDAR_PUBLIC_URL is not');
      return null;
    }
    const host = new URL(publicUrl).hostname;
    return { name: siteName ?? host, address: `noreply@${host}` };
  }
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(value);
  const name = named ? named[1].replace(/^"(.*)"$/, '$1').trim() : '';
  const address = named ? named[2].trim() : value;
  if (!isMailAddress(address) || /[\r\n]/.test(name)) throw new ConfigError(`CALENDAR_MAIL_FROM must be an address or Name <address>, got "${raw}"`);
  return { name, address };
}

function mailRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return MAIL_RETRY_SCHEDULE;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 20 || parts.some((part) => !/^\d+$/.test(part) || Number(part) > 86_400)) {
    throw new ConfigError(`CALENDAR_MAIL_RETRY_SCHEDULE must list 1 to 20 waits in seconds (0 to 86400), separated by commas, got "${raw}"`);
  }
  return parts.map(Number);
}

/** 120 §2: submissions and mail settings; an invalid one stops the start with one line naming it. */
export function loadSubmissionSettings(
  env: NodeJS.ProcessEnv,
  site: { publicUrl: string | null; siteName: string | null; backOffice: boolean },
): { submissions: SubmissionSettings; mail: MailSettings } {
  const mode = choice(env, 'CALENDAR_SUBMISSIONS', ['off', 'members', 'anyone'] as const);
  if (mode !== 'off' && !site.backOffice) throw new ConfigError(`CALENDAR_SUBMISSIONS=${mode} needs the back office (CALENDAR_BACK_OFFICE is off)`);
  const terms = env.CALENDAR_SUBMISSIONS_TERMS?.trim() ?? '';
  if (terms.length > 4000) throw new ConfigError('CALENDAR_SUBMISSIONS_TERMS must be at most 4000 characters');
  const smtp = smtpSettings(env.CALENDAR_SMTP_URL);
  const addresses = notify(env.CALENDAR_SUBMISSIONS_NOTIFY);
  if (addresses.length > 0 && smtp === null) throw new ConfigError('CALENDAR_SUBMISSIONS_NOTIFY needs CALENDAR_SMTP_URL');
  const timeoutMs = integerSetting(env, 'CALENDAR_MAIL_TIMEOUT_MS', 30_000, 1000, 300_000);
  const leaseSeconds = integerSetting(env, 'CALENDAR_MAIL_LEASE_SECONDS', 120, 10, 3600);
  if (leaseSeconds * 1000 <= timeoutMs) throw new ConfigError('CALENDAR_MAIL_LEASE_SECONDS must be longer than CALENDAR_MAIL_TIMEOUT_MS');
  return {
    submissions: {
      mode,
      status: choice(env, 'CALENDAR_SUBMISSIONS_STATUS', ['pending', 'draft'] as const),
      terms,
      perHour: integerSetting(env, 'CALENDAR_SUBMISSIONS_PER_HOUR', 5, 1, 1000),
      minSeconds: integerSetting(env, 'CALENDAR_SUBMISSIONS_MIN_SECONDS', 3, 0, 600),
      pow: pow(env.CALENDAR_SUBMISSIONS_POW),
      notify: addresses,
      retentionDays: integerSetting(env, 'CALENDAR_SUBMISSIONS_RETENTION_DAYS', 90, 1, 3650),
    },
    mail: {
      smtp,
      from: mailFrom(env.CALENDAR_MAIL_FROM, site.publicUrl, site.siteName, smtp),
      retrySchedule: mailRetrySchedule(env.CALENDAR_MAIL_RETRY_SCHEDULE),
      pollMs: integerSetting(env, 'CALENDAR_MAIL_POLL_MS', 1000, 100, 60_000),
      timeoutMs,
      leaseSeconds,
    },
  };
}
