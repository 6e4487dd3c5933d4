// Invoices and credit notes, newest first, each with its PDF.
import type { PanelItem } from '../api-types.ts';
import { money, panel, when } from '../api.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { SubNav } from '../components/sub-nav.tsx';

type Invoice = PanelItem<'GET /billing/invoices'>;

export function InvoicesPage() {
  const list = useLoad(async () => (await panel.get<Invoice[]>('/billing/invoices?per_page=100')).data);
  return (
    <Page title="Invoices">
      <SubNav section="/panel/billing" />
      <Loading state={list}>
        {(rows) => rows.length === 0 ? <Empty>No invoices yet: each paid top-up issues one.</Empty> : (
          <Table caption="Invoices" head={['Number', 'Kind', 'Issued', 'Net', 'Tax', 'Total', '']}>
            {rows.map((i) => (
              <tr key={i.id}>
                <td>{i.number}</td>
                <td>{i.kind === 'credit_note' ? 'credit note' : 'invoice'}</td>
                <td>{when(i.issued_at)}</td>
                <td class="num">{money(i.net)}</td>
                <td class="num">{money(i.tax)}</td>
                <td class="num">{money(i.gross)}</td>
                <td><a href={`/panel/api/billing/invoices/${i.id}/pdf`} download aria-label={`PDF of ${i.number}`}>PDF</a></td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </Page>
  );
}
