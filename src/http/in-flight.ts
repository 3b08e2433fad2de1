import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The answer a connection is writing: node's own link from a socket to its current response. */
const answering = (socket: Socket) => (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;

/**
 * The requests received and not yet answered (140 §5): a shutdown says how many it waits for, and
 * from its start every answer closes its connection, so that a client sends its next request to a
 * process that is not stopping. Watched per connection, not per request: a keep-alive client sends
 * thousands of requests on one, and a listener per answer cost cached reads measurably.
 */
export class InFlightRequests {
  private readonly connections = new Set<Socket>();
  private stopping = false;

  /** Watches the connections `server` accepts. */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
    });
  }

  get count(): number {
    let count = 0;
    for (const socket of this.connections) if (answering(socket) !== undefined) count++;
    return count;
  }

  /** From now on every answer, those being produced included, ends its connection. */
  closeConnectionsAfterAnswers(server: Server): void {
    if (this.stopping) return;
    this.stopping = true;
    server.prependListener('request', (_request, response: ServerResponse) => {
      response.shouldKeepAlive = false;
    });
    for (const socket of this.connections) {
      const response = answering(socket);
      if (response !== undefined && !response.headersSent) response.shouldKeepAlive = false;
    }
  }
}
