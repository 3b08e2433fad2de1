import { ReadCache } from '../../read/read-cache.ts';
import type { Storage } from '../../storage/database.ts';
import type { RestContext } from './context.ts';
import type { RestResponse } from './endpoint.ts';
import { JsonText } from './send.ts';
import type { Params } from '../../args/validate-args.ts';

/** A response with its body as JSON text (a page past the end is refused the same way until a write). */
type Answer = RestResponse & { body: JsonText };

/**
 * What a read answer depends on besides the data: the edition and addresses, the caller (what
 * they may see and unlock) and every parameter as sent. Callers add what else their answer
 * reads (the current second when a filter is relative to now).
 */
export function requestKey(ctx: RestContext, params: Params): unknown[] {
  return [ctx.lang, ctx.urls.ns, ctx.user?.id ?? 0, ctx.user?.role ?? '', params.raw];
}

/**
 * Read responses kept as JSON text while nothing is written (ReadCache): a repeated request is
 * answered without a query. `_fields` and `_envelope` still reshape the cached text.
 */
export class ResponseCache {
  private readonly cache: ReadCache<Answer>;

  constructor(storage: Pick<Storage, 'db' | 'epochs'>, maxEntries = 500) {
    this.cache = new ReadCache<Answer>(storage, maxEntries);
  }

  async answer(ctx: RestContext, key: unknown[], compute: () => Promise<RestResponse>): Promise<RestResponse> {
    return this.cache.get(ctx, JSON.stringify(key), async () => {
      const response = await compute();
      const body = response.body instanceof JsonText ? response.body : new JsonText(JSON.stringify(response.body), response.body);
      return { ...response, body };
    });
  }
}
