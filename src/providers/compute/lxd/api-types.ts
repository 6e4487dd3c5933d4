// The parts of LXD's REST API (/1.0, LXD ≥ 5.0) that the driver reads and writes.

export interface LxdResponse<T = unknown> {
  type: 'sync' | 'async' | 'error';
  status?: string;
  status_code?: number;
  operation?: string;
  error_code?: number;
  error?: string;
  metadata: T;
}

export interface LxdOperation {
  id: string;
  class: 'task' | 'websocket' | 'token';
  status: 'Pending' | 'Running' | 'Success' | 'Failure' | 'Cancelled' | string;
  status_code: number;
  err: string;
  resources: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
  may_cancel: boolean;
}

export type Devices = Record<string, Record<string, string>>;

export interface LxdInstance {
  name: string;
  type: 'container' | 'virtual-machine';
  status: string;
  status_code: number;
  config: Record<string, string>;
  devices: Devices;
  expanded_config?: Record<string, string>;
  expanded_devices?: Devices;
  profiles: string[];
  stateful: boolean;
  location?: string;
  project?: string;
}

export interface LxdInstanceState {
  status: string;
  status_code: number;
  cpu: { usage: number };
  memory: { usage: number; usage_peak?: number; total?: number };
  disk: Record<string, { usage: number; total?: number }> | null;
  network: Record<string, {
    addresses: { family: string; address: string; netmask: string; scope: string }[];
    counters: { bytes_received: number; bytes_sent: number; packets_received: number; packets_sent: number };
    host_name: string;
    state: string;
  }> | null;
  pid: number;
  processes: number;
}

export interface LxdServer {
  api_extensions: string[];
  auth: 'trusted' | 'untrusted';
  config?: Record<string, unknown>;
  environment?: {
    server_version: string;
    server_name?: string;
    server_clustered?: boolean;
    certificate?: string;
    certificate_fingerprint?: string;
    driver?: string;
    kernel_architecture?: string;
  };
}

export interface LxdResources {
  cpu: { total: number; sockets?: { vendor?: string; name?: string }[] };
  memory: { total: number; used?: number };
}

export interface LxdStoragePoolResources {
  space: { total: number; used?: number };
}

export interface LxdSnapshot {
  name: string;
  created_at: string;
  stateful: boolean;
}
