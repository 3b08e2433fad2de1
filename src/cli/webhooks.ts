import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { invalidParam } from '../domain/errors.ts';
import { oneOf } from '../domain/reasons.ts';
import { isTypePattern, VISIBILITIES, WEBHOOK_KINDS, WEBHOOK_OPS, type WebhookVisibility } from '../domain/webhooks/subscription-rules.ts';
import { changeHead } from '../services/webhooks/change-fan-out.ts';
import { receiverUrlReason } from '../services/webhooks/receiver-check.ts';
import { WebhooksService, type WebhookView } from '../services/webhooks/webhooks-service.ts';
import { openStorage } from '../storage/database.ts';
import type { WebhookMessageStatus } from '../storage/schema.ts';

export const WEBHOOKS_USAGE = `usage: calendar webhooks <command>
  webhooks add URL [--types P,P] [--visibility public|full] [--include-objects] [--description TEXT]
                                   subscribe URL and print its signing secret (shown only now);
                                   --include-objects: upsert entries carry their records
  webhooks list                    list subscriptions
  webhooks remove ID               delete a subscription and its waiting messages
  webhooks enable|disable ID       resume or stop sending
  webhooks rotate-secret ID        print a new secret (the old one keeps signing for 24 hours)
  webhooks ping ID                 queue a calendar.ping message
  webhooks deliveries ID [--status failed|pending|delivering|succeeded|cancelled]
                                   the delivery log, newest first (failed = dead letters)
  webhooks redeliver ID MESSAGE    queue a message again, under the same webhook-id
patterns: kind.op with * (event.*, *.delete, *); kinds ${WEBHOOK_KINDS.join(', ')}; operations ${WEBHOOK_OPS.join(', ')}`;

const MESSAGE_STATUSES: WebhookMessageStatus[] = ['pending', 'delivering', 'succeeded', 'failed', 'cancelled'];

export class WebhooksUsageError extends Error {}

function idArgument(value: string | undefined, name: string): number {
  if (!value || !/^\d+$/.test(value)) throw new WebhooksUsageError(`${name} must be a number`);
  return Number(value);
}

function describe(hook: WebhookView): string {
  const state = hook.active ? 'active' : `disabled${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}`;
  return [hook.id, state, hook.include_objects ? `${hook.visibility}+objects` : hook.visibility, hook.types.join(','), hook.url, hook.description].join('\t');
}

/** `calendar webhooks …`: the admin API's webhook operations (80 §4.1) on the configured database. */
export async function webhooksCommand(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { types: { type: 'string' }, visibility: { type: 'string' }, 'include-objects': { type: 'boolean' }, description: { type: 'string' }, status: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, first, second] = positionals;
  if (values.help || !command) throw new WebhooksUsageError('');
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  const webhooks = new WebhooksService(storage, config.webhooks, changeHead);
  try {
    switch (command) {
      case 'add': {
        const reason = await receiverUrlReason(first, config.webhooks.allowInsecure);
        if (reason) throw invalidParam('url', reason);
        const types = values.types === undefined ? ['*'] : values.types.split(',').map((type) => type.trim());
        if (!types.every(isTypePattern)) throw invalidParam('types', { code: 'rest_invalid_webhook_types', messageKey: 'reason_webhook_types', vars: { kinds: WEBHOOK_KINDS.join(', '), ops: WEBHOOK_OPS.join(', ') } });
        const visibility = values.visibility ?? 'public';
        if (!(VISIBILITIES as readonly string[]).includes(visibility)) throw invalidParam('visibility', oneOf(VISIBILITIES));
        const hook = await webhooks.create({ url: first!, types, visibility: visibility as WebhookVisibility, include_objects: values['include-objects'] === true, active: true, description: values.description ?? '' });
        console.log(`created webhook ${hook.id} for ${hook.url}`);
        console.log(`signing secret: ${hook.secret}`);
        return;
      }
      case 'list':
        for (const hook of await webhooks.list()) console.log(describe(hook));
        return;
      case 'remove': {
        const hook = await webhooks.delete(idArgument(first, 'ID'));
        console.log(`removed webhook ${hook.id} (${hook.url})`);
        return;
      }
      case 'enable':
      case 'disable':
        console.log(describe(await webhooks.update(idArgument(first, 'ID'), { active: command === 'enable' })));
        return;
      case 'rotate-secret': {
        const hook = await webhooks.rotateSecret(idArgument(first, 'ID'));
        console.log(`new signing secret for webhook ${hook.id}: ${hook.secret}`);
        return;
      }
      case 'ping': {
        const message = await webhooks.ping(idArgument(first, 'ID'));
        console.log(`queued message ${message.id} (${message.webhook_id})`);
        return;
      }
      case 'deliveries': {
        if (values.status !== undefined && !MESSAGE_STATUSES.includes(values.status as WebhookMessageStatus)) throw new WebhooksUsageError(`--status must be one of ${MESSAGE_STATUSES.join(', ')}`);
        const { items } = await webhooks.deliveries(idArgument(first, 'ID'), values.status as WebhookMessageStatus | undefined, 1, 100);
        for (const message of items) console.log([message.id, message.webhook_id, message.status, message.attempts, message.record ?? message.type, message.last_error ?? ''].join('\t'));
        return;
      }
      case 'redeliver': {
        const message = await webhooks.redeliver(idArgument(first, 'ID'), idArgument(second, 'MESSAGE'));
        console.log(`queued message ${message.id} (${message.webhook_id}) again`);
        return;
      }
      default:
        throw new WebhooksUsageError(`unknown command "${command}"`);
    }
  } finally {
    await storage.close();
  }
}

