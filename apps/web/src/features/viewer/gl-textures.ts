/**
 * Data textures shared by the viewer's GL passes. Scene arrays too long for vertex attributes (colours, glyph and
 * block meshes, curve records) live in textures of `w`-texel rows that the shaders read by index (texelFetch).
 */

type Data = Float32Array | Uint8Array | Uint32Array;

/** The texel type of `data` as WebGL names it. */
function typeOf(gl: WebGL2RenderingContext, data: Data) {
  return data instanceof Float32Array ? gl.FLOAT : data instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_BYTE;
}

/** An empty texture for `texels` texels in rows of `w`, bound on `unit`; throws when the device cannot hold it. */
export function rowTexture(gl: WebGL2RenderingContext, unit: number, texels: number, w: number, internal: number): WebGLTexture {
  const h = Math.max(1, Math.ceil(texels / w));
  if (h > (gl.getParameter(gl.MAX_TEXTURE_SIZE) as number)) throw new Error('drawing too large for this device');
  const t = gl.createTexture()!;
  gl.activeTexture(gl.TEXTURE0 + unit);
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texStorage2D(gl.TEXTURE_2D, 1, internal, w, h);
  return t;
}

/**
 * Texels [from, to) of `data` (`components` values each) into row texture `t`: the rest of the first row, whole
 * rows, the start of the last, straight from the array (no padding copy). A scene still arriving fills it slice by slice.
 */
export function fillRows(gl: WebGL2RenderingContext, unit: number, t: WebGLTexture, w: number, data: Data, components: number, format: number, from: number, to: number) {
  const type = typeOf(gl, data);
  gl.activeTexture(gl.TEXTURE0 + unit);
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  const put = (x: number, y: number, width: number, height: number, at: number) =>
    width > 0 && height > 0 && gl.texSubImage2D(gl.TEXTURE_2D, 0, x, y, width, height, format, type, data.subarray(at * components, (at + width * height) * components));
  let i = from;
  if (i % w && i < to) {
    const n = Math.min(w - (i % w), to - i);
    put(i % w, Math.floor(i / w), n, 1, i);
    i += n;
  }
  const rows = Math.floor((to - i) / w);
  put(0, i / w, w, rows, i);
  i += rows * w;
  put(0, i / w, to - i, 1, i);
}

/** `data` whole as a new row texture on `unit`. */
export function dataTexture(gl: WebGL2RenderingContext, unit: number, w: number, data: Data, components: number, internal: number, format: number): WebGLTexture {
  const texels = Math.floor(data.length / components);
  const t = rowTexture(gl, unit, texels, w, internal);
  fillRows(gl, unit, t, w, data, components, format, 0, texels);
  return t;
}

/**
 * Which layers are shown, for shaders that draw several layers in one call: one byte per layer, 256 layers a row,
 * uploaded again only when the set changes.
 */
export class LayerMask {
  private tex: WebGLTexture | null = null;
  private key = '';

  constructor(private gl: WebGL2RenderingContext) {}

  /** The mask of `visible` among `layers` layers, bound on `unit`. */
  bind(unit: number, visible: Set<number>, layers: number) {
    const gl = this.gl;
    const n = Math.max(1, layers);
    const key = [...visible].sort((a, b) => a - b).join(',') + `/${n}`;
    gl.activeTexture(gl.TEXTURE0 + unit);
    if (key === this.key && this.tex) {
      gl.bindTexture(gl.TEXTURE_2D, this.tex);
      return;
    }
    this.key = key;
    const h = Math.ceil(n / 256);
    const data = new Uint8Array(256 * h);
    for (const l of visible) if (l < data.length) data[l] = 1;
    this.dispose();
    this.tex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.tex);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8UI, 256, h, 0, gl.RED_INTEGER, gl.UNSIGNED_BYTE, data);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  }

  /** Forgets the texture (a new scene: the next bind uploads again). */
  dispose() {
    if (this.tex) this.gl.deleteTexture(this.tex);
    this.tex = null;
  }

  reset() {
    this.key = '';
  }
}
