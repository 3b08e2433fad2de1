import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { MediaService } from '../src/services/media/media-service.ts';
import { openStorage } from '../src/storage/database.ts';
import { DirectoryStore } from '../src/storage/uploads/directory-store.ts';

/**
 * `npm run bench:media` (110-media §11): a 12-megapixel camera JPEG (4000 × 3000, EXIF
 * orientation 6) uploaded through the media service — checks, decode, full image and six sizes,
 * stored in a directory with its record in SQLite — timed, with the longest event-loop stall
 * meanwhile (a 1 ms timer keeps the loop busy, as API reads would); then the peak RSS while a
 * 50-megapixel JPEG is processed. Targets: < 1.5 s, < 50 ms, < 300 MB.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** A noisy photo-like JPEG: noise keeps the encoder from cheating with flat colour. */
function cameraJpeg(width: number, height: number, orientation?: number): Promise<Buffer> {
  const picture = sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 120, sigma: 40 } } }).jpeg({ quality: 90 });
  return (orientation === undefined ? picture : picture.withMetadata({ orientation })).toBuffer();
}

const directory = mkdtempSync(join(tmpdir(), 'calendar-bench-media-'));
const config = loadConfig({ DATABASE_URL: `sqlite:${join(directory, 'bench.db')}`, CALENDAR_UPLOAD_MAX_BYTES: String(100 * 1024 * 1024), CALENDAR_UPLOAD_MAX_PIXELS: '50000000' });
const storage = await openStorage(config.databaseUrl);
const media = new MediaService(storage, new DirectoryStore(join(directory, 'uploads')), config.media, config.timezone, () => new Date());

try {
  const twelve = await cameraJpeg(4000, 3000, 6);
  const fifty = await cameraJpeg(8000, 6250);
  const timings: number[] = [];
  const stalls: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const ticker = setInterval(() => {}, 1);
    delay.enable();
    const started = performance.now();
    await media.upload({ bytes: twelve, fileName: `camera-${run}.jpg`, author: 1 });
    timings.push(performance.now() - started);
    delay.disable();
    clearInterval(ticker);
    stalls.push(delay.max / 1e6);
  }
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  await media.upload({ bytes: fifty, fileName: 'fifty.jpg', author: 1 });
  const fiftyMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  console.log(`media: 12 MP JPEG (${mb(twelve.length)} MB, orientation 6) → full + six sizes stored: median ${timings.sort((a, b) => a - b)[Math.floor(RUNS / 2)].toFixed(0)} ms over ${RUNS} runs (target < 1500 ms)`);
  console.log(`media: longest event-loop stall meanwhile ${Math.max(...stalls).toFixed(1)} ms (target < 50 ms)`);
  console.log(`media: 50 MP JPEG (${mb(fifty.length)} MB) processed in ${fiftyMs.toFixed(0)} ms; peak RSS ${mb(peak)} MB (${mb(before)} MB before; target < 300 MB)`);
} finally {
  await storage.close();
  rmSync(directory, { recursive: true, force: true });
}
