// server.start / server.stop / server.reboot: the runner every machine kind shares (machines/runners.ts).
import { powerRunner } from '../machines/runners.ts';
import { SERVER_ROWS } from './guards.ts';

export const serverPowerRunner = powerRunner(SERVER_ROWS);
