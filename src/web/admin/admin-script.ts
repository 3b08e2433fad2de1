import { contentHash } from '../assets.ts';

/**
 * The back office's one optional script (100 §12), same origin, deferred, kept in the code so it
 * ships inside the bundle. Every form works without it. A list of small enhancements, each
 * started on its own so that one failing leaves the others (and the plain forms) working; the
 * editor's enhancements (live recurrence preview, venue search, unsaved-changes warning) are added
 * to `enhancements` by w-admin-editor. Scripts read the REST nonce from
 * `<meta name="calendar-rest-nonce">` and send it as `X-WP-Nonce` (100 §6.2).
 */
export const ADMIN_SCRIPT = `(function () {
  'use strict';
  var meta = document.querySelector('meta[name="calendar-rest-nonce"]');
  var admin = {
    nonce: meta ? meta.getAttribute('content') : null,
    /** fetch() with the cookie and the nonce, same origin only. */
    api: function (url, init) {
      init = init || {};
      init.credentials = 'same-origin';
      init.headers = Object.assign({ 'X-WP-Nonce': admin.nonce || '' }, init.headers || {});
      return fetch(url, init);
    }
  };
  var enhancements = [
    /* After a refused form, focus goes to the error summary (100 §12). */
    function focusErrorSummary() {
      var summary = document.getElementById('error-summary');
      if (summary) summary.focus();
    }
  ];
  enhancements.forEach(function (enhance) {
    try { enhance(admin); } catch (e) { /* the plain page keeps working */ }
  });
})();
`;

/** Under `{base}`; the version changes with the content, so it may be cached for long. */
export const ADMIN_SCRIPT_PATH = `/assets/admin.js?v=${contentHash(ADMIN_SCRIPT)}`;
