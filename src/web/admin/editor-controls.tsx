import type { ComponentChildren, VNode } from 'preact';
import { fieldId, type FieldErrors } from './form-parts.tsx';

/** The attributes §8.5 puts on a control: its id, and when refused `aria-invalid` and the error's id. */
export interface ControlAttributes {
  id: string;
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
}

/** `<p id="field-{id}-error">` with the field's message (100 §8.5), or nothing. */
export function FieldError(props: { name: string; errors: FieldErrors }): VNode | null {
  const message = props.errors[props.name];
  return message === undefined ? null : <p class="field-error" id={`${fieldId(props.name)}-error`}>{message}</p>;
}

function describedBy(name: string, hint: boolean, errors: FieldErrors): string | undefined {
  const ids = [hint ? `${fieldId(name)}-hint` : '', errors[name] === undefined ? '' : `${fieldId(name)}-error`].filter((id) => id !== '');
  return ids.length === 0 ? undefined : ids.join(' ');
}

/**
 * One labelled control of the editor whose markup varies (selects with groups, number and date
 * inputs, text areas): the label, the hint and error tied by `aria-describedby`, and the
 * control drawn by `children` with the attributes it must carry.
 */
export function Described(props: { name: string; label: string; hint?: string; required?: string; errors: FieldErrors; children: (attrs: ControlAttributes) => ComponentChildren }): VNode {
  const id = fieldId(props.name);
  const invalid = props.errors[props.name] !== undefined;
  const attrs: ControlAttributes = { id, ...(invalid ? { 'aria-invalid': 'true' as const } : {}) };
  const described = describedBy(props.name, props.hint !== undefined, props.errors);
  if (described !== undefined) attrs['aria-describedby'] = described;
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.required && <span class="field-required"> {props.required}</span>}
      </label>
      {props.hint !== undefined && <p class="hint" id={`${id}-hint`}>{props.hint}</p>}
      {props.children(attrs)}
      <FieldError name={props.name} errors={props.errors} />
    </div>
  );
}

/** A checkbox with value `1` and its label after it. */
export function Check(props: { name: string; label: string; checked: boolean; id?: string; value?: string }): VNode {
  const id = props.id ?? fieldId(props.name);
  return (
    <span class="field-check">
      <input type="checkbox" id={id} name={props.name} value={props.value ?? '1'} checked={props.checked} />
      <label for={id}>{props.label}</label>
    </span>
  );
}

/** Radios in a `<fieldset id="field-{name}">` with its legend (100 §8.5 ids). */
export function RadioGroup(props: { name: string; legend: string; value: string; choices: Array<[string, string]>; errors: FieldErrors }): VNode {
  const id = fieldId(props.name);
  const invalid = props.errors[props.name] !== undefined;
  return (
    <fieldset id={id} class="editor-checks" aria-describedby={invalid ? `${id}-error` : undefined}>
      <legend>{props.legend}</legend>
      {props.choices.map(([value, label]) => (
        <span class="field-check">
          <input type="radio" id={`${id}-${value}`} name={props.name} value={value} checked={props.value === value} aria-invalid={invalid ? 'true' : undefined} />
          <label for={`${id}-${value}`}>{label}</label>
        </span>
      ))}
      <FieldError name={props.name} errors={props.errors} />
    </fieldset>
  );
}
