import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RestError } from '../../domain/errors.ts';
import type { AuthOutcome, UsersService } from '../../services/users-service.ts';
import type { FailureThrottle } from './failure-throttle.ts';
import type { SessionsService } from '../../services/signin/sessions-service.ts';
import { authenticateByCookie } from './cookie-auth.ts';
import { languageOfPath, type SitePaths } from './request-state.ts';

interface Credentials {
  login?: string;
  attempt: () => Promise<AuthOutcome> | AuthOutcome;
}

function readAuthorization(header: string, users: UsersService): Credentials {
  const space = header.indexOf(' ');
  const scheme = space > 0 ? header.slice(0, space).toLowerCase() : '';
  const credentials = space > 0 ? header.slice(space + 1).trim() : '';
  if (scheme === 'bearer' && credentials !== '') return { attempt: () => users.authenticateBearer(credentials) };
  if (scheme === 'basic' && credentials !== '') {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      const login = decoded.slice(0, colon);
      // WordPress shows application passwords in groups of four; clients paste them with spaces.
      return { login, attempt: () => users.authenticateBasic(login, decoded.slice(colon + 1).replace(/ /g, '')) };
    }
  }
  return { attempt: () => ({ error: 'incorrect_password' }) };
}

export interface AuthOptions {
  paths: SitePaths;
  /** The failure counters, shared with the back office's sign-in (100 §5.2). */
  throttle: FailureThrottle;
  /** Back office sessions for REST cookie authentication (100 §6.2); null when the back office is off. */
  sessions: SessionsService | null;
}

/**
 * Credentials are judged before routing (40 §3): a wrong or malformed `Authorization` header is
 * a 401 on every path, never a silent fallback to visitor. Repeated failures from one address
 * or against one login are answered 429 with Retry-After until the window passes.
 */
export function registerAuth(app: FastifyInstance, users: UsersService, options: AuthOptions): void {
  const { throttle } = options;
  app.decorateRequest('user', null);
  app.decorateRequest('lang', 'en');
  const authenticate = async (request: FastifyRequest, header: string) => {
    const credentials = readAuthorization(header, users);
    // The login lower-cased: the back office's sign-in counts against the same key (100 §5.2).
    const keys = [`ip:${request.ip}`, ...(credentials.login !== undefined ? [`login:${credentials.login.toLowerCase()}`] : [])];
    const wait = Math.max(...keys.map((key) => throttle.retryAfter(key)));
    if (wait > 0) {
      throw new RestError(429, 'rest_too_many_requests', { vars: { seconds: wait }, headers: { 'Retry-After': String(wait) } });
    }
    const outcome = await credentials.attempt();
    if ('error' in outcome) {
      for (const key of keys) throttle.recordFailure(key);
      throw new RestError(401, outcome.error);
    }
    request.user = outcome.user;
    // Before the handler, so outside its transactions; a failed record of the use fails no request.
    const recording = users.recordUse(outcome);
    if (recording !== undefined) await recording.catch((error: unknown) => request.log.warn({ err: error }, 'the use of an application password was not recorded'));
  };
  // A callback hook: a visitor's request (no header) costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    request.lang = languageOfPath(request.url, options.paths);
    const header = request.headers.authorization;
    const config = request.routeOptions.config;
    if (config?.ownAuthorization === true) return done();
    if (header === undefined) {
      // The header decides when there is one; pages (55) ignore the session cookie.
      if (options.sessions === null || config?.page === true) return done();
      authenticateByCookie(request, reply, options.sessions).then(() => done(), done);
      return;
    }
    authenticate(request, header).then(() => done(), done);
  });
}
