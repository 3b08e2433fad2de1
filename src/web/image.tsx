import type { ImageView } from './model.ts';

/** R's `max_srcset_image_width`. */
const MAX_SRCSET_WIDTH = 2048;

interface Candidate {
  url: string;
  width: number;
  height: number;
}

/** R `wp_image_matches_ratio()`: the full image scaled to the candidate's width lands within a pixel of its height. */
function matchesRatio(full: Candidate, candidate: Candidate): boolean {
  return Math.abs(Math.round((full.height * candidate.width) / full.width) - candidate.height) <= 1;
}

/** The full image and every size of its aspect ratio, widths up to 2048, one entry per width. */
export function srcset(full: Candidate, sizes: Candidate[]): string {
  const seen = new Set<number>();
  const members: string[] = [];
  for (const candidate of [full, ...sizes]) {
    if (candidate.width > MAX_SRCSET_WIDTH || seen.has(candidate.width) || !matchesRatio(full, candidate)) continue;
    seen.add(candidate.width);
    members.push(`${candidate.url} ${candidate.width}w`);
  }
  return members.join(', ');
}

/**
 * A record's image on a page (110-media §9): `srcset` of the uploaded sizes, `sizes` by the width
 * of `src` (R `wp_calculate_image_sizes()`), `width` and `height` so the page does not jump. The
 * main image of a single page shows `large`; summaries show `medium`, lazily, as decoration.
 */
export function ResponsiveImage({ image, alt, summary }: { image: ImageView; alt: string; summary: boolean }) {
  const lazy = summary ? { loading: 'lazy' as const } : {};
  if (image.width === undefined || image.height === undefined) {
    return <img src={image.url} alt={alt} {...lazy} decoding="async" />;
  }
  const full = { url: image.url, width: image.width, height: image.height };
  const sizes = Object.values(image.sizes ?? {}).map((size) => ({ url: size.url, width: size.width, height: size.height }));
  const shown = (summary ? image.sizes?.medium : image.sizes?.large) ?? full;
  if (sizes.length === 0) {
    return <img src={full.url} width={full.width} height={full.height} alt={alt} {...lazy} decoding="async" />;
  }
  return (
    <img
      src={shown.url}
      srcset={srcset(full, sizes)}
      sizes={`(max-width: ${shown.width}px) 100vw, ${shown.width}px`}
      width={shown.width}
      height={shown.height}
      alt={alt}
      {...lazy}
      decoding="async"
    />
  );
}
