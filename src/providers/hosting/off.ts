// HOSTING_DRIVER=off: this installation sells no web hosting. The panel has no servers, so an order
// is refused before anything is charged (503, as when every server is full); anything asked of an
// existing account fails for good.
import { type HostingPanel, HostingPanelError } from './types.ts';

const off = async (): Promise<never> => {
  throw new HostingPanelError('UPSTREAM_ERROR', 'Web hosting is switched off on this installation (HOSTING_DRIVER=off)', false);
};

export const offPanel: HostingPanel = {
  createAccount: off,
  async findAccount() {
    return null;
  },
  suspend: off,
  unsuspend: off,
  terminate: off,
  diskUsage: off,
  ssoUrl: off,
  async listServers() {
    return [];
  },
  siteInfo: off,
  resetSftpPassword: off,
  createDatabase: off,
  resetDatabasePassword: off,
  dropDatabase: off,
};
