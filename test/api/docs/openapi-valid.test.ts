import { Validator } from '@seriousme/openapi-schema-validator';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EDITION_PREFIXES, LANGUAGES } from '../../../src/i18n/catalog.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

for (const dialect of DIALECTS) {
  describe(`GET {ns}/doc is valid OpenAPI 3.0 in every edition [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    for (const lang of LANGUAGES) {
      test(`${lang}: the document validates against the OpenAPI 3.0 schema and every reference resolves`, async () => {
        const res = await t.request('GET', `${EDITION_PREFIXES[lang]}${NS}/doc`);
        assert.equal(res.status, 200);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const validator = new Validator();
        const result = await validator.validate(res.body);
        assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors, null, 1));
        assert.equal(result.valid, true);
        assert.equal(validator.version, '3.0');
        assert.doesNotThrow(() => validator.resolveRefs());
      });
    }

    // The schema cannot see that templated paths and path parameters match; OpenAPI requires it.
    test('every {variable} of a path has one required path parameter in each operation, and no other', async () => {
      const { body } = await t.request('GET', `${NS}/doc`);
      for (const [path, item] of Object.entries<Record<string, any>>(body.paths)) {
        const variables = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
        for (const [verb, operation] of Object.entries<any>(item)) {
          if (!OPERATION_KEYS.has(verb)) continue;
          const inPath = operation.parameters.filter((parameter: any) => parameter.in === 'path');
          assert.deepEqual(inPath.map((parameter: any) => parameter.name).sort(), variables, `${verb} ${path}`);
          for (const parameter of inPath) assert.equal(parameter.required, true, `${verb} ${path} ${parameter.name}`);
        }
      }
    });
  });
}
