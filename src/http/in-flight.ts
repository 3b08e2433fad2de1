import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The requests received and not yet answered (140 §5): a shutdown says how many it waits for, and
 * from its start every answer closes its connection, so that a client sends its next request to a
 * process that is not stopping.
 */
export class InFlightRequests {
  private readonly open = new Set<ServerResponse>();
  private stopping = false;

  get count(): number {
    return this.open.size;
  }

  readonly observe = (_request: IncomingMessage, response: ServerResponse): void => {
    if (this.stopping) response.shouldKeepAlive = false;
    this.open.add(response);
    response.once('close', () => this.open.delete(response));
  };

  /** From now on every answer, those being produced included, ends its connection. */
  closeConnectionsAfterAnswers(): void {
    this.stopping = true;
    for (const response of this.open) {
      if (!response.headersSent) response.shouldKeepAlive = false;
    }
  }
}
