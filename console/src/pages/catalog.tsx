// The catalog (right catalog): plans, locations, OS images, TLD prices, hosting packages and
// departments, each a tab (/admin/catalog/<family>) over GET /admin/v1/<family>: searched in the
// address, edited, offered or withdrawn (PATCH available/active, in bulk too), and a row added.
import { useState } from 'preact/hooks';
import { type Envelope, admin, qs } from '../api.ts';
import { SubNav, eachRow } from '../components/actions.tsx';
import { Notice, Page } from '../components/data.tsx';
import { ConfirmDialog } from '../components/dialog.tsx';
import { Button, Checkbox, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { type Column, ListView } from '../components/list.tsx';
import { useCan } from '../session.tsx';

type Row = Record<string, unknown>;
interface Input { name: string; label: string; kind?: 'number' | 'flag'; optional?: boolean; hint?: string }
interface Family {
  label: string;
  columns: string[];
  inputs: Input[];
  /** The column that offers it to customers. */
  flag?: 'available' | 'active';
  /** The row's address in the API (a TLD price's is its TLD). */
  key(r: Row): string;
  name(r: Row): string;
}

const id = (r: Row) => String(r.id);
const FAMILIES: Record<string, Family> = {
  plans: {
    label: 'Plans', columns: ['name', 'cpu_cores', 'ram_mb', 'storage_gb', 'bandwidth_gb', 'price'], flag: 'available', key: id, name: (r) => String(r.name),
    inputs: [{ name: 'name', label: 'Name' }, { name: 'cpu_cores', label: 'vCPU', kind: 'number' }, { name: 'ram_mb', label: 'RAM (MB)', kind: 'number' },
      { name: 'storage_gb', label: 'Disk (GB)', kind: 'number' }, { name: 'bandwidth_gb', label: 'Traffic (GB)', kind: 'number' }, { name: 'price', label: 'Price a month', hint: 'e.g. 5.00' }],
  },
  locations: {
    label: 'Locations', columns: ['name', 'code', 'country', 'provider'], flag: 'available', key: id, name: (r) => String(r.name),
    inputs: [{ name: 'name', label: 'Name' }, { name: 'code', label: 'Code', hint: 'e.g. fra1' }, { name: 'country', label: 'Country', hint: 'Two capital letters' },
      { name: 'provider', label: 'Provider', hint: '"primary": the main virtualization platform' }],
  },
  'operating-systems': {
    label: 'OS images', columns: ['family', 'version', 'slug', 'image'], flag: 'available', key: id, name: (r) => `${String(r.family)} ${String(r.version)}`,
    inputs: [{ name: 'family', label: 'Family' }, { name: 'version', label: 'Version' }, { name: 'slug', label: 'Slug', hint: 'e.g. debian-12' },
      { name: 'image', label: 'Image', optional: true, hint: 'LXD: the image alias or fingerprint on every node' }],
  },
  'tld-prices': {
    label: 'TLD prices', columns: ['tld', 'register', 'renewal', 'transfer', 'years_min', 'years_max', 'supports_whois_privacy', 'requires_contact'],
    key: (r) => String(r.tld).replace(/^\./, ''), name: (r) => String(r.tld),
    inputs: [{ name: 'tld', label: 'TLD', hint: 'e.g. com' }, { name: 'register', label: 'Register' }, { name: 'renewal', label: 'Renewal' }, { name: 'transfer', label: 'Transfer' }],
  },
  'hosting-packages': {
    label: 'Hosting packages', columns: ['name', 'disk_quota_mb', 'max_domains', 'monthly_price', 'yearly_price'], flag: 'active', key: id, name: (r) => String(r.name),
    inputs: [{ name: 'name', label: 'Name' }, { name: 'disk_quota_mb', label: 'Disk quota (MB)', kind: 'number' }, { name: 'max_domains', label: 'Domains', kind: 'number' },
      { name: 'monthly_price', label: 'Monthly price' }, { name: 'yearly_price', label: 'Yearly price' }],
  },
  departments: {
    label: 'Departments', columns: ['name', 'email'], flag: 'active', key: id, name: (r) => String(r.name),
    inputs: [{ name: 'name', label: 'Name' }, { name: 'email', label: 'Email' }],
  },
};

const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));

/** One catalog table, searched here: catalogs are small, so the page reads up to 100 rows and filters them. */
async function load(path: string, p: Record<string, string>): Promise<Envelope<Row[]>> {
  if (!p.q) return admin.get<Row[]>(`/${path}${qs({ page: p.page, per_page: 50 })}`);
  const all = await admin.get<Row[]>(`/${path}?per_page=100`);
  const q = p.q.toLowerCase();
  const rows = all.data.filter((r) => Object.values(r).some((v) => String(v).toLowerCase().includes(q)));
  return { data: rows, meta: { request_id: all.meta.request_id, pagination: { page: 1, per_page: 100, total: rows.length, total_pages: 1 } } };
}

function AddRow({ path, family, onAdded }: { path: string; family: Family; onAdded(r: Row): void }) {
  const f = useForm();
  const [v, setV] = useState<Record<string, string>>({});
  const [offer, setOffer] = useState(true);
  return (
    <details class="card">
      <summary>Add to {family.label.toLowerCase()}</summary>
      <Form label={`Add to ${family.label.toLowerCase()}`} onSubmit={() => f.submit(async () => {
        const body: Row = {};
        for (const i of family.inputs) {
          const x = v[i.name] ?? '';
          if (x === '' && i.optional) continue;
          body[i.name] = valueOf(i, x);
        }
        if (family.flag) body[family.flag] = offer;
        onAdded((await admin.post<Row>(`/${path}`, body)).data);
        setV({});
      })}>
        {family.inputs.map((i) => (
          <Field key={i.name} label={i.label} name={i.name} value={v[i.name] ?? ''} hint={i.hint} inputMode={i.kind === 'number' ? 'numeric' : undefined}
            onValue={(x) => setV({ ...v, [i.name]: x })} error={f.field(i.name)} />
        ))}
        {family.flag && <Checkbox label="Offered to customers" name={family.flag} checked={offer} onChecked={setOffer} />}
        <FormError error={f.error} fields={family.inputs.map((i) => i.name)} />
        <Button busy={f.busy}>Add</Button>
      </Form>
    </details>
  );
}

/** The body of an input's text: a whole number for a number field, the text otherwise. */
const valueOf = (i: Input, x: string) => (i.kind === 'number' && /^\d+$/.test(x) ? Number(x) : x);

function EditDialog({ path, family, row, onClose, onDone }: { path: string; family: Family; row: Row; onClose(): void; onDone(msg: string): void }) {
  const start = Object.fromEntries(family.inputs.map((i) => [i.name, row[i.name] === null || row[i.name] === undefined ? '' : String(row[i.name])]));
  const [v, setV] = useState<Record<string, string>>(start);
  return (
    <ConfirmDialog open title={`Edit ${family.name(row)}`} confirm="Save changes" onClose={onClose}
      onConfirm={async () => {
        const body: Row = {};
        for (const i of family.inputs) if (v[i.name] !== start[i.name]) body[i.name] = v[i.name] === '' && i.optional ? null : valueOf(i, v[i.name] ?? '');
        if (Object.keys(body).length === 0) return onDone('Nothing changed.');
        const saved = (await admin.patch<Row>(`/${path}/${encodeURIComponent(family.key(row))}`, body)).data;
        onDone(`${family.name(saved)} saved.`);
      }}>
      {family.inputs.map((i) => (
        <Field key={i.name} label={i.label} name={i.name} value={v[i.name] ?? ''} hint={i.hint} inputMode={i.kind === 'number' ? 'numeric' : undefined}
          onValue={(x) => setV({ ...v, [i.name]: x })} />
      ))}
    </ConfirmDialog>
  );
}

export function CatalogPage({ family: given }: { family?: string }) {
  const may = useCan();
  const path = given && FAMILIES[given] ? given : 'plans';
  const family = FAMILIES[path]!;
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<Row | null>(null);
  const write = may('catalog:write');
  const columns: Column<Row>[] = [
    ...family.columns.map((c) => ({ label: c.replace(/_/g, ' '), cell: (r: Row) => show(r[c]) })),
    ...(family.flag ? [{ label: 'offered', cell: (r: Row) => <span class={`badge ${r[family.flag!] ? 'available' : 'disabled'}`}>{r[family.flag!] ? 'offered' : 'withdrawn'}</span> }] : []),
    ...(write ? [{ label: 'Actions', cell: (r: Row) => <Button type="button" kind="plain" label={`Edit ${family.name(r)}`} onClick={() => setEditing(r)}>Edit</Button> }] : []),
  ];
  const setFlag = (on: boolean) => (rows: Row[]) => eachRow(rows, family.name, on ? 'Offered' : 'Withdrawn',
    (r) => admin.patch(`/${path}/${encodeURIComponent(family.key(r))}`, { [family.flag!]: on }));
  return (
    <Page title="Catalog">
      <SubNav label="Catalog" links={Object.entries(FAMILIES).map(([p, f]) => ({ href: `/admin/catalog/${p}`, label: f.label }))} />
      {notice && <Notice kind="success">{notice}</Notice>}
      <ListView<Row> key={`${path}-${version}`} caption={family.label} search="Search"
        load={(p) => load(path, p)} columns={columns} rowKey={family.key} rowLabel={family.name}
        bulk={family.flag ? [
          { label: 'Offer', right: 'catalog:write', describe: (rows) => <p>Offer {rows.map(family.name).join(', ')} to customers?</p>, run: setFlag(true) },
          { label: 'Withdraw', right: 'catalog:write', danger: true, describe: (rows) => <p>Withdraw {rows.map(family.name).join(', ')}? Customers can no longer choose them; what they hold stays.</p>, run: setFlag(false) },
        ] : []}
        empty="Nothing here yet." />
      {editing && <EditDialog key={family.key(editing)} path={path} family={family} row={editing} onClose={() => setEditing(null)}
        onDone={(msg) => { setNotice(msg); setEditing(null); setVersion((x) => x + 1); }} />}
      {write && <AddRow key={path} path={path} family={family} onAdded={(r) => { setNotice(`${family.name(r)} added.`); setVersion((x) => x + 1); }} />}
    </Page>
  );
}
