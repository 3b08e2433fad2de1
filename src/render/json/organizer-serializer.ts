import { imageUrl } from './image-serializer.ts';
import { ORGANIZER } from '../../domain/linked-posts/linked-post-type.ts';
import type { LinkedRecord } from '../../storage/repositories/linked-posts-repository.ts';
import type { MediaRow } from '../../storage/schema.ts';
import type { RenderContext } from '../context.ts';
import { jsonLdDescription, serializeLinkedPost, type LinkedSerializeOptions } from './linked-post-serializer.ts';

/** The schema.org Person of an organizer (20 §4.5); plain e-mail, no obfuscation (20 §10 #3). */
export function organizerJsonLd(record: LinkedRecord, image: MediaRow | undefined, site: string): Record<string, unknown> {
  const website = record.website ?? '';
  const jsonLd: Record<string, unknown> = { '@type': 'Person', name: record.name.trim(), description: jsonLdDescription(record.description) };
  if (image) jsonLd.image = imageUrl(image, site);
  jsonLd.url = website;
  jsonLd.telephone = record.phone ?? '';
  jsonLd.email = record.email ?? '';
  jsonLd.sameAs = website;
  return jsonLd;
}

/** The organizer object of 20 §3, also embedded in events (10-events §3.7). */
export function serializeOrganizer(record: LinkedRecord, image: MediaRow | undefined, ctx: RenderContext, options: LinkedSerializeOptions): Record<string, unknown> {
  return serializeLinkedPost(ORGANIZER, record, image, ctx, options, organizerJsonLd);
}
