import type { Storage } from '../../storage/database.ts';
import { MailRepository } from '../../storage/repositories/mail-repository.ts';
import { WebhooksRepository } from '../../storage/repositories/webhooks-repository.ts';
import type { MailStatus } from '../../storage/schema.ts';

/**
 * The administrators' view of the outbox (120 §10.3): the last 30 days, and resending a failed
 * message as it was. Outbox times are the database clock's, so these are too.
 */
export function mailLog(storage: Storage) {
  const repo = new MailRepository(storage.db);
  const now = () => new WebhooksRepository(storage.db).now();
  return {
    list: async (status?: MailStatus) => repo.list(new Date((await now()).getTime() - 30 * 86_400_000), status),
    resend: async (id: number) => repo.resend(id, await now()),
  };
}
