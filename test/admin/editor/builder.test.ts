import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  builderFromStored,
  composeRecurrence,
  composeRule,
  EMPTY_BUILDER,
  recurrenceDiffers,
  weekOfMonth,
  type BuilderFields,
} from '../../../src/domain/recurrence/builder.ts';
import { formatRule, parseRule } from '../../../src/domain/recurrence/rule.ts';
import { BUILDER_SHAPES } from './shapes.ts';

const fields = (over: Partial<BuilderFields>): BuilderFields => ({ ...EMPTY_BUILDER, ...over });

describe('recurrence builder (100 §8.3)', () => {
  for (const shape of BUILDER_SHAPES) {
    test(`composes ${shape.name}`, () => {
      assert.equal(composeRule(fields(shape.fields), shape.start), shape.rrule);
    });
  }

  test('none composes no recurrence; values go in unchecked', () => {
    assert.equal(composeRecurrence(fields({ pattern: 'none', rdates: '2026-12-24' }), '2026-12-01'), null);
    assert.equal(composeRule(fields({ pattern: 'daily', end: 'count', count: 'abc' }), '2026-12-01'), 'FREQ=DAILY;COUNT=abc');
  });

  test('extra and excluded dates become rdate/exdate, one per line', () => {
    const composed = composeRecurrence(fields({ pattern: 'weekly', rdates: '2026-12-24 19:30\r\n\n 2026-12-31 ', exdates: '2026-12-08' }), '2026-12-01');
    assert.deepEqual(composed, { rrule: 'FREQ=WEEKLY;BYDAY=TU', rdate: ['2026-12-24 19:30', '2026-12-31'], exdate: ['2026-12-08'] });
  });

  test('week of month: 1–4, the fifth is the last', () => {
    assert.deepEqual([1, 7, 8, 22, 28, 29, 31].map(weekOfMonth), [1, 1, 2, 4, 4, -1, -1]);
  });

  test('a stored rule of a builder shape reopens as that shape (UNTIL stored in UTC)', () => {
    const zone = 'Europe/Copenhagen';
    for (const shape of BUILDER_SHAPES.filter((item) => item.fields.pattern !== 'rrule')) {
      const stored = { rrule: formatRule(parseRule(shape.rrule), zone), rdate: ['2027-01-05 19:30:00'], exdate: ['2026-12-08'] };
      const reopened = builderFromStored(stored, zone, shape.start);
      assert.equal(reopened.pattern, shape.fields.pattern, shape.name);
      assert.equal(composeRule(reopened, shape.start), shape.rrule, shape.name);
      assert.equal(reopened.rdates, '2027-01-05 19:30');
      assert.equal(reopened.exdates, '2026-12-08');
      assert.equal(recurrenceDiffers(composeRecurrence(reopened, shape.start), stored, zone), false, shape.name);
    }
  });

  test('other rules reopen as the rrule pattern with the stored text', () => {
    for (const rrule of ['FREQ=WEEKLY', 'FREQ=MONTHLY;BYDAY=MO,TU', 'FREQ=DAILY;BYHOUR=9,18', 'FREQ=HOURLY;INTERVAL=6', 'FREQ=DAILY;UNTIL=20270101T100000Z']) {
      const reopened = builderFromStored({ rrule, rdate: [], exdate: [] }, 'UTC', '2026-12-01');
      assert.equal(reopened.pattern, 'rrule', rrule);
      assert.equal(reopened.rrule, rrule);
      assert.equal(recurrenceDiffers(composeRecurrence(reopened, '2026-12-01'), { rrule, rdate: [], exdate: [] }, 'UTC'), false);
    }
    assert.deepEqual(builderFromStored(null, 'UTC', '2026-12-01'), EMPTY_BUILDER);
  });

  test('differs: a changed rule, date list, or removal', () => {
    const stored = { rrule: 'FREQ=DAILY;COUNT=5', rdate: [], exdate: ['2026-12-03'] };
    assert.equal(recurrenceDiffers({ rrule: 'FREQ=DAILY;COUNT=6', exdate: ['2026-12-03'] }, stored, 'UTC'), true);
    assert.equal(recurrenceDiffers({ rrule: 'FREQ=DAILY;COUNT=5' }, stored, 'UTC'), true);
    assert.equal(recurrenceDiffers(null, stored, 'UTC'), true);
    assert.equal(recurrenceDiffers(null, null, 'UTC'), false);
    assert.equal(recurrenceDiffers({ rrule: 'FREQ=DAILY' }, null, 'UTC'), true);
  });
});
