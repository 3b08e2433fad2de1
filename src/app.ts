import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './domain/dates/clock.ts';
import { registerAuth } from './http/plugins/auth.ts';
import { overriddenMethod, parseQueryString, registerBodyParsers } from './http/plugins/body-parsers.ts';
import { clientErrorHandler, refuseTunnels } from './http/plugins/client-errors.ts';
import { registerErrorHandling, routerErrorAnswer } from './http/plugins/errors.ts';
import { loggerOptions, registerRequestLog } from './http/plugins/logging.ts';
import { registerSecurity } from './http/plugins/security.ts';
import { AnswerReplay } from './http/replay/answer-replay.ts';
import { registerReplayRecording } from './http/replay/replay-server.ts';
import { registerCompression } from './http/plugins/compression.ts';
import { frontServer } from './http/front-server.ts';
import { restRouteRewriter } from './http/drop-in/rest-route.ts';
import { registerRestIndex } from './http/drop-in/rest-index.ts';
import { registerOldPageRedirects } from './http/drop-in/old-page-urls.ts';
import { refuseNonRestRoutes } from './http/drop-in/rest-route-guard.ts';
import { registerNamespace } from './http/rest/register-routes.ts';
import { adminNamespace } from './http/routes/admin-users.ts';
import { peopleDeps } from './http/routes/admin-people.ts';
import { registerDocsPage } from './http/routes/docs-page.ts';
import { registerHealth, type Lifecycle } from './http/routes/health.ts';
import { registerMetricsRoute } from './http/routes/metrics.ts';
import { ServiceMetrics } from './observability/metrics.ts';
import { labelRoutes } from './observability/route-hook.ts';
import { registerPages } from './http/pages/page-routes.ts';
import { eventsNamespace } from './http/routes/index.ts';
import { registerImportRoute } from './http/routes/ical-import.ts';
import { registerCsvExportRoute } from './http/routes/csv-import.ts';
import { webhookRoutes } from './http/routes/admin-webhooks.ts';
import { WebhooksService } from './services/webhooks/webhooks-service.ts';
import { changeHead } from './services/webhooks/change-fan-out.ts';
import { UsersService } from './services/users-service.ts';
import { MediaService } from './services/media/media-service.ts';
import type { SideloadNetwork } from './services/media/image-fetch.ts';
import { openUploadStore } from './storage/uploads/open-upload-store.ts';
import { mediaRoutes } from './http/routes/media/media-routes.ts';
import { registerUploadRoutes } from './http/routes/media/upload-routes.ts';
import { registerUploadsServing } from './http/routes/media/uploads-serving.ts';
import { wordpressNamespace } from './http/routes/media/wordpress-routes.ts';
import type { Storage } from './storage/database.ts';
import { SubmissionsService } from './services/submissions/submissions-service.ts';
import { registerSubmissionPages } from './http/pages/submission-routes.ts';
import { submissionAlerts } from './services/submissions/submission-mail.ts';
import { ModerationService } from './services/submissions/moderation-service.ts';
import { moderationRoutes } from './http/routes/admin-moderation.ts';
import { readCookie, SESSION_COOKIE } from './http/admin/session-cookie.ts';
import { FailureThrottle } from './http/plugins/failure-throttle.ts';
import { SessionsService } from './services/signin/sessions-service.ts';
import { registerBackOffice } from './http/admin/register-back-office.ts';

export interface BuildOptions {
  config: Config;
  storage: Storage;
  clock?: Clock;
  /** false silences request logs (tests). */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests that read them). */
  loggerStream?: DestinationStream;
  /** Set when a stop begins (`/readyz`). */
  lifecycle?: Lifecycle;
  /** The process's metrics (140 §4); created here when `CALENDAR_METRICS` is on and none is given. */
  metrics?: ServiceMetrics;
  /** The exposition `/metrics` answers with; the given metrics' own text by default (workers ask the primary). */
  exposition?: () => Promise<string>;
  /** Where image sideloads may connect (tests reaching a local server); the public network otherwise. */
  sideloadNetwork?: SideloadNetwork;
}

/** Builds the HTTP application without listening, so tests can inject requests. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, storage } = options;
  const clock = options.clock ?? systemClock;
  // A per-client rate counts every request, so then every request goes through the framework.
  const metrics = config.metrics.enabled ? (options.metrics ?? new ServiceMetrics()) : undefined;
  const replay = config.rateLimitPerMinute > 0 ? undefined : new AnswerReplay(storage.epochs, clock, { labelRoutes: metrics !== undefined });
  const rewriteRestRoute = restRouteRewriter(config);
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config, options.loggerStream, process.stdout.isTTY === true),
    // One line per request instead of Fastify's two (registerRequestLog).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    // Node looks for overdue requests on this interval (30 s by default, longer than short timeouts).
    http: { connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.requestTimeoutMs / 2)) },
    clientErrorHandler: clientErrorHandler(config),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000, querystringParser: parseQueryString },
    frameworkErrors: routerErrorAnswer(config),
    rewriteUrl(req) {
      // Injected requests (tests) meet no server: the `?rest_route=` form is rewritten here for them too.
      rewriteRestRoute(req);
      const method = overriddenMethod(req.url ?? '/', req.headers['x-http-method-override']);
      if (method) req.method = method;
      return req.url ?? '/';
    },
    serverFactory: frontServer({ rewrite: rewriteRestRoute, observe: metrics?.observe, replay }),
  });

  refuseTunnels(app.server, config);
  registerRequestLog(app, replay);
  if (metrics) labelRoutes(app);
  const users = new UsersService(storage, clock);
  registerErrorHandling(app, config.bodyLimit);
  await registerSecurity(app, config);
  if (replay) registerReplayRecording(app, replay);
  registerCompression(app);
  refuseNonRestRoutes(app);
  const throttle = new FailureThrottle(config.authFailureLimit, config.authFailureWindowSeconds * 1000);
  const sessions = config.backOffice.enabled ? new SessionsService(storage, config.backOffice, clock) : null;
  registerAuth(app, users, { paths: config, throttle, sessions });
  await registerBodyParsers(app, config.bodyLimit);

  const registerOptions = { basePath: config.basePath, apiPath: config.apiPath, publicUrl: config.publicUrl, clock, requireIfMatch: config.requireIfMatch };
  const media = new MediaService(storage, openUploadStore(config.media, storage), config.media, config.timezone, clock, options.sideloadNetwork);
  const deps = { config, storage, clock, users, media };
  const events = eventsNamespace(deps);
  registerNamespace(app, events, registerOptions, config.namespaceAliases);
  const webhooks = new WebhooksService(storage, config.webhooks, changeHead);
  const moderation = new ModerationService(storage, config);
  const admin = adminNamespace(peopleDeps(deps), [...webhookRoutes(webhooks, config.webhooks), ...mediaRoutes(media, config.timezone), ...moderationRoutes(moderation)]);
  registerNamespace(app, admin, registerOptions);
  const dropIn = config.namespaceAliases.length > 0;
  const wordpress = dropIn ? wordpressNamespace(media, config.timezone) : undefined;
  if (wordpress) registerNamespace(app, wordpress, registerOptions);
  await registerUploadRoutes(app, { media, basePath: config.basePath, apiPath: config.apiPath, publicUrl: config.publicUrl, siteZone: config.timezone, clock, dropIn });
  registerUploadsServing(app, media, config.basePath);
  await registerImportRoute(app, { config, storage, clock });
  registerCsvExportRoute(app, { config, storage, clock });
  registerHealth(app, storage, config.basePath, options.lifecycle);
  if (metrics) registerMetricsRoute(app, config.basePath, config.metrics.token, options.exposition ?? (() => metrics.registry.metrics()));
  await registerDocsPage(app, config);
  const submissions = new SubmissionsService(storage, config, submissionAlerts(config), metrics && ((outcome) => metrics.submitted(outcome)));
  // The back office session a public page's request carries (100 §4): members' forms and previews look at it.
  const liveSession = async (request: FastifyRequest) => (sessions === null ? null : sessions.lookup(readCookie(request, SESSION_COOKIE)));
  registerSubmissionPages(app, deps, submissions, moderation, async (request) => {
    const live = await liveSession(request);
    return live === null ? null : { user: live.user, csrfToken: live.csrfToken };
  });
  const pageRoot = registerPages(app, config, storage, clock, async (request) => (await liveSession(request))?.user ?? null);
  const indexed = [events.namespace, ...config.namespaceAliases].map((name) => ({ name, def: events }));
  registerRestIndex(app, config, clock, [...indexed, { name: admin.namespace, def: admin }, ...(wordpress ? [{ name: wordpress.namespace, def: wordpress }] : [])], pageRoot);
  registerOldPageRedirects(app, config);
  if (config.backOffice.enabled) await registerBackOffice(app, deps, [events, admin], throttle);
  return app;
}
