/** Vite's `?url` imports: the asset's address on our origin (e.g. the pdf.js worker). */
declare module '*?url' {
  const url: string;
  export default url;
}
