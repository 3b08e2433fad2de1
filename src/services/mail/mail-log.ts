import type { Storage } from '../../storage/database.ts';
import { MailRepository } from '../../storage/repositories/mail-repository.ts';
import type { MailStatus } from '../../storage/schema.ts';

/** The administrators' view of the outbox (120 §10.3): the last 30 days, and resending a failed message as it was. */
export function mailLog(storage: Storage) {
  const repo = new MailRepository(storage.db);
  return {
    list: (now: Date, status?: MailStatus) => repo.list(new Date(now.getTime() - 30 * 86_400_000), status),
    resend: (id: number, now: Date) => repo.resend(id, now),
  };
}
