import type { TestApp, TestResponse } from '../../helpers/test-app.ts';

export const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/** A clock the test moves: form tokens are judged by their age. */
export function movableClock(start = '2031-05-01T10:00:00Z') {
  let now = new Date(start).getTime();
  return {
    clock: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

/** The `_form` token of a rendered form. */
export function formToken(html: string): string {
  const match = /name="_form" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no _form in the page');
  return match[1];
}

/** The form's valid fields (an event next week), overridable. */
export function validFields(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  return {
    title: 'Choir evening',
    description: 'Songs <script>alert(1)</script> and more',
    start_date: '2031-05-08',
    start_time: '19:00',
    end_date: '2031-05-08',
    end_time: '21:00',
    timezone: 'UTC',
    venue: 'new',
    'venue_new[venue]': 'Church hall',
    'venue_new[city]': 'Pisa',
    organizer: 'new',
    'organizer_new[organizer]': 'The choir',
    submitter_name: 'Ada Submitter',
    submitter_email: 'ada@example.org',
    url_confirm: '',
    ...overrides,
  };
}

export function encode(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return params.toString();
}

/** GET the form, wait `wait` seconds, POST it with these fields. */
export async function submitForm(t: TestApp, advance: (seconds: number) => void, fields: Record<string, string | string[]>, options: { edition?: string; remoteAddress?: string; wait?: number } = {}): Promise<TestResponse> {
  const path = `${options.edition ?? ''}/events/community/add/`;
  const form = await t.request('GET', path, { remoteAddress: options.remoteAddress });
  advance(options.wait ?? 5);
  return t.request('POST', path, { body: encode({ _form: formToken(form.text), ...fields }), headers: FORM_TYPE, remoteAddress: options.remoteAddress });
}
