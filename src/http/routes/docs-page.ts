import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config.ts';
import { escapeSpecialChars } from '../../domain/text/entities.ts';
import { EDITION_PREFIXES, LANGUAGES, translate, type Language } from '../../i18n/catalog.ts';
import { translateDescription } from '../../i18n/descriptions/index.ts';
import { INFO_TITLE } from '../openapi/document.ts';
import { ADMIN_NAMESPACE, NAMESPACE } from '../../render/urls.ts';

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const OWN_ASSETS_DIR = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'src/http/openapi/ui');

/**
 * The folder holding package.json, found by walking up: this module runs both from the sources
 * (src/http/routes/) and from the `npm start` bundle (dist/), at different depths.
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The only files served under `{base}/docs/assets/`: the UI package ships more (demo pages, source maps). */
const ASSETS = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/favicon-32x32.png', '/favicon-16x16.png', '/docs-init.js']);

/**
 * Scripts and styles from this service only, no inline code, requests ("try it") to this
 * service only: to its public origin too when links are built from one.
 */
function contentSecurityPolicy(publicUrl: string | null): string {
  const connect = publicUrl ? `'self' ${publicUrl}` : "'self'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The documents the page offers (100 §10): the events namespace's, and `?api=admin` the admin namespace's. */
const DOCUMENTS = [
  { key: 'events', namespace: NAMESPACE, label: 'docs_events_api' },
  { key: 'admin', namespace: ADMIN_NAMESPACE, label: 'docs_admin_api' },
] as const;
type DocumentKey = (typeof DOCUMENTS)[number]['key'];

function page(lang: Language, basePath: string, apiPath: string, shown: DocumentKey): string {
  const assets = `${basePath}/docs/assets`;
  const pageUrl = `${basePath}${EDITION_PREFIXES[lang]}/docs`;
  const documentUrl = `${apiPath}${EDITION_PREFIXES[lang]}/${DOCUMENTS.find((doc) => doc.key === shown)!.namespace}/doc`;
  const html = (text: string) => escapeSpecialChars(text, true);
  const links = DOCUMENTS.map((doc) => {
    const href = doc.key === 'events' ? pageUrl : `${pageUrl}?api=${doc.key}`;
    const current = doc.key === shown ? ' aria-current="page"' : '';
    return `<li><a href="${html(href)}"${current}>${html(translate(lang, doc.label))}</a></li>`;
  }).join('');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(translateDescription(lang, INFO_TITLE))}</title>
<link rel="stylesheet" href="${html(assets)}/swagger-ui.css">
<link rel="icon" type="image/png" sizes="32x32" href="${html(assets)}/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="${html(assets)}/favicon-16x16.png">
</head>
<body>
<nav aria-label="${html(translate(lang, 'docs_documents'))}"><ul>${links}</ul></nav>
<div id="swagger-ui"></div>
<script src="${html(assets)}/swagger-ui-bundle.js"></script>
<script src="${html(assets)}/docs-init.js" data-document-url="${html(documentUrl)}"></script>
</body>
</html>
`;
}

/**
 * `{base}/docs` and `{base}/{da,it,es}/docs`: the browsable documentation, Swagger UI rendering
 * the edition's `{ns}/doc` (or, `?api=admin`, the admin namespace's document), served from this service (no CDN), with "try it" against it.
 */
export async function registerDocsPage(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyStatic, {
    root: [SWAGGER_UI_DIR, OWN_ASSETS_DIR],
    prefix: `${config.basePath}/docs/assets/`,
    decorateReply: false,
    index: false,
    allowedPath: (pathName) => ASSETS.has(pathName),
    maxAge: '1h',
  });
  const policy = contentSecurityPolicy(config.publicUrl);
  for (const lang of LANGUAGES) {
    const bodies = { events: page(lang, config.basePath, config.apiPath, 'events'), admin: page(lang, config.basePath, config.apiPath, 'admin') };
    app.get(`${config.basePath}${EDITION_PREFIXES[lang]}/docs`, async (request, reply) => {
      const shown: DocumentKey = (request.query as { api?: unknown }).api === 'admin' ? 'admin' : 'events';
      return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', policy).send(bodies[shown]);
    });
  }
}
