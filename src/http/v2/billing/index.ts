// The billing routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getBalance from './get-balance.ts';
import * as listTransactions from './list-transactions.ts';
import * as listUpcomingCharges from './list-upcoming-charges.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getBalance, listTransactions, listUpcomingCharges,
];
