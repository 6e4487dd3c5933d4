import type { Command } from 'commander';
import { contextsPath, readContexts, writeContexts } from '../contexts.js';
import { UsageError } from '../errors.js';
import { type Runtime, command, group } from '../runtime.js';

/** A token shown in a list: its prefix only. */
const masked = (token: string) => (token.length > 12 ? `${token.slice(0, 12)}…` : '…');

export function contextCommands(program: Command, rt: Runtime): void {
  const env = rt.io.env;
  const context = group(program, 'context', 'Named API URLs and tokens, kept 0600 in $XDG_CONFIG_HOME/hostcloud/contexts.json', [
    'hc context add prod --url https://api.example.com --token "$HC_TOKEN"',
    'hc context use prod',
    'hc context list',
  ]);

  command(context, 'add <name>', 'Add (or replace) a context; the first one added becomes current', [
    'hc context add prod --url https://api.example.com',
    'hc context add sandbox --url https://api.example.com --token hc_test_… --use',
    'printf %s "$HC_TOKEN" | hc context add ci --url https://api.example.com',
  ])
    .requiredOption('--url <url>', 'the server\'s origin, e.g. https://api.example.com (hc adds /v2)')
    .option('--token <token>', 'an API key (default: asked for without echo on a terminal, else read from standard input; a flag is seen by other users in ps and kept in shell history)')
    .option('--use', 'make it the current context')
    .action(async (name: string, opts: { url: string; token?: string; use?: boolean }) => {
      let url: URL;
      try {
        url = new URL(opts.url);
      } catch {
        throw new UsageError(`--url must be an absolute URL such as https://api.example.com, got "${opts.url}"`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--url must be http or https');
      const token = (opts.token ?? (rt.io.stdinIsTTY ? await rt.io.prompt('API token: ', { hidden: true }) : await rt.io.readStdin())).trim();
      if (token === '') throw new UsageError('no token given: type it when asked, pipe it in, or pass --token');
      if (/\s/.test(token)) throw new UsageError('a token has no spaces or line breaks: give one token');
      const file = await readContexts(env);
      file.contexts[name] = { url: url.href.replace(/\/+$/, ''), token };
      if (opts.use || !file.current || !file.contexts[file.current]) file.current = name;
      const where = await writeContexts(env, file);
      rt.io.stderr(`context "${name}" saved in ${where}${file.current === name ? ' (current)' : ''}\n`);
    });

  command(context, 'use <name>', 'Make a context the current one', ['hc context use prod'])
    .action(async (name: string) => {
      const file = await readContexts(env);
      if (!file.contexts[name]) throw new UsageError(`no context "${name}" (hc context list shows them)`);
      file.current = name;
      await writeContexts(env, file);
      rt.io.stderr(`now using context "${name}"\n`);
    });

  command(context, 'list', 'List the contexts (tokens shortened)', ['hc context list', 'hc context list -o json'])
    .action(async (_opts: unknown, cmd: Command) => {
      const file = await readContexts(env);
      const rows = Object.entries(file.contexts).map(([name, c]) => ({ name, current: name === file.current, url: c.url, token: masked(c.token) }));
      await rt.printAll(cmd, toAsync(rows), [
        { header: 'CURRENT', value: (r) => (r.current ? '*' : '') },
        { header: 'NAME', value: (r) => r.name },
        { header: 'URL', value: (r) => r.url },
        { header: 'TOKEN', value: (r) => r.token },
      ]);
    });

  command(context, 'current', 'Print the current context\'s name', ['hc context current'])
    .action(async () => {
      const file = await readContexts(env);
      if (!file.current) throw new UsageError(`no current context (file: ${contextsPath(env)})`);
      rt.io.stdout(`${file.current}\n`);
    });

  command(context, 'remove <name>', 'Remove a context', ['hc context remove old'])
    .alias('rm')
    .action(async (name: string) => {
      const file = await readContexts(env);
      if (!file.contexts[name]) throw new UsageError(`no context "${name}"`);
      delete file.contexts[name];
      if (file.current === name) file.current = null;
      await writeContexts(env, file);
      rt.io.stderr(`context "${name}" removed\n`);
    });
}

async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
