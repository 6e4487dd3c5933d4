// How `hostcloud admin` reaches the admin API, and how the API's refusals are put in the
// command's own words (flags and arguments instead of body fields, no validator jargon).
import fs from 'node:fs/promises';
import path from 'node:path';

/** What a failed command reports: with --json, `{"error": {code, message, status?, errors?}}` on stderr. */
export interface CliErrorDetail {
  /** The API's error code, or the command's own: USAGE_ERROR (bad arguments), UNREACHABLE, NO_ADMIN_TOKEN. */
  code: string;
  /** The API's HTTP status, when the server refused. */
  status?: number;
  /** The fields (flags and arguments, in the command's words) the server refused. */
  errors?: { field: string; message: string }[];
}

export class CliError extends Error {
  constructor(message: string, readonly detail: CliErrorDetail = { code: 'USAGE_ERROR' }) {
    super(message);
  }
}

/** The server, and its admin token, read only when a request is made (input is checked first). */
export interface Conn { url: string; token(): Promise<string> }

export interface FieldProblem { field: string; message: string }

/** A non-2xx answer of the admin API. */
export class ApiFailure extends CliError {
  constructor(readonly status: number, readonly code: string, readonly reason: string, readonly fields: FieldProblem[]) {
    super(`${status} ${code}: ${reason}${fields.map((f) => `\n  ${f.field}: ${f.message}`).join('')}`, { code, status, errors: fields });
  }
}

export function connection(opts: { url?: string; token?: string }): Conn {
  const url = (opts.url ?? process.env.HOSTCLOUD_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(/\/+$/, '');
  let token: Promise<string> | undefined;
  return {
    url,
    token: () => (token ??= (async () => {
      const given = opts.token ?? process.env.ADMIN_TOKEN;
      if (given) return given;
      const file = path.join(path.resolve(process.env.DATA_DIR ?? './data'), 'admin-token');
      const saved = (await fs.readFile(file, 'utf8').catch(() => '')).trim();
      if (!saved) throw new CliError(`no admin token: pass --token, set ADMIN_TOKEN, or set DATA_DIR to the server's data directory (${file} does not exist)`, { code: 'NO_ADMIN_TOKEN' });
      return saved;
    })()),
  };
}

export type Json = Record<string, unknown>;

/** `headers`: more request headers (an Idempotency-Key). */
export async function call(conn: Conn, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const token = await conn.token();
  let res: Response;
  try {
    res = await fetch(`${conn.url}/admin/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new CliError(`cannot reach ${conn.url}: ${cause ?? (e as Error).message} (is \`npm start\` running? pass --url or set HOSTCLOUD_URL)`, { code: 'UNREACHABLE' });
  }
  const json = (await res.json().catch(() => ({}))) as Json;
  if (!res.ok) {
    const err = (json.error ?? {}) as { code?: string; message?: string; errors?: FieldProblem[] };
    throw new ApiFailure(res.status, err.code ?? 'ERROR', err.message ?? 'request failed', err.errors ?? []);
  }
  return json;
}

/** Validator wording → plain words; `hint` replaces a format error (which would quote a regex). */
export function plainMessage(message: string, hint?: string): string {
  if (/must match (pattern|format)/.test(message)) return hint ?? (/format "email"/.test(message) ? 'must be an email address like you@example.com' : 'has the wrong format');
  const chars = /^must NOT have (more|fewer) than (\d+) characters$/.exec(message);
  if (chars) return `must be at ${chars[1] === 'more' ? 'most' : 'least'} ${chars[2]} characters`;
  const items = /^must NOT have (more|fewer) than (\d+) items$/.exec(message);
  if (items) return items[1] === 'fewer' ? `needs at least ${items[2]} value${items[2] === '1' ? '' : 's'}` : `takes at most ${items[2]} values`;
  if (message === 'is not a known field') return 'is not a known option';
  return message;
}

/** How a command names an API field: a flag (`--ip`), an argument (`AMOUNT`), and its format hint. */
export interface FlagOf {
  (field: string): { name: string; hint?: string } | null;
}

/** One line per problem, in the command's words: `--deposit must be an amount like 150.00`. */
export function problemLines(fields: FieldProblem[], flagOf: FlagOf): string[] {
  return fields.map((f) => {
    const flag = flagOf(f.field);
    const message = plainMessage(f.message, flag?.hint);
    // "--deposit must be …", "--ip "x" is not …", but "--email: an account with this email already exists".
    const joint = /^(an?|the|this|no|another)\b/i.test(message) ? ': ' : ' ';
    return flag ? `${flag.name}${joint}${message}` : `${f.field}: ${message}`;
  });
}

/** An API refusal re-worded for the command; other errors pass through. */
export function inCommandWords(e: unknown, flagOf: FlagOf, what = 'the server refused it'): unknown {
  if (!(e instanceof ApiFailure) || e.fields.length === 0) return e;
  const lines = problemLines(e.fields, flagOf);
  return new CliError(`${what} (${e.status} ${e.code}):\n  ${lines.join('\n  ')}`, {
    code: e.code, status: e.status, errors: e.fields.map((f, i) => ({ field: flagOf(f.field)?.name ?? f.field, message: lines[i]! })),
  });
}

/** Runs `fn`, re-wording an API refusal for the command. */
export async function worded<T>(flagOf: FlagOf, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw inCommandWords(e, flagOf);
  }
}

/** A document the admin API answers (a PDF): its bytes; an error answer throws as `call` does. */
export async function download(conn: Conn, p: string): Promise<Buffer> {
  const token = await conn.token();
  let res: Response;
  try {
    res = await fetch(`${conn.url}/admin/v1${p}`, { headers: { authorization: `Bearer ${token}` } });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new CliError(`cannot reach ${conn.url}: ${cause ?? (e as Error).message} (is \`npm start\` running? pass --url or set HOSTCLOUD_URL)`, { code: 'UNREACHABLE' });
  }
  if (!res.ok) {
    const json = (await res.json().catch(() => ({}))) as Json;
    const err = (json.error ?? {}) as { code?: string; message?: string; errors?: FieldProblem[] };
    throw new ApiFailure(res.status, err.code ?? 'ERROR', err.message ?? 'request failed', err.errors ?? []);
  }
  return Buffer.from(await res.arrayBuffer());
}
