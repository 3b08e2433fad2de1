import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EDITION_PREFIXES, LANGUAGES, translate } from '../../../src/i18n/catalog.ts';
import { formatWall } from '../../../src/domain/dates/datetime-format.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';

/**
 * 80 §2: `modified_after` / `modified_before` and `orderby=modified|date` on the event, venue and
 * organizer lists. Modification and publication times are set in the database so that the
 * second boundaries are exact.
 */
const T0 = '2030-01-01 10:00:00';
const T1 = '2030-01-01 10:00:01';
const T2 = '2030-01-01 10:00:02';

type Table = 'events' | 'venues' | 'organizers';
type Listed = { id: number };

for (const dialect of DIALECTS) {
  describe(`modified filters and ordering (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    /** The app's clock runs with the real one, shifted by this much (to let relative bounds move). */
    let shift = 0;
    /** Published A (past), B (far future), C (next week): modified at T0, T1, T1; D draft and H hidden at T2. */
    const ev: Record<'A' | 'B' | 'C' | 'D' | 'H', number> = { A: 0, B: 0, C: 0, D: 0, H: 0 };
    /** Per linked kind: published P, Q, R modified at T0, T1, T1 and a draft S at T2. */
    const linked: Record<'venues' | 'organizers', Record<'P' | 'Q' | 'R' | 'S', number>> = {
      venues: { P: 0, Q: 0, R: 0, S: 0 },
      organizers: { P: 0, Q: 0, R: 0, S: 0 },
    };

    const stamp = async (table: Table, id: number, modified: string, published: string) => {
      await t.storage.db
        .updateTable(table)
        .set({ modified_utc: modified, modified_local: modified, date_utc: published, date_local: published })
        .where('id', '=', id)
        .execute();
    };
    const list = async (path: string, as: Caller = 'visitor') => {
      const res = await t.request('GET', `${NS}${path}`, { as });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      return res;
    };
    const ids = async (path: string, as: Caller = 'visitor') => {
      const res = await list(path, as);
      const key = path.slice(1).split('?')[0] as Table;
      return (res.body[key] as Listed[]).map((item) => item.id);
    };

    before(async () => {
      t = await startTestApp(dialect, { clock: () => new Date(Date.now() + shift) });
      const nextWeek = formatWall(new Date(Date.now() + 7 * 86_400_000)).slice(0, 10);
      const event = async (title: string, day: string, extra: Record<string, unknown> = {}) => {
        const res = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title, start_date: `${day} 10:00`, end_date: `${day} 11:00`, status: 'publish', ...extra } });
        assert.equal(res.status, 201, res.text);
        return res.body.id as number;
      };
      ev.A = await event('A', '2001-05-01');
      ev.B = await event('B', '2040-05-01');
      ev.C = await event('C', nextWeek);
      ev.D = await event('D', nextWeek, { status: 'draft' });
      ev.H = await event('H', nextWeek, { hide_from_listings: true });
      // Publication dates: B earliest, then C, then A.
      await stamp('events', ev.A, T0, '2025-03-01 00:00:00');
      await stamp('events', ev.B, T1, '2025-01-01 00:00:00');
      await stamp('events', ev.C, T1, '2025-02-01 00:00:00');
      await stamp('events', ev.D, T2, '2025-02-01 00:00:00');
      await stamp('events', ev.H, T2, '2025-02-01 00:00:00');
      for (const kind of ['venues', 'organizers'] as const) {
        const field = kind === 'venues' ? 'venue' : 'organizer';
        for (const [name, status] of [['P', 'publish'], ['Q', 'publish'], ['R', 'publish'], ['S', 'draft']] as const) {
          const res = await t.request('POST', `${NS}/${kind}`, { as: 'editor', body: { [field]: `${field} ${name}`, status } });
          assert.equal(res.status, 201, res.text);
          linked[kind][name] = res.body.id;
        }
        const { P, Q, R, S } = linked[kind];
        await stamp(kind, P, T0, '2025-03-01 00:00:00');
        await stamp(kind, Q, T1, '2025-01-01 00:00:00');
        await stamp(kind, R, T1, '2025-02-01 00:00:00');
        await stamp(kind, S, T2, '2025-02-01 00:00:00');
      }
    });
    after(() => t?.close());

    it('events: modified_after is inclusive, modified_before exclusive, at second resolution; offsets and timestamps are instants', async () => {
      const { A, B, C } = ev;
      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      const unix = Date.UTC(2030, 0, 1, 10, 0, 1) / 1000;
      for (const after of ['2030-01-01 10:00:01', '2030-01-01T10:00:01Z', '2030-01-01T12:00:01+02:00', String(unix)]) {
        assert.deepEqual(sorted(await ids(`/events?modified_after=${encodeURIComponent(after)}`)), [B, C], after);
      }
      assert.deepEqual(await ids('/events?modified_after=2030-01-01%2010:00:02'), []);
      assert.deepEqual(await ids('/events?modified_before=2030-01-01%2010:00:01'), [A]);
      assert.deepEqual(await ids('/events?modified_before=2030-01-01T11:00:01%2B01:00'), [A]);
      assert.deepEqual(sorted(await ids('/events?modified_after=2030-01-01%2010:00:00&modified_before=2030-01-01%2010:00:02')), [A, B, C]);
      // after > before: empty, not an error.
      const empty = await list('/events?modified_after=2030-01-02&modified_before=2030-01-01');
      assert.deepEqual(empty.body.events, []);
      assert.equal(empty.body.total, 0);
    });

    it('events: either bound drops the default date window; explicit date bounds still apply', async () => {
      const { A, B, C } = ev;
      assert.deepEqual(await ids('/events'), [C], 'without a modified bound only the default window');
      assert.deepEqual(await ids('/events?modified_after=1970-01-01'), [A, C, B]);
      assert.deepEqual(await ids('/events?modified_before=2099-01-01'), [A, C, B]);
      assert.deepEqual(await ids('/events?modified_after=1970-01-01&start_date=2030-01-01'), [B]);
      assert.deepEqual(await ids('/events?modified_after=1970-01-01&end_date=2030-01-01'), [A, C]);
    });

    it('events: orderby=modified and orderby=date, ties by id, order=desc reverses all; unknown values ignored', async () => {
      const { A, B, C } = ev;
      const all = '/events?modified_after=1970-01-01';
      assert.deepEqual(await ids(`${all}&orderby=modified`), [A, B, C]);
      assert.deepEqual(await ids(`${all}&orderby=modified&order=desc`), [C, B, A]);
      assert.deepEqual(await ids(`${all}&orderby=MODIFIED&order=DESC`), [C, B, A]);
      assert.deepEqual(await ids(`${all}&orderby=date`), [B, C, A]);
      assert.deepEqual(await ids(`${all}&orderby=date&order=desc`), [A, C, B]);
      assert.deepEqual(await ids(`${all}&orderby=nonsense&order=sideways`), [A, C, B]);
      assert.deepEqual(await ids(`${all}&orderby=start&order=desc`), [B, C, A]);
    });

    it('events: pages count and link with every parameter kept', async () => {
      const { A, B, C } = ev;
      const first = await list('/events?modified_after=1970-01-01&modified_before=2099-01-01&orderby=modified&order=asc&per_page=2');
      assert.deepEqual(first.body.events.map((e: Listed) => e.id), [A, B]);
      assert.equal(first.body.total, 3);
      assert.equal(first.body.total_pages, 2);
      assert.equal(first.headers['x-tec-total'], '3');
      assert.equal(first.headers['x-tec-totalpages'], '2');
      const next = new URL(first.body.next_rest_url);
      for (const [name, value] of [['modified_after', '1970-01-01'], ['modified_before', '2099-01-01'], ['orderby', 'modified'], ['order', 'asc'], ['page', '2']]) {
        assert.equal(next.searchParams.get(name), value, name);
      }
      assert.equal(next.searchParams.get('start_date'), null, 'no default window in the links either');
      const second = await list(`${next.pathname.replace(/^.*\/calendar\/events\/v1/, '')}${next.search}`);
      assert.deepEqual(second.body.events.map((e: Listed) => e.id), [C]);
      const previous = new URL(second.body.previous_rest_url);
      assert.equal(previous.searchParams.get('orderby'), 'modified');
      assert.equal(previous.searchParams.get('modified_after'), '1970-01-01');
    });

    it('events: role visibility is unchanged (a visitor never gets drafts; hidden events are never listed)', async () => {
      const { A, B, C, D } = ev;
      for (const as of ['visitor', 'subscriber'] as const) {
        assert.deepEqual(await ids('/events?modified_after=2030-01-01%2010:00:02', as), [], as);
      }
      assert.deepEqual(await ids('/events?modified_after=2030-01-01%2010:00:02&status=any', 'editor'), [D]);
      assert.deepEqual(await ids('/events?modified_after=1970-01-01&orderby=modified&status=any', 'editor'), [A, B, C, D]);
      assert.equal((await t.request('GET', `${NS}/events?modified_after=1970-01-01&status=draft`)).status, 400);
    });

    it('the sync recipe (§3.6): modified_after=1970-01-01 over all pages lists everything the caller may see', async () => {
      const everything = async (kind: Table, as: Caller, status = '') => {
        const seen: number[] = [];
        let url: string | undefined = `${NS}/${kind}?modified_after=1970-01-01&per_page=1${status}`;
        while (url !== undefined) {
          const res: { status: number; text: string; body: Record<string, any> } = await t.request('GET', url, { as });
          assert.equal(res.status, 200, res.text);
          seen.push(...(res.body[kind] as Listed[]).map((item) => item.id));
          url = res.body.next_rest_url === undefined ? undefined : new URL(res.body.next_rest_url).pathname + new URL(res.body.next_rest_url).search;
        }
        return seen.sort((a, b) => a - b);
      };
      assert.deepEqual(await everything('events', 'visitor'), [ev.A, ev.B, ev.C]);
      assert.deepEqual(await everything('events', 'editor', '&status=any'), [ev.A, ev.B, ev.C, ev.D]);
      for (const kind of ['venues', 'organizers'] as const) {
        const { P, Q, R, S } = linked[kind];
        assert.deepEqual(await everything(kind, 'visitor'), [P, Q, R], kind);
        assert.deepEqual(await everything(kind, 'editor', '&status=any'), [P, Q, R, S], kind);
      }
    });

    for (const kind of ['venues', 'organizers'] as const) {
      it(`${kind}: bounds, orderby=modified|date with id ties, the reference default kept, links keep the parameters`, async () => {
        const { P, Q, R, S } = linked[kind];
        assert.deepEqual(await ids(`/${kind}?modified_after=2030-01-01T10:00:01Z`), [R, Q], 'default order: newest publication first');
        assert.deepEqual(await ids(`/${kind}?modified_after=${Date.UTC(2030, 0, 1, 10, 0, 1) / 1000}&orderby=modified`), [Q, R]);
        assert.deepEqual(await ids(`/${kind}?modified_before=2030-01-01T11:00:01%2B01:00`), [P]);
        assert.deepEqual(await ids(`/${kind}?modified_after=2030-01-01%2010:00:02`), [], 'a visitor never gets the draft');
        assert.deepEqual(await ids(`/${kind}?modified_after=2030-01-01%2010:00:02&status=any`, 'editor'), [S]);
        assert.deepEqual(await ids(`/${kind}?orderby=modified`), [P, Q, R]);
        assert.deepEqual(await ids(`/${kind}?orderby=modified&order=desc`), [R, Q, P]);
        assert.deepEqual(await ids(`/${kind}?orderby=date`), [Q, R, P]);
        assert.deepEqual(await ids(`/${kind}?order=asc`), [Q, R, P], 'order alone: by date');
        assert.deepEqual(await ids(`/${kind}?order=desc`), [P, R, Q]);
        assert.deepEqual(await ids(`/${kind}`), [P, R, Q], 'neither: the reference default');
        assert.deepEqual(await ids(`/${kind}?orderby=start`), [P, R, Q], 'start is the events\' key: ignored');
        const page = await list(`/${kind}?modified_after=1970-01-01&orderby=modified&order=desc&per_page=2`);
        assert.deepEqual(page.body[kind].map((item: Listed) => item.id), [R, Q]);
        assert.equal(page.body.total, 3);
        assert.equal(page.body.total_pages, 2);
        const next = new URL(page.body.next_rest_url);
        for (const [name, value] of [['modified_after', '1970-01-01'], ['orderby', 'modified'], ['order', 'desc'], ['page', '2']]) {
          assert.equal(next.searchParams.get(name), value, name);
        }
        assert.deepEqual((await list(`/${kind}${next.search}`)).body[kind].map((item: Listed) => item.id), [P]);
      });
    }

    it('a relative bound is an instant of each request: the read cache does not keep it past its time', async () => {
      const res = await t.request('PATCH', `${NS}/venues/${linked.venues.P}`, { as: 'editor', body: { venue: 'venue P renamed' } });
      assert.equal(res.status, 200, res.text);
      // Q and R carry the 2030 stamps of the fixture: the upper bound leaves them out.
      const recent = '/venues?modified_after=-1%20hour&modified_before=2029-01-01';
      assert.deepEqual(await ids(recent), [linked.venues.P]);
      assert.deepEqual(await ids('/venues?modified_after=%2B1%20hour&modified_before=2029-01-01'), []);
      // Two hours later, with nothing written meanwhile, the same query no longer matches P.
      shift = 2 * 3_600_000;
      try {
        assert.deepEqual(await ids(recent), []);
      } finally {
        shift = 0;
      }
    });

    it('unparsable bounds: 400 rest_invalid_param with a translated reason, in every edition', async () => {
      for (const kind of ['events', 'venues', 'organizers'] as const) {
        for (const name of ['modified_after', 'modified_before']) {
          for (const lang of LANGUAGES) {
            const res = await t.request('GET', `${EDITION_PREFIXES[lang]}${NS}/${kind}?${name}=not-a-date`);
            assert.equal(res.status, 400, `${lang} ${kind} ${name}`);
            assert.equal(res.body.code, 'rest_invalid_param');
            assert.equal(res.body.data.details[name].code, 'rest_invalid_date');
            assert.equal(res.body.data.details[name].message, translate(lang, 'reason_date'));
            if (lang !== 'en') assert.notEqual(res.body.data.details[name].message, translate('en', 'reason_date'));
          }
        }
      }
    });
  });
}
