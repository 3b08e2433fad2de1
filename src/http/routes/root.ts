import { RestError } from '../../domain/errors.ts';
import type { NamespaceDef, RouteDef } from '../rest/endpoint.ts';
import { renderNamespaceIndex } from '../rest/route-index.ts';

/**
 * `GET {ns}`: the namespace index of 30 §2, generated from the routes registered after it. Under
 * an alias (90 §1) the alias names the namespace too; the published default stays the service's own.
 */
export function rootRoute(def: NamespaceDef): RouteDef {
  return {
    pattern: '',
    endpoints: [
      {
        methods: ['GET'],
        summary: 'The namespace index: every route with its methods and arguments.',
        args: {
          namespace: { default: def.namespace, description: 'The namespace to describe.' },
          context: { default: 'view', description: 'Scope under which the request is made; determines fields present in response.' },
        },
        handler: (ctx, params) => {
          const asked = params.get('namespace');
          if (asked !== def.namespace && asked !== ctx.urls.namespace) throw new RestError(404, 'rest_invalid_namespace');
          return { body: renderNamespaceIndex(def, ctx) };
        },
      },
    ],
  };
}
