// server.reinstall: the runner every machine kind shares (machines/runners.ts).
import { reinstallRunner } from '../machines/runners.ts';
import { SERVER_ROWS } from './guards.ts';

export const serverReinstallRunner = reinstallRunner(SERVER_ROWS);
