import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { jpeg } from '../../helpers/images.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { runImport, startSource, type SourceInstance } from './support.ts';

/** 110-media §7.3 and §12 #10: `--copy-images` from a second instance (WordPress layout, so `wp/v2/media` answers). */
for (const dialect of DIALECTS) {
  describe(`calendar import site --copy-images [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let source: SourceInstance;
    let target: TestApp;
    let sourceDir: string;
    let targetDir: string;
    let imageId = 0;

    const importNow = async () => {
      const run = await runImport(target.config.databaseUrl, [source.origin, '--user', source.admin.login, `--password=${source.admin.password}`, '--allow-private', '--json', '--copy-images'], undefined, { CALENDAR_UPLOADS_DIR: targetDir });
      assert.ok(run.report, `no JSON summary: ${run.stdout} ${run.stderr}`);
      return run.report;
    };
    const targetGet = async (path: string) => (await target.request('GET', path, { as: 'administrator' })).body;

    before(async () => {
      sourceDir = mkdtempSync(join(tmpdir(), 'calendar-copy-source-'));
      targetDir = mkdtempSync(join(tmpdir(), 'calendar-copy-target-'));
      source = await startSource({ wordpressLayout: true, env: { CALENDAR_UPLOADS_DIR: sourceDir } });
      const uploaded = await fetch(`${source.origin}/wp-json/calendar/admin/v1/media?title=Harbour%20poster&alt_text=Harbour%20at%20dusk`, {
        method: 'POST',
        headers: { authorization: source.t.authHeader(source.t.users.administrator), 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="harbour.jpg"' },
        body: await jpeg(1200, 800),
      });
      assert.equal(uploaded.status, 201);
      imageId = (await uploaded.json()).id;
      await source.call('POST', '/events', { title: 'Harbour Jazz', status: 'publish', start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 21:00:00', image: imageId });
      await source.call('POST', '/venues', { venue: 'Harbour Stage', status: 'publish', image: imageId });
      await source.call('POST', '/organizers', { organizer: 'Lost Posters', status: 'publish', image: 'http://127.0.0.1:9/missing.jpg' });
      target = await startTestApp(dialect, { env: { CALENDAR_UPLOADS_DIR: targetDir } });
    });
    after(async () => {
      await source?.close();
      await target?.close();
      for (const dir of [sourceDir, targetDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('each distinct image is copied once, processed as an upload with its alt text and title; a failing one is a warning and stays a URL', async () => {
      const report = await importNow();
      assert.equal(report.kinds.event.created, 1, JSON.stringify(report));
      const listed = await targetGet(`${NS}/events?start_date=2030-01-01&end_date=2030-12-31`);
      const [event] = listed.events ?? [];
      assert.ok(event, JSON.stringify(listed).slice(0, 500));
      assert.match(event.image.url, /^http:\/\/calendar\.test\/uploads\/\d{4}\/\d{2}\/harbour\.jpg$/);
      assert.equal(event.image.sizes.large.width, 1024);
      const [venue] = (await targetGet(`${NS}/venues`)).venues;
      assert.equal(venue.image.id, event.image.id, 'one copy for the two records');
      const media = await targetGet(`/calendar/admin/v1/media/${event.image.id}`);
      assert.deepEqual([media.source, media.alt_text, media.title], ['sideload', 'Harbour at dusk', 'Harbour poster']);
      assert.equal((await targetGet('/calendar/admin/v1/media?source=sideload')).total, 1);

      const [organizer] = (await targetGet(`${NS}/organizers`)).organizers;
      assert.equal(organizer.image.url, 'http://127.0.0.1:9/missing.jpg');
      assert.equal(report.warnings.length, 1, JSON.stringify(report.warnings));
      assert.match(report.warnings[0].message, /"Lost Posters": image not copied/);
    });

    test('a re-run fetches nothing: the id map gives the copy, even with the source file gone', async () => {
      const before = (await targetGet(`${NS}/events?start_date=2030-01-01&end_date=2030-12-31`)).events[0];
      // The source's files moved away: a fetch would fail and warn.
      renameSync(sourceDir, `${sourceDir}-moved`);
      try {
        const [sourceEvent] = (await source.call('GET', '/events?start_date=2030-01-01&end_date=2030-12-31')).events;
        await source.call('POST', `/events/${sourceEvent.id}`, { title: 'Harbour Jazz, again' });
        const report = await importNow();
        assert.equal(report.kinds.event.updated, 1);
        assert.deepEqual(report.warnings.filter((warning: { message: string }) => !warning.message.includes('Lost Posters')), []);
        const after = (await targetGet(`${NS}/events?start_date=2030-01-01&end_date=2030-12-31`)).events[0];
        assert.equal(after.title, 'Harbour Jazz, again');
        assert.equal(after.image.id, before.image.id);
      } finally {
        renameSync(`${sourceDir}-moved`, sourceDir);
      }
      assert.ok(readdirSync(targetDir, { recursive: true }).length > 0);
    });
  });
}
