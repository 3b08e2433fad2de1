import { DateTime } from 'luxon';
import type { MessageKey, MessageVars } from '../../i18n/catalog.ts';
import { eventFormCore, type EventFormCore, type StoredEventCore } from '../events/event-form-core.ts';
import { decodeEntities } from '../text/entities.ts';
import { isMailAddress } from './mail-address.ts';
import { countLinks, multiLine, singleLine } from './normalize.ts';

/** The fields of the submission form (120 §4), normalised as §4.1 says. */
export interface SubmissionForm extends EventFormCore {
  /** '' none, 'new', or a venue id. */
  venue: string;
  venue_new: { venue: string; address: string; city: string; country: string };
  organizer: string;
  organizer_new: { organizer: string; email: string; phone: string; website: string };
  categories: string[];
  website: string;
  cost: string;
  submitter_name: string;
  submitter_email: string;
  terms: boolean;
}

/** A refusal on one form field: a stable code and the catalogue message. */
export interface FieldReason {
  code: string;
  messageKey: MessageKey;
  vars?: MessageVars;
}
export type FieldReasons = Record<string, FieldReason>;

export const MAX_LINKS = 3;
export const MAX_CATEGORIES = 10;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const group = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** The form's fields out of a PHP-style parsed body; anything else sent is ignored. */
export function readSubmissionForm(body: unknown): SubmissionForm {
  const fields = group(body);
  const line = (value: unknown) => singleLine(text(value));
  const venue = group(fields.venue_new);
  const organizer = group(fields.organizer_new);
  const categories = Array.isArray(fields.categories) ? fields.categories : fields.categories === undefined ? [] : [fields.categories];
  return {
    title: line(fields.title),
    description: multiLine(text(fields.description)).trim(),
    start_date: line(fields.start_date),
    start_time: line(fields.start_time),
    end_date: line(fields.end_date),
    end_time: line(fields.end_time),
    all_day: text(fields.all_day) === '1',
    timezone: line(fields.timezone),
    venue: line(fields.venue),
    venue_new: { venue: line(venue.venue), address: line(venue.address), city: line(venue.city), country: line(venue.country) },
    organizer: line(fields.organizer),
    organizer_new: { organizer: line(organizer.organizer), email: line(organizer.email), phone: line(organizer.phone), website: line(organizer.website) },
    categories: categories.map((entry) => line(entry)).filter((entry) => entry !== ''),
    website: line(fields.website),
    cost: line(fields.cost),
    submitter_name: line(fields.submitter_name),
    submitter_email: line(fields.submitter_email),
    terms: text(fields.terms) === '1',
  };
}

const required: FieldReason = { code: 'rest_empty_value', messageKey: 'submit_reason_required' };
const tooLong = (max: number): FieldReason => ({ code: 'rest_too_large', messageKey: 'submit_reason_too_long', vars: { max } });
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface RuleContext {
  /** Visitors give an e-mail; members are their account. */
  member: boolean;
  termsRequired: boolean;
  now: Date;
  siteZone: string;
}

/** The wall-clock start and end the form names (end defaults to the start), or undefined when malformed. */
export function formSchedule(form: SubmissionForm): { start: string; end: string } | undefined {
  if (!DATE.test(form.start_date) || (form.end_date !== '' && !DATE.test(form.end_date))) return undefined;
  const endDate = form.end_date || form.start_date;
  if (form.all_day) return { start: `${form.start_date} 00:00:00`, end: `${endDate} 23:59:59` };
  if (!TIME.test(form.start_time) || (form.end_time !== '' && !TIME.test(form.end_time))) return undefined;
  return { start: `${form.start_date} ${form.start_time}:00`, end: `${endDate} ${form.end_time || form.start_time}:00` };
}

/**
 * 120 §4: the submission's own rules, judged before the API's validation of the mapped
 * parameters. Only what the API does not say (or says otherwise) is here.
 */
export function submissionReasons(form: SubmissionForm, rules: RuleContext): FieldReasons {
  const reasons: FieldReasons = {};
  const limit = (name: string, value: string, max: number) => {
    if (value.length > max) reasons[name] = tooLong(max);
  };
  if (form.title === '') reasons.title = required;
  limit('title', form.title, 200);
  limit('description', form.description, 10_000);
  limit('website', form.website, 2000);
  limit('cost', form.cost, 100);
  limit('submitter_name', form.submitter_name, 100);
  if (form.start_date === '') reasons.start_date = required;
  if (!form.all_day && form.start_time === '') reasons.start_time = required;
  if (form.venue === 'new') {
    if (form.venue_new.venue === '') reasons['venue_new[venue]'] = required;
    for (const [name, value] of Object.entries(form.venue_new)) limit(`venue_new[${name}]`, value, 200);
  }
  if (form.organizer === 'new') {
    if (form.organizer_new.organizer === '') reasons['organizer_new[organizer]'] = required;
    if (form.organizer_new.email !== '' && !isMailAddress(form.organizer_new.email)) reasons['organizer_new[email]'] = { code: 'invalid_email', messageKey: 'submit_reason_email' };
    for (const [name, value] of Object.entries(form.organizer_new)) limit(`organizer_new[${name}]`, value, 200);
  }
  if (form.categories.length > MAX_CATEGORIES) reasons['categories[]'] = { code: 'rest_too_large', messageKey: 'submit_reason_too_many', vars: { max: MAX_CATEGORIES } };
  else if (form.categories.some((entry) => !/^[1-9]\d{0,9}$/.test(entry))) reasons['categories[]'] = { code: 'rest_unknown_terms', messageKey: 'submit_reason_unknown_terms' };
  if (!rules.member) {
    if (form.submitter_email === '') reasons.submitter_email = required;
    else if (!isMailAddress(form.submitter_email)) reasons.submitter_email = { code: 'invalid_email', messageKey: 'submit_reason_email' };
  }
  if (rules.termsRequired && !form.terms) reasons.terms = { code: 'submission-terms-required', messageKey: 'submission-terms-required' };
  const linked = [form.title, form.description, form.cost, form.venue_new.venue, form.venue_new.address, form.venue_new.city, form.venue_new.country, form.organizer_new.organizer, form.organizer_new.email, form.organizer_new.phone];
  if (countLinks(linked.join(' ')) > MAX_LINKS) reasons.description = { code: 'submission-too-many-links', messageKey: 'submission-too-many-links' };
  const schedule = formSchedule(form);
  if (schedule !== undefined && reasons.start_date === undefined && reasons.start_time === undefined) {
    if (schedule.end < schedule.start) reasons[form.all_day || form.end_date !== form.start_date ? 'end_date' : 'end_time'] = { code: 'submission-end-before-start', messageKey: 'submission-end-before-start' };
    else {
      const zone = form.timezone || rules.siteZone;
      const end = DateTime.fromFormat(schedule.end, 'yyyy-MM-dd HH:mm:ss', { zone });
      if (end.isValid && end.toMillis() < rules.now.getTime()) reasons[form.end_date ? 'end_date' : 'start_date'] = { code: 'submission-event-ended', messageKey: 'submission-event-ended' };
    }
  }
  return reasons;
}

/**
 * The API parameters of 10 §6 the form stands for: what `POST {ns}/events` would receive. The
 * status is the setting's; venue and organizer objects carry it too, so nothing is public before review.
 */
export function createParameters(form: SubmissionForm, status: 'pending' | 'draft'): Record<string, unknown> {
  const schedule = formSchedule(form);
  const params: Record<string, unknown> = {
    title: form.title,
    description: form.description,
    status,
    all_day: form.all_day,
    start_date: schedule?.start ?? form.start_date,
    end_date: schedule?.end ?? (form.end_date || form.start_date),
  };
  if (form.timezone !== '') params.timezone = form.timezone;
  if (form.website !== '') params.website = form.website;
  if (form.cost !== '') params.cost = form.cost;
  if (form.venue === 'new') params.venue = { ...nonEmpty(form.venue_new), status };
  else if (form.venue !== '') params.venue = form.venue;
  if (form.organizer === 'new') params.organizer = [{ ...nonEmpty(form.organizer_new), status }];
  else if (form.organizer !== '') params.organizer = [form.organizer];
  if (form.categories.length > 0) params.categories = form.categories;
  return params;
}

/**
 * A save of a member's edit form (120 §9): the same parameters without `status` (it stays as it
 * is), and every optional field sent, so that emptying one clears it.
 */
export function updateParameters(form: SubmissionForm, status: 'pending' | 'draft'): Record<string, unknown> {
  const { status: _kept, ...params } = createParameters(form, status);
  return { website: '', cost: '', venue: '', organizer: '', categories: '', ...params };
}

/** The API's event object (`context=edit`) as the parts the submission form shows. */
export interface StoredSubmissionEvent extends StoredEventCore {
  venue: { id: number } | unknown[];
  organizer: Array<{ id: number }>;
  categories: Array<{ id: number }>;
  website: string;
  cost: string;
  /** The public page, which `website` reads as while none is stored. */
  url: string;
}

/** The edit form pre-filled from the stored event: its venue and (first) organizer chosen by id. */
export function submissionFormOf(event: StoredSubmissionEvent): SubmissionForm {
  return {
    ...readSubmissionForm({}),
    ...eventFormCore(event),
    venue: Array.isArray(event.venue) ? '' : String((event.venue as { id: number }).id),
    organizer: event.organizer.length > 0 ? String(event.organizer[0].id) : '',
    categories: event.categories.map((category) => String(category.id)),
    // The API reads `website` HTML-escaped: the input shows (and a save sends back) the address itself.
    website: event.website === event.url ? '' : decodeEntities(event.website),
    cost: event.cost,
  };
}

function nonEmpty(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
}

/** The form field an API parameter's refusal lands on (§4.1: every refusal lands on a field). */
export function fieldOfParameter(parameter: string, form: SubmissionForm): string {
  if (parameter === 'venue' && form.venue === 'new') return 'venue_new[venue]';
  if (parameter === 'organizer' && form.organizer === 'new') return 'organizer_new[organizer]';
  if (parameter === 'categories') return 'categories[]';
  if (['title', 'start_date', 'end_date', 'description', 'timezone', 'venue', 'organizer', 'website', 'cost'].includes(parameter)) return parameter;
  return 'title';
}
