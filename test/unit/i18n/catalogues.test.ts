import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { catalogues, LANGUAGES, translate } from '../../../src/i18n/catalog.ts';

describe('message catalogues', () => {
  const english = Object.keys(catalogues.en).sort();
  for (const lang of LANGUAGES) {
    test(`${lang} defines exactly the English keys, each non-empty and with the same placeholders`, () => {
      assert.deepEqual(Object.keys(catalogues[lang]).sort(), english);
      for (const key of english) {
        const text = catalogues[lang][key as keyof typeof catalogues.en];
        assert.ok(text.trim() !== '', `${lang}.${key} is empty`);
        const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
        assert.deepEqual(placeholders(text), placeholders(catalogues.en[key as keyof typeof catalogues.en]), `${lang}.${key}`);
      }
    });
  }
  test('translations are real: the editions differ from English', () => {
    for (const lang of ['da', 'it', 'es'] as const) {
      const same = english.filter((key) => catalogues[lang][key as keyof typeof catalogues.en] === catalogues.en[key as keyof typeof catalogues.en]);
      assert.deepEqual(same, [], `${lang} has untranslated keys`);
    }
  });
  test('placeholders are filled', () => {
    assert.equal(translate('es', 'rest-event-not-found', { id: 12 }), 'No existe ningún evento con el ID 12.');
  });
});
