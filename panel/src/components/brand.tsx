// The brand mark: the logo (when there is one) and the name, linked to the overview or not.
import { Fragment } from 'preact';
import { BRAND } from '../branding.ts';

export function BrandMark({ href, tag = 'span' }: { href?: string; tag?: 'span' | 'p' }) {
  const inner = (
    <>
      {BRAND.logo_url && <img class="brand-logo" src={BRAND.logo_url} alt="" />}
      <span class="brand-name">{BRAND.name}</span>
    </>
  );
  if (href) return <a class="brand" href={href}>{inner}</a>;
  const Tag = tag;
  return <Tag class="brand">{inner}</Tag>;
}

/** Support, terms and privacy links, where the branding gives them. */
export function BrandLinks() {
  const links = [
    BRAND.support_url ? { href: BRAND.support_url, label: 'Support' } : BRAND.support_email ? { href: `mailto:${BRAND.support_email}`, label: 'Support' } : null,
    BRAND.terms_url ? { href: BRAND.terms_url, label: 'Terms' } : null,
    BRAND.privacy_url ? { href: BRAND.privacy_url, label: 'Privacy' } : null,
  ].filter((l): l is { href: string; label: string } => l !== null);
  if (links.length === 0) return null;
  return (
    <p class="brand-links muted">
      {links.map((l, i) => <Fragment key={l.label}>{i > 0 && ' · '}<a href={l.href} rel="noopener noreferrer" target={l.href.startsWith('mailto:') ? undefined : '_blank'}>{l.label}</a></Fragment>)}
    </p>
  );
}
