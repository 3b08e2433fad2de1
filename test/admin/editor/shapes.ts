import type { BuilderFields } from '../../../src/domain/recurrence/builder.ts';

/** Every shape of 100 §8.3 with the RRULE it composes from its start date (2026-12-29 is a fifth Tuesday). */
export const BUILDER_SHAPES: Array<{ name: string; fields: Partial<BuilderFields>; start: string; rrule: string }> = [
  { name: 'daily', fields: { pattern: 'daily' }, start: '2026-12-01', rrule: 'FREQ=DAILY' },
  { name: 'daily every 3 days, 5 times', fields: { pattern: 'daily', interval: '3', end: 'count', count: '5' }, start: '2026-12-01', rrule: 'FREQ=DAILY;INTERVAL=3;COUNT=5' },
  { name: 'weekly, none checked', fields: { pattern: 'weekly' }, start: '2026-12-01', rrule: 'FREQ=WEEKLY;BYDAY=TU' },
  { name: 'weekly on days', fields: { pattern: 'weekly', weekdays: ['FR', 'MO', 'WE'] }, start: '2026-12-01', rrule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR' },
  { name: 'fortnightly until', fields: { pattern: 'weekly', interval: '2', weekdays: ['TU'], end: 'until', until: '2027-03-31' }, start: '2026-12-01', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20270331' },
  { name: 'monthly by day', fields: { pattern: 'monthly' }, start: '2026-12-15', rrule: 'FREQ=MONTHLY;BYMONTHDAY=15' },
  { name: 'monthly by weekday', fields: { pattern: 'monthly', monthly: 'weekday' }, start: '2026-12-15', rrule: 'FREQ=MONTHLY;BYDAY=3TU' },
  { name: 'monthly, fifth weekday → last', fields: { pattern: 'monthly', monthly: 'weekday', end: 'count', count: '6' }, start: '2026-12-29', rrule: 'FREQ=MONTHLY;BYDAY=-1TU;COUNT=6' },
  { name: 'yearly', fields: { pattern: 'yearly', end: 'count', count: '3' }, start: '2026-12-01', rrule: 'FREQ=YEARLY;COUNT=3' },
  { name: 'rrule as typed', fields: { pattern: 'rrule', rrule: ' FREQ=WEEKLY;BYDAY=SA;BYSETPOS=1 ', interval: '9' }, start: '2026-12-01', rrule: 'FREQ=WEEKLY;BYDAY=SA;BYSETPOS=1' },
];
