import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { duplicateFormValues, eventFormValues, eventParams, readEventForm, type ApiEvent } from '../../../src/http/admin/event-form.ts';
import { emptyEventForm } from '../../../src/web/admin/event-form-values.ts';
import { removalUnconfirmed } from '../../../src/http/admin/recurrence-form.ts';

/** FormFields over urlencoded pairs, as the router parses a POST. */
export function formOf(pairs: Array<[string, string]>) {
  const search = new URLSearchParams(pairs);
  return {
    get: (name: string) => search.get(name) ?? undefined,
    all: (name: string) => search.getAll(name),
    has: (name: string) => search.has(name),
    entries: () => [...search.entries()],
  };
}

const apiEvent: ApiEvent = {
  id: 7,
  title: 'Jazz night',
  description: '<p>Bring friends</p>',
  excerpt: '',
  status: 'publish',
  date: '2026-11-20 09:15:00',
  start_date: '2026-12-01 19:30:00',
  end_date: '2026-12-01 22:00:00',
  all_day: false,
  timezone: 'Europe/Copenhagen',
  venue: { id: 3 },
  organizer: [{ id: 4 }, { id: 5 }],
  categories: [{ id: 9 }],
  tags: [{ name: 'jazz' }, { name: 'live music' }],
  cost: '120 kr',
  website: 'https://example.org/jazz',
  featured: true,
  sticky: false,
  hide_from_listings: false,
  password: 'secret',
  image: { id: 11 },
  recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=8', rdate: [], exdate: ['2026-12-08'] },
};

describe('event form ⇄ API parameters (100 §8.1–§8.2)', () => {
  test('a create sends only non-empty fields, with the §8.2 defaults', () => {
    const values = readEventForm(formOf([
      ['title', 'Jazz'], ['start_date', '2026-12-01'], ['start_time', ''], ['end_date', ''], ['end_time', ''],
      ['timezone', 'UTC'], ['venue', ''], ['tags', ' a, ,b '], ['status', 'draft'], ['recurrence_pattern', 'none'], ['recurrence_interval', '1'],
    ]));
    assert.deepEqual(eventParams(values, { create: true, action: 'save' }), {
      title: 'Jazz', start_date: '2026-12-01 00:00', end_date: '2026-12-01 00:00', timezone: 'UTC', tags: ['a', 'b'], status: 'draft',
    });
  });

  test('empty end time takes the start time; all-day ignores times; publish asks for publish', () => {
    const values = readEventForm(formOf([['title', 'x'], ['start_date', '2026-12-01'], ['start_time', '19:30'], ['end_date', '2026-12-02'], ['action', 'publish'], ['status', 'draft']]));
    const params = eventParams(values, { create: true, action: 'publish' });
    assert.equal(params.end_date, '2026-12-02 19:30');
    assert.equal(params.status, 'publish');
    const allDay = readEventForm(formOf([['start_date', '2026-12-01'], ['start_time', '19:30'], ['all_day', '1']]));
    assert.deepEqual([eventParams(allDay, { create: true, action: 'save' }).start_date, eventParams(allDay, { create: true, action: 'save' }).all_day], ['2026-12-01 00:00', true]);
  });

  test('venue=new sends the new venue; other values ignore it; organizer_new is appended', () => {
    const pairs: Array<[string, string]> = [['venue_new[venue]', 'Hall'], ['venue_new[city]', 'Aarhus'], ['organizer[]', '4'], ['organizer_new[organizer]', 'Club'], ['organizer_new[email]', '']];
    const made = eventParams(readEventForm(formOf([['venue', 'new'], ...pairs])), { create: true, action: 'save' });
    assert.deepEqual(made.venue, { venue: 'Hall', city: 'Aarhus' });
    assert.deepEqual(made.organizer, [4, { organizer: 'Club' }]);
    assert.equal(eventParams(readEventForm(formOf([['venue', '3'], ...pairs])), { create: true, action: 'save' }).venue, 3);
  });

  test('reopen shows every stored value; a save sends every shown field, the rule only when changed', () => {
    const values = eventFormValues(apiEvent, { revision: '"e7-1"' });
    assert.equal(values.start_time, '19:30');
    assert.equal(values.venue, '3');
    assert.deepEqual(values.organizer, ['4', '5']);
    assert.equal(values.tags, 'jazz, live music');
    assert.equal(values.image, '11');
    assert.equal(values.recurrence.pattern, 'weekly');
    assert.equal(values.recurrence.count, '8');
    assert.equal(values.recurrence.exdates, '2026-12-08');
    const kind = { create: false, action: 'save', storedRecurrence: apiEvent.recurrence };
    const params = eventParams(values, kind);
    assert.equal('recurrence' in params, false);
    assert.deepEqual(params, {
      start_date: '2026-12-01 19:30', end_date: '2026-12-01 22:00', title: 'Jazz night', description: '<p>Bring friends</p>', excerpt: '',
      timezone: 'Europe/Copenhagen', cost: '120 kr', website: 'https://example.org/jazz', password: 'secret',
      all_day: false, featured: true, sticky: false, hide_from_listings: false,
      venue: 3, organizer: [4, 5], categories: [9], tags: ['jazz', 'live music'], status: 'publish', date: '2026-11-20 09:15', image: 11,
    });
    const emptied = eventParams({ ...values, venue: '', organizer: [], categories: [], tags: '', image: '', recurrence: { ...values.recurrence, count: '9' } }, kind);
    assert.deepEqual([emptied.venue, emptied.organizer, emptied.categories, emptied.tags, emptied.image], ['', '', '', '', '']);
    assert.deepEqual(emptied.recurrence, { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=9', exdate: ['2026-12-08'] });
  });

  test('removing a series needs the confirmation, then sends an empty recurrence', () => {
    const values = { ...eventFormValues(apiEvent, { revision: '' }) };
    values.recurrence = { ...values.recurrence, pattern: 'none' };
    const kind = { create: false, action: 'save', storedRecurrence: apiEvent.recurrence };
    assert.equal(removalUnconfirmed(values, kind), true);
    assert.equal(removalUnconfirmed({ ...values, recurrence_remove_confirm: true }, kind), false);
    assert.equal(eventParams({ ...values, recurrence_remove_confirm: true }, kind).recurrence, '');
  });

  test('a duplicate is a draft without revision or publication date; an occurrence loses the rule', () => {
    const copy = duplicateFormValues(apiEvent);
    assert.deepEqual({ ...copy, status: 'publish', revision: '"x"', publish_date: '2026-11-20', publish_time: '09:15' }, eventFormValues(apiEvent, { revision: '"x"' }));
    assert.equal(copy.status, 'draft');
    const occurrence = duplicateFormValues({ ...apiEvent, recurrence: undefined, post_parent: 6 });
    assert.equal(occurrence.recurrence.pattern, 'none');
    assert.equal(emptyEventForm('UTC').status, 'draft');
  });
});
