import type { Kysely } from 'kysely';
import { RestError } from '../domain/errors.ts';
import type { Database } from '../storage/schema.ts';
import { builtInSubmitterId } from './submissions/submission-key.ts';

/**
 * Users the service writes as itself (120 §7: `submissions`, the author of visitors' events). They
 * are no person: nobody signs in as one, holds an application password for one, deletes one or
 * changes its role. Every use case that could do so asks here, so each route obeys the one rule.
 */
export class BuiltInUsers {
  private ids: Promise<ReadonlySet<number>> | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  /** Written by the migration and never changed, so read once. */
  private all(): Promise<ReadonlySet<number>> {
    this.ids ??= builtInSubmitterId(this.db).then((id) => new Set([id]));
    return this.ids;
  }

  async has(userId: number): Promise<boolean> {
    return (await this.all()).has(userId);
  }

  /** 400 `rest_user_builtin` for a built-in user. */
  async refuse(userId: number): Promise<void> {
    if (await this.has(userId)) throw new RestError(400, 'rest_user_builtin');
  }
}
