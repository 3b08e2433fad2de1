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
          permission: (ctx) => canModerate(ctx.user),
          handler: async (ctx, params) => {
            const result = await moderation.decide(ctx, ctx.user!, params.get<number>('id'), params.get<Decision>('decision'), {
              reason: params.has('reason') ? params.get<string>('reason') : undefined,
              notify: params.get<boolean>('notify'),
              eventUrl: (event) => `${ctx.urls.edition}/event/${event.slug}/`,
            });
            return { body: result };
          },
        },
      ],
    },
  ];
}
