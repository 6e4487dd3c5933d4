// hostcloud serve | worker | migrate | admin …
import { ConfigError, loadConfig } from '../config.ts';
import { EmbeddedError } from '../db/embedded.ts';
import { runAdmin } from './admin.ts';

const USAGE = `Usage: hostcloud <command>

Commands:
  serve            run the HTTP API (and, with WORKER=embedded, the worker)
  worker           run the worker alone (needs DATABASE_URL); start as many as you like
  migrate          apply database migrations (and seed the demo data where SEED_DEMO), then exit
  admin …          operator commands over the admin API (hostcloud admin help)
  epp-test-registry  run the EPP test registry (TLS, test CA) for REGISTRAR_DRIVER=epp on this machine

Settings come from the environment; see docs/operations.md (Settings).`;

/** `hostcloud COMMAND --help`: what it does, how it is set up, an example; it starts nothing. */
const COMMAND_HELP: Record<string, string> = {
  serve: `Usage: hostcloud serve

  Runs the HTTP API (v2, v1, admin) on HOST:PORT and, with WORKER=embedded (the default), the worker.
  Without DATABASE_URL it starts an embedded PostgreSQL in DATA_DIR/pg. Settings are environment
  variables (PORT, HOST, DATABASE_URL, ADMIN_TOKEN, LOG_FORMAT, …; see docs/operations.md, Settings).

Examples:
  hostcloud serve
  PORT=9090 DATA_DIR=/var/lib/hostcloud LOG_FORMAT=json hostcloud serve`,
  worker: `Usage: hostcloud worker

  Runs the worker alone: it takes operations from the queue and runs the billing passes. It needs
  DATABASE_URL (the embedded database belongs to \`hostcloud serve\`); start as many as you like.
  With WORKER_METRICS_PORT it serves GET /metrics (METRICS_TOKEN or the admin token).

Examples:
  DATABASE_URL=postgres://hostcloud@db/hostcloud hostcloud worker
  DATABASE_URL=postgres://hostcloud@db/hostcloud WORKER_METRICS_PORT=9464 hostcloud worker`,
  migrate: `Usage: hostcloud migrate

  Applies the database migrations, then exits (serve does this too as it starts). Where SEED_DEMO is
  true (the default with the embedded database, not with DATABASE_URL) it also seeds the demo catalog,
  nodes, IP pools and seller.

Examples:
  hostcloud migrate
  DATABASE_URL=postgres://hostcloud@db/hostcloud hostcloud migrate`,
  'epp-test-registry': `Usage: hostcloud epp-test-registry [--port N] [--dir DIR] [--client-id ID] [--password PW]

  Runs the EPP test registry (RFC 5730–5734 over TLS, state in memory) on 127.0.0.1 and prints the
  REGISTRAR_DRIVER=epp settings that reach it. Its test CA and certificates are made in DIR (default
  DATA_DIR/epp-test-registry) on the first start. See docs/epp.md.

Examples:
  hostcloud epp-test-registry --port 7000`,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'admin') return runAdmin(rest);
  if (command && Object.hasOwn(COMMAND_HELP, command) && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(`${COMMAND_HELP[command]}\n\n\`hostcloud\` is bin/hostcloud.js of the installation: \`node bin/hostcloud.js\` from the checkout, or \`hostcloud\` after \`npm link\` there.\n`);
    return 0;
  }
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
      process.stdout.write(`migrations applied${config.seedDemo ? '; demo data seeded (SEED_DEMO)' : ''}\n`);
      return 0;
    }
    case 'epp-test-registry': {
      const { runEppTestRegistry } = await import('./epp-test-registry.ts');
      await runEppTestRegistry(rest, config.dataDir);
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
