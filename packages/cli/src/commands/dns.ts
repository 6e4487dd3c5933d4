// hc dns zone … and hc dns record …: the account's DNS zones and their records.
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { DnsRecord, DnsRecordUpdate, DnsZone } from '@hostcloud/sdk';
import { UsageError } from '../errors.js';
import { type Runtime, command, group, int, yesOption } from '../runtime.js';

const ZONE_COLUMNS = [
  { header: 'ID', value: (z: DnsZone) => z.id },
  { header: 'NAME', value: (z: DnsZone) => z.name },
  { header: 'RECORDS', value: (z: DnsZone) => z.records_count },
  { header: 'SERIAL', value: (z: DnsZone) => z.serial },
  { header: 'SYNCED', value: (z: DnsZone) => z.synced_at ?? 'pending' },
];

const RECORD_COLUMNS = [
  { header: 'ID', value: (r: DnsRecord) => r.id },
  { header: 'NAME', value: (r: DnsRecord) => r.name },
  { header: 'TYPE', value: (r: DnsRecord) => r.type },
  { header: 'CONTENT', value: (r: DnsRecord) => r.content },
  { header: 'TTL', value: (r: DnsRecord) => r.ttl },
  { header: 'PRIORITY', value: (r: DnsRecord) => r.priority ?? '' },
  { header: 'MANAGED', value: (r: DnsRecord) => (r.managed ? 'yes' : '') },
];

const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;
type RecordType = (typeof RECORD_TYPES)[number];

function uint16(value: string): number {
  const n = int(value);
  if (n < 0 || n > 65535) throw new InvalidArgumentError('must be 0 to 65535.');
  return n;
}

const ZONE = 'dnz_4Fq8sLk2Xw9Zp3Nb';
const RECORD = 'dnr_7Kd2mQp9Rt4Vx1Zs';

export function dnsCommands(program: Command, rt: Runtime): void {
  const dns = group(program, 'dns', 'DNS zones served by the service\'s nameservers, and their records', [
    'hc dns zone create example.com',
    'hc dns record add dnz_4Fq8sLk2Xw9Zp3Nb --name www --type A --content 192.0.2.10',
    'hc dns record list dnz_4Fq8sLk2Xw9Zp3Nb',
  ]);

  const zone = group(dns, 'zone', 'DNS zones: list, get, create, delete', ['hc dns zone list', `hc dns zone get ${ZONE}`]);

  command(zone, 'list', 'List your zones (every page), those of your domains included', ['hc dns zone list', 'hc dns zone list -o json | jq -r ".[].name"'])
    .action(async (_opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.dns.zones.list({ per_page: 100 }), ZONE_COLUMNS);
    });

  command(zone, 'get <id>', 'Show a zone: its nameservers, serial and when it was last served in full', [`hc dns zone get ${ZONE}`, `hc dns zone get ${ZONE} -o json | jq .nameservers`])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.dns.zones.get(id));
    });

  command(zone, 'create <name>', 'Make a zone (with its SOA and NS); point the domain at the nameservers it shows', ['hc dns zone create example.com', 'hc dns zone create example.com -o json | jq -r .id'])
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.dns.zones.create({ name }));
    });

  yesOption(command(zone, 'delete <id>', 'Delete a zone and every record in it (asks first; a domain\'s registration is not touched)', [`hc dns zone delete ${ZONE}`, `hc dns zone delete ${ZONE} --yes`]))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      const zone = await hc.dns.zones.get(id);
      await rt.confirm(cmd, `Delete zone ${zone.name} (${zone.id}) and every record in it? Its names stop resolving.`);
      await rt.print(cmd, await hc.dns.zones.delete(id));
    });

  const record = group(dns, 'record', 'A zone\'s records: list, add, update, delete', [`hc dns record list ${ZONE}`, `hc dns record add ${ZONE} --name @ --type MX --content mail.example.com --priority 10`]);

  command(record, 'list <zone-id>', 'List a zone\'s records (every page): the managed SOA and NS first', [
    `hc dns record list ${ZONE}`,
    `hc dns record list ${ZONE} --type TXT --name _dmarc -o json`,
  ])
    .addOption(new Option('--type <type>', 'only records of this type').choices(['SOA', ...RECORD_TYPES]))
    .option('--name <name>', 'only records at this name (@, www or the full name)')
    .action(async (zoneId: string, opts: { type?: RecordType | 'SOA'; name?: string }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.printAll(cmd, hc.dns.records.list(zoneId, { per_page: 100, ...(opts.type ? { type: opts.type } : {}), ...(opts.name !== undefined ? { name: opts.name } : {}) }), RECORD_COLUMNS);
    });

  command(record, 'add <zone-id>', 'Add a record; the nameservers answer it within seconds', [
    `hc dns record add ${ZONE} --name www --type A --content 192.0.2.10 --ttl 300`,
    `hc dns record add ${ZONE} --name @ --type MX --content mail.example.com --priority 10`,
    `hc dns record add ${ZONE} --name @ --type TXT --content "v=spf1 mx -all"`,
  ])
    .requiredOption('--name <name>', '@ for the apex, or a name relative to the zone (www, _dmarc, *.dev)')
    .addOption(new Option('--type <type>', 'the record type').choices(RECORD_TYPES).makeOptionMandatory())
    .requiredOption('--content <content>', 'A/AAAA an address; CNAME, NS, MX a host name; SRV "weight port target"; TXT the text; CAA flags tag "value"')
    .addOption(new Option('--ttl <seconds>', 'how long resolvers may cache it (60–86400; default 3600)').argParser(int))
    .addOption(new Option('--priority <n>', 'MX and SRV (required for them)').argParser(uint16))
    .action(async (zoneId: string, opts: { name: string; type: RecordType; content: string; ttl?: number; priority?: number }, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.dns.records.create(zoneId, {
        name: opts.name, type: opts.type, content: opts.content,
        ...(opts.ttl !== undefined ? { ttl: opts.ttl } : {}),
        ...(opts.priority !== undefined ? { priority: opts.priority } : {}),
      }));
    });

  command(record, 'update <zone-id> <record-id>', 'Change a record\'s name, content, TTL or priority (its type stays)', [
    `hc dns record update ${ZONE} ${RECORD} --content 192.0.2.11`,
    `hc dns record update ${ZONE} ${RECORD} --ttl 300 -o json`,
  ])
    .option('--name <name>', 'a new name')
    .option('--content <content>', 'new content')
    .addOption(new Option('--ttl <seconds>', 'a new TTL (60–86400)').argParser(int))
    .addOption(new Option('--priority <n>', 'a new priority (MX and SRV)').argParser(uint16))
    .action(async (zoneId: string, recordId: string, opts: DnsRecordUpdate, cmd: Command) => {
      if (Object.keys(opts).length === 0) throw new UsageError('give at least one of --name, --content, --ttl, --priority');
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.dns.records.update(zoneId, recordId, opts));
    });

  command(record, 'delete <zone-id> <record-id>', 'Delete a record', [`hc dns record delete ${ZONE} ${RECORD}`])
    .action(async (zoneId: string, recordId: string, _opts: unknown, cmd: Command) => {
      const hc = await rt.client(cmd);
      await rt.print(cmd, await hc.dns.records.delete(zoneId, recordId));
    });
}
