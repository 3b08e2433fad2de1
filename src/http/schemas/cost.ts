import type { JsonSchema } from './json-schema.ts';

/** `cost_details` of an event (10 §3.4). */
export const CostDetails: JsonSchema = {
  type: 'object',
  description: 'The cost of an event broken down into currency and values.',
  properties: {
    currency_symbol: { type: 'string', description: 'Currency symbol found around the cost values; empty when there is none.' },
    currency_code: { type: 'string', description: 'Currency code; always empty.' },
    currency_position: {
      type: 'string',
      enum: ['prefix', 'postfix', ''],
      description: 'Whether the currency symbol goes before (prefix) or after (postfix) the number; empty when there is no symbol.',
    },
    values: { type: 'array', items: { type: 'string' }, description: 'Every number found in the cost, in ascending order; a cost without a number gives its slug.' },
  },
};
