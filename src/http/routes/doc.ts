import { translateDescription } from '../../i18n/descriptions/index.ts';
import { buildOpenApiDocument, type DocumentInfo } from '../openapi/document.ts';
import type { NamespaceDef, RouteDef } from '../rest/endpoint.ts';

/**
 * `GET {ns}/doc`: the OpenAPI document of the namespace, in the edition's language (30 §3); the
 * admin namespace has its own (100 §10), with its info and the routes only declared for it.
 */
export function docRoute(def: NamespaceDef, info?: DocumentInfo, documentedOnly: RouteDef[] = []): RouteDef {
  return {
    pattern: '/doc',
    endpoints: [
      {
        methods: ['GET'],
        summary: 'This document: the OpenAPI description of the API.',
        args: {},
        handler: (ctx) => ({
          body: buildOpenApiDocument(documentedOnly.length === 0 ? def : { ...def, routes: [...def.routes, ...documentedOnly] }, {
            serverUrl: `${ctx.urls.ns}/`,
            describe: (text) => translateDescription(ctx.lang, text),
            info,
          }),
        }),
      },
    ],
  };
}
