import { CostDetails } from './cost.ts';
import { DateDetails } from './dates.ts';
import { GeoDistance } from './distance.ts';
import { Event } from './event.ts';
import { Image, ImageSize } from './image.ts';
import type { JsonSchema } from './json-schema.ts';
import { Organizer } from './organizer.ts';
import { EventTerm, Term } from './term.ts';
import { Submission } from './submission.ts';
import { Venue } from './venue.ts';

/**
 * The response objects, by component name: the reference's eight in its order (30 §3), then the
 * service's own (the embedded term shape differs from the term routes' one).
 */
export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ImageSize,
  CostDetails,
  Term,
  Image,
  DateDetails,
  Event,
  Venue,
  Organizer,
  EventTerm,
  GeoDistance,
  Submission,
};
