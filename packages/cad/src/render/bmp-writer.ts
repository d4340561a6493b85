/**
 * A BMP writer beside the decoder (bmp.ts): 24-bit BGR, rows top-down (a negative height, which Windows and every
 * reader we met accept), filled strip by strip so a big picture is never held twice as RGBA.
 */
export class BmpWriter {
  readonly bytes: Buffer;
  private readonly stride: number;
  private row = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.stride = Math.ceil((width * 3) / 4) * 4;
    const size = 54 + this.stride * height;
    const b = (this.bytes = Buffer.alloc(size));
    b.write('BM', 0, 'latin1');
    b.writeUInt32LE(size, 2);
    b.writeUInt32LE(54, 10);
    b.writeUInt32LE(40, 14); // BITMAPINFOHEADER
    b.writeInt32LE(width, 18);
    b.writeInt32LE(-height, 22); // top-down
    b.writeUInt16LE(1, 26);
    b.writeUInt16LE(24, 28);
    b.writeUInt32LE(0, 30); // BI_RGB
    b.writeUInt32LE(this.stride * height, 34);
    b.writeInt32LE(3780, 38); // 96 dpi
    b.writeInt32LE(3780, 42);
  }

  /** the next rows, RGBA (alpha composited over `background` 0xRRGGBB) */
  writeRows(rgba: Uint8Array, rows: number, background = 0xffffff) {
    const { width } = this;
    const br = (background >> 16) & 255, bg = (background >> 8) & 255, bb = background & 255;
    for (let y = 0; y < rows && this.row < this.height; y++, this.row++) {
      let o = 54 + this.row * this.stride;
      let i = y * width * 4;
      for (let x = 0; x < width; x++, i += 4, o += 3) {
        const a = rgba[i + 3];
        if (a === 255) {
          this.bytes[o] = rgba[i + 2];
          this.bytes[o + 1] = rgba[i + 1];
          this.bytes[o + 2] = rgba[i];
        } else {
          const k = a / 255;
          this.bytes[o] = Math.round(rgba[i + 2] * k + bb * (1 - k));
          this.bytes[o + 1] = Math.round(rgba[i + 1] * k + bg * (1 - k));
          this.bytes[o + 2] = Math.round(rgba[i] * k + br * (1 - k));
        }
      }
    }
  }
}
