// Staff (owner only: staff:read/write): the members with role and status filters in the address;
// invite one (the set-password link is shown once here, and mailed); one member's page: role,
// disable/enable, two-factor reset, a new invitation link, its console sessions and API tokens.
import { useState } from 'preact/hooks';
import { admin, when } from '../api.ts';
import { Badge, useConfirm } from '../components/actions.tsx';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { type Column, ListView } from '../components/list.tsx';
import { type Member, type StaffRole, useCan, useSession } from '../session.tsx';

const ROLES: StaffRole[] = ['owner', 'admin', 'support', 'billing', 'readonly'];
const roleOptions = ROLES.map((r) => ({ value: r, label: r }));

function InviteForm({ onDone }: { onDone(): void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<StaffRole>('support');
  const [link, setLink] = useState<{ url: string; email: string; expires_at: string } | null>(null);
  const f = useForm();
  return (
    <Form label="Invite a staff member" onSubmit={() => f.submit(async () => {
      const r = await admin.post<Member & { url: string; expires_at: string }>('/staff', { email: email.trim(), name: name.trim(), role });
      setLink({ url: r.data.url, email: r.data.email, expires_at: r.data.expires_at });
      setEmail('');
      setName('');
      onDone();
    })}>
      <h2>Invite a member</h2>
      {link && (
        <Notice kind="success">
          <p>Invited {link.email}. The link was mailed too; it works once, until {when(link.expires_at)}. It is shown only now:</p>
          <Field label="Set-password link" name="link" value={link.url} onValue={() => {}} readOnly />
        </Notice>
      )}
      <div class="row">
        <Field label="Email" name="email" type="email" value={email} onValue={setEmail} error={f.field('email')} required />
        <Field label="Name" name="name" value={name} onValue={setName} error={f.field('name')} required />
        <Select label="Role" name="role" value={role} onValue={(v) => setRole(v as StaffRole)} options={roleOptions} error={f.field('role')} />
      </div>
      <FormError error={f.error} fields={['email', 'name', 'role']} />
      <Button busy={f.busy}>Invite</Button>
    </Form>
  );
}

const COLUMNS: Column<Member>[] = [
  { label: 'Member', cell: (m) => <><a href={`/admin/staff/${m.id}`}>{m.name}</a><br /><span class="muted small">{m.email}</span></> },
  { label: 'Role', cell: (m) => m.role },
  { label: 'Status', cell: (m) => <Badge value={m.status} /> },
  { label: 'Two-factor', cell: (m) => (m.two_factor_enabled ? 'on' : m.password_set ? 'not enrolled' : 'invited') },
];

export function StaffPage() {
  const may = useCan();
  const [version, setVersion] = useState(0);
  return (
    <Page title="Staff">
      <ListView<Member>
        key={version}
        caption="Staff members"
        filters={[
          { name: 'role', label: 'Role', options: roleOptions },
          { name: 'status', label: 'Status', options: [{ value: 'active', label: 'active' }, { value: 'disabled', label: 'disabled' }] },
        ]}
        load={(p) => admin.get<Member[]>(`/staff?${new URLSearchParams(p).toString()}`)}
        columns={COLUMNS} rowKey={(m) => m.id} rowLabel={(m) => m.email}
      />
      {may('staff:write') && <InviteForm onDone={() => setVersion(version + 1)} />}
    </Page>
  );
}

interface StaffSession { id: string; ip: string; user_agent: string; created_at: string; last_seen_at: string; expires_at: string }
interface StaffToken { id: string; name: string; prefix: string; ip_allowlist: string[] | null; created_at: string; last_used_at: string | null }

function TokenForm({ member, onDone }: { member: Member; onDone(): void }) {
  const [name, setName] = useState('');
  const [ips, setIps] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const f = useForm();
  return (
    <Form label="New API token" onSubmit={() => f.submit(async () => {
      const allow = ips.split(/[\s,]+/).filter(Boolean);
      const r = await admin.post<StaffToken & { token: string }>(`/staff/${member.id}/tokens`, { name: name.trim(), ...(allow.length ? { ip_allowlist: allow } : {}) });
      setSecret(r.data.token);
      setName('');
      setIps('');
      onDone();
    })}>
      {secret && <Notice kind="success"><p>Copy the token now: it is shown only once.</p><Field label="Token" name="token" value={secret} onValue={() => {}} readOnly /></Notice>}
      <div class="row">
        <Field label="Token name" name="name" value={name} onValue={setName} error={f.field('name')} required />
        <Field label="Allowed IPs" name="ip_allowlist" value={ips} onValue={setIps} error={f.field('ip_allowlist')} hint="Optional; addresses or networks, separated by spaces" />
      </div>
      <FormError error={f.error} fields={['name', 'ip_allowlist']} />
      <Button busy={f.busy}>Create token</Button>
    </Form>
  );
}

export function StaffMemberPage({ id = '' }: { id?: string }) {
  const { session } = useSession();
  const may = useCan();
  const member = useLoad(async () => (await admin.get<Member>(`/staff/${encodeURIComponent(id)}`)).data, [id]);
  const sessions = useLoad(async () => (await admin.get<StaffSession[]>(`/staff/${encodeURIComponent(id)}/sessions`)).data, [id]);
  const tokens = useLoad(async () => (await admin.get<StaffToken[]>(`/staff/${encodeURIComponent(id)}/tokens`)).data, [id]);
  const confirm = useConfirm(async () => { await Promise.all([member.reload(), sessions.reload(), tokens.reload()]); });
  const [role, setRole] = useState<string>('');
  const [link, setLink] = useState<string | null>(null);
  const f = useForm();
  const self = session.member?.id === id;
  return (
    <Page title={member.data?.name ?? 'Staff member'}>
      <p><a href="/admin/staff">← Staff</a></p>
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      {link && <Notice kind="success"><p>A new set-password link (shown once, also mailed):</p><Field label="Set-password link" name="link" value={link} onValue={() => {}} readOnly /></Notice>}
      <Loading state={member}>
        {(m) => (
          <>
            <dl class="facts">
              <div><dt>Email</dt><dd>{m.email}</dd></div>
              <div><dt>Role</dt><dd>{m.role}</dd></div>
              <div><dt>Status</dt><dd><Badge value={m.status} /></dd></div>
              <div><dt>Two-factor</dt><dd>{m.two_factor_enabled ? 'on' : 'not enrolled'}</dd></div>
            </dl>
            {may('staff:write') && !self && (
              <>
                <Form label="Change role" class="form inline-form" onSubmit={() => f.submit(async () => {
                  await admin.patch(`/staff/${m.id}`, { role: role || m.role });
                  await member.reload();
                })}>
                  <div class="row inline">
                    <Select label="Role" name="role" value={role || m.role} onValue={setRole} options={roleOptions} error={f.field('role')} />
                    <Button busy={f.busy}>Save role</Button>
                  </div>
                  <FormError error={f.error} fields={['role']} />
                </Form>
                <div class="buttons">
                  {m.status === 'active'
                    ? <Button type="button" kind="danger" onClick={() => confirm.ask({ title: `Disable ${m.email}`, confirm: 'Disable', danger: true, body: <p>Its sessions end and its tokens are revoked.</p>, run: async () => { await admin.patch(`/staff/${m.id}`, { status: 'disabled' }); } })}>Disable</Button>
                    : <Button type="button" kind="plain" onClick={() => confirm.ask({ title: `Enable ${m.email}`, confirm: 'Enable', run: async () => { await admin.patch(`/staff/${m.id}`, { status: 'active' }); } })}>Enable</Button>}
                  {m.two_factor_enabled && <Button type="button" kind="plain" onClick={() => confirm.ask({ title: `Reset two-factor of ${m.email}`, confirm: 'Reset two-factor', danger: true, body: <p>Its authenticator and recovery codes stop working and its sessions end; it enrols again at its next sign-in.</p>, run: async () => { await admin.post(`/staff/${m.id}/two-factor/reset`); } })}>Reset two-factor</Button>}
                  {!m.password_set && <Button type="button" kind="plain" onClick={() => confirm.ask({ title: `New invitation for ${m.email}`, confirm: 'Send a new link', run: async () => { setLink((await admin.post<{ url: string }>(`/staff/${m.id}/invitation`)).data.url); } })}>New invitation link</Button>}
                </div>
              </>
            )}
            <h2>Console sessions</h2>
            <Loading state={sessions}>
              {(rows) => (rows.length === 0 ? <Empty>No live session.</Empty> : (
                <Table caption="Console sessions" head={['Address', 'Browser', 'Since', 'Last seen', '']}>
                  {rows.map((s) => (
                    <tr key={s.id}>
                      <td>{s.ip}</td><td class="ua">{s.user_agent}</td><td>{when(s.created_at)}</td><td>{when(s.last_seen_at)}</td>
                      <td><Button type="button" kind="plain" label={`Revoke session from ${s.ip}`} onClick={() => confirm.ask({ title: 'Revoke this session', confirm: 'Revoke', danger: true, run: async () => { await admin.del(`/staff/${m.id}/sessions/${s.id}`); } })}>Revoke</Button></td>
                    </tr>
                  ))}
                </Table>
              ))}
            </Loading>
            <h2>API tokens</h2>
            <Loading state={tokens}>
              {(rows) => (rows.length === 0 ? <Empty>No token.</Empty> : (
                <Table caption="API tokens" head={['Name', 'Prefix', 'Allowed IPs', 'Last used', '']}>
                  {rows.map((tk) => (
                    <tr key={tk.id}>
                      <td>{tk.name}</td><td><code>{tk.prefix}</code></td><td>{tk.ip_allowlist?.join(', ') ?? 'anywhere'}</td><td>{when(tk.last_used_at)}</td>
                      <td><Button type="button" kind="plain" label={`Revoke token ${tk.name}`} onClick={() => confirm.ask({ title: `Revoke token ${tk.name}`, confirm: 'Revoke', danger: true, body: <p>Scripts using it get 401 from now on.</p>, run: async () => { await admin.del(`/staff-tokens/${tk.id}`); } })}>Revoke</Button></td>
                    </tr>
                  ))}
                </Table>
              ))}
            </Loading>
            <TokenForm member={m} onDone={() => void tokens.reload()} />
          </>
        )}
      </Loading>
      {confirm.dialog}
    </Page>
  );
}
