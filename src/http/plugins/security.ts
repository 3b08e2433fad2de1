import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { RestError } from '../../domain/errors.ts';
import { answeredByPage } from './request-state.ts';
import { byCookie } from './cookie-auth.ts';

/** The public calendar pages' policy (55 §13): own scripts and styles, remote images, own forms. */
export const PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

/**
 * The embed pages' policy (130 §10.1): the pages' own with `frame-ancestors` opened to the sites
 * CALENDAR_EMBED_ORIGINS names (`*` any, `none` only this site).
 */
export function embedContentSecurityPolicy(origins: Config['embedOrigins']): string {
  const ancestors = origins === '*' ? '*' : ["'self'", ...origins].join(' ');
  return PAGE_CONTENT_SECURITY_POLICY.replace("frame-ancestors 'self'", `frame-ancestors ${ancestors}`);
}

/** Headers every response carries: a JSON API is never framed, sniffed or cached when private. */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  if (answeredByPage(request)) {
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    const framing = request.routeOptions?.config?.contentSecurityPolicy;
    if (typeof framing === 'string') {
      // Embed pages are framed by other sites: their policy says which, and X-Frame-Options cannot.
      reply.removeHeader('X-Frame-Options');
      reply.header('Content-Security-Policy', framing);
    } else {
      // Pages may be framed by the site itself and indexed (the page sets X-Robots-Tag itself).
      reply.header('X-Frame-Options', 'SAMEORIGIN');
      reply.header('Content-Security-Policy', PAGE_CONTENT_SECURITY_POLICY);
    }
    // The browser asks again for credentials the service refused (55 §7.5).
    if (reply.statusCode === 401) reply.header('WWW-Authenticate', 'Basic realm="calendar"');
    if (request.user) reply.header('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
    return;
  }
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'no-referrer');
  // A route may ask for more (iCalendar files: `noindex, nofollow`).
  if (!reply.hasHeader('X-Robots-Tag')) reply.header('X-Robots-Tag', 'noindex');
  // Pages that need more (the documentation UI) set their own policy.
  if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  // Uploaded files are public and immutable, whoever asks (110-media §5.2).
  if (byCookie(request)) reply.header('Cache-Control', 'private, no-store');
  else if (request.user && request.routeOptions?.config?.publicFile !== true) reply.header('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private');
}

function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply);
    done(null, payload);
  });
}

/**
 * CORS as the reference sends it (30 §4.5), with the list headers exposed so that browsers on
 * other origins can read the totals. Credentials here are explicit Authorization headers, never
 * ambient cookies (the back office's cookie needs a nonce and gets no credentialed CORS), so
 * reflecting an origin does not let a page act as a visitor's account.
 */
async function registerCors(app: FastifyInstance, origins: Config['corsOrigins']): Promise<void> {
  if (origins !== '*' && origins.length === 0) return;
  await app.register(cors, {
    origin: origins === '*' ? true : origins,
    // Never Access-Control-Allow-Credentials: the session cookie must not work from other sites (100 §6.2).
    credentials: false,
    methods: ['OPTIONS', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'X-WP-Nonce', 'Content-Disposition', 'Content-MD5', 'Content-Type', 'X-HTTP-Method-Override'],
    exposedHeaders: ['X-WP-Total', 'X-WP-TotalPages', 'Link', 'X-TEC-Total', 'X-TEC-TotalPages', 'Allow', 'Retry-After'],
    maxAge: 600,
    // Preflight headers are added, then the route's own OPTIONS answer (its index entry) is sent.
    preflightContinue: true,
    strictPreflight: false,
  });
}

/** The optional per-client request rate (CALENDAR_RATE_LIMIT requests a minute). */
async function registerRateLimit(app: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute <= 0) return;
  await app.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    errorResponseBuilder: (_request, context) =>
      new RestError(429, 'rest_too_many_requests', { vars: { seconds: Math.ceil(context.ttl / 1000) } }),
  });
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  registerSecurityHeaders(app);
  await registerCors(app, config.corsOrigins);
  await registerRateLimit(app, config.rateLimitPerMinute);
}
