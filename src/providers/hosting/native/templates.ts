// The files an account is made of on a node: its nginx server block (serving, or answering 403
// "suspended"), its PHP-FPM pool and the default index page. Every value here has passed the
// checks of shell.ts (user names [a-z][a-z0-9]*, LDH domains, plain absolute paths), so none can
// end a directive or open a block.
import type { NodeConfig } from './node-config.ts';

export interface SiteNames {
  user: string;
  domain: string;
  home: string;
  socket: string;
}

export function siteNames(c: NodeConfig, user: string, domain: string): SiteNames {
  return { user, domain, home: `${c.hosting_root}/${user}`, socket: `${c.php_run_dir}/hostcloud-${user}.sock` };
}

export const nginxFile = (c: NodeConfig, user: string) => `${c.nginx_sites_dir}/hostcloud-${user}.conf`;
export const poolFile = (c: NodeConfig, user: string) => `${c.php_pool_dir}/hostcloud-${user}.conf`;

function listen(c: NodeConfig, port: number): string {
  return c.http_address ? `${c.http_address.includes(':') && !c.http_address.startsWith('[') ? `[${c.http_address}]` : c.http_address}:${port}` : String(port);
}

export function serverBlock(c: NodeConfig, port: number, s: SiteNames, suspended: boolean): string {
  const head = [
    `# Managed by Hostcloud: account ${s.user}. Changes here are overwritten.`,
    'server {',
    `    listen ${listen(c, port)};`,
    `    server_name ${s.domain} www.${s.domain};`,
  ];
  if (suspended) {
    return [...head,
      '    default_type text/plain;',
      '    location / {',
      '        return 403 "suspended\\n";',
      '    }',
      '}', ''].join('\n');
  }
  return [...head,
    `    root ${s.home}/public_html;`,
    '    index index.php index.html index.htm;',
    '    client_max_body_size 64m;',
    '    location / {',
    '        try_files $uri $uri/ =404;',
    '    }',
    '    location ~ /\\.(?!well-known) {',
    '        deny all;',
    '    }',
    '    location ~ \\.php$ {',
    '        try_files $uri =404;',
    '        include fastcgi_params;',
    '        fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;',
    `        fastcgi_pass unix:${s.socket};`,
    '    }',
    '}', ''].join('\n');
}

export function poolConfig(c: NodeConfig, s: SiteNames): string {
  return [
    `; Managed by Hostcloud: account ${s.user}. Changes here are overwritten.`,
    `[hostcloud-${s.user}]`,
    `user = ${s.user}`,
    `group = ${s.user}`,
    `listen = ${s.socket}`,
    `listen.owner = ${s.user}`,
    `listen.group = ${c.web_group}`,
    'listen.mode = 0660',
    'pm = ondemand',
    'pm.max_children = 5',
    'pm.process_idle_timeout = 30s',
    'chdir = /',
    // The account's PHP sees only its own home; its temporary files and sessions stay inside it.
    `php_admin_value[open_basedir] = ${s.home}/`,
    `php_admin_value[upload_tmp_dir] = ${s.home}/tmp`,
    `php_admin_value[session.save_path] = ${s.home}/tmp`,
    `php_admin_value[sys_temp_dir] = ${s.home}/tmp`,
    'php_admin_value[disable_functions] = exec,passthru,shell_exec,system,proc_open,popen,pcntl_exec',
    '',
  ].join('\n');
}

export function indexPage(domain: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${domain}</title></head>\n`
    + `<body><h1>${domain}</h1><p>This site is hosted here and has no content yet. Upload yours to public_html over SFTP.</p></body></html>\n`;
}
