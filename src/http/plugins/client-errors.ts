import type { ConnectionError } from 'fastify';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { translate, type MessageKey } from '../../i18n/catalog.ts';
import { languageOfPath, type SitePaths } from './request-state.ts';

interface ClientErrorAnswer {
  status: number;
  code: string;
  messageKey: MessageKey;
}

function answerFor(error: ConnectionError): ClientErrorAnswer {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'rest_headers_too_large', messageKey: 'rest_headers_too_large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'rest_request_timeout', messageKey: 'rest_request_timeout' };
    case 'HPE_INVALID_METHOD':
      return { status: 501, code: 'rest_method_not_supported', messageKey: 'rest_method_not_supported' };
    default:
      return { status: 400, code: 'rest_bad_request', messageKey: 'rest_bad_request' };
  }
}

/** The request target of a request line, as far as it arrived (for the edition's language). */
function requestTarget(rawPacket: unknown): string {
  // Node hands over the bytes it could not parse as a Buffer (fastify's types say otherwise).
  if (!Buffer.isBuffer(rawPacket)) return '/';
  const line = rawPacket.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  return line.split(' ')[1] ?? '/';
}

/** A complete HTTP/1.1 response in the API's error shape, written straight to the socket. */
function rawErrorResponse(answer: ClientErrorAnswer, target: string, paths: SitePaths): string {
  const body = JSON.stringify({
    code: answer.code,
    message: translate(languageOfPath(target, paths), answer.messageKey),
    data: { status: answer.status },
  });
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
    'Content-Type: application/json; charset=UTF-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Fastify's `clientErrorHandler`: errors of node's HTTP parser and connection timers (headers or
 * request line too large, a malformed request line, a method the parser does not know, a client
 * too slow to send its request). They happen before any request object exists, so no hook or
 * error handler of the app sees them; the answer is written to the socket, then it is closed.
 */
export function clientErrorHandler(paths: SitePaths) {
  return (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) socket.write(rawErrorResponse(answerFor(error), requestTarget(error.rawPacket), paths));
    socket.destroy();
  };
}

/**
 * CONNECT asks for a tunnel, which this service does not offer; node closes such a socket
 * without a word unless someone listens for it.
 */
export function refuseTunnels(server: Pick<Server, 'on'>, paths: SitePaths): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const answer = { status: 501, code: 'rest_method_not_supported', messageKey: 'rest_method_not_supported' } as const;
    socket.end(rawErrorResponse(answer, request.url ?? '/', paths));
  });
}
