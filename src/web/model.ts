import type { RenderContext } from '../render/context.ts';
import type { Language } from '../i18n/catalog.ts';
import type { MessageKey, MessageVars } from '../i18n/catalog.ts';
import type { PageAssets } from './page-assets.ts';
import type { ViewKind, ViewState } from './links.ts';

/**
 * What pages show of an event: the API's own object (10 §3), rendered from the read model by the
 * JSON renderer for a visitor (src/web/event-view.ts), so a page shows exactly what the API shows
 * (protected records already blanked). Only the members pages read are typed here.
 */
export interface EventView {
  id: number;
  global_id: string;
  /** Publication and last change, `YYYY-MM-DD HH:MM:SS` UTC. */
  date_utc: string;
  modified_utc: string;
  url: string;
  title: string;
  description: string;
  excerpt: string;
  image: false | ImageView;
  /** null when blanked (a protected event). */
  all_day: boolean | null;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  timezone_abbr: string;
  cost: string;
  website: string;
  featured: boolean | null;
  sticky: boolean | null;
  show_map_link: boolean | null;
  categories: TermView[];
  tags: TermView[];
  venue: LinkedView | [];
  organizer: LinkedView[];
  json_ld?: Record<string, unknown>;
}

/** The API's `image` object (10 §3.5, 110-media §7.1); dimensions only when known. */
export interface ImageView {
  url: string;
  extension?: string;
  width?: number;
  height?: number;
  sizes?: Record<string, { url: string; width: number; height: number; 'mime-type'?: string }>;
}

export interface TermView {
  id: number;
  name: string;
  slug: string;
  taxonomy: string;
  description?: string;
}

/** A venue or organizer object; empty members are absent (20 §2). */
export interface LinkedView {
  id: number;
  url: string;
  slug: string;
  status: string;
  venue?: string | [];
  organizer?: string | [];
  description?: string;
  image?: false | ImageView;
  address?: string;
  city?: string;
  country?: string;
  province?: string;
  state?: string;
  stateprovince?: string;
  zip?: string;
  phone?: string;
  email?: string;
  website?: string;
  /** null on the copy of a password-protected record (20 §7). */
  show_map_link?: boolean | null;
  /** Venues with stored coordinates (70 §2.2); 0/0 on a locked copy. */
  geo_lat?: number;
  geo_lng?: number;
  json_ld?: Record<string, unknown>;
}

/** Where a page is and how it speaks: everything a renderer needs besides its data. */
export interface PageEnv {
  lang: Language;
  t(key: MessageKey, vars?: MessageVars): string;
  /** `{origin}{base}`, no edition. */
  site: string;
  /** `{base}` of this service (root-relative links). */
  basePath: string;
  /** `{origin}{base}{edition}/calendar/events/v1`. */
  ns: string;
  /** The path after `{base}{edition}`, with its query (for the language switcher and canonical). */
  path: string;
  siteName: string;
  siteZone: string;
  /** The site zone's today, `YYYY-MM-DD`. */
  today: string;
  /** Absolute public origin for webcal links, null on a loopback origin (§7.3). */
  publicSite: string | null;
  /** The visitor's request context: what the JSON renderer needs (addresses, language). */
  context: RenderContext;
  /** The stylesheets, script and logo every page links to. */
  assets: PageAssets;
  /** The enabled views (CALENDAR_VIEWS), in the selector's order. */
  views: readonly ViewKind[];
  /** `?partial=1` (55 §13): only the title, events bar and `<main>`, for the enhancement script. */
  partial: boolean;
  /** Visitor submissions are on (120 §3): the events bar links to the form. */
  submissions?: boolean;
  /** Set on embed pages (130 §10.1): the frame they render in and where their own links lead. */
  embed?: EmbedFrame;
}

/** An embed page's frame: its views' links stay inside the embed, with its parameters. */
export interface EmbedFrame {
  /** The views the embed shows; links to other views leave the frame. */
  views: readonly ViewKind[];
  /** The embed address of a view state. */
  href(state: ViewState): string;
  /** "View full calendar": the matching page. */
  fullCalendar: string;
  /** Root-relative start of the embed's own addresses: every other link opens in the top window. */
  prefix: string;
  script: string;
}
