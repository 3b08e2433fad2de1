import { contentHash } from './assets.ts';

/**
 * The map view's enhancement (130 §7.2), kept in the code so it ships inside the bundle; it runs
 * after Leaflet (both deferred, in order). It un-hides `#calendar-map` and draws one
 * keyboard-focusable marker per venue of `#calendar-map-data`, whose popup lists the venue's
 * events as links built from text nodes (never markup from the data). The page is complete
 * without it: any error, or tiles that never load, hides the map again and leaves the list.
 */
export const MAP_SCRIPT = `(function () {
  'use strict';
  var box = document.getElementById('calendar-map');
  var data = document.getElementById('calendar-map-data');
  if (!box || !data || !window.L) return;
  function giveUp() {
    box.hidden = true;
  }
  try {
    var venues = JSON.parse(data.textContent || '[]');
    if (!Array.isArray(venues) || venues.length === 0) return;
    box.hidden = false;
    var map = L.map(box, { scrollWheelZoom: false });
    // Leaflet writes attribution as markup: this one is built as text, and the link by the DOM.
    var credit = document.createElement('span');
    var url = box.getAttribute('data-attribution-url');
    var text = box.getAttribute('data-attribution') || '';
    if (url) {
      var link = document.createElement('a');
      link.href = url;
      link.textContent = text;
      credit.appendChild(link);
    } else {
      credit.textContent = text;
    }
    var loaded = false;
    L.tileLayer(box.getAttribute('data-tiles'), { attribution: credit.innerHTML, maxZoom: 19 })
      .on('tileload', function () { loaded = true; })
      .on('tileerror', function () { if (!loaded) giveUp(); })
      .addTo(map);
    var bounds = [];
    venues.forEach(function (venue) {
      var popup = document.createElement('div');
      var name = document.createElement('p');
      var strong = document.createElement('strong');
      strong.textContent = venue.name;
      name.appendChild(strong);
      popup.appendChild(name);
      var list = document.createElement('ul');
      venue.events.forEach(function (event) {
        var item = document.createElement('li');
        var anchor = document.createElement('a');
        anchor.href = event.url;
        anchor.textContent = event.title;
        item.appendChild(anchor);
        list.appendChild(item);
      });
      popup.appendChild(list);
      var position = [venue.lat, venue.lng];
      bounds.push(position);
      L.marker(position, { alt: venue.name, title: venue.name, keyboard: true }).bindPopup(popup).addTo(map);
    });
    map.fitBounds(bounds, { maxZoom: 15, padding: [24, 24] });
  } catch (error) {
    giveUp();
  }
})();
`;

/** Under `{base}`; the version changes with the content, so it may be cached for long. */
export const MAP_SCRIPT_PATH = `/assets/map.js?v=${contentHash(MAP_SCRIPT)}`;
