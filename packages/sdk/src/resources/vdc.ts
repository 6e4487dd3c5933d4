import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { CreateOptions, RequestOptions } from '../transport.js';
import type { Body, Data, Item, Query } from '../types.js';

export type VdcVmAction = 'start' | 'stop' | 'reboot' | 'reinstall' | 'reset_password' | 'resize';

/** The virtual data center: its resource pool and the VMs made from it (never charged per VM). */
export class Vdc extends Resource {
  resources(opts?: RequestOptions): Promise<Data<'getVdcResources'>> {
    return this.read('/vdc/resources', undefined, opts);
  }

  listVms(query?: Query<'listVdcVms'>, opts?: RequestOptions): PageIterator<Item<'listVdcVms'>> {
    return this.pages('/vdc/vms', query, opts);
  }

  getVm(id: string, opts?: RequestOptions): Promise<Data<'getVdcVm'>> {
    return this.read(`/vdc/vms/${seg(id)}`, undefined, opts);
  }

  /** Takes its size from the pool; answers the VM `pending` and its `operation`. */
  createVm(body: Body<'createVdcVm'>, opts?: CreateOptions): Promise<Data<'createVdcVm'>> {
    return this.billable('/vdc/vms', body, opts);
  }

  deleteVm(id: string, query?: Query<'deleteVdcVm'>, opts?: RequestOptions): Promise<Data<'deleteVdcVm'>> {
    return this.write('DELETE', `/vdc/vms/${seg(id)}`, undefined, opts, query);
  }

  vmUsage(id: string, opts?: RequestOptions): Promise<Data<'getVdcVmUsage'>> {
    return this.read(`/vdc/vms/${seg(id)}/usage`, undefined, opts);
  }

  vmAction(id: string, verb: VdcVmAction, body?: Body<'runVdcVmAction'>, opts?: RequestOptions): Promise<Data<'runVdcVmAction'>> {
    return this.write('POST', `/vdc/vms/${seg(id)}/actions/${verb}`, body, opts);
  }

  listVmSnapshots(id: string, query?: Query<'listVdcVmSnapshots'>, opts?: RequestOptions): PageIterator<Item<'listVdcVmSnapshots'>> {
    return this.pages(`/vdc/vms/${seg(id)}/snapshots`, query, opts);
  }

  createVmSnapshot(id: string, body: Body<'createVdcVmSnapshot'>, opts?: RequestOptions): Promise<Data<'createVdcVmSnapshot'>> {
    return this.write('POST', `/vdc/vms/${seg(id)}/snapshots`, body, opts);
  }

  deleteVmSnapshot(id: string, snapshotId: string | number, opts?: RequestOptions): Promise<Data<'deleteVdcVmSnapshot'>> {
    return this.write('DELETE', `/vdc/vms/${seg(id)}/snapshots/${seg(snapshotId)}`, undefined, opts);
  }

  restoreVmSnapshot(id: string, snapshotId: string | number, opts?: RequestOptions): Promise<Data<'restoreVdcVmSnapshot'>> {
    return this.write('POST', `/vdc/vms/${seg(id)}/snapshots/${seg(snapshotId)}/restore`, undefined, opts);
  }
}
