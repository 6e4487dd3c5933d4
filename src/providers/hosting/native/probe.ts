// Checking a hosting node: what it lacks of what the driver needs (nginx, php-fpm, sftp, mariadb,
// each tested the way the driver uses it), its disk where homes live, and whether that filesystem
// enforces user quotas. Hostcloud never installs packages on a node; the operator reads `missing`.
import type { NodeConfig } from './node-config.ts';
import { q } from './shell.ts';
import type { SshSession } from './ssh.ts';

export interface NodeProbe {
  missing: string[];
  diskTotalMb: number | null;
  diskFreeMb: number | null;
  quotas: boolean;
}

export async function probeNode(ssh: SshSession, c: NodeConfig): Promise<NodeProbe> {
  const sshd = q(c.sshd_config);
  const script = [
    `if [ -d ${q(c.nginx_sites_dir)} ] && { ${c.nginx_test} ; } >/dev/null 2>&1; then echo nginx=ok; fi`,
    `if [ -d ${q(c.php_pool_dir)} ] && { ${c.php_test} ; } >/dev/null 2>&1; then echo php-fpm=ok; fi`,
    // sshd's SFTP-only block for the accounts' group, in its configuration or an included file.
    `if cat ${sshd} ${sshd}.d/*.conf 2>/dev/null | grep -Eiq '^[[:space:]]*Match[[:space:]]+Group[[:space:]]+([^[:space:]]*,)?'${q(c.sftp_group)}'(,|[[:space:]]|$)'; then echo sftp=ok; fi`,
    `if echo 'SELECT 1;' | ${c.mysql} >/dev/null 2>&1; then echo mariadb=ok; fi`,
    `if command -v useradd >/dev/null && command -v flock >/dev/null && command -v chpasswd >/dev/null; then echo tools=ok; fi`,
    `mkdir -p ${q(c.hosting_root)} 2>/dev/null || true`,
    `df -Pk ${q(c.hosting_root)} 2>/dev/null | awk 'NR==2 {print "disk=" $2 " " $4; print "mount=" $6}'`,
    `mnt=$(df -P ${q(c.hosting_root)} 2>/dev/null | awk 'NR==2 {print $6}')`,
    'if command -v quotaon >/dev/null 2>&1 && quotaon -pu "$mnt" 2>/dev/null | grep -q " is on"; then echo quotas=on; fi',
  ].join('\n');
  const r = await ssh.exec(script);
  const lines = new Map(r.stdout.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const));
  const missing = ['nginx', 'php-fpm', 'sftp', 'mariadb', 'tools'].filter((k) => lines.get(k) !== 'ok');
  const disk = lines.get('disk')?.split(' ').map(Number);
  return {
    missing,
    diskTotalMb: disk && Number.isFinite(disk[0]) ? Math.floor(disk[0]! / 1024) : null,
    diskFreeMb: disk && Number.isFinite(disk[1]) ? Math.floor(disk[1]! / 1024) : null,
    quotas: lines.get('quotas') === 'on',
  };
}
