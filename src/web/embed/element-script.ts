import { EDITION_PREFIXES, LANGUAGES, translate } from '../../i18n/catalog.ts';

export const EMBED_ELEMENT_PATH = '/assets/embed.js';

/** The element's default look: readable on a light host page, themable by `--calendar-events-*` and `::part()`. */
const ELEMENT_CSS = [
  ':host{display:block;color:var(--calendar-events-text,#1f2328)}',
  'section>:first-child{font-size:var(--calendar-events-heading-size,1.25em);margin:0 0 .5em}',
  'ol{list-style:none;margin:0;padding:0}',
  'li{padding:.5em 0;border-bottom:1px solid var(--calendar-events-border,#d0d7de)}',
  'a{color:var(--calendar-events-link,#0b57a4);display:inline-block;min-height:24px}',
  'a:focus-visible{outline:3px solid var(--calendar-events-focus,#0b57a4);outline-offset:2px}',
  'time,[part=venue]{display:block;font-size:.875em;color:var(--calendar-events-muted,#57606a)}',
].join('');

/**
 * `{base}/assets/embed.js` (130 §10.2): a classic, dependency-free script defining
 * `<calendar-events>`, which lists upcoming events of the calendar at its `src` on any site
 * through the API (CORS, no cookies). The service writes its API path and the editions' texts
 * into it; everything the API sends is shown as text, never parsed as markup on the host page.
 */
export function embedElementScript(apiPath: string): string {
  const texts = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, { heading: translate(lang, 'page_upcoming'), none: translate(lang, 'page_no_upcoming'), all: translate(lang, 'embed_view_all') }]),
  );
  return `(function () {
  'use strict';
  if (!window.customElements || customElements.get('calendar-events')) return;
  var API = ${JSON.stringify(apiPath)};
  var TEXT = ${JSON.stringify(texts)};
  var PREFIX = ${JSON.stringify(EDITION_PREFIXES)};
  var CSS = ${JSON.stringify(ELEMENT_CSS)};
  var FILTERS = ['categories', 'tags', 'venue', 'organizer'];
  var sheet = null;
  var warned = false;

  function warn(message) {
    if (warned) return;
    warned = true;
    console.warn('<calendar-events>: ' + message);
  }
  function el(name, attrs, text) {
    var node = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  // Titles come HTML-escaped (as WordPress sends them): decoded as inert text.
  function plain(html) {
    return new DOMParser().parseFromString(String(html), 'text/html').body.textContent || '';
  }
  function wall(text) {
    var p = String(text).split(/[- :]/).map(Number);
    return new Date(Date.UTC(p[0], p[1] - 1, p[2], p[3] || 0, p[4] || 0));
  }
  function when(event, lang) {
    var options = event.all_day ? { dateStyle: 'medium', timeZone: 'UTC' } : { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' };
    var datetime = event.all_day ? String(event.start_date).slice(0, 10) : String(event.utc_start_date).replace(' ', 'T') + 'Z';
    return el('time', { datetime: datetime }, new Intl.DateTimeFormat(lang, options).format(wall(event.start_date)));
  }
  function web(url, fallback) {
    return typeof url === 'string' && /^https?:\\/\\//i.test(url) ? url : fallback;
  }

  class CalendarEvents extends HTMLElement {
    static get observedAttributes() {
      return ['src', 'lang', 'featured', 'per-page', 'heading', 'heading-level'].concat(FILTERS);
    }
    connectedCallback() { this.load(); }
    attributeChangedCallback() { if (this.isConnected) this.load(); }
    disconnectedCallback() { if (this.request) this.request.abort(); }
    load() {
      if (this.request) this.request.abort();
      var self = this;
      var root = this.shadowRoot || this.attachShadow({ mode: 'open' });
      if (!sheet) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(CSS);
      }
      root.adoptedStyleSheets = [sheet];
      var lang = this.getAttribute('lang');
      if (!Object.prototype.hasOwnProperty.call(PREFIX, lang)) lang = 'en';
      var text = TEXT[lang];
      var src = (this.getAttribute('src') || '').replace(/\\/+$/, '');
      var site;
      try { site = new URL(src); } catch (error) { site = null; }
      var page = src + PREFIX[lang] + '/events/';
      // While loading, and when the calendar cannot be reached, the host's own content shows.
      root.replaceChildren(el('slot'));
      if (!site || !/^https?:$/.test(site.protocol)) {
        warn('the src attribute must be the address of the calendar');
        return;
      }
      var perPage = parseInt(this.getAttribute('per-page'), 10);
      var query = new URLSearchParams({ per_page: String(perPage >= 1 && perPage <= 50 ? perPage : 5), strict_dates: '1', ends_after: new Date().toISOString().slice(0, 19) + 'Z' });
      FILTERS.forEach(function (name) { if (self.getAttribute(name)) query.set(name, self.getAttribute(name)); });
      if (this.hasAttribute('featured')) query.set('featured', '1');
      var request = this.request = new AbortController();
      var timer = setTimeout(function () { request.abort(); }, 10000);
      this.setAttribute('aria-busy', 'true');
      fetch(site.origin + API + PREFIX[lang] + '/calendar/events/v1/events?' + query, { credentials: 'omit', signal: request.signal })
        .then(function (response) {
          if (!response.ok) throw new Error('the calendar answered ' + response.status);
          return response.json();
        })
        .then(function (body) {
          if (request !== self.request) return;
          if (!body || !Array.isArray(body.events)) throw new Error('the calendar sent no event list');
          self.show(root, body.events, lang, text, page);
        })
        .catch(function (error) {
          if (request !== self.request) return;
          warn(String(error && error.message || error));
          var own = Array.prototype.some.call(self.childNodes, function (node) { return node.nodeType === 1 || String(node.textContent).trim() !== ''; });
          if (!own) root.replaceChildren(el('a', { part: 'link', href: page }, text.all));
        })
        .then(function () {
          clearTimeout(timer);
          if (request === self.request) self.removeAttribute('aria-busy');
        });
    }
    show(root, events, lang, text, page) {
      var level = parseInt(this.getAttribute('heading-level'), 10);
      var section = el('section');
      section.append(el('h' + (level >= 2 && level <= 6 ? level : 2), { part: 'heading' }, this.getAttribute('heading') || text.heading));
      if (events.length === 0) section.append(el('p', { part: 'empty' }, text.none));
      else {
        var list = el('ol', { part: 'list' });
        events.forEach(function (event) {
          var item = el('li', { part: 'item' });
          item.append(el('a', { part: 'link', href: web(event.url, page) }, plain(event.title)), when(event, lang));
          var venue = event.venue && !Array.isArray(event.venue) ? event.venue.venue : '';
          if (typeof venue === 'string' && venue !== '') item.append(el('span', { part: 'venue' }, plain(venue)));
          list.append(item);
        });
        section.append(list);
      }
      var all = el('p');
      all.append(el('a', { part: 'all', href: page }, text.all));
      section.append(all);
      root.replaceChildren(section);
    }
  }
  customElements.define('calendar-events', CalendarEvents);
})();
`;
}
