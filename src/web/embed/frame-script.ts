/**
 * `{base}/assets/embed-frame.js` (130 §10.1): tells the hosting page how tall the embed is, on
 * load and on every change of size, so the host can size its iframe. It sends a number only,
 * hence `targetOrigin` `*`.
 */
export const EMBED_FRAME_SCRIPT = `(function () {
  var last = -1;
  function post() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last || window.parent === window) return;
    last = height;
    window.parent.postMessage({ type: 'calendar-embed-height', height: height }, '*');
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(post).observe(document.documentElement);
  window.addEventListener('load', post);
  post();
})();
`;

export const EMBED_FRAME_SCRIPT_PATH = '/assets/embed-frame.js';
