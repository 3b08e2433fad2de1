import type { JsonSchema } from './json-schema.ts';

const text = (description: string): JsonSchema => ({ type: 'string', nullable: true, description });

/** What an editor reads of a submitted event (120 §7); the address and e-mail hashes are never shown. */
export const Submission: JsonSchema = {
  type: 'object',
  description: 'How the event was submitted through the public form, and what was decided.',
  properties: {
    submitter_name: text('Name the visitor gave; null for a member, or once erased after the retention period.'),
    submitter_email: text('E-mail address the visitor gave; null for a member, or once erased after the retention period.'),
    member: { type: 'integer', nullable: true, description: 'User ID of the member who submitted it; null for a visitor.' },
    edition: { type: 'string', enum: ['en', 'da', 'it', 'es'], description: 'Language edition the form was sent in (the language of the mails).' },
    flags: { type: 'array', items: { type: 'string', enum: ['unverified', 'known-spammer'] }, description: 'unverified: no valid proof of work; known-spammer: the address or e-mail was marked as spam within 30 days.' },
    submitted: { type: 'string', description: 'When it was submitted, in UTC (YYYY-MM-DD HH:MM:SS).' },
    decision: { type: 'string', nullable: true, enum: ['approved', 'rejected', 'withdrawn'], description: 'approved, rejected, withdrawn by the member, or null while undecided.' },
    reason: text('Reason given with a rejection.'),
  },
};
