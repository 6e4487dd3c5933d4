// Hypervisor nodes and address pools (right infrastructure): the nodes with their fill, added,
// drained (their servers and VMs migrate away), enabled or disabled; the pools per location with
// their use, added or deleted, and one pool's addresses.
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { admin, qs, when } from '../api.ts';
import { Badge, SubNav, eachRow, useConfirm } from '../components/actions.tsx';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { type Column, ListView } from '../components/list.tsx';
import { useCan } from '../session.tsx';

interface Bucket { total: number; used: number; available: number }
interface Node {
  id: number; location_id: number; name: string; cpu_vendor: string; status: 'active' | 'draining' | 'disabled';
  cpu: Bucket; ram_mb: Bucket; storage_gb: Bucket; servers: number; vms: number; migrating_away: number; vms_migrating_away: number;
  endpoint: string | null; connection: 'ok' | 'unreachable' | null; connection_error: string | null;
}
interface Drain { started: { type: string; id: string; operation_id: string; mode: string }[]; skipped: { type: string; id: string; reason: string }[] }
interface Named { id: number; name: string }

const TABS = [{ href: '/admin/nodes', label: 'Nodes' }, { href: '/admin/ip-pools', label: 'IP pools' }];

function Fill({ label, b, unit, scale = 1 }: { label: string; b: Bucket; unit: string; scale?: number }) {
  const used = Math.round(b.used / scale);
  const total = Math.round(b.total / scale);
  const pct = b.total > 0 ? Math.round((b.used / b.total) * 100) : 0;
  return (
    <div class="meter-cell">
      <meter min={0} max={total || 1} low={(total || 1) * 0.7} high={(total || 1) * 0.9} optimum={0} value={used} aria-label={`${label}: ${used} of ${total} ${unit}`} />
      <span class="small">{used}/{total} {unit} ({pct}%)</span>
    </div>
  );
}

function useLocations() {
  return useLoad(async () => (await admin.get<Named[]>('/locations?per_page=100')).data.map((l) => ({ id: l.id, name: l.name })), []);
}

function AddNode({ locations, onAdded }: { locations: Named[]; onAdded(n: Node): void }) {
  const f = useForm();
  const [v, setV] = useState({ location_id: String(locations[0]?.id ?? ''), name: '', cpu_vendor: 'intel', cpu_cores: '32', ram_mb: '131072', storage_gb: '2000', endpoint: '' });
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });
  return (
    <details class="card">
      <summary>Add a node</summary>
      <Form label="Add a node" onSubmit={() => f.submit(async () => {
        const body = v.endpoint
          ? { location_id: Number(v.location_id), name: v.name, endpoint: v.endpoint }
          : { location_id: Number(v.location_id), name: v.name, cpu_vendor: v.cpu_vendor, cpu_cores: Number(v.cpu_cores), ram_mb: Number(v.ram_mb), storage_gb: Number(v.storage_gb) };
        onAdded((await admin.post<Node>('/nodes', body)).data);
      })}>
        <Select label="Location" name="location_id" value={v.location_id} onValue={set('location_id')} options={locations.map((l) => ({ value: String(l.id), label: l.name }))} error={f.field('location_id')} />
        <Field label="Name" name="name" value={v.name} onValue={set('name')} error={f.field('name')} hint="The platform's host name, e.g. fra1-kvm4" />
        <Field label="Endpoint (LXD)" name="endpoint" value={v.endpoint} onValue={set('endpoint')} error={f.field('endpoint')} hint="Leave empty on the simulated platform; with it, the sizes are read from the node." />
        {!v.endpoint && (
          <>
            <Select label="CPU vendor" name="cpu_vendor" value={v.cpu_vendor} onValue={set('cpu_vendor')} options={[{ value: 'intel', label: 'intel' }, { value: 'amd', label: 'amd' }]} />
            <Field label="CPU cores" name="cpu_cores" inputMode="numeric" value={v.cpu_cores} onValue={set('cpu_cores')} error={f.field('cpu_cores')} />
            <Field label="RAM (MB)" name="ram_mb" inputMode="numeric" value={v.ram_mb} onValue={set('ram_mb')} error={f.field('ram_mb')} />
            <Field label="Storage (GB)" name="storage_gb" inputMode="numeric" value={v.storage_gb} onValue={set('storage_gb')} error={f.field('storage_gb')} />
          </>
        )}
        <FormError error={f.error} fields={['location_id', 'name', 'endpoint', 'cpu_cores', 'ram_mb', 'storage_gb']} />
        <Button busy={f.busy}>Add node</Button>
      </Form>
    </details>
  );
}

function DrainReport({ d }: { d: Drain }) {
  return (
    <div class="small">
      <p>{d.started.length} migration{d.started.length === 1 ? '' : 's'} started; {d.skipped.length} left (set draining again to retry them).</p>
      {d.skipped.length > 0 && <ul>{d.skipped.map((s) => <li key={s.id}>{s.type} {s.id}: {s.reason}</li>)}</ul>}
    </div>
  );
}

const STATUS_ACTIONS: { to: Node['status']; label: string; note: string }[] = [
  { to: 'draining', label: 'Drain', note: 'No new machine is placed on it, and every server and VDC VM on it starts migrating away (live where a node of the same vendor has room, cold otherwise).' },
  { to: 'active', label: 'Enable', note: 'Placement may use it again.' },
  { to: 'disabled', label: 'Disable', note: 'No new machine is placed on it; those on it stay.' },
];

export function NodesPage() {
  const may = useCan();
  const { query, path, route } = useLocation();
  const locations = useLocations();
  const nodes = useLoad(async () => (await admin.get<Node[]>(`/nodes${qs({ location_id: query.location_id })}`)).data, [query.location_id]);
  const [report, setReport] = useState<Drain | null>(null);
  const confirm = useConfirm(() => nodes.reload());
  const q = (query.q ?? '').toLowerCase();
  const [draft, setDraft] = useState(query.q ?? '');
  const write = may('infrastructure:write');
  const locName = (id: number) => locations.data?.find((l) => l.id === id)?.name ?? String(id);
  return (
    <Page title="Nodes">
      <SubNav label="Infrastructure" links={TABS} />
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      {report && <Notice>{<DrainReport d={report} />}</Notice>}
      <Form label="Filter nodes" class="filters" onSubmit={() => route(`${path}${qs({ q: draft, location_id: query.location_id })}`)}>
        <Field label="Name" name="q" value={draft} onValue={setDraft} />
        <Select label="Location" name="location_id" value={query.location_id ?? ''}
          options={[{ value: '', label: 'Any' }, ...(locations.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))]}
          onValue={(v) => route(`${path}${qs({ q: query.q, location_id: v })}`)} />
        <div class="filter-buttons"><Button>Apply</Button>{(query.q || query.location_id) && <a class="btn plain" href={path}>Clear</a>}</div>
      </Form>
      <Loading state={nodes}>
        {(all) => {
          const rows = all.filter((n) => !q || n.name.toLowerCase().includes(q));
          return rows.length === 0 ? <Empty>No node matches.</Empty> : (
            <Table caption="Nodes" head={['Node', 'Location', 'Status', 'CPU', 'RAM', 'Storage', 'Machines', ...(write ? ['Actions'] : [])]}>
              {rows.map((n) => (
                <tr key={n.id}>
                  <td><strong>{n.name}</strong> <span class="small muted">#{n.id} · {n.cpu_vendor}</span>
                    {n.connection === 'unreachable' && <><br /><span class="badge failed" title={n.connection_error ?? ''}>unreachable</span></>}</td>
                  <td>{locName(n.location_id)}</td>
                  <td><Badge value={n.status} /></td>
                  <td><Fill label={`${n.name} CPU`} b={n.cpu} unit="cores" /></td>
                  <td><Fill label={`${n.name} RAM`} b={n.ram_mb} unit="GB" scale={1024} /></td>
                  <td><Fill label={`${n.name} storage`} b={n.storage_gb} unit="GB" /></td>
                  <td><a href={`/admin/servers${qs({ node_id: n.id })}`}>{n.servers} servers</a>, <a href={`/admin/vdc-vms${qs({ node_id: n.id })}`}>{n.vms} VMs</a>
                    {(n.migrating_away + n.vms_migrating_away) > 0 && <><br /><span class="small">{n.migrating_away + n.vms_migrating_away} migrating away</span></>}</td>
                  {write && (
                    <td><div class="row-actions">
                      {STATUS_ACTIONS.filter((a) => a.to !== n.status || a.to === 'draining').map((a) => (
                        <Button key={a.to} type="button" kind="plain" label={`${a.label} ${n.name}`} onClick={() => confirm.ask({
                          title: `${a.label} ${n.name}?`, confirm: `${a.label} node`, danger: a.to !== 'active', body: <p>{a.note}</p>,
                          run: async () => {
                            const r = (await admin.patch<{ node: Node; drain: Drain | null }>(`/nodes/${n.id}`, { status: a.to })).data;
                            setReport(r.drain);
                            return `${n.name} is ${r.node.status}.`;
                          },
                        })}>{a.label}</Button>
                      ))}
                    </div></td>
                  )}
                </tr>
              ))}
            </Table>
          );
        }}
      </Loading>
      {write && locations.data && <AddNode locations={locations.data} onAdded={(n) => { confirm.setNotice(`Node ${n.name} added.`); void nodes.reload(); }} />}
      {confirm.dialog}
    </Page>
  );
}

interface Pool { id: number; location_id: number; version: 4 | 6; cidr: string; gateway: string; size: string; used: number; free: string; created_at: string }

function AddPool({ locations, onAdded }: { locations: Named[]; onAdded(p: Pool): void }) {
  const f = useForm();
  const [v, setV] = useState({ location_id: String(locations[0]?.id ?? ''), version: '4', cidr: '', gateway: '' });
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });
  return (
    <details class="card">
      <summary>Add an address pool</summary>
      <Form label="Add an address pool" onSubmit={() => f.submit(async () => {
        onAdded((await admin.post<Pool>(`/locations/${v.location_id}/ip-pools`, { version: Number(v.version), cidr: v.cidr, gateway: v.gateway })).data);
      })}>
        <Select label="Location" name="location_id" value={v.location_id} onValue={set('location_id')} options={locations.map((l) => ({ value: String(l.id), label: l.name }))} />
        <Select label="Version" name="version" value={v.version} onValue={set('version')} options={[{ value: '4', label: 'IPv4' }, { value: '6', label: 'IPv6' }]} />
        <Field label="CIDR" name="cidr" value={v.cidr} onValue={set('cidr')} error={f.field('cidr')} hint="IPv4 /16–/30 or IPv6 /48–/120; no overlap with another pool" />
        <Field label="Gateway" name="gateway" value={v.gateway} onValue={set('gateway')} error={f.field('gateway')} />
        <FormError error={f.error} fields={['cidr', 'gateway']} />
        <Button busy={f.busy}>Add pool</Button>
      </Form>
    </details>
  );
}

export function IpPoolsPage() {
  const may = useCan();
  const locations = useLocations();
  const [version, setVersion] = useState(0);
  const confirm = useConfirm(() => setVersion((x) => x + 1));
  const write = may('infrastructure:write');
  const locName = (id: number) => locations.data?.find((l) => l.id === id)?.name ?? String(id);
  const columns: Column<Pool>[] = [
    { label: 'Pool', cell: (p) => <a href={`/admin/ip-pools/${p.id}`}><code>{p.cidr}</code></a> },
    { label: 'Location', cell: (p) => locName(p.location_id) },
    { label: 'Version', cell: (p) => `IPv${p.version}` },
    { label: 'Gateway', cell: (p) => <code>{p.gateway}</code> },
    { label: 'Used', cell: (p) => `${p.used} of ${p.size}` },
    { label: 'Free', cell: (p) => p.free },
    { label: 'Added', cell: (p) => when(p.created_at) },
  ];
  return (
    <Page title="IP pools">
      <SubNav label="Infrastructure" links={TABS} />
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <Loading state={locations}>
        {(locs) => (
          <ListView<Pool> key={version} caption="IP pools"
            filters={[{ name: 'location_id', label: 'Location', options: locs.map((l) => ({ value: String(l.id), label: l.name })) }]}
            load={(p) => admin.get<Pool[]>(`/ip-pools${qs({ ...p, per_page: 25 })}`)}
            columns={columns} rowKey={(p) => String(p.id)} rowLabel={(p) => p.cidr}
            bulk={[{
              label: 'Delete', right: 'infrastructure:write', danger: true,
              describe: (rows) => <p>Delete {rows.map((r) => r.cidr).join(', ')}? A pool with a leased address is refused.</p>,
              run: (rows) => eachRow(rows, (r) => r.cidr, 'Deleted', (r) => admin.del(`/ip-pools/${r.id}`)),
            }]}
            empty="No address pool matches." />
        )}
      </Loading>
      {write && locations.data && <AddPool locations={locations.data} onAdded={(p) => { confirm.setNotice(`Pool ${p.cidr} added.`); setVersion((x) => x + 1); }} />}
      {confirm.dialog}
    </Page>
  );
}

interface PoolAddress { address: string; state: string; resource: { type: string; id: string } | null; allocated_at: string | null; released_at: string | null; until: string | null }

export function IpPoolPage({ id }: { id: string }) {
  return (
    <Page title={`Pool ${id}: addresses`}>
      <SubNav label="Infrastructure" links={TABS} />
      <p><a href="/admin/ip-pools">All pools</a></p>
      <ListView<PoolAddress> caption="Addresses"
        filters={[{ name: 'state', label: 'State', options: ['allocated', 'cooling', 'free'].map((s) => ({ value: s, label: s })) }]}
        load={(p) => admin.get<PoolAddress[]>(`/ip-pools/${id}/addresses${qs({ ...p, per_page: 50 })}`)}
        columns={[
          { label: 'Address', cell: (a) => <code>{a.address}</code> },
          { label: 'State', cell: (a) => <Badge value={a.state} /> },
          { label: 'Held by', cell: (a) => (a.resource ? <a href={`/admin/${a.resource.type === 'server' ? 'servers' : 'vdc-vms'}${qs({ q: a.resource.id })}`}>{a.resource.id}</a> : '—') },
          { label: 'Since', cell: (a) => when(a.allocated_at ?? a.released_at) },
          { label: 'Rests until', cell: (a) => when(a.until) },
        ]}
        rowKey={(a) => a.address} empty="No address handed out yet." />
    </Page>
  );
}
