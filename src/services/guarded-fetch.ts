import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** Why a guarded GET brought no body back; each caller turns it into its own error. */
export type FetchFailure =
  | { stage: 'connect'; url: URL; error: unknown; timedOut: boolean }
  | { stage: 'status'; status: number }
  | { stage: 'transfer'; timedOut: boolean }
  | { stage: 'redirects' };

export interface GuardedGet {
  accept: string;
  maxBytes: number;
  maxRedirects: number;
  /** The whole transfer, redirects included. */
  timeoutMs: number;
  /** Throws the caller's refusal when a hop (the first one included) may not be fetched. */
  checkTarget: (url: URL) => void;
  /** The connection's own name resolution for a hop; undefined leaves it to the system. */
  lookupFor: (url: URL) => LookupFunction | undefined;
  failed: (failure: FetchFailure) => Error;
  tooLarge: () => Error;
}

function get(url: URL, accept: string, lookup: LookupFunction | undefined, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // No cookies or credentials: the request carries nothing of the caller's.
    const request = send(url, { method: 'GET', signal, ...(lookup ? { lookup } : {}), headers: { accept } }, resolve);
    request.on('error', reject);
    request.end();
  });
}

/**
 * GET that checks every hop again before connecting, follows redirects up to the limit, takes
 * only a 200 and cuts the body at `maxBytes`; returns the body and the URL it came from.
 */
export async function guardedGet(start: URL, options: GuardedGet): Promise<{ body: Buffer; url: URL }> {
  let url = start;
  const signal = AbortSignal.timeout(options.timeoutMs);
  for (let hop = 0; hop <= options.maxRedirects; hop++) {
    options.checkTarget(url);
    const hopUrl = url;
    const response = await get(url, options.accept, options.lookupFor(url), signal).catch((error: unknown) => {
      throw options.failed({ stage: 'connect', url: hopUrl, error, timedOut: signal.aborted });
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      url = new URL(location, url);
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw options.failed({ stage: 'status', status });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.maxBytes) break;
        chunks.push(chunk);
      }
    } catch {
      throw options.failed({ stage: 'transfer', timedOut: signal.aborted });
    }
    if (size > options.maxBytes) {
      response.destroy();
      throw options.tooLarge();
    }
    return { body: Buffer.concat(chunks), url };
  }
  throw options.failed({ stage: 'redirects' });
}
