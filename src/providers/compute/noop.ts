// The sandbox's compute provider: no I/O at all (it does not even report progress, which would be
// the caller's I/O), an immediate plausible answer, never an error.
// Addresses come from the documentation ranges (192.0.2.0/24, 2001:db8::/32), so a sandbox
// answer can never be mistaken for a real machine's.
import { randomBytes, randomInt } from 'node:crypto';
import type { ComputeProvider, FirewallRule, Machine } from './types.ts';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const v4 = () => `192.0.2.${randomInt(2, 255)}`;
const v6 = () => `2001:db8::${randomInt(2, 0xffff).toString(16)}`;

const RULES: FirewallRule[] = [
  { position: 1, direction: 'inbound', protocol: 'tcp', port: '22', source: '0.0.0.0/0', action: 'accept' },
  { position: 2, direction: 'inbound', protocol: 'tcp', port: '80', source: '0.0.0.0/0', action: 'accept' },
  { position: 3, direction: 'inbound', protocol: 'tcp', port: '443', source: '0.0.0.0/0', action: 'accept' },
  { position: 4, direction: 'inbound', protocol: 'icmp', port: null, source: '0.0.0.0/0', action: 'accept' },
  { position: 5, direction: 'inbound', protocol: 'any', port: null, source: '0.0.0.0/0', action: 'drop' },
];

export const noopCompute: ComputeProvider = {
  async create(req) {
    const machine: Machine = {
      ref: `noop-${hex(8)}`,
      network: {
        ipv4: { address: v4(), gateway: '192.0.2.1', netmask: '255.255.255.0', subnet: '192.0.2.0/24' },
        ipv6: req.ipv6 ? { address: v6(), gateway: '2001:db8::1', subnet: '2001:db8::/64' } : null,
      },
      extraIps: [
        ...Array.from({ length: req.extraIpv4 }, () => ({ address: v4(), version: 4 as const })),
        ...Array.from({ length: req.extraIpv6 }, () => ({ address: v6(), version: 6 as const })),
      ],
    };
    return machine;
  },
  async findMachine() {
    return null;
  },
  async destroy() {},
  async power(_ref, action) {
    return action === 'stop' ? 'stopped' : 'running';
  },
  async resetPassword() {},
  async reinstall() {},
  async resize() {},
  async snapshot() {
    return { ref: `noop-snap-${hex(8)}`, sizeGb: 1 };
  },
  async restoreSnapshot() {},
  async deleteSnapshot() {},
  async status() {
    return { power: 'running', cpuCores: 1, ramMb: 1024, storageGb: 25, osSlug: null };
  },
  async attachIp(_ref, version) {
    return { address: version === 4 ? v4() : v6() };
  },
  async releaseIp() {},
  async setReverseDns() {},
  async reverseDns() {
    return null;
  },
  async firewallRules() {
    return RULES.map((r) => ({ ...r }));
  },
  async openConsole(_ref, ttlSeconds) {
    return { ticket: randomBytes(24).toString('base64url'), expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
  },
  async redeemConsole() {
    return true;
  },
  async metrics() {
    return { cpu_pct: 3, memory_pct: 22, disk_pct: 12, sampled_at: new Date() };
  },
  async migrate(ref) {
    const machine: Machine = {
      ref,
      network: { ipv4: { address: v4(), gateway: '192.0.2.1', netmask: '255.255.255.0', subnet: '192.0.2.0/24' }, ipv6: null },
      extraIps: [],
    };
    return machine;
  },
  async traffic(_ref, month) {
    return { month, in_bytes: 0, out_bytes: 0, quota_bytes: 1_000_000_000_000 };
  },
};
