/** Texts of the web app's viewer (namespace `viewer`). Keys by area, never English sentences. */
export const viewer = {
  zh: { 'viewer.title': '图纸查看' },
  en: { 'viewer.title': 'Drawing viewer' },
  ko: { 'viewer.title': '도면 보기' },
  de: { 'viewer.title': 'Zeichnungsansicht' },
};
