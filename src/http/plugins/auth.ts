import type { FastifyInstance } from 'fastify';
import { RestError } from '../../domain/errors.ts';
import type { AuthOutcome, UsersService } from '../../services/users-service.ts';
import { languageOfPath } from './request-state.ts';

function parseAuthorization(header: string, users: UsersService): Promise<AuthOutcome> | AuthOutcome {
  const space = header.indexOf(' ');
  const scheme = space > 0 ? header.slice(0, space).toLowerCase() : '';
  const credentials = space > 0 ? header.slice(space + 1).trim() : '';
  if (scheme === 'bearer' && credentials !== '') return users.authenticateBearer(credentials);
  if (scheme === 'basic' && credentials !== '') {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      // WordPress shows application passwords in groups of four; clients paste them with spaces.
      return users.authenticateBasic(decoded.slice(0, colon), decoded.slice(colon + 1).replace(/ /g, ''));
    }
  }
  return { error: 'incorrect_password' };
}

/**
 * Credentials are judged before routing (40 §3): a wrong or malformed `Authorization` header is
 * a 401 on every path, never a silent fallback to visitor.
 */
export function registerAuth(app: FastifyInstance, users: UsersService, basePath: string): void {
  app.decorateRequest('user', null);
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (request) => {
    request.lang = languageOfPath(request.url, basePath);
    const header = request.headers.authorization;
    if (header === undefined) return;
    const outcome = await parseAuthorization(header, users);
    if ('error' in outcome) throw new RestError(401, outcome.error);
    request.user = outcome.user;
  });
}
