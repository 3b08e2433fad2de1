import type { JsonSchema } from './json-schema.ts';

/** `*_details` of an event (10 §3.2): the parts of a datetime string, as zero-padded strings. */
export const DateDetails: JsonSchema = {
  type: 'object',
  description: 'The parts of a date and time, as zero-padded strings.',
  properties: {
    year: { type: 'string', description: 'Four-digit year.' },
    month: { type: 'string', description: 'Two-digit month, 01 to 12.' },
    day: { type: 'string', description: 'Two-digit day of the month.' },
    hour: { type: 'string', description: 'Two-digit hour, 00 to 23.' },
    minutes: { type: 'string', description: 'Two-digit minutes.' },
    seconds: { type: 'string', description: 'Two-digit seconds.' },
  },
};
