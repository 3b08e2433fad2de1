import type { VNode } from 'preact';
import type { MessageKey } from '../../i18n/catalog.ts';
import type { SubmissionReview } from '../../services/back-office/submission-review.ts';
import { wallText, type ListView } from './list-table.tsx';
import { DecisionFields } from './moderation.tsx';

/** "Name <e-mail>", the member's login, or null when nothing is left (erased, 120 §7). */
function submitterText(review: SubmissionReview): string | null {
  if (review.member !== null) return review.member;
  const text = [review.name, review.email === null ? null : `<${review.email}>`].filter((part) => part !== null && part !== '').join(' ');
  return text === '' ? null : text;
}

function languageName(view: ListView, edition: string): string {
  try {
    return new Intl.DisplayNames([view.lang], { type: 'language' }).of(edition) ?? edition;
  } catch {
    return edition;
  }
}

/** The id of the row's decision form: it stands after the bulk form, as forms do not nest. */
export const moderateFormId = (eventId: number) => `moderate-${eventId}`;

/**
 * A submitted row's review cell (120 §8.1): who sent it, when (UTC), in which edition, its flags
 * as words, and while undecided the decision controls of its own form.
 */
export function SubmissionCell({ view, eventId, title, review }: { view: ListView; eventId: number; title: string; review: SubmissionReview }): VNode {
  const submitter = submitterText(review);
  const form = moderateFormId(eventId);
  return (
    <div class="submission-review">
      <p class="submitter">{submitter === null ? view.t('admin_review_unnamed') : view.t('admin_review_submitted_by', { submitter })}</p>
      <p class="submitted">
        {view.t('admin_review_received')}{' '}
        <time dateTime={`${review.submitted.slice(0, 10)}T${review.submitted.slice(11, 19)}Z`}>{wallText(view.lang, review.submitted)} UTC</time>
        {' · '}{view.t('admin_review_edition', { language: languageName(view, review.edition) })}
      </p>
      {review.flags.length > 0 && (
        <ul class="submission-flags">
          {review.flags.map((flag) => <li key={flag}><span class="badge flag-label">{view.t(`mail_flag_${flag}` as MessageKey)}</span></li>)}
        </ul>
      )}
      {review.open && (
        <fieldset class="moderate-row" form={form}>
          <legend>{view.t('admin_review_decide', { title })}</legend>
          <DecisionFields t={view.t} rows={2} eventId={eventId} form={form} />
          <p><button type="submit" form={form} class="button">{view.t('admin_moderate_send')}</button></p>
        </fieldset>
      )}
    </div>
  );
}

/** The decision forms of a page's undecided rows: each posts `_token` and its row's controls. */
export function ModerateForms({ view, ids }: { view: ListView; ids: number[] }): VNode | null {
  if (ids.length === 0) return null;
  return (
    <>
      {ids.map((id) => (
        <form key={id} id={moderateFormId(id)} method="post" action={view.adminUrl(`/events/${id}/moderate`)} class="moderate-form">
          <input type="hidden" name="_token" value={view.csrfToken} />
        </form>
      ))}
    </>
  );
}
