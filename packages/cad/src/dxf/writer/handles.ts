import type { Drawing, Entity } from '../../model/drawing.ts';

/**
 * Handles of the written file. Every handle the drawing already has is kept (entities, blocks and their
 * records, layers, linetypes, text and dimension styles, image definitions, layouts), so whatever points to
 * them still does; records the writer makes itself get new handles above the highest one kept. A handle met
 * twice (a damaged file) is kept by its first holder, the next gets a new one.
 */
export class Handles {
  private readonly used = new Set<string>();
  private next: number;

  constructor(d: Drawing) {
    let max = 0;
    const see = (h: string | undefined) => {
      if (!h || !/^[0-9A-Fa-f]{1,16}$/.test(h)) return;
      const n = parseInt(h, 16);
      if (n > max && n < Number.MAX_SAFE_INTEGER) max = n;
    };
    const walk = (es: Entity[]) => {
      for (const e of es) {
        see(e.handle);
        if (e.children) walk(e.children);
      }
    };
    walk(d.entities);
    for (const b of d.blocks) {
      see(b.handle);
      see(b.recordHandle);
      walk(b.entities);
    }
    for (const x of [...d.layers, ...d.linetypes, ...d.textStyles, ...(d.dimStyles ?? [])]) see(x.handle);
    for (const h of Object.keys(d.imageDefs ?? {})) see(h);
    for (const l of d.layouts) see(layoutHandle(l.pairs));
    this.next = Math.max(max + 1, 0x20);
  }

  /** `h` when it is a handle not yet taken, else a new one */
  keep(h: string | undefined): string {
    if (h && /^[0-9A-Fa-f]{1,16}$/.test(h)) {
      const up = h.toUpperCase();
      if (!this.used.has(up)) {
        this.used.add(up);
        return up;
      }
    }
    return this.fresh();
  }

  fresh(): string {
    const h = (this.next++).toString(16).toUpperCase();
    this.used.add(h);
    return h;
  }

  has(h: string): boolean {
    return this.used.has(h.toUpperCase());
  }

  /** $HANDSEED: above every handle written */
  seed(): string {
    return this.next.toString(16).toUpperCase();
  }
}

export function layoutHandle(pairs: readonly (readonly [number, string | number])[] | undefined): string | undefined {
  const h = pairs?.find((p) => p[0] === 5)?.[1];
  return h === undefined ? undefined : String(h);
}
