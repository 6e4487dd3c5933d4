// `hc`: the Hostcloud command line, on @hostcloud/sdk. run() is the whole program for one
// command line, writing through `io` and resolving to the exit code: 0 success, 1 an API error
// (its code, message and request id on stderr) or a failed operation, 2 a usage error (with the
// command's usage), 130 interrupted.
import { Command, CommanderError, type Option } from 'commander';
import { HostcloudError } from '@hostcloud/sdk';
import { accountCommands } from './commands/account.js';
import { contextCommands } from './commands/context.js';
import { dnsCommands } from './commands/dns.js';
import { domainCommands } from './commands/domain.js';
import { hostingCommands } from './commands/hosting.js';
import { operationCommands } from './commands/operation.js';
import { serverCommands } from './commands/server.js';
import { snapshotCommands } from './commands/snapshot.js';
import { ticketCommands } from './commands/ticket.js';
import { webhookCommands } from './commands/webhook.js';
import { BASH, ZSH, complete } from './completion.js';
import { readContexts } from './contexts.js';
import { CommandFailed, OperationFailed, UsageError } from './errors.js';
import type { Io } from './io.js';
import { Runtime, command, globalOptions } from './runtime.js';
import { VERSION } from './version.js';

export type { Io } from './io.js';
export { processIo } from './io.js';

export const EXIT = { ok: 0, apiError: 1, usage: 2, interrupted: 130 } as const;

/** The whole command tree (a new one per run: commander keeps parsed state in it). */
export function buildProgram(rt: Runtime): Command {
  const program = new Command('hc')
    .description('The Hostcloud command line: servers, domains, web hosting, tickets and billing from your terminal or scripts.')
    .version(VERSION, '-v, --version')
    .addHelpText('after', `
Credentials: hc context add NAME --url URL (asks for the token; kept 0600), or HC_URL and HC_TOKEN.
Output: tables on a terminal, JSON when piped; choose with -o table|wide|json|yaml; --columns a,b is a table of those columns (piped too).
Names: servers, locations (code), plans, OS versions (slug) and SSH keys are taken by name or id.
Exit codes: 0 success, 1 API error or failed operation, 2 usage error.

Examples:
  $ hc context add prod --url https://api.example.com
  $ hc server create --name web-1.example.com --plan "Cloud S" --location fra1 --os debian-12 --wait
  $ hc server list -o json | jq -r '.[].id'
  $ source <(hc completion bash)
`);
  globalOptions(program);
  program.configureOutput({
    writeOut: (t) => rt.io.stdout(t),
    writeErr: (t) => rt.io.stderr(t),
  });
  program.showHelpAfterError(true);
  // Each command's --help also lists -o, --no-header and --context.
  program.configureHelp({ showGlobalOptions: true });
  // Options after a subcommand are that subcommand's; the global ones are found anywhere.
  program.exitOverride();

  contextCommands(program, rt);
  serverCommands(program, rt);
  snapshotCommands(program, rt);
  domainCommands(program, rt);
  hostingCommands(program, rt);
  ticketCommands(program, rt);
  accountCommands(program, rt);
  operationCommands(program, rt);
  webhookCommands(program, rt);
  dnsCommands(program, rt);

  command(program, 'completion <shell>', 'Print the completion script for bash or zsh', [
    'source <(hc completion bash)',
    'hc completion zsh > "${fpath[1]}/_hc"',
  ])
    .action((shell: string) => {
      if (shell === 'bash') rt.io.stdout(BASH);
      else if (shell === 'zsh') rt.io.stdout(ZSH);
      else throw new UsageError(`no completion for "${shell}": bash or zsh`);
    });

  // Every command inherits the output settings and the override that turns exits into codes.
  // Commander checks required options before unknown ones, so `--plann 1` would be reported as a
  // missing --plan: required options are checked here instead, after the unknown ones.
  const required = new Map<Command, Option[]>();
  const inherit = (c: Command) => {
    for (const sub of c.commands) {
      sub.exitOverride().showHelpAfterError(true).configureHelp({ showGlobalOptions: true }).configureOutput({ writeOut: (t) => rt.io.stdout(t), writeErr: (t) => rt.io.stderr(t) });
      const mandatory = sub.options.filter((o) => o.mandatory);
      for (const o of mandatory) {
        o.mandatory = false;
        o.description = `${o.description} (required)`;
      }
      if (mandatory.length) required.set(sub, mandatory);
      inherit(sub);
    }
  };
  inherit(program);
  program.hook('preAction', (_program, action) => {
    const opts = action.opts();
    const missing = (required.get(action) ?? []).find((o) => opts[o.attributeName()] === undefined);
    if (missing) action.error(`error: required option '${missing.flags}' not specified`, { exitCode: EXIT.usage, code: 'commander.missingMandatoryOptionValue' });
  });
  return program;
}

function printApiError(rt: Runtime, e: HostcloudError, json: boolean): void {
  if (json) {
    rt.io.stderr(`${JSON.stringify({ error: { code: e.code, message: e.message, status: e.status, request_id: e.requestId ?? null, errors: e.fieldErrors } })}\n`);
    return;
  }
  const lines = [`error: ${e.code}: ${e.message}`];
  for (const f of e.fieldErrors) lines.push(`  ${f.field}: ${f.message}`);
  if (e.requestId) lines.push(`request id: ${e.requestId}`);
  rt.io.stderr(`${lines.join('\n')}\n`);
}

/** Server names for completion: quick or nothing (a TAB must not hang on a slow network). */
async function serverNames(rt: Runtime, program: Command): Promise<string[]> {
  try {
    const hc = await rt.client(program);
    const names: string[] = [];
    const signal = AbortSignal.timeout(COMPLETION_TIMEOUT_MS);
    for await (const s of hc.servers.list({ per_page: 100 }, { signal })) names.push(s.name);
    return names;
  } catch {
    return [];
  }
}

const COMPLETION_TIMEOUT_MS = 2_000;

export async function run(argv: string[], io: Io): Promise<number> {
  const rt = new Runtime(io);
  const program = buildProgram(rt);

  // Completion asks before anything is parsed: the words may hold half-typed options.
  if (argv[0] === '__complete') {
    const contexts = await readContexts(io.env).then((f) => Object.keys(f.contexts), () => []);
    const out = await complete(program, argv.slice(1), contexts, () => serverNames(rt, program));
    if (out.length) io.stdout(`${out.join('\n')}\n`);
    return EXIT.ok;
  }

  const wantsJson = () => {
    const i = argv.findIndex((a) => a === '-o' || a === '--output');
    return (i >= 0 && argv[i + 1] === 'json') || argv.includes('--output=json') || argv.includes('-ojson');
  };
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      if (e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return EXIT.ok;
      return EXIT.usage;
    }
    if (e instanceof UsageError) {
      io.stderr(`error: ${e.message}\n`);
      return EXIT.usage;
    }
    if (e instanceof HostcloudError) {
      printApiError(rt, e, wantsJson());
      return EXIT.apiError;
    }
    if (e instanceof OperationFailed || e instanceof CommandFailed) {
      io.stderr(`error: ${e.message}\n`);
      return EXIT.apiError;
    }
    if (io.signal?.aborted) return EXIT.interrupted;
    throw e;
  }
}
