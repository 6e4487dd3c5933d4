// Operations across accounts (GET /admin/v1/operations): failed, stuck, running… filtered in the
// address (status, type, account, node, since, and a search by id), one operation's detail, and
// cancel (a queued or stuck one fails at once with its refund) and retry — one at a time or in
// bulk, each behind a confirmation, shown to roles holding operations:write.
import { useState } from 'preact/hooks';
import { admin, qs, when } from '../api.ts';
import { Badge, eachRow, since, useConfirm } from '../components/actions.tsx';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { Button } from '../../../ui/form.tsx';
import { type BulkAction, type Column, ListView } from '../components/list.tsx';
import { useCan } from '../session.tsx';

export interface StaffOperation {
  id: string;
  type: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  detail: string | null;
  resource: { type: string; id: string } | null;
  account_id: string;
  attempts: number;
  last_error: string | null;
  lease_until: string | null;
  stuck: boolean;
  cancel_requested_at: string | null;
  finished_at: string | null;
  retryable: boolean;
  created_at: string;
  updated_at: string;
}

const STATUSES = ['queued', 'running', 'stuck', 'failed', 'completed'];
const cancellable = (o: StaffOperation) => o.status === 'queued' || o.status === 'running';
const retryableNow = (o: StaffOperation) => o.status === 'failed' && o.retryable;

export function cancelOne(o: Pick<StaffOperation, 'id'>) {
  return admin.post<StaffOperation>(`/operations/${o.id}/cancel`);
}

export function retryOne(o: Pick<StaffOperation, 'id'>) {
  return admin.post<StaffOperation>(`/operations/${o.id}/retry`);
}

function State({ o }: { o: StaffOperation }) {
  return (
    <>
      <Badge value={o.status} />
      {o.stuck && <> <Badge value="stuck" /></>}
      {o.cancel_requested_at && o.status === 'running' && <span class="small muted"> stop asked</span>}
    </>
  );
}

const CANCEL_NOTE = 'A queued or stuck operation fails at once: what it charged is refunded and what it began is cleaned up. '
  + 'One a worker runs now is asked to stop at its next step.';
const RETRY_NOTE = 'Each is queued again as a new operation of the same type on the same resource (only failed operations whose type allows it).';

function RowList({ rows }: { rows: StaffOperation[] }) {
  return <ul class="small">{rows.slice(0, 10).map((o) => <li key={o.id}><code>{o.id}</code> {o.type} ({o.stuck ? 'stuck' : o.status})</li>)}{rows.length > 10 && <li>and {rows.length - 10} more</li>}</ul>;
}

export function OperationsPage() {
  const may = useCan();
  const [version, setVersion] = useState(0);
  const confirm = useConfirm(() => setVersion((v) => v + 1));
  const write = may('operations:write');
  const columns: Column<StaffOperation>[] = [
    { label: 'Operation', cell: (o) => <a href={`/admin/operations/${o.id}`}><code>{o.id}</code></a> },
    { label: 'Type', cell: (o) => o.type },
    { label: 'Status', cell: (o) => <State o={o} /> },
    { label: 'Account', cell: (o) => <a href={`/admin/accounts/${o.account_id}`}><code>{o.account_id}</code></a> },
    { label: 'Resource', cell: (o) => (o.resource ? <code>{o.resource.id}</code> : '—') },
    { label: 'Attempts', cell: (o) => o.attempts },
    { label: 'Created', cell: (o) => when(o.created_at) },
    { label: 'Detail', cell: (o) => <span class="small">{o.last_error && o.status !== 'completed' ? o.last_error : o.detail ?? ''}</span> },
    ...(write ? [{
      label: 'Actions',
      cell: (o: StaffOperation) => (
        <div class="row-actions">
          {cancellable(o) && <Button type="button" kind="plain" label={`Cancel ${o.id}`} onClick={() => confirm.ask({
            title: `Cancel ${o.id}?`, confirm: 'Cancel operation', danger: true, body: <p>{CANCEL_NOTE}</p>,
            run: async () => { const r = (await cancelOne(o)).data; return r.status === 'failed' ? `${o.id} cancelled: failed, and refunded.` : `${o.id} asked to stop.`; },
          })}>Cancel</Button>}
          {retryableNow(o) && <Button type="button" kind="plain" label={`Retry ${o.id}`} onClick={() => confirm.ask({
            title: `Retry ${o.id}?`, confirm: 'Retry operation', body: <p>{RETRY_NOTE}</p>,
            run: async () => `${o.id} queued again as ${(await retryOne(o)).data.id}.`,
          })}>Retry</Button>}
        </div>
      ),
    }] : []),
  ];
  const bulk: BulkAction<StaffOperation>[] = [
    {
      label: 'Retry', right: 'operations:write',
      describe: (rows) => <><p>{RETRY_NOTE}</p><RowList rows={rows} /></>,
      run: (rows) => eachRow(rows, (o) => o.id, 'Retried', retryOne),
    },
    {
      label: 'Cancel', right: 'operations:write', danger: true,
      describe: (rows) => <><p>{CANCEL_NOTE}</p><RowList rows={rows} /></>,
      run: (rows) => eachRow(rows, (o) => o.id, 'Cancelled', cancelOne),
    },
  ];
  return (
    <Page title="Operations">
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <ListView<StaffOperation> key={version} caption="Operations" search="Operation, resource or account id"
        filters={[
          { name: 'status', label: 'Status', options: STATUSES.map((s) => ({ value: s, label: s })) },
          { name: 'type', label: 'Type', placeholder: 'server.create' },
          { name: 'account_id', label: 'Account', placeholder: 'acc_…' },
          { name: 'node_id', label: 'Node id' },
          { name: 'since', label: 'Since', placeholder: 'YYYY-MM-DD' },
        ]}
        load={(p) => admin.get<StaffOperation[]>(`/operations${qs({ ...p, since: since(p.since), per_page: 25 })}`)}
        columns={columns} rowKey={(o) => o.id} rowLabel={(o) => `${o.id} ${o.type}`} bulk={bulk}
        empty="No operation matches." />
      {confirm.dialog}
    </Page>
  );
}

export function OperationPage({ id }: { id: string }) {
  const may = useCan();
  const state = useLoad(async () => (await admin.get<StaffOperation>(`/operations/${id}`)).data, [id]);
  const confirm = useConfirm(() => state.reload());
  return (
    <Page title={`Operation ${id}`}>
      <p><a href="/admin/operations">All operations</a></p>
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <Loading state={state}>
        {(o) => (
          <>
            <dl class="facts">
              <div><dt>Type</dt><dd>{o.type}</dd></div>
              <div><dt>Status</dt><dd><State o={o} /></dd></div>
              <div><dt>Account</dt><dd><a href={`/admin/accounts/${o.account_id}`}>{o.account_id}</a></dd></div>
              <div><dt>Resource</dt><dd>{o.resource ? `${o.resource.type} ${o.resource.id}` : '—'}</dd></div>
              <div><dt>Attempts</dt><dd>{o.attempts}</dd></div>
              <div><dt>Lease until</dt><dd>{when(o.lease_until)}</dd></div>
              <div><dt>Created</dt><dd>{when(o.created_at)}</dd></div>
              <div><dt>Finished</dt><dd>{when(o.finished_at)}</dd></div>
              <div><dt>Detail</dt><dd>{o.detail ?? '—'}</dd></div>
              <div><dt>Last error</dt><dd>{o.last_error ?? '—'}</dd></div>
              <div><dt>Retryable</dt><dd>{o.retryable ? 'yes, once failed' : 'no'}</dd></div>
            </dl>
            {may('operations:write') && (
              <div class="row-actions">
                {cancellable(o) && <Button type="button" kind="danger" onClick={() => confirm.ask({
                  title: `Cancel ${o.id}?`, confirm: 'Cancel operation', danger: true, body: <p>{CANCEL_NOTE}</p>,
                  run: async () => { const r = (await cancelOne(o)).data; return r.status === 'failed' ? 'Cancelled: the operation failed, and what it charged was refunded.' : 'Asked to stop at its next step.'; },
                })}>Cancel operation</Button>}
                {retryableNow(o) && <Button type="button" onClick={() => confirm.ask({
                  title: `Retry ${o.id}?`, confirm: 'Retry operation', body: <p>{RETRY_NOTE}</p>,
                  run: async () => { const r = (await retryOne(o)).data; return `Queued again as ${r.id}.`; },
                })}>Retry operation</Button>}
              </div>
            )}
            <p class="small"><a href={`/admin/operations${qs({ q: o.resource?.id })}`}>Operations on the same resource</a></p>
          </>
        )}
      </Loading>
      {confirm.dialog}
    </Page>
  );
}
