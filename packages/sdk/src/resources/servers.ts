import { AmbiguousNameError, HostcloudError } from '../errors.js';
import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { CreateOptions, RequestOptions } from '../transport.js';
import type { Body, Data, Item, Query } from '../types.js';

export type ServerAction = 'start' | 'stop' | 'reboot' | 'reset_password' | 'reinstall' | 'resize' | 'clone' | 'migrate';
type ActionBody = Body<'runServerAction'>;

/** Servers: create (billable), read, rename, delete, actions, snapshots, addresses, console, metrics. */
export class Servers extends Resource {
  /** Every server (deleted ones are not listed), page by page as the iteration goes. */
  list(query?: Query<'listServers'>, opts?: RequestOptions): PageIterator<Item<'listServers'>> {
    return this.pages('/servers', query, opts);
  }

  get(id: string, opts?: RequestOptions): Promise<Data<'getServer'>> {
    return this.read(`/servers/${seg(id)}`, undefined, opts);
  }

  /**
   * A server by its id (`srv_…`) or its name (any case; the exact spelling wins). A name no server has is a
   * RESOURCE_NOT_FOUND HostcloudError (status 404); a name several servers share is an
   * AmbiguousNameError listing them (names need not be unique).
   */
  async find(nameOrId: string, opts?: RequestOptions): Promise<Data<'getServer'>> {
    if (/^srv_[A-Za-z0-9]+$/.test(nameOrId)) return this.get(nameOrId, opts);
    const wanted = nameOrId.toLowerCase();
    let matches: { id: string; name: string }[] = [];
    for await (const s of this.list({ per_page: 100 }, opts)) if (s.name.toLowerCase() === wanted) matches.push({ id: s.id, name: s.name });
    // Names differing only in case: the exact spelling decides.
    if (matches.length > 1 && matches.some((m) => m.name === nameOrId)) matches = matches.filter((m) => m.name === nameOrId);
    if (matches.length === 0) throw new HostcloudError({ status: 404, code: 'RESOURCE_NOT_FOUND', message: `No server is named "${nameOrId}"` });
    if (matches.length > 1) throw new AmbiguousNameError('server', nameOrId, matches);
    return this.get(matches[0]!.id, opts);
  }

  /** Billable. Answers at once with the server `pending` and its `operation` (wait on it with operations.wait). */
  create(body: Body<'createServer'>, opts?: CreateOptions): Promise<Data<'createServer'>> {
    return this.billable('/servers', body, opts);
  }

  rename(id: string, name: string, opts?: RequestOptions): Promise<Data<'updateServer'>> {
    return this.write('PATCH', `/servers/${seg(id)}`, { name }, opts);
  }

  /** Deletes the server and refunds the unused part of its cycle. */
  delete(id: string, opts?: RequestOptions): Promise<Data<'deleteServer'>> {
    return this.write('DELETE', `/servers/${seg(id)}`, undefined, opts);
  }

  /** Any action; answers the queued `operation` (and, for clone, the new `server`). */
  action(id: string, verb: ServerAction, body?: ActionBody, opts?: RequestOptions): Promise<Data<'runServerAction'>> {
    return this.write('POST', `/servers/${seg(id)}/actions/${verb}`, body, opts);
  }

  start(id: string, opts?: RequestOptions) { return this.action(id, 'start', undefined, opts); }
  stop(id: string, opts?: RequestOptions) { return this.action(id, 'stop', undefined, opts); }
  reboot(id: string, opts?: RequestOptions) { return this.action(id, 'reboot', undefined, opts); }
  resetPassword(id: string, body?: Pick<ActionBody, 'password'>, opts?: RequestOptions) { return this.action(id, 'reset_password', body, opts); }
  reinstall(id: string, body?: Pick<ActionBody, 'os_version_id'>, opts?: RequestOptions) { return this.action(id, 'reinstall', body, opts); }
  /** Billable (the growth, prorated). */
  resize(id: string, body: Pick<ActionBody, 'cpu' | 'ram_gb' | 'disk_gb'>, opts?: RequestOptions) { return this.action(id, 'resize', body, opts); }
  /** Billable (the new server's first cycle). */
  clone(id: string, body?: Pick<ActionBody, 'hostname'>, opts?: RequestOptions) { return this.action(id, 'clone', body, opts); }
  migrate(id: string, body?: Pick<ActionBody, 'mode' | 'location_id'>, opts?: RequestOptions) { return this.action(id, 'migrate', body, opts); }

  /** Billable: the price difference, prorated, charged at once (synchronous). */
  upgrade(id: string, body: Body<'upgradeServer'>, opts?: RequestOptions): Promise<Data<'upgradeServer'>> {
    return this.write('POST', `/servers/${seg(id)}/actions/upgrade`, body, opts);
  }

  listSnapshots(id: string, query?: Query<'listServerSnapshots'>, opts?: RequestOptions): PageIterator<Item<'listServerSnapshots'>> {
    return this.pages(`/servers/${seg(id)}/snapshots`, query, opts);
  }

  /** Billable (the first month of the snapshot's fee). */
  createSnapshot(id: string, body: Body<'createServerSnapshot'>, opts?: CreateOptions): Promise<Data<'createServerSnapshot'>> {
    return this.billable(`/servers/${seg(id)}/snapshots`, body, opts);
  }

  deleteSnapshot(id: string, snapshotId: number, opts?: RequestOptions): Promise<Data<'deleteServerSnapshot'>> {
    return this.write('DELETE', `/servers/${seg(id)}/snapshots/${seg(snapshotId)}`, undefined, opts);
  }

  restoreSnapshot(id: string, snapshotId: number, opts?: RequestOptions): Promise<Data<'restoreServerSnapshot'>> {
    return this.write('POST', `/servers/${seg(id)}/snapshots/${seg(snapshotId)}/restore`, undefined, opts);
  }

  listIps(id: string, query?: Query<'listServerIps'>, opts?: RequestOptions): PageIterator<Item<'listServerIps'>> {
    return this.pages(`/servers/${seg(id)}/ips`, query, opts);
  }

  /** Billable (monthly, with the server). */
  addIp(id: string, body: Body<'addServerIp'>, opts?: CreateOptions): Promise<Data<'addServerIp'>> {
    return this.billable(`/servers/${seg(id)}/ips`, body, opts);
  }

  deleteIp(id: string, address: string, opts?: RequestOptions): Promise<Data<'deleteServerIp'>> {
    return this.write('DELETE', `/servers/${seg(id)}/ips/${seg(address)}`, undefined, opts);
  }

  reverseDns(id: string, address: string, opts?: RequestOptions): Promise<Data<'getServerIpReverseDns'>> {
    return this.read(`/servers/${seg(id)}/ips/${seg(address)}/rdns`, undefined, opts);
  }

  setReverseDns(id: string, address: string, body: Body<'updateServerIpReverseDns'>, opts?: RequestOptions): Promise<Data<'updateServerIpReverseDns'>> {
    return this.write('PUT', `/servers/${seg(id)}/ips/${seg(address)}/rdns`, body, opts);
  }

  firewallRules(id: string, query?: Query<'listServerFirewallRules'>, opts?: RequestOptions): PageIterator<Item<'listServerFirewallRules'>> {
    return this.pages(`/servers/${seg(id)}/firewall/rules`, query, opts);
  }

  /** A single-use console URL, valid 300 s. */
  console(id: string, opts?: RequestOptions): Promise<Data<'getServerConsole'>> {
    return this.read(`/servers/${seg(id)}/console`, undefined, opts);
  }

  metrics(id: string, opts?: RequestOptions): Promise<Data<'getServerMetrics'>> {
    return this.read(`/servers/${seg(id)}/metrics`, undefined, opts);
  }

  traffic(id: string, opts?: RequestOptions): Promise<Data<'getServerTraffic'>> {
    return this.read(`/servers/${seg(id)}/traffic`, undefined, opts);
  }
}
