import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { contrast, DARK_BACKGROUND, DARK_SURFACE, darkAccent, DEFAULT_ACCENT } from '../../../src/web/theme/colours.ts';

/** The message of the ConfigError `loadConfig(env)` throws: one line, naming the variable. */
function refusal(env: Record<string, string>, variable: string): string {
  let message = '';
  assert.throws(() => loadConfig(env), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    message = error.message;
    return true;
  });
  assert.ok(message.startsWith(`${variable} `), message);
  assert.ok(!message.includes('\n'), message);
  return message;
}

/** A PNG's signature and header chunk: all that is read of it for its size. */
function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'ascii');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.set([8, 6, 0, 0, 0], 24);
  return header;
}

describe('CALENDAR_ACCENT_COLOR', () => {
  test('defaults to #0b57a4; a readable #rrggbb colour is taken, in lower case', () => {
    assert.equal(loadConfig({}).brand.accentColor, DEFAULT_ACCENT);
    assert.equal(DEFAULT_ACCENT, '#0b57a4');
    assert.equal(loadConfig({ CALENDAR_ACCENT_COLOR: ' #00695C ' }).brand.accentColor, '#00695c');
  });

  test('a colour below 4.5:1 against the light background is refused with one line naming the ratio', () => {
    assert.match(refusal({ CALENDAR_ACCENT_COLOR: '#ffcc00' }, 'CALENDAR_ACCENT_COLOR'), /#ffcc00 has a contrast of 1\.5\d:1 against the light background #ffffff; text needs at least 4\.5:1/);
    // 4.47:1, which rounds to 4.5 but does not reach it.
    assert.match(refusal({ CALENDAR_ACCENT_COLOR: '#777777' }, 'CALENDAR_ACCENT_COLOR'), /contrast of 4\.47:1/);
    assert.equal(loadConfig({ CALENDAR_ACCENT_COLOR: '#767676' }).brand.accentColor, '#767676', '4.54:1 is enough');
  });

  for (const value of ['red', '#fff', '0b57a4', '#0b57a4ff', '#0b57ag', 'rgb(11, 87, 164)']) {
    test(`"${value}" is refused with one line`, () => {
      assert.equal(refusal({ CALENDAR_ACCENT_COLOR: value }, 'CALENDAR_ACCENT_COLOR'), `CALENDAR_ACCENT_COLOR must be a colour written #rrggbb, got "${value}"`);
    });
  }

  test('the dark variant reaches 4.5:1 against the dark background and surface, keeping readable accents as they are lightened least', () => {
    for (const accent of [DEFAULT_ACCENT, '#000000', '#767676', '#d6336c', '#00695c', '#4b0082', '#b00020']) {
      const dark = darkAccent(accent);
      assert.ok(contrast(dark, DARK_SURFACE) >= 4.5, `${accent} → ${dark} on the surface`);
      assert.ok(contrast(dark, DARK_BACKGROUND) >= 4.5, `${accent} → ${dark} on the background`);
      // One step less light would not do: the variant is as close to the accent as it can be.
      assert.ok(contrast(dark, DARK_SURFACE) < 6, `${accent} → ${dark} lightened more than needed`);
    }
  });

  test('the service refuses to start with one line and a non-zero exit', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, DATABASE_URL: 'sqlite::memory:', PORT: '0', CALENDAR_ACCENT_COLOR: '#ffcc00' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(run.status, 0);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /^calendar: cannot start: CALENDAR_ACCENT_COLOR #ffcc00 has a contrast of 1\.\d\d:1/);
  });
});

describe('CALENDAR_LOGO_FILE and CALENDAR_CUSTOM_CSS', () => {
  const folder = mkdtempSync(join(tmpdir(), 'calendar-brand-settings-'));
  const file = (name: string, body: string | Buffer) => {
    const path = join(folder, name);
    writeFileSync(path, body);
    return path;
  };
  after(() => rmSync(folder, { recursive: true, force: true }));

  test('none by default', () => {
    assert.equal(loadConfig({}).brand.logo, null);
    assert.equal(loadConfig({}).brand.customCss, null);
  });

  test('a PNG, a WebP and an SVG are known by their content, whatever their name, with the size from their header', () => {
    const png = loadConfig({ CALENDAR_LOGO_FILE: file('logo.dat', pngHeader(320, 80)) }).brand.logo!;
    assert.deepEqual({ ...png, body: png.body.length }, { body: 33, extension: 'png', type: 'image/png', width: 320, height: 80 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'ascii');
    webp.writeUInt32LE(22, 4);
    webp.write('WEBPVP8X', 8, 'ascii');
    webp.writeUIntLE(199, 24, 3);
    webp.writeUIntLE(49, 27, 3);
    const shownWebp = loadConfig({ CALENDAR_LOGO_FILE: file('logo.png', webp) }).brand.logo!;
    assert.deepEqual([shownWebp.extension, shownWebp.type, shownWebp.width, shownWebp.height], ['webp', 'image/webp', 200, 50]);
    const svg = loadConfig({ CALENDAR_LOGO_FILE: file('logo.svg', '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 30"><rect width="120" height="30"/></svg>') }).brand.logo!;
    assert.deepEqual([svg.extension, svg.type, svg.width, svg.height], ['svg', 'image/svg+xml', 120, 30]);
  });

  test('a missing file, another image type, text and an SVG without a size are refused with one line', () => {
    assert.match(refusal({ CALENDAR_LOGO_FILE: join(folder, 'missing.png') }, 'CALENDAR_LOGO_FILE'), /missing\.png" cannot be read \(ENOENT\)$/);
    const gif = Buffer.from('GIF89a\x10\x00\x10\x00\x00\x00\x00', 'latin1');
    assert.match(refusal({ CALENDAR_LOGO_FILE: file('logo-gif.png', gif) }, 'CALENDAR_LOGO_FILE'), /logo-gif\.png" is not a PNG, JPEG, WebP or SVG image$/);
    assert.match(refusal({ CALENDAR_LOGO_FILE: file('notes.txt', 'our logo') }, 'CALENDAR_LOGO_FILE'), /is not a PNG, JPEG, WebP or SVG image$/);
    assert.match(refusal({ CALENDAR_LOGO_FILE: file('wide.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="100%"></svg>') }, 'CALENDAR_LOGO_FILE'), /wide\.svg" is not a PNG, JPEG, WebP or SVG image$/);
    assert.match(refusal({ CALENDAR_LOGO_FILE: file('huge.png', Buffer.concat([pngHeader(10, 10), Buffer.alloc(1024 * 1024)])) }, 'CALENDAR_LOGO_FILE'), /is larger than 1 MiB$/);
  });

  test('the custom stylesheet is read at start as written; a missing one is refused with one line', () => {
    const css = '.site-name-text{display:none}\n';
    assert.equal(loadConfig({ CALENDAR_CUSTOM_CSS: file('site.css', css) }).brand.customCss?.toString('utf8'), css);
    assert.match(refusal({ CALENDAR_CUSTOM_CSS: join(folder, 'gone.css') }, 'CALENDAR_CUSTOM_CSS'), /gone\.css" cannot be read \(ENOENT\)$/);
  });
});
