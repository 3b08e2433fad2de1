import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { normalizePassword } from '../../domain/signin/password-policy.ts';

/** 100 §3.1: r, p, key and salt sizes; N = 2^cost comes from CALENDAR_SIGNIN_HASH_COST. */
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const MAX_MEMORY = 256 * 1024 * 1024;
/** Hashes computed at once per process; further sign-ins wait (each one holds 128·r·N bytes). */
const AT_ONCE = 2;

interface Parameters {
  ln: number;
  r: number;
  p: number;
}

/** A counting semaphore: at most AT_ONCE scrypt calls in flight. */
let running = 0;
const waiting: Array<() => void> = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, params: Parameters): Promise<Buffer> {
  return bounded(() => new Promise<Buffer>((resolve, reject) => {
    scrypt(normalizePassword(password), salt, KEY_BYTES, { N: 2 ** params.ln, r: params.r, p: params.p, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key)));
  }));
}

/** `scrypt$ln=17,r=8,p=1$<salt b64>$<key b64>`: the stored form names its parameters. */
export async function hashSigninPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const params = { ln: cost, r: R, p: P };
  const key = await derive(password, salt, params);
  return `scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function parse(stored: string): { params: Parameters; salt: Buffer; key: Buffer } | null {
  const match = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!match) return null;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (params.ln < 1 || params.ln > 30 || params.r < 1 || params.p < 1) return null;
  return { params, salt: Buffer.from(match[4], 'base64'), key: Buffer.from(match[5], 'base64') };
}

/** Whether `password` matches the stored hash (constant-time comparison of the keys). */
export async function verifySigninPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === null) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** A stored hash made with weaker parameters than configured: rewritten at the next sign-in. */
export function needsRehash(stored: string, cost: number): boolean {
  const parsed = parse(stored);
  return parsed === null || parsed.params.ln < cost || parsed.params.r < R || parsed.params.p < P;
}

/**
 * What an unknown login or a user without sign-in password costs: one hash with the configured
 * parameters, so that the answer's timing does not tell whether the login exists.
 */
export async function dummyVerify(password: string, cost: number): Promise<false> {
  await derive(password, DUMMY_SALT, { ln: cost, r: R, p: P });
  return false;
}

const DUMMY_SALT = randomBytes(SALT_BYTES);
