// Reseller resources of v2 (the admin API's reseller switch answers with the status too).
import { Type } from '@sinclair/typebox';
import { basisPoints, percentOf } from '../../../core/reseller/discount.ts';
import type { Standing, TierLadder } from '../../../core/reseller/service.ts';
import { component, ref } from '../../schemas.ts';

const range = {
  min_servers: Type.Integer({ minimum: 0, description: 'Active servers from…', examples: [10] }),
  max_servers: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: '…up to (inclusive); null for the open-ended top tier.', examples: [49] }),
  discount_percentage: Type.Number({ minimum: 0, maximum: 100, description: 'Taken off every server charge.', examples: [5] }),
};

export const ResellerTierSchema = component('ResellerTier', Type.Object(range, { description: 'A step of the discount ladder.' }));

export const ResellerStatusSchema = component('ResellerStatus', Type.Object({
  is_reseller: Type.Boolean({ description: 'Set by the operator.' }),
  discount_percentage: Type.Number({ minimum: 0, maximum: 100, description: 'Taken off every server charge now: the current tier\'s, 0 for a non-reseller.', examples: [5] }),
  discount_type: Type.String({ description: 'Always `percentage`.', examples: ['percentage'] }),
  active_server_count: Type.Integer({ minimum: 0, description: 'Servers in status `active` (pending, suspended and cancelled ones do not count).', examples: [12] }),
  current_tier: Type.Union([ref(ResellerTierSchema), Type.Null()], { description: 'The tier whose range holds `active_server_count`; null for a non-reseller.' }),
}, { description: 'Whether the account resells, and the discount it gets now.' }));

export const ResellerTiersSchema = component('ResellerTiers', Type.Object({
  is_reseller: Type.Boolean(),
  discount_type: Type.String({ examples: ['percentage'] }),
  active_server_count: Type.Integer({ minimum: 0, examples: [12] }),
  tiers: Type.Array(Type.Object({
    ...range,
    is_current: Type.Boolean({ description: 'The tier that applies now (none for a non-reseller).' }),
  }), { description: 'The ladder, lowest first.' }),
}, { description: 'The discount ladder by active server count.' }));

const tierView = (t: { min_servers: number; max_servers: number | null; discount_percentage: string }) => ({
  min_servers: t.min_servers, max_servers: t.max_servers, discount_percentage: percentOf(basisPoints(t.discount_percentage)),
});

export function resellerStatusView(s: Standing) {
  return {
    is_reseller: s.isReseller,
    discount_percentage: percentOf(s.discountBp),
    discount_type: s.discountType,
    active_server_count: s.activeServers,
    current_tier: s.currentTier ? tierView(s.currentTier) : null,
  };
}

export function resellerTiersView(l: TierLadder) {
  return {
    is_reseller: l.standing.isReseller,
    discount_type: l.standing.discountType,
    active_server_count: l.standing.activeServers,
    tiers: l.tiers.map((t) => ({ ...tierView(t), is_current: t.isCurrent })),
  };
}
