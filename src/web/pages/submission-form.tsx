import { h, type ComponentChildren } from 'preact';
import type { SubmissionForm } from '../../domain/submissions/submission-form.ts';
import { Frame } from '../frame.tsx';
import { editionPath } from '../links.ts';
import type { PageEnv } from '../model.ts';

/** An option of the venue, organizer or category lists (published records only). */
export interface Choice {
  id: number;
  name: string;
  /** Category depth, for the indented tree. */
  depth?: number;
}

export interface SubmissionPageModel {
  form: SubmissionForm;
  /** Field name → translated message (422). */
  errors: Record<string, string>;
  /** The `_form` token of the add form; absent on a member's edit form (120 §9: `_token` only). */
  token?: string;
  /** A member's edit form (120 §9): Save and Withdraw, no honeypot, widget or terms. */
  edit?: boolean;
  /** The edit form's ETag of the stored event (If-Match on save: an editor's change meanwhile is not overwritten). */
  revision?: string;
  /** The ALTCHA challenge (JSON), for visitors when the proof of work is on. */
  challenge?: string;
  member?: { login: string; email: string };
  /** A member's session `_token` (100 §6.1). */
  csrfToken?: string;
  terms: string;
  venues: Choice[];
  organizers: Choice[];
  categories: Choice[];
  timezones: string[];
  siteZone: string;
  /** `{base}/assets/…` of the widget and its registration script. */
  widget: { script: string; css: string; language: string };
}

/** 100 §8.5: `venue_new[city]` → `field-venue_new-city`, `categories[]` → `field-categories`. */
export function fieldId(name: string): string {
  return `field-${name.replace(/\[\]$/, '').replace(/\[([^\]]*)\]/g, '-$1')}`;
}

interface FieldProps {
  name: string;
  label: string;
  errors: Record<string, string>;
  hint?: string;
  required?: boolean;
  requiredText: string;
  children: (aria: { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string; required?: boolean }) => ComponentChildren;
}

function Field({ name, label, errors, hint, required, requiredText, children }: FieldProps) {
  const id = fieldId(name);
  const error = errors[name];
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <p class="field">
      <label for={id}>
        {label}
        {required ? ` ${requiredText}` : ''}
      </label>
      {hint ? <span id={`${id}-hint`} class="hint">{hint}</span> : null}
      {error ? <span id={`${id}-error`} class="error">{error}</span> : null}
      {children({ id, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': described || undefined, required: required || undefined })}
    </p>
  );
}

/** The public submission form (120 §4): server-rendered, works without JavaScript. */
export function SubmissionPage({ env, page, action }: { env: PageEnv; page: SubmissionPageModel; action: string }) {
  const { t } = env;
  const { form, errors } = page;
  const req = t('submit_required');
  const text = (name: string, label: string, value: string, options: { type?: string; hint?: string; required?: boolean; autocomplete?: string } = {}) => (
    <Field name={name} label={label} errors={errors} hint={options.hint} required={options.required} requiredText={req}>
      {(aria) => <input {...aria} type={options.type ?? 'text'} name={name} value={value} autocomplete={options.autocomplete} />}
    </Field>
  );
  const select = (name: string, label: string, value: string, choices: Choice[], newLabel?: string) => (
    <Field name={name} label={label} errors={errors} requiredText={req}>
      {(aria) => (
        <select {...aria} name={name}>
          <option value="" selected={value === ''}>{t('submit_none')}</option>
          {choices.map((choice) => <option value={String(choice.id)} selected={value === String(choice.id)}>{choice.name}</option>)}
          {newLabel ? <option value="new" selected={value === 'new'}>{newLabel}</option> : null}
        </select>
      )}
    </Field>
  );
  const summary = Object.entries(errors);
  const heading = page.edit ? t('own_edit_title') : t('submit_link');
  return (
    <Frame env={env} title={heading} noindex alert={undefined}>
      <h1>{heading}</h1>
      {summary.length > 0 ? (
        <div role="alert" class="alert error-summary" tabindex={-1} id="error-summary">
          <p>{t('submit_errors')}</p>
          <ul>
            {summary.map(([name, message]) => <li><a href={`#${fieldId(name)}`}>{message}</a></li>)}
          </ul>
        </div>
      ) : null}
      {page.edit ? <p>{t('own_edit_intro')}</p> : (
        <>
          <p>{t('submit_intro')}</p>
          <p class="hint">{t('submit_within')}</p>
        </>
      )}
      {page.member ? <p><a href={editionPath(env, '/events/community/list/')}>{page.edit ? t('own_back_to_list') : t('own_link_list')}</a></p> : null}
      <form method="post" action={action} novalidate class="submission-form">
        {page.token ? <input type="hidden" name="_form" value={page.token} /> : null}
        {page.csrfToken ? <input type="hidden" name="_token" value={page.csrfToken} /> : null}
        {page.revision ? <input type="hidden" name="revision" value={page.revision} /> : null}
        {text('title', t('submit_title'), form.title, { required: true })}
        <Field name="description" label={t('submit_description')} errors={errors} requiredText={req}>
          {(aria) => <textarea {...aria} name="description" rows={8}>{form.description}</textarea>}
        </Field>
        <fieldset>
          <legend>{t('submit_when')}</legend>
          {text('start_date', t('submit_start_date'), form.start_date, { type: 'date', hint: t('submit_date_hint'), required: true })}
          {text('start_time', t('submit_start_time'), form.start_time, { type: 'time', hint: t('submit_time_hint'), required: !form.all_day })}
          {text('end_date', t('submit_end_date'), form.end_date, { type: 'date', hint: t('submit_date_hint') })}
          {text('end_time', t('submit_end_time'), form.end_time, { type: 'time', hint: t('submit_time_hint') })}
          <p class="check">
            <input type="checkbox" id="field-all_day" name="all_day" value="1" checked={form.all_day} />
            <label for="field-all_day">{t('submit_all_day')}</label>
          </p>
          <Field name="timezone" label={t('submit_timezone')} errors={errors} requiredText={req}>
            {(aria) => (
              <select {...aria} name="timezone">
                {page.timezones.map((zone) => <option value={zone} selected={(form.timezone || page.siteZone) === zone}>{zone}</option>)}
              </select>
            )}
          </Field>
        </fieldset>
        <fieldset>
          <legend>{t('submit_venue')}</legend>
          {select('venue', t('submit_venue_choice'), form.venue, page.venues, t('submit_new_venue'))}
          <fieldset>
            <legend>{t('submit_new_venue_legend')}</legend>
            {text('venue_new[venue]', t('submit_venue_name'), form.venue_new.venue)}
            {text('venue_new[address]', t('submit_address'), form.venue_new.address, { autocomplete: 'off' })}
            {text('venue_new[city]', t('submit_city'), form.venue_new.city, { autocomplete: 'off' })}
            {text('venue_new[country]', t('submit_country'), form.venue_new.country, { autocomplete: 'off' })}
          </fieldset>
        </fieldset>
        <fieldset>
          <legend>{t('submit_organizer')}</legend>
          {select('organizer', t('submit_organizer_choice'), form.organizer, page.organizers, t('submit_new_organizer'))}
          <fieldset>
            <legend>{t('submit_new_organizer_legend')}</legend>
            {text('organizer_new[organizer]', t('submit_organizer_name'), form.organizer_new.organizer)}
            {text('organizer_new[email]', t('submit_email'), form.organizer_new.email, { type: 'email', autocomplete: 'off' })}
            {text('organizer_new[phone]', t('submit_phone'), form.organizer_new.phone, { type: 'tel', autocomplete: 'off' })}
            {text('organizer_new[website]', t('submit_website'), form.organizer_new.website, { type: 'url', autocomplete: 'off' })}
          </fieldset>
        </fieldset>
        {page.categories.length > 0 ? (
          <fieldset id={fieldId('categories[]')} tabindex={-1} aria-describedby={errors['categories[]'] ? 'field-categories-error' : undefined}>
            <legend>{t('submit_categories')}</legend>
            {errors['categories[]'] ? <p id="field-categories-error" class="error">{errors['categories[]']}</p> : null}
            {page.categories.map((category) => (
              <p class={`check depth-${Math.min(category.depth ?? 0, 5)}`}>
                <input type="checkbox" id={`field-category-${category.id}`} name="categories[]" value={String(category.id)} checked={form.categories.includes(String(category.id))} />
                <label for={`field-category-${category.id}`}>{category.name}</label>
              </p>
            ))}
          </fieldset>
        ) : null}
        {text('website', t('submit_website'), form.website, { type: 'url' })}
        {text('cost', t('submit_cost'), form.cost)}
        <fieldset>
          <legend>{t('submit_about_you')}</legend>
          {page.member ? (
            <p>{t('submit_member', { login: page.member.login })}{page.member.email ? ` (${page.member.email})` : ''}</p>
          ) : (
            <>
              {text('submitter_name', t('submit_your_name'), form.submitter_name, { autocomplete: 'name' })}
              {text('submitter_email', t('submit_your_email'), form.submitter_email, { type: 'email', autocomplete: 'email', required: true, hint: t('submit_email_hint') })}
            </>
          )}
          {page.challenge ? (
            // A custom element: preact writes its attributes as given.
            h('altcha-widget', { name: 'altcha', auto: 'onsubmit', challenge: page.challenge, language: page.widget.language })
          ) : null}
        </fieldset>
        {page.terms !== '' && !page.edit ? (
          <>
            <section class="terms" aria-labelledby="terms-heading">
              <h2 id="terms-heading">{t('submit_terms')}</h2>
              {page.terms.split(/\n\s*\n/).map((paragraph) => <p>{paragraph}</p>)}
            </section>
            <p class="check">
              <input type="checkbox" id="field-terms" name="terms" value="1" checked={form.terms} aria-invalid={errors.terms ? 'true' : undefined} aria-describedby={errors.terms ? 'field-terms-error' : undefined} />
              <label for="field-terms">{t('submit_accept_terms')} {req}</label>
              {errors.terms ? <span id="field-terms-error" class="error">{errors.terms}</span> : null}
            </p>
          </>
        ) : null}
        {page.edit ? (
          <p class="edit-actions">
            <button type="submit" name="action" value="save">{t('own_save')}</button>
            <button type="submit" name="action" value="withdraw">{t('own_withdraw')}</button>
          </p>
        ) : (
          <>
            <div class="url-confirm">
              <label for="field-url_confirm">{t('submit_honeypot')}</label>
              <input type="text" id="field-url_confirm" name="url_confirm" value="" tabindex={-1} autocomplete="off" />
            </div>
            <p>
              <button type="submit">{t('submit_send')}</button>
            </p>
          </>
        )}
      </form>
      {page.challenge ? (
        <>
          <link rel="stylesheet" href={page.widget.css} />
          <script type="module" src={page.widget.script} />
        </>
      ) : null}
    </Frame>
  );
}

/** After a stored submission (or a silent drop, byte for byte the same redirect). */
export function ThanksPage({ env }: { env: PageEnv }) {
  return (
    <Frame env={env} title={env.t('submit_thanks_title')} noindex>
      <h1>{env.t('submit_thanks_title')}</h1>
      <p>{env.t('submit_thanks_text')}</p>
      <p><a href={editionPath(env, '/events/')}>{env.t('page_go_to_calendar')}</a></p>
    </Frame>
  );
}
