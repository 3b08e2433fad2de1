import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Clock } from '../../domain/dates/clock.ts';
import type { CacheEpochs } from '../../storage/cache-epochs.ts';
import { survivesAll, type DescribedWrite } from '../../storage/write-journal.ts';
import { cacheLookups } from '../../observability/cache-lookups.ts';
import { routeLabelOf, setRouteLabel } from '../../observability/route-label.ts';
import { chosenEncoding, compress, compressibleType, varyingByEncoding, type Encoding } from '../compression.ts';

/** Whether an answer stays true after a described write (write-journal.ts). */
export type Survives = (write: DescribedWrite) => boolean;

/**
 * The instant (the request's now) of each request a REST read answered in a way worth replaying,
 * and which described writes leave its answer true.
 */
const replayable = new WeakMap<IncomingMessage, { now: Date; survives?: Survives }>();

/**
 * Marks a request whose answer is a function of the stored data, the request line, the addresses
 * it was sent to and the current second: a REST read (its rules see no other header once the
 * request qualifies for replay). Without `survives`, any write ends its replay.
 */
export function markReplayable(raw: IncomingMessage, now: Date, survives?: Survives): void {
  replayable.set(raw, { now, survives });
}

/** The replay key and cache epoch of each request the replay handed to the framework. */
const handedOn = new WeakMap<IncomingMessage, { key: string; epoch: number }>();

/**
 * The cache epoch observed before the framework saw `raw`: the request's caches may take it as the
 * one they observed (on PostgreSQL that saves a round trip).
 */
export function epochObservedBefore(raw: IncomingMessage): number | undefined {
  return handedOn.get(raw)?.epoch;
}

/** An answer as it was written: headers (without Date and connection headers, which Node adds) and body. */
interface Recording {
  key: string;
  epoch: number;
  /** The route pattern that produced it (the metrics' label of its replays). */
  route: string;
  second: number;
  survives?: Survives;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** A text answer: replayed compressed to clients that accept it. */
  compressible: boolean;
  /** Its compressed copies by coding, each made on the first replay in it (a promise until then). */
  encoded: Partial<Record<Encoding, Encoded | Promise<Encoded>>>;
  /** The bytes of the compressed bodies made while it was kept. */
  encodedBytes: number;
}

interface Encoded {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** A request for a key whose answer the framework is producing, and the repeats that wait for it. */
interface InFlight {
  epoch: number;
  followers: Array<{ request: IncomingMessage; response: ServerResponse; began: number; second: number }>;
}

export type RequestLine = (method: string, url: string, status: number, ms: number) => void;

/**
 * What identifies a visitor's plain read: the addresses its answer links to and the request line.
 * Anything else that could change the answer or its headers (credentials, an origin for CORS, a
 * conditional, a method override) makes the request go through the framework. (The framework
 * ignores a GET's body.)
 */
function replayKey(request: IncomingMessage): string | undefined {
  if (request.method !== 'GET') return undefined;
  const h = request.headers;
  if (
    h.authorization !== undefined ||
    h.origin !== undefined ||
    h['if-none-match'] !== undefined ||
    h['x-http-method-override'] !== undefined ||
    // Cookie + nonce (100 §6.2) is a signed-in user's request: never answered from, nor recorded as, a visitor's.
    h['x-wp-nonce'] !== undefined ||
    (request.url ?? '').includes('_wpnonce')
  ) {
    return undefined;
  }
  return `${h.host ?? ''} ${h['x-forwarded-host'] ?? ''} ${h['x-forwarded-proto'] ?? ''} ${request.url ?? ''}`;
}

const secondOf = (instant: Date) => Math.floor(instant.getTime() / 1000);

/**
 * Visitors' read answers replayed byte for byte in front of the framework. A REST read already
 * answers a repeated request from its caches, but routing, hooks and argument checks cost more
 * than writing the bytes; here a repeat costs a lookup and the cache epoch.
 *
 * An answer is recorded with the epoch observed before the framework saw its request (so the data
 * it was built from is at least that new) and replayed while the epoch is the same and the second
 * of its now has not turned: answers that depend on the clock (relative date filters, scheduled
 * publications, which the stored data dates to the second) stay right. Bounded in entries and
 * bytes; the oldest goes first.
 */
export class AnswerReplay {
  private readonly recordings = new Map<string, Recording>();
  private readonly inFlight = new Map<string, InFlight>();
  /** The newest epoch seen: recordings of older ones can never be replayed again. */
  private epoch = -1;
  private bytes = 0;
  /** Set when requests are logged: a replayed answer is logged as the framework would. */
  requestLine: RequestLine | undefined;

  private readonly labelRoutes: boolean;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  /** `labelRoutes`: name each replayed request after its route (only the metrics read the names). */
  constructor(
    private readonly epochs: CacheEpochs,
    private readonly clock: Clock,
    options: { labelRoutes?: boolean; maxEntries?: number; maxBytes?: number } = {},
  ) {
    this.labelRoutes = options.labelRoutes ?? false;
    this.maxEntries = options.maxEntries ?? 500;
    this.maxBytes = options.maxBytes ?? 16 * 2 ** 20;
  }

  /** Answers `request` from a recording, or hands it to `next` (the framework). */
  handle(request: IncomingMessage, response: ServerResponse, next: (request: IncomingMessage, response: ServerResponse) => void): void {
    const key = replayKey(request);
    if (key === undefined) return next(request, response);
    const began = performance.now();
    this.epochs.current().then(
      (epoch) => {
        if (epoch === null) return next(request, response);
        if (epoch > this.epoch) this.advance(epoch);
        const second = secondOf(this.clock());
        if (this.replayed(key, epoch, second, response, request, began)) return;
        const leader = this.inFlight.get(key);
        if (leader !== undefined && leader.epoch === epoch) {
          leader.followers.push({ request, response, began, second });
          return;
        }
        this.lead(key, epoch, request, response, next);
      },
      () => next(request, response),
    );
  }

  /** Moves to a newer epoch: recordings that every write since leaves true are kept for it. */
  private advance(epoch: number): void {
    const writes = this.epoch < 0 ? null : this.epochs.writesBetween(this.epoch, epoch);
    for (const [key, recording] of this.recordings) {
      if (survivesAll(writes, recording.survives)) recording.epoch = epoch;
      else this.forget(key);
    }
    this.epoch = epoch;
  }

  /** Writes the recording of `key` when it holds for this epoch and second. */
  private replayed(key: string, epoch: number, second: number, response: ServerResponse, request: IncomingMessage, began: number): boolean {
    const found = this.recordings.get(key);
    if (found === undefined || found.epoch !== epoch || found.second !== second) return false;
    cacheLookups.replay.hits++;
    if (this.labelRoutes) setRouteLabel(request, found.route);
    const encoding = found.compressible ? chosenEncoding(request.headers, found.body.length) : undefined;
    if (encoding === undefined) {
      this.write(request, response, began, found.headers, found.body);
      return true;
    }
    const encoded = found.encoded[encoding] ?? this.encode(found, encoding);
    if (!(encoded instanceof Promise)) this.write(request, response, began, encoded.headers, encoded.body);
    else {
      encoded.then(
        (made) => response.destroyed || this.write(request, response, began, made.headers, made.body),
        () => response.destroyed || this.write(request, response, began, found.headers, found.body),
      );
    }
    return true;
  }

  private write(request: IncomingMessage, response: ServerResponse, began: number, headers: OutgoingHttpHeaders, body: Buffer): void {
    response.writeHead(200, headers);
    response.end(body);
    this.requestLine?.('GET', request.url ?? '/', 200, performance.now() - began);
  }

  /** The recording in `encoding`, kept with it (and counted in its bytes) while it is kept; tried again after a failure. */
  private encode(recording: Recording, encoding: Encoding): Promise<Encoded> {
    const made = compress(recording.body, encoding).then((body) => {
      const encoded = { headers: { ...recording.headers, 'content-encoding': encoding, 'content-length': String(body.length) }, body };
      if (this.recordings.get(recording.key) === recording) {
        recording.encoded[encoding] = encoded;
        recording.encodedBytes += body.length;
        this.bytes += body.length;
        this.trim();
      }
      return encoded;
    });
    recording.encoded[encoding] = made;
    made.catch(() => {
      if (recording.encoded[encoding] === made) delete recording.encoded[encoding];
    });
    return made;
  }

  /**
   * Hands the request to the framework. Repeats of it that arrive meanwhile, in the same epoch,
   * wait for its answer instead of running beside it (after a write, each of the clients reading a
   * page would otherwise build it at once): once it is written they are replayed from its recording
   * when that holds for the epoch and second they arrived in, or go to the framework themselves.
   */
  private lead(key: string, epoch: number, request: IncomingMessage, response: ServerResponse, next: (request: IncomingMessage, response: ServerResponse) => void): void {
    const entry: InFlight = { epoch, followers: [] };
    this.inFlight.set(key, entry);
    response.once('close', () => {
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
      for (const follower of entry.followers) {
        if (follower.response.destroyed) continue;
        if (!this.replayed(key, epoch, follower.second, follower.response, follower.request, follower.began)) {
          cacheLookups.replay.misses++;
          handedOn.set(follower.request, { key, epoch });
          next(follower.request, follower.response);
        }
      }
    });
    cacheLookups.replay.misses++;
    handedOn.set(request, { key, epoch });
    next(request, response);
  }

  /** Keeps the answer the framework is about to write, when its request qualifies and its route marked it. */
  record(request: IncomingMessage, status: number, headers: Record<string, number | string | string[] | undefined>, payload: unknown): void {
    const pending = handedOn.get(request);
    const marked = replayable.get(request);
    // An answer whose epoch has already passed could never be replayed.
    if (pending === undefined || marked === undefined || status !== 200 || pending.epoch !== this.epoch) return;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const { key, epoch } = pending;
    this.forget(key);
    // The framework adds Vary for a text answer after this recording (plugins/compression.ts).
    const compressible = compressibleType(headers['content-type'], headers['cache-control'], headers['content-encoding']);
    const recorded = { ...headers, 'content-length': String(body.length), ...(compressible ? { vary: varyingByEncoding(headers.vary) } : {}) } as OutgoingHttpHeaders;
    this.recordings.set(key, { key, epoch, route: routeLabelOf(request), second: secondOf(marked.now), survives: marked.survives, headers: recorded, body, compressible, encoded: {}, encodedBytes: 0 });
    this.bytes += body.length;
    this.trim();
  }

  /** The oldest recordings forgotten until the rest fit. */
  private trim(): void {
    while (this.recordings.size > this.maxEntries || this.bytes > this.maxBytes) this.forget(this.recordings.keys().next().value!);
  }

  private forget(key: string): void {
    const recording = this.recordings.get(key);
    if (recording === undefined) return;
    this.bytes -= recording.body.length + recording.encodedBytes;
    this.recordings.delete(key);
  }
}
