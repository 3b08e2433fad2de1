import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { descriptionCatalogues, translateDescription } from '../../../src/i18n/descriptions/index.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { appNamespace, documentTexts, textsIn } from './support.ts';

const EDITIONS = Object.keys(descriptionCatalogues) as (keyof typeof descriptionCatalogues)[];

/**
 * Every description the registered routes and the component schemas use (parameters, body
 * fields, response fields and codes, summaries, info), and those of the admin document's
 * moderation route, has a translation in every edition. The texts do not depend on the database,
 * so one SQLite app is enough.
 */
describe('description catalogues (da, it, es) cover the documentation', () => {
  let t: TestApp;
  let texts: Set<string>;
  before(async () => {
    t = await startTestApp('sqlite');
    texts = documentTexts(appNamespace(t));
    // Of the admin document (100 §10), the moderation route is translated too (120 §8.2).
    const admin = (await t.request('GET', '/calendar/admin/v1/doc')).body;
    textsIn(admin.paths['/events/{id}/moderation'], texts);
  });
  after(() => t.close());

  for (const lang of EDITIONS) {
    test(`${lang} translates every text the document uses (the failure lists exactly the missing ones)`, () => {
      const missing = [...texts].filter((text) => !Object.hasOwn(descriptionCatalogues[lang], text));
      // One line per missing text, ready to complete in src/i18n/descriptions/<lang>.ts.
      assert.deepEqual(missing, [], `${lang} lacks ${missing.length} translations:\n${missing.map((text) => `  ${JSON.stringify(text)}: '',`).join('\n')}`);
    });

    test(`${lang} keeps no translation of a text that nothing uses any more`, () => {
      const unused = Object.keys(descriptionCatalogues[lang]).filter((text) => !texts.has(text));
      assert.deepEqual(unused, [], `${lang} translates texts nothing uses:\n${unused.map((text) => `  ${JSON.stringify(text)}`).join('\n')}`);
    });

    test(`${lang} translations are real: non-empty and not the English text`, () => {
      const untranslated = Object.entries(descriptionCatalogues[lang]).filter(([english, text]) => text.trim() === '' || text === english);
      assert.deepEqual(untranslated, []);
    });
  }

  test('each edition serves its language in the document and in the namespace index', async () => {
    for (const lang of EDITIONS) {
      const doc = (await t.request('GET', `/${lang}${NS}/doc`)).body;
      assert.equal(doc.info.title, translateDescription(lang, 'Calendar Events REST API'), lang);
      assert.notEqual(doc.info.title, 'Calendar Events REST API', lang);
      const parameter = doc.paths['/events'].get.parameters.find((candidate: any) => candidate.name === 'page');
      const english = (await t.request('GET', `${NS}/doc`)).body.paths['/events'].get.parameters.find((candidate: any) => candidate.name === 'page');
      assert.equal(parameter.description, translateDescription(lang, english.description), lang);
      assert.notEqual(parameter.description, english.description, lang);
      assert.equal(doc.components.schemas.Event.properties.title.description, translateDescription(lang, 'Event title.'), lang);

      const index = (await t.request('GET', `/${lang}${NS}`)).body;
      assert.equal(index.routes['/calendar/events/v1'].endpoints[0].args.namespace.description, translateDescription(lang, 'The namespace to describe.'), lang);
    }
  });
});
