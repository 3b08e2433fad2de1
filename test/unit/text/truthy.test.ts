import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTruthy } from '../../../src/domain/text/truthy.ts';

describe('isTruthy', () => {
  it('accepts the listed words in any case', () => {
    for (const value of ['1', 'true', 'yes', 'y', 'on', 'enable', 'enabled', 'TRUE', 'Yes', 'Y', 'On', 'ENABLED']) {
      assert.equal(isTruthy(value), true, value);
    }
  });

  it('accepts JSON true and the number 1', () => {
    assert.equal(isTruthy(true), true);
    assert.equal(isTruthy(1), true);
  });

  it('rejects every other value', () => {
    for (const value of ['false', '0', '', 'no', 'off', 'disabled', 'yess', '2', false, 0, 2, null, undefined, [], {}, ['1']]) {
      assert.equal(isTruthy(value), false, JSON.stringify(value));
    }
  });
});
