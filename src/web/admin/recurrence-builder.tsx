import type { VNode } from 'preact';
import { BUILDER_WEEKDAYS, PATTERNS, type BuilderFields } from '../../domain/recurrence/builder.ts';
import type { EventSchedule } from '../../domain/events/schedule.ts';
import type { MessageKey } from '../../i18n/catalog.ts';
import { isoWithOffset, longDate, timeText, weekdayName } from '../dates.ts';
import type { AdminView } from './frame.tsx';
import { fieldId, type FieldErrors } from './form-parts.tsx';
import { Described, FieldError, RadioGroup } from './editor-controls.tsx';

/** What "Preview dates" found (100 §8.4): the first dates ending after now, and how many up to the horizon. */
export interface PreviewDates {
  dates: EventSchedule[];
  total: number;
  /** The last date occurrences exist on (60 §4.1). */
  horizon: string;
}

/** A Monday, to name the weekdays MO … SU in the edition's language. */
const MONDAY = new Date(Date.UTC(2024, 0, 1));
const weekdayDate = (index: number) => new Date(MONDAY.getTime() + index * 86_400_000).toISOString().slice(0, 10);

/**
 * The recurrence builder (100 §8.3) as one fieldset `field-recurrence`: pattern, interval,
 * weekdays, monthly mode, end, the RRULE text and the date lists. Every control is always
 * present (the form works without JavaScript); the pattern decides which ones count.
 */
export function RecurrenceBuilder(props: { view: AdminView; values: BuilderFields; errors: FieldErrors; seriesNote?: boolean; removable: boolean; removeConfirmed: boolean }): VNode {
  const { view, values, errors } = props;
  const t = view.t;
  const recurrenceError = errors.recurrence;
  return (
    <fieldset id={fieldId('recurrence')} class="editor-recurrence" aria-describedby={recurrenceError === undefined ? undefined : `${fieldId('recurrence')}-error`}>
      <legend>{t('admin_editor_recurrence')}</legend>
      {props.seriesNote && <p class="hint">{t('admin_editor_recurrence_series_note')}</p>}
      <FieldError name="recurrence" errors={errors} />
      <Described name="recurrence_pattern" label={t('admin_editor_recurrence_pattern')} errors={errors}>
        {(attrs) => (
          <select name="recurrence_pattern" {...attrs}>
            {PATTERNS.map((pattern) => (
              <option value={pattern} selected={values.pattern === pattern}>{t(`admin_editor_pattern_${pattern}` as MessageKey)}</option>
            ))}
          </select>
        )}
      </Described>
      {props.removable && (
        <p class="field-check">
          <input type="checkbox" id={fieldId('recurrence_remove_confirm')} name="recurrence_remove_confirm" value="1" checked={props.removeConfirmed} />
          <label for={fieldId('recurrence_remove_confirm')}>{t('admin_editor_recurrence_remove_confirm')}</label>
        </p>
      )}
      <Described name="recurrence_interval" label={t('admin_editor_recurrence_interval')} errors={errors}>
        {(attrs) => <input type="number" name="recurrence_interval" min="1" step="1" inputMode="numeric" value={values.interval} {...attrs} />}
      </Described>
      <fieldset id={fieldId('recurrence_weekdays[]')} class="editor-checks editor-weekdays" aria-describedby={`${fieldId('recurrence_weekdays[]')}-hint`}>
        <legend>{t('admin_editor_recurrence_weekdays')}</legend>
        <p class="hint" id={`${fieldId('recurrence_weekdays[]')}-hint`}>{t('admin_editor_recurrence_weekdays_hint')}</p>
        {BUILDER_WEEKDAYS.map((day, index) => (
          <span class="field-check">
            <input type="checkbox" id={`${fieldId('recurrence_weekdays[]')}-${day}`} name="recurrence_weekdays[]" value={day} checked={values.weekdays.includes(day)} />
            <label for={`${fieldId('recurrence_weekdays[]')}-${day}`}>{weekdayName(view.lang, weekdayDate(index), 'long')}</label>
          </span>
        ))}
      </fieldset>
      <RadioGroup
        name="recurrence_monthly"
        legend={t('admin_editor_recurrence_monthly')}
        value={values.monthly}
        choices={[['day', t('admin_editor_monthly_day')], ['weekday', t('admin_editor_monthly_weekday')]]}
        errors={errors}
      />
      <RadioGroup
        name="recurrence_end"
        legend={t('admin_editor_recurrence_end')}
        value={values.end}
        choices={[['never', t('admin_editor_end_never')], ['count', t('admin_editor_end_count')], ['until', t('admin_editor_end_until')]]}
        errors={errors}
      />
      <Described name="recurrence_count" label={t('admin_editor_recurrence_count')} errors={errors}>
        {(attrs) => <input type="number" name="recurrence_count" min="1" step="1" inputMode="numeric" value={values.count} {...attrs} />}
      </Described>
      <Described name="recurrence_until" label={t('admin_editor_recurrence_until')} errors={errors}>
        {(attrs) => <input type="date" name="recurrence_until" value={values.until} {...attrs} />}
      </Described>
      <Described name="recurrence_rrule" label={t('admin_editor_recurrence_rrule')} hint={t('admin_editor_recurrence_rrule_hint')} errors={errors}>
        {(attrs) => <input type="text" name="recurrence_rrule" value={values.rrule} spellcheck={false} autocomplete="off" {...attrs} />}
      </Described>
      <Described name="recurrence_exdates" label={t('admin_editor_recurrence_exdates')} hint={t('admin_editor_recurrence_dates_hint')} errors={errors}>
        {(attrs) => <textarea name="recurrence_exdates" rows={3} {...attrs}>{values.exdates}</textarea>}
      </Described>
      <Described name="recurrence_rdates" label={t('admin_editor_recurrence_rdates')} hint={t('admin_editor_recurrence_dates_hint')} errors={errors}>
        {(attrs) => <textarea name="recurrence_rdates" rows={3} {...attrs}>{values.rdates}</textarea>}
      </Described>
    </fieldset>
  );
}

/**
 * `<section id="preview-dates">` (100 §8.4): each date a `<time datetime>` with its zone
 * abbreviation, then the total up to the horizon. Also the whole answer of `partial=1`.
 */
export function PreviewSection(props: { view: AdminView; preview: PreviewDates }): VNode {
  const { view, preview } = props;
  return (
    <section id="preview-dates" class="card editor-preview" aria-labelledby="preview-dates-heading">
      <h2 id="preview-dates-heading">{view.t('admin_editor_preview_heading')}</h2>
      <ol>
        {preview.dates.map((date) => (
          <li>
            <time datetime={isoWithOffset(date.start_local, date.start_utc)}>
              {longDate(view.lang, date.start_local.slice(0, 10))} {timeText(view.lang, date.start_local)} {date.timezone_abbr}
            </time>
          </li>
        ))}
      </ol>
      <p>{view.t('admin_editor_preview_total', { count: preview.total, date: longDate(view.lang, preview.horizon) })}</p>
    </section>
  );
}
