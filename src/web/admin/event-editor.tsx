import type { VNode } from 'preact';
import type { EventFormValues } from './event-form-values.ts';
import type { MessageKey } from '../../i18n/catalog.ts';
import { AdminFrame, type AdminView } from './frame.tsx';
import { CsrfField, ErrorSummary, fieldId, type FieldErrors } from './form-parts.tsx';
import { Check, Described, FieldError, RadioGroup } from './editor-controls.tsx';
import { PreviewSection, RecurrenceBuilder, type PreviewDates } from './recurrence-builder.tsx';

/** The choices the editor offers, read through the API for this user. */
export interface EditorOptions {
  venues: Array<{ id: number; title: string; status: string }>;
  organizers: Array<{ id: number; title: string; status: string }>;
  categories: Array<{ id: number; name: string; parent: number }>;
  timezones: string[];
  /** The statuses this user may choose for this record (100 §8.1), the current one included. */
  statuses: string[];
  siteZone: string;
}

export type EditorMode = 'new' | 'duplicate' | 'edit' | 'trashed';

export interface EventEditorProps {
  view: AdminView;
  mode: EditorMode;
  /** The `<h1>`, translated. */
  heading: string;
  values: EventFormValues;
  options: EditorOptions;
  errors: FieldErrors;
  /** Errors no field carries (listed in the summary without a link). */
  unplaced: string[];
  /** On a 409: the labels of the fields that differ from the stored version. */
  conflict?: string[];
  preview?: PreviewDates;
  /** The series master of an occurrence (shows `scope` and the "Series" link). */
  seriesId?: number;
  /** The record is a series (master or occurrence): removing its rule needs the confirmation. */
  inSeries: boolean;
  /** A contributor publishes by submitting for review. */
  submitsForReview: boolean;
  canTrash: boolean;
  /** Trashed events: where the bulk `restore` form posts, when the user may restore it. */
  restoreAction?: string;
  /** `venues`: the API's venue list, which the enhancement's venue search asks. */
  links: { action: string; venues: string; duplicate?: string; preview?: string; series?: string };
  eventId?: number;
}

const statusLabel = (view: AdminView, status: string) => view.t(`admin_editor_status_${status}` as MessageKey);
const draftLabel = (view: AdminView, status: string) => (status === 'draft' || status === 'pending' ? ` (${statusLabel(view, status)})` : '');

/** Categories in tree order with their depth (children after their parent). */
function categoryTree(categories: EditorOptions['categories']): Array<{ id: number; name: string; depth: number }> {
  const ids = new Set(categories.map((category) => category.id));
  const children = new Map<number, EditorOptions['categories']>();
  for (const category of categories) {
    const parent = ids.has(category.parent) ? category.parent : 0;
    children.set(parent, [...(children.get(parent) ?? []), category]);
  }
  const out: Array<{ id: number; name: string; depth: number }> = [];
  const walk = (parent: number, depth: number) => {
    for (const category of children.get(parent) ?? []) {
      out.push({ id: category.id, name: category.name, depth });
      // A parent loop cannot come from the API; depth caps it anyway.
      if (depth < 20) walk(category.id, depth + 1);
    }
  };
  walk(0, 0);
  return out;
}

/** Linked organizers first (100 §8.1), then the others in the API's (title) order. */
function organizerOrder(organizers: EditorOptions['organizers'], linked: string[]): EditorOptions['organizers'] {
  const first = organizers.filter((organizer) => linked.includes(String(organizer.id)));
  return [...first, ...organizers.filter((organizer) => !linked.includes(String(organizer.id)))];
}

function TextInput(props: { name: string; label: string; value: string; errors: FieldErrors; type?: string; hint?: string; required?: string; autocomplete?: string }): VNode {
  return (
    <Described name={props.name} label={props.label} hint={props.hint} required={props.required} errors={props.errors}>
      {(attrs) => <input type={props.type ?? 'text'} name={props.name} value={props.value} autocomplete={props.autocomplete} {...attrs} />}
    </Described>
  );
}

function TextBox(props: { name: string; label: string; value: string; errors: FieldErrors; hint?: string; rows?: number }): VNode {
  return (
    <Described name={props.name} label={props.label} hint={props.hint} errors={props.errors}>
      {(attrs) => <textarea name={props.name} rows={props.rows ?? 6} {...attrs}>{props.value}</textarea>}
    </Described>
  );
}

function WhenSection(props: { view: AdminView; values: EventFormValues; options: EditorOptions; errors: FieldErrors }): VNode {
  const { view, values, errors } = props;
  const t = view.t;
  const zones = props.options.timezones.includes(values.timezone) || values.timezone === '' ? props.options.timezones : [values.timezone, ...props.options.timezones];
  return (
    <section class="card editor-section" aria-labelledby="editor-when">
      <h2 id="editor-when">{t('admin_editor_section_when')}</h2>
      <p class="hint" id="editor-when-hint">{t('admin_editor_date_hint')}</p>
      <div class="editor-row">
        <TextInput name="start_date" type="date" label={t('admin_editor_start_date')} required={t('admin_editor_required')} value={values.start_date} errors={errors} />
        <TextInput name="start_time" type="time" label={t('admin_editor_start_time')} value={values.start_time} errors={errors} />
        <TextInput name="end_date" type="date" label={t('admin_editor_end_date')} value={values.end_date} errors={errors} />
        <TextInput name="end_time" type="time" label={t('admin_editor_end_time')} value={values.end_time} errors={errors} />
      </div>
      <Check name="all_day" label={t('admin_editor_all_day')} checked={values.all_day} />
      <FieldError name="all_day" errors={errors} />
      <Described name="timezone" label={t('admin_editor_timezone')} errors={errors}>
        {(attrs) => (
          <select name="timezone" {...attrs}>
            {zones.map((zone) => <option value={zone} selected={zone === values.timezone}>{zone}</option>)}
          </select>
        )}
      </Described>
    </section>
  );
}

function WhereSection(props: { view: AdminView; values: EventFormValues; options: EditorOptions; errors: FieldErrors; venuesUrl: string }): VNode {
  const { view, values, options, errors } = props;
  const t = view.t;
  const venueFields: Array<[keyof EventFormValues['venue_new'], MessageKey]> = [
    ['venue', 'admin_editor_venue_name'], ['address', 'admin_editor_venue_address'], ['city', 'admin_editor_venue_city'],
    ['zip', 'admin_editor_venue_zip'], ['country', 'admin_editor_venue_country'], ['geo_lat', 'admin_editor_venue_geo_lat'], ['geo_lng', 'admin_editor_venue_geo_lng'],
  ];
  const organizers = organizerOrder(options.organizers, values.organizer);
  return (
    <section class="card editor-section" aria-labelledby="editor-where">
      <h2 id="editor-where">{t('admin_editor_section_where')}</h2>
      <Described name="venue" label={t('admin_editor_venue')} errors={errors}>
        {(attrs) => (
          <select name="venue" data-venues-url={props.venuesUrl} data-search-label={t('admin_editor_venue_search')} {...attrs}>
            <option value="" selected={values.venue === ''}>{t('admin_editor_venue_none')}</option>
            {options.venues.map((venue) => (
              <option value={String(venue.id)} selected={values.venue === String(venue.id)}>{venue.title}{draftLabel(view, venue.status)}</option>
            ))}
            <option value="new" selected={values.venue === 'new'}>{t('admin_editor_venue_new_option')}</option>
          </select>
        )}
      </Described>
      <fieldset id="field-venue_new" class="editor-group" aria-describedby="field-venue_new-hint">
        <legend>{t('admin_editor_venue_new')}</legend>
        <p class="hint" id="field-venue_new-hint">{t('admin_editor_venue_new_hint')}</p>
        {venueFields.map(([name, label]) => (
          <TextInput name={`venue_new[${name}]`} label={t(label)} value={values.venue_new[name]} errors={errors} />
        ))}
      </fieldset>
      <fieldset id={fieldId('organizer[]')} class="editor-checks" aria-describedby={errors.organizer === undefined ? undefined : `${fieldId('organizer')}-error`}>
        <legend>{t('admin_editor_organizers')}</legend>
        {organizers.length === 0 && <p class="hint">{t('admin_editor_organizers_none')}</p>}
        {organizers.map((organizer) => (
          <Check name="organizer[]" id={`${fieldId('organizer[]')}-${organizer.id}`} value={String(organizer.id)} label={`${organizer.title}${draftLabel(view, organizer.status)}`} checked={values.organizer.includes(String(organizer.id))} />
        ))}
        <FieldError name="organizer" errors={errors} />
      </fieldset>
      <fieldset id="field-organizer_new" class="editor-group" aria-describedby="field-organizer_new-hint">
        <legend>{t('admin_editor_organizer_new')}</legend>
        <p class="hint" id="field-organizer_new-hint">{t('admin_editor_organizer_new_hint')}</p>
        <TextInput name="organizer_new[organizer]" label={t('admin_editor_organizer_new_name')} value={values.organizer_new.organizer} errors={errors} />
        <TextInput name="organizer_new[email]" type="email" label={t('admin_editor_organizer_new_email')} value={values.organizer_new.email} errors={errors} />
      </fieldset>
    </section>
  );
}

function TermsSection(props: { view: AdminView; values: EventFormValues; options: EditorOptions; errors: FieldErrors }): VNode {
  const { view, values, options, errors } = props;
  const t = view.t;
  const tree = categoryTree(options.categories);
  return (
    <section class="card editor-section" aria-labelledby="editor-terms">
      <h2 id="editor-terms">{t('admin_editor_section_terms')}</h2>
      <fieldset id={fieldId('categories[]')} class="editor-checks editor-tree" aria-describedby={errors.categories === undefined ? undefined : `${fieldId('categories')}-error`}>
        <legend>{t('admin_editor_categories')}</legend>
        {tree.length === 0 && <p class="hint">{t('admin_editor_categories_none')}</p>}
        {tree.map((category) => (
          <span class={`field-check depth-${Math.min(category.depth, 5)}`}>
            <input type="checkbox" id={`${fieldId('categories[]')}-${category.id}`} name="categories[]" value={String(category.id)} checked={values.categories.includes(String(category.id))} />
            <label for={`${fieldId('categories[]')}-${category.id}`}>{category.name}</label>
          </span>
        ))}
        <FieldError name="categories" errors={errors} />
      </fieldset>
      <TextInput name="tags" label={t('admin_editor_tags')} hint={t('admin_editor_tags_hint')} value={values.tags} errors={errors} />
    </section>
  );
}

function DetailsSection(props: { view: AdminView; values: EventFormValues; errors: FieldErrors }): VNode {
  const { view, values, errors } = props;
  const t = view.t;
  return (
    <section class="card editor-section" aria-labelledby="editor-details">
      <h2 id="editor-details">{t('admin_editor_section_details')}</h2>
      <TextInput name="cost" label={t('admin_editor_cost')} value={values.cost} errors={errors} />
      <TextInput name="website" type="url" label={t('admin_editor_website')} value={values.website} errors={errors} autocomplete="url" />
      <TextInput name="image" label={t('admin_editor_image')} hint={t('admin_editor_image_hint')} value={values.image} errors={errors} />
      <fieldset class="editor-checks">
        <legend>{t('admin_editor_section_details')}</legend>
        <Check name="featured" label={t('admin_editor_featured')} checked={values.featured} />
        <Check name="sticky" label={t('admin_editor_sticky')} checked={values.sticky} />
        <Check name="hide_from_listings" label={t('admin_editor_hide_from_listings')} checked={values.hide_from_listings} />
      </fieldset>
      {['featured', 'sticky', 'hide_from_listings'].map((name) => <FieldError name={name} errors={errors} />)}
    </section>
  );
}

function PublishingSection(props: { view: AdminView; values: EventFormValues; options: EditorOptions; errors: FieldErrors }): VNode {
  const { view, values, options, errors } = props;
  const t = view.t;
  return (
    <section class="card editor-section" aria-labelledby="editor-publishing">
      <h2 id="editor-publishing">{t('admin_editor_section_publishing')}</h2>
      <Described name="status" label={t('admin_editor_status')} errors={errors}>
        {(attrs) => (
          <select name="status" {...attrs}>
            {options.statuses.map((status) => <option value={status} selected={status === values.status}>{statusLabel(view, status)}</option>)}
          </select>
        )}
      </Described>
      <p class="hint" id="editor-publish-hint">{t('admin_editor_publish_hint', { zone: options.siteZone })}</p>
      <div class="editor-row">
        <TextInput name="publish_date" type="date" label={t('admin_editor_publish_date')} value={values.publish_date} errors={errors} />
        <TextInput name="publish_time" type="time" label={t('admin_editor_publish_time')} value={values.publish_time} errors={errors} />
      </div>
      <TextInput name="password" label={t('admin_editor_password')} hint={t('admin_editor_password_hint')} value={values.password} errors={errors} autocomplete="off" />
    </section>
  );
}

/** The buttons of 100 §8.4 (no `formnovalidate` needed: the form is `novalidate`). */
function Buttons(props: { view: AdminView; mode: EditorMode; submitsForReview: boolean; canTrash: boolean }): VNode {
  const t = props.view.t;
  const creating = props.mode !== 'edit';
  return (
    <div class="editor-buttons">
      <button type="submit" name="action" value="save">{t(creating ? 'admin_editor_action_save_draft' : 'admin_editor_action_update')}</button>
      <button type="submit" name="action" value="publish" class="button-secondary">{t(props.submitsForReview ? 'admin_editor_action_submit' : 'admin_editor_action_publish')}</button>
      <button type="submit" name="action" value="preview_dates" class="button-secondary">{t('admin_editor_action_preview_dates')}</button>
      {!creating && props.canTrash && <button type="submit" name="action" value="trash" class="button-secondary">{t('admin_editor_action_trash')}</button>}
    </div>
  );
}

/**
 * The event editor page (100 §8): one `novalidate` POST form to its own URL with every field of
 * §8.1, the error summary of §8.5 on 422/409, the preview of §8.4, and for trashed events the
 * same values read-only with a Restore form.
 */
export function EventEditor(props: EventEditorProps): VNode {
  const { view, values, errors, options, mode } = props;
  const t = view.t;
  const readOnly = mode === 'trashed';
  const conflictNotes = props.conflict === undefined ? [] : [t('admin_editor_conflict'), ...(props.conflict.length > 0 ? [t('admin_editor_conflict_fields', { fields: props.conflict.join(', ') })] : []), t('admin_editor_conflict_overwrite')];
  return (
    <AdminFrame view={view} title={props.heading} current="events">
      <ErrorSummary errors={errors} unplaced={[...conflictNotes, ...props.unplaced]} t={t} />
      <p class="editor-links">
        {props.links.series !== undefined && <a href={props.links.series}>{t('admin_editor_series_link')}</a>}
        {props.links.preview !== undefined && <a href={props.links.preview}>{t('admin_editor_preview_link')}</a>}
        {props.links.duplicate !== undefined && <a href={props.links.duplicate}>{t('admin_editor_duplicate_link')}</a>}
      </p>
      {readOnly && <p class="notices">{t('admin_editor_trashed_note')}</p>}
      {readOnly && props.restoreAction !== undefined && props.eventId !== undefined && (
        <form method="post" action={props.restoreAction} class="editor-restore">
          <CsrfField token={view.csrfToken} />
          <input type="hidden" name="ids[]" value={String(props.eventId)} />
          <input type="hidden" name="bulk_action" value="restore" />
          <button type="submit" name="bulk_apply" value="1">{t('admin_editor_action_restore')}</button>
        </form>
      )}
      <form method="post" action={props.links.action} novalidate class="event-editor" data-event-editor="">
        <fieldset disabled={readOnly} class="editor-body">
          <legend class="vh">{props.heading}</legend>
          <CsrfField token={view.csrfToken} />
          {values.revision !== '' && <input type="hidden" name="revision" value={values.revision} />}
          <TextInput name="title" label={t('admin_editor_title')} required={t('admin_editor_required')} value={values.title} errors={errors} />
          <TextBox name="description" label={t('admin_editor_description')} hint={t('admin_editor_description_hint')} value={values.description} errors={errors} rows={10} />
          <TextBox name="excerpt" label={t('admin_editor_excerpt')} value={values.excerpt} errors={errors} rows={3} />
          <WhenSection view={view} values={values} options={options} errors={errors} />
          {props.seriesId !== undefined && (
            <RadioGroup
              name="scope"
              legend={t('admin_editor_scope')}
              value={values.scope}
              choices={[['this', t('admin_editor_scope_this')], ['following', t('admin_editor_scope_following')], ['all', t('admin_editor_scope_all')]]}
              errors={errors}
            />
          )}
          <RecurrenceBuilder
            view={view}
            values={values.recurrence}
            errors={errors}
            seriesNote={props.seriesId !== undefined}
            removable={props.inSeries}
            removeConfirmed={values.recurrence_remove_confirm}
          />
          <div id="preview-status" class="vh" role="status" aria-live="polite" data-announce={t('admin_editor_preview_updated')}></div>
          {props.preview !== undefined ? <PreviewSection view={view} preview={props.preview} /> : <div id="preview-dates" hidden></div>}
          <WhereSection view={view} values={values} options={options} errors={errors} venuesUrl={props.links.venues} />
          <TermsSection view={view} values={values} options={options} errors={errors} />
          <DetailsSection view={view} values={values} errors={errors} />
          <PublishingSection view={view} values={values} options={options} errors={errors} />
          {!readOnly && <Buttons view={view} mode={mode} submitsForReview={props.submitsForReview} canTrash={props.canTrash} />}
        </fieldset>
      </form>
    </AdminFrame>
  );
}
