// Reading VDC VMs. The detail asks the platform for the live power state, OS and size of a VM on
// the primary provider, best effort: a slow or failing platform — or a VM elsewhere — degrades
// those fields to what we recorded (power `unknown`), never to an error. Lists show what we
// recorded, with no platform call per item.
import { findAccountVdcVmDetail, listVdcVmsPage, type VdcVmRow } from '../../db/queries/vdc-vms.ts';
import type { PowerState, VdcVm } from '../../db/schema.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';
import { PRIMARY_PROVIDER } from '../catalog/customer-lists.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { liveRead } from '../servers/platform-read.ts';

export interface VmView {
  vm: VdcVm;
  os: string | null;
  power: PowerState;
  specs: MachineSpec;
  /** The OS as family and version (v1 shows them apart); null when the VM has none recorded. */
  osLabel: { family: string; version: string } | null;
}

const specsOf = (vm: VdcVm): MachineSpec => ({ cpuCores: vm.cpu_cores, ramMb: vm.ram_mb, storageGb: vm.storage_gb });

/** The recorded view of a row (no platform call). */
export function recordedView(row: VdcVmRow): VmView {
  const { os_slug, os_family, os_version, location_provider: _, ...vm } = row;
  const osLabel = os_family === null || os_version === null ? null : { family: os_family, version: os_version };
  return { vm, os: os_slug, power: vm.power_state, specs: specsOf(vm), osLabel };
}

export async function listVms(ctx: Ctx, page: PageRequest): Promise<Paged<VmView>> {
  const { rows, total } = await listVdcVmsPage(ctx.db, ctx.accountId, page.perPage, offsetOf(page));
  return { items: rows.map(recordedView), total, ...page };
}

export async function getVm(ctx: Ctx, id: string): Promise<VmView> {
  const row = await findAccountVdcVmDetail(ctx.db, ctx.accountId, id);
  if (!row) throw notFound('VM');
  const view = recordedView(row);
  // Not provisioned (or failed, or sandbox): nothing live to ask about.
  if (row.status !== 'active' || !row.provider_ref || ctx.sandbox) return view;
  // The platform we drive answers only for its own machines.
  if (row.location_provider !== PRIMARY_PROVIDER) return { ...view, power: 'unknown' };
  try {
    const ref = row.provider_ref;
    const live = await liveRead(() => ctx.compute.status(ref, ctx.providerTimeoutMs), ctx.providerTimeoutMs, 'status');
    // A migrating machine reads as running or stopped on the platform: ours says what is going on.
    const power = view.vm.power_state === 'migrating' ? 'migrating' : live.power;
    return { ...view, power, os: live.osSlug, specs: { cpuCores: live.cpuCores, ramMb: live.ramMb, storageGb: live.storageGb } };
  } catch {
    return { ...view, power: 'unknown' };
  }
}
