// The installation's branding, as the page that loaded this script carries it (a JSON data block
// the server writes at each page load: no request). Its primary colour becomes the --brand custom
// property every style uses; the name and logo head the pages.
export interface Brand {
  name: string;
  primary_color: string;
  logo_url: string | null;
  support_email: string | null;
  support_url: string | null;
  terms_url: string | null;
  privacy_url: string | null;
}

const DEFAULT: Brand = {
  name: 'Hostcloud', primary_color: '#1f5fbf', logo_url: null, support_email: null, support_url: null, terms_url: null, privacy_url: null,
};

function read(): Brand {
  const el = typeof document === 'undefined' ? null : document.getElementById('hc-branding');
  if (!el?.textContent) return DEFAULT;
  try {
    return { ...DEFAULT, ...(JSON.parse(el.textContent) as Partial<Brand>) };
  } catch {
    return DEFAULT;
  }
}

export const BRAND: Brand = read();

/** #rrggbb mixed with black (share 0..1), for hover states. */
function darker(hex: string, share: number): string {
  const n = parseInt(hex.slice(1), 16);
  const c = [n >> 16, (n >> 8) & 255, n & 255].map((v) => Math.round(v * (1 - share)).toString(16).padStart(2, '0'));
  return `#${c.join('')}`;
}

/** Sets --brand and --brand-dark on the document (CSSOM: allowed by the page's style-src 'self'). */
export function applyBrand(): void {
  if (!/^#[0-9a-f]{6}$/i.test(BRAND.primary_color)) return;
  const root = document.documentElement.style;
  root.setProperty('--brand', BRAND.primary_color);
  root.setProperty('--brand-dark', darker(BRAND.primary_color, 0.25));
}
