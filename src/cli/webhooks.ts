import type { Config } from '../config.ts';
import { invalidParam } from '../domain/errors.ts';
import { oneOf } from '../domain/reasons.ts';
import { isTypePattern, VISIBILITIES, WEBHOOK_KINDS, WEBHOOK_OPS, type WebhookVisibility } from '../domain/webhooks/subscription-rules.ts';
import { changeHead } from '../services/webhooks/change-fan-out.ts';
import { receiverUrlReason } from '../services/webhooks/receiver-check.ts';
import { WebhooksService, type WebhookView } from '../services/webhooks/webhooks-service.ts';
import type { WebhookMessageStatus } from '../storage/schema.ts';
import { stringOption, UsageError, withStorage, type CliArgs, type CliCommand } from './command.ts';

const PATTERNS = `  patterns: kind.op with * (event.*, *.delete, *); kinds ${WEBHOOK_KINDS.join(', ')}; operations ${WEBHOOK_OPS.join(', ')}`;

const MESSAGE_STATUSES: WebhookMessageStatus[] = ['pending', 'delivering', 'succeeded', 'failed', 'cancelled'];

function idArgument(value: string | undefined, name: string): number {
  if (!value || !/^\d+$/.test(value)) throw new UsageError(`${name} must be a number`);
  return Number(value);
}

function describe(hook: WebhookView): string {
  const state = hook.active ? 'active' : `disabled${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}`;
  return [hook.id, state, hook.include_objects ? `${hook.visibility}+objects` : hook.visibility, hook.types.join(','), hook.url, hook.description].join('\t');
}

/** Runs `work` with the webhook operations of the admin API (80 §4.1) on the configured database. */
function withWebhooks(work: (webhooks: WebhooksService, config: Config) => Promise<void>): Promise<number> {
  return withStorage((storage, config) => work(new WebhooksService(storage, config.webhooks, changeHead), config));
}

function webhookCommand(name: string, synopsis: string, summary: string, work: (webhooks: WebhooksService, args: CliArgs, config: Config) => Promise<void>, options: CliCommand['options'] = {}, details?: string): CliCommand {
  return { words: ['webhooks', name], synopsis, summary, options, details, run: (args) => withWebhooks((webhooks, config) => work(webhooks, args, config)) };
}

export const WEBHOOKS_COMMANDS: CliCommand[] = [
  webhookCommand('add', 'URL [--types P,P] [--visibility public|full] [--include-objects] [--description TEXT]', 'subscribe URL and print its signing secret (shown only now); --include-objects: upsert entries carry their records', async (webhooks, args, config) => {
    const [url] = args.positionals;
    const reason = await receiverUrlReason(url, config.webhooks.allowInsecure);
    if (reason) throw invalidParam('url', reason);
    const typesOption = stringOption(args, 'types');
    const types = typesOption === undefined ? ['*'] : typesOption.split(',').map((type) => type.trim());
    if (!types.every(isTypePattern)) throw invalidParam('types', { code: 'rest_invalid_webhook_types', messageKey: 'reason_webhook_types', vars: { kinds: WEBHOOK_KINDS.join(', '), ops: WEBHOOK_OPS.join(', ') } });
    const visibility = stringOption(args, 'visibility') ?? 'public';
    if (!(VISIBILITIES as readonly string[]).includes(visibility)) throw invalidParam('visibility', oneOf(VISIBILITIES));
    const hook = await webhooks.create({ url: url!, types, visibility: visibility as WebhookVisibility, include_objects: args.values['include-objects'] === true, active: true, description: stringOption(args, 'description') ?? '' });
    console.log(`created webhook ${hook.id} for ${hook.url}`);
    console.log(`signing secret: ${hook.secret}`);
  }, { types: { type: 'string' }, visibility: { type: 'string' }, 'include-objects': { type: 'boolean' }, description: { type: 'string' } }, PATTERNS),
  webhookCommand('list', '', 'list subscriptions', async (webhooks) => {
    for (const hook of await webhooks.list()) console.log(describe(hook));
  }),
  webhookCommand('remove', 'ID', 'delete a subscription and its waiting messages', async (webhooks, args) => {
    const hook = await webhooks.delete(idArgument(args.positionals[0], 'ID'));
    console.log(`removed webhook ${hook.id} (${hook.url})`);
  }),
  ...(['enable', 'disable'] as const).map((name) =>
    webhookCommand(name, 'ID', name === 'enable' ? 'resume sending' : 'stop sending', async (webhooks, args) => {
      console.log(describe(await webhooks.update(idArgument(args.positionals[0], 'ID'), { active: name === 'enable' })));
    }),
  ),
  webhookCommand('rotate-secret', 'ID', 'print a new secret (the old one keeps signing for 24 hours)', async (webhooks, args) => {
    const hook = await webhooks.rotateSecret(idArgument(args.positionals[0], 'ID'));
    console.log(`new signing secret for webhook ${hook.id}: ${hook.secret}`);
  }),
  webhookCommand('ping', 'ID', 'queue a calendar.ping message', async (webhooks, args) => {
    const message = await webhooks.ping(idArgument(args.positionals[0], 'ID'));
    console.log(`queued message ${message.id} (${message.webhook_id})`);
  }),
  webhookCommand('deliveries', `ID [--status ${MESSAGE_STATUSES.join('|')}]`, 'the delivery log, newest first (failed = dead letters)', async (webhooks, args) => {
    const status = stringOption(args, 'status');
    if (status !== undefined && !MESSAGE_STATUSES.includes(status as WebhookMessageStatus)) throw new UsageError(`--status must be one of ${MESSAGE_STATUSES.join(', ')}`);
    const { items } = await webhooks.deliveries(idArgument(args.positionals[0], 'ID'), status as WebhookMessageStatus | undefined, 1, 100);
    for (const message of items) console.log([message.id, message.webhook_id, message.status, message.attempts, message.record ?? message.type, message.last_error ?? ''].join('\t'));
  }, { status: { type: 'string' } }),
  webhookCommand('redeliver', 'ID MESSAGE', 'queue a message again, under the same webhook-id', async (webhooks, args) => {
    const message = await webhooks.redeliver(idArgument(args.positionals[0], 'ID'), idArgument(args.positionals[1], 'MESSAGE'));
    console.log(`queued message ${message.id} (${message.webhook_id}) again`);
  }),
];
