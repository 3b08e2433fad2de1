import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { InvalidParamsError, MissingParamsError, RestError } from '../../domain/errors.ts';
import { ORGANIZER, VENUE } from '../../domain/linked-posts/linked-post-type.ts';
import { addressPrefix, keyedHash } from '../../domain/submissions/client-key.ts';
import { checkFormToken, issueFormToken, TOKEN_MAX_AGE_SECONDS } from '../../domain/submissions/form-token.ts';
import {
  createParameters,
  fieldOfParameter,
  readSubmissionForm,
  submissionReasons,
  type FieldReason,
  type FieldReasons,
  type SubmissionForm,
} from '../../domain/submissions/submission-form.ts';
import type { User } from '../../domain/users/user.ts';
import type { Language } from '../../i18n/catalog.ts';
import { validateArgs } from '../../args/validate-args.ts';
import type { ArgSpecs } from '../../args/arg-spec.ts';
import type { RenderContext } from '../../render/context.ts';
import type { Storage } from '../../storage/database.ts';
import { SubmissionsRepository, type AttemptOutcome } from '../../storage/repositories/submissions-repository.ts';
import type { Database, EventRow, SubmissionRow } from '../../storage/schema.ts';
import { inTransaction } from '../../storage/transactions.ts';
import { eventFields, writeArgs } from '../event-args.ts';
import { EventLookups } from '../event-lookups.ts';
import { EventsService } from '../events-service.ts';
import { findLinkedPostById } from '../linked-posts-service.ts';
import { builtInSubmitterId, submissionKey } from './submission-key.ts';
import { formChallenge, powSecrets, verifyProofOfWork } from './proof-of-work.ts';

const utc = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
const HOUR_MS = 3600_000;

/** What the form is rendered with: its token, and the challenge for visitors when the proof of work is on. */
export interface FormTicket {
  token: string;
  challenge?: string;
}

export interface SubmissionInput {
  body: unknown;
  lang: Language;
  /** The client address (after `CALENDAR_TRUST_PROXY`). */
  address: string;
  /** The signed-in member, or null for a visitor. */
  member: User | null;
  /** A render context of the request's edition and origin; its user is replaced by the contributor the event is written as. */
  ctx: RenderContext;
}

export type SubmissionOutcome =
  | { kind: 'rate-limited'; retryAfter: number }
  | { kind: 'dropped'; outcome: AttemptOutcome }
  | { kind: 'invalid'; reasons: FieldReasons; form: SubmissionForm }
  | { kind: 'stored'; eventId: number; flags: string[] };

/** What a stored submission hands to the mail it causes (inside its transaction). */
export interface StoredSubmission {
  event: EventRow;
  submission: SubmissionRow;
  form: SubmissionForm;
  ctx: RenderContext;
}
export type SubmissionAlerts = (trx: Kysely<Database>, stored: StoredSubmission) => Promise<void>;

/**
 * Visitor submissions (120 §5): the defences in the spec's order, then the event written through
 * the create service with contributor rights, validated by the API's own argument specs.
 */
export class SubmissionsService {
  private readonly events: EventsService;
  private readonly createArgs: ArgSpecs;
  private keyPromise?: Promise<Buffer>;

  constructor(
    private readonly storage: Storage,
    private readonly config: Config,
    private readonly alerts?: SubmissionAlerts,
    /** Told each stored or dropped submission (`calendar_submissions_total`, 140 §4.2); 422 and 429 are not. */
    private readonly onOutcome?: (outcome: AttemptOutcome) => void,
  ) {
    this.events = new EventsService(storage.db, config.timezone, config.recurrence, storage.epochs.journal);
    const lookups = new EventLookups(storage, this.events);
    this.createArgs = writeArgs({ db: storage.db, events: this.events, lookups } as never, true);
  }

  key(): Promise<Buffer> {
    return (this.keyPromise ??= submissionKey(this.storage.db));
  }

  /**
   * A fresh token (and challenge) for one rendering of the form; a 422 keeps the token it was
   * sent with (§4.1: not consumed) when that one is genuine.
   */
  async ticket(now: Date, member: User | null, kept?: string): Promise<FormTicket> {
    const key = await this.key();
    const seconds = Math.floor(now.getTime() / 1000);
    const verdict = kept === undefined ? undefined : checkFormToken(key, kept, seconds, member?.id ?? 0, 0);
    const token = verdict?.ok ? kept! : issueFormToken(key, seconds, member?.id ?? 0);
    if (member !== null || this.config.submissions.pow === 0) return { token };
    const [, issued, id] = token.split('.');
    const challenge = await formChallenge(powSecrets(key), this.config.submissions.pow, id, Number(issued) + TOKEN_MAX_AGE_SECONDS);
    return { token, challenge: JSON.stringify(challenge) };
  }

  /** The client key of §5 step 3: the member's id, else the keyed hash of the address (its /64 for IPv6). */
  private async clientKey(input: SubmissionInput): Promise<{ keyHash: string; addressHash: string }> {
    const key = await this.key();
    const addressHash = keyedHash(key, addressPrefix(input.address));
    return { keyHash: input.member ? keyedHash(key, `member:${input.member.id}`) : addressHash, addressHash };
  }

  /** Seconds until the oldest counted attempt is an hour old, or 0 while under the limit. */
  async rateLimit(input: SubmissionInput): Promise<number> {
    const { keyHash } = await this.clientKey(input);
    const now = input.ctx.now;
    const { count, oldest } = await new SubmissionsRepository(this.storage.db).attemptsSince(keyHash, utc(new Date(now.getTime() - HOUR_MS)));
    if (count < this.config.submissions.perHour || oldest === null) return 0;
    return Math.max(1, Math.ceil((Date.parse(`${oldest.replace(' ', 'T')}Z`) + HOUR_MS - now.getTime()) / 1000));
  }

  /** Steps 3–9 of 120 §5 (steps 1–2, the mode and the request's form, are the HTTP layer's). */
  async submit(input: SubmissionInput): Promise<SubmissionOutcome> {
    const result = await this.process(input);
    if (result.kind === 'dropped') this.onOutcome?.(result.outcome);
    else if (result.kind === 'stored') this.onOutcome?.('stored');
    return result;
  }

  private async process(input: SubmissionInput): Promise<SubmissionOutcome> {
    const now = input.ctx.now;
    const repo = new SubmissionsRepository(this.storage.db);
    const key = await this.key();
    const { keyHash, addressHash } = await this.clientKey(input);
    const retryAfter = await this.rateLimit(input);
    if (retryAfter > 0) return { kind: 'rate-limited', retryAfter };

    const fields = (input.body ?? {}) as Record<string, unknown>;
    const verdict = checkFormToken(key, typeof fields._form === 'string' ? fields._form : undefined, Math.floor(now.getTime() / 1000), input.member?.id ?? 0, this.config.submissions.minSeconds);
    const drop = async (outcome: AttemptOutcome, tokenId: string | null): Promise<SubmissionOutcome> => {
      const recorded = await repo.recordAttempt({ token_id: tokenId, key_hash: keyHash, outcome, created_utc: utc(now) });
      // A consumed id cannot be recorded again: the drop is then counted without it.
      if (!recorded) await repo.recordAttempt({ token_id: null, key_hash: keyHash, outcome: 'reused', created_utc: utc(now) });
      return { kind: 'dropped', outcome: recorded ? outcome : 'reused' };
    };
    if (!verdict.ok) return drop(verdict.outcome, null);
    if (await repo.tokenConsumed(verdict.token.id)) return drop('reused', null);
    if (typeof fields.url_confirm === 'string' && fields.url_confirm.trim() !== '') return drop('honeypot', verdict.token.id);

    const form = readSubmissionForm(input.body);
    const principal = this.contributor(input.member, await builtInSubmitterId(this.storage.db));
    const ctx: RenderContext = { ...input.ctx, user: principal };
    const rules = { member: input.member !== null, termsRequired: this.config.submissions.terms !== '', now, siteZone: this.config.timezone };
    const reasons = { ...(await this.recordReasons(form, now)), ...submissionReasons(form, rules) };
    if (Object.keys(reasons).length > 0) return { kind: 'invalid', reasons, form };
    const params = createParameters(form, this.config.submissions.status);
    let eventFieldsOf;
    try {
      eventFieldsOf = eventFields(await validateArgs(this.createArgs, params, ctx), this.createArgs, { update: false });
    } catch (error) {
      return { kind: 'invalid', reasons: apiReasons(error, form), form };
    }

    const email = input.member ? input.member.email : form.submitter_email;
    const emailHash = email === '' ? null : keyedHash(key, email.toLowerCase());
    const flags: string[] = [];
    if ((await repo.marked('address', addressHash, utc(now))) || (await repo.marked('email', emailHash, utc(now)))) flags.push('known-spammer');
    if (input.member === null && this.config.submissions.pow > 0 && !(await verifyProofOfWork(powSecrets(key), typeof fields.altcha === 'string' ? fields.altcha : undefined, verdict.token.id))) {
      flags.push('unverified');
    }

    try {
      const eventId = await inTransaction(this.storage.db, async (trx) => {
        await new SubmissionsRepository(trx).consumeToken({ token_id: verdict.token.id, key_hash: keyHash, created_utc: utc(now) });
        const event = await this.events.createIn(trx, ctx, principal, eventFieldsOf);
        const created = await createdLinks(trx, event, form, now);
        const submission: SubmissionRow = {
          event_id: event.id,
          edition: input.lang,
          submitter_name: input.member ? null : form.submitter_name || null,
          submitter_email: input.member ? null : form.submitter_email,
          member_id: input.member?.id ?? null,
          address_hash: addressHash,
          email_hash: emailHash,
          flags: flags.join(','),
          created_utc: utc(now),
          decision: null,
          decided_by: null,
          decided_utc: null,
          reason: null,
          ...created,
        };
        await new SubmissionsRepository(trx).insert(submission);
        if (this.alerts) await this.alerts(trx, { event, submission, form, ctx });
        return event.id;
      });
      return { kind: 'stored', eventId, flags };
    } catch (error) {
      if (isUniqueViolation(error)) return drop('reused', null);
      if (error instanceof InvalidParamsError || error instanceof MissingParamsError) return { kind: 'invalid', reasons: apiReasons(error, form), form };
      throw error;
    }
  }

  /** Whatever the member's role, a submission is written with a contributor's rights (120 §7). */
  private contributor(member: User | null, builtIn: number): User {
    if (member) return { ...member, role: 'contributor' };
    return { id: builtIn, login: 'submissions', email: '', role: 'contributor' };
  }

  /**
   * A member's edit form (120 §9): the §4 rules (no terms again: they were accepted with the
   * submission) and the records it may name — published ones, and those the submission created.
   */
  async editReasons(form: SubmissionForm, now: Date, submission: SubmissionRow): Promise<FieldReasons> {
    const own = { venue: submission.created_venue_id, organizer: submission.created_organizer_id };
    const rules = { member: true, termsRequired: false, now, siteZone: this.config.timezone };
    return { ...(await this.recordReasons(form, now, own)), ...submissionReasons(form, rules) };
  }

  /** After a member's save that named a new venue or organizer: the submission now owns it (approval publishes it). */
  async noteCreatedLinks(eventId: number, form: SubmissionForm, now: Date): Promise<void> {
    if (form.venue !== 'new' && form.organizer !== 'new') return;
    const event = await this.events.find(eventId, now);
    if (!event) return;
    const created = await createdLinks(this.storage.db, event, form, now);
    await new SubmissionsRepository(this.storage.db).noteCreated(eventId, created);
  }

  /** Only published venues and organizers (or the submission's own, `own`), and only existing categories (⚠ the API would accept more). */
  private async recordReasons(form: SubmissionForm, now: Date, own: { venue: number | null; organizer: number | null } = { venue: null, organizer: null }): Promise<FieldReasons> {
    const db = this.storage.db;
    const reasons: FieldReasons = {};
    for (const [name, type, code, messageKey] of [
      ['venue', VENUE, 'rest_unknown_venue', 'submit_reason_unknown_venue'],
      ['organizer', ORGANIZER, 'rest_unknown_organizer', 'submit_reason_unknown_organizer'],
    ] as const) {
      const value = form[name];
      if (value === '' || value === 'new') continue;
      const id = /^[1-9]\d{0,9}$/.test(value) ? Number(value) : 0;
      const record = id === 0 ? undefined : await findLinkedPostById(db, type, id, now);
      if (record?.status !== 'publish' && (record === undefined || record.id !== own[name])) reasons[name] = { code, messageKey };
    }
    const ids = form.categories.filter((entry) => /^[1-9]\d{0,9}$/.test(entry)).map(Number);
    if (ids.length > 0) {
      if ((await new SubmissionsRepository(db).countCategories(ids)) !== new Set(ids).size) reasons['categories[]'] = { code: 'rest_unknown_terms', messageKey: 'submit_reason_unknown_terms' };
    }
    return reasons;
  }
}

/** The new venue and organizer a submission created (not an existing one it reused, nor a published one). */
async function createdLinks(trx: Kysely<Database>, event: EventRow, form: SubmissionForm, now: Date): Promise<Pick<SubmissionRow, 'created_venue_id' | 'created_organizer_id'>> {
  let venue: number | null = null;
  if (form.venue === 'new' && event.venue_id !== null) {
    const record = await findLinkedPostById(trx, VENUE, event.venue_id, now);
    if (record && record.status !== 'publish') venue = record.id;
  }
  let organizer: number | null = null;
  if (form.organizer === 'new') {
    const linked = await new SubmissionsRepository(trx).firstOrganizerOf(event.id);
    const record = linked === undefined ? undefined : await findLinkedPostById(trx, ORGANIZER, linked, now);
    if (record && record.status !== 'publish') organizer = record.id;
  }
  return { created_venue_id: venue, created_organizer_id: organizer };
}

/** Every refusal of the API lands on a form field, with the API's own reason. */
function apiReasons(error: unknown, form: SubmissionForm): FieldReasons {
  const reasons: FieldReasons = {};
  if (error instanceof InvalidParamsError) {
    for (const [parameter, failure] of Object.entries(error.failures)) {
      const reason: FieldReason = { code: failure.reason.code, messageKey: failure.reason.messageKey, vars: failure.reason.vars };
      reasons[fieldOfParameter(parameter, form)] ??= reason;
    }
    return reasons;
  }
  if (error instanceof MissingParamsError) {
    for (const name of error.names) reasons[fieldOfParameter(name, form)] = { code: 'rest_empty_value', messageKey: 'submit_reason_required' };
    return reasons;
  }
  if (error instanceof RestError && error.status < 500) {
    reasons.title = { code: error.code, messageKey: error.messageKey, vars: error.vars };
    return reasons;
  }
  throw error;
}

function isUniqueViolation(error: unknown): boolean {
  const found = (e: unknown): boolean => {
    if (e === null || typeof e !== 'object') return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return true;
    if (typeof message === 'string' && /submission_attempts/.test(message) && /unique/i.test(message)) return true;
    return found((e as { cause?: unknown }).cause);
  };
  return found(error);
}
