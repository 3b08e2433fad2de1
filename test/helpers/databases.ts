import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

/** A fresh, empty database for one test app, and how to throw it away. */
export interface FreshDatabase {
  url: string;
  dispose(): Promise<void>;
}

/**
 * Set by scripts/test.ts after probing once: the PostgreSQL URL to test against, or unset when
 * no server answered (those suites are then skipped; the runner said so in one line).
 */
export const postgresUrl = process.env.TEST_POSTGRES_ACTIVE_URL || null;

export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

export function skipReason(dialect: DialectName): string | false {
  return dialect === 'postgres' && !postgresUrl ? 'no PostgreSQL server (see the first line of npm test)' : false;
}

export async function freshDatabase(dialect: DialectName): Promise<FreshDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-test-'));
    return { url: `sqlite:${join(dir, 'calendar.db')}`, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!postgresUrl) throw new Error('PostgreSQL is not available');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const separator = postgresUrl.includes('?') ? '&' : '?';
  return {
    url: `${postgresUrl}${separator}schema=${schema}`,
    async dispose() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A connection of its own to the schema a PostgreSQL `databaseUrl` (`…?schema=…`) names, as its search path. */
export async function connectToSchema(databaseUrl: string): Promise<pg.Client> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}

/**
 * `copies` new events on PostgreSQL, each a copy of the event `templateId` under a new id and
 * slug, without links: a table grown in one statement, for plans made on a large table.
 */
export async function copyEventRows(client: pg.Client, templateId: number, copies: number): Promise<void> {
  await client.query(`with fresh as (insert into objects (kind) select 'event' from generate_series(1, $2) returning id)
    insert into events select (jsonb_populate_record(null::events, to_jsonb(template) || jsonb_build_object('id', fresh.id, 'slug', template.slug || '-' || fresh.id))).*
    from fresh, (select * from events where id = $1) as template`, [templateId, copies]);
}
