import { can, type Capability } from '../../domain/auth/capabilities.ts';
import { catalogues, EDITION_PREFIXES, LANGUAGES, type Language, type MessageKey, type MessageVars } from '../../i18n/catalog.ts';
import type { AdminView, PublicView } from '../../web/admin/frame.tsx';
import type { AdminRequest } from './admin-request.ts';
import { adminServices, type AdminServices } from './admin-services.ts';
import type { User } from '../../domain/users/user.ts';

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', da: 'Dansk', it: 'Italiano', es: 'Español' };

/** Who may open a page (100 §7.1): a capability, any signed-in user, administrators, or a rule of the domain. */
export type Access = Capability | 'signed-in' | 'administrator' | ((user: User) => boolean);

export function mayOpen(user: User, access: Access): boolean {
  if (typeof access === 'function') return access(user);
  if (access === 'signed-in') return true;
  if (access === 'administrator') return user.role === 'administrator';
  return can(user, access);
}

/** The main navigation in 100 §7.1's order, each with who may open it. */
const NAV: { key: string; path: string; label: MessageKey; access: Access }[] = [
  { key: 'dashboard', path: '/', label: 'admin_nav_dashboard', access: 'signed-in' },
  { key: 'events', path: '/events/', label: 'admin_nav_events', access: 'edit_posts' },
  { key: 'venues', path: '/venues/', label: 'admin_nav_venues', access: 'edit_posts' },
  { key: 'organizers', path: '/organizers/', label: 'admin_nav_organizers', access: 'edit_posts' },
  { key: 'categories', path: '/categories/', label: 'admin_nav_categories', access: 'edit_posts' },
  { key: 'tags', path: '/tags/', label: 'admin_nav_tags', access: 'edit_posts' },
  { key: 'media', path: '/media/', label: 'admin_nav_media', access: 'upload_files' },
  { key: 'users', path: '/users/', label: 'admin_nav_users', access: 'administrator' },
  { key: 'webhooks', path: '/webhooks/', label: 'admin_nav_webhooks', access: 'administrator' },
  { key: 'imports', path: '/imports/', label: 'admin_nav_imports', access: 'administrator' },
];

/** Query values a message may carry: numbers, ids, codes, dates — never free text. */
const MESSAGE_VALUE = /^[A-Za-z0-9_:,.+\- ]{1,200}$/;

/** 100 §7.1: `?message={key}` from the fixed catalogue (`admin_message_{key}`), other query values as its numbers. */
export function redirectMessage(lang: Language, query: Record<string, string | string[]>, t: (key: MessageKey, vars?: MessageVars) => string): string | undefined {
  const key = query.message;
  if (typeof key !== 'string' || !/^[a-z0-9_]{1,60}$/.test(key)) return undefined;
  const messageKey = `admin_message_${key}` as MessageKey;
  if (!(messageKey in catalogues[lang])) return undefined;
  const vars: MessageVars = {};
  for (const [name, value] of Object.entries(query)) if (name !== 'message' && typeof value === 'string' && MESSAGE_VALUE.test(value)) vars[name] = value;
  return t(messageKey, vars);
}

/** The prefix `{base}{edition}/admin` of an edition. */
export function adminPrefix(basePath: string, lang: Language): string {
  return `${basePath}${EDITION_PREFIXES[lang]}/admin`;
}

/** This page (path below /admin, with its query) in each edition. */
export function languageLinks(basePath: string, pathAndQuery: string): PublicView['languageLinks'] {
  return LANGUAGES.map((lang) => ({ lang, href: adminPrefix(basePath, lang) + pathAndQuery, label: LANGUAGE_NAMES[lang] }));
}

function siteName(services: AdminServices, origin: string): string {
  return services.config.siteName ?? new URL(origin).hostname;
}

/** The page's query without the one-time `message` and its values, for the language links. */
function pathAndQuery(req: { path: string; raw: { url: string } }): string {
  const question = req.raw.url.indexOf('?');
  if (question < 0) return req.path;
  const params = new URLSearchParams(req.raw.url.slice(question + 1));
  params.delete('message');
  const search = params.toString();
  return search === '' ? req.path : `${req.path}?${search}`;
}

/** The view renderers get: pure data of the request. */
export function adminView(req: AdminRequest): AdminView {
  const services = adminServices(req.deps);
  const base = services.config.basePath;
  return {
    lang: req.lang,
    t: req.t,
    user: { id: req.user.id, login: req.user.login, role: req.user.role },
    csrfToken: req.csrfToken,
    adminUrl: req.adminUrl,
    assets: services.assets,
    siteName: siteName(services, req.ctx.urls.origin),
    nav: NAV.filter((item) => services.pagePaths.has(item.path) && mayOpen(req.user, item.access)).map((item) => ({ key: item.key, href: req.adminUrl(item.path), label: req.t(item.label) })),
    languageLinks: languageLinks(base, pathAndQuery(req)),
    message: redirectMessage(req.lang, req.query, req.t),
  };
}

/** The view of pages without a session. */
export function publicView(services: AdminServices, req: { lang: Language; t: AdminView['t']; path: string; query: Record<string, string | string[]>; raw: { url: string }; origin: string }, message?: string): PublicView {
  return {
    lang: req.lang,
    t: req.t,
    assets: services.assets,
    siteName: siteName(services, req.origin),
    languageLinks: languageLinks(services.config.basePath, pathAndQuery(req)),
    message,
  };
}
