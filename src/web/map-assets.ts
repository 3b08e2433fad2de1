import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { MapSettings } from '../config.ts';
import type { Asset } from './assets.ts';
import { MAP_SCRIPT, MAP_SCRIPT_PATH } from './map-script.ts';

/** What a map page links to and tells its script (130 §7.2), `{base}` included. */
export interface MapAssets {
  stylesheet: string;
  /** Leaflet, then ours: both deferred, so they run in this order. */
  scripts: string[];
  tiles: { url: string; attribution: string; attributionUrl: string | null };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
};

/** Leaflet's built files as its package ships them (the minified script, its source map, the stylesheet and images). */
const LEAFLET_FILES = ['leaflet.js', 'leaflet.js.map', 'leaflet.css'];

/**
 * Leaflet's `dist/` files served unchanged from our own origin under a versioned folder
 * (`/assets/leaflet-1.9.4/…`, so they may be cached for good and its stylesheet finds its images
 * beside it), and our map script under a hashed name. Read once at start.
 */
export function mapAssets(basePath: string, settings: MapSettings): { files: Asset[]; links: MapAssets } {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('leaflet/package.json'));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const folder = `/assets/leaflet-${version}`;
  const dist = join(root, 'dist');
  const names = [...LEAFLET_FILES, ...readdirSync(join(dist, 'images')).map((name) => `images/${name}`)];
  const leaflet = names.map((name): Asset => ({ path: `${folder}/${name}`, type: TYPES[extname(name)] ?? 'application/octet-stream', body: readFileSync(join(dist, name)) }));
  const script: Asset = { path: MAP_SCRIPT_PATH, type: TYPES['.js'], body: MAP_SCRIPT };
  return {
    files: [...leaflet, script],
    links: {
      stylesheet: `${basePath}${folder}/leaflet.css`,
      scripts: [`${basePath}${folder}/leaflet.js`, basePath + MAP_SCRIPT_PATH],
      tiles: { url: settings.tileUrl, attribution: settings.attribution, attributionUrl: settings.attributionUrl },
    },
  };
}
