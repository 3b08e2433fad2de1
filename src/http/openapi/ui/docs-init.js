// Starts Swagger UI on the document named by the page, so one file serves every edition and the
// page needs no inline script (its Content-Security-Policy allows none).
const documentUrl = document.currentScript.dataset.documentUrl;

window.ui = SwaggerUIBundle({
  url: documentUrl,
  dom_id: '#swagger-ui',
  deepLinking: true,
  showExtensions: true,
  // No calls to outside validators: the page talks to this service only.
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
