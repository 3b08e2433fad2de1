import { isOpen, type OwnState } from '../../domain/submissions/own-state.ts';
import { Frame } from '../frame.tsx';
import { scheduleText, type Scheduled } from '../dates.ts';
import { editionPath } from '../links.ts';
import type { PageEnv } from '../model.ts';


export interface OwnSubmission {
  id: number;
  title: string;
  schedule: Scheduled;
  state: OwnState;
  /** Rejected: the moderator's reason, when one was given. */
  reason: string | null;
  /** Published: the event's public page (root-relative, in this edition). */
  href?: string;
}

export interface OwnListModel {
  rows: OwnSubmission[];
  page: number;
  pages: number;
  /** The session's `_token`, for the Withdraw buttons (100 §6.1). */
  csrfToken: string;
  notice?: string;
}

const STATE_KEYS = {
  pending: 'own_status_pending',
  draft: 'own_status_draft',
  published: 'own_status_published',
  rejected: 'own_status_rejected',
  withdrawn: 'own_status_withdrawn',
} as const;

export const editHref = (env: PageEnv, id: number) => editionPath(env, `/events/community/edit/${id}/`);
const listHref = (env: PageEnv, page: number) => editionPath(env, `/events/community/list/${page > 1 ? `?paged=${page}` : ''}`);

/** `/events/community/list/`: a member's submissions, newest first, with what can still be done to each. */
export function OwnSubmissionsPage({ env, list }: { env: PageEnv; list: OwnListModel }) {
  const { t } = env;
  return (
    <Frame env={env} title={t('own_list_title')} noindex notices={list.notice ? [list.notice] : []}>
      <h1>{t('own_list_title')}</h1>
      <p>{t('own_list_intro')}</p>
      <p><a href={editionPath(env, '/events/community/add/')}>{t('submit_link')}</a></p>
      {list.rows.length === 0 ? <p>{t('own_list_empty')}</p> : (
        <ul class="own-submissions">
          {list.rows.map((row) => <OwnRow env={env} row={row} csrfToken={list.csrfToken} />)}
        </ul>
      )}
      {list.pages > 1 ? (
        <nav aria-label={t('own_pages')} class="own-pages">
          <p>{t('own_page', { page: list.page, pages: list.pages })}</p>
          <p>
            {list.page > 1 ? <a href={listHref(env, list.page - 1)} rel="prev">{t('own_newer')}</a> : null}
            {list.page > 1 && list.page < list.pages ? ' ' : null}
            {list.page < list.pages ? <a href={listHref(env, list.page + 1)} rel="next">{t('own_older')}</a> : null}
          </p>
        </nav>
      ) : null}
    </Frame>
  );
}

function OwnRow({ env, row, csrfToken }: { env: PageEnv; row: OwnSubmission; csrfToken: string }) {
  const { t } = env;
  const open = isOpen(row.state);
  const headingId = `submission-${row.id}`;
  return (
    <li class="own-submission">
      <h2 id={headingId}>{row.title}</h2>
      <p>{scheduleText(env.lang, row.schedule, env.today, env.siteZone)}</p>
      <p>
        {t('own_status', { status: t(STATE_KEYS[row.state]) })}
        {row.state === 'published' && row.href ? <> — <a href={row.href}>{t('own_view_published')}</a></> : null}
      </p>
      {row.state === 'rejected' && row.reason ? <p>{t('own_reason', { reason: row.reason })}</p> : null}
      {open ? (
        <form method="post" action={editHref(env, row.id)} class="own-actions">
          <input type="hidden" name="_token" value={csrfToken} />
          <a href={editHref(env, row.id)} aria-describedby={headingId}>{t('own_edit')}</a>
          <button type="submit" name="action" value="withdraw" aria-describedby={headingId}>{t('own_withdraw')}</button>
        </form>
      ) : null}
    </li>
  );
}

/** A member's own published submission: read-only (editing it here would skip review, 120 §9). */
export function PublishedSubmissionPage({ env, row }: { env: PageEnv; row: OwnSubmission }) {
  const { t } = env;
  return (
    <Frame env={env} title={t('own_published_title')} noindex>
      <h1>{t('own_published_title')}</h1>
      <h2>{row.title}</h2>
      <p>{scheduleText(env.lang, row.schedule, env.today, env.siteZone)}</p>
      <p>{t('own_published_text')}</p>
      {row.href ? <p><a href={row.href}>{t('own_view_published')}</a></p> : null}
      <p><a href={editionPath(env, '/events/community/list/')}>{t('own_back_to_list')}</a></p>
    </Frame>
  );
}
