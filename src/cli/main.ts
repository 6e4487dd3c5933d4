// hostcloud serve | worker | migrate | admin …
import { ConfigError, loadConfig } from '../config.ts';
import { EmbeddedError } from '../db/embedded.ts';
import { runAdmin } from './admin.ts';

const USAGE = `Usage: hostcloud <command>

Commands:
  serve            run the HTTP API (and, with WORKER=embedded, the worker)
  worker           run the worker alone (needs DATABASE_URL); start as many as you like
  migrate          apply database migrations and seed the demo catalog, then exit
  admin …          operator commands over the admin API (hostcloud admin help)

Settings come from the environment; see the README.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'admin') return runAdmin(rest);
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 1;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      // Loaded on demand: `hostcloud admin` should not pay for loading the whole server.
      const { serve } = await import('./serve.ts');
      await serve(config);
      return -1;
    }
    case 'migrate': {
      const { openStore } = await import('../runtime.ts');
      const store = await openStore(config);
      await store.close();
      process.stdout.write('migrations applied\n');
      return 0;
    }
    case 'worker': {
      const { work } = await import('./worker.ts');
      await work(config);
      return -1;
    }
    default:
      process.stderr.write(`unknown command "${command}"\n\n${USAGE}\n`);
      return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e) => {
    // Setting and start-up problems are the operator's to fix: say what, without a stack trace.
    const known = e instanceof ConfigError || e instanceof EmbeddedError;
    process.stderr.write(`hostcloud: ${known ? e.message : e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exit(1);
  },
);
