// CJK fallback fonts shipped with the app (split by unicode-range: a browser fetches only the pieces a page uses)
import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-sans-kr/400.css';

/**
 * Chromium keeps text that was shaped while a fallback font piece was still loading as empty boxes, even after
 * the piece arrives (seen on machines without system CJK fonts). Flipping `text-rendering` after each burst of
 * font loads makes it shape that text again; the two values look the same.
 */
export function reshapeWhenFontsLoad(doc: Document = document) {
  if (!doc.fonts?.addEventListener) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  doc.fonts.addEventListener('loadingdone', () => {
    clearTimeout(timer);
    timer = setTimeout(() => doc.documentElement.classList.toggle('fonts-reshape'), 50);
  });
}
