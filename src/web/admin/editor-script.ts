/**
 * The event editor's part of `{base}/assets/admin.js` (100 §12 enhancement). Every piece only
 * adds to a form that works without it, and any failure leaves the plain form as it is:
 * - live recurrence preview: the form posted with `action=preview_dates&partial=1` when a date
 *   or recurrence field changes, `#preview-dates` replaced by the answer, announced politely;
 * - venue search: a search box that filters the `venue` select from `GET {ns}/venues?search=`
 *   (session cookie + `X-WP-Nonce` from `<meta name="calendar-rest-nonce">`);
 * - a warning before leaving with unsaved changes;
 * - focus on the error summary after a 422 or 409.
 */
export const EDITOR_SCRIPT = String.raw`
(function () {
  var summary = document.getElementById('error-summary');
  if (summary) summary.focus();

  var form = document.querySelector('form[data-event-editor]');
  if (!form || !window.fetch || !window.URLSearchParams || !window.FormData) return;

  var dirty = false;
  form.addEventListener('input', function () { dirty = true; });
  form.addEventListener('change', function () { dirty = true; });
  form.addEventListener('submit', function () { dirty = false; });
  window.addEventListener('beforeunload', function (event) {
    if (!dirty) return;
    event.preventDefault();
    event.returnValue = '';
  });

  var PREVIEW_FIELDS = /^(recurrence_|start_date|start_time|end_date|end_time|all_day|timezone)/;
  var previewTimer = 0;
  var previewRun = 0;
  function previewBody() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) { if (typeof value === 'string' && name !== 'action') params.append(name, value); });
    params.set('action', 'preview_dates');
    params.set('partial', '1');
    return params;
  }
  function refreshPreview() {
    var pattern = form.elements.namedItem('recurrence_pattern');
    var start = form.elements.namedItem('start_date');
    if (!pattern || pattern.value === 'none' || !start || start.value === '') return;
    var run = ++previewRun;
    fetch(form.action, { method: 'POST', credentials: 'same-origin', body: previewBody() })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null || run !== previewRun) return;
        var current = document.getElementById('preview-dates');
        if (!current) return;
        var holder = document.createElement('div');
        holder.innerHTML = html;
        var fresh = holder.querySelector('#preview-dates');
        if (!fresh) return;
        current.replaceWith(fresh);
        var status = document.getElementById('preview-status');
        if (status) {
          status.textContent = '';
          setTimeout(function () { status.textContent = status.getAttribute('data-announce') || ''; }, 50);
        }
      })
      .catch(function () {});
  }
  function maybePreview(event) {
    var target = event.target;
    if (!target || !target.name || !PREVIEW_FIELDS.test(target.name)) return;
    clearTimeout(previewTimer);
    previewTimer = setTimeout(refreshPreview, 500);
  }
  form.addEventListener('change', maybePreview);
  form.addEventListener('input', maybePreview);

  var venue = form.querySelector('select[data-venues-url]');
  var nonce = document.querySelector('meta[name="calendar-rest-nonce"]');
  if (venue && nonce) {
    var box = document.createElement('div');
    box.className = 'field';
    var label = document.createElement('label');
    label.htmlFor = 'venue-search';
    label.textContent = venue.getAttribute('data-search-label') || '';
    var input = document.createElement('input');
    input.type = 'search';
    input.id = 'venue-search';
    input.autocomplete = 'off';
    input.setAttribute('aria-controls', venue.id);
    box.appendChild(label);
    box.appendChild(input);
    venue.closest('.field').before(box);
    var searchTimer = 0;
    var searchRun = 0;
    input.addEventListener('input', function (event) {
      event.stopPropagation();
      clearTimeout(searchTimer);
      searchTimer = setTimeout(function () {
        var text = input.value.trim();
        var run = ++searchRun;
        if (text === '') {
          Array.prototype.forEach.call(venue.options, function (option) { option.hidden = false; });
          return;
        }
        var url = venue.getAttribute('data-venues-url') + '?per_page=50&status=publish,draft,pending,private&search=' + encodeURIComponent(text);
        fetch(url, { credentials: 'same-origin', headers: { 'X-WP-Nonce': nonce.content, Accept: 'application/json' } })
          .then(function (response) { return response.ok ? response.json() : null; })
          .then(function (body) {
            if (!body || run !== searchRun) return;
            var found = {};
            (body.venues || []).forEach(function (item) { found[String(item.id)] = true; });
            Array.prototype.forEach.call(venue.options, function (option) {
              option.hidden = !(option.value === '' || option.value === 'new' || option.selected || found[option.value]);
            });
          })
          .catch(function () {});
      }, 300);
    });
    input.addEventListener('change', function (event) { event.stopPropagation(); });
  }
})();
`;
