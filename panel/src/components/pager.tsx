// Previous / next over a paged list (the API's meta.pagination).
import type { Envelope } from '../api.ts';

export function Pager({ meta, page, onPage }: { meta: Envelope<unknown>['meta'] | undefined; page: number; onPage(p: number): void }) {
  const total = meta?.pagination?.total_pages ?? 1;
  if (total <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="btn plain" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
      <span>Page {page} of {total}</span>
      <button type="button" class="btn plain" disabled={page >= total} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  );
}
