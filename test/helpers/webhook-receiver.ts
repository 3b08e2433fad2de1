import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One request the receiver got. */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered. */
  status: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering (a delivery stays in flight meanwhile). */
  delayMs?: number;
}

/**
 * A webhook receiver on 127.0.0.1: records every request and answers from a script of replies
 * (then `fallback`). Tests wait for what they expect with `until`.
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  /** Every request in the order it arrived (before it was answered; status 0). */
  readonly arrivals: ReceivedRequest[] = [];
  private readonly script: Reply[] = [];
  private waiters: Array<() => void> = [];
  private constructor(private readonly server: Server, public fallback: Reply) {}

  static async start(fallback: Reply = { status: 204 }): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, fallback);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver.arrivals.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status: 0 });
        const reply = receiver.script.shift() ?? receiver.fallback;
        setTimeout(() => {
          response.writeHead(reply.status, reply.headers).end('ok');
          receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status: reply.status });
          for (const wake of receiver.waiters.splice(0)) wake();
        }, reply.delayMs ?? 0);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  get url(): string {
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${address.port}/hook`;
  }

  /** Forgets what arrived and what was scripted; answers `fallback` from now on. */
  reset(fallback: Reply = { status: 204 }): void {
    this.received.length = 0;
    this.arrivals.length = 0;
    this.script.length = 0;
    this.fallback = fallback;
  }

  /** Answers the next requests with these replies, in order. */
  reply(...replies: Reply[]): void {
    this.script.push(...replies);
  }

  /** Resolves when `done(received)` holds; rejects after `timeoutMs` with what arrived. */
  async until(done: (received: ReceivedRequest[]) => boolean, timeoutMs = 30_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.received)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the receiver did not get what was expected; it got:\n${this.received.map((entry) => entry.body).join('\n')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
  }
}
