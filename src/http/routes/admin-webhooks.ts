import type { WebhookSettings } from '../../config.ts';
import { can } from '../../domain/auth/capabilities.ts';
import type { Reason } from '../../domain/errors.ts';
import { pageSize } from '../../domain/reasons.ts';
import { isTypePattern, VISIBILITIES, WEBHOOK_KINDS, WEBHOOK_OPS } from '../../domain/webhooks/subscription-rules.ts';
import type { User } from '../../domain/users/user.ts';
import type { WebhookMessageStatus } from '../../storage/schema.ts';
import { receiverUrlReason } from '../../services/webhooks/receiver-check.ts';
import type { WebhookInput, WebhooksService } from '../../services/webhooks/webhooks-service.ts';
import type { ArgSpec, ArgSpecs, Validator } from '../../args/arg-spec.ts';
import { parseList } from '../../args/coerce.ts';
import type { RouteDef } from '../rest/endpoint.ts';
import type { Params } from '../../args/validate-args.ts';

const MESSAGE_STATUSES: WebhookMessageStatus[] = ['pending', 'delivering', 'succeeded', 'failed', 'cancelled'];
const MAX_PER_PAGE = 100;

const TYPES_REASON: Reason = { code: 'rest_invalid_webhook_types', messageKey: 'reason_webhook_types', vars: { kinds: WEBHOOK_KINDS.join(', '), ops: WEBHOOK_OPS.join(', ') } };

/** The receiver URL (80 §4.1): its form, and outside insecure mode, where it points. */
function receiverUrl(allowInsecure: boolean): Validator {
  return async (value) => {
    const reason = await receiverUrlReason(value, allowInsecure);
    return reason === null || { reason };
  };
}

const typesValidator: Validator = (value) => {
  const list = parseList(value);
  return list.length > 0 && list.every((item) => typeof item === 'string' && isTypePattern(item)) ? true : { reason: TYPES_REASON };
};

function subscriptionArgs(settings: WebhookSettings, creating: boolean): ArgSpecs {
  const optional = <T extends ArgSpec>(spec: T, fallback: unknown): T => (creating ? { ...spec, default: fallback } : spec);
  return {
    url: { type: 'string', required: creating, description: 'Absolute https URL the messages are posted to.', validate: receiverUrl(settings.allowInsecure) },
    types: optional({ type: 'array', items: { type: 'string' }, description: 'Change patterns kind.op (event.*, *.delete, *).', validate: typesValidator, sanitize: (value: unknown) => parseList(value).map(String) }, ['*']),
    visibility: optional({ type: 'string', enum: VISIBILITIES, description: 'public: entries as a visitor sees them; full: as an administrator.' }, 'public'),
    active: optional({ type: 'boolean', description: 'Whether messages are sent.' }, true),
    description: optional({ type: 'string', description: 'A note for administrators.' }, ''),
  };
}

function input(params: Params): Partial<WebhookInput> {
  const fields = ['url', 'types', 'visibility', 'active', 'description'] as const;
  const result: Partial<Record<(typeof fields)[number], unknown>> = {};
  for (const field of fields) if (params.values[field] !== undefined) result[field] = params.get(field);
  return result as Partial<WebhookInput>;
}

const idArg: ArgSpec = { type: 'integer', required: true, description: 'Unique identifier for the webhook.' };
const messageArg: ArgSpec = { type: 'integer', required: true, description: 'Unique identifier for the delivery (message).' };

/** Webhook administration (80 §4.1), under `{base}/calendar/admin/v1`, administrators only. */
export function webhookRoutes(webhooks: WebhooksService, settings: WebhookSettings): RouteDef[] {
  const permission = (ctx: { user: User | null }) => can(ctx.user, 'create_users');
  const id = (params: Params) => params.get<number>('id');
  return [
    {
      pattern: '/webhooks',
      endpoints: [
        { methods: ['GET'], args: {}, permission, handler: async () => ({ body: await webhooks.list() }) },
        {
          methods: ['POST'],
          args: subscriptionArgs(settings, true),
          permission,
          handler: async (_ctx, params) => ({ status: 201, body: await webhooks.create(input(params) as WebhookInput) }),
        },
      ],
    },
    {
      pattern: '/webhooks/(?P<id>\\d+)',
      endpoints: [
        { methods: ['GET'], args: { id: idArg }, permission, handler: async (_ctx, params) => ({ body: await webhooks.get(id(params)) }) },
        {
          methods: ['PATCH', 'PUT', 'POST'],
          args: { id: idArg, ...subscriptionArgs(settings, false) },
          permission,
          handler: async (_ctx, params) => ({ body: await webhooks.update(id(params), input(params)) }),
        },
        {
          methods: ['DELETE'],
          args: { id: idArg },
          permission,
          handler: async (_ctx, params) => ({ body: { deleted: true, previous: await webhooks.delete(id(params)) } }),
        },
      ],
    },
    {
      pattern: '/webhooks/(?P<id>\\d+)/rotate-secret',
      endpoints: [{ methods: ['POST'], args: { id: idArg }, permission, handler: async (_ctx, params) => ({ body: await webhooks.rotateSecret(id(params)) }) }],
    },
    {
      pattern: '/webhooks/(?P<id>\\d+)/ping',
      endpoints: [{ methods: ['POST'], args: { id: idArg }, permission, handler: async (_ctx, params) => ({ status: 202, body: await webhooks.ping(id(params)) }) }],
    },
    {
      pattern: '/webhooks/(?P<id>\\d+)/deliveries',
      endpoints: [
        {
          methods: ['GET'],
          args: {
            id: idArg,
            status: { type: 'string', enum: MESSAGE_STATUSES, description: 'Only messages in this state (failed = dead letters).' },
            page: { type: 'integer', default: 1, minimum: 1, description: 'Page of the log, newest first.' },
            per_page: { type: 'integer', default: 20, minimum: 1, maximum: MAX_PER_PAGE, description: 'Messages per page.', validate: (value) => (Number(value) >= 1 && Number(value) <= MAX_PER_PAGE) || { reason: pageSize(MAX_PER_PAGE) } },
          },
          permission,
          handler: async (_ctx, params) => {
            const perPage = params.get<number>('per_page');
            const { items, total } = await webhooks.deliveries(id(params), params.get<WebhookMessageStatus | undefined>('status'), params.get<number>('page'), perPage);
            return { body: items, headers: { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(Math.ceil(total / perPage)) } };
          },
        },
      ],
    },
    {
      pattern: '/webhooks/(?P<id>\\d+)/deliveries/(?P<mid>\\d+)',
      endpoints: [{ methods: ['GET'], args: { id: idArg, mid: messageArg }, permission, handler: async (_ctx, params) => ({ body: await webhooks.delivery(id(params), params.get('mid')) }) }],
    },
    {
      pattern: '/webhooks/(?P<id>\\d+)/deliveries/(?P<mid>\\d+)/redeliver',
      endpoints: [{ methods: ['POST'], args: { id: idArg, mid: messageArg }, permission, handler: async (_ctx, params) => ({ status: 202, body: await webhooks.redeliver(id(params), params.get('mid')) }) }],
    },
  ];
}
