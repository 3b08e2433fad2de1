import { readFileSync } from 'node:fs';
import type { TestApp, Caller } from '../../helpers/test-app.ts';

export const IMPORTS = '/calendar/admin/v1/imports';

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../../fixtures/ical/${name}`, import.meta.url));
}

/** POSTs a file as a text/calendar body; the JSON answer and status. */
export async function importBytes(t: TestApp, bytes: Buffer | string, query = '', as: Caller = 'administrator'): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'text/calendar' };
  if (as !== 'visitor') headers.authorization = t.authHeader(t.users[as]);
  const response = await t.app.inject({ method: 'POST', url: `${IMPORTS}${query}`, headers, payload: bytes });
  return { status: response.statusCode, body: JSON.parse(response.body) };
}

/** Rows of every content table, to show that a rejected file wrote nothing. */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['events', 'venues', 'organizers', 'terms', 'event_terms', 'event_organizers', 'media', 'ical_imports'] as const) {
    const row = await t.storage.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
