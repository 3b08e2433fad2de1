import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';

const NOW = new Date('2026-04-10T10:00:00Z');
const PER_DAY = 30;
/** June 2026's grid, Monday first: Monday 1 June to Sunday 5 July. */
const GRID_DAYS = 35;
const JUNE_DAYS = 30;
const LIMIT = 200 * 1024;

const pad = (n: number) => String(n).padStart(2, '0');
const wall = (millis: number) => new Date(millis).toISOString().slice(0, 16).replace('T', ' ');

/**
 * Issue 45: a phone can load a busy month. 30 events a day on every day of the grid, each with a
 * venue, an organizer, two categories, two tags and a cost, like the bench's: 29 start and end
 * that day, one runs past midnight (a multi-day event, listed in both cells). The size depends on
 * the renderer only, so one database is enough.
 */
describe('the month page at 30 events a day [sqlite]', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite', { clock: () => NOW, env: { CALENDAR_TIMEZONE: 'UTC' } });
    const create = async (path: string, body: object) => {
      const res = await t.request('POST', `${NS}${path}`, { as: 'administrator', body });
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    const venues: number[] = [];
    const organizers: number[] = [];
    const terms: number[] = [];
    for (let n = 1; n <= 10; n++) {
      venues.push(await create('/venues', { venue: `Venue ${n}`, address: `${n} Main Street`, city: 'Aarhus', zip: '8000', country: 'Denmark' }));
      organizers.push(await create('/organizers', { organizer: `Organizer ${n}`, email: `organizer${n}@example.org`, phone: '+45 12 34 56 78' }));
    }
    for (let n = 1; n <= 4; n++) terms.push(await create('/categories', { name: `Category ${n}` }));
    const tags = ['music', 'family', 'outdoor', 'free'];
    let i = 0;
    for (let day = 0; day < GRID_DAYS; day++) {
      const midnight = Date.UTC(2026, 5, 1 + day);
      for (let k = 0; k < PER_DAY; k++, i++) {
        const begins = k < PER_DAY - 1 ? midnight + (8 * 60 + k * 20) * 60_000 : midnight + (22 * 60 + 30) * 60_000;
        await create('/events', {
          title: `Evening number ${i}`, status: 'publish', start_date: wall(begins), end_date: wall(begins + 2 * 3_600_000),
          description: `<p>An evening of music, number ${i}, with a <strong>short</strong> description.</p>`, cost: i % 3 === 0 ? '0' : `${10 + (i % 20)}`,
          venue: venues[i % venues.length], organizer: [organizers[(i * 3) % organizers.length]],
          categories: [terms[i % 4], terms[(i + 1) % 4]], tags: [tags[i % 4], tags[(i + 2) % 4]],
        });
      }
    }
  });
  after(() => t.close());

  test(`stays within ${LIMIT / 1024} KB, listing three timed events a day, the multi-day ones and "+ N More"`, async () => {
    const res = await t.request('GET', '/events/2026-06/');
    assert.equal(res.status, 200);
    const bytes = Buffer.byteLength(res.text);
    assert.ok(bytes <= LIMIT, `the month page is ${bytes} bytes`);
    // It is the busy page: every day 29 timed events, three listed, the other 26 behind "+ 26 More".
    for (let day = 0; day < GRID_DAYS; day++) {
      const date = new Date(Date.UTC(2026, 5, 1 + day));
      const iso = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
      assert.match(res.text, new RegExp(`<a href="/events/${iso}/" aria-label="\\+ 26 more events on [^"]+">\\+ 26 More</a>`), iso);
    }
    // What June's days list is described, each once: three a day and each day's midnight-crossing
    // event; the July days of the grid are described by July's page.
    const described = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(res.text)![1]) as Array<{ name: string; startDate: string }>;
    assert.equal(described.length, JUNE_DAYS * 3 + JUNE_DAYS);
    assert.equal(new Set(described.map((event) => event.name)).size, described.length);
    assert.ok(described.every((event) => event.startDate.startsWith('2026-06-')), "only June's events");
    assert.match(res.text, /<a href="\/event\/evening-number-900\/">/, 'the grid still lists July 1');
  });
});
