// A grid of read/write checkboxes per area: API key scopes and sub-user permissions alike.
import { AREA_CHOICES } from '../scopes.ts';

export function ScopePicker({ legend, value, onChange, error, within }: {
  legend: string;
  value: string[];
  onChange(v: string[]): void;
  error?: string | undefined;
  /** Only these may be picked (a sub-user hands out no more than it holds). */
  within?: string[];
}) {
  const toggle = (scope: string, on: boolean) => onChange(on ? [...value, scope] : value.filter((s) => s !== scope));
  return (
    <fieldset class={`scopes${error ? ' has-error' : ''}`}>
      <legend>{legend}</legend>
      <div class="scope-grid">
        {AREA_CHOICES.map(({ area, label, accesses }) => (
          <div class="scope-row" key={area} role="group" aria-label={label}>
            <span class="scope-area">{label}</span>
            {(['read', 'write'] as const).map((a) => {
              // An access the area does not have (events:write) keeps its cell, empty, so the grid lines up.
              if (!accesses.includes(a)) return <span class="check" key={a} aria-hidden="true" />;
              const scope = `${area}:${a}`;
              const id = `scope-${legend.replace(/\W+/g, '-')}-${area}-${a}`;
              const disabled = within !== undefined && !within.includes(scope);
              return (
                <span class="check" key={a}>
                  <input type="checkbox" id={id} checked={value.includes(scope)} disabled={disabled} onChange={(e) => toggle(scope, e.currentTarget.checked)} />
                  <label for={id}><span class="sr-only">{label} </span>{a}</label>
                </span>
              );
            })}
          </div>
        ))}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
    </fieldset>
  );
}
