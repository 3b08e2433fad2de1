import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeLike, eventSearchTerms, venueSearchPieces } from '../../../src/domain/text/search.ts';

describe('eventSearchTerms', () => {
  it('splits into words that must all match', () => {
    assert.deepEqual(eventSearchTerms('jazz  blues'), { include: ['jazz', 'blues'], exclude: [] });
  });

  it('also splits on commas, plus signs and tabs', () => {
    assert.deepEqual(eventSearchTerms('jazz,blues+soul\tfunk'), { include: ['jazz', 'blues', 'soul', 'funk'], exclude: [] });
  });

  it('keeps double-quoted phrases together, an unclosed quote runs to the end', () => {
    assert.deepEqual(eventSearchTerms('"jazz club" night'), { include: ['jazz club', 'night'], exclude: [] });
    assert.deepEqual(eventSearchTerms('night "jazz club'), { include: ['night', 'jazz club'], exclude: [] });
  });

  it('keeps the spaces inside a phrase', () => {
    assert.deepEqual(eventSearchTerms('" jazz "'), { include: [' jazz '], exclude: [] });
  });

  it('excludes terms with a leading "-", phrases included', () => {
    assert.deepEqual(eventSearchTerms('jazz -rock'), { include: ['jazz'], exclude: ['rock'] });
    assert.deepEqual(eventSearchTerms('jazz "-hard rock"'), { include: ['jazz'], exclude: ['hard rock'] });
  });

  it('drops single letters and single dashes but keeps single digits', () => {
    assert.deepEqual(eventSearchTerms('a jazz - 5'), { include: ['jazz', '5'], exclude: [] });
  });

  it('drops stop words whatever their case', () => {
    assert.deepEqual(eventSearchTerms('The Jazz of THE night at www'), { include: ['Jazz', 'night'], exclude: [] });
  });

  it('searches the whole string when only stop words and short words remain', () => {
    assert.deepEqual(eventSearchTerms('the a'), { include: ['the a'], exclude: [] });
  });

  it('searches the whole string when more than 9 words remain', () => {
    const nine = 'one two three four five six seven eight nine';
    assert.deepEqual(eventSearchTerms(nine).include, nine.split(' '));
    assert.deepEqual(eventSearchTerms(`${nine} ten`), { include: [`${nine} ten`], exclude: [] });
  });

  it('excludes the whole string when it falls back and starts with "-"', () => {
    assert.deepEqual(eventSearchTerms('-'), { include: [], exclude: [''] });
  });

  it('removes line breaks first', () => {
    assert.deepEqual(eventSearchTerms('jazz\r\nclub'), { include: ['jazzclub'], exclude: [] });
  });

  it('gives no terms for an empty search', () => {
    assert.deepEqual(eventSearchTerms(''), { include: [], exclude: [] });
  });
});

describe('venueSearchPieces', () => {
  it('splits on everything but ASCII letters, digits and "-"', () => {
    assert.deepEqual(venueSearchPieces('france, ile de'), ['france', 'ile', 'de']);
    assert.deepEqual(venueSearchPieces('Zürich'), ['Z', 'rich']);
    assert.deepEqual(venueSearchPieces('Saint-Denis 93200'), ['Saint-Denis', '93200']);
  });

  it('gives [] when nothing searchable is left', () => {
    assert.deepEqual(venueSearchPieces('!!! ???'), []);
    assert.deepEqual(venueSearchPieces('東京'), []);
  });
});

describe('escapeLike', () => {
  it('escapes %, _ and the escape character itself', () => {
    assert.equal(escapeLike('50%_off\\now'), '50\\%\\_off\\\\now');
  });

  it('leaves other text alone', () => {
    assert.equal(escapeLike("O'Brien"), "O'Brien");
  });
});
