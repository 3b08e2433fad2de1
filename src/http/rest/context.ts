import type { FastifyRequest } from 'fastify';
import { renderContext, type RenderContext } from '../../render/context.ts';
import { UrlBuilder } from '../../render/urls.ts';
import type { Precondition } from '../../domain/sync/preconditions.ts';
import { cookieSessionId } from '../plugins/cookie-auth.ts';

/** What a handler knows about the request it serves: the render context and the write's request details. */
export interface RestContext extends RenderContext {
  /** 80 §1.3: the request's If-Match header and whether writes must send one. */
  readonly precondition?: Precondition;
  /** The connection the request came on: coalesced writes wait for the clients they answered. */
  readonly client?: object;
  /**
   * The back office session the caller came with (a back office page, or cookie + nonce, 100
   * §6.2); absent for credentials of the Authorization header. The `/me` credential routes need it.
   */
  readonly sessionId?: number;
}

export interface ContextOptions {
  publicUrl: string | null;
  basePath: string;
  /** `{api}` (140 §1.1); `basePath` when absent. */
  apiPath?: string;
  /** The namespace the route was mounted under (the service's own or an alias). */
  namespace: string;
  now: Date;
  requireIfMatch?: boolean;
}

export function createContext(request: FastifyRequest, options: ContextOptions): RestContext {
  const origin = options.publicUrl ?? `${request.protocol}://${request.host}`;
  const lang = request.lang;
  return {
    ...renderContext({ lang, user: request.user, urls: new UrlBuilder(origin, options.basePath, lang, options.namespace, options.apiPath), now: options.now }),
    precondition: { ifMatch: request.headers['if-match'], required: options.requireIfMatch ?? false },
    client: request.raw.socket,
    sessionId: cookieSessionId(request),
  };
}
