import { sql, type Kysely } from 'kysely';
import { escapeLike, venueSearchPieces } from '../../domain/text/search.ts';
import type { Database, MediaRow, MediaSource, StoredSize } from '../schema.ts';
import { ObjectsRepository } from './objects-repository.ts';

/** What a new upload's record holds (110-media §6.1); the id comes from the shared sequence. */
export interface NewUpload {
  source: MediaSource;
  originalUrl: string;
  slug: string;
  title: string;
  altText: string;
  author: number;
  file: string;
  extension: string;
  mimeType: string;
  width: number;
  height: number;
  filesize: number;
  sizes: StoredSize[];
  createdUtc: string;
}

/** A path issued to an upload, with what serving it needs (§5.2). */
export interface IssuedPath {
  path: string;
  mimeType: string;
  byteLength: number;
  sha256: string;
}

export interface MediaListQuery {
  page: number;
  perPage: number;
  search?: string;
  author?: number;
  source?: string;
  mimeType?: string;
  orderby: 'date' | 'id' | 'title';
  order: 'asc' | 'desc';
}

export type UsedBy = { events: number[]; venues: number[]; organizers: number[] };

const USING_TABLES = ['events', 'venues', 'organizers'] as const;

/** Featured images: URLs registered once (never fetched) and uploads, shared by events, venues and organizers. */
export class MediaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findByIds(ids: readonly number[]): Promise<Map<number, MediaRow>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.db.selectFrom('media').selectAll().where('id', 'in', unique).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  async find(id: number): Promise<MediaRow | undefined> {
    return this.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('media').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** The media id of `url`, registering it on first use (10-events §6.5). */
  async registerUrl(url: string, createdUtc: string): Promise<number> {
    const existing = await this.db.selectFrom('media').select('id').where('url', '=', url).where('source', '=', 'url').executeTakeFirst();
    if (existing) return existing.id;
    const id = await new ObjectsRepository(this.db).allocate('media');
    await this.db.insertInto('media').values({ id, url, extension: extensionOf(url), width: null, height: null, filesize: null, created_utc: createdUtc }).execute();
    return id;
  }

  /** True when `slug` or any of `paths` was ever issued, deleted items included (§4.6). */
  async isIssued(slug: string, paths: readonly string[]): Promise<boolean> {
    const row = await this.db.selectFrom('media_paths').select('path')
      .where((eb) => eb.or([eb('slug', '=', slug), eb('path', 'in', [...paths])]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Inserts the record of an upload and issues its paths; call inside the transaction that stores its files. */
  async insertUpload(upload: NewUpload, paths: readonly IssuedPath[]): Promise<number> {
    const id = await new ObjectsRepository(this.db).allocate('media');
    await this.db.insertInto('media_paths').values(paths.map((path) => ({
      path: path.path, slug: upload.slug, media_id: id, mime_type: path.mimeType, byte_length: path.byteLength, sha256: path.sha256,
    }))).execute();
    await this.db.insertInto('media').values({
      id,
      url: upload.file,
      extension: upload.extension,
      width: upload.width,
      height: upload.height,
      filesize: upload.filesize,
      created_utc: upload.createdUtc,
      modified_utc: upload.createdUtc,
      source: upload.source,
      original_url: upload.originalUrl,
      file: upload.file,
      mime_type: upload.mimeType,
      slug: upload.slug,
      title: upload.title,
      alt_text: upload.altText,
      author: upload.author,
      sizes: JSON.stringify(upload.sizes),
    }).execute();
    return id;
  }

  /** A sideloaded item fetched from `url` before (§7.2: reused, not fetched again). */
  async findSideloaded(url: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('media').select('id').where('source', '=', 'sideload').where('original_url', '=', url).executeTakeFirst();
    return row?.id;
  }

  /** A live path's type and digest; undefined for paths never issued or whose item was deleted. */
  async livePath(path: string): Promise<IssuedPath | undefined> {
    const row = await this.db.selectFrom('media_paths').select(['path', 'mime_type', 'byte_length', 'sha256'])
      .where('path', '=', path).where('media_id', 'is not', null).executeTakeFirst();
    return row === undefined ? undefined : { path: row.path, mimeType: row.mime_type, byteLength: Number(row.byte_length), sha256: row.sha256 };
  }

  async pathsOf(id: number): Promise<string[]> {
    const rows = await this.db.selectFrom('media_paths').select('path').where('media_id', '=', id).execute();
    return rows.map((row) => row.path);
  }

  async update(id: number, fields: { title?: string; altText?: string }, modifiedUtc: string): Promise<void> {
    await this.db.updateTable('media').set({
      ...(fields.title === undefined ? {} : { title: fields.title }),
      ...(fields.altText === undefined ? {} : { alt_text: fields.altText }),
      modified_utc: modifiedUtc,
    }).where('id', '=', id).execute();
  }

  /**
   * Removes the item and the image link of every record using it (each record's revision and
   * change entry come from the tables' triggers); its paths stay issued, unlinked.
   */
  async delete(id: number): Promise<void> {
    for (const table of USING_TABLES) await this.db.updateTable(table).set({ image_id: null }).where('image_id', '=', id).execute();
    await this.db.updateTable('media_paths').set({ media_id: null }).where('media_id', '=', id).execute();
    await this.db.deleteFrom('media').where('id', '=', id).execute();
    await new ObjectsRepository(this.db).delete(id);
  }

  /** The records of any status whose image each item is (§6.1 `used_by`). */
  async usedBy(ids: readonly number[]): Promise<Map<number, UsedBy>> {
    const result = new Map<number, UsedBy>(ids.map((id) => [id, { events: [], venues: [], organizers: [] }]));
    if (ids.length === 0) return result;
    for (const table of USING_TABLES) {
      const rows = await this.db.selectFrom(table).select(['id', 'image_id']).where('image_id', 'in', [...ids]).orderBy('id').execute();
      for (const row of rows) result.get(row.image_id!)![table].push(row.id);
    }
    return result;
  }

  /** A page of the media library (§6.2) and the total it is a page of. */
  async list(query: MediaListQuery): Promise<{ rows: MediaRow[]; total: number }> {
    let filtered = this.db.selectFrom('media');
    if (query.author !== undefined) filtered = filtered.where('author', '=', query.author);
    if (query.source !== undefined) filtered = filtered.where('source', '=', query.source as MediaSource);
    if (query.mimeType !== undefined) filtered = filtered.where('mime_type', '=', query.mimeType);
    if (query.search !== undefined && query.search.trim() !== '') {
      const pieces = venueSearchPieces(query.search);
      if (pieces.length === 0) return { rows: [], total: 0 };
      for (const piece of pieces) {
        const pattern = `%${escapeLike(piece.toLowerCase())}%`;
        filtered = filtered.where((eb) => eb.or(['title', 'alt_text', 'slug'].map((column) =>
          eb(sql`lower(${sql.ref(column)})`, 'like', sql`${pattern} escape '\\'`))));
      }
    }
    const counted = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const column = query.orderby === 'date' ? 'created_utc' : query.orderby;
    const rows = await filtered.selectAll()
      .orderBy(column, query.order)
      .orderBy('id', query.order)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return { rows, total: Number(counted.n) };
  }
}

function extensionOf(url: string): string {
  const path = new URL(url).pathname;
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(path);
  return match ? match[1].toLowerCase() : '';
}
