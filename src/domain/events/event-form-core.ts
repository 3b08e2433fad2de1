/**
 * The fields every event form shares — the back office editor (100 §8.1) and the submission
 * form (120 §4): title, text and the wall-clock schedule as typed, one date and one time input each.
 */
export interface EventFormCore {
  title: string;
  description: string;
  start_date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  all_day: boolean;
  timezone: string;
}

/** What the API's event object (10 §3) gives for those fields: wall clocks `YYYY-MM-DD HH:MM:SS`. */
export interface StoredEventCore {
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
}

/** `YYYY-MM-DD` and `HH:MM` of a wall clock, as the date and time inputs take them. */
export const datePart = (wall: string) => wall.slice(0, 10);
export const timePart = (wall: string) => wall.slice(11, 16);

/** The shared fields of a stored event, as either form shows them when it reopens it. */
export function eventFormCore(event: StoredEventCore): EventFormCore {
  return {
    title: event.title,
    description: event.description,
    start_date: datePart(event.start_date),
    start_time: timePart(event.start_date),
    end_date: datePart(event.end_date),
    end_time: timePart(event.end_date),
    all_day: event.all_day,
    timezone: event.timezone,
  };
}
