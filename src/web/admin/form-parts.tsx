import type { VNode } from 'preact';
import type { AdminView } from './frame.tsx';

/** Form field name → translated message. */
export type FieldErrors = Record<string, string>;

/** 100 §8.5: `venue_new[city]` → `field-venue_new-city`, `categories[]` → `field-categories`. */
export function fieldId(name: string): string {
  return `field-${name.replace(/\[\]/g, '').replace(/\[([^\]]*)\]/g, '-$1')}`;
}

/**
 * The error summary at the top of `<main>` (100 §8.5): one link per placed error to its field,
 * errors no field carries listed without a link. Focus moves here after 422/409 (admin.js).
 */
export function ErrorSummary(props: { errors: FieldErrors; unplaced?: string[]; t: AdminView['t'] }): VNode | null {
  const placed = Object.entries(props.errors);
  const unplaced = props.unplaced ?? [];
  if (placed.length === 0 && unplaced.length === 0) return null;
  return (
    <div id="error-summary" class="error-summary" role="alert" tabindex={-1} aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{props.t('admin_error_summary')}</h2>
      <ul>
        {placed.map(([name, message]) => <li><a href={`#${fieldId(name)}`}>{message}</a></li>)}
        {unplaced.map((message) => <li>{message}</li>)}
      </ul>
    </div>
  );
}

interface Described {
  id: string;
  hint?: string;
  error?: string;
}

/** `aria-describedby` of a control: its hint and its error message. */
function describedBy({ id, hint, error }: Described): string | undefined {
  const ids = [...(hint ? [`${id}-hint`] : []), ...(error ? [`${id}-error`] : [])];
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function HintAndError({ id, hint, error }: Described) {
  return (
    <>
      {hint ? <p id={`${id}-hint`} class="hint">{hint}</p> : null}
      {error ? <p id={`${id}-error`} class="field-error">{error}</p> : null}
    </>
  );
}

function Label({ id, label, required, requiredText }: { id: string; label: string; required?: boolean; requiredText?: string }) {
  return <label for={id}>{label}{required ? <span class="required"> {requiredText ?? '*'}</span> : null}</label>;
}

export interface FieldProps {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  /** The edition's "(required)" (t('admin_required')): required fields say so in text (100 §12). */
  requiredText?: string;
  errors: FieldErrors;
  /** Where one page repeats a field (a list's rows): its own id instead of the name's. */
  id?: string;
  /** The id of the form the control belongs to when it stands outside it (forms do not nest). */
  form?: string;
}

/** What a labelled control carries: its id, and the error state and descriptions tied to it. */
interface ControlAttributes {
  id: string;
  name: string;
  form?: string;
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
}

/** A labelled control with its hint and error message above it (100 §8.5, §12). */
function Labelled(props: FieldProps & { control: (attributes: ControlAttributes) => VNode }): VNode {
  const id = props.id ?? fieldId(props.name);
  const error = props.errors[props.name];
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <Label id={id} label={props.label} required={props.required} requiredText={props.requiredText} />
      <HintAndError id={id} hint={props.hint} error={error} />
      {props.control({ id, name: props.name, form: props.form, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': describedBy({ id, hint: props.hint, error }) })}
    </div>
  );
}

export function TextField(props: FieldProps & { value?: string; type?: string; autocomplete?: string; inputmode?: string }): VNode {
  return (
    <Labelled
      {...props}
      control={(attributes) => <input {...attributes} type={props.type ?? 'text'} value={props.value ?? ''} autocomplete={props.autocomplete} inputmode={props.inputmode as any} />}
    />
  );
}

export function TextArea(props: FieldProps & { value?: string; rows?: number }): VNode {
  return <Labelled {...props} control={(attributes) => <textarea {...attributes} rows={props.rows ?? 6}>{props.value ?? ''}</textarea>} />;
}

export function Select(props: FieldProps & { value?: string; options: { value: string; label: string }[] }): VNode {
  return (
    <Labelled
      {...props}
      control={(attributes) => (
        <select {...attributes}>
          {props.options.map((option) => <option value={option.value} selected={option.value === props.value}>{option.label}</option>)}
        </select>
      )}
    />
  );
}

/** A checkbox (value `1` by default); its label follows it. */
export function Checkbox(props: Omit<FieldProps, 'required' | 'requiredText'> & { checked?: boolean; value?: string }): VNode {
  const id = props.id ?? fieldId(props.name);
  const error = props.errors[props.name];
  return (
    <div class={error ? 'field field-check field-invalid' : 'field field-check'}>
      <input
        id={id}
        type="checkbox"
        name={props.name}
        form={props.form}
        value={props.value ?? '1'}
        checked={props.checked}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy({ id, hint: props.hint, error })}
      />
      <label for={id}>{props.label}</label>
      <HintAndError id={id} hint={props.hint} error={error} />
    </div>
  );
}

/** The session's token in every POST form (100 §6.1); first in the form, so multipart posts send it first. */
export function CsrfField(props: { token: string }): VNode {
  return <input type="hidden" name="_token" value={props.token} />;
}
