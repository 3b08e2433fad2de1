import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeSlugLookup, slugify, uniqueSlugCandidates } from '../../../src/domain/text/slug.ts';

describe('slugify', () => {
  it('gives the spec examples', () => {
    assert.equal(slugify('Jazz &amp; Blues'), 'jazz-blues');
    assert.equal(slugify('Spring Concert'), 'spring-concert');
    assert.equal(slugify('Zürich Café'), 'zurich-cafe');
  });

  it('removes accents like WordPress remove_accents', () => {
    assert.equal(slugify('Crème Brûlée à Noël'), 'creme-brulee-a-noel');
    assert.equal(slugify('Ærø Øresund'), 'aero-oresund');
    assert.equal(slugify('Straße'), 'strasse');
    assert.equal(slugify('Łódź Œuvre'), 'lodz-oeuvre');
    assert.equal(slugify('Việt Nam Ǖ'), 'viet-nam-u');
    assert.equal(slugify('Ș Ț ſ ª'), 's-t-s-a');
  });

  it('composes decomposed accents before removing them', () => {
    assert.equal(slugify('Cafe\u0301'), 'cafe');
  });

  it('percent-encodes other scripts in lower-case hex, keeping their diacritics', () => {
    assert.equal(slugify('Привет мир'), '%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82-%d0%bc%d0%b8%d1%80');
    assert.equal(slugify('й'), '%d0%b9');
    assert.equal(slugify('東京'), '%e6%9d%b1%e4%ba%ac');
  });

  it('strips tags and drops HTML entities', () => {
    assert.equal(slugify('<b>Bold</b> <em>move</em>'), 'bold-move');
    assert.equal(slugify('Tea &eacute; cake &#8217;s'), 'tea-cake-s');
  });

  it('drops punctuation inside words and turns spaces into single hyphens', () => {
    assert.equal(slugify("Rock'n'Roll!  (Live)"), 'rocknroll-live');
    assert.equal(slugify('A, B & C?'), 'a-b-c');
  });

  it('turns dots, slashes, dashes and wide spaces into hyphens', () => {
    assert.equal(slugify('v1.2/beta'), 'v1-2-beta');
    assert.equal(slugify('Jazz – Blues — Soul'), 'jazz-blues-soul');
    assert.equal(slugify('a\u00a0b\u2009c'), 'a-b-c');
    assert.equal(slugify('a&nbsp;b&ndash;c'), 'a-b-c');
  });

  it('removes quotes, symbols and invisible characters entirely', () => {
    assert.equal(slugify('“Quoted” ‘words’ «x» ©®™…'), 'quoted-words-x');
    assert.equal(slugify('zero\u200bwidth\u00adsoft'), 'zerowidthsoft');
  });

  it('writes the multiplication sign as x', () => {
    assert.equal(slugify('4 × 4'), '4-x-4');
  });

  it('keeps underscores and typed percent octets, drops other percent signs', () => {
    assert.equal(slugify('snake_case'), 'snake_case');
    assert.equal(slugify('100% fun'), '100-fun');
    assert.equal(slugify('a%C3%A9b'), 'a%c3%a9b');
  });

  it('lower-cases and trims hyphens', () => {
    assert.equal(slugify('  --Hello World--  '), 'hello-world');
    assert.equal(slugify('!!!'), '');
  });

  it('cuts at maxLength without splitting a character, then trims hyphens', () => {
    assert.equal(slugify('a'.repeat(250), 200), 'a'.repeat(200));
    assert.equal(slugify('abcd efgh', 5), 'abcd');
    assert.equal(slugify('ab東', 6), 'ab');
    assert.equal(slugify('ab東', 11), 'ab%e6%9d%b1');
  });
});

describe('normalizeSlugLookup', () => {
  it('decodes the path segment and normalises it like a stored slug', () => {
    assert.equal(normalizeSlugLookup('Z%C3%BCrich-Caf%C3%A9'), 'zurich-cafe');
    assert.equal(normalizeSlugLookup('SPRING-Concert'), 'spring-concert');
    assert.equal(normalizeSlugLookup('%D0%9F%D1%80'), '%d0%bf%d1%80');
  });

  it('accepts already-decoded segments and trashed slugs', () => {
    assert.equal(normalizeSlugLookup('Zürich'), 'zurich');
    assert.equal(normalizeSlugLookup('acme__trashed'), 'acme__trashed');
  });

  it('keeps a segment whose percent sign is not an escape', () => {
    assert.equal(normalizeSlugLookup('100%'), '100');
  });
});

describe('uniqueSlugCandidates', () => {
  it('yields base, base-2, base-3, …', () => {
    const candidates = uniqueSlugCandidates('concert');
    assert.deepEqual([1, 2, 3, 4].map(() => candidates.next().value), ['concert', 'concert-2', 'concert-3', 'concert-4']);
  });

  it('shortens the base so that each candidate fits maxLength', () => {
    const candidates = uniqueSlugCandidates('abcdef', 6);
    assert.deepEqual([1, 2].map(() => candidates.next().value), ['abcdef', 'abcd-2']);
    const hyphenated = uniqueSlugCandidates('abc-defg', 6);
    hyphenated.next();
    assert.equal(hyphenated.next().value, 'abc-2');
  });
});
