import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { boundedRuleStarts, expandSeries, ruleIsEmpty, wallToUtc } from './oracle/naive-expander.ts';
import { drawnSeries, seriesDrawArb } from './oracle/series-generator.ts';
import { EVENTS, occurrencesOf } from './support.ts';

/**
 * 60 §4 against an independent oracle (docs/recurrence-oracle.md): random series through the
 * API, each compared with a naive day-by-day RFC 5545 expansion — starts, ends and their UTC
 * instants, and the master's `occurrences.count`. A failure prints the series and fast-check's
 * seed and path; RECURRENCE_SEED (and RECURRENCE_PATH) replay it.
 */
const RUNS = Number(process.env.RECURRENCE_RUNS ?? 300);
// A pinned "now": horizon = now + 24 months + 7 days (60 §4.1).
const NOW = new Date('2026-10-01T12:00:00Z');
const HORIZON_END = '2028-10-08 23:59:59';
/** Bigger series test nothing more and cost materialised rows. */
const MAX_INSTANCES = 120;

const replay = process.env.RECURRENCE_SEED === undefined ? {} : { seed: Number(process.env.RECURRENCE_SEED), path: process.env.RECURRENCE_PATH };

const shown = (instances: Array<{ start: string; utcStart: string; end: string; utcEnd: string }>) => instances.map((i) => `${i.start} (${i.utcStart}Z) → ${i.end} (${i.utcEnd}Z)`);

for (const dialect of DIALECTS) {
  describe(`recurrence: occurrences equal an independent RFC 5545 expansion [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => NOW, env: { CALENDAR_RECURRENCE_HORIZON_MONTHS: '24', CALENDAR_RECURRENCE_MAX_OCCURRENCES: '1000' } });
    });
    after(() => t.close());

    test(`${RUNS} random series`, async () => {
      await fc.assert(
        fc.asyncProperty(seriesDrawArb, async (draw) => {
          const { body, oracle } = drawnSeries(draw, HORIZON_END);
          const rule = oracle.rule!;
          const untilBeforeStart = rule.untilUtc !== undefined ? rule.untilUtc < wallToUtc(oracle.dtstart, oracle.zone) : rule.untilWall !== undefined && rule.untilWall < oracle.dtstart;
          const expanded = untilBeforeStart ? [] : expandSeries(oracle);
          fc.pre(expanded.length <= MAX_INSTANCES);
          // Only a rule with nothing besides DTSTART before the horizon can be empty: the century-long look is saved otherwise.
          const empty = !untilBeforeStart && oracle.rdate.length === 0 && boundedRuleStarts(oracle).length === 1 && ruleIsEmpty(oracle);
          const expected = empty ? [] : expanded;
          const res = await t.request('POST', EVENTS, { as: 'editor', body });
          const context = `series ${JSON.stringify(body)}`;
          if (untilBeforeStart || empty) {
            assert.equal(res.status, 400, `${context}: ${JSON.stringify(res.body)}`);
            assert.equal(res.body.data.details.recurrence.code, untilBeforeStart ? 'recurrence-invalid-rule' : 'recurrence-empty', context);
            return;
          }
          assert.equal(res.status, 201, `${context}: ${JSON.stringify(res.body)}`);
          const listed = (await occurrencesOf(t, res.body.id)).map((e) => ({ start: e.start_date, utcStart: e.utc_start_date, end: e.end_date, utcEnd: e.utc_end_date }));
          assert.deepEqual(shown(listed), shown(expected), context);
          assert.equal(res.body.occurrences.count, expected.length, `${context}: occurrences.count`);
        }),
        { numRuns: RUNS, includeErrorInReport: true, ...replay },
      );
    });
  });
}
