// The monthly statement: one calendar month (UTC) of the account's ledger — deposits, charges and
// refunds, each with the balance after it — between the month's opening and closing balance, and
// the same statement as a PDF. The month comes from a picker (the account's months, the current one
// first) or from ?month=2026-03 when the page is opened.
import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { PanelData } from '../api-types.ts';
import { type Money, money, panel } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Select } from '../../../ui/form.tsx';
import { SubNav } from '../components/sub-nav.tsx';

type Line = Statement['transactions'][number];

type Statement = PanelData<'GET /billing/statements/{month}'>;

const KIND: Record<Line['type'], string> = { deposit: 'Deposit', withdraw: 'Charge', refund: 'Refund' };

/** "2026-03" → "March 2026"; the statement's months are UTC's, so the name is too. */
function monthName(month: string): string {
  const [y = 0, m = 1] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** A line's time in UTC, the zone the month's bounds are drawn in (a local time could show another day). */
function utc(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toLocaleString(undefined, { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`;
}

/** "+50.00 USD", "−12.00 USD" (a real minus sign, as the transactions page shows a charge). */
function signed(m: Money): string {
  return m.amount.startsWith('-') ? `−${m.amount.slice(1)} ${m.currency}` : `+${m.amount} ${m.currency}`;
}

function MonthStatement({ month }: { month: string }) {
  const statement = useLoad(async () => (await panel.get<Statement>(`/billing/statements/${encodeURIComponent(month)}`)).data, [month]);
  const name = monthName(month);
  return (
    <section aria-labelledby="statement-title" aria-busy={statement.loading ? true : undefined}>
      <h2 id="statement-title">{name}</h2>
      <Loading state={statement}>
        {(s) => (
          <>
            <dl class="facts" aria-label={`Summary of ${name}`}>
              <div><dt>Opening balance</dt><dd>{money(s.opening_balance)}</dd></div>
              <div><dt>Deposits</dt><dd>{money(s.deposits)}</dd></div>
              <div><dt>Refunds</dt><dd>{money(s.refunds)}</dd></div>
              <div><dt>Charges</dt><dd>{money(s.charges)}</dd></div>
              <div><dt>Closing balance</dt><dd>{money(s.closing_balance)}</dd></div>
            </dl>
            {s.transactions.length === 0 ? <Empty>No deposits, charges or refunds in {name}.</Empty> : (
              <Table caption={`Lines of ${name}`} head={['Date', 'Kind', 'Description', 'Amount', 'Balance']}>
                {s.transactions.map((l) => (
                  <tr key={l.id}>
                    <td class="nowrap">{utc(l.created_at)}</td>
                    <td>{KIND[l.type]}</td>
                    <td>{l.description}</td>
                    <td class={`num ${l.type === 'withdraw' ? 'minus' : 'plus'}`}>{signed(l.amount)}</td>
                    <td class="num">{money(l.balance)}</td>
                  </tr>
                ))}
              </Table>
            )}
          </>
        )}
      </Loading>
    </section>
  );
}

export function StatementPage() {
  const { query } = useRoute();
  const months = useLoad(async () => (await panel.get<{ months: string[] }>('/billing/statements')).data.months);
  // The picked month is the page's own state, not the address: changing the address would draw
  // the page anew and take the focus away from the picker.
  const [picked, setPicked] = useState<string | undefined>(query.month);
  return (
    <Page title="Monthly statement">
      <SubNav section="/panel/billing" />
      <Loading state={months}>
        {(list) => {
          const month = picked !== undefined && list.includes(picked) ? picked : list[0]!;
          const name = monthName(month);
          return (
            <>
              {picked !== undefined && picked !== month && <Notice kind="warning">There is no statement for “{picked}”; this is {name}'s.</Notice>}
              <div class="row inline statement-pick">
                <Select label="Month" name="month" value={month} onValue={setPicked}
                  options={list.map((m) => ({ value: m, label: monthName(m) }))} />
                <a class="btn plain" href={`/panel/api/billing/statements/${month}/pdf`} download aria-label={`Download PDF of ${name}`}>Download PDF</a>
              </div>
              <MonthStatement key={month} month={month} />
            </>
          );
        }}
      </Loading>
    </Page>
  );
}
