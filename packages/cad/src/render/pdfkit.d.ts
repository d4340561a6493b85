// The part of pdfkit 0.20 the PDF renderer uses (the package ships no types; @types/pdfkit is not pinned in STACK.md).
declare module 'pdfkit' {
  interface PDFDocumentOptions {
    size?: [number, number] | string;
    margin?: number;
    compress?: boolean;
    autoFirstPage?: boolean;
    info?: Record<string, string | Date>;
    /** the default font, Helvetica unless given; null: none */
    font?: string | null;
  }
  class PDFDocument {
    constructor(options?: PDFDocumentOptions);
    on(event: 'data', cb: (chunk: Buffer) => void): this;
    on(event: 'end', cb: () => void): this;
    on(event: 'error', cb: (e: Error) => void): this;
    end(): void;
    save(): this;
    restore(): this;
    rect(x: number, y: number, w: number, h: number): this;
    moveTo(x: number, y: number): this;
    lineTo(x: number, y: number): this;
    bezierCurveTo(cp1x: number, cp1y: number, cp2x: number, cp2y: number, x: number, y: number): this;
    closePath(): this;
    lineWidth(w: number): this;
    lineCap(c: 'butt' | 'round' | 'square'): this;
    lineJoin(j: 'miter' | 'round' | 'bevel'): this;
    strokeColor(c: string): this;
    fillColor(c: string): this;
    stroke(color?: string): this;
    fill(colorOrRule?: string, rule?: string): this;
    fillAndStroke(fill?: string, stroke?: string, rule?: string): this;
    rotate(angle: number, opts?: { origin?: [number, number] }): this;
    transform(m11: number, m12: number, m21: number, m22: number, dx: number, dy: number): this;
    clip(rule?: string): this;
    image(src: Buffer, x: number, y: number, opts?: { width?: number; height?: number }): this;
    font(name: string): this;
    fontSize(size: number): this;
    widthOfString(s: string): number;
    text(s: string, x: number, y: number, opts?: { lineBreak?: boolean; baseline?: string }): this;
    addPage(opts?: { size?: [number, number] | string; margin?: number }): this;
    /** raw content-stream operators on the current page */
    /** a string gets a line end and is converted by pdfkit (in JavaScript, a character at a time); bytes are written as they are */
    addContent(data: string | Uint8Array): this;
    /** a new indirect object, written when ended */
    ref(data?: Record<string, unknown>): { data: Record<string, unknown>; end(data?: unknown): void };
    outline: { addItem(title: string, opts?: { expanded?: boolean }): unknown };
    page: { width: number; height: number; fonts: Record<string, unknown>; resources: { data: Record<string, unknown> } };
    /** internals the text and layer writers use: the document catalogue and the current font */
    _root: { data: Record<string, unknown> };
    _font: unknown;
    font(src: Buffer, family?: string): this;
  }
  export default PDFDocument;
}
