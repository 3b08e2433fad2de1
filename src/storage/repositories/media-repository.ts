import type { Kysely } from 'kysely';
import type { Database, MediaRow } from '../schema.ts';
import { ObjectsRepository } from './objects-repository.ts';

/** Featured images: URLs registered once (never fetched), shared by events, venues and organizers. */
export class MediaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findByIds(ids: readonly number[]): Promise<Map<number, MediaRow>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.db.selectFrom('media').selectAll().where('id', 'in', unique).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('media').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** The media id of `url`, registering it on first use (10-events §6.5). */
  async registerUrl(url: string, createdUtc: string): Promise<number> {
    const existing = await this.db.selectFrom('media').select('id').where('url', '=', url).executeTakeFirst();
    if (existing) return existing.id;
    const id = await new ObjectsRepository(this.db).allocate('media');
    await this.db.insertInto('media').values({ id, url, extension: extensionOf(url), width: null, height: null, filesize: null, created_utc: createdUtc }).execute();
    return id;
  }
}

function extensionOf(url: string): string {
  const path = new URL(url).pathname;
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(path);
  return match ? match[1].toLowerCase() : '';
}
