import { datePart, eventFormCore, timePart } from '../../domain/events/event-form-core.ts';
import type { ShownRecurrence } from '../../domain/recurrence/builder.ts';
import { builderFromStored } from '../../domain/recurrence/builder.ts';
import { emptyVenue, VENUE_DRAFT_FIELDS, type EventFormValues, type VenueDraft } from '../../web/admin/event-form-values.ts';
import type { FormFields } from './admin-request.ts';
import { readBuilderFields, recurrenceParam } from './recurrence-form.ts';

/** The values a POSTed editor form carries (checkboxes not sent = unchecked). */
export function readEventForm(form: Pick<FormFields, 'get' | 'all' | 'has'>): EventFormValues {
  const text = (name: string) => form.get(name) ?? '';
  const flag = (name: string) => form.get(name) === '1';
  return {
    title: text('title'),
    description: text('description'),
    excerpt: text('excerpt'),
    start_date: text('start_date').trim(),
    start_time: text('start_time').trim(),
    end_date: text('end_date').trim(),
    end_time: text('end_time').trim(),
    all_day: flag('all_day'),
    timezone: text('timezone'),
    venue: text('venue'),
    venue_new: Object.fromEntries(VENUE_DRAFT_FIELDS.map((name) => [name, text(`venue_new[${name}]`)])) as VenueDraft,
    organizer: form.all('organizer[]'),
    organizer_new: { organizer: text('organizer_new[organizer]'), email: text('organizer_new[email]') },
    categories: form.all('categories[]'),
    tags: text('tags'),
    cost: text('cost'),
    website: text('website'),
    featured: flag('featured'),
    sticky: flag('sticky'),
    hide_from_listings: flag('hide_from_listings'),
    status: text('status'),
    publish_date: text('publish_date').trim(),
    publish_time: text('publish_time').trim(),
    password: text('password'),
    image: text('image').trim(),
    recurrence: readBuilderFields(form),
    recurrence_remove_confirm: flag('recurrence_remove_confirm'),
    scope: text('scope') || 'this',
    revision: text('revision'),
  };
}

/** The parts of the API's event object (10 §3, 60 §5) the form shows. */
export interface ApiEvent {
  id: number;
  title: string;
  description: string;
  excerpt: string;
  status: string;
  date: string;
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
  venue: { id: number } | unknown[];
  organizer: Array<{ id: number }>;
  categories: Array<{ id: number }>;
  tags: Array<{ name: string }>;
  cost: string;
  website: string;
  featured: boolean;
  sticky: boolean;
  hide_from_listings: boolean;
  password?: string;
  image: { id: number } | false;
  recurrence?: ShownRecurrence;
  post_parent?: number;
}

/**
 * The form values of a stored event, as the API shows it to its editor (`context=edit`):
 * `series` is the recurrence of the event's series (its own on a master, the master's on an
 * occurrence), `revision` its ETag.
 */
export function eventFormValues(event: ApiEvent, options: { series?: ShownRecurrence | null; revision: string }): EventFormValues {
  const series = options.series ?? event.recurrence ?? null;
  return {
    ...eventFormCore(event),
    excerpt: event.excerpt,
    venue: Array.isArray(event.venue) ? '' : String((event.venue as { id: number }).id),
    venue_new: emptyVenue(),
    organizer: event.organizer.map((organizer) => String(organizer.id)),
    organizer_new: { organizer: '', email: '' },
    categories: event.categories.map((category) => String(category.id)),
    tags: event.tags.map((tag) => tag.name).join(', '),
    cost: event.cost,
    website: event.website,
    featured: event.featured,
    sticky: event.sticky,
    hide_from_listings: event.hide_from_listings,
    status: event.status,
    publish_date: datePart(event.date),
    publish_time: timePart(event.date),
    password: event.password ?? '',
    image: event.image === false ? '' : String(event.image.id),
    recurrence: builderFromStored(series, event.timezone, datePart(event.start_date)),
    recurrence_remove_confirm: false,
    scope: 'this',
    revision: options.revision,
  };
}

/**
 * The new-event form pre-filled from an event (100 §8.6): every field of it, `draft`, no
 * revision, no publication date; an occurrence keeps its own dates without the series' rule.
 */
export function duplicateFormValues(event: ApiEvent): EventFormValues {
  const values = eventFormValues(event, { series: event.post_parent ? null : undefined, revision: '' });
  return { ...values, status: 'draft', publish_date: '', publish_time: '' };
}

/** Which request the form sends: a create, or a save of a stored event (100 §8.2). */
export interface RequestKind {
  create: boolean;
  /** The button: `publish` asks for `status=publish` (the API scales it, 40 §9). */
  action: string;
  /** Saves: the stored series' recurrence, to send `recurrence` only when the composed rule differs. */
  storedRecurrence?: ShownRecurrence | null;
  /** Saves of an occurrence send `scope`. */
  occurrence?: boolean;
  /** The zone an empty `timezone` stands for, to compare rules in (UNTIL is stored in UTC). */
  siteZone?: string;
}

const wall = (date: string, time: string) => `${date} ${time || '00:00'}`;
const id = (value: string): number | string => (/^\d+$/.test(value) ? Number(value) : value);
const nonEmpty = (object: Record<string, string>) => Object.fromEntries(Object.entries(object).filter(([, value]) => value.trim() !== ''));

/**
 * The API parameters of a form (100 §8.2): times default to 00:00, an empty end to the start;
 * a create sends only what is filled in, a save every field the form shows (empty clears).
 */
export function eventParams(values: EventFormValues, kind: RequestKind): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const startTime = values.all_day ? '' : values.start_time;
  const endTime = values.all_day ? '' : values.end_time || values.start_time;
  if (values.start_date !== '') params.start_date = wall(values.start_date, startTime);
  if (values.start_date !== '' || values.end_date !== '') params.end_date = wall(values.end_date || values.start_date, endTime);
  const texts = { title: values.title, description: values.description, excerpt: values.excerpt, timezone: values.timezone, cost: values.cost, website: values.website, password: values.password };
  for (const [name, value] of Object.entries(texts)) {
    if (!kind.create || value !== '') params[name] = value;
  }
  for (const name of ['all_day', 'featured', 'sticky', 'hide_from_listings'] as const) {
    if (!kind.create || values[name]) params[name] = values[name];
  }
  if (values.venue === 'new') params.venue = nonEmpty(values.venue_new);
  else if (!kind.create || values.venue !== '') params.venue = values.venue === '' ? '' : id(values.venue);
  const organizers: unknown[] = values.organizer.map(id);
  if (values.organizer_new.organizer.trim() !== '') organizers.push(nonEmpty(values.organizer_new));
  if (organizers.length > 0) params.organizer = organizers;
  else if (!kind.create) params.organizer = '';
  if (values.categories.length > 0) params.categories = values.categories.map(id);
  else if (!kind.create) params.categories = '';
  const tags = values.tags.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');
  if (tags.length > 0) params.tags = tags;
  else if (!kind.create) params.tags = '';
  const status = kind.action === 'publish' ? 'publish' : values.status;
  if (status !== '') params.status = status;
  if (values.publish_date !== '') params.date = wall(values.publish_date, values.publish_time);
  if (!kind.create || values.image !== '') params.image = values.image === '' ? '' : id(values.image);
  const recurrence = recurrenceParam(values, kind);
  if (recurrence !== undefined) params.recurrence = recurrence;
  if (kind.occurrence) params.scope = values.scope || 'this';
  return params;
}
