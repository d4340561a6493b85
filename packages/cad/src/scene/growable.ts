/** Typed arrays that grow by doubling: the compiler writes millions of vertices without per-vertex arrays. */
export class GrowableF32 {
  data = new Float32Array(1024);
  length = 0;
  push2(a: number, b: number) {
    if (this.length + 2 > this.data.length) this.grow(2);
    this.data[this.length++] = a;
    this.data[this.length++] = b;
  }
  private grow(n: number) {
    const next = new Float32Array(Math.max(this.data.length * 2, this.length + n));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /** room for `n` more values: a caller may then write `data[length …]` itself and set `length` */
  reserve(n: number) {
    if (this.length + n > this.data.length) this.grow(n);
  }
  done(): Float32Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowableU32 {
  data = new Uint32Array(512);
  length = 0;
  push(v: number) {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowableRgba {
  data = new Uint8Array(2048);
  length = 0;
  /** `count` times 0xRRGGBB with `alpha` (the viewer reads a depth tier from it: 255 - tier, scene/tiers.ts) */
  push(rgb: number, count: number, alpha = 255) {
    if (this.length + 4 * count > this.data.length) {
      const next = new Uint8Array(Math.max(this.data.length * 2, this.length + 4 * count));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    const r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
    for (let i = 0; i < count; i++) {
      this.data[this.length++] = r;
      this.data[this.length++] = g;
      this.data[this.length++] = b;
      this.data[this.length++] = alpha;
    }
  }
  done(): Uint8Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowableU8 {
  data = new Uint8Array(1024);
  length = 0;
  /** room for `n` more values (as GrowableF32.reserve) */
  reserve(n: number) {
    if (this.length + n <= this.data.length) return;
    const next = new Uint8Array(Math.max(this.data.length * 2, this.length + n));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  push(v: number) {
    if (this.length === this.data.length) {
      const next = new Uint8Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): Uint8Array {
    return this.data.slice(0, this.length);
  }
}

/** [first, value] runs: consecutive items with the same value share one run (entity ids of segments, triangles). */
export class RunBuilder {
  data = new GrowableU32();
  private last = -1;
  /** `value` for the item at `index` (indices ascending) */
  add(index: number, value: number) {
    if (value === this.last) return;
    this.data.push(index);
    this.data.push(value);
    this.last = value;
  }
}
