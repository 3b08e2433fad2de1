import { systemClock } from '../../../src/domain/dates/clock.ts';
import { buildOpenApiDocument } from '../../../src/http/openapi/document.ts';
import type { NamespaceDef } from '../../../src/http/rest/endpoint.ts';
import { eventsNamespace } from '../../../src/http/routes/index.ts';
import { MediaService } from '../../../src/services/media/media-service.ts';
import { openUploadStore } from '../../../src/storage/uploads/open-upload-store.ts';
import { UsersService } from '../../../src/services/users-service.ts';
import type { TestApp } from '../../helpers/test-app.ts';

/** The events namespace exactly as buildApp declares it, from the test app's own dependencies. */
export function appNamespace(t: TestApp): NamespaceDef {
  const media = new MediaService(t.storage, openUploadStore(t.config.media, t.storage), t.config.media, t.config.timezone, systemClock);
  return eventsNamespace({ config: t.config, storage: t.storage, clock: systemClock, users: new UsersService(t.storage, systemClock), media });
}

/** Every English text the document of this namespace shows (and so every text the editions must translate). */
export function documentTexts(def: NamespaceDef): Set<string> {
  const texts = new Set<string>();
  buildOpenApiDocument(def, {
    serverUrl: 'http://calendar.test/calendar/events/v1/',
    describe: (english) => {
      texts.add(english);
      return english;
    },
  });
  return texts;
}

/** The `summary` and `description` texts anywhere inside a part of a document. */
export function textsIn(part: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(part)) for (const item of part) textsIn(item, into);
  else if (part !== null && typeof part === 'object') {
    for (const [key, value] of Object.entries(part)) {
      if ((key === 'summary' || key === 'description') && typeof value === 'string') into.add(value);
      else textsIn(value, into);
    }
  }
  return into;
}
