import type PDFDocument from 'pdfkit';
import { collate } from '../collate.ts';

/**
 * Drawing layers as PDF layers: one optional content group (OCG) per layer, named as the layer (PDF text strings,
 * so CJK names survive), listed in the catalogue's /OCProperties and switched on by default. PDFKit has no API for
 * them, so the objects are written as raw dictionaries and the content is marked `/OC /Name BDC … EMC` (PDF 1.5, 8.11).
 */
export class PdfLayers {
  private readonly groups = new Map<string, { key: string; ref: PDFKitRef }>();

  constructor(private readonly doc: PDFDocument) {}

  /** The resource name of a layer's group on the current page (the group is made on first use). */
  use(layer: string): string {
    let g = this.groups.get(layer);
    if (!g) {
      const ref = this.doc.ref({ Type: 'OCG', Name: new String(layer) });
      ref.end();
      g = { key: `OC${this.groups.size + 1}`, ref };
      this.groups.set(layer, g);
    }
    const res = this.doc.page.resources.data as { Properties?: Record<string, PDFKitRef> };
    (res.Properties ??= {})[g.key] = g.ref;
    return g.key;
  }

  /** Writes the catalogue entry: every group, all on, listed by name. */
  finish() {
    if (!this.groups.size) return;
    const sorted = [...this.groups.entries()].sort((a, b) => collate(a[0], b[0]));
    const refs = sorted.map(([, g]) => g.ref);
    this.doc._root.data.OCProperties = { OCGs: refs, D: { Name: new String('Layers'), Order: refs, ON: refs, OFF: [], BaseState: 'ON' } };
  }
}

/** An indirect object PDFKit writes at the end */
export interface PDFKitRef {
  data: Record<string, unknown>;
  end(data?: unknown): void;
}
