// server.reset_password: the runner every machine kind shares (machines/runners.ts).
import { resetPasswordRunner } from '../machines/runners.ts';
import { SERVER_ROWS } from './guards.ts';

export const serverResetPasswordRunner = resetPasswordRunner(SERVER_ROWS);
