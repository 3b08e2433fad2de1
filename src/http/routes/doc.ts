import { translateDescription } from '../../i18n/descriptions/index.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import type { NamespaceDef, RouteDef } from '../rest/endpoint.ts';

/** `GET {ns}/doc`: the OpenAPI document of the namespace, in the edition's language (30 §3). */
export function docRoute(def: NamespaceDef): RouteDef {
  return {
    pattern: '/doc',
    endpoints: [
      {
        methods: ['GET'],
        summary: 'This document: the OpenAPI description of the API.',
        args: {},
        handler: (ctx) => ({
          body: buildOpenApiDocument(def, { serverUrl: `${ctx.urls.ns}/`, describe: (text) => translateDescription(ctx.lang, text) }),
        }),
      },
    ],
  };
}
