import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseQueryString } from '../../../src/http/plugins/body-parsers.ts';
import { coerceArg, parseList } from '../../../src/args/coerce.ts';

describe('PHP-style query strings and list parameters', () => {
  test('a[]=1&a[]=2, a[0]=1 and a=1,2 all give a list', () => {
    assert.deepEqual(parseQueryString('a[]=1&a[]=2').a, ['1', '2']);
    assert.deepEqual(parseQueryString('a[0]=1&a[1]=3').a, ['1', '3']);
    assert.deepEqual(parseList(parseQueryString('a=1,2').a), ['1', '2']);
    assert.deepEqual(parseList('1, 2 ,3'), ['1', '2', '3']);
  });

  test('nested keys build objects; a repeated plain name keeps its last value', () => {
    assert.deepEqual(parseQueryString('venue[venue]=Teatro&venue[city]=Pisa').venue, { venue: 'Teatro', city: 'Pisa' });
    assert.equal(parseQueryString('page=1&page=3').page, '3');
  });

  test('prototype keys are not applied', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&constructor[prototype][x]=1');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(parsed, '__proto__'), false);
  });

  test('typed coercion follows the reference', () => {
    assert.deepEqual(coerceArg('page', '3', { type: 'integer', description: '' }), { ok: true, value: 3 });
    assert.equal(coerceArg('page', '1.5', { type: 'integer', description: '' }).ok, false);
    assert.equal(coerceArg('page', 'abc', { type: 'integer', description: '' }).ok, false);
    for (const [raw, value] of [['true', true], ['FALSE', false], ['1', true], ['0', false], [true, true], [0, false]] as const) {
      assert.deepEqual(coerceArg('flag', raw, { type: 'boolean', description: '' }), { ok: true, value });
    }
    assert.equal(coerceArg('flag', 'yes', { type: 'boolean', description: '' }).ok, false);
    assert.equal(coerceArg('title', 12, { type: 'string', description: '' }).ok, false);
    assert.deepEqual(coerceArg('ids', '4,5', { type: 'array', items: { type: 'integer' }, description: '' }), { ok: true, value: [4, 5] });
    assert.equal(coerceArg('ids', ['4', 'x'], { type: 'array', items: { type: 'integer' }, description: '' }).ok, false);
    assert.equal(coerceArg('ids', '1,2,3', { type: 'array', items: { type: 'integer' }, maxItems: 2, description: '' }).ok, false);
    const many = Array.from({ length: 101 }, (_, i) => String(i + 1));
    assert.equal(coerceArg('ids', many, { type: 'array', items: { type: 'integer' }, description: '' }).ok, false);
    assert.equal(coerceArg('ids', many.slice(0, 100), { type: 'array', items: { type: 'integer' }, description: '' }).ok, true);
  });
});
