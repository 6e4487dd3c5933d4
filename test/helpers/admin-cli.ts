// `hostcloud admin …` run in this process against a test app listening on `url`, its output kept.
import { runAdmin } from '../../src/cli/admin.ts';
import type { TestApp } from './app.ts';

export interface AdminCliRun { code: number; stdout: string; stderr: string }

export async function adminCli(t: TestApp, url: string, args: string[]): Promise<AdminCliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(['--url', url, '--token', t.adminToken, ...args], {
    stdout: (text) => { stdout += text; },
    stderr: (text) => { stderr += text; },
  });
  return { code, stdout, stderr };
}
