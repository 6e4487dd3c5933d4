// `--help` of every `hostcloud admin` command and group: its usage and description, read from the
// overview (admin.ts HELP, so the two cannot disagree), and examples (ids written the way the
// server makes them; a catalog table's generic example shows the form, its fields are the table's).
import { CliError } from './admin-http.ts';

const EXAMPLES: Record<string, string[]> = {
  'accounts create': [
    'accounts create --email ada@example.com --name "Ada Lovelace" --deposit 100 --ip 203.0.113.7',
    'accounts create --email ci@example.com --ip 198.51.100.0/24 --test-key --scope servers:read --scope servers:write',
  ],
  'accounts list': ['accounts list', 'accounts list --email example.com --status active --per-page 50'],
  'accounts get': ['accounts get acc_3kT9wQ2mZx7Lp4Rb'],
  'accounts update': ['accounts update acc_3kT9wQ2mZx7Lp4Rb --status suspended', 'accounts update acc_3kT9wQ2mZx7Lp4Rb --company ""'],
  'accounts reseller': ['accounts reseller acc_3kT9wQ2mZx7Lp4Rb --on'],
  'accounts invite': ['accounts invite acc_3kT9wQ2mZx7Lp4Rb'],
  deposit: ['deposit acc_3kT9wQ2mZx7Lp4Rb 150.00', 'deposit acc_3kT9wQ2mZx7Lp4Rb 25 --description "Bank transfer 2026-11-22"'],
  transactions: ['transactions acc_3kT9wQ2mZx7Lp4Rb', 'transactions acc_3kT9wQ2mZx7Lp4Rb --type withdraw --page 2'],
  'keys list': ['keys list acc_3kT9wQ2mZx7Lp4Rb'],
  'keys create': ['keys create acc_3kT9wQ2mZx7Lp4Rb --ip 203.0.113.7 --name deploy --scope servers:write', 'keys create acc_3kT9wQ2mZx7Lp4Rb --ip 203.0.113.0/24 --sub-user 7'],
  'keys revoke': ['keys revoke key_5Fq8nWc2Lz6Tr1Ya'],
  'sub-users create': ['sub-users create acc_3kT9wQ2mZx7Lp4Rb --email grace@example.com --first-name Grace --last-name Hopper'],
  'dns resync': ['dns resync', 'dns resync --zone example.com'],
  'sub-users list': ['sub-users list acc_3kT9wQ2mZx7Lp4Rb --status active'],
  'tickets list': ['tickets list --status open', 'tickets list --account acc_3kT9wQ2mZx7Lp4Rb --priority high', 'tickets list --token hc_staff_… --assignee me --department 1 --status customer_reply'],
  'tickets show': ['tickets show 482913'],
  'tickets reply': ['tickets reply 482913 "The boot order was wrong; it is fixed now."'],
  'tickets note': ['tickets note 482913 "Customer confirmed by phone."'],
  'tickets status': ['tickets status 482913 in_progress'],
  'tickets delete': ['tickets delete 482913'],
  'tickets assign': ['tickets assign 482913 stf_7Hq2mK9xLp3Wz8Rb', 'tickets assign 482913 none'],
  'tickets close': ['tickets close 482913 517204 630118'],
  'TABLE list': ['TABLE list'],
  'TABLE get': ['TABLE get 1'],
  'TABLE create': ['plans create --name "Cloud S" --cpu_cores 1 --ram_mb 1024 --storage_gb 25 --bandwidth_gb 1000 --price 5.00', 'TABLE create --data \'{"name": "…"}\''],
  'TABLE update': ['TABLE update 1 --name "New name"', 'plans update 1 --available false'],
  'unit-prices list': ['unit-prices list'],
  'unit-prices get': ['unit-prices get ram_gb'],
  'unit-prices set': ['unit-prices set ram_gb 2.50'],
  'vdc-pool get': ['vdc-pool get acc_3kT9wQ2mZx7Lp4Rb'],
  'vdc-pool set': ['vdc-pool set acc_3kT9wQ2mZx7Lp4Rb --cpu 16 --ram-mb 32768 --storage-gb 500 --ipv4 4 --monthly-price 120.00'],
  'nodes list': ['nodes list', 'nodes list --location 1'],
  'nodes get': ['nodes get 3'],
  'nodes add': ['nodes add --location 1 --name hv3.fra1.example.net --cpu-vendor amd --cpu-cores 64 --ram-mb 262144 --storage-gb 4000', 'nodes add --location 1 --name lxd1.fra1.example.net --endpoint https://lxd1.fra1.example.net:8443'],
  'nodes status': ['nodes status 3 draining'],
  'nodes delete': ['nodes delete 3'],
  'servers list': ['servers list --status active', 'servers list --account acc_3kT9wQ2mZx7Lp4Rb --node 3 --page 2'],
  'locations delete': ['locations delete 4'],
  'hosting-nodes list': ['hosting-nodes list'],
  'hosting-nodes get': ['hosting-nodes get 1'],
  'hosting-nodes add': ['hosting-nodes add --name web1.fra1.example.net --host 203.0.113.10 --location 1', 'hosting-nodes add --name web2.example.net --host 198.51.100.4 --config hosting_root=/home/sites'],
  'hosting-nodes check': ['hosting-nodes check 1'],
  'hosting-nodes disable': ['hosting-nodes disable 1'],
  'hosting-nodes enable': ['hosting-nodes enable 1'],
  'servers migrate': ['servers migrate srv_8fJ2kLmN4pQ7rS1t', 'servers migrate srv_8fJ2kLmN4pQ7rS1t --node 4 --mode cold', 'servers migrate srv_8fJ2kLmN4pQ7rS1t --member lxd-b'],
  'operations list': ['operations list --status stuck', 'operations list --status failed --type server.create --since 2026-11-22T00:00:00Z', 'operations list --node 3 --account acc_3kT9wQ2mZx7Lp4Rb'],
  'operations get': ['operations get op_4Kq9vX2mLp8RtY1z'],
  'operations cancel': ['operations cancel op_4Kq9vX2mLp8RtY1z'],
  'operations retry': ['operations retry op_4Kq9vX2mLp8RtY1z'],
  'provider fault': ['provider fault', 'provider fault upstream_error --remaining 2 --calls create,power', 'provider fault none --provider registrar'],
  'ip-pools list': ['ip-pools list 1'],
  'ip-pools add': ['ip-pools add 1 --version 4 --cidr 203.0.113.0/24 --gateway 203.0.113.1'],
  'ip-pools delete': ['ip-pools delete 5'],
  'ip-pools addresses': ['ip-pools addresses 5', 'ip-pools addresses 5 --state cooling'],
  'hosting-servers list': ['hosting-servers list'],
  'registrar add-domain': ['registrar add-domain my-old-shop.net --auth-code x7Lm2Vq9Kp0a', 'registrar add-domain shop.example.org --auth-code Abc-123-xyz --expires 2027-01-15T00:00:00Z'],
  'registrar list': ['registrar list --registrar other'],
  'registrar messages': ['registrar messages --kind transfer --domain shop.example.com', 'registrar messages --since 2026-11-01T00:00:00Z --json'],
  'billing run': ['billing run'],
  'staff list': ['staff list', 'staff list --role support --status active'],
  'staff get': ['staff get stf_3kT9wQ2mZx7Lp4Rb'],
  'staff invite': ['staff invite --email grace@example.com --name "Grace Hopper" --role support'],
  'staff reinvite': ['staff reinvite stf_3kT9wQ2mZx7Lp4Rb'],
  'staff update': ['staff update stf_3kT9wQ2mZx7Lp4Rb --role billing', 'staff update stf_3kT9wQ2mZx7Lp4Rb --status active'],
  'staff disable': ['staff disable stf_3kT9wQ2mZx7Lp4Rb'],
  'staff reset-2fa': ['staff reset-2fa stf_3kT9wQ2mZx7Lp4Rb'],
  'staff sessions': ['staff sessions stf_3kT9wQ2mZx7Lp4Rb'],
  'staff revoke-session': ['staff revoke-session stf_3kT9wQ2mZx7Lp4Rb ses_5Fq8nWc2Lz6Tr1Ya'],
  'staff tokens': ['staff tokens stf_3kT9wQ2mZx7Lp4Rb'],
  'staff create-token': ['staff create-token stf_3kT9wQ2mZx7Lp4Rb --name deploy --ip 203.0.113.7'],
  'staff revoke-token': ['staff revoke-token stt_8fJ2kLmN4pQ7rS1t'],
  'audit-log': ['audit-log --target-type account --target-id acc_8fJ2kLmN4pQ7rS1t', 'audit-log --actor admin_token --since 2026-11-01T00:00:00Z --json'],
  setup: ['setup --url http://127.0.0.1:8080', 'setup --json'],
  'settings branding get': ['settings branding get', 'settings branding get --json'],
  'settings branding set': [
    'settings branding set --name "Acme Cloud" --color "#0a7f3f" --support-email help@acme.example --logo acme.svg',
    'settings branding set --terms-url https://acme.example/terms --privacy-url none',
  ],
  'billing overdue': ['billing overdue'],
  'invoices list': ['invoices list', 'invoices list --account acc_3kT9wQ2mZx7Lp4Rb --kind credit_note'],
  'invoices get': ['invoices get inv_7Hq2sLk9Xw3Zp5Nb'],
  'invoices pdf': ['invoices pdf inv_7Hq2sLk9Xw3Zp5Nb', 'invoices pdf inv_7Hq2sLk9Xw3Zp5Nb --output invoice.pdf'],
  'invoice-settings get': ['invoice-settings get'],
  'invoice-settings set': ['invoice-settings set --company-name "Example Hosting GmbH" --address "Hauptstr. 1\\n10115 Berlin" --tax-id DE123456789 --prefix EH'],
  'tax-rates list': ['tax-rates list'],
  'tax-rates set': ['tax-rates set DE 19.00 --label VAT'],
  'tax-rates delete': ['tax-rates delete DE'],
  'payments list': ['payments list --status pending', 'payments list --account acc_3kT9wQ2mZx7Lp4Rb'],
  'payments refresh': ['payments refresh pay_4Rt8Yq2Lm6Nx0Kc3'],
  refund: ['refund 1234', 'refund 1234 --amount 25.00 --reason "Asked by the customer" --idempotency-key 3f1c2a9e-8b7d-4c6e-9f00-1a2b3c4d5e6f'],
  statement: ['statement acc_3kT9wQ2mZx7Lp4Rb 2026-03', 'statement acc_3kT9wQ2mZx7Lp4Rb 2026-03 --pdf'],
  'billing-details': ['billing-details acc_3kT9wQ2mZx7Lp4Rb', 'billing-details acc_3kT9wQ2mZx7Lp4Rb --address "1 Main St\\nSpringfield" --tax-id US-12-3456789'],
  'notifications list': ['notifications list --status failed', 'notifications list --account acc_3kT9wQ2mZx7Lp4Rb --kind ticket.answered'],
};

export interface CommandHelp {
  /** The words that name it: `accounts create`, `deposit`, `plans list`. */
  command: string;
  usage: string;
  about: string;
  examples: string[];
}

/** `deposit ACCOUNT_ID AMOUNT [--x]` → `deposit`: the words before the first argument, option or choice. */
function commandOf(spec: string): string {
  const words: string[] = [];
  for (const [i, w] of spec.split(/\s+/).entries()) {
    if (!/^[a-z][a-z0-9-]*$/.test(w) && !(i === 0 && w === 'TABLE')) break;
    words.push(w);
  }
  return words.join(' ');
}

/** The overview's entries: a line indented two spaces starts one, deeper lines continue its usage (`[…`, `--…`) or describe it. */
export function commandsOf(overview: string, catalog: string[]): CommandHelp[] {
  const entries: { lines: string[] }[] = [];
  for (const line of overview.split('\n')) {
    if (/^ {2}[^ -]/.test(line)) entries.push({ lines: [line.slice(2)] });
    else if (/^ {3,}\S/.test(line) && entries.at(-1)?.lines.length) entries.at(-1)!.lines.push(line.trim());
    else if (!/^ /.test(line)) entries.push({ lines: [] }); // a section heading ends the entry before it
  }
  const out: CommandHelp[] = [];
  const add = (usage: string, about: string) => {
    const command = commandOf(usage);
    const expand = command.startsWith('TABLE ') ? catalog.map((t) => [command.replace('TABLE', t), t] as const) : [[command, ''] as const];
    for (const [name, table] of expand) {
      const own = (s: string) => (table ? s.replace(/\bTABLE\b/g, table) : s);
      // A table's own examples, and the generic ones (`plans create …` is not an example for locations).
      const examples = (EXAMPLES[command] ?? []).map(own).filter((e) => !table || e.startsWith(`${table} `));
      out.push({ command: name, usage: `hostcloud admin ${own(usage)}`, about: own(about), examples: examples.map((e) => `hostcloud admin ${e}`) });
    }
  };
  for (const { lines } of entries) {
    if (!lines.length) continue;
    const [first, ...rest] = lines as [string, ...string[]];
    // "deposit ACCOUNT_ID AMOUNT [--description TEXT]        AMOUNT like 150.00": usage, then what it is.
    // A usage line may end in a remark after a wide gap: "[--country CC]      (an empty value clears …)".
    const usageParts: string[] = [];
    const aboutParts: string[] = [];
    for (const [i, line] of [first, ...rest].entries()) {
      if (i > 0 && !/^(\[|--)/.test(line)) {
        aboutParts.push(line);
        continue;
      }
      const [spec, remark] = line.split(/ {3,}/, 2) as [string, string | undefined];
      usageParts.push(spec.trim());
      if (remark) aboutParts.push(remark.trim());
    }
    const usage = usageParts.join(' ');
    const about = aboutParts.join(' ');
    if (usage.startsWith('unit-prices ')) {
      // One line for three commands: "unit-prices list | get UNIT | set UNIT PRICE   (units: …)".
      for (const part of usage.slice('unit-prices '.length).split(' | ')) add(`unit-prices ${part.trim()}`, about);
    } else add(usage, about);
  }
  return out;
}

function render(found: CommandHelp[]): string {
  const one = found.length === 1 || found.every((f) => f.command === found[0]!.command);
  const lines = one
    ? [...found.map((f) => `Usage: ${f.usage}`), '', ...found.map((f) => f.about).filter(Boolean).map((a) => `  ${a}`)]
    : ['Usage:', ...found.flatMap((f) => [`  ${f.usage}`, ...(f.about ? [`      ${f.about}`] : [])])];
  const examples = [...new Set(found.flatMap((f) => f.examples))];
  return [
    ...lines, '', 'Examples:', ...examples.map((e) => `  ${e}`), '',
    'Every command also takes --json (print the API\'s JSON), --url URL and --token TOKEN; the overview: hostcloud admin help',
  ].join('\n').replace(/\n{3,}/g, '\n\n');
}

/**
 * The help of the command (or group) `words` name: `accounts create`, `accounts`, `deposit
 * acc_1 5` (its arguments are ignored). CliError when they name none.
 */
export function helpFor(commands: CommandHelp[], words: string[]): string {
  const named = (name: string) => commands.filter((c) => c.command === name);
  // The longest command the words start with (`settings branding set`, `accounts create`, `deposit`).
  for (let n = Math.min(words.length, 3); n >= 1; n--) {
    const found = named(words.slice(0, n).join(' '));
    if (found.length) return render(found);
  }
  // A group: `tickets`, `settings branding`.
  const group = commands.filter((c) => c.command.startsWith(`${words.join(' ')} `));
  if (words.length >= 1 && words.length <= 2 && group.length) return render(group);
  throw new CliError(`unknown admin command "${words.join(' ')}"; see hostcloud admin help`);
}
