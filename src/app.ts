import Fastify, { LogController, type FastifyInstance } from 'fastify';
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
import { registerReplayRecording, replayingServer } from './http/replay/replay-server.ts';
import { registerNamespace } from './http/rest/register-routes.ts';
import { adminNamespace } from './http/routes/admin-users.ts';
import { registerDocsPage } from './http/routes/docs-page.ts';
import { registerHealth } from './http/routes/health.ts';
import { registerPages } from './http/pages/page-routes.ts';
import { eventsNamespace } from './http/routes/index.ts';
import { registerImportRoute } from './http/routes/ical-import.ts';
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

export interface BuildOptions {
  config: Config;
  storage: Storage;
  clock?: Clock;
  /** false silences request logs (tests). */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests that read them). */
  loggerStream?: DestinationStream;
  /** Where image sideloads may connect (tests reaching a local server); the public network otherwise. */
  sideloadNetwork?: SideloadNetwork;
}

/** Builds the HTTP application without listening, so tests can inject requests. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, storage } = options;
  const clock = options.clock ?? systemClock;
  // A per-client rate counts every request, so then every request goes through the framework.
  const replay = config.rateLimitPerMinute > 0 ? undefined : new AnswerReplay(storage.epochs, clock);
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config, options.loggerStream, process.stdout.isTTY === true),
    // One line per request instead of Fastify's two (registerRequestLog).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    // Node looks for overdue requests on this interval (30 s by default, longer than short timeouts).
    http: { connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.requestTimeoutMs / 2)) },
    clientErrorHandler: clientErrorHandler(config.basePath),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000, querystringParser: parseQueryString },
    frameworkErrors: routerErrorAnswer(config.basePath),
    rewriteUrl(req) {
      const method = overriddenMethod(req.url ?? '/', req.headers['x-http-method-override']);
      if (method) req.method = method;
      return req.url ?? '/';
    },
    ...(replay ? { serverFactory: replayingServer(replay) } : {}),
  });

  refuseTunnels(app.server, config.basePath);
  registerRequestLog(app, replay);
  const users = new UsersService(storage, clock);
  registerErrorHandling(app, config.bodyLimit);
  await registerSecurity(app, config);
  if (replay) registerReplayRecording(app, replay);
  registerAuth(app, users, { basePath: config.basePath, failureLimit: config.authFailureLimit, failureWindowSeconds: config.authFailureWindowSeconds });
  await registerBodyParsers(app, config.bodyLimit);

  const registerOptions = { basePath: config.basePath, publicUrl: config.publicUrl, clock, requireIfMatch: config.requireIfMatch };
  const media = new MediaService(storage, openUploadStore(config.media, storage), config.media, config.timezone, clock, options.sideloadNetwork);
  registerNamespace(app, eventsNamespace({ config, storage, clock, users, media }), registerOptions, config.namespaceAliases);
  const webhooks = new WebhooksService(storage, config.webhooks, changeHead);
  registerNamespace(app, adminNamespace(users, [...webhookRoutes(webhooks, config.webhooks), ...mediaRoutes(media, config.timezone)]), registerOptions);
  const dropIn = config.namespaceAliases.length > 0;
  if (dropIn) registerNamespace(app, wordpressNamespace(media, config.timezone), registerOptions);
  await registerUploadRoutes(app, { media, basePath: config.basePath, publicUrl: config.publicUrl, siteZone: config.timezone, clock, dropIn });
  registerUploadsServing(app, media, config.basePath);
  await registerImportRoute(app, { config, storage, clock });
  registerHealth(app, storage, config.basePath);
  await registerDocsPage(app, config);
  registerPages(app, config, storage, clock);
  return app;
}
