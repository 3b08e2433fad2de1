import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HTTPMethods } from 'fastify';
import { argSchema } from '../../../src/http/openapi/parameters.ts';
import { operationVerb } from '../../../src/http/openapi/paths.ts';
import { openApiPath, pathVariables } from '../../../src/http/openapi/route-paths.ts';
import type { ArgSpec } from '../../../src/args/arg-spec.ts';
import { fastifyPath, type NamespaceDef } from '../../../src/http/rest/endpoint.ts';
import { EDITION_PREFIXES, LANGUAGES } from '../../../src/i18n/catalog.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { appNamespace } from './support.ts';

const VERBS = new Set(['get', 'post', 'delete', 'put', 'patch']);

/** What the document says about one argument, wherever it put it. */
function documentedArgs(operation: any): Map<string, { schema: any; description: string; required: boolean }> {
  const args = new Map<string, { schema: any; description: string; required: boolean }>();
  for (const parameter of operation.parameters) {
    args.set(parameter.name, { schema: parameter.schema, description: parameter.description, required: parameter.required });
  }
  const body = operation.requestBody?.content['application/x-www-form-urlencoded'].schema;
  for (const [name, property] of Object.entries<any>(body?.properties ?? {})) {
    const { description, ['x-calendar-extension']: _extension, ['x-calendar-extension-note']: _note, ...schema } = property;
    args.set(name, { schema, description, required: (body.required ?? []).includes(name) });
  }
  return args;
}

for (const dialect of DIALECTS) {
  describe(`GET {ns}/doc documents exactly the registered routes [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let def: NamespaceDef;
    let doc: any;
    before(async () => {
      t = await startTestApp(dialect);
      def = appNamespace(t);
      doc = (await t.request('GET', `${NS}/doc`)).body;
    });
    after(() => t.close());

    test('every route, method and argument (type, default, required, description) is in the document', () => {
      for (const route of def.routes) {
        const path = openApiPath(route.pattern);
        const item = doc.paths[path];
        assert.ok(item, `the document lacks ${path}`);
        for (const endpoint of route.endpoints) {
          const verb = operationVerb(endpoint);
          const operation = item[verb];
          assert.ok(operation, `the document lacks ${verb} ${path}`);
          assert.deepEqual(operation['x-calendar-methods'] ?? [verb.toUpperCase()], [...endpoint.methods], `${verb} ${path}`);
          const documented = documentedArgs(operation);
          for (const [name, spec] of Object.entries<ArgSpec>(endpoint.args)) {
            const arg = documented.get(name);
            assert.ok(arg, `${verb} ${path} lacks the argument ${name}`);
            assert.deepEqual(arg.schema, argSchema(spec), `${verb} ${path} ${name}`);
            assert.equal(arg.schema.type, spec.type ?? (spec.items ? 'array' : undefined), `${verb} ${path} ${name}`);
            assert.deepEqual(arg.schema.default, spec.default, `${verb} ${path} ${name}`);
            assert.equal(arg.description, spec.description, `${verb} ${path} ${name}`);
            const inPath = route.pattern.includes(`(?P<${name}>`);
            assert.equal(arg.required, inPath || spec.required === true, `${verb} ${path} ${name}`);
          }
        }
      }
    });

    test('the document lists no path, operation or argument that the service does not have', () => {
      const routes = new Map(def.routes.map((route) => [openApiPath(route.pattern), route]));
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        const route = routes.get(path);
        assert.ok(route, `the document lists ${path}, which is not a route`);
        for (const [verb, operation] of Object.entries<any>(item)) {
          if (!VERBS.has(verb)) continue;
          const endpoint = route.endpoints.find((candidate) => operationVerb(candidate) === verb);
          assert.ok(endpoint, `the document lists ${verb} ${path}, which no endpoint serves`);
          const variables = pathVariables(route.pattern);
          for (const name of documentedArgs(operation).keys()) {
            assert.ok(name in endpoint.args || variables.includes(name), `${verb} ${path} documents ${name}, which the endpoint does not take`);
          }
          // And the server really answers each documented method there, in every edition.
          for (const method of operation['x-calendar-methods'] ?? [verb.toUpperCase()]) {
            for (const lang of LANGUAGES) {
              const url = `${EDITION_PREFIXES[lang]}/${def.namespace}${fastifyPath(route.pattern)}` || '/';
              assert.ok(t.app.hasRoute({ method: method as HTTPMethods, url }), `${method} ${url} is not registered`);
            }
          }
        }
      }
    });

    test('the document and the namespace index list the same routes and methods', async () => {
      const index = (await t.request('GET', NS)).body;
      const fromIndex = Object.entries<any>(index.routes).map(([key, entry]) => [openApiPath(key.slice(`/${def.namespace}`.length)), [...entry.methods].sort()]);
      const fromDocument = Object.entries<any>(doc.paths).map(([path, item]) => [
        path,
        Object.values<any>(item)
          .flatMap((operation) => operation['x-calendar-methods'] ?? [])
          .concat(Object.keys(item).filter((verb) => !item[verb]['x-calendar-methods']).map((verb) => verb.toUpperCase()))
          .sort(),
      ]);
      assert.deepEqual(new Map(fromDocument as [string, string[]][]), new Map(fromIndex as [string, string[]][]));
    });
  });
}
