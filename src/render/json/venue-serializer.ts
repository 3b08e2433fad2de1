import { imageUrl } from './image-serializer.ts';
import { VENUE } from '../../domain/linked-posts/linked-post-type.ts';
import type { LinkedRecord } from '../../storage/repositories/linked-posts-repository.ts';
import type { MediaRow } from '../../storage/schema.ts';
import type { RenderContext } from '../context.ts';
import { jsonLdDescription, serializeLinkedPost, type LinkedSerializeOptions } from './linked-post-serializer.ts';

/** Without members that are empty (20 §4.5: "empty entries dropped"). */
function compact(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== ''));
}

/** The schema.org Place of a venue (20 §4.5); `url` is empty as in the reference without its paid extension. */
export function venueJsonLd(record: LinkedRecord, image: MediaRow | undefined, site: string): Record<string, unknown> {
  const country = record.country ?? '';
  const region = record.stateprovince || (country === 'United States' ? record.state : record.province) || '';
  const jsonLd: Record<string, unknown> = { '@type': 'Place', name: record.name.trim(), description: jsonLdDescription(record.description) };
  if (image) jsonLd.image = imageUrl(image, site);
  jsonLd.url = '';
  jsonLd.address = compact({
    '@type': 'PostalAddress',
    streetAddress: record.address ?? '',
    addressLocality: record.city ?? '',
    addressRegion: region,
    postalCode: record.zip ?? '',
    addressCountry: country,
  });
  if (record.geo_lat !== null && record.geo_lat !== undefined && record.geo_lng !== null && record.geo_lng !== undefined) {
    jsonLd.geo = { '@type': 'GeoCoordinates', latitude: record.geo_lat, longitude: record.geo_lng };
  }
  jsonLd.telephone = record.phone ?? '';
  jsonLd.sameAs = record.website ?? '';
  return jsonLd;
}

/** The venue object of 20 §2, also embedded in events (10-events §3.7). */
export function serializeVenue(record: LinkedRecord, image: MediaRow | undefined, ctx: RenderContext, options: LinkedSerializeOptions): Record<string, unknown> {
  return serializeLinkedPost(VENUE, record, image, ctx, options, venueJsonLd);
}
