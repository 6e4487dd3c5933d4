// Contexts: named API URLs and tokens, in $XDG_CONFIG_HOME/hostcloud/contexts.json (else
// ~/.config/…), readable by the owner only (0600 in a 0700 directory): it holds API keys.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './errors.js';

export interface Context {
  url: string;
  token: string;
}

export interface ContextsFile {
  current: string | null;
  contexts: Record<string, Context>;
}

export function contextsPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME ?? os.homedir(), '.config');
  return path.join(base, 'hostcloud', 'contexts.json');
}

export async function readContexts(env: Record<string, string | undefined>): Promise<ContextsFile> {
  const file = contextsPath(env);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { current: null, contexts: {} };
    throw e;
  }
  try {
    const parsed = JSON.parse(text) as Partial<ContextsFile>;
    return { current: typeof parsed.current === 'string' ? parsed.current : null, contexts: parsed.contexts && typeof parsed.contexts === 'object' ? parsed.contexts : {} };
  } catch {
    throw new UsageError(`${file} is not valid JSON: fix or remove it`);
  }
}

export async function writeContexts(env: Record<string, string | undefined>, data: ContextsFile): Promise<string> {
  const file = contextsPath(env);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written aside and renamed: a crash never leaves half a file; created 0600 before any key is in it.
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, file);
  return file;
}

export interface Target {
  url: string;
  token: string;
  /** The context used, if any. */
  context: string | null;
}

/** URL and token: HC_URL / HC_TOKEN override the context (--context, else HC_CONTEXT, else the current one). */
export async function resolveTarget(env: Record<string, string | undefined>, contextName: string | undefined): Promise<Target> {
  const file = await readContexts(env);
  const name = contextName ?? env.HC_CONTEXT ?? file.current ?? null;
  const ctx = name ? file.contexts[name] : undefined;
  if (name && !ctx && (contextName || env.HC_CONTEXT)) throw new UsageError(`no context "${name}" (hc context list shows them)`);
  const url = env.HC_URL || ctx?.url;
  const token = env.HC_TOKEN || ctx?.token;
  if (!url || !token) {
    throw new UsageError(`no ${!url ? 'API URL' : 'API token'}: add a context with hc context add NAME --url URL --token TOKEN, or set HC_URL and HC_TOKEN`);
  }
  return { url, token, context: ctx ? name : null };
}
