import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adjustStatusForDate, defaultListStatuses, parseStatusFilter, scaleRequestedStatus } from '../../../src/domain/status.ts';

const author = { id: 1, role: 'author' as const };
const contributor = { id: 2, role: 'contributor' as const };
const subscriber = { id: 3, role: 'subscriber' as const };

describe('status rules (40 §7, §9)', () => {
  test('visitors and subscribers may only filter on exactly publish', () => {
    assert.deepEqual(parseStatusFilter('publish', null), ['publish']);
    for (const value of ['draft', 'Publish', 'publish,draft', '', 'any']) {
      assert.equal(parseStatusFilter(value, null), null, value);
      assert.equal(parseStatusFilter(value, subscriber), null, value);
    }
  });

  test('editor-capable callers give lists, arrays, any, or nothing', () => {
    assert.deepEqual(parseStatusFilter('draft, pending', contributor), ['draft', 'pending']);
    assert.deepEqual(parseStatusFilter(['trash'], author), ['trash']);
    assert.deepEqual(parseStatusFilter('any', author), ['publish', 'future', 'draft', 'pending', 'private']);
    assert.deepEqual(parseStatusFilter('', author), ['publish', 'future', 'draft', 'pending', 'private']);
    assert.equal(parseStatusFilter('draft,auto-draft', author), null);
    assert.equal(parseStatusFilter('inherit', author), null);
  });

  test('default list statuses by role', () => {
    assert.deepEqual(defaultListStatuses(null), ['publish']);
    assert.deepEqual(defaultListStatuses(contributor), ['publish', 'future', 'draft', 'pending', 'private']);
  });

  test('scale back: contributors cannot publish; absent status on update stays unchanged', () => {
    assert.equal(scaleRequestedStatus(undefined, author, true), 'publish');
    assert.equal(scaleRequestedStatus(undefined, contributor, true), 'draft');
    assert.equal(scaleRequestedStatus('publish', contributor, true), 'pending');
    assert.equal(scaleRequestedStatus('future', contributor, false), 'pending');
    assert.equal(scaleRequestedStatus('private', contributor, false), 'private');
    assert.equal(scaleRequestedStatus(undefined, author, false), undefined);
  });

  test('publish a minute ahead becomes future; future in the past becomes publish', () => {
    const now = '2025-04-01 10:00:00';
    assert.equal(adjustStatusForDate('publish', '2025-04-01 10:00:30', now), 'publish');
    assert.equal(adjustStatusForDate('publish', '2025-04-01 10:02:00', now), 'future');
    assert.equal(adjustStatusForDate('future', '2025-04-01 09:00:00', now), 'publish');
    assert.equal(adjustStatusForDate('future', '2025-05-01 09:00:00', now), 'future');
  });
});
