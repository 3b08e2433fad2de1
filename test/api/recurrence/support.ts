import assert from 'node:assert/strict';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import type { Caller, TestApp } from '../../helpers/test-app.ts';
import { EVENTS } from '../events/fixtures.ts';

export { clock, EVENTS, NOW } from '../events/fixtures.ts';

/** Creates a series through the API; answers the master. */
export async function createSeries(t: TestApp, body: Record<string, unknown>, as: Role = 'editor'): Promise<any> {
  const res = await t.request('POST', EVENTS, { as, body: { title: 'Series', ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Every occurrence of a master in a wide window, in list order. */
export async function occurrencesOf(t: TestApp, masterId: number, as: Caller = 'editor', extra = ''): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request('GET', `${EVENTS}?post_parent=${masterId}&start_date=2000-01-01&end_date=2099-12-31&per_page=50&page=${page}${extra}`, { as });
    if (res.status === 404) return out;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...res.body.events);
    if (page >= res.body.total_pages) return out;
  }
}

/** The `details.recurrence.code` of a 400. */
export function recurrenceCode(res: { status: number; body: any }, param = 'recurrence'): string {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'rest_invalid_param');
  return res.body.data.details[param]?.code;
}
