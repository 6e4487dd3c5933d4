// The shell: signed out, the sign-in pages; signed in, a header (the member, its role, Sign out),
// the navigation of the pages its role may see (nav.ts) and the page the address names.
import type { AnyComponent } from 'preact';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { admin, whenSignedOut } from './api.ts';
import { BrandingProvider, ConsoleBrand } from './branding.tsx';
import { Page } from './components/data.tsx';
import { type ConsolePage, PAGES } from './nav.ts';
import { SetPasswordPage } from './pages/set-password.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { type Session, SessionContext, can, loadSession, useSession } from './session.tsx';

const SIGN_IN = '/admin/sign-in';
const SET_PASSWORD = '/admin/set-password/:token';

function Refused({ right }: { right: string }) {
  return (
    <Page title="Not available">
      <p>Your role does not include <code>{right}</code>. Ask an owner if you need it.</p>
    </Page>
  );
}

// One component per page, made once: a route's component that changed at each render would remount.
const GUARDED = new Map<ConsolePage, AnyComponent<Record<string, unknown>>>(PAGES.map((p) => [p, function Guarded(props: Record<string, unknown>) {
  const { session } = useSession();
  if (!can(session, p.right)) return <Refused right={p.right!} />;
  const C = p.page;
  return <C {...props} />;
}]));

function NotFound() {
  return <Page title="Page not found"><p>There is no page here. <a href="/admin">Back to the dashboard</a></p></Page>;
}

function Shell() {
  const { session, refresh } = useSession();
  const { path, query, route } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const member = session.member!;
  // Just signed in on the sign-in page: on to where the member was going.
  useEffect(() => {
    if (path === SIGN_IN) {
      const next = query.next && query.next.startsWith('/admin') && !query.next.startsWith('//') ? query.next : '/admin';
      route(next, true);
    }
  }, [path]);
  useEffect(() => setMenuOpen(false), [path]);
  // Focus the new page's heading after navigation, so keyboard and screen-reader users land on it.
  useEffect(() => { document.getElementById('page-title')?.focus({ preventScroll: true }); }, [path]);
  async function signOut() {
    await admin.del('/session').catch(() => {});
    await refresh();
  }
  const items = PAGES.filter((p) => p.label && can(session, p.right));
  const current = (href: string) => (href === '/admin' ? path === '/admin' || path === '/admin/' : path === href || path.startsWith(`${href}/`));
  return (
    <div class="shell">
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <ConsoleBrand />
        <button type="button" class="btn plain menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>Menu</button>
        <div class="who">
          <span><span class="member-name">{member.name}</span> <span class="role-badge">{member.role}</span></span>
          <button type="button" class="btn plain" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <nav id="nav" class={`side${menuOpen ? ' open' : ''}`} aria-label="Main">
        <ul>
          {items.map((p) => (
            <li key={p.path}><a href={p.path} aria-current={current(p.path) ? 'page' : undefined}>{p.label}</a></li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Router>
          {[
            ...PAGES.map((p) => <Route key={p.path} path={p.path} component={GUARDED.get(p)!} />),
            <Route key="sp" path={SET_PASSWORD} component={SetPasswordPage} />,
            <Route key="si" path={SIGN_IN} component={() => <p class="muted" role="status">Loading…</p>} />,
            <Route key="404" default component={NotFound} />,
          ]}
        </Router>
      </main>
    </div>
  );
}

function SignedOut() {
  const { path, route } = useLocation();
  const isLink = path.startsWith('/admin/set-password/');
  // Any other page asks for a sign-in first, and comes back to it after.
  useEffect(() => {
    if (!isLink && path !== SIGN_IN) route(`${SIGN_IN}${path === '/admin' || path === '/admin/' ? '' : `?next=${encodeURIComponent(path)}`}`, true);
  }, [path]);
  return (
    <div class="auth">
      <div class="auth-card">
        <p class="brand">Hostcloud console</p>
        <main id="main">
          <Router>
            {[
              <Route key="si" path={SIGN_IN} component={SignInPage} />,
              <Route key="sp" path={SET_PASSWORD} component={SetPasswordPage} />,
              <Route key="d" default component={() => <p class="muted">Loading…</p>} />,
            ]}
          </Router>
        </main>
      </div>
    </div>
  );
}

function Root() {
  const [session, setSession] = useState<Session | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const refresh = async () => {
    const s = await loadSession();
    setSession(s);
    return s;
  };
  useEffect(() => {
    whenSignedOut(() => { void refresh(); });
    refresh().catch((e: unknown) => setFailed(e instanceof Error ? e.message : String(e)));
  }, []);
  if (failed) return <p class="notice error" role="alert">The console could not start: {failed}</p>;
  if (!session) return <p class="muted" role="status">Loading…</p>;
  return (
    <SessionContext.Provider value={{ session, refresh }}>
      {session.stage === 'full' ? <BrandingProvider><Shell /></BrandingProvider> : <SignedOut />}
    </SessionContext.Provider>
  );
}

export function App() {
  return (
    <LocationProvider scope={/^\/admin(?!\/v1(?:\/|$))/}>
      <Root />
    </LocationProvider>
  );
}
