import { canModerate } from '../../domain/auth/capabilities.ts';
import { rule } from '../../args/validators.ts';
import type { ModerationService, Decision } from '../../services/submissions/moderation-service.ts';
import type { RouteDef } from '../rest/endpoint.ts';

const DECISIONS: Decision[] = ['approve', 'reject', 'spam'];

/**
 * `POST {api}/calendar/admin/v1/events/{id}/moderation` (120 §8.2): approve, reject with a reason,
 * or mark as spam; editors and administrators.
 */
export function moderationRoutes(moderation: ModerationService): RouteDef[] {
  return [
    {
      pattern: '/events/(?P<id>\\d+)/moderation',
      endpoints: [
        {
          methods: ['POST'],
          summary: 'Decides a submitted event: approve (publishes it with its new venue and organizer), reject (trash, with a reason mailed to the submitter) or spam (deleted, remembered 30 days).',
          args: {
            id: { type: 'integer', required: true, in: 'path', description: 'The submitted event.' },
            decision: { type: 'string', required: true, enum: DECISIONS, description: 'approve, reject or spam.' },
            reason: { type: 'string', description: 'Why it was rejected (reject only, at most 1000 characters), quoted in the mail to the submitter.', validate: rule((value) => typeof value === 'string' && value.length <= 1000, { code: 'rest_too_large', messageKey: 'submit_reason_too_long', vars: { max: 1000 } }) },
            notify: { type: 'boolean', default: true, description: 'Mail the submitter (approve, reject).' },
          },
          responses: {
            200: {
              description: 'The decision was carried out.',
              schema: {
                type: 'object',
                properties: {
                  id: { type: 'integer', description: 'The submitted event.' },
                  decision: { type: 'string', enum: DECISIONS, description: 'The decision taken.' },
                  status: { type: 'string', description: 'The event\'s status afterwards: publish, trash, or deleted (spam).' },
                  mail: { type: 'string', enum: ['queued', 'none'], description: 'Whether a mail to the submitter was queued.' },
                },
              },
            },
            400: { description: 'rest_missing_callback_param: decision is missing; rest_invalid_param: decision is not approve, reject or spam, or reason is longer than 1000 characters.' },
            401: { description: 'rest_forbidden: the caller is not signed in.' },
            403: { description: 'rest_forbidden: only editors and administrators decide submissions.' },
            404: { description: 'rest-event-not-found: no event has this ID; submission-not-found: the event was not submitted through the form.' },
            409: { description: 'submission-already-decided: the submission was decided already, or its event is no longer pending or draft.' },
          },
          permission: (ctx) => canModerate(ctx.user),
          handler: async (ctx, params) => {
            const result = await moderation.decide(ctx, ctx.user!, params.get<number>('id'), params.get<Decision>('decision'), {
              reason: params.has('reason') ? params.get<string>('reason') : undefined,
              notify: params.get<boolean>('notify'),
            });
            return { body: result };
          },
        },
      ],
    },
  ];
}
