// A sandbox operation leaves no row, yet the test key must be able to poll it. Its id therefore
// carries what the answer needs (type, resource, account, time), readable without storage. It is
// not secret: it only ever describes the caller's own rolled-back request.
export interface SandboxOperation {
  type: string;
  resourceType: string;
  resourceId: string;
  accountId: string;
  createdAt: Date;
}

export const SANDBOX_PREFIX = 'op_sandbox_';

export function sandboxOperationId(op: SandboxOperation): string {
  const payload = [op.type, op.resourceType, op.resourceId, op.accountId, op.createdAt.getTime()];
  return SANDBOX_PREFIX + Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function readSandboxOperationId(id: string): SandboxOperation | null {
  if (!id.startsWith(SANDBOX_PREFIX)) return null;
  try {
    const p: unknown = JSON.parse(Buffer.from(id.slice(SANDBOX_PREFIX.length), 'base64url').toString('utf8'));
    if (!Array.isArray(p) || p.length !== 5) return null;
    const [type, resourceType, resourceId, accountId, ms] = p as unknown[];
    if (typeof type !== 'string' || typeof resourceType !== 'string' || typeof resourceId !== 'string' || typeof accountId !== 'string' || typeof ms !== 'number') return null;
    return { type, resourceType, resourceId, accountId, createdAt: new Date(ms) };
  } catch {
    return null;
  }
}
