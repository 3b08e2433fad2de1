import type { ComponentChildren, VNode } from 'preact';
import type { Role } from '../../domain/auth/capabilities.ts';
import type { Language, MessageKey, MessageVars } from '../../i18n/catalog.ts';
import type { PageAssets } from '../page-assets.ts';

/** What back office renderers know besides their models: pure data built from the request (adminView). */
export interface AdminView {
  lang: Language;
  t: (key: MessageKey, vars?: MessageVars) => string;
  user: { id: number; login: string; role: Role };
  csrfToken: string;
  adminUrl(path: string, query?: Record<string, string | number | undefined>): string;
  assets: PageAssets;
  siteName: string;
  /** The main navigation: only what the role may open. */
  nav: { key: string; href: string; label: string }[];
  /** This page in each edition. */
  languageLinks: { lang: Language; href: string; label: string }[];
  /** From `?message=` (100 §7.1), already translated. */
  message?: string;
}

/** What the head and the sign-in pages' reduced frame need: no user. */
export type PublicView = Pick<AdminView, 'lang' | 't' | 'assets' | 'siteName' | 'languageLinks' | 'message'>;

function Head({ view, title, nonce }: { view: PublicView; title: string; nonce?: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>{`${title} – ${view.siteName}`}</title>
      {nonce !== undefined ? <meta name="calendar-rest-nonce" content={nonce} /> : null}
      <link rel="stylesheet" href={view.assets.stylesheet} />
      {view.assets.customCss ? <link rel="stylesheet" href={view.assets.customCss} /> : null}
      <script src={view.assets.adminScript} defer />
      <link rel="icon" href="data:," />
    </head>
  );
}

function LanguageNav({ view }: { view: PublicView }) {
  return (
    <nav aria-label={view.t('admin_languages')} class="admin-languages">
      <ul>
        {view.languageLinks.map((link) => (
          <li>
            <a href={link.href} lang={link.lang} hreflang={link.lang} aria-current={link.lang === view.lang ? 'true' : undefined}>{link.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The `role="status"` region: present (empty) on every page so that later messages are announced. */
function Status({ message }: { message?: string }) {
  return <div role="status" class="notices admin-status">{message ? <p>{message}</p> : null}</div>;
}

/**
 * The back office frame (100 §7.1): skip link, header with the site name, the role's navigation,
 * the user's login with Profile and the sign-out form, language links; `<main id="main">` with
 * the status region and the page's one `<h1>` (written here from `title`: pages write none).
 */
export function AdminFrame(props: { view: AdminView; title: string; current?: string; children: ComponentChildren }): VNode {
  const { view } = props;
  const { t } = view;
  return (
    <html lang={view.lang}>
      <Head view={view} title={props.title} nonce={view.csrfToken} />
      <body class="admin">
        <a class="skip" href="#main">{t('admin_skip')}</a>
        <header class="admin-header">
          <p class="admin-site"><a href={view.adminUrl('/')}>{view.siteName}</a> <span class="admin-site-label">{t('admin_back_office')}</span></p>
          <nav aria-label={t('admin_nav_label')} class="admin-nav">
            <ul>
              {view.nav.map((item) => (
                <li><a href={item.href} aria-current={item.key === props.current ? 'page' : undefined}>{item.label}</a></li>
              ))}
            </ul>
          </nav>
          <div class="admin-account">
            <p>{t('admin_signed_in_as', { login: view.user.login })}</p>
            <p><a href={view.adminUrl('/profile/')} aria-current={props.current === 'profile' ? 'page' : undefined}>{t('admin_profile')}</a></p>
            <form method="post" action={view.adminUrl('/logout')} class="admin-signout">
              <input type="hidden" name="_token" value={view.csrfToken} />
              <button type="submit" class="button-secondary">{t('admin_sign_out')}</button>
            </form>
          </div>
          <LanguageNav view={view} />
        </header>
        <main id="main" tabindex={-1} class="admin-main">
          <Status message={view.message} />
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** The frame of pages without a session (sign-in, invitation, their errors): no navigation. */
export function PublicFrame(props: { view: PublicView; title: string; children: ComponentChildren }): VNode {
  const { view } = props;
  return (
    <html lang={view.lang}>
      <Head view={view} title={props.title} />
      <body class="admin admin-public">
        <a class="skip" href="#main">{view.t('admin_skip')}</a>
        <header class="admin-header">
          <p class="admin-site">{view.siteName} <span class="admin-site-label">{view.t('admin_back_office')}</span></p>
          <LanguageNav view={view} />
        </header>
        <main id="main" tabindex={-1} class="admin-main">
          <Status message={view.message} />
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}
