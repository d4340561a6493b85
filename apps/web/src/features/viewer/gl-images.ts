import { adjustLinear, type Scene, type SceneImage } from '@cadcloud/cad/scene';
import { linkProgram } from './gl-program.ts';

/**
 * The pictures of IMAGE entities (and WIPEOUT masks) in the WebGL viewer, kept out of gl-renderer.ts, which only
 * calls setScene, draw and dispose. Each picture is its painted area's triangles (the clip polygon, or the
 * frame's two) with texture coordinates computed here from the frame's corners, so rotated, skewed, mirrored and
 * clipped pictures need nothing special in the shader. They are drawn first, in the drawing's order, so lines,
 * fills and text lie over them (the scene is sorted by layer and has no draw order between the two). A wipeout also
 * writes its depth tier (gl-program.ts TIER_GLSL): the passes after this one leave out what it hides.
 * Pictures arrive after the first frame (load): until then, and for a picture not in the drive, only the frame
 * (a polyline of the scene) shows.
 */

const VS = `#version 300 es
in vec2 a_pos;
in vec2 a_uv;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_z;
out vec2 v_uv;
void main() {
  gl_Position = vec4(a_pos * u_scale + u_offset, u_z, 1.0);
  v_uv = a_uv;
}`;
// IMAGEADJUST as the engine's renderers apply it (adjustLinear): a linear map of the colour and an opacity; a
// wipeout is the background colour
const FS = `#version 300 es
precision mediump float;
in vec2 v_uv;
uniform sampler2D u_tex;
uniform vec4 u_adjust;
uniform vec3 u_bg;
out vec4 outColor;
void main() {
  if (u_adjust.w > 0.5) { outColor = vec4(u_bg, 1.0); return; }
  vec4 c = texture(u_tex, v_uv);
  outColor = vec4(clamp(c.rgb * u_adjust.x + u_adjust.y, 0.0, 1.0), c.a * u_adjust.z);
}`;

/**
 * A texture unit no other pass uses (gl-renderer.ts 0–5, gl-curves.ts 6–7, gl-blocks.ts 6–13, gl-snapshot.ts 21).
 * Whatever is bound on a sampler's unit must suit the sampler at every draw, sampled or not: this pass shared unit 8
 * with the block meshes' integer layer texture, and each wipeout drawn after a frame with blocks made Chromium log
 * "glDrawArrays: Mismatch between texture format and sampler type", hundreds per frame, until "WebGL: too many errors".
 */
const UNIT = 20;
/** Largest texture side used for a picture (bigger ones are scaled down when decoded): memory of phones. */
const MAX_SIDE = 4096;
/** Pictures fetched at once. */
const PARALLEL = 4;

/** The background colours of gl-renderer.ts's clear. */
const BG_LIGHT: [number, number, number] = [1, 1, 1];
const BG_DARK: [number, number, number] = [0.129, 0.157, 0.188];

/** A picture's bytes by the file name the scene lists, or null when the drive has none (fetching is the caller's). */
export type PictureFetcher = (file: string) => Promise<Blob | null>;

interface Item {
  img: SceneImage;
  first: number;
  count: number;
}

/** Vertices (x y u v) of an image's painted area: texture coordinates by solving p = c0 + s·U + t·V, t from the top. */
export function pictureVertices(img: SceneImage): Float32Array {
  const c = img.corners;
  const ring = img.clip ?? c;
  const ux = c[2] - c[0], uy = c[3] - c[1], vx = c[6] - c[0], vy = c[7] - c[1];
  const det = ux * vy - uy * vx;
  const out = new Float32Array(img.triangles.length * 4);
  img.triangles.forEach((k, i) => {
    const x = ring[k * 2], y = ring[k * 2 + 1];
    const dx = x - c[0], dy = y - c[1];
    const s = det ? (dx * vy - dy * vx) / det : 0;
    const t = det ? (ux * dy - uy * dx) / det : 0;
    out.set([x, y, s, 1 - t], i * 4);
  });
  return out;
}

export class GlImages {
  private prog: WebGLProgram;
  private u: Record<'scale' | 'offset' | 'tex' | 'adjust' | 'bg' | 'z', WebGLUniformLocation | null>;
  private vao: WebGLVertexArrayObject | null = null;
  private buf: WebGLBuffer | null = null;
  private items: Item[] = [];
  /** textures by file name, once loaded */
  private textures = new Map<string, WebGLTexture>();
  /** bumped by every setScene: a load of an older scene uploads nothing */
  private generation = 0;

  constructor(private gl: WebGL2RenderingContext) {
    const p = linkProgram(gl, VS, FS, { a_pos: 0, a_uv: 1 });
    this.prog = p;
    this.u = { scale: gl.getUniformLocation(p, 'u_scale'), offset: gl.getUniformLocation(p, 'u_offset'), tex: gl.getUniformLocation(p, 'u_tex'), adjust: gl.getUniformLocation(p, 'u_adjust'), bg: gl.getUniformLocation(p, 'u_bg'), z: gl.getUniformLocation(p, 'u_z') };
  }

  /** The scene's pictures as one vertex buffer (cheap: a few triangles each); their textures come with load(). */
  setScene(scene: Scene) {
    const gl = this.gl;
    this.generation++;
    this.clear();
    const images = scene.meta.images ?? [];
    if (!images.length) return;
    const parts = images.map(pictureVertices);
    const data = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    images.forEach((img, i) => {
      data.set(parts[i], at);
      this.items.push({ img, first: at / 4, count: parts[i].length / 4 });
      at += parts[i].length;
    });
    this.vao = gl.createVertexArray();
    gl.bindVertexArray(this.vao);
    this.buf = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buf);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 16, 0);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 2, gl.FLOAT, false, 16, 8);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  /** The picture files the scene names, each once. */
  files(): string[] {
    return [...new Set(this.items.flatMap((it) => (it.img.file ? [it.img.file] : [])))];
  }

  /**
   * Fetches and uploads the scene's pictures, a few at a time, calling `onLoaded` after each (to redraw). Resolves
   * with the base names of those not found or not readable (the viewer lists them).
   */
  async load(fetcher: PictureFetcher, onLoaded: () => void): Promise<string[]> {
    const generation = this.generation;
    const queue = this.files();
    const missing = new Set<string>();
    const nameOf = (file: string) => this.items.find((it) => it.img.file === file)?.img.name ?? file;
    const worker = async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        let bitmap: ImageBitmap | null = null;
        try {
          const blob = await fetcher(file);
          if (blob) bitmap = await this.decode(blob);
        } catch {
          bitmap = null;
        }
        if (generation !== this.generation) {
          bitmap?.close();
          return;
        }
        if (!bitmap) {
          missing.add(nameOf(file));
          continue;
        }
        this.textures.set(file, this.upload(bitmap));
        bitmap.close();
        onLoaded();
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    return [...missing];
  }

  /** A picture decoded no larger than the texture limit (scaled down by the browser's decoder when larger). */
  private async decode(blob: Blob): Promise<ImageBitmap> {
    const max = Math.min(MAX_SIDE, this.gl.getParameter(this.gl.MAX_TEXTURE_SIZE) as number);
    const opts: ImageBitmapOptions = { premultiplyAlpha: 'none', colorSpaceConversion: 'none' };
    const b = await createImageBitmap(blob, opts);
    if (b.width <= max && b.height <= max) return b;
    const k = max / Math.max(b.width, b.height);
    const size = { resizeWidth: Math.max(1, Math.floor(b.width * k)), resizeHeight: Math.max(1, Math.floor(b.height * k)) };
    b.close();
    return createImageBitmap(blob, { ...opts, ...size, resizeQuality: 'high' });
  }

  private blank: WebGLTexture | null = null;

  /** One RGBA texel: what the sampler has on its unit when a wipeout is drawn. */
  private blankTexture(): WebGLTexture {
    if (this.blank) return this.blank;
    const gl = this.gl;
    const t = gl.createTexture()!;
    gl.activeTexture(gl.TEXTURE0 + UNIT);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array([0, 0, 0, 0]));
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    return (this.blank = t);
  }

    private upload(bitmap: ImageBitmap): WebGLTexture {
    const gl = this.gl;
    const t = gl.createTexture()!;
    gl.activeTexture(gl.TEXTURE0 + UNIT);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return t;
  }

  /**
   * Pictures and wipeouts of visible layers, in draw order; answers the number of draw calls. `depth`: the frame uses
   * depth tiers (the caller cleared the depth buffer): each wipeout writes its tier's depth over what it covers (the
   * last one drawn wins: a later overlapping wipeout's tier is never lower), pictures write none.
   */
  draw(sx: number, sy: number, ox: number, oy: number, visible: Set<number>, light: boolean, depth = false): number {
    if (!this.items.length || !this.vao) return 0;
    const gl = this.gl;
    let calls = 0;
    gl.useProgram(this.prog);
    gl.uniform2f(this.u.scale, sx, sy);
    gl.uniform2f(this.u.offset, ox, oy);
    gl.uniform3f(this.u.bg, ...(light ? BG_LIGHT : BG_DARK));
    gl.uniform1i(this.u.tex, UNIT);
    gl.activeTexture(gl.TEXTURE0 + UNIT);
    gl.bindVertexArray(this.vao);
    gl.enable(gl.BLEND);
    // the canvas keeps an opaque alpha: colour blends by the picture's alpha, alpha adds up to one
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    if (depth) {
      gl.enable(gl.DEPTH_TEST);
      gl.depthFunc(gl.ALWAYS);
    }
    gl.uniform1f(this.u.z, 1);
    for (const { img, first, count } of this.items) {
      if (!visible.has(img.layer)) continue;
      if (depth) gl.depthMask(!!img.wipeout);
      if (img.wipeout) {
        // a wipeout samples nothing, but its draw still needs a colour texture on the unit
        gl.bindTexture(gl.TEXTURE_2D, this.blankTexture());
        gl.uniform4f(this.u.adjust, 1, 0, 1, 1);
        // as tierZ in gl-program.ts
        gl.uniform1f(this.u.z, 1 - (img.tier ?? 0) / 128);
      } else {
        const tex = img.file ? this.textures.get(img.file) : undefined;
        if (!tex) continue;
        const { slope, intercept, opacity } = adjustLinear(img.adjust);
        gl.uniform4f(this.u.adjust, slope, intercept, opacity, 0);
        gl.bindTexture(gl.TEXTURE_2D, tex);
      }
      gl.drawArrays(gl.TRIANGLES, first, count);
      calls++;
    }
    gl.disable(gl.BLEND);
    if (depth) {
      gl.disable(gl.DEPTH_TEST);
      gl.depthMask(true);
    }
    gl.bindVertexArray(null);
    return calls;
  }

  private clear() {
    const gl = this.gl;
    for (const t of this.textures.values()) gl.deleteTexture(t);
    this.textures.clear();
    if (this.vao) gl.deleteVertexArray(this.vao);
    if (this.buf) gl.deleteBuffer(this.buf);
    this.vao = null;
    this.buf = null;
    this.items = [];
  }

  dispose() {
    this.generation++;
    this.clear();
    if (this.blank) this.gl.deleteTexture(this.blank);
    this.blank = null;
    this.gl.deleteProgram(this.prog);
  }
}
