import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveStateProvince } from '../../../src/domain/text/stateprovince.ts';

describe('deriveStateProvince', () => {
  it('stores a non-empty stateprovince as given', () => {
    assert.equal(deriveStateProvince({ stateprovince: 'Île-de-France', state: 'NY', province: 'Quebec', country: 'US' }), 'Île-de-France');
  });

  it('uses the state when the country is empty, "US" or "United States"', () => {
    assert.equal(deriveStateProvince({ state: 'NY' }), 'NY');
    assert.equal(deriveStateProvince({ state: 'NY', country: '' }), 'NY');
    assert.equal(deriveStateProvince({ state: 'NY', country: 'US', province: 'Ontario' }), 'NY');
    assert.equal(deriveStateProvince({ state: 'NY', country: 'United States' }), 'NY');
  });

  it('uses the province otherwise', () => {
    assert.equal(deriveStateProvince({ state: 'Bavaria', province: 'Ontario', country: 'Canada' }), 'Ontario');
    assert.equal(deriveStateProvince({ stateprovince: '', state: '', province: 'Ontario', country: 'US' }), 'Ontario');
  });

  it('gives "" (clearing it) when nothing applies', () => {
    assert.equal(deriveStateProvince({ state: 'Bavaria', country: 'Germany' }), '');
    assert.equal(deriveStateProvince({}), '');
    assert.equal(deriveStateProvince({ stateprovince: null, state: null, province: null, country: null }), '');
  });
});
