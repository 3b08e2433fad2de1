import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

/**
 * The yardstick: a bare node:http server answering every request with the very bytes the
 * service returned for the route under test, with the same content type (and content coding,
 * when they are compressed). Started as its own process so that it competes for the CPU exactly
 * as the service does.
 */
const [file, contentType, contentEncoding] = process.argv.slice(2);
const body = readFileSync(file);
const server = createServer((_request, response) => {
  if (contentEncoding) response.writeHead(200, { 'content-type': contentType, 'content-length': body.length, 'content-encoding': contentEncoding });
  else response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
