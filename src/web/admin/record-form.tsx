import type { MessageKey } from '../../i18n/catalog.ts';
import type { AdminView } from './frame.tsx';
import { Checkbox, CsrfField, ErrorSummary, Select, TextArea, TextField, type FieldErrors } from './form-parts.tsx';

export type FieldKind = 'text' | 'email' | 'url' | 'tel' | 'number' | 'password' | 'textarea' | 'checkbox' | 'select';

/** One control of a record editor (100 §9): its `name` is the API parameter's. */
export interface FieldSpec {
  name: string;
  label: MessageKey;
  kind: FieldKind;
  hint?: MessageKey;
  required?: boolean;
  options?: { value: string; label: string }[];
  autocomplete?: string;
}

export interface FormButton {
  value: string;
  label: string;
  secondary?: boolean;
}

export interface RecordFormProps {
  view: AdminView;
  /** The page's own address. */
  action: string;
  fields: FieldSpec[];
  /** Form values as strings; a checkbox is checked when its value is `1`. */
  values: Record<string, string>;
  errors: FieldErrors;
  unplaced: string[];
  /** The stored record's revision (80 §1.1), sent back as If-Match; absent for a new record. */
  revision?: string;
  buttons: FormButton[];
  /** 409: the fields someone else changed since the form was opened, by label. */
  conflict?: string[];
}

function Control({ field, view, value, errors }: { field: FieldSpec; view: AdminView; value: string; errors: FieldErrors }) {
  const label = view.t(field.label);
  const hint = field.hint ? view.t(field.hint) : undefined;
  switch (field.kind) {
    case 'textarea':
      return <TextArea name={field.name} label={label} value={value} hint={hint} errors={errors} />;
    case 'checkbox':
      return <Checkbox name={field.name} label={label} checked={value === '1'} hint={hint} errors={errors} />;
    case 'select':
      return <Select name={field.name} label={label} value={value} options={field.options ?? []} hint={hint} errors={errors} />;
    default:
      return <TextField name={field.name} label={label} value={value} type={field.kind} hint={hint} required={field.required} requiredText={view.t('admin_required')} errors={errors} autocomplete={field.autocomplete} />;
  }
}

/**
 * The form of a venue, organizer, category or tag editor (100 §9, with §8.4's buttons and §8.5's
 * error presentation): the values entered stay in it after a refusal or a conflict.
 */
export function RecordForm(props: RecordFormProps) {
  const { view } = props;
  return (
    <>
      <ErrorSummary errors={props.errors} unplaced={props.unplaced} t={view.t} />
      {props.conflict && (
        <div class="alert" role="alert">
          <p>{view.t('rec_conflict')}</p>
          {props.conflict.length > 0 && <p>{view.t('rec_conflict_fields', { fields: props.conflict.join(', ') })}</p>}
          <p>{view.t('rec_conflict_again')}</p>
        </div>
      )}
      <form method="post" action={props.action} novalidate class="record-form">
        <CsrfField token={view.csrfToken} />
        {props.revision !== undefined && <input type="hidden" name="revision" value={props.revision} />}
        {props.fields.map((field) => (
          <Control field={field} view={view} value={props.values[field.name] ?? ''} errors={props.errors} />
        ))}
        <div class="form-actions">
          {props.buttons.map((button) => (
            <button type="submit" name="action" value={button.value} class={button.secondary ? 'button button-secondary' : 'button'}>
              {button.label}
            </button>
          ))}
        </div>
      </form>
    </>
  );
}

export interface LinkedEvent {
  id: number;
  title: string;
  start: string;
}

/** Up to 20 events of a venue or organizer, and the event list filtered by it (100 §9). */
export function LinkedEvents({ view, heading, events, listHref }: { view: AdminView; heading: string; events: LinkedEvent[]; listHref: string }) {
  return (
    <section aria-labelledby="linked-events">
      <h2 id="linked-events">{heading}</h2>
      {events.length === 0 ? (
        <p>{view.t('rec_no_linked_events')}</p>
      ) : (
        <ul>
          {events.map((event) => (
            <li>
              <a href={view.adminUrl(`/events/${event.id}/`)}>{event.title || view.t('rec_untitled')}</a> <time datetime={event.start.replace(' ', 'T')}>{event.start}</time>
            </li>
          ))}
        </ul>
      )}
      <p>
        <a href={listHref}>{view.t('rec_linked_all')}</a>
      </p>
    </section>
  );
}
