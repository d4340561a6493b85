/** Texts of the web app's fonts (namespace `fonts`). Keys by area, never English sentences. */
export const fonts = {
  zh: { 'fonts.title': '字体库' },
  en: { 'fonts.title': 'Fonts' },
  ko: { 'fonts.title': '글꼴' },
  de: { 'fonts.title': 'Schriften' },
};
