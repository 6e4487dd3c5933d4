// The console's page registry: one line per page — its path, its label in the navigation (none: a
// page reached by links, e.g. one account), and the right a role needs to see it (the nav hides it
// and the page explains; the API refuses anyway). A page is one file under pages/. Order = nav order.
import type { AnyComponent } from 'preact';
import { DashboardPage } from './pages/dashboard.tsx';

export interface ConsolePage {
  /** Under /admin; `:name` parts reach the page as props (`/admin/accounts/:id` → `id`). */
  path: string;
  label?: string;
  /** `accounts:read`…: the rights of core/staff/roles.ts; none: every signed-in member. */
  right?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  page: AnyComponent<any>;
}

export const PAGES: ConsolePage[] = [
  { path: '/admin', label: 'Dashboard', right: 'settings:read', page: DashboardPage },
];
