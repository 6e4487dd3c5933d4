// The shell: signed out, the sign-in pages; signed in, a header, the navigation and the page the
// address names. Links are plain <a href> (preact-iso routes them without a reload).
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { panel, whenSignedOut } from './api.ts';
import { NAV } from './nav.ts';
import { ROUTES, type PageRoute } from './routes.tsx';
import { type Me, SessionContext, can, loadMe, useSession } from './session.tsx';
import { ForgotPasswordPage } from './pages/forgot-password.tsx';
import { SetPasswordPage } from './pages/set-password.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { SignUpPage } from './pages/sign-up.tsx';
import { VerifyEmailPage } from './pages/verify-email.tsx';
import { HostingLinkPage } from './pages/hosting-site.tsx';
import { Page } from './components/data.tsx';
import { BrandLinks, BrandMark } from './components/brand.tsx';
import { ImpersonationBanner } from './components/impersonation-banner.tsx';

/** Pages anyone may open, signed in or not (mailed links). */
const LINK_PAGES = [
  { path: '/panel/invitation/:token', component: SetPasswordPage },
  { path: '/panel/reset-password/:token', component: SetPasswordPage },
  { path: '/panel/verify-email/:token', component: VerifyEmailPage },
];

function Guarded({ route, ...props }: { route: PageRoute } & Record<string, unknown>) {
  const { me } = useSession();
  if (route.scope && !can(me, route.scope)) {
    return (
      <Page title="Not available">
        <p>Your permissions on this account do not include <code>{route.scope}</code>. Ask the account's owner to grant it.</p>
      </Page>
    );
  }
  const C = route.component;
  return <C {...props} />;
}

function NotFound() {
  return <Page title="Page not found"><p>There is no page here. <a href="/panel">Back to the overview</a></p></Page>;
}

function Shell() {
  const { me, refresh } = useSession();
  const { path, query, route } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // Just signed in on a sign-in page: on to where the person was going.
  useEffect(() => {
    if (['/panel/sign-in', '/panel/sign-up', '/panel/forgot-password'].includes(path)) {
      const next = query.next && query.next.startsWith('/panel') && !query.next.startsWith('//') ? query.next : '/panel';
      route(next, true);
    }
  }, [path]);
  useEffect(() => setMenuOpen(false), [path]);
  // Focus the new page's heading after navigation, so keyboard and screen-reader users land on it.
  useEffect(() => { document.getElementById('page-title')?.focus({ preventScroll: true }); }, [path]);
  async function signOut() {
    await panel.post('/sign-out').catch(() => {});
    await refresh();
  }
  const items = NAV.filter((n) => (!n.scope || can(me, n.scope)) && (n.needs !== 'vdc_pool' || me.account?.has_vdc_pool));
  const current = (href: string) => (href === '/panel' ? path === '/panel' || path === '/panel/' : path === href || path.startsWith(`${href}/`));
  return (
    <div class="shell">
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <BrandMark href="/panel" />
        <span class="account-name">{me.account?.name}</span>
        <button type="button" class="btn plain menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>Menu</button>
        <div class="who">
          <span class="muted">{me.user?.email}{me.user?.role === 'sub_user' ? ' (sub-user)' : ''}</span>
          <button type="button" class="btn plain" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <nav id="nav" class={`side${menuOpen ? ' open' : ''}`} aria-label="Main">
        <ul>
          {items.map((n) => (
            <li key={n.href}><a href={n.href} aria-current={current(n.href) ? 'page' : undefined}>{n.label}</a></li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Router>
          {[
            ...ROUTES.map((r) => <Route key={r.path} path={r.path} component={(props: Record<string, unknown>) => <Guarded route={r} {...props} />} />),
            ...LINK_PAGES.map((r) => <Route key={r.path} path={r.path} component={r.component} />),
            <Route key="404" default component={NotFound} />,
          ]}
        </Router>
      </main>
    </div>
  );
}

function SignedOut() {
  const { path, route } = useLocation();
  const known = ['/panel/sign-in', '/panel/sign-up', '/panel/forgot-password'];
  const isLink = /^\/panel\/(invitation|reset-password|verify-email)\//.test(path);
  // A hosting account's page opens without a sign-in when a login link opened it (it says otherwise).
  const hostingLink = /^\/panel\/web-hosting\/[^/]+$/.test(path);
  // Any other page asks for a sign-in first, and comes back to it after.
  useEffect(() => {
    if (!isLink && !hostingLink && !known.includes(path)) route(`/panel/sign-in?next=${encodeURIComponent(path)}`, true);
  }, [path]);
  if (hostingLink) {
    return (
      <div class="shell link-shell">
        <header class="top"><BrandMark /></header>
        <main id="main"><Router>{[<Route key="h" path="/panel/web-hosting/:id" component={HostingLinkPage} />]}</Router></main>
      </div>
    );
  }
  return (
    <div class="auth">
      <div class="auth-card">
        <BrandMark tag="p" />
        <main id="main">
          <Router>
            {[
              <Route key="si" path="/panel/sign-in" component={SignInPage} />,
              <Route key="su" path="/panel/sign-up" component={SignUpPage} />,
              <Route key="fp" path="/panel/forgot-password" component={ForgotPasswordPage} />,
              ...LINK_PAGES.map((r) => <Route key={r.path} path={r.path} component={r.component} />),
              <Route key="d" default component={() => <p class="muted">Loading…</p>} />,
            ]}
          </Router>
        </main>
        <BrandLinks />
      </div>
    </div>
  );
}

function Root() {
  const [me, setMe] = useState<Me | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const refresh = async () => {
    const m = await loadMe();
    setMe(m);
    return m;
  };
  useEffect(() => {
    whenSignedOut(() => { void refresh(); });
    refresh().catch((e: unknown) => setFailed(e instanceof Error ? e.message : String(e)));
  }, []);
  if (failed) return <p class="notice error" role="alert">The panel could not start: {failed}</p>;
  if (!me) return <p class="muted" role="status">Loading…</p>;
  return (
    <SessionContext.Provider value={{ me, refresh }}>
      {me.signed_in ? <><ImpersonationBanner /><Shell /></> : <SignedOut />}
    </SessionContext.Provider>
  );
}

export function App() {
  return (
    <LocationProvider scope="/panel">
      <Root />
    </LocationProvider>
  );
}
