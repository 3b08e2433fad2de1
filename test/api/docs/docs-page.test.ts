import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EDITION_PREFIXES, LANGUAGES } from '../../../src/i18n/catalog.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

function directives(policy: unknown): Map<string, string> {
  return new Map(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
}

for (const dialect of DIALECTS) {
  describe(`{base}/docs: the browsable documentation page [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    for (const lang of LANGUAGES) {
      test(`${lang}: the page loads the UI from this service and renders the edition's document`, async () => {
        const res = await t.request('GET', `${EDITION_PREFIXES[lang]}/docs`);
        assert.equal(res.status, 200);
        assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
        assert.match(res.text, new RegExp(`<html lang="${lang}">`));
        assert.match(res.text, new RegExp(`data-document-url="${EDITION_PREFIXES[lang]}/calendar/events/v1/doc"`));
        // Every script is a file of this service: nothing inline, nothing from elsewhere.
        const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
        assert.equal(scripts.length, 2);
        for (const [, attributes, content] of scripts) {
          assert.match(attributes, /src="\/docs\/assets\/[\w.-]+\.js"/);
          assert.equal(content, '');
        }
        assert.doesNotMatch(res.text, /https?:\/\//);
      });
    }

    test('a strict Content-Security-Policy: own scripts and styles only, no inline code, requests to this service only', async () => {
      const res = await t.request('GET', '/it/docs/');
      const policy = directives(res.headers['content-security-policy']);
      assert.equal(policy.get('default-src'), "'none'");
      assert.equal(policy.get('script-src'), "'self'");
      assert.equal(policy.get('style-src'), "'self'");
      assert.equal(policy.get('img-src'), "'self' data:");
      // The configured public origin is where "try it" sends requests.
      assert.equal(policy.get('connect-src'), "'self' http://calendar.test");
      assert.equal(policy.get('frame-ancestors'), "'none'");
      assert.equal(policy.get('base-uri'), "'none'");
      assert.equal(policy.get('form-action'), "'none'");
    });

    test('the UI files are served from the installed package; nothing else of it is', async () => {
      for (const [file, type] of [
        ['swagger-ui-bundle.js', /^application\/javascript/],
        ['docs-init.js', /^application\/javascript/],
        ['swagger-ui.css', /^text\/css/],
        ['favicon-32x32.png', /^image\/png/],
      ] as const) {
        const res = await t.request('GET', `/docs/assets/${file}`);
        assert.equal(res.status, 200, file);
        assert.match(String(res.headers['content-type']), type, file);
      }
      for (const file of ['index.html', 'swagger-initializer.js', 'swagger-ui-bundle.js.map', 'package.json', '../package.json', '%2e%2e/package.json']) {
        assert.equal((await t.request('GET', `/docs/assets/${file}`)).status, 404, file);
      }
    });
  });

  describe(`{base}/docs under a base path, links from the request [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_PUBLIC_URL: '', CALENDAR_BASE_PATH: '/api' } });
    });
    after(() => t.close());

    test('page, assets and document live under the base path; requests go to the page`s own origin', async () => {
      const res = await t.request('GET', '/api/es/docs');
      assert.equal(res.status, 200);
      assert.match(res.text, /src="\/api\/docs\/assets\/swagger-ui-bundle\.js"/);
      assert.match(res.text, /data-document-url="\/api\/es\/calendar\/events\/v1\/doc"/);
      assert.equal(directives(res.headers['content-security-policy']).get('connect-src'), "'self'");
      assert.equal((await t.request('GET', '/api/docs/assets/docs-init.js')).status, 200);
      assert.equal((await t.request('GET', '/docs')).status, 404);
    });
  });
}
