import type { CalendarSettings } from '../../config.ts';
import { EDITION_PREFIXES } from '../../i18n/catalog.ts';
import { eventViews } from '../../web/event-view.ts';
import { renderRss } from '../../web/feeds/rss.ts';
import type { PageEnv } from '../../web/model.ts';
import type { RestContext } from '../rest/context.ts';
import type { PageData } from './page-data.ts';
import type { PageTarget, ViewParams } from './page-path.ts';
import { resolveArchive, rssLink } from './view-loader.ts';

export type FeedOutcome = { kind: 'feed'; xml: string } | { kind: 'redirect'; location: string } | { kind: 'not-found' };

/**
 * An RSS feed (130 §8): the list view's upcoming set for the path's filters (category with its
 * descendants, tag, featured), the first `CALENDAR_FEED_ITEMS` by start, as read models rendered
 * through the JSON renderer so the feed shows what the API shows a visitor.
 */
export async function loadFeed(
  data: PageData,
  settings: CalendarSettings,
  ctx: RestContext,
  env: PageEnv,
  target: Extract<PageTarget, { kind: 'view' }>,
  params: ViewParams,
): Promise<FeedOutcome> {
  const resolved = await resolveArchive(data, env, target, params);
  if (resolved.kind !== 'archive') return resolved;
  const { archive, term } = resolved;
  const featured = target.featured || params.featured;
  const filters = {
    featured,
    categoryIds: archive?.taxonomy === 'category' ? term?.ids : undefined,
    tagIds: archive?.taxonomy === 'tag' ? term?.ids : undefined,
  };
  const { events } = await data.list(ctx, filters, { ends_after: data.siteNow(ctx.now) }, 1, settings.feedItems);
  const views = eventViews(env, events);
  const { href, title } = rssLink(env, archive, term?.name, featured);
  const page = `/events/${archive ? `${archive.taxonomy}/${archive.path}/` : ''}${featured ? 'featured/' : ''}`;
  const origin = env.site.slice(0, env.site.length - env.basePath.length);
  const channel = { title, link: `${env.site}${EDITION_PREFIXES[env.lang]}${page}`, self: origin + href };
  return { kind: 'feed', xml: renderRss(env, channel, events.map((model, index) => ({ event: views[index], locked: model.locked }))) };
}
