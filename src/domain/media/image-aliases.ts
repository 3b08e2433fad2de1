/**
 * WordPress clients' names for `image` (110-media §7.2 ⚠): core's `featured_media`, and
 * `featured_image` that some clients send. Read only when `image` is absent, numeric ids only.
 */
export const IMAGE_ALIASES = ['featured_media', 'featured_image'] as const;

export const IMAGE_ALIAS_DESCRIPTION = 'WordPress\'s name for image, read when image is absent: the ID of an existing image; 0 removes it.';

/** A media id (or 0) as an alias carries it: a non-negative integer or its digits. */
export function aliasId(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/** The `image` input an alias stands for (`''` removes), or undefined when none was sent. */
export function imageFromAliases(sent: (name: string) => unknown): number | '' | undefined {
  for (const name of IMAGE_ALIASES) {
    const id = aliasId(sent(name));
    if (id !== undefined) return id === 0 ? '' : id;
  }
  return undefined;
}
