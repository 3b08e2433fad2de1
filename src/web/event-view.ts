import { renderEventObjects, type EventModel } from '../render/json/event-serializer.ts';
import type { EventView, PageEnv } from './model.ts';

/**
 * Pages render from the batch-loaded read models (design: one read model, three renderers): a
 * pure function of the models and the request context, through the JSON renderer, so every
 * page shows what the API shows a visitor, `json_ld` included where the event is not locked.
 */
export function eventViews(env: PageEnv, models: readonly EventModel[]): EventView[] {
  return renderEventObjects(models, env.context, { jsonLd: true }) as unknown as EventView[];
}
