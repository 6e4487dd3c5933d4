// Form pieces: every control has a visible label, errors sit under the field they concern (and
// are announced), and a form's general error sits above its button.
import type { ComponentChildren, TargetedEvent } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ApiError } from './api-error.ts';

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onValue(v: string): void;
  error?: string | undefined;
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'tel' | 'number';
  required?: boolean;
  autoComplete?: string;
  multiline?: boolean;
  rows?: number;
  readOnly?: boolean;
  inputMode?: 'numeric' | 'text' | 'email' | 'decimal';
  placeholder?: string;
}

export function Field(p: FieldProps) {
  const id = useId();
  const described = [p.hint ? `${id}-hint` : '', p.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id, name: p.name, value: p.value, required: p.required, readOnly: p.readOnly, placeholder: p.placeholder,
    'aria-invalid': p.error ? true : undefined, 'aria-describedby': described,
    onInput: (e: TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) => p.onValue(e.currentTarget.value),
  };
  return (
    <div class={`field${p.error ? ' has-error' : ''}`}>
      <label for={id}>{p.label}</label>
      {p.multiline
        ? <textarea {...common} rows={p.rows ?? 4} />
        : <input {...common} type={(p.type ?? 'text') as 'text'} autoComplete={p.autoComplete} inputMode={p.inputMode} />}
      {p.hint && <p class="hint" id={`${id}-hint`}>{p.hint}</p>}
      {p.error && <p class="error" id={`${id}-error`} role="alert">{p.error}</p>}
    </div>
  );
}

interface SelectProps {
  label: string;
  name: string;
  value: string;
  onValue(v: string): void;
  options: { value: string; label: string }[];
  error?: string | undefined;
  hint?: string;
}

export function Select(p: SelectProps) {
  const id = useId();
  return (
    <div class={`field${p.error ? ' has-error' : ''}`}>
      <label for={id}>{p.label}</label>
      <select id={id} name={p.name} value={p.value} aria-invalid={p.error ? true : undefined}
        aria-describedby={p.error ? `${id}-error` : p.hint ? `${id}-hint` : undefined}
        onChange={(e) => p.onValue(e.currentTarget.value)}>
        {p.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      {p.hint && <p class="hint" id={`${id}-hint`}>{p.hint}</p>}
      {p.error && <p class="error" id={`${id}-error`} role="alert">{p.error}</p>}
    </div>
  );
}

export function Checkbox(p: { label: string; name: string; checked: boolean; onChecked(v: boolean): void; hint?: string }) {
  const id = useId();
  return (
    <div class="check">
      <input type="checkbox" id={id} name={p.name} checked={p.checked} onChange={(e) => p.onChecked(e.currentTarget.checked)} />
      <label for={id}>{p.label}</label>
      {p.hint && <span class="hint"> {p.hint}</span>}
    </div>
  );
}

/** The state of one form: busy while it submits, and the error of its last submit. */
export function useForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  async function submit(fn: () => Promise<void>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'CLIENT', String(e)));
    } finally {
      setBusy(false);
    }
  }
  return {
    busy, error, submit, setError,
    /** The error of a field, if the last submit had one. */
    field: (name: string) => error?.field(name),
  };
}

/** An error found before sending (two password fields that differ), shown like the server's. */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError(422, 'VALIDATION_FAILED', 'One or more fields are invalid', [{ field, code: 'INVALID', message }]);
}

/** A form's general error (one not about a single field), above its button. */
export function FormError({ error, fields = [] }: { error: ApiError | null; fields?: string[] }) {
  if (!error) return null;
  const own = error.fields.length > 0 && error.fields.every((f) => fields.some((n) => f.field === n || f.field.startsWith(`${n}[`) || f.field.startsWith(`${n}.`)));
  if (own) return <p class="form-error" role="alert">Please correct the fields marked above.</p>;
  const extra = error.fields.filter((f) => !fields.some((n) => f.field === n || f.field.startsWith(`${n}[`)));
  return (
    <div class="form-error" role="alert">
      <p>{error.message}</p>
      {extra.length > 0 && <ul>{extra.map((f) => <li key={f.field}>{f.field}: {f.message}</li>)}</ul>}
      {error.requestId && <p class="muted">Request {error.requestId}</p>}
    </div>
  );
}

export function Form(p: { onSubmit(): void; children: ComponentChildren; label?: string; class?: string }) {
  return (
    <form class={p.class ?? 'form'} aria-label={p.label} noValidate onSubmit={(e) => { e.preventDefault(); p.onSubmit(); }}>
      {p.children}
    </form>
  );
}

export function Button(p: { children: ComponentChildren; busy?: boolean; kind?: 'primary' | 'danger' | 'plain'; type?: 'submit' | 'button'; onClick?(): void; disabled?: boolean; label?: string }) {
  return (
    <button type={p.type ?? 'submit'} class={`btn ${p.kind ?? 'primary'}`} disabled={p.busy || p.disabled} aria-busy={p.busy ? true : undefined}
      aria-label={p.label} onClick={p.onClick}>
      {p.children}
    </button>
  );
}
