/**
 * The event editor's entries of `{base}/assets/admin.js`'s `enhancements` (100 §12): function
 * expressions, each started on its own by the script with its `admin` helper (`admin.api` =
 * fetch with the session cookie and `X-WP-Nonce`). Each only adds to a form that works without
 * it, and any failure leaves the plain form as it is:
 * - live recurrence preview: the form posted with `action=preview_dates&partial=1` when a date
 *   or recurrence field changes, `#preview-dates` replaced by the answer, announced politely;
 * - venue search: a search box that filters the `venue` select from `GET {ns}/venues?search=`
 *   (session cookie + `X-WP-Nonce` from `<meta name="calendar-rest-nonce">`);
 * - a warning before leaving with unsaved changes.
 * (Focus on the error summary after a 422/409 is the script's own first enhancement.)
 */
export const EDITOR_ENHANCEMENTS = String.raw`
    /* Unsaved changes: a warning before leaving the editor (100 §12). */
    function unsavedWarning() {
      var form = document.querySelector('form[data-event-editor]');
      if (!form) return;
      var dirty = false;
      var touched = function (event) { if (event.target && event.target.name) dirty = true; };
      form.addEventListener('input', touched);
      form.addEventListener('change', touched);
      form.addEventListener('submit', function () { dirty = false; });
      window.addEventListener('beforeunload', function (event) {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = '';
      });
    },
    /* Live recurrence preview: preview_dates&partial=1 replaces #preview-dates (100 §12). */
    function livePreview() {
      var form = document.querySelector('form[data-event-editor]');
      if (!form || !window.URLSearchParams || !window.FormData) return;
      var fields = /^(recurrence_|start_date|start_time|end_date|end_time|all_day|timezone)/;
      var timer = 0;
      var run = 0;
      var refresh = function () {
        var pattern = form.elements.namedItem('recurrence_pattern');
        var start = form.elements.namedItem('start_date');
        if (!pattern || pattern.value === 'none' || !start || start.value === '') return;
        var params = new URLSearchParams();
        new FormData(form).forEach(function (value, name) { if (typeof value === 'string' && name !== 'action') params.append(name, value); });
        params.set('action', 'preview_dates');
        params.set('partial', '1');
        var mine = ++run;
        /* form.action would be the buttons named "action" */
        fetch(form.getAttribute('action'), { method: 'POST', credentials: 'same-origin', body: params })
          .then(function (response) { return response.ok ? response.text() : null; })
          .then(function (html) {
            var current = document.getElementById('preview-dates');
            if (html === null || mine !== run || !current) return;
            var holder = document.createElement('div');
            holder.innerHTML = html;
            var fresh = holder.querySelector('#preview-dates');
            if (!fresh) return;
            current.replaceWith(fresh);
            var status = document.getElementById('preview-status');
            if (!status) return;
            status.textContent = '';
            setTimeout(function () { status.textContent = status.getAttribute('data-announce') || ''; }, 50);
          })
          .catch(function () {});
      };
      var changed = function (event) {
        if (!event.target || !event.target.name || !fields.test(event.target.name)) return;
        clearTimeout(timer);
        timer = setTimeout(refresh, 500);
      };
      form.addEventListener('change', changed);
      form.addEventListener('input', changed);
    },
    /* Venue search: filters the venue select from GET {ns}/venues?search= (100 §12). */
    function venueSearch(admin) {
      var venue = document.querySelector('form[data-event-editor] select[data-venues-url]');
      if (!venue || !admin.nonce) return;
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
      var timer = 0;
      var run = 0;
      var show = function (keep) {
        Array.prototype.forEach.call(venue.options, function (option) {
          option.hidden = !(keep === null || option.value === '' || option.value === 'new' || option.selected || keep[option.value]);
        });
      };
      input.addEventListener('input', function () {
        clearTimeout(timer);
        timer = setTimeout(function () {
          var text = input.value.trim();
          var mine = ++run;
          if (text === '') return show(null);
          var url = venue.getAttribute('data-venues-url') + '?per_page=50&status=publish,draft,pending,private&search=' + encodeURIComponent(text);
          admin.api(url, { headers: { Accept: 'application/json' } })
            .then(function (response) { return response.ok ? response.json() : null; })
            .then(function (body) {
              if (!body || mine !== run) return;
              var keep = {};
              (body.venues || []).forEach(function (item) { keep[String(item.id)] = true; });
              show(keep);
            })
            .catch(function () {});
        }, 300);
      });
    },
`;
