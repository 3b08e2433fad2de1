import assert from 'node:assert/strict';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { NS, type Caller, type TestApp } from '../../helpers/test-app.ts';

/** The instant every events suite runs at (a Tuesday). */
export const NOW = new Date('2025-04-01T10:00:00Z');
export const clock = () => NOW;

export const EVENTS = `${NS}/events`;

let sequence = 0;

/** A valid create body inside the default list window; `overrides` win. */
export function eventBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence++;
  return { title: `Event ${sequence}`, start_date: '2025-04-12 19:30:00', end_date: '2025-04-12 22:00:00', ...overrides };
}

/** Creates an event through the API and returns the created event object. */
export async function createEvent(t: TestApp, as: Role, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('POST', EVENTS, { as, body: eventBody(overrides) });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Creates an event as `owner` (a user of the app) with the given status through an administrator. */
export async function eventOf(t: TestApp, owner: { id: number }, status: string, overrides: Record<string, unknown> = {}): Promise<any> {
  return createEvent(t, 'administrator', { author: owner.id, status, ...overrides });
}

export async function list(t: TestApp, query = '', as: Caller = 'visitor'): Promise<any> {
  const res = await t.request('GET', `${EVENTS}${query}`, { as });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export async function listedIds(t: TestApp, query = '', as: Caller = 'visitor'): Promise<number[]> {
  return (await list(t, query, as)).events.map((event: { id: number }) => event.id);
}

/** The parameters a `rest_invalid_param` error names. */
export function invalidParams(res: { status: number; body: any }): string[] {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'rest_invalid_param', JSON.stringify(res.body));
  return Object.keys(res.body.data.params).sort();
}
