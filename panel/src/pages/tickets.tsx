// Support tickets: the list, and opening a new one (subject, department, priority, message).
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { type Envelope, v2, when } from '../api.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { Pager } from '../components/pager.tsx';
import { can, useSession } from '../session.tsx';
import type { Data, Item } from '../api-types.ts';

export type Ticket = Item<'listTickets'>;

function OpenTicket() {
  const { route } = useLocation();
  const departments = useLoad(async () => (await v2.get<Data<'listDepartments'>>('/departments')).data);
  const [subject, setSubject] = useState('');
  const [department, setDepartment] = useState('');
  const [priority, setPriority] = useState('medium');
  const [message, setMessage] = useState('');
  const f = useForm();
  return (
    <Form label="Open a ticket" onSubmit={() => f.submit(async () => {
      const r = await v2.post<Ticket>('/tickets', {
        subject: subject.trim(), message, priority, ...(department ? { department_id: Number(department) } : {}),
      });
      route(`/panel/tickets/${r.data.id}`);
    })}>
      <Field label="Subject" name="subject" value={subject} onValue={setSubject} error={f.field('subject')} required />
      <div class="row">
        <Select label="Department" name="department_id" value={department} onValue={setDepartment} error={f.field('department_id')}
          options={[{ value: '', label: 'Any' }, ...(departments.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))]} />
        <Select label="Priority" name="priority" value={priority} onValue={setPriority} error={f.field('priority')}
          options={['low', 'medium', 'high', 'urgent'].map((p) => ({ value: p, label: p }))} />
      </div>
      <Field label="Message" name="message" multiline rows={6} value={message} onValue={setMessage} error={f.field('message')} hint="What happened, on which service; at least 25 characters" required />
      <FormError error={f.error} fields={['subject', 'department_id', 'priority', 'message']} />
      <Button busy={f.busy}>Open ticket</Button>
    </Form>
  );
}

export function TicketsPage() {
  const { me } = useSession();
  const [page, setPage] = useState(1);
  const [opening, setOpening] = useState(false);
  const list = useLoad<Envelope<Ticket[]>>(async () => v2.get<Ticket[]>(`/tickets?page=${page}&per_page=25`), [page]);
  return (
    <Page title="Tickets" actions={can(me, 'tickets:write') && <Button type="button" kind="plain" onClick={() => setOpening(!opening)}>{opening ? 'Cancel' : 'Open a ticket'}</Button>}>
      {opening && <><h2>Open a ticket</h2><OpenTicket /></>}
      <Loading state={list}>
        {(e) => e.data.length === 0 ? <Empty>No tickets. Need help? Open one.</Empty> : (
          <>
            <Table caption="Tickets" head={['Ticket', 'Subject', 'Status', 'Priority', 'Updated']}>
              {e.data.map((t) => (
                <tr key={t.id}>
                  <td><a href={`/panel/tickets/${t.id}`}>#{t.id}</a></td>
                  <td>{t.subject}</td>
                  <td><span class={`badge ${t.status}`}>{t.status.replace('_', ' ')}</span></td>
                  <td>{t.priority}</td>
                  <td>{when(t.updated_at)}</td>
                </tr>
              ))}
            </Table>
            <Pager meta={e.meta} page={page} onPage={setPage} />
          </>
        )}
      </Loading>
    </Page>
  );
}
