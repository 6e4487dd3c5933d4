// The installation's branding (GET /admin/v1/settings/branding, which every role may read): the
// header shows its name and logo; the Branding page changes it and the header follows at once.
import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { admin } from './api.ts';

export interface Branding {
  name: string;
  logo: string | null;
  primary_color: string;
  support_email: string | null;
  support_url: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  updated_at: string | null;
}

interface BrandingState {
  branding: Branding | null;
  /** After a save: the header shows what was saved. */
  saved(b: Branding): void;
}

const BrandingContext = createContext<BrandingState>({ branding: null, saved: () => {} });

export function BrandingProvider({ children }: { children: ComponentChildren }) {
  const [branding, setBranding] = useState<Branding | null>(null);
  useEffect(() => {
    // The header keeps the default name when the branding cannot be read.
    admin.get<Branding>('/settings/branding').then((r) => setBranding(r.data), () => {});
  }, []);
  return <BrandingContext.Provider value={{ branding, saved: setBranding }}>{children}</BrandingContext.Provider>;
}

export function useBranding(): BrandingState {
  return useContext(BrandingContext);
}

/** The console header's mark: the logo (when there is one) and "<name> console". */
export function ConsoleBrand() {
  const { branding } = useBranding();
  return (
    <a class="brand" href="/admin">
      {branding?.logo && <img class="brand-logo" src={branding.logo} alt="" />}
      <span class="brand-name">{branding?.name ?? 'Hostcloud'}</span> console
    </a>
  );
}
