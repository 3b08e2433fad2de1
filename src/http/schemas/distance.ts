import type { JsonSchema } from './json-schema.ts';

/** `geo_distance` of a listed event or venue (70-geo §3.2). */
export const GeoDistance: JsonSchema = {
  type: 'object',
  description: 'Distance of the venue from the centre of a location search.',
  properties: {
    value: { type: 'number', description: 'The distance, rounded to 2 decimals.' },
    unit: { type: 'string', enum: ['mi', 'km'], description: 'Unit of the value: mi (miles) or km.' },
  },
};
