import { ref, type JsonSchema } from './json-schema.ts';

/** One resized copy of an image (the service makes none, so `sizes` is never emitted). */
export const ImageSize: JsonSchema = {
  type: 'object',
  description: 'A resized copy of an image.',
  properties: {
    width: { type: 'integer', description: 'Width in pixels.' },
    height: { type: 'integer', description: 'Height in pixels.' },
    'mime-type': { type: 'string', description: 'Media type of the file.' },
    filesize: { type: 'integer', description: 'File size in bytes.' },
    url: { type: 'string', format: 'uri', description: 'Address of the file.' },
  },
};

/** The featured image of an event, venue or organizer (10 §3.5); members that are unknown are left out. */
export const Image: JsonSchema = {
  type: 'object',
  description: 'A featured image.',
  properties: {
    url: { type: 'string', format: 'uri', description: 'Address of the full-size image.' },
    id: { type: 'integer', description: 'Image ID.' },
    extension: { type: 'string', description: 'File extension, e.g. jpg.' },
    width: { type: 'integer', description: 'Width in pixels, when known.' },
    height: { type: 'integer', description: 'Height in pixels, when known.' },
    filesize: { type: 'integer', description: 'File size in bytes, when known.' },
    sizes: { type: 'object', additionalProperties: ref('ImageSize'), description: 'Resized copies keyed by size name.' },
  },
};
