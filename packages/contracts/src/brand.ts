/**
 * The product's icon and web app manifest, one source for both sites: the web app emits them at build time
 * (apps/web/vite.config.ts), the login site serves them itself. A drawing sheet with a folded corner and a
 * blue arc, legible at 16 px.
 */
export const BRAND_COLOR = '#1677ff';

export const brandIconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${BRAND_COLOR}"/><path d="M17 12h22l10 10v30H17z" fill="#fff"/><path d="M39 12v10h10" fill="#cfe0ff"/><path d="M23 44a12 12 0 0 1 20-9" fill="none" stroke="${BRAND_COLOR}" stroke-width="4" stroke-linecap="round"/><path d="M23 24h10M23 31h6" stroke="${BRAND_COLOR}" stroke-width="3" stroke-linecap="round"/></svg>
`;

/** A web app manifest (what "install" and the home-screen icon use) for a site whose start page is `startUrl`. */
export function webManifest(o: { name: string; shortName: string; startUrl: string }): string {
  return `${JSON.stringify(
    {
      name: o.name,
      short_name: o.shortName,
      start_url: o.startUrl,
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: BRAND_COLOR,
      icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
    },
    null,
    2,
  )}\n`;
}
