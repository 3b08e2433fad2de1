import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fullDimensions, plannedSizes } from '../../../src/domain/media/sizes.ts';

/** `name WxH` of every size made from an upload of (width, height), after the big-image threshold. */
function sizesOf(width: number, height: number): { full: string; sizes: string[] } {
  const full = fullDimensions({ width, height });
  return { full: `${full.width}x${full.height}`, sizes: plannedSizes(full).map((size) => `${size.name} ${size.width}x${size.height}`) };
}

test('WordPress sizes for twelve shapes, made only when smaller than the full image (110-media §4.2)', () => {
  const table: Array<[number, number, string, string[]]> = [
    [4000, 3000, '2560x1920', ['medium 300x225', 'large 1024x768', 'thumbnail 150x150', 'medium_large 768x576', '1536x1536 1536x1152', '2048x2048 2048x1536']],
    [3000, 4000, '1920x2560', ['medium 225x300', 'large 768x1024', 'thumbnail 150x150', 'medium_large 768x1024', '1536x1536 1152x1536', '2048x2048 1536x2048']],
    [1000, 1000, '1000x1000', ['medium 300x300', 'thumbnail 150x150', 'medium_large 768x768']],
    [2560, 1000, '2560x1000', ['medium 300x117', 'large 1024x400', 'thumbnail 150x150', 'medium_large 768x300', '1536x1536 1536x600', '2048x2048 2048x800']],
    [2561, 1000, '2560x1000', ['medium 300x117', 'large 1024x400', 'thumbnail 150x150', 'medium_large 768x300', '1536x1536 1536x600', '2048x2048 2048x800']],
    [768, 500, '768x500', ['medium 300x195', 'thumbnail 150x150']],
    // 768 × 499 is within a pixel of 769 × 500 on both sides (R wp_fuzzy_number_match): not made.
    [769, 500, '769x500', ['medium 300x195', 'thumbnail 150x150']],
    [770, 500, '770x500', ['medium 300x195', 'thumbnail 150x150', 'medium_large 768x499']],
    [151, 100, '151x100', []],
    [152, 100, '152x100', ['thumbnail 150x100']],
    [10_000, 500, '2560x128', ['medium 300x15', 'large 1024x51', 'thumbnail 150x128', 'medium_large 768x38', '1536x1536 1536x77', '2048x2048 2048x102']],
    [1, 5000, '1x2560', ['medium 1x300', 'large 1x1024', 'thumbnail 1x150', '1536x1536 1x1536', '2048x2048 1x2048']],
  ];
  for (const [width, height, full, sizes] of table) {
    assert.deepEqual(sizesOf(width, height), { full, sizes }, `${width}x${height}`);
  }
});
