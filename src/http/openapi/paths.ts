import type { Endpoint, HttpMethod, NamespaceDef, RouteDef } from '../rest/endpoint.ts';
import type { Describe } from './describe.ts';
import { bodyProperty, EXTENSION_KEY, locationOf, parameterObject } from './parameters.ts';
import { documentedResponses, responsesFor, RESOURCE_SCHEMAS, type OperationKind } from './responses.ts';
import { openApiPath, pathVariables, resourceOf } from './route-paths.ts';

/** The methods the reference documents; the others are named on the operation that serves them too. */
const DOCUMENTED_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'DELETE'];

const METHODS_KEY = 'x-calendar-methods';

/** The operation key an endpoint is documented under: POST for POST+PUT+PATCH (30 §3). */
export function operationVerb(endpoint: Endpoint): string {
  return (endpoint.methods.find((method) => DOCUMENTED_METHODS.includes(method)) ?? endpoint.methods[0]).toLowerCase();
}

function operationKind(verb: string, isItem: boolean, resource: string): OperationKind {
  if (!(resource in RESOURCE_SCHEMAS)) return 'other';
  if (verb === 'get') return isItem ? 'read' : 'list';
  if (verb === 'delete') return 'delete';
  return isItem ? 'update' : 'create';
}

function operation(route: RouteDef, endpoint: Endpoint, describe: Describe): [string, Record<string, unknown>] {
  const verb = operationVerb(endpoint);
  const pathNames = new Set(pathVariables(route.pattern));
  const resource = resourceOf(route.pattern);
  for (const name of pathNames) {
    // OpenAPI needs a parameter object for each; the route's arguments are its only source.
    if (!(name in endpoint.args)) throw new Error(`${verb} ${route.pattern} does not declare its path argument ${name}`);
  }

  const parameters: Record<string, unknown>[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(endpoint.args)) {
    const location = locationOf(name, spec, verb, pathNames);
    if (location !== 'body') {
      parameters.push(parameterObject(name, spec, location, describe));
      continue;
    }
    properties[name] = bodyProperty(spec, describe);
    if (spec.required) required.push(name);
  }

  const result: Record<string, unknown> = { tags: [resource || 'index'] };
  if (endpoint.summary) result.summary = describe(endpoint.summary);
  result.parameters = parameters;
  if (Object.keys(properties).length > 0) {
    const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
    // The reference documents form fields; the service reads JSON bodies just as well.
    result.requestBody = { content: { 'application/x-www-form-urlencoded': { schema }, 'application/json': { schema } } };
  }
  result.responses = endpoint.responses === undefined ? responsesFor(operationKind(verb, pathNames.size > 0, resource), resource, describe) : documentedResponses(endpoint.responses, describe);
  if (endpoint.produces) {
    (result.responses as Record<string, unknown>)['200'] = {
      description: describe('The file; errors are JSON like everywhere else.'),
      content: { [endpoint.produces]: { schema: { type: 'string' } } },
    };
    result[EXTENSION_KEY] = true;
  }
  if (endpoint.methods.length > 1) result[METHODS_KEY] = [...endpoint.methods];
  return [verb, result];
}

/**
 * The `paths` object: one path per route, one operation per endpoint, in registration order.
 * The reference's document leaves the namespace index out, so it comes after the reference's paths.
 */
export function buildPaths(def: NamespaceDef, describe: Describe): Record<string, Record<string, unknown>> {
  const routes = [...def.routes.filter((route) => route.pattern !== ''), ...def.routes.filter((route) => route.pattern === '')];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item: Record<string, unknown> = {};
    for (const endpoint of route.endpoints) {
      const [verb, documented] = operation(route, endpoint, describe);
      if (verb in item) throw new Error(`Two endpoints of ${route.pattern} would both be documented as ${verb}`);
      item[verb] = documented;
    }
    paths[openApiPath(route.pattern)] = item;
  }
  return paths;
}
