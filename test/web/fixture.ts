import type { DialectName } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Today is Friday 2026-04-10 in the site zone (Copenhagen); the calendar shows April and May. */
export const NOW = new Date('2026-04-10T10:00:00Z');
export const SITE_ZONE = 'Europe/Copenhagen';

export interface PageFixture {
  t: TestApp;
  ids: Record<string, number>;
  slugs: Record<string, string>;
  venueSlug: string;
  organizerSlug: string;
}

/**
 * The fixture of 55 §15, small: events over two months in three zones, all-day, multi-day,
 * zero-length, featured, sticky, hidden, draft, private, protected; a venue with an address, an
 * organizer with an e-mail, a parent and child category, a tag, a day with five timed events.
 */
export async function startPageFixture(dialect: DialectName, env: Record<string, string> = {}): Promise<PageFixture> {
  const t = await startTestApp(dialect, { clock: () => NOW, env: { CALENDAR_TIMEZONE: SITE_ZONE, CALENDAR_SITE_NAME: 'Town Calendar', ...env } });
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', `${NS}${path}`, { as: 'administrator', body });
    if (res.status !== 201) throw new Error(`fixture ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const venue = await post('/venues', { venue: 'Harbour Hall', address: 'Kajgade 1', city: 'Aarhus', zip: '8000', country: 'Denmark', phone: '+45 1234 5678', show_map_link: true });
  const organizer = await post('/organizers', { organizer: 'Jazz Club', email: 'info@jazz.example', website: 'https://jazz.example' });
  const music = await post('/categories', { name: 'Music' });
  await post('/categories', { name: 'Jazz', parent: music.id });
  await post('/tags', { name: 'Outdoor' });

  const ids: Record<string, number> = {};
  const slugs: Record<string, string> = {};
  const event = async (key: string, body: Record<string, unknown>) => {
    const created = await post('/events', { status: 'publish', ...body });
    ids[key] = created.id;
    slugs[key] = created.slug;
  };
  await event('concert', {
    title: 'Opening Concert', start_date: '2026-04-12 19:30', end_date: '2026-04-12 22:00', venue: venue.id, organizer: [organizer.id],
    categories: 'jazz', tags: 'outdoor', featured: true, cost: '10', website: 'https://concert.example/tickets',
    description: '<p>An evening of <strong>jazz</strong> by the harbour.</p>',
  });
  await event('past', { title: 'Past Lecture', start_date: '2026-04-02 18:00', end_date: '2026-04-02 20:00', categories: 'music' });
  await event('midnight', { title: 'Zero Length Mark', start_date: '2026-04-14 12:00', end_date: '2026-04-14 12:00' });
  await event('newyork', { title: 'New York Call', start_date: '2026-04-15 09:00', end_date: '2026-04-15 10:00', timezone: 'America/New_York' });
  await event('tokyo', { title: 'Tokyo Session', start_date: '2026-04-16 18:00', end_date: '2026-04-16 19:00', timezone: 'Asia/Tokyo' });
  await event('fair', { title: 'Book Fair', start_date: '2026-04-18 10:00', end_date: '2026-04-21 18:00', venue: venue.id });
  for (const [n, time] of [[1, '09:00'], [2, '09:15'], [3, '10:00'], [4, '13:30'], [5, '18:00']] as const) {
    await event(`busy${n}`, { title: `Busy Day Talk ${n}`, start_date: `2026-04-20 ${time}`, end_date: `2026-04-20 ${time.replace(/^\d\d/, (h) => String(Number(h) + 1).padStart(2, '0'))}`, sticky: n === 5 });
  }
  await event('market', { title: 'Spring Market', all_day: true, start_date: '2026-04-25', end_date: '2026-04-25', tags: 'outdoor' });
  await event('secret', { title: 'Secret Tasting', start_date: '2026-04-26 17:00', end_date: '2026-04-26 19:00', password: 'letmein', description: '<p>Secret description</p>', venue: venue.id });
  await event('hidden', { title: 'Hidden Rehearsal', start_date: '2026-04-22 10:00', end_date: '2026-04-22 11:00', hide_from_listings: true });
  await event('draft', { title: 'Draft Plan', start_date: '2026-04-23 10:00', end_date: '2026-04-23 11:00', status: 'draft' });
  await event('private', { title: 'Private Board Meeting', start_date: '2026-04-24 10:00', end_date: '2026-04-24 11:00', status: 'private' });
  for (const day of [5, 12, 19]) {
    await event(`may${day}`, { title: `May Workshop ${day}`, start_date: `2026-05-${String(day).padStart(2, '0')} 14:00`, end_date: `2026-05-${String(day).padStart(2, '0')} 16:00`, categories: 'jazz' });
  }
  return { t, ids, slugs, venueSlug: venue.slug, organizerSlug: organizer.slug };
}

/** Visible upcoming events on 2026-04-10 (not hidden, draft, private or past). */
export const UPCOMING_COUNT = 15;

/** The four editions' prefixes (55 §11). */
export const EDITIONS = ['', '/da', '/it', '/es'];

/** A view's featured, category and tag variants: the path part, and the API filter selecting the same events. */
export const VARIANTS: Array<[string, string]> = [
  ['', ''],
  ['featured/', '&featured=1'],
  ['category/music/', '&categories=music'],
  ['tag/outdoor/', '&tags=outdoor'],
];

/** `/events/{term/}{suffix}`, with `featured/` after the view's suffix as the view selector writes it. */
export function variantPath(edition: string, variant: string, suffix: string): string {
  return variant === 'featured/' ? `${edition}/events/${suffix}featured/` : `${edition}/events/${variant}${suffix}`;
}

/** Statements a repeat of `path` runs once a first request has cached the page (55 §13: none). */
export async function repeatQueries(t: TestApp, path: string): Promise<number> {
  await t.request('GET', path);
  const before = await t.queryCount();
  await t.request('GET', path);
  return (await t.queryCount()) - before;
}
