import { contentHash } from './assets.ts';

/**
 * The pages' one optional script (55 §13), kept in the code so it ships inside the bundle. Pages
 * work fully without it; it only enhances: calendar navigation (view switch, month/day/list
 * paging) swaps the events bar and `<main>` in place from `?partial=1`, updates history, moves
 * focus to the new `h1` and announces it; arrow keys move between day links of the month grid.
 * Map pages, to and from, load whole (their script and image policy come with the page).
 * Any failure falls back to ordinary navigation. Plain ES2017 for every current browser.
 */
export const ENHANCE_SCRIPT = `(function () {
  'use strict';
  var main = document.getElementById('main');
  if (!main || document.getElementById('calendar-map') || !window.fetch || !window.DOMParser || !window.history || !history.pushState) return;
  var announcer = document.createElement('p');
  announcer.className = 'vh';
  announcer.setAttribute('aria-live', 'polite');
  document.body.appendChild(announcer);

  // What <main> shows: a history step that only changes the fragment (the skip link) is no view change.
  var shown = location.pathname + location.search;
  function load(href, push) {
    var partial = new URL(href, location.href);
    partial.searchParams.set('partial', '1');
    return fetch(partial.href, { credentials: 'same-origin' }).then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status);
      return response.text();
    }).then(function (text) {
      var next = new DOMParser().parseFromString(text, 'text/html');
      var nextMain = next.getElementById('main');
      var nextBar = next.querySelector('.bar');
      var bar = document.querySelector('.bar');
      if (!nextMain || !nextBar || !bar) throw new Error('not a calendar view');
      // A map loads Leaflet and its tile policy with its own page (130 §7.2).
      if (nextMain.querySelector('#calendar-map')) throw new Error('a map page');
      main.innerHTML = nextMain.innerHTML;
      bar.replaceWith(document.adoptNode(nextBar));
      document.title = next.title;
      if (push) history.pushState({ calendar: true }, '', href);
      shown = location.pathname + location.search;
      var heading = main.querySelector('h1');
      if (heading) {
        heading.setAttribute('tabindex', '-1');
        heading.focus();
        announcer.textContent = heading.textContent;
      }
    });
  }

  document.addEventListener('click', function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!link || !link.closest('main nav.paging, nav.views')) return;
    if (link.origin !== location.origin) return;
    event.preventDefault();
    load(link.href, true).catch(function () { location.assign(link.href); });
  });

  window.addEventListener('popstate', function () {
    if (location.pathname + location.search === shown) return;
    load(location.href, false).catch(function () { location.reload(); });
  });

  var steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
  main.addEventListener('keydown', function (event) {
    var step = steps[event.key];
    var cell = step && event.target instanceof Element ? event.target.closest('table.month td') : null;
    if (!cell) return;
    var cells = Array.prototype.slice.call(main.querySelectorAll('table.month td'));
    for (var i = cells.indexOf(cell) + step; i >= 0 && i < cells.length; i += step) {
      var target = cells[i].querySelector('.day-number a');
      if (target) {
        event.preventDefault();
        target.focus();
        return;
      }
    }
  });
})();
`;

/** Under `{base}`; the version changes with the content, so it may be cached for long. */
export const ENHANCE_SCRIPT_PATH = `/assets/calendar.js?v=${contentHash(ENHANCE_SCRIPT)}`;
