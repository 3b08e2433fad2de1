import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** The run cannot start (90 §2.4: exit code 2): unreachable, no API, refused credentials. */
export class SourceUnusableError extends Error {}

/**
 * One request failed (90 §2.3: after the retries, the page is reported and the run goes on).
 * `network`: no answer (retried); `refused`: a rule of the client said no (never retried, and
 * fatal during discovery); `answer`: the source answered, with something unusable.
 */
export class SourceRequestError extends Error {
  constructor(
    readonly url: string,
    message: string,
    readonly reason: 'network' | 'refused' | 'answer',
  ) {
    super(message);
  }
}

export interface SourceOptions {
  user?: string;
  password?: string;
  allowPrivate: boolean;
  /** Requests per second. */
  rate: number;
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const MAX_IN_FLIGHT = 4;
const RETRIES = 3;
const TIMEOUT_MS = 30_000;
const NAMESPACES = ['tribe/events/v1', 'calendar/events/v1'];

/** Loopback, private and link-local ranges (IPv4 and IPv6): refused unless `--allow-private`. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::1', 128], ['::', 128], ['fc00::', 7], ['fe80::', 10]] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

interface RawResponse {
  url: string;
  status: number;
  text: string;
  headers: Headers;
}

/** A JSON answer of the source. */
export interface SourceResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * The HTTP side of an import: only http(s), redirects followed at most 5 times, bodies over
 * 20 MB refused, private targets refused unless allowed, HTTP Basic on every request, at most 4
 * requests in flight and `rate` starts per second, network errors and 5xx retried 3 times.
 */
export class SourceClient {
  private readonly authorization: string | undefined;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStart = 0;
  /** Hosts already checked against the private ranges. */
  private readonly checkedHosts = new Map<string, Promise<void>>();

  constructor(private readonly options: SourceOptions) {
    if (options.user !== undefined) {
      this.authorization = `Basic ${Buffer.from(`${options.user}:${options.password ?? ''}`).toString('base64')}`;
    }
  }

  get authenticated(): boolean {
    return this.authorization !== undefined;
  }

  /** GET a JSON document, with retries; a 4xx answer is returned to the caller, not retried. */
  async getJson(url: string): Promise<SourceResponse> {
    const raw = await this.get(url);
    try {
      return { status: raw.status, body: JSON.parse(raw.text), headers: raw.headers };
    } catch {
      const kind = (raw.headers.get('content-type') ?? 'unknown type').split(';')[0];
      throw new SourceRequestError(url, `the answer of ${raw.url} is not JSON (${raw.status}, ${kind})`, 'answer');
    }
  }

  /** GET anything, with retries. */
  async get(url: string): Promise<RawResponse> {
    let lastError: SourceRequestError | undefined;
    for (let attempt = 0; attempt <= RETRIES; attempt++) {
      if (attempt > 0) await delay(250 * 2 ** (attempt - 1));
      try {
        const response = await this.throttled(() => this.fetchFollowing(url));
        if (response.status >= 500) {
          lastError = new SourceRequestError(url, `the source answered ${response.status}`, 'answer');
          continue;
        }
        return response;
      } catch (error) {
        // Only failures to get an answer are worth another try.
        if (!(error instanceof SourceRequestError) || error.reason !== 'network') throw error;
        lastError = error;
      }
    }
    throw lastError!;
  }

  private async throttled<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      const now = Date.now();
      const start = Math.max(now, this.nextStart);
      this.nextStart = start + 1000 / this.options.rate;
      if (start > now) await delay(start - now);
      return await work();
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  private async fetchFollowing(startUrl: string): Promise<RawResponse> {
    let url = startUrl;
    for (let hop = 0; ; hop++) {
      const target = await this.checkTarget(url);
      let response: Response;
      try {
        response = await fetch(target, {
          redirect: 'manual',
          headers: { accept: 'application/json', ...(this.authorization ? { authorization: this.authorization } : {}) },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
        throw new SourceRequestError(url, `cannot reach ${target.origin}: ${cause}`, 'network');
      }
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new SourceRequestError(url, `refused: more than ${MAX_REDIRECTS} redirects from ${startUrl}`, 'refused');
        url = new URL(response.headers.get('location')!, target).href;
        continue;
      }
      return { url, status: response.status, text: await readLimited(response, url), headers: response.headers };
    }
  }

  private async checkTarget(url: string): Promise<URL> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new SourceRequestError(url, `refused: "${url}" is not a URL`, 'refused');
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new SourceRequestError(url, `refused: only http and https URLs are followed, not ${target.protocol}`, 'refused');
    if (!this.options.allowPrivate) {
      const host = target.hostname.replace(/^\[|\]$/g, '');
      let check = this.checkedHosts.get(host);
      if (!check) {
        check = this.refusePrivate(host);
        this.checkedHosts.set(host, check);
      }
      await check;
    }
    return target;
  }

  private async refusePrivate(host: string): Promise<void> {
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch (error) {
      throw new SourceRequestError(host, `cannot resolve ${host}: ${error instanceof Error ? error.message : String(error)}`, 'network');
    }
    const inside = addresses.find(isPrivateAddress);
    if (inside) throw new SourceRequestError(host, `refused: ${host} is a private, loopback or link-local address (${inside}); add --allow-private to import from it`, 'refused');
  }
}

async function readLimited(response: Response, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  const tooLarge = () => new SourceRequestError(url, `refused: the answer of ${url} is larger than 20 MB`, 'refused');
  if (declared > MAX_BODY_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    let part: ReadableStreamReadResult<Uint8Array>;
    try {
      part = await reader.read();
    } catch (error) {
      throw new SourceRequestError(url, `the connection broke while reading ${url}: ${error instanceof Error ? error.message : String(error)}`, 'network');
    }
    if (part.done) break;
    size += part.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(Buffer.from(part.value));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The message of a WordPress-shaped error body, or a description of the status. */
export function errorMessage(response: SourceResponse): string {
  const body = response.body;
  if (isRecord(body) && typeof body.message === 'string') return `${body.message}${typeof body.code === 'string' ? ` (${body.code})` : ''}`;
  return `HTTP ${response.status}`;
}

function withoutTrailingSlash(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The namespace root of the events API at `input` (90 §2.1): a URL ending in `/events/v1` is used
 * as is; a site root is asked for its REST index (`/wp-json/`, or the `Link` header of the site
 * root), and — for this service, which has no site-wide index — the namespaces under `{url}/wp-json`
 * and `{url}` are tried last. The root's namespace index must answer, with the credentials when given.
 */
export async function discoverNamespaceRoot(client: SourceClient, input: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SourceUnusableError(`"${input}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceUnusableError(`only http and https sources are supported, not ${url.protocol}`);
  url.search = '';
  url.hash = '';
  const site = withoutTrailingSlash(url);
  const candidates: string[] = [];
  if (/\/events\/v1$/.test(site)) candidates.push(site);
  else {
    const fromIndex = async (indexUrl: string): Promise<string | undefined> => {
      const response = await tryGet(client, indexUrl);
      const namespaces = response && isRecord(response.body) && Array.isArray(response.body.namespaces) ? response.body.namespaces : [];
      const found = NAMESPACES.find((namespace) => namespaces.includes(namespace));
      return found ? `${indexUrl.replace(/\/+$/, '')}/${found}` : undefined;
    };
    let root = await fromIndex(`${site}/wp-json/`);
    if (!root) {
      const home = await probe(() => client.get(`${site}/`));
      const link = home?.headers.get('link')?.match(/<([^>]+)>\s*;\s*rel="https:\/\/api\.w\.org\/"/);
      if (link) root = await fromIndex(new URL(link[1], `${site}/`).href);
    }
    candidates.push(...(root ? [root] : ['/wp-json', ''].flatMap((prefix) => NAMESPACES.map((namespace) => `${site}${prefix}/${namespace}`))));
  }
  for (const candidate of candidates) {
    const index = await client.getJson(candidate).catch((error: unknown) => {
      if (error instanceof SourceRequestError && error.reason !== 'answer') throw new SourceUnusableError(error.message);
      return undefined;
    });
    if (!index) continue;
    if (index.status === 401 || index.status === 403) throw new SourceUnusableError(`the source refused the credentials: ${errorMessage(index)}`);
    if (index.status === 200 && isRecord(index.body) && typeof index.body.namespace === 'string' && /\/events\/v1$/.test(index.body.namespace)) return candidate;
  }
  throw new SourceUnusableError(`no events API found at ${input}`);
}

/** A discovery probe: answers that are not JSON or failed count as "not here", refusals by rule do not. */
function tryGet(client: SourceClient, url: string): Promise<SourceResponse | undefined> {
  return probe(async () => {
    const response = await client.getJson(url);
    if (response.status === 401) throw new SourceUnusableError(`the source refused the credentials: ${errorMessage(response)}`);
    return response;
  });
}

async function probe<T extends { status: number }>(request: () => Promise<T>): Promise<T | undefined> {
  try {
    const response = await request();
    return response.status === 200 ? response : undefined;
  } catch (error) {
    if (error instanceof SourceRequestError && error.reason !== 'answer') throw new SourceUnusableError(error.message);
    if (error instanceof SourceUnusableError) throw error;
    return undefined;
  }
}

/** What kind of server the source is (90 §2.1), and what showed it. */
export interface SourceKind {
  kind: 'calendar-service' | 'wordpress';
  evidence: string;
}

/**
 * This service answers `{root}/changes` with its change feed (80 §3); the reference plugin has no
 * such route. Whatever else answers there (404, an error, something not a feed) is taken for the
 * reference, whose API the import has always read.
 */
export async function detectSourceKind(client: SourceClient, root: string): Promise<SourceKind> {
  const url = `${root}/changes`;
  const response = await tryGet(client, url);
  if (response && isRecord(response.body) && Array.isArray(response.body.changes) && typeof response.body.next_cursor === 'string') {
    return { kind: 'calendar-service', evidence: `GET ${url} answered a change feed` };
  }
  return { kind: 'wordpress', evidence: `GET ${url} answered no change feed` };
}
