// Running `hc` (packages/cli) in tests: in-process through run() (fast: most tests), or as the
// real binary from its TypeScript sources (exit codes, streams, a terminal).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { run } from '@hostcloud/cli';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HC_MAIN = path.join(ROOT, 'packages/cli/src/main.ts');
/** node with these runs `hc` from its sources (@hostcloud/sdk from its sources too). */
export const HC_NODE_ARGS = ['--import', 'tsx', '--conditions=hostcloud-source', HC_MAIN];

export interface HcRun { code: number; stdout: string; stderr: string; prompts: string[]; execs: string[][] }

/** A config home of its own (contexts.json), removed after the file's tests. */
export async function configHome(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-config-'));
  after(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface HcOptions {
  env?: Record<string, string | undefined>;
  tty?: boolean;
  signal?: AbortSignal;
  files?: Record<string, string>;
  /** A person at the keyboard: stdin is a terminal and these are typed at the prompts, in order. */
  answers?: string[];
  /** What is piped into stdin (stdin is not a terminal). */
  stdin?: string;
  /** Exit code of programs hc runs (hc server ssh); they are recorded, not run. */
  execCode?: number;
}

/** `hc ARGS` in this process, output collected; stdout and stderr are not terminals unless `tty`. */
export async function hc(args: string[], opts: HcOptions = {}): Promise<HcRun> {
  let stdout = '';
  let stderr = '';
  const prompts: string[] = [];
  const execs: string[][] = [];
  const answers = [...(opts.answers ?? [])];
  const code = await run(args, {
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
    env: { HOME: os.tmpdir(), ...opts.env },
    stdoutIsTTY: opts.tty ?? false,
    stderrIsTTY: opts.tty ?? false,
    stdinIsTTY: opts.answers !== undefined,
    readFile: async (p) => {
      if (opts.files && p in opts.files) return opts.files[p]!;
      return fs.readFile(p, 'utf8');
    },
    prompt: async (question) => {
      prompts.push(question);
      const a = answers.shift();
      if (a === undefined) throw new Error(`hc asked "${question}" and the test has no answer`);
      return a;
    },
    readStdin: async () => opts.stdin ?? '',
    exec: async (command, argv) => {
      execs.push([command, ...argv]);
      return opts.execCode ?? 0;
    },
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { code, stdout, stderr, prompts, execs };
}

/** The real binary (from its sources), stdout and stderr piped. */
export function spawnHc(args: string[], env: Record<string, string>): Promise<HcRun> {
  const { HC_URL: _u, HC_TOKEN: _t, HC_CONTEXT: _c, XDG_CONFIG_HOME: _x, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [...HC_NODE_ARGS, ...args], { cwd: ROOT, env: { ...inherited, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr, prompts: [], execs: [] });
    });
  });
}
