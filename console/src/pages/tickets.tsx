// Support tickets: the queue (GET /admin/v1/tickets — department, status and assignee filters in
// the address, "My tickets" = assignee=me, search by number or subject, bulk close behind a
// confirmation) and one ticket (its thread with internal notes set apart, a reply box with the
// canned replies of its department, an internal note box, assignment, status, close). Writes are
// shown to roles holding tickets:write.
import { useState } from 'preact/hooks';
import { admin, qs, when } from '../api.ts';
import { useLocation } from 'preact-iso';
import { Badge, useConfirm } from '../components/actions.tsx';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { type BulkAction, type Column, ListView } from '../components/list.tsx';
import { useCan, useSession } from '../session.tsx';

interface Named { id: string; name: string }

export interface StaffTicket {
  id: string;
  subject: string;
  status: 'open' | 'answered' | 'customer_reply' | 'in_progress' | 'pending' | 'closed';
  priority: 'low' | 'medium' | 'high' | 'urgent';
  department: { id: number; name: string } | null;
  account_id: string;
  assignee: Named | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

interface StaffMessage {
  id: number;
  author: 'customer' | 'staff';
  message: string;
  internal: boolean;
  staff: Named | null;
  created_at: string;
}

type StaffTicketDetail = StaffTicket & { messages: StaffMessage[] };

interface Department { id: number; name: string; active: boolean }
interface Assignee { id: string; name: string; role: string }
interface CannedReply { id: number; title: string; body: string; department: { id: number; name: string } | null }
interface BulkClose { closed: string[]; already_closed: string[]; not_found: string[] }

const STATUSES = ['open', 'customer_reply', 'answered', 'in_progress', 'pending', 'closed'] as const;
/** The statuses set from the select (closing has its own button, behind a confirmation). */
const BY_HAND = ['open', 'in_progress', 'pending'] as const;
const label = (s: string) => s.replace(/_/g, ' ');

/** What every ticket page needs besides the ticket: the departments and who may be assigned. */
function useChoices() {
  return useLoad(async () => {
    const [departments, assignees] = await Promise.all([
      admin.get<Department[]>('/departments?per_page=100').then((r) => r.data).catch(() => [] as Department[]),
      admin.get<Assignee[]>('/ticket-assignees').then((r) => r.data),
    ]);
    return { departments, assignees };
  }, []);
}

export function closeMany(ids: string[]) {
  return admin.post<BulkClose>('/tickets/close', { ids });
}

function closeSummary(r: BulkClose): string {
  const parts = [`Closed ${r.closed.length}.`];
  if (r.already_closed.length) parts.push(`Already closed: ${r.already_closed.map((i) => `#${i}`).join(', ')}.`);
  if (r.not_found.length) parts.push(`Not found: ${r.not_found.map((i) => `#${i}`).join(', ')}.`);
  return parts.join(' ');
}

/** The queues: links to the list's own filters, the one the address is on marked current. */
function Queues() {
  const { path, query } = useLocation();
  const links = [
    { href: '/admin/tickets', label: 'All tickets', on: path === '/admin/tickets' && !query.assignee },
    { href: '/admin/tickets?assignee=me', label: 'My tickets', on: query.assignee === 'me' },
    { href: '/admin/tickets?assignee=none', label: 'Unassigned', on: query.assignee === 'none' },
    { href: '/admin/tickets/canned-replies', label: 'Canned replies', on: path === '/admin/tickets/canned-replies' },
  ];
  return (
    <nav class="sub-nav" aria-label="Queues">
      {links.map((l) => <a key={l.href} href={l.href} aria-current={l.on ? 'page' : undefined}>{l.label}</a>)}
    </nav>
  );
}

export function TicketsPage() {
  const choices = useChoices();
  const columns: Column<StaffTicket>[] = [
    { label: 'Ticket', cell: (x) => <a href={`/admin/tickets/${x.id}`}>#{x.id}</a> },
    { label: 'Subject', cell: (x) => <a href={`/admin/tickets/${x.id}`}>{x.subject}</a> },
    { label: 'Status', cell: (x) => <Badge value={x.status} /> },
    { label: 'Priority', cell: (x) => x.priority },
    { label: 'Department', cell: (x) => x.department?.name ?? '—' },
    { label: 'Assignee', cell: (x) => x.assignee?.name ?? <span class="muted">nobody</span> },
    { label: 'Account', cell: (x) => <code>{x.account_id}</code> },
    { label: 'Updated', cell: (x) => when(x.updated_at) },
  ];
  const bulk: BulkAction<StaffTicket>[] = [{
    label: 'Close', right: 'tickets:write', danger: true,
    describe: (rows) => (
      <>
        <p>The customer sees each ticket closed (and gets the <code>ticket.closed</code> event); a later reply from either side is refused until staff reopen it.</p>
        <ul class="small">{rows.slice(0, 10).map((r) => <li key={r.id}>#{r.id} {r.subject}</li>)}{rows.length > 10 && <li>and {rows.length - 10} more</li>}</ul>
      </>
    ),
    run: async (rows) => closeSummary((await closeMany(rows.map((r) => r.id))).data),
  }];
  return (
    <Page title="Tickets">
      <Queues />
      <Loading state={choices}>
        {(c) => (
          <ListView<StaffTicket> caption="Tickets" search="Ticket number or subject"
            filters={[
              { name: 'status', label: 'Status', options: STATUSES.map((s) => ({ value: s, label: label(s) })) },
              { name: 'department_id', label: 'Department', options: c.departments.map((d) => ({ value: String(d.id), label: d.name })) },
              {
                name: 'assignee', label: 'Assignee',
                options: [{ value: 'me', label: 'My tickets' }, { value: 'none', label: 'Nobody' }, ...c.assignees.map((a) => ({ value: a.id, label: a.name }))],
              },
            ]}
            load={(p) => admin.get<StaffTicket[]>(`/tickets${qs({ ...p, per_page: 25 })}`)}
            columns={columns} rowKey={(x) => x.id} rowLabel={(x) => `#${x.id} ${x.subject}`} bulk={bulk}
            empty="No ticket matches." />
        )}
      </Loading>
    </Page>
  );
}

function Thread({ messages }: { messages: StaffMessage[] }) {
  return (
    <ol class="thread" aria-label="Messages">
      {messages.map((m) => (
        <li key={m.id} class={`message ${m.author}${m.internal ? ' note' : ''}`} aria-label={m.internal ? 'Internal note' : undefined}>
          <p class="muted small">
            {m.internal && <span class="note-tag">Internal note · not shown to the customer</span>}
            {m.author === 'customer' ? 'Customer' : m.staff?.name ?? 'Staff'} · {when(m.created_at)}
          </p>
          <p class="body">{m.message}</p>
        </li>
      ))}
    </ol>
  );
}

function ReplyBox({ t, onDone }: { t: StaffTicketDetail; onDone(): Promise<void> }) {
  const canned = useLoad(async () => (await admin.get<CannedReply[]>(`/canned-replies${qs({ department_id: t.department?.id, per_page: 100 })}`)).data, [t.department?.id]);
  const [reply, setReply] = useState('');
  const [picked, setPicked] = useState('');
  const f = useForm();
  const closed = t.status === 'closed';
  return (
    <Form label="Reply to the customer" onSubmit={() => f.submit(async () => {
      await admin.post(`/tickets/${t.id}/replies`, { message: reply });
      setReply('');
      setPicked('');
      await onDone();
    })}>
      <h2>Reply to the customer</h2>
      {closed && <Notice kind="warning">The ticket is closed: set it open again to reply.</Notice>}
      {(canned.data ?? []).length > 0 && (
        <Select label="Canned reply" name="canned" value={picked}
          options={[{ value: '', label: 'Choose one to insert…' }, ...(canned.data ?? []).map((c) => ({ value: String(c.id), label: c.title }))]}
          onValue={(v) => {
            setPicked(v);
            const c = (canned.data ?? []).find((x) => String(x.id) === v);
            if (c) setReply(reply.trim() ? `${reply.trimEnd()}\n\n${c.body}` : c.body);
          }} />
      )}
      <Field label="Reply" name="message" multiline rows={6} value={reply} onValue={setReply} error={f.field('message')}
        hint="Sent to the customer by mail; the ticket becomes answered." required />
      <FormError error={f.error} fields={['message']} />
      <Button busy={f.busy} disabled={closed}>Send reply</Button>
    </Form>
  );
}

function NoteBox({ t, onDone }: { t: StaffTicketDetail; onDone(): Promise<void> }) {
  const [note, setNote] = useState('');
  const f = useForm();
  return (
    <Form label="Internal note" onSubmit={() => f.submit(async () => {
      await admin.post(`/tickets/${t.id}/notes`, { message: note });
      setNote('');
      await onDone();
    })}>
      <h2>Internal note</h2>
      <Field label="Note" name="note" multiline rows={3} value={note} onValue={setNote} error={f.field('message')}
        hint="Staff only: never shown or sent to the customer. Changes no status." required />
      <FormError error={f.error} fields={['message']} />
      <Button kind="plain" busy={f.busy}>Add internal note</Button>
    </Form>
  );
}

function Manage({ t, assignees, onDone }: { t: StaffTicketDetail; assignees: Assignee[]; onDone(): Promise<void> }) {
  const { session } = useSession();
  const me = session.member;
  const f = useForm();
  const confirm = useConfirm(onDone);
  const patch = (body: Record<string, unknown>) => f.submit(async () => { await admin.patch(`/tickets/${t.id}`, body); await onDone(); });
  const byHand = (BY_HAND as readonly string[]).includes(t.status);
  const options = [{ value: '', label: 'Nobody' }, ...assignees.map((a) => ({ value: a.id, label: a.name }))];
  if (t.assignee && !assignees.some((a) => a.id === t.assignee!.id)) options.push({ value: t.assignee.id, label: t.assignee.name });
  return (
    <section aria-label="Manage the ticket">
      <div class="row inline">
        <Select label="Assignee" name="assignee_id" value={t.assignee?.id ?? ''} options={options} error={f.field('assignee_id')}
          onValue={(v) => patch({ assignee_id: v || null })} />
        <Select label="Status" name="status" value={byHand ? t.status : ''} error={f.field('status')}
          options={[...(byHand ? [] : [{ value: '', label: label(t.status) }]), ...BY_HAND.map((s) => ({ value: s, label: label(s) }))]}
          hint={t.status === 'closed' ? 'Choose open to reopen it.' : undefined}
          onValue={(v) => { if (v) patch({ status: v }); }} />
      </div>
      <div class="buttons">
        {me && t.assignee?.id !== me.id && assignees.some((a) => a.id === me.id) && (
          <Button type="button" kind="plain" busy={f.busy} onClick={() => patch({ assignee_id: me.id })}>Assign to me</Button>
        )}
        {t.status !== 'closed' && (
          <Button type="button" kind="danger" onClick={() => confirm.ask({
            title: `Close ticket #${t.id}?`, confirm: 'Close ticket', danger: true,
            body: <p>The customer sees it closed; replies are refused until it is set open again.</p>,
            run: async () => { await admin.patch(`/tickets/${t.id}`, { status: 'closed' }); return `Ticket #${t.id} closed.`; },
          })}>Close ticket</Button>
        )}
      </div>
      <FormError error={f.error} fields={['assignee_id', 'status']} />
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      {confirm.dialog}
    </section>
  );
}

export function TicketPage({ id }: { id: string }) {
  const may = useCan();
  const state = useLoad(async () => (await admin.get<StaffTicketDetail>(`/tickets/${encodeURIComponent(id)}`)).data, [id]);
  const choices = useChoices();
  const write = may('tickets:write');
  return (
    <Page title={state.data ? `#${state.data.id} ${state.data.subject}` : `Ticket #${id}`}>
      <p><a href="/admin/tickets">All tickets</a> · <a href="/admin/tickets?assignee=me">My tickets</a></p>
      <Loading state={state}>
        {(t) => (
          <>
            <dl class="facts">
              <div><dt>Status</dt><dd><Badge value={t.status} /></dd></div>
              <div><dt>Priority</dt><dd>{t.priority}</dd></div>
              <div><dt>Department</dt><dd>{t.department?.name ?? '—'}</dd></div>
              <div><dt>Assignee</dt><dd>{t.assignee?.name ?? 'nobody'}</dd></div>
              <div><dt>Account</dt><dd><code>{t.account_id}</code></dd></div>
              <div><dt>Opened</dt><dd>{when(t.created_at)}</dd></div>
            </dl>
            {write && <Manage t={t} assignees={choices.data?.assignees ?? []} onDone={state.reload} />}
            <h2>Thread</h2>
            <Thread messages={t.messages} />
            {write && <ReplyBox t={t} onDone={state.reload} />}
            {write && <NoteBox t={t} onDone={state.reload} />}
          </>
        )}
      </Loading>
    </Page>
  );
}

export function CannedRepliesPage() {
  const may = useCan();
  const write = may('tickets:write');
  const list = useLoad(async () => (await admin.get<CannedReply[]>('/canned-replies?per_page=100')).data, []);
  const choices = useChoices();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [department, setDepartment] = useState('');
  const f = useForm();
  const confirm = useConfirm(list.reload);
  return (
    <Page title="Canned replies">
      <Queues />
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <Loading state={list}>
        {(rows) => (rows.length === 0 ? <p class="empty">No canned reply yet.</p> : (
          <ul class="thread" aria-label="Canned replies">
            {rows.map((c) => (
              <li key={c.id} class="message">
                <p><strong>{c.title}</strong> <span class="muted small">· {c.department?.name ?? 'every department'}</span></p>
                <p class="body">{c.body}</p>
                {write && <Button type="button" kind="plain" label={`Delete ${c.title}`} onClick={() => confirm.ask({
                  title: `Delete "${c.title}"?`, confirm: 'Delete', danger: true, body: <p>Replies already sent keep their text.</p>,
                  run: async () => { await admin.del(`/canned-replies/${c.id}`); return `"${c.title}" deleted.`; },
                })}>Delete</Button>}
              </li>
            ))}
          </ul>
        ))}
      </Loading>
      {write && (
        <Form label="New canned reply" onSubmit={() => f.submit(async () => {
          await admin.post('/canned-replies', { title, body, ...(department ? { department_id: Number(department) } : {}) });
          setTitle('');
          setBody('');
          await list.reload();
        })}>
          <h2>New canned reply</h2>
          <Field label="Title" name="title" value={title} onValue={setTitle} error={f.field('title')} required />
          <Field label="Text" name="body" multiline rows={5} value={body} onValue={setBody} error={f.field('body')} required />
          <Select label="Department" name="department_id" value={department} error={f.field('department_id')}
            options={[{ value: '', label: 'Every department' }, ...(choices.data?.departments ?? []).filter((d) => d.active).map((d) => ({ value: String(d.id), label: d.name }))]}
            onValue={setDepartment} />
          <FormError error={f.error} fields={['title', 'body', 'department_id']} />
          <Button busy={f.busy}>Save canned reply</Button>
        </Form>
      )}
      {confirm.dialog}
    </Page>
  );
}
