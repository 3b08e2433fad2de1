import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skip } from '../../helpers/browser.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { startBrowserAdminApp } from '../browser-session.ts';
import { createSigninUser, type SigninUser } from '../helpers.ts';

/** One Tab stop as the page reports it. */
interface Stop {
  /** `radio:{name}` for a radio group, else `id`, else `name=value` of a button, else the start of its markup. */
  key: string;
  /** In document order after the previous stop (or the same element: a date field's parts). */
  forward: boolean;
  /** A visible indicator: outline or box-shadow of at least 2 CSS px (55 §12). */
  visible: boolean;
  /** Chromium's own picker button inside a date field: focus sits in its shadow tree, it draws the ring. */
  native: boolean;
}

/** Reads the focused element after a key press; null when focus left the document's controls. */
function focusState(page: Page): Promise<Stop | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (element === null || element === document.body) return null;
    const input = element as HTMLInputElement;
    const key = input.type === 'radio' ? `radio:${input.name}` : element.id || (input.name ? `${input.name}=${input.value}` : element.outerHTML.slice(0, 60));
    const previous = document.querySelector('[data-walk-last]');
    const forward = previous === null || previous === element || (previous.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    previous?.removeAttribute('data-walk-last');
    element.setAttribute('data-walk-last', '');
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    // A box-shadow ring: its spread (the fourth length) of at least 2px.
    const spread = /(-?[\d.]+)px\s+(-?[\d.]+)px\s+(-?[\d.]+)px\s+(-?[\d.]+)px/.exec(style.boxShadow);
    const shadow = style.boxShadow !== 'none' && spread !== null && parseFloat(spread[4]) >= 2;
    const native = element instanceof HTMLInputElement && !element.matches(':focus');
    return { key, forward, visible: outline || shadow, native };
  });
}

/** Every control of the editor form a person can operate: shown, enabled, not hidden inputs. Radios count once per group. */
function formControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const form = document.querySelector('main form') as HTMLFormElement;
    const keys: string[] = [];
    for (const element of Array.from(form.elements) as HTMLInputElement[]) {
      if (element.disabled || element.type === 'hidden' || element.tagName === 'FIELDSET') continue;
      if (element.getClientRects().length === 0 || getComputedStyle(element).visibility === 'hidden') continue;
      const key = element.type === 'radio' ? `radio:${element.name}` : element.id || `${element.name}=${element.value}`;
      if (!keys.includes(key)) keys.push(key);
    }
    return keys;
  });
}

/**
 * 100 §17 item 12, the keyboard walk of the event editor, in Chromium with JavaScript off and on:
 * signed in with the keyboard alone, Tab reaches every control of the editor form in document
 * order, each with a visible focus indicator, Shift+Tab walks the same stops back (no trap), the
 * radio groups answer the arrow keys; title and dates typed, a checkbox ticked with Space, Enter
 * on the publish button creates the event (read back through the API). One app on SQLite: the
 * form behaves the same on both databases, and the HTTP suites cover PostgreSQL.
 */
describe('event editor: keyboard walk in a browser', { skip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let user: SigninUser;

  before(async () => {
    ({ t, origin } = await startBrowserAdminApp());
    user = await createSigninUser(t, 'editor');
    // One of each linked record, so that every kind of control is on the form (checkbox lists included).
    await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Concert hall', status: 'publish' } });
    await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: 'Choir society', status: 'publish' } });
    await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Music' } });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Tabs (or Shift+Tabs) from where focus is until it leaves the page or reaches `last`; the stops met. */
  async function walk(page: Page, key: 'Tab' | 'Shift+Tab', last?: string): Promise<Stop[]> {
    const stops: Stop[] = [];
    for (let presses = 0; presses < 400; presses++) {
      await page.keyboard.press(key);
      const stop = await focusState(page);
      if (stop === null) return stops;
      stops.push(stop);
      if (stop.key === last) return stops;
    }
    assert.fail(`${key}: focus never left the page after 400 presses (a trap?) at ${stops.at(-1)?.key}`);
  }

  /** Tabs forward until the focused element matches `selector`; fails if the walk leaves the page first. */
  async function tabTo(page: Page, selector: string): Promise<void> {
    for (let presses = 0; presses < 400; presses++) {
      await page.keyboard.press('Tab');
      const state = await page.evaluate((wanted) => (document.activeElement === null || document.activeElement === document.body ? 'out' : document.activeElement.matches(wanted) ? 'there' : 'on'), selector);
      if (state === 'there') return;
      assert.notEqual(state, 'out', `Tab never reached ${selector}`);
    }
    assert.fail(`Tab never reached ${selector}`);
  }

  for (const javaScriptEnabled of [false, true]) {
    test(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}: sign in, walk every control of the editor, fill and publish with the keyboard`, async () => {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      const page = await context.newPage();

      // Sign in: the login field, Tab to the password, Enter submits.
      await page.goto(`${origin}/admin/login`);
      await tabTo(page, '#field-login');
      await page.keyboard.type(user.login);
      await tabTo(page, '#field-password');
      await page.keyboard.type(user.password);
      await Promise.all([page.waitForURL(/\/admin\/(\?.*)?$/), page.keyboard.press('Enter')]);

      await page.goto(`${origin}/admin/events/new`);
      const controls = await formControls(page);
      for (const kind of ['field-title', 'field-start_date', 'radio:recurrence_end', 'field-venue', 'action=publish']) assert.ok(controls.includes(kind), `${kind} among ${controls.join(' ')}`);
      assert.ok(controls.some((control) => control.startsWith('field-organizer-')) && controls.some((control) => control.startsWith('field-categories-')), controls.join(' '));
      const forward = await walk(page, 'Tab');
      for (const stop of forward) {
        assert.ok(stop.forward, `focus went backwards at ${stop.key}`);
        if (!stop.native) assert.ok(stop.visible, `no visible focus on ${stop.key}`);
      }
      const reached = new Set(forward.map((stop) => stop.key));
      assert.deepEqual(controls.filter((control) => !reached.has(control)), [], 'controls Tab never reaches');

      // Back from the end to the first stop: Shift+Tab meets the same stops in reverse (a date field's parts collapse to one).
      const distinct = (stops: Stop[]) => stops.map((stop) => stop.key).filter((key, index, keys) => key !== keys[index - 1]);
      const backward = await walk(page, 'Shift+Tab', forward[0].key);
      assert.deepEqual(distinct(backward).reverse(), distinct(forward));

      // Radio groups: from the stop Tab gives each, an arrow key moves focus and choice within the group.
      for (const group of controls.filter((control) => control.startsWith('radio:')).map((control) => control.slice('radio:'.length))) {
        await page.goto(`${origin}/admin/events/new`);
        const radios = `input[type=radio][name="${group}"]`;
        await tabTo(page, radios);
        const before = await page.evaluate(() => document.activeElement!.id);
        await page.keyboard.press('ArrowDown');
        const after = await page.evaluate((wanted) => {
          const element = document.activeElement as HTMLInputElement;
          return { id: element.id, inGroup: element.matches(wanted), checked: element.checked };
        }, radios);
        assert.ok(after.inGroup && after.checked && after.id !== before, `ArrowDown in ${group}: ${before} → ${after.id}`);
      }

      // Fill title and dates, Space on a checkbox, Enter on the publish button.
      const title = `Keyboard concert ${javaScriptEnabled ? 'on' : 'off'}`;
      await page.goto(`${origin}/admin/events/new`);
      await tabTo(page, '#field-title');
      await page.keyboard.type(title);
      await tabTo(page, '#field-start_date');
      await page.keyboard.type('05142027'); // mm dd yyyy, the en-US parts in order
      await tabTo(page, '#field-start_time');
      await page.keyboard.type('0730PM');
      await tabTo(page, '#field-end_date');
      await page.keyboard.type('05142027');
      assert.equal(await page.inputValue('#field-start_date'), '2027-05-14');
      await tabTo(page, '#field-featured');
      await page.keyboard.press('Space');
      await tabTo(page, 'button[name=action][value=publish]');
      await Promise.all([page.waitForURL(/\/admin\/events\/\d+\/\?message=event_published$/), page.keyboard.press('Enter')]);
      const id = Number(/events\/(\d+)\//.exec(page.url())![1]);
      const api = (await t.request('GET', `${NS}/events/${id}`, { as: 'editor' })).body;
      assert.equal(api.title, title);
      assert.equal(api.status, 'publish');
      assert.equal(api.featured, true);
      assert.equal(api.start_date.slice(0, 16), '2027-05-14 19:30');
      await context.close();
    });
  }
});
