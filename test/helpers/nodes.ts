// Nodes in tests: rows read straight from the database, and admin calls that shape the platform.
import assert from 'node:assert/strict';
import { type TestApp, adminCall, json } from './app.ts';

export function nodeRows(t: TestApp, locationId: number) {
  return t.database.db.selectFrom('nodes').selectAll().where('location_id', '=', locationId).orderBy('id').execute();
}

export function nodeRow(t: TestApp, id: number) {
  return t.database.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function setNodeStatus(t: TestApp, id: number, status: string) {
  const res = await adminCall(t, 'PATCH', `/admin/v1/nodes/${id}`, { status });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

export async function addNode(t: TestApp, body: { location_id: number; name: string; cpu_vendor: string; cpu_cores: number; ram_mb: number; storage_gb: number }) {
  const res = await adminCall(t, 'POST', '/admin/v1/nodes', body);
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

/** A primary location of its own, with a /24 and a /64 and the given nodes (e.g. to fit exactly N servers). */
export async function newLocation(t: TestApp, code: string, octet: number) {
  const res = await adminCall(t, 'POST', '/admin/v1/locations', { name: `Loc ${code}`, code, country: 'DE', provider: 'primary' });
  assert.equal(res.statusCode, 201, res.body);
  const id = json(res).data.id as number;
  for (const pool of [{ version: 4, cidr: `10.${octet}.0.0/24`, gateway: `10.${octet}.0.1` }, { version: 6, cidr: `2001:db8:${octet.toString(16)}00::/64`, gateway: `2001:db8:${octet.toString(16)}00::1` }]) {
    const p = await adminCall(t, 'POST', `/admin/v1/locations/${id}/ip-pools`, pool);
    assert.equal(p.statusCode, 201, p.body);
  }
  return id;
}

/** Cloud S's size: the unit the capacity tests count in. */
export const CLOUD_S_SIZE = { cpu_cores: 1, ram_mb: 1024, storage_gb: 25 };
