/**
 * WordPress's image sizes (110-media §4.2; R: `image_resize_dimensions()`, `wp_constrain_dimensions()`,
 * `wp_fuzzy_number_match()`): which sizes an image gets and their exact dimensions. Computed here
 * and handed to the encoder as they are, never left to the encoder's rounding.
 */

export type SizeName = 'medium' | 'large' | 'thumbnail' | 'medium_large' | '1536x1536' | '2048x2048';

interface SizeRule {
  name: SizeName;
  width: number;
  /** Infinity: any height (`medium_large`). */
  height: number;
  crop: boolean;
}

/** In R's creation order, the order the `sizes` object lists them (§7.1). */
export const SIZE_RULES: readonly SizeRule[] = [
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium_large', width: 768, height: Infinity, crop: false },
  { name: '1536x1536', width: 1536, height: 1536, crop: false },
  { name: '2048x2048', width: 2048, height: 2048, crop: false },
];

/** R's `big_image_size_threshold`: a longer side is scaled to fit this square. */
export const BIG_IMAGE_THRESHOLD = 2560;

export interface Dimensions {
  width: number;
  height: number;
}

export interface PlannedSize extends Dimensions {
  name: SizeName;
  crop: boolean;
}

/** (W, H) fitted into the box, R's rounding: a bounding side one pixel short is set to the box. */
export function fitInto(image: Dimensions, boxWidth: number, boxHeight: number): Dimensions {
  const byWidth = boxWidth / image.width;
  const byHeight = boxHeight / image.height;
  const ratio = Math.min(1, byWidth, byHeight);
  let width = Math.max(1, Math.round(image.width * ratio));
  let height = Math.max(1, Math.round(image.height * ratio));
  if (ratio < 1 && ratio === byWidth && width === boxWidth - 1) width = boxWidth;
  if (ratio < 1 && ratio === byHeight && height === boxHeight - 1) height = boxHeight;
  return { width, height };
}

/** The stored full image: the upload, or its fit into the big-image threshold. */
export function fullDimensions(upload: Dimensions): Dimensions {
  return fitInto(upload, BIG_IMAGE_THRESHOLD, BIG_IMAGE_THRESHOLD);
}

function isFuzzyMatch(a: Dimensions, b: Dimensions): boolean {
  return Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1;
}

/** The sizes made from a full image of these dimensions: only those smaller than it. */
export function plannedSizes(full: Dimensions): PlannedSize[] {
  const sizes: PlannedSize[] = [];
  for (const rule of SIZE_RULES) {
    const dimensions = rule.crop
      ? { width: Math.min(rule.width, full.width), height: Math.min(rule.height, full.height) }
      : fitInto(full, rule.width, rule.height);
    if (isFuzzyMatch(dimensions, full)) continue;
    sizes.push({ name: rule.name, crop: rule.crop, ...dimensions });
  }
  return sizes;
}

/** Sizes of equal dimensions share one file (and one path): the key of that file. */
export function sizeFileKey(size: Dimensions): string {
  return `${size.width}x${size.height}`;
}
