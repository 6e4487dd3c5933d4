// DNS: the account's zones (listed, added, deleted after a confirmation) and one zone's records
// (listed; added, edited and deleted after a confirmation; the managed SOA and NS shown, not
// editable). Everything goes through /v2/dns with the session, so every rule is the API's own and
// its errors sit next to the field they name. The domain page links here (DomainDnsLink).
import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { DnsRecord, DnsZone } from '../api-types.ts';
import { v2, when } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { can, useSession } from '../session.tsx';

const TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;
type RecordType = (typeof TYPES)[number];
const WITH_PRIORITY: readonly string[] = ['MX', 'SRV'];

const CONTENT_HINT: Record<RecordType, string> = {
  A: 'An IPv4 address, e.g. 192.0.2.10',
  AAAA: 'An IPv6 address, e.g. 2001:db8::10',
  CNAME: 'The host name this name stands for, e.g. www.example.net',
  MX: 'The mail server\'s host name, e.g. mail.example.com',
  TXT: 'The text, without quotes, e.g. v=spf1 mx -all',
  NS: 'A nameserver\'s host name (delegates this subdomain)',
  SRV: 'weight port target, e.g. 5 5060 sip.example.com',
  CAA: 'flags tag "value", e.g. 0 issue "letsencrypt.org"',
};

const synced = (z: DnsZone) => (z.synced_at ? `served since ${when(z.synced_at)}` : 'changes being served');

/** The domain page's link to the domain's zone (or to the DNS page when it has none). */
export function DomainDnsLink({ domain }: { domain: string }) {
  const { me } = useSession();
  const zones = useLoad(async () => (can(me, 'dns:read') ? (await v2.get<DnsZone[]>('/dns/zones?per_page=100')).data : []), [domain]);
  if (!can(me, 'dns:read')) return null;
  const zone = zones.data?.find((z) => z.name === domain);
  return (
    <p>{zone
      ? <a href={`/panel/dns/${zone.id}`}>DNS records of {domain}</a>
      : <>No DNS zone for {domain} here. <a href="/panel/dns">DNS zones</a></>}</p>
  );
}

export function DnsZonesPage() {
  const { me } = useSession();
  const zones = useLoad(async () => (await v2.get<DnsZone[]>('/dns/zones?per_page=100')).data);
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const f = useForm();
  const d = useForm();
  const writable = can(me, 'dns:write');
  return (
    <Page title="DNS">
      <p>Zones served by our nameservers. A domain you register or transfer in gets its zone; point a domain registered elsewhere at the
        nameservers its zone shows.</p>
      {writable && (
        <Form label="Add zone" onSubmit={() => f.submit(async () => {
          const res = await v2.post<DnsZone>('/dns/zones', { name: name.trim() });
          setName('');
          setDone(`${res.data.name} was added: point it at ${res.data.nameservers.join(' and ')}.`);
          await zones.reload();
        })}>
          <div class="row inline">
            <Field label="Zone name" name="name" value={name} onValue={setName} error={f.field('name')} hint="A domain name, e.g. example.com" required />
            <Button busy={f.busy}>Add zone</Button>
          </div>
          <FormError error={f.error} fields={['name']} />
        </Form>
      )}
      <h2>Your zones</h2>
      {done && <Notice kind="success"><p>{done}</p></Notice>}
      <FormError error={d.error} />
      <Loading state={zones}>
        {(list) => list.length === 0 ? <Empty>No DNS zones yet.</Empty> : (
          <Table caption="DNS zones" head={['Zone', 'Records', 'Serial', 'State', '']}>
            {list.map((z) => (
              <tr key={z.id}>
                <td><a href={`/panel/dns/${z.id}`}>{z.name}</a></td>
                <td>{z.records_count}</td>
                <td>{z.serial}</td>
                <td>{synced(z)}</td>
                <td>
                  {writable && deleting !== z.id && <Button type="button" kind="plain" label={`Delete zone ${z.name}`} onClick={() => setDeleting(z.id)}>Delete</Button>}
                  {writable && deleting === z.id && (
                    <span class="confirm">Delete {z.name} and all its records? <Button type="button" kind="danger" busy={d.busy} onClick={() => d.submit(async () => {
                      await v2.del(`/dns/zones/${z.id}`);
                      setDeleting(null);
                      setDone(`${z.name} was deleted: our nameservers no longer answer for it.`);
                      await zones.reload();
                    })}>Confirm delete</Button> <Button type="button" kind="plain" onClick={() => setDeleting(null)}>Cancel</Button></span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </Page>
  );
}

interface Draft { name: string; type: RecordType; content: string; ttl: string; priority: string }
const EMPTY: Draft = { name: '', type: 'A', content: '', ttl: '3600', priority: '10' };

/** The fields of a record (add, or edit: the type stays), errors next to each. */
function RecordFields({ draft, set, form, editing }: { draft: Draft; set(d: Draft): void; form: ReturnType<typeof useForm>; editing?: boolean }) {
  return (
    <>
      <Field label="Name" name="name" value={draft.name} onValue={(name) => set({ ...draft, name })} error={form.field('name')}
        hint="@ for the zone itself, or a name in it such as www" required />
      {!editing && <Select label="Type" name="type" value={draft.type} onValue={(type) => set({ ...draft, type: type as RecordType })} error={form.field('type')}
        options={TYPES.map((t) => ({ value: t, label: t }))} />}
      <Field label="Content" name="content" value={draft.content} onValue={(content) => set({ ...draft, content })} error={form.field('content')} hint={CONTENT_HINT[draft.type]} required />
      <Field label="TTL" name="ttl" inputMode="numeric" value={draft.ttl} onValue={(ttl) => set({ ...draft, ttl })} error={form.field('ttl')} hint="Seconds resolvers may keep it: 60 to 86400" />
      {WITH_PRIORITY.includes(draft.type) && (
        <Field label="Priority" name="priority" inputMode="numeric" value={draft.priority} onValue={(priority) => set({ ...draft, priority })} error={form.field('priority')} hint="Lower is preferred" />
      )}
    </>
  );
}

/** What the API takes from the fields: numbers as numbers, priority only where it belongs. */
function bodyOf(d: Draft, editing: boolean): Record<string, unknown> {
  const num = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : s.trim());
  return {
    name: d.name.trim() || '@',
    ...(editing ? {} : { type: d.type }),
    content: d.content.trim(),
    ...(d.ttl.trim() ? { ttl: num(d.ttl) } : {}),
    ...(WITH_PRIORITY.includes(d.type) ? { priority: num(d.priority) } : {}),
  };
}

export function DnsZonePage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { me } = useSession();
  const zone = useLoad(async () => (await v2.get<DnsZone>(`/dns/zones/${encodeURIComponent(id)}`)).data, [id]);
  const records = useLoad(async () => (await v2.get<DnsRecord[]>(`/dns/zones/${encodeURIComponent(id)}/records?per_page=100`)).data, [id]);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [edit, setEdit] = useState<{ id: string; draft: Draft } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const add = useForm();
  const change = useForm();
  const del = useForm();
  const writable = can(me, 'dns:write');
  const reload = () => Promise.all([zone.reload(), records.reload()]);
  const label = (r: DnsRecord) => `${r.fqdn} ${r.type} ${r.content}`;
  return (
    <Page title={zone.data?.name ?? 'DNS zone'}>
      <p><a href="/panel/dns">← DNS zones</a></p>
      <Loading state={zone}>
        {(z) => (
          <dl class="facts">
            <div><dt>Nameservers</dt><dd>{z.nameservers.join(', ')}</dd></div>
            <div><dt>Serial</dt><dd>{z.serial}</dd></div>
            <div><dt>State</dt><dd>{synced(z)}</dd></div>
          </dl>
        )}
      </Loading>
      {done && <Notice kind="success"><p>{done}</p></Notice>}
      <h2>Records</h2>
      <FormError error={del.error} />
      <Loading state={records}>
        {(list) => list.length === 0 ? <Empty>No records.</Empty> : (
          <Table caption="DNS records" head={['Name', 'Type', 'Content', 'TTL', 'Priority', '']}>
            {list.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.type}</td>
                <td style={{ whiteSpace: 'normal', overflowWrap: 'anywhere', minWidth: '12rem' }}><code>{r.content}</code></td>
                <td>{r.ttl}</td>
                <td>{r.priority ?? ''}</td>
                <td>
                  {r.managed && <span class="muted">managed</span>}
                  {writable && !r.managed && deleting !== r.id && (
                    <div class="row-actions">
                      <Button type="button" kind="plain" label={`Edit ${label(r)}`} onClick={() => {
                        change.setError(null);
                        setEdit({ id: r.id, draft: { name: r.name, type: r.type as RecordType, content: r.content, ttl: String(r.ttl), priority: String(r.priority ?? 10) } });
                        setTimeout(() => document.getElementById('edit-title')?.focus(), 0);
                      }}>Edit</Button>
                      <Button type="button" kind="plain" label={`Delete ${label(r)}`} onClick={() => setDeleting(r.id)}>Delete</Button>
                    </div>
                  )}
                  {writable && deleting === r.id && (
                    <span class="confirm">Delete {r.type} {r.fqdn}? <Button type="button" kind="danger" busy={del.busy} onClick={() => del.submit(async () => {
                      await v2.del(`/dns/zones/${id}/records/${r.id}`);
                      setDeleting(null);
                      if (edit?.id === r.id) setEdit(null);
                      setDone(`The ${r.type} record of ${r.fqdn} was deleted.`);
                      await reload();
                    })}>Confirm delete</Button> <Button type="button" kind="plain" onClick={() => setDeleting(null)}>Cancel</Button></span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
      {writable && edit && (
        <section aria-labelledby="edit-title">
          <h2 id="edit-title" tabIndex={-1}>Edit the {edit.draft.type} record</h2>
          <Form label="Edit record" onSubmit={() => change.submit(async () => {
            const res = await v2.patch<DnsRecord>(`/dns/zones/${id}/records/${edit.id}`, bodyOf(edit.draft, true));
            setEdit(null);
            setDone(`The ${res.data.type} record of ${res.data.fqdn} was saved.`);
            await reload();
          })}>
            <RecordFields draft={edit.draft} set={(d) => setEdit({ ...edit, draft: d })} form={change} editing />
            <FormError error={change.error} fields={['name', 'content', 'ttl', 'priority']} />
            <div class="row-actions">
              <Button busy={change.busy}>Save record</Button>
              <Button type="button" kind="plain" onClick={() => setEdit(null)}>Cancel</Button>
            </div>
          </Form>
        </section>
      )}
      {writable && (
        <>
          <h2>Add a record</h2>
          <Form label="Add record" onSubmit={() => add.submit(async () => {
            const res = await v2.post<DnsRecord>(`/dns/zones/${id}/records`, bodyOf(draft, false));
            setDraft({ ...EMPTY, type: draft.type });
            setDone(`The ${res.data.type} record of ${res.data.fqdn} was added; our nameservers answer it within seconds.`);
            await reload();
          })}>
            <RecordFields draft={draft} set={setDraft} form={add} />
            <FormError error={add.error} fields={['name', 'type', 'content', 'ttl', 'priority']} />
            <Button busy={add.busy}>Add record</Button>
          </Form>
        </>
      )}
    </Page>
  );
}
