// Where things are on a hosting node and how its services are told to reload. The defaults are
// Debian's (bookworm: nginx, php8.2-fpm, openssh-server, mariadb-server run by their init system);
// an operator changes any of them per node (`config` when adding it), and the tests point them at
// their own nginx, PHP-FPM and sshd instances. Commands are shell text the operator wrote; every
// value of ours inside a command is quoted (shell.ts).
import { HostingPanelError } from '../types.ts';
import { safePath } from './shell.ts';

export interface NodeConfig {
  /** Homes: <hosting_root>/<user>, the SFTP chroot. Every parent must be root's and not writable by others (sshd's rule). */
  hosting_root: string;
  /** nginx server blocks go here, one file per account (hostcloud-<user>.conf). */
  nginx_sites_dir: string;
  nginx_test: string;
  nginx_reload: string;
  /** The address nginx listens on for sites (empty: every address). */
  http_address: string;
  /** PHP-FPM pools go here, one file per account (hostcloud-<user>.conf). */
  php_pool_dir: string;
  php_test: string;
  php_reload: string;
  /** Where each pool's socket is made (<php_run_dir>/hostcloud-<user>.sock). */
  php_run_dir: string;
  php_version: string;
  /** The group nginx runs as: it reads public_html and the pools' sockets. */
  web_group: string;
  /** Members of this group are SFTP-only and chrooted: sshd's `Match Group` block names it. */
  sftp_group: string;
  /** sshd's configuration (with its .d directory), read to check the SFTP block is there. */
  sshd_config: string;
  /** The MariaDB client as root (Debian: root logs in over the socket). SQL is sent on its standard input. */
  mysql: string;
  /** Our own files on the node: staged configs, suspended pools, locks. */
  state_dir: string;
  /** Put before every user name made on the node (tests use their own). */
  user_prefix: string;
}

export const DEBIAN_DEFAULTS: NodeConfig = {
  hosting_root: '/srv/hosting',
  nginx_sites_dir: '/etc/nginx/sites-enabled',
  nginx_test: 'nginx -t -q',
  nginx_reload: 'nginx -s reload',
  http_address: '',
  php_pool_dir: '/etc/php/8.2/fpm/pool.d',
  php_test: 'php-fpm8.2 -t',
  php_reload: 'kill -USR2 "$(cat /run/php/php8.2-fpm.pid)"',
  php_run_dir: '/run/php',
  php_version: '8.2',
  web_group: 'www-data',
  sftp_group: 'hostcloud-sftp',
  sshd_config: '/etc/ssh/sshd_config',
  mysql: 'mysql',
  state_dir: '/var/lib/hostcloud',
  user_prefix: '',
};

export const CONFIG_KEYS = Object.keys(DEBIAN_DEFAULTS) as (keyof NodeConfig)[];

const PATHS: (keyof NodeConfig)[] = ['hosting_root', 'nginx_sites_dir', 'php_pool_dir', 'php_run_dir', 'sshd_config', 'state_dir'];
const NAMES: (keyof NodeConfig)[] = ['web_group', 'sftp_group'];

/** The problem with an override set, or null: unknown keys, non-string values, unsafe paths and names. */
export function configProblem(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'must be an object';
  for (const [k, v] of Object.entries(raw)) {
    if (!(CONFIG_KEYS as string[]).includes(k)) return `has an unknown key "${k}" (known: ${CONFIG_KEYS.join(', ')})`;
    if (typeof v !== 'string' || v.length > 500 || /[\r\n\0]/.test(v)) return `${k} must be one line of text`;
    if (PATHS.includes(k as keyof NodeConfig) && !/^\/[A-Za-z0-9._/-]*$/.test(v)) return `${k} must be an absolute path of letters, digits, ".", "_", "-" and "/"`;
    if (NAMES.includes(k as keyof NodeConfig) && !/^[a-z_][a-z0-9_-]{0,31}$/.test(v)) return `${k} must be a group name`;
    if (k === 'user_prefix' && !/^[a-z][a-z0-9]{0,5}$/.test(v) && v !== '') return 'user_prefix must be up to 6 lower-case letters and digits, starting with a letter';
    if (k === 'http_address' && v !== '' && !/^[0-9a-fA-F.:[\]]+$/.test(v)) return 'http_address must be an IP address';
    if (k === 'php_version' && !/^\d+\.\d+$/.test(v)) return 'php_version must look like 8.2';
  }
  return null;
}

export function nodeConfig(overrides: unknown): NodeConfig {
  const problem = configProblem(overrides ?? {});
  if (problem) throw new HostingPanelError('UPSTREAM_ERROR', `The hosting node's configuration ${problem}`, false);
  const c = { ...DEBIAN_DEFAULTS, ...(overrides as Partial<NodeConfig>) };
  for (const k of PATHS) c[k] = safePath(c[k]);
  return c;
}
