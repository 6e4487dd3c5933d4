// Servers and VDC VMs across accounts (GET /admin/v1/servers, /vdc-vms): filters (status, account,
// node, location, plan) and a search in the address; power actions (POST …/{id}/actions, right
// power: the customer's own verbs, so the account sees the operation) one at a time or in bulk,
// and a server's migration (POST /servers/{id}/migrate, right services:write).
import { useState } from 'preact/hooks';
import { admin, qs, when } from '../api.ts';
import { Badge, SubNav, eachRow, useConfirm } from '../components/actions.tsx';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { ConfirmDialog } from '../components/dialog.tsx';
import { Button, Select } from '../../../ui/form.tsx';
import { type BulkAction, type Column, type Filter, ListView } from '../components/list.tsx';
import { useCan } from '../session.tsx';

export interface Machine {
  id: string;
  account_id: string;
  account_email: string;
  name: string;
  status: string;
  power_state: string;
  location_id: number;
  plan_id: number | null;
  node_id: number | null;
  node_name: string | null;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  ipv4: string | null;
  created_at: string | null;
}

interface Named { id: number; name: string }
interface Lookups { locations: Named[]; plans: Named[]; nodes: Named[] | null }

type Kind = 'servers' | 'vdc-vms';
type Power = 'start' | 'stop' | 'reboot';
const POWER: Power[] = ['start', 'stop', 'reboot'];
const STATUSES: Record<Kind, string[]> = {
  servers: ['pending', 'active', 'suspended', 'cancelled', 'deleted'],
  'vdc-vms': ['pending', 'active', 'failed', 'deleted'],
};
const label = (p: Power) => p[0]!.toUpperCase() + p.slice(1);

async function lookups(withNodes: boolean): Promise<Lookups> {
  const all = async (path: string) => ((await admin.get<Named[]>(`${path}?per_page=100`)).data);
  const [locations, plans, nodes] = await Promise.all([
    all('/locations').catch(() => []), all('/plans').catch(() => []),
    withNodes ? admin.get<Named[]>('/nodes').then((r) => r.data).catch(() => null) : Promise.resolve(null),
  ]);
  return { locations, plans, nodes };
}

const options = (rows: Named[]) => rows.map((r) => ({ value: String(r.id), label: r.name }));

function power(kind: Kind, m: Pick<Machine, 'id'>, type: Power) {
  return admin.post<{ operation: { id: string } }>(`/${kind}/${m.id}/actions`, { type });
}

function Machines({ kind }: { kind: Kind }) {
  const may = useCan();
  const [version, setVersion] = useState(0);
  const [migrating, setMigrating] = useState<Machine | null>(null);
  const confirm = useConfirm(() => setVersion((v) => v + 1));
  const looked = useLoad(() => lookups(may('infrastructure:read')), []);
  const noun = kind === 'servers' ? 'server' : 'VM';
  const mayPower = may('power:write');
  const mayMigrate = kind === 'servers' && may('services:write');

  const ask = (m: Machine, type: Power) => confirm.ask({
    title: `${label(type)} ${m.name}?`, confirm: `${label(type)} ${noun}`, danger: type !== 'start',
    body: <p>The operation runs as the customer&apos;s own would: the account <code>{m.account_email}</code> sees it and its event.</p>,
    run: async () => `${label(type)} queued for ${m.name}: operation ${(await power(kind, m, type)).data.operation.id}.`,
  });

  return (
    <Page title={kind === 'servers' ? 'Servers' : 'VDC VMs'}>
      <SubNav label="Machines" links={[{ href: '/admin/servers', label: 'Servers' }, { href: '/admin/vdc-vms', label: 'VDC VMs' }]} />
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <Loading state={looked}>
        {(l) => {
          const byId = (rows: Named[] | null, id: number | null) => (id === null ? '—' : rows?.find((r) => r.id === id)?.name ?? String(id));
          const filters: Filter[] = [
            { name: 'status', label: 'Status', options: STATUSES[kind].map((s) => ({ value: s, label: s })) },
            { name: 'account_id', label: 'Account', placeholder: 'acc_…' },
            l.nodes ? { name: 'node_id', label: 'Node', options: options(l.nodes) } : { name: 'node_id', label: 'Node id' },
            { name: 'location_id', label: 'Location', options: options(l.locations) },
            ...(kind === 'servers' ? [{ name: 'plan_id', label: 'Plan', options: options(l.plans) }] : []),
          ];
          const columns: Column<Machine>[] = [
            {
              label: 'Name',
              cell: (m) => <><strong>{m.name}</strong><br /><code class="small">{m.id}</code>
                {may('operations:read') && <> · <a class="small" href={`/admin/operations${qs({ q: m.id })}`}>operations</a></>}</>,
            },
            { label: 'Account', cell: (m) => <a href={`/admin/accounts/${m.account_id}`}>{m.account_email}</a> },
            { label: 'Status', cell: (m) => <><Badge value={m.status} /> <Badge value={m.power_state} /></> },
            { label: 'Node', cell: (m) => m.node_name ?? '—' },
            { label: 'Location', cell: (m) => byId(l.locations, m.location_id) },
            ...(kind === 'servers' ? [{ label: 'Plan', cell: (m: Machine) => (m.plan_id === null ? 'custom' : byId(l.plans, m.plan_id)) }] : []),
            { label: 'Size', cell: (m) => <span class="small">{m.cpu_cores} vCPU<br />{Math.round(m.ram_mb / 1024)} GB RAM<br />{m.storage_gb} GB disk</span> },
            { label: 'IPv4', cell: (m) => m.ipv4 ?? '—' },
            { label: 'Created', cell: (m) => when(m.created_at) },
            ...(mayPower || mayMigrate ? [{
              label: 'Actions',
              cell: (m: Machine) => (m.status !== 'active' ? null : (
                <div class="row-actions">
                  {mayPower && POWER.map((p) => (
                    <Button key={p} type="button" kind="plain" label={`${label(p)} ${m.name}`} onClick={() => ask(m, p)}>{label(p)}</Button>
                  ))}
                  {mayMigrate && <Button type="button" kind="plain" label={`Migrate ${m.name}`} onClick={() => setMigrating(m)}>Migrate</Button>}
                </div>
              )),
            }] : []),
          ];
          const bulk: BulkAction<Machine>[] = POWER.map((p) => ({
            label: label(p), right: 'power:write', danger: p !== 'start',
            describe: (rows: Machine[]) => <><p>{label(p)} {rows.length} {noun}{rows.length === 1 ? '' : 's'}; each account sees its operation.</p>
              <ul class="small">{rows.map((m) => <li key={m.id}>{m.name} ({m.account_email})</li>)}</ul></>,
            run: (rows: Machine[]) => eachRow(rows, (m) => m.name, `${label(p)} queued for`, (m) => power(kind, m, p)),
          }));
          return (
            <ListView<Machine> key={version} caption={kind === 'servers' ? 'Servers' : 'VDC VMs'} search="Id, name, email or address"
              filters={filters} load={(q) => admin.get<Machine[]>(`/${kind}${qs({ ...q, per_page: 25 })}`)}
              columns={columns} rowKey={(m) => m.id} rowLabel={(m) => m.name} bulk={bulk} empty={`No ${noun} matches.`} />
          );
        }}
      </Loading>
      {confirm.dialog}
      {migrating && <MigrateDialog server={migrating} nodes={looked.data?.nodes ?? null} onClose={() => setMigrating(null)}
        onDone={(msg) => { confirm.setNotice(msg); setMigrating(null); setVersion((v) => v + 1); }} />}
    </Page>
  );
}

function MigrateDialog({ server, nodes, onClose, onDone }: { server: Machine; nodes: Named[] | null; onClose(): void; onDone(msg: string): void }) {
  const [node, setNode] = useState('');
  const [mode, setMode] = useState('live');
  return (
    <ConfirmDialog open title={`Migrate ${server.name}`} confirm="Migrate server" onClose={onClose}
      onConfirm={async () => {
        const r = await admin.post<{ operation: { id: string } }>(`/servers/${server.id}/migrate`, { mode, ...(node ? { node_id: Number(node) } : {}) });
        onDone(`Migration of ${server.name} started: operation ${r.data.operation.id}.`);
      }}>
      <p>From {server.node_name ?? 'its node'}. <em>live</em> keeps it running (it needs a node with the same CPU vendor and room); <em>cold</em> stops, moves and starts it again.</p>
      {nodes && <Select label="To node" name="node_id" value={node} onValue={setNode}
        options={[{ value: '', label: 'Where placement chooses' }, ...nodes.filter((n) => n.id !== server.node_id).map((n) => ({ value: String(n.id), label: n.name }))]} />}
      <Select label="Mode" name="mode" value={mode} onValue={setMode} options={[{ value: 'live', label: 'live' }, { value: 'cold', label: 'cold' }]} />
    </ConfirmDialog>
  );
}

export function ServersPage() {
  return <Machines kind="servers" />;
}

export function VdcVmsPage() {
  return <Machines kind="vdc-vms" />;
}
