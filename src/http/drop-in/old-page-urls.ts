import type { FastifyInstance } from 'fastify';
import { EDITION_PREFIXES, LANGUAGES } from '../../i18n/catalog.ts';
import type { SitePaths } from '../plugins/request-state.ts';
import { PAGE_PREFIXES } from '../pages/page-routes.ts';

/**
 * With `{api}` apart from `{base}` (140 §1.2), page addresses below `{api}` — the ones the layout
 * of `CALENDAR_BASE_PATH=/wp-json` handed out, stored in links and search engines — move with a 301
 * to the same page below `{base}`, query included.
 */
export function registerOldPageRedirects(app: FastifyInstance, paths: SitePaths): void {
  const { apiPath, basePath } = paths;
  if (apiPath === basePath) return;
  for (const lang of LANGUAGES) {
    for (const page of PAGE_PREFIXES) {
      const prefix = `${apiPath}${EDITION_PREFIXES[lang]}${page}`;
      for (const url of [prefix, `${prefix}/*`]) {
        app.route({
          method: ['GET', 'HEAD'],
          url,
          config: { page: true },
          handler: (request, reply) => reply.code(301).header('Location', basePath + request.url.slice(apiPath.length)).send(),
        });
      }
    }
  }
}
