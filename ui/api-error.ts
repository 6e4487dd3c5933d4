// The API's error envelope as the clients hold it: code, message and per-field errors, so a form
// shows each next to its field. One class for the panel and the console (ui/form.tsx tests it with
// instanceof, so both clients' api.ts must throw this very class).

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly fields: FieldError[] = [], readonly requestId = '') {
    super(message);
  }

  /** The message of one field (its own, or of an item of it: `ip_allowlist[2]`). */
  field(name: string): string | undefined {
    const f = this.fields.find((e) => e.field === name || e.field.startsWith(`${name}[`) || e.field.startsWith(`${name}.`));
    return f && (f.field === name ? f.message : `${f.field.slice(name.length)}: ${f.message}`);
  }
}
