// Sub-users: invite (email, name, permissions → a single-use link, also mailed), list with
// whether each can sign in, edit permissions, deactivate or activate, invite again, delete (its
// keys and sessions go with it). Reading needs sub_users:read; changing sub_users:write.
import { useState } from 'preact/hooks';
import type { PanelItem } from '../api-types.ts';
import { panel, v2, when } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { ScopePicker } from '../components/scope-picker.tsx';
import { can, useSession } from '../session.tsx';

type SubUser = PanelItem<'GET /sub-users'>;

function Invite({ onDone, within }: { onDone(): void; within: string[] | undefined }) {
  const [email, setEmail] = useState('');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [perms, setPerms] = useState<string[]>([]);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const f = useForm();
  return (
    <>
      {link && (
        <Notice kind="success">
          <p>{link.email} is invited; the link below was also emailed. It works once, for 72 hours.</p>
          <div class="field"><label for="invite-link">Invitation link</label><input id="invite-link" readOnly value={link.url} /></div>
        </Notice>
      )}
      <Form label="Invite a sub-user" onSubmit={() => f.submit(async () => {
        const r = await panel.post<{ sub_user: SubUser; url: string }>('/sub-users', { email: email.trim(), first_name: first, last_name: last, permissions: perms });
        setLink({ email: r.data.sub_user.email, url: r.data.url });
        setEmail(''); setFirst(''); setLast(''); setPerms([]);
        onDone();
      })}>
        <Field label="Email" name="email" type="email" value={email} onValue={setEmail} error={f.field('email')} required />
        <div class="row">
          <Field label="First name" name="first_name" value={first} onValue={setFirst} error={f.field('first_name')} required />
          <Field label="Last name" name="last_name" value={last} onValue={setLast} error={f.field('last_name')} required />
        </div>
        <ScopePicker legend="Permissions" value={perms} onChange={setPerms} error={f.field('permissions')} within={within} />
        <FormError error={f.error} fields={['email', 'first_name', 'last_name', 'permissions']} />
        <Button busy={f.busy}>Invite sub-user</Button>
      </Form>
    </>
  );
}

function Row({ s, writable, within, onChange }: { s: SubUser; writable: boolean; within: string[] | undefined; onChange(): void }) {
  const [editing, setEditing] = useState(false);
  const [perms, setPerms] = useState<string[]>(s.permissions);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const f = useForm();
  const name = `${s.first_name} ${s.last_name}`;
  return (
    <>
      <tr>
        <td>{name}<br /><span class="muted">{s.email}</span></td>
        <td><span class={`badge ${s.status}`}>{s.status}</span></td>
        <td>{s.panel.signed_up ? `signs in${s.panel.two_factor ? ' (two-factor)' : ''}` : s.panel.invited ? 'invited' : 'not invited'}</td>
        <td>{s.permissions.length ? s.permissions.join(', ') : 'none'}</td>
        <td>{when(s.created_at)}</td>
        <td class="actions">{writable && (
          <>
            <Button type="button" kind="plain" label={`Edit permissions of ${name}`} onClick={() => setEditing(!editing)}>Permissions</Button>
            {s.status === 'inactive'
              ? <Button type="button" kind="plain" busy={f.busy} label={`Activate ${name}`} onClick={() => f.submit(async () => { await v2.patch(`/sub-users/${s.id}`, { status: 'active' }); onChange(); })}>Activate</Button>
              : <Button type="button" kind="plain" busy={f.busy} label={`Deactivate ${name}`} onClick={() => f.submit(async () => { await v2.patch(`/sub-users/${s.id}`, { status: 'inactive' }); onChange(); })}>Deactivate</Button>}
            {!s.panel.signed_up && s.status === 'pending' && (
              <Button type="button" kind="plain" busy={f.busy} label={`Invite ${name} again`} onClick={() => f.submit(async () => {
                setLink((await panel.post<{ url: string }>(`/sub-users/${s.id}/invitation`)).data.url);
              })}>Invite again</Button>
            )}
            {confirmDelete
              ? <span class="confirm">Delete {name}, their keys and sessions? <Button type="button" kind="danger" busy={f.busy} onClick={() => f.submit(async () => { await v2.del(`/sub-users/${s.id}`); onChange(); })}>Confirm delete</Button>
                <Button type="button" kind="plain" onClick={() => setConfirmDelete(false)}>Cancel</Button></span>
              : <Button type="button" kind="plain" label={`Delete ${name}`} onClick={() => setConfirmDelete(true)}>Delete</Button>}
          </>
        )}</td>
      </tr>
      {(editing || f.error || link) && (
        <tr class="detail-row"><td colSpan={6}>
          {link && <div class="field"><label for={`link-${s.id}`}>Invitation link</label><input id={`link-${s.id}`} readOnly value={link} /></div>}
          {editing && (
            <Form label={`Permissions of ${name}`} onSubmit={() => f.submit(async () => {
              await v2.put(`/sub-users/${s.id}/permissions`, { permissions: perms });
              setEditing(false);
              onChange();
            })}>
              <ScopePicker legend={`Permissions of ${name}`} value={perms} onChange={setPerms} error={f.field('permissions')} within={within} />
              <Button busy={f.busy}>Save permissions</Button>
            </Form>
          )}
          <FormError error={f.error} fields={['permissions']} />
        </td></tr>
      )}
    </>
  );
}

export function SubUsersPage() {
  const { me } = useSession();
  const list = useLoad(async () => (await panel.get<SubUser[]>('/sub-users')).data);
  const writable = can(me, 'sub_users:write');
  const within = me.user?.role === 'sub_user' ? me.user.permissions : undefined;
  return (
    <Page title="Sub-users">
      <p>Sub-users sign in to this panel and use the API with their own keys, doing only what their permissions allow.</p>
      {writable && <><h2>Invite a sub-user</h2><Invite onDone={() => void list.reload()} within={within} /></>}
      <h2>Sub-users</h2>
      <Loading state={list}>
        {(rows) => rows.length === 0 ? <Empty>No sub-users yet.</Empty> : (
          <Table caption="Sub-users" head={['Name', 'Status', 'Panel', 'Permissions', 'Invited', '']}>
            {rows.map((s) => <Row key={`${s.id}-${s.status}-${s.permissions.join()}`} s={s} writable={writable} within={within} onChange={() => void list.reload()} />)}
          </Table>
        )}
      </Loading>
    </Page>
  );
}
