import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

/** The reference's paths in its order (30 §3), then the namespace index its document leaves out. */
const PATHS = [
  '/doc',
  '/events',
  '/events/{id}',
  '/events/by-slug/{slug}',
  '/events.ics',
  '/events/{id}.ics',
  '/events/by-slug/{slug}.ics',
  '/venues',
  '/venues/{id}',
  '/venues/by-slug/{slug}',
  '/organizers',
  '/organizers/{id}',
  '/organizers/by-slug/{slug}',
  '/categories',
  '/categories/{id}',
  '/tags',
  '/tags/{id}',
  '/changes',
  '/',
];

/** Documented response codes per path and operation (30 §3); collection posts follow the item posts. */
const RESPONSE_CODES: Record<string, Record<string, string[]>> = {
  '/doc': { get: ['200'] },
  '/': { get: ['200'] },
};
for (const resource of ['events', 'venues', 'organizers', 'categories', 'tags']) {
  const read = resource === 'categories' || resource === 'tags' ? ['200', '400', '404'] : ['200', '400', '403', '404'];
  const update = resource === 'organizers' ? ['201', '400', '403'] : ['200', '201', '400', '403'];
  const item = { get: read, post: update, delete: ['200', '400', '403', '410', '500'] };
  RESPONSE_CODES[`/${resource}`] = { get: ['200', '400', '404'], post: ['201', '400', '403'] };
  RESPONSE_CODES[`/${resource}/{id}`] = item;
  if (resource !== 'categories' && resource !== 'tags') RESPONSE_CODES[`/${resource}/by-slug/{slug}`] = item;
}

const SCHEMA_OF: Record<string, string> = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' };

for (const dialect of DIALECTS) {
  describe(`GET {ns}/doc: the document's shape (30 §3) [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let doc: any;
    before(async () => {
      t = await startTestApp(dialect);
      doc = (await t.request('GET', `${NS}/doc`)).body;
    });
    after(() => t.close());

    test('public, with the top-level keys in the reference order, its version strings and info', async () => {
      const res = await t.request('GET', `${NS}/doc`);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(doc), ['openapi', 'info', 'components', 'servers', 'paths', 'security']);
      assert.equal(doc.openapi, '3.0.0');
      assert.deepEqual(Object.keys(doc.info), ['version', 'title', 'description']);
      assert.equal(doc.info.version, '1.0.0');
      assert.equal(doc.info.title, 'Calendar Events REST API');
      // A signed-in caller gets the same document.
      assert.deepEqual((await t.request('GET', `${NS}/doc`, { as: 'subscriber' })).body, doc);
    });

    test('servers: the public origin, base and edition prefix, ending in /calendar/events/v1/', async () => {
      assert.deepEqual(doc.servers, [{ url: 'http://calendar.test/calendar/events/v1/' }]);
      const italian = await t.request('GET', `/it${NS}/doc`);
      assert.deepEqual(italian.body.servers, [{ url: 'http://calendar.test/it/calendar/events/v1/' }]);
    });

    test('paths: every route in the reference order, the namespace index last', () => {
      assert.deepEqual(Object.keys(doc.paths), PATHS);
    });

    test('operations: only get, post and delete, with the documented response codes; post also stands for PUT and PATCH', () => {
      for (const [path, operations] of Object.entries(RESPONSE_CODES)) {
        assert.deepEqual(Object.keys(doc.paths[path]).sort(), Object.keys(operations).sort(), path);
        for (const [verb, codes] of Object.entries(operations)) {
          assert.deepEqual(Object.keys(doc.paths[path][verb].responses), codes, `${verb} ${path}`);
        }
      }
      assert.deepEqual(doc.paths['/events/{id}'].post['x-calendar-methods'], ['POST', 'PUT', 'PATCH']);
      assert.deepEqual(doc.paths['/tags/{id}'].post['x-calendar-methods'], ['POST', 'PUT', 'PATCH']);
      assert.equal(doc.paths['/events'].post['x-calendar-methods'], undefined);
    });

    test('success responses carry the component schema: lists as the reference documents them, single records by reference', () => {
      for (const [resource, schema] of Object.entries(SCHEMA_OF)) {
        const ref = { $ref: `#/components/schemas/${schema}` };
        const list = doc.paths[`/${resource}`].get.responses['200'];
        assert.deepEqual(list.content['application/json'].schema, { title: resource, type: 'array', items: ref });
        assert.deepEqual(doc.paths[`/${resource}/{id}`].get.responses['200'].content['application/json'].schema, ref);
        assert.deepEqual(doc.paths[`/${resource}`].post.responses['201'].content['application/json'].schema, ref);
        assert.deepEqual(Object.keys(doc.paths[`/${resource}/{id}`].delete.responses['400']), ['description']);
      }
      assert.deepEqual(Object.keys(doc.paths['/doc'].get.responses['200']), ['description']);
    });

    test('parameter objects: in, schema, description, required, name; no default beside the schema; path ids required', () => {
      for (const item of Object.values<any>(doc.paths)) {
        for (const operation of Object.values<any>(item)) {
          for (const parameter of operation.parameters) {
            assert.deepEqual(Object.keys(parameter).slice(0, 5), ['in', 'schema', 'description', 'required', 'name'], parameter.name);
            assert.ok(!('default' in parameter), parameter.name);
            assert.ok(['query', 'path'].includes(parameter.in), parameter.name);
          }
        }
      }
      const id = doc.paths['/events/{id}'].get.parameters.find((parameter: any) => parameter.name === 'id');
      assert.deepEqual({ ...id, description: undefined }, { in: 'path', schema: { type: 'integer' }, description: undefined, required: true, name: 'id' });
      const slug = doc.paths['/venues/by-slug/{slug}'].get.parameters.find((parameter: any) => parameter.name === 'slug');
      assert.equal(slug.in, 'path');
      assert.equal(slug.required, true);
    });

    test('list parameters are arrays of integers sent comma-separated; defaults keep their declared JSON type', () => {
      const parameters = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map((parameter: any) => [parameter.name, parameter]));
      const categories = parameters('/categories');
      for (const name of ['include', 'exclude']) {
        assert.deepEqual(categories[name].schema, { type: 'array', items: { type: 'integer' } });
        assert.equal(categories[name].explode, false);
      }
      assert.deepEqual(categories.page.schema, { type: 'integer', default: 1 });
      assert.deepEqual(categories.per_page.schema, { type: 'integer', default: '10' });
      assert.deepEqual(categories.hide_empty.schema, { type: 'boolean', default: '1' });
      const events = parameters('/events');
      for (const name of ['include', 'venue', 'organizer']) assert.deepEqual(events[name].schema, { type: 'array', items: { type: 'integer' } });
      // The reference's `type: false` for untyped arguments is not OpenAPI: no type means any value.
      assert.deepEqual(parameters('/').namespace.schema, { default: 'calendar/events/v1' });
    });

    test('the fields of a post are a form-encoded (or JSON) request body, not the reference`s `in: body` parameters', () => {
      for (const [path, fields, required] of [
        ['/categories', ['name', 'description', 'slug', 'parent'], ['name']],
        ['/tags', ['name', 'description', 'slug'], ['name']],
        ['/categories/{id}', ['name', 'description', 'slug', 'parent'], undefined],
        ['/tags/{id}', ['name', 'description', 'slug'], undefined],
      ] as const) {
        const operation = doc.paths[path].post;
        assert.deepEqual(Object.keys(operation.requestBody.content), ['application/x-www-form-urlencoded', 'application/json'], path);
        const schema = operation.requestBody.content['application/x-www-form-urlencoded'].schema;
        assert.equal(schema.type, 'object');
        assert.deepEqual(Object.keys(schema.properties), fields, path);
        assert.deepEqual(schema.required, required, path);
        assert.deepEqual(Object.keys(schema.properties.name), ['description', 'type'], path);
        assert.deepEqual(operation.parameters.map((parameter: any) => parameter.name), path.endsWith('{id}') ? ['id'] : [], path);
      }
      const create = doc.paths['/events'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
      assert.deepEqual(create.required, ['title', 'start_date', 'end_date']);
    });

    test('extensions of this service are marked x-calendar-extension, reference parameters are not', () => {
      const parameter = (path: string, verb: string, name: string) => doc.paths[path][verb].parameters.find((p: any) => p.name === name);
      const bodyField = (path: string, name: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties[name];
      for (const path of ['/events/{id}', '/venues/{id}', '/organizers/by-slug/{slug}']) {
        assert.equal(parameter(path, 'delete', 'force')['x-calendar-extension'], true, path);
        assert.equal(bodyField(path, 'password')['x-calendar-extension'], true, path);
      }
      assert.equal(bodyField('/events', 'password')['x-calendar-extension'], true);
      assert.equal(parameter('/events', 'get', 'page')['x-calendar-extension'], undefined);
      assert.equal(bodyField('/events', 'title')['x-calendar-extension'], undefined);
    });

    test('component schemas: the reference`s eight in its order, describing the objects the service really returns', () => {
      const schemas = doc.components.schemas;
      assert.deepEqual(Object.keys(schemas).slice(0, 8), ['ImageSize', 'CostDetails', 'Term', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer']);
      for (const schema of Object.values<any>(schemas)) assert.equal(schema.type, 'object');
      assert.deepEqual(Object.keys(schemas.DateDetails.properties), ['year', 'month', 'day', 'hour', 'minutes', 'seconds']);
      // Zero-padded strings and an object of URLs, as returned (the reference documents integers and an array).
      assert.equal(schemas.DateDetails.properties.month.type, 'string');
      assert.equal(schemas.Term.properties.urls.type, 'object');
      // No trailing space in the key, as returned (the reference documents "currency_position ").
      assert.deepEqual(Object.keys(schemas.CostDetails.properties), ['currency_symbol', 'currency_code', 'currency_position', 'values']);
      assert.deepEqual(Object.keys(schemas.Term.properties), ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls', '_links']);
      const event = Object.keys(schemas.Event.properties);
      assert.deepEqual(event.slice(0, 5), ['id', 'global_id', 'global_id_lineage', 'author', 'status']);
      assert.deepEqual(event.slice(-8), ['categories', 'tags', 'venue', 'organizer', 'custom_fields', 'json_ld', 'submission', 'geo_distance']);
      assert.deepEqual(schemas.Event.properties.categories.items, { $ref: '#/components/schemas/EventTerm' });
      assert.equal(schemas.Venue.properties.venue.description, 'Venue name; an empty array while password-protected.');
      assert.ok('organizer' in schemas.Organizer.properties);
    });
  });

  describe(`GET {ns}/doc without a configured public origin [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_PUBLIC_URL: '', CALENDAR_BASE_PATH: '/api' } });
    });
    after(() => t.close());

    test('servers keeps the port of the request`s host, the base path and the edition prefix', async () => {
      const res = await t.request('GET', `/api/da${NS}/doc`, { headers: { host: 'calendar.example.org:8443' } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.servers, [{ url: 'http://calendar.example.org:8443/api/da/calendar/events/v1/' }]);
    });
  });
}
