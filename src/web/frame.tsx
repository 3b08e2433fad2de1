import type { ComponentChildren } from 'preact';
import { EDITION_PREFIXES, LANGUAGES } from '../i18n/catalog.ts';
import { editionPath, inEdition, isListLike, query, viewHref, type ViewKind, type ViewState } from './links.ts';
import type { PageEnv } from './model.ts';

const VIEW_LABELS = { list: 'page_list', month: 'page_month', day: 'page_day', week: 'page_week', photo: 'page_photo', summary: 'page_summary', map: 'page_map' } as const;
const LANGUAGE_NAMES = { en: 'English', da: 'Dansk', it: 'Italiano', es: 'Español' } as const;

/**
 * JSON inside a script element: `<`, `>`, `&`, U+2028 and U+2029 escaped so no text can close
 * the element (55 §7.2).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface FrameProps {
  env: PageEnv;
  /** The page title (before " – {site}"). */
  title: string;
  noindex?: boolean;
  /** Canonical path after `{base}{edition}`, with the kept query. */
  canonical?: string;
  /** The matching feed (`{ns}/events.ics?…`), absolute. */
  feed?: string;
  /** The feed export of the shown range, absolute. */
  exportFeed?: string;
  /** The RSS feed of the view's filters, root-relative, with its channel title. */
  rss?: { href: string; title: string };
  jsonLd?: unknown[];
  /** The view the events bar marks current, and the state its links start from. */
  bar?: { state: ViewState; current?: ViewKind };
  /** Notices for the `role="status"` region. */
  notices?: string[];
  alert?: string;
  /** A page's own files in `<head>` (the map view's, 130 §7.2), before the site's stylesheet. */
  head?: ComponentChildren;
  children: ComponentChildren;
}

function webcal(url: string): string {
  return url.replace(/^https?:\/\//, 'webcal://');
}

function SearchBar({ env, state, current }: { env: PageEnv; state: ViewState; current?: ViewKind }) {
  const { t } = env;
  const view = current ?? 'list';
  const action = editionPath(env, viewHrefPath(env, { ...state, view, anchor: undefined, page: 1 }));
  const monthInput = view === 'month';
  const format = monthInput ? 'YYYY-MM' : 'YYYY-MM-DD';
  const dateValue = state.date ?? (current !== undefined && current !== 'list' ? state.anchor : undefined);
  return (
    <div class="bar">
      <form role="search" method="get" action={action} class="search">
        <p>
          <label for="bar-search">{t('page_search_label')}</label>
          <input id="bar-search" type="search" name="tribe-bar-search" value={state.search ?? ''} />
        </p>
        <p>
          <label for="bar-date">{t('page_date_label')}</label>
          <input
            id="bar-date"
            type={monthInput ? 'month' : 'date'}
            name="tribe-bar-date"
            value={dateValue === undefined ? '' : monthInput ? dateValue.slice(0, 7) : dateValue}
            pattern={monthInput ? '\\d{4}-\\d{2}' : '\\d{4}-\\d{2}-\\d{2}'}
            aria-describedby="bar-date-hint"
          />
          <span id="bar-date-hint" class="hint">{t('page_date_hint', { format })}</span>
        </p>
        {state.past && current !== undefined && isListLike(current) ? <input type="hidden" name="eventDisplay" value="past" /> : null}
        <p>
          <button type="submit">{t('page_find_events')}</button>
        </p>
      </form>
      <nav aria-label={t('page_views_nav')} class="views">
        <ul>
          {env.views.map((kind) => (
            <li>
              <a href={switchHref(env, state, kind)} aria-current={kind === current ? 'page' : undefined}>
                {t(VIEW_LABELS[kind])}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {env.submissions && !env.embed ? <p class="submit-link"><a href={editionPath(env, '/events/community/add/')}>{t('submit_link')}</a></p> : null}
    </div>
  );
}

/** The form's action: the view's base path (term and featured kept as path), no query. */
function viewHrefPath(env: PageEnv, state: ViewState): string {
  const href = viewHref(env, { ...state, search: undefined, date: undefined, past: false });
  return href.slice(editionPath(env, '').length);
}

/**
 * View switch (§10): keyword, term and featured kept; the date mapped to the target view.
 */
function switchHref(env: PageEnv, state: ViewState, kind: ViewKind): string {
  const base = { archive: state.archive, featured: state.featured, search: state.search, past: false, page: 1 };
  const anchorDay = state.anchor && state.anchor.length === 10 ? state.anchor : state.date;
  const anchorMonth = state.anchor ? state.anchor.slice(0, 7) : state.date?.slice(0, 7);
  if (kind === 'month') return viewHref(env, { ...base, view: 'month', anchor: anchorMonth });
  if (kind === 'day') {
    let day = anchorDay;
    if (day === undefined && anchorMonth !== undefined) day = env.today.startsWith(anchorMonth) ? env.today : `${anchorMonth}-01`;
    return viewHref(env, { ...base, view: 'day', anchor: day });
  }
  // The week of the anchor date (130 §3); the page names the week by its first day.
  if (kind === 'week') return viewHref(env, { ...base, view: 'week', anchor: anchorDay ?? (anchorMonth ? `${anchorMonth}-01` : undefined) });
  return viewHref(env, { ...base, view: isListLike(kind) ? kind : 'list', date: anchorDay ?? (anchorMonth ? `${anchorMonth}-01` : undefined) });
}

/** This page in each edition (55 §11); the current one marked. */
function LanguageLinks({ env }: { env: PageEnv }) {
  return (
    <ul>
      {LANGUAGES.map((lang) => (
        <li>
          <a href={inEdition(env, lang)} lang={lang} hreflang={lang} aria-current={lang === env.lang ? 'true' : undefined}>
            {LANGUAGE_NAMES[lang]}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Footer({ env, feed, exportFeed, rss }: { env: PageEnv; feed?: string; exportFeed?: string; rss?: { href: string } }) {
  const { t } = env;
  const subscribe = feed !== undefined && env.publicSite !== null;
  // The language links again (55 §3.1), as a plain list: one languages landmark per page.
  const languages = <div class="menu footer-languages"><LanguageLinks env={env} /></div>;
  if (!subscribe && exportFeed === undefined && rss === undefined) return <footer class="site-footer">{languages}</footer>;
  return (
    <footer class="site-footer">
      <details class="menu">
        <summary>{t('page_subscribe')}</summary>
        <ul>
          {subscribe ? (
            <>
              <li><a href={`https://calendar.google.com/calendar/render${query([['cid', webcal(feed!)]])}`}>Google Calendar</a></li>
              <li><a href={webcal(feed!)}>iCalendar</a></li>
              <li>
                <a href={`https://outlook.live.com/owa${query([['path', '/calendar/action/compose'], ['rru', 'addsubscription'], ['url', webcal(feed!)], ['name', env.siteName]])}`}>
                  Outlook 365 / Outlook.com
                </a>
              </li>
            </>
          ) : null}
          {exportFeed !== undefined ? <li><a href={exportFeed} rel="nofollow">{t('page_export')}</a></li> : null}
          {rss !== undefined ? <li><a href={rss.href} type="application/rss+xml">{t('page_rss')}</a></li> : null}
        </ul>
      </details>
      {languages}
    </footer>
  );
}

function Main(props: FrameProps) {
  return (
    <main id="main" tabindex={-1}>
      <div role="status" class="notices">
        {(props.notices ?? []).map((notice) => <p>{notice}</p>)}
      </div>
      {props.alert ? <p role="alert" class="alert">{props.alert}</p> : null}
      {props.children}
    </main>
  );
}

function Bar({ env, bar }: FrameProps) {
  return <SearchBar env={env} state={bar?.state ?? { view: 'list', featured: false, past: false, page: 1 }} current={bar?.current} />;
}

/**
 * The site's name linking home, after the logo when there is one: the image then names the link
 * (its `alt`) and the visible text beside it is hidden from assistive technology, so the name is
 * read once. Operators whose logo shows the name can hide `.site-name-text` in their stylesheet.
 */
function SiteName({ env, home }: { env: PageEnv; home: string }) {
  const { logo } = env.assets;
  return (
    <p class="site-name">
      <a href={home}>
        {logo ? <img class="site-logo" src={logo.src} alt={env.siteName} width={logo.width} height={logo.height} /> : null}
        <span class="site-name-text" aria-hidden={logo ? 'true' : undefined}>{env.siteName}</span>
      </a>
    </p>
  );
}

/**
 * The `<head>` of a full document, page or embed: the page's own meta and links (`children`)
 * between the title and the site's stylesheets, script and structured data.
 */
function DocumentHead(props: { env: PageEnv; title: string; script: string; jsonLd?: unknown[]; children: ComponentChildren }) {
  const { env } = props;
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${props.title} – ${env.siteName}`}</title>
      {props.children}
      <link rel="stylesheet" href={env.assets.stylesheet} />
      {env.assets.customCss ? <link rel="stylesheet" href={env.assets.customCss} /> : null}
      <script src={props.script} defer />
      {/* No icon: browsers would otherwise ask for /favicon.ico on every first visit. */}
      <link rel="icon" href="data:," />
      {props.jsonLd && props.jsonLd.length > 0 ? (
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(props.jsonLd) }} />
      ) : null}
    </head>
  );
}

/**
 * The frame of an embed page (130 §10.1): the view's `<main>` and a link to the full calendar,
 * without the site's header, events bar and footer; never indexed.
 */
function EmbedDocument(props: FrameProps) {
  const { env } = props;
  const embed = env.embed!;
  return (
    <html lang={env.lang}>
      <DocumentHead env={env} title={props.title} script={embed.script}>
        <meta name="robots" content="noindex" />
      </DocumentHead>
      <body class="embed">
        <Main {...props} />
        <p class="full-calendar"><a href={embed.fullCalendar}>{env.t('page_full_calendar')}</a></p>
      </body>
    </html>
  );
}

/** The common frame of 55 §3.1 around a page's `<main>` content. */
export function Frame(props: FrameProps) {
  const { env } = props;
  const { t } = env;
  if (env.partial) {
    return (
      <html lang={env.lang}>
        <head><title>{`${props.title} – ${env.siteName}`}</title></head>
        <body>
          <Bar {...props} />
          <Main {...props} />
        </body>
      </html>
    );
  }
  if (env.embed) return <EmbedDocument {...props} />;
  const canonical = env.site + EDITION_PREFIXES[env.lang] + (props.canonical ?? env.path.split('?')[0]);
  const eventsHome = editionPath(env, '/events/');
  return (
    <html lang={env.lang}>
      <DocumentHead env={env} title={props.title} script={env.assets.script} jsonLd={props.jsonLd}>
        {props.noindex ? <meta name="robots" content="noindex" /> : null}
        <link rel="canonical" href={canonical} />
        {LANGUAGES.map((lang) => (
          <link rel="alternate" hreflang={lang} href={env.site + EDITION_PREFIXES[lang] + env.path} />
        ))}
        <link rel="alternate" hreflang="x-default" href={env.site + env.path} />
        {props.feed ? <link rel="alternate" type="text/calendar" href={props.feed} /> : null}
        {props.rss ? <link rel="alternate" type="application/rss+xml" title={props.rss.title} href={props.rss.href} /> : null}
        {props.head}
      </DocumentHead>
      <body>
        <a class="skip" href="#main">{t('page_skip')}</a>
        <header class="site-header">
          <SiteName env={env} home={eventsHome} />
          <nav aria-label={t('page_languages')} class="languages">
            <LanguageLinks env={env} />
          </nav>
        </header>
        <Bar {...props} />
        <Main {...props} />
        <Footer env={env} feed={props.feed} exportFeed={props.exportFeed} rss={props.rss} />
      </body>
    </html>
  );
}
