// The links inside a section (nav.ts SUB_NAV), e.g. Billing's pages.
import { useLocation } from 'preact-iso';
import { SUB_NAV } from '../nav.ts';
import { can, useSession } from '../session.tsx';

export function SubNav({ section }: { section: string }) {
  const { me } = useSession();
  const { path } = useLocation();
  const items = (SUB_NAV[section] ?? []).filter((n) => !n.scope || can(me, n.scope));
  if (items.length < 2) return null;
  return (
    <nav class="sub-nav" aria-label="Section">
      {items.map((n) => <a key={n.href} href={n.href} aria-current={path === n.href ? 'page' : undefined}>{n.label}</a>)}
    </nav>
  );
}
