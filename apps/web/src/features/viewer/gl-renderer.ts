import type { Scene, SceneArrayKey } from '@cadcloud/cad/scene';
import { COLOR_FS, INK_GLSL, linkProgram, TIER_GLSL } from './gl-program.ts';
import { fillRows, LayerMask, rowTexture } from './gl-textures.ts';
import { GlImages } from './gl-images.ts';
import { GlCurves } from './gl-curves.ts';
import { GlBlocks, type BlockFrame } from './gl-blocks.ts';
import { GlSnapshot } from './gl-snapshot.ts';

const INK = INK_GLSL + TIER_GLSL;

// Positions are vertex attributes (x y per vertex); a segment's or triangle's colour is read from a texture by its
// number (gl_VertexID / 2 or / 3), so colours are stored once per primitive. Not instanced: software rasterisers
// (SwiftShader, machines without a GPU) pay a setup per instance that made 2-vertex instances 7× slower.
const TEXEL = `
uniform int u_w;
ivec2 texel(int i) { return ivec2(i % u_w, i / u_w); }`;
const SEG_VS = `#version 300 es
in vec2 a_pos;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
uniform highp sampler2D u_colors;
uniform int u_per;
out vec4 v_color;
${TEXEL}
${INK}
void main() {
  vec4 c = texelFetch(u_colors, texel(gl_VertexID / u_per), 0);
  gl_Position = vec4(a_pos * u_scale + u_offset, tierZ(alphaTier(c.a)), 1.0);
  gl_PointSize = 2.0;
  v_color = ink(c, u_light);
}`;
// Lineweight display: each segment is an instance drawn as a screen-space quad of its width (WebGL lines
// are always 1 px); its ends come from the same position buffer, read as instance data.
const WIDE_VS = `#version 300 es
in vec2 a_corner;
in vec2 a_p0;
in vec2 a_p1;
in float a_weight;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform vec2 u_half;
uniform float u_light;
uniform float u_pxPerMm;
uniform highp sampler2D u_colors;
uniform int u_base;
out vec4 v_color;
${TEXEL}
${INK}
void main() {
  vec2 s0 = (a_p0 * u_scale + u_offset) * u_half;
  vec2 s1 = (a_p1 * u_scale + u_offset) * u_half;
  vec2 d = s1 - s0;
  float len = length(d);
  vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
  vec2 n = vec2(-dir.y, dir.x);
  float w = max(a_weight * 0.01 * u_pxPerMm, 1.0) * 0.5;
  vec2 p = mix(s0, s1, a_corner.x) + n * a_corner.y * w + dir * (a_corner.x * 2.0 - 1.0) * w;
  vec4 c = texelFetch(u_colors, texel(u_base + gl_InstanceID), 0);
  gl_Position = vec4(p / u_half, tierZ(alphaTier(c.a)), 1.0);
  v_color = ink(c, u_light);
}`;
// Glyphs: one draw per glyph mesh covers all its characters, vertex k of character i being gl_VertexID = i·n + k;
// the mesh vertex and the character's placement, layer and colour are read from textures. A character of a
// hidden layer is moved outside the clip volume. The layer float holds the depth tier too: layer + tier · 65536.
const GLYPH_VS = `#version 300 es
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
uniform highp sampler2D u_mesh;
uniform highp sampler2D u_inst;
uniform highp usampler2D u_visible;
uniform int u_meshFirst;
uniform int u_meshCount;
uniform int u_instFirst;
out vec4 v_color;
${TEXEL}
${INK}
void main() {
  int i = gl_VertexID / u_meshCount;
  vec2 g = texelFetch(u_mesh, texel(u_meshFirst + gl_VertexID - i * u_meshCount), 0).xy;
  int at = (u_instFirst + i) * 2;
  vec4 m = texelFetch(u_inst, texel(at), 0);
  vec4 t = texelFetch(u_inst, texel(at + 1), 0);
  uint packed = uint(t.z), rgb = uint(t.w);
  uint layer = packed & 65535u;
  uint on = texelFetch(u_visible, ivec2(int(layer & 255u), int(layer >> 8u)), 0).r;
  vec2 p = vec2(m.x * g.x + m.z * g.y, m.y * g.x + m.w * g.y) + t.xy;
  gl_Position = on == 0u ? vec4(2.0, 2.0, 2.0, 1.0) : vec4(p * u_scale + u_offset, tierZ(float(packed >> 16u)), 1.0);
  v_color = ink(vec4(float((rgb >> 16u) & 255u), float((rgb >> 8u) & 255u), float(rgb & 255u), 255.0) / 255.0, u_light);
}`;

const FS = COLOR_FS;

export interface View {
  /** view centre in scene coordinates (relative to the scene origin) */
  cx: number;
  cy: number;
  /** CSS pixels per drawing unit */
  ppu: number;
}

const UNIFORMS = ['scale', 'offset', 'light', 'half', 'pxPerMm', 'colors', 'per', 'w', 'base', 'mesh', 'inst', 'visible', 'meshFirst', 'meshCount', 'instFirst'] as const;
type Uniforms = Record<(typeof UNIFORMS)[number], WebGLUniformLocation | null>;
type Program = { p: WebGLProgram; u: Uniforms };

/** texture units */
const T_LINE_COLORS = 0, T_TRI_COLORS = 1, T_GLYPH_LINES = 2, T_GLYPH_TRIS = 3, T_INSTANCES = 4, T_VISIBLE = 5;

/**
 * Draws a compiled scene with WebGL2: positions as vertex buffers, per-primitive data as textures, each uploaded
 * once (thin and wide lines share the position buffer and the colour texture). Each frame is a uniform update and
 * one draw call per run of visible layers, plus one or two per glyph mesh. Pan and zoom never touch the data. The
 * scene's arrays stay with the caller (picking and snapping read the positions); the renderer keeps only GL objects.
 */
export class GlRenderer {
  private gl: WebGL2RenderingContext;
  private seg: Program;
  /** compiled on first use: a first frame needs only the programs it draws with (each costs ms on software GL) */
  private programs: Partial<Record<'wide' | 'glyph', Program>> = {};
  private link: (vs: string, attribs: Record<string, number>) => Program;
  private lineVao: WebGLVertexArrayObject | null = null;
  private triVao: WebGLVertexArrayObject | null = null;
  private wideVao: WebGLVertexArrayObject | null = null;
  private lineBuf: { pos: WebGLBuffer; wt: WebGLBuffer } | null = null;
  private buffers: WebGLBuffer[] = [];
  private textures: WebGLTexture[] = [];
  /** layer visibility for the glyph and block shaders */
  private mask: LayerMask;
  /** texels per texture row */
  private w: number;
  /** what render() needs of the scene: ranges and glyph table, not the arrays */
  private ranges: { lines: [number, number, number][]; tris: [number, number, number][]; glyphs: [number, number, number, number, number, number][]; layers: number } | null = null;
  /** the scene whose arrays feed `fill` (the caller keeps it too: picking reads it) */
  private scene: Scene | null = null;
  /** where each array of the scene lives on the GPU: a vertex buffer, or a texture of `components` per texel */
  private gpu: Partial<Record<SceneArrayKey, { buffer: WebGLBuffer } | { unit: number; tex: WebGLTexture; components: number; format: number }>> = {};
  /** primitives that have arrived (all of them once the scene is whole) */
  private drawable = { segments: 0, triangles: 0, glyphs: 0, weights: 0 };
  drawCalls = 0;
  /** frames rendered so far (the viewer benchmark times only animation frames that drew) */
  renders = 0;
  /** of which: the last full frame drawn moved (drawSnapshot) */
  snapshots = 0;
  /** the canvas shows a snapshot, not the drawing drawn for its view */
  showingSnapshot = false;
  private snap: GlSnapshot | null = null;
  /**
   * the scene has wipeouts with depth tiers (gl-program.ts TIER_GLSL): frames clear and test depth. Off for every other
   * drawing, which draws as it did (no depth buffer traffic).
   */
  private depth = false;
  /**
   * exact curves (gl-curves.ts), pictures of IMAGE entities (gl-images.ts, textures loaded by the viewer after the first
   * frame) and instanced block meshes (gl-blocks.ts): each compiles its program when a scene first has some, since
   * every program costs a first frame milliseconds on a software rasteriser
   */
  private parts: { curves?: GlCurves; images?: GlImages; blocks?: GlBlocks } = {};
  get curves(): GlCurves {
    return (this.parts.curves ??= new GlCurves(this.gl));
  }
  get images(): GlImages {
    return (this.parts.images ??= new GlImages(this.gl));
  }
  private get blocks(): GlBlocks {
    return (this.parts.blocks ??= new GlBlocks(this.gl, this.w));
  }

  constructor(readonly canvas: HTMLCanvasElement) {
    // a depth buffer for the wipeouts' tiers (WebGL's default, asked for because it is relied on)
    const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true, depth: true });
    if (!gl) throw new Error('WebGL2 is not available');
    this.gl = gl;
    this.mask = new LayerMask(gl);
    this.w = Math.min(4096, gl.getParameter(gl.MAX_TEXTURE_SIZE) as number);
    this.link = (vs: string, attribs: Record<string, number>): Program => {
      const p = linkProgram(gl, vs, FS, attribs);
      const u = {} as Uniforms;
      for (const k of UNIFORMS) u[k] = gl.getUniformLocation(p, `u_${k}`);
      return { p, u };
    };
    this.seg = this.link(SEG_VS, { a_pos: 0 });
  }

  private get wide() {
    return (this.programs.wide ??= this.link(WIDE_VS, { a_corner: 0, a_p0: 1, a_p1: 2, a_weight: 3 }));
  }

  private get glyph() {
    return (this.programs.glyph ??= this.link(GLYPH_VS, {}));
  }

  /** A vertex buffer of `bytes`, filled now or slice by slice (`fill`). */
  private buffer(bytes: number) {
    const gl = this.gl;
    const b = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, Math.max(bytes, 4), gl.STATIC_DRAW);
    this.buffers.push(b);
    return b;
  }

  /** A texture of `texels` on `unit` in `w`-texel rows, filled slice by slice (`fill`). */
  private texture(unit: number, texels: number, internal: number) {
    const t = rowTexture(this.gl, unit, texels, this.w, internal);
    this.textures.push(t);
    return t;
  }

  /**
   * Takes a scene: GPU storage for all of it, filled now, or, for a scene still arriving (`partial`), by `fill` for
   * each slice as it comes; `setDrawable` then says how much of it is there to draw.
   */
  setScene(scene: Scene, partial = false) {
    const gl = this.gl;
    this.snap?.clear();
    for (const b of this.buffers) gl.deleteBuffer(b);
    for (const t of this.textures) gl.deleteTexture(t);
    this.buffers = [];
    this.textures = [];
    for (const v of [this.lineVao, this.triVao, this.wideVao]) if (v) gl.deleteVertexArray(v);
    const positions = (bytes: number) => {
      const v = gl.createVertexArray()!;
      gl.bindVertexArray(v);
      const b = this.buffer(bytes);
      gl.enableVertexAttribArray(0);
      gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
      return { v, b };
    };
    const lines = positions(scene.linePositions.byteLength);
    this.lineVao = lines.v;
    const tris = positions(scene.triPositions.byteLength);
    this.triVao = tris.v;

    // the lineweight display: segments as instances over the same position buffer, the quad's corners per vertex
    this.wideVao = gl.createVertexArray()!;
    gl.bindVertexArray(this.wideVao);
    this.buffer(48); // bound
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, new Float32Array([0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1]));
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
    this.lineBuf = { pos: lines.b, wt: this.buffer(scene.lineWeights.byteLength) };
    for (const a of [1, 2, 3]) {
      gl.enableVertexAttribArray(a);
      gl.vertexAttribDivisor(a, 1);
    }
    this.wideAt(0);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);

    const glyphs = scene.meta.glyphs ?? [];
    this.gpu = {
      linePositions: { buffer: lines.b },
      lineWeights: { buffer: this.lineBuf.wt },
      triPositions: { buffer: tris.b },
      lineSegmentColors: { unit: T_LINE_COLORS, tex: this.texture(T_LINE_COLORS, scene.lineSegmentColors.length / 4, gl.RGBA8), components: 4, format: gl.RGBA },
      triangleColors: { unit: T_TRI_COLORS, tex: this.texture(T_TRI_COLORS, scene.triangleColors.length / 4, gl.RGBA8), components: 4, format: gl.RGBA },
    };
    if (glyphs.length) {
      this.gpu.glyphLinePositions = { unit: T_GLYPH_LINES, tex: this.texture(T_GLYPH_LINES, scene.glyphLinePositions.length / 2, gl.RG32F), components: 2, format: gl.RG };
      this.gpu.glyphTriPositions = { unit: T_GLYPH_TRIS, tex: this.texture(T_GLYPH_TRIS, scene.glyphTriPositions.length / 2, gl.RG32F), components: 2, format: gl.RG };
      this.gpu.glyphInstances = { unit: T_INSTANCES, tex: this.texture(T_INSTANCES, scene.glyphInstances.length / 4, gl.RGBA32F), components: 4, format: gl.RGBA };
    }
    // block meshes and curve records arrive whole (first batch): drawn from then on
    if (scene.meta.blocks?.length) {
      if (partial) this.blocks.clear();
      else this.blocks.setScene(scene);
    } else this.parts.blocks?.clear();
    this.scene = scene;
    this.ranges = { lines: scene.meta.lineRanges, tris: scene.meta.triRanges, glyphs, layers: scene.meta.layers.length };
    this.mask.reset();
    this.depth = !!scene.meta.images?.some((im) => im.wipeout && im.tier);
    if (scene.meta.images?.length || this.parts.images) this.images.setScene(scene);
    if (scene.curves.length) {
      if (partial) this.curves.clear();
      else this.curves.setScene(scene);
    } else this.parts.curves?.clear();
    if (partial) this.setDrawable({ segments: 0, triangles: 0, glyphs: 0, weights: 0 });
    else {
      for (const key of Object.keys(this.gpu) as SceneArrayKey[]) this.fill(key, 0, (scene[key] as ArrayBufferView).byteLength);
      this.setDrawable(null);
    }
  }

  /** Bytes [offset, offset + length) of one of the scene's arrays have arrived: to the GPU with them. */
  fill(key: SceneArrayKey, offset: number, length: number) {
    if (key === 'curves' && this.scene && offset + length === this.scene.curves.byteLength) this.curves.setScene(this.scene);
    // the meshes come before their placements: all there once the placements are
    if (key === 'blockInstances' && this.scene && offset + length === this.scene.blockInstances.byteLength) this.blocks.setScene(this.scene);
    const g = this.gpu[key];
    const data = this.scene?.[key] as Float32Array | Uint8Array | undefined;
    if (!g || !data || !length) return;
    const gl = this.gl;
    if ('buffer' in g) {
      gl.bindBuffer(gl.ARRAY_BUFFER, g.buffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, offset, data, offset / data.BYTES_PER_ELEMENT, length / data.BYTES_PER_ELEMENT);
      gl.bindBuffer(gl.ARRAY_BUFFER, null);
    } else {
      const texel = data.BYTES_PER_ELEMENT * g.components;
      fillRows(gl, g.unit, g.tex, this.w, data, g.components, g.format, Math.floor(offset / texel), Math.floor((offset + length) / texel));
    }
  }

  /** How much of a scene still arriving can be drawn (whole primitives, with their colours); null: all of it. */
  setDrawable(p: { segments: number; triangles: number; glyphs: number; weights: number } | null) {
    const s = this.scene;
    this.drawable = p ?? { segments: s ? s.linePositions.length / 4 : 0, triangles: s ? s.triPositions.length / 6 : 0, glyphs: s ? s.glyphInstances.length / 8 : 0, weights: s ? s.lineWeights.length : 0 };
  }

  /** WebGL2 has no base instance: a wide run starting at segment `seg` re-points the instance attributes there (bound VAO). */
  private wideAt(seg: number) {
    const gl = this.gl;
    const b = this.lineBuf!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b.pos);
    gl.vertexAttribPointer(1, 2, gl.FLOAT, false, 16, seg * 16);
    gl.vertexAttribPointer(2, 2, gl.FLOAT, false, 16, seg * 16 + 8);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.wt);
    gl.vertexAttribPointer(3, 1, gl.UNSIGNED_BYTE, false, 1, seg);
  }

  /** Merged [first, count] runs of the visible layers' ranges below vertex `end`: adjacent visible layers become one draw. */
  private runs(ranges: [number, number, number][], visible: Set<number>, end: number): [number, number][] {
    const out: [number, number][] = [];
    for (const [layer, first, whole] of ranges) {
      const count = Math.min(whole, end - first);
      if (!visible.has(layer) || count <= 0) continue;
      const last = out[out.length - 1];
      if (last && last[0] + last[1] === first) last[1] += count;
      else out.push([first, count]);
    }
    return out;
  }

  /** `lineweights`: draw segments at their lineweight (CSS px per mm of lineweight, as AutoCAD's LWDISPLAY). */
  /** Keeps the frame the canvas shows now, drawn with `view`, for drawSnapshot (a copy of the canvas on the GPU). */
  takeSnapshot(view: View) {
    (this.snap ??= new GlSnapshot(this.gl)).take(view, this.canvas.clientWidth, this.canvas.clientHeight);
  }

  /**
   * The last snapshot, moved and scaled to `view`, instead of the drawing (while the user pans and zooms a drawing
   * whose frames are slow); false when there is none for the canvas's size: render then.
   */
  drawSnapshot(view: View, light: boolean): boolean {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    if (!this.snap?.fits(w, h)) return false;
    const gl = this.gl;
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    if (light) gl.clearColor(1, 1, 1, 1);
    else gl.clearColor(0.129, 0.157, 0.188, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    this.snap.draw(view, w, h);
    this.drawCalls = 1;
    this.renders++;
    this.snapshots++;
    this.showingSnapshot = true;
    return true;
  }

  render(view: View, visible: Set<number>, light: boolean, lineweights = false) {
    const gl = this.gl;
    // a snapshot shows the drawing as it was: layers, theme or lineweights may have changed since
    this.snap?.clear();
    this.showingSnapshot = false;
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    if (light) gl.clearColor(1, 1, 1, 1);
    else gl.clearColor(0.129, 0.157, 0.188, 1);
    const depth = this.depth;
    gl.clear(depth ? gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT : gl.COLOR_BUFFER_BIT);
    this.drawCalls = 0;
    this.renders++;
    const r = this.ranges;
    if (!r || !w || !h) return;
    const sx = (2 * view.ppu) / w, sy = (2 * view.ppu) / h;
    const use = (prog: Program) => {
      gl.useProgram(prog.p);
      gl.uniform2f(prog.u.scale, sx, sy);
      gl.uniform2f(prog.u.offset, -view.cx * sx, -view.cy * sy);
      gl.uniform1f(prog.u.light, light ? 1 : 0);
      gl.uniform1i(prog.u.w, this.w);
    };

    // pictures first: everything else lies over them; wipeouts write their tiers' depth, which the rest is tested against
    if (this.parts.images) this.drawCalls += this.parts.images.draw(sx, sy, -view.cx * sx, -view.cy * sy, visible, light, depth);
    if (depth) {
      gl.enable(gl.DEPTH_TEST);
      gl.depthFunc(gl.LEQUAL);
      // primitives only test: tiers order a primitive against the wipeouts, not against other primitives
      gl.depthMask(false);
    }

    use(this.seg);
    gl.uniform1i(this.seg.u.colors, T_TRI_COLORS);
    gl.uniform1i(this.seg.u.per, 3);
    gl.bindVertexArray(this.triVao);
    for (const [first, count] of this.runs(r.tris, visible, this.drawable.triangles * 3)) {
      gl.drawArrays(gl.TRIANGLES, first, count);
      this.drawCalls++;
    }
    const blockFrame: BlockFrame = {
      scale: [sx, sy], offset: [-view.cx * sx, -view.cy * sy], light, wide: lineweights, half: [this.canvas.width / 2, this.canvas.height / 2], pxPerMm: (96 / 25.4) * dpr,
      visibility: () => {
        this.mask.bind(T_VISIBLE, visible, r.layers);
        return T_VISIBLE;
      },
    };
    if (visible.size && this.parts.blocks) this.drawCalls += this.parts.blocks.draw('tris', blockFrame);

    if (lineweights) {
      use(this.wide);
      gl.uniform1i(this.wide.u.colors, T_LINE_COLORS);
      gl.uniform2f(this.wide.u.half, this.canvas.width / 2, this.canvas.height / 2);
      gl.uniform1f(this.wide.u.pxPerMm, (96 / 25.4) * dpr);
      gl.bindVertexArray(this.wideVao);
      for (const [first, count] of this.runs(r.lines, visible, Math.min(this.drawable.segments, this.drawable.weights) * 2)) {
        // vertex `first` is segment first/2: instance attributes and the colour lookup start there
        this.wideAt(first / 2);
        gl.uniform1i(this.wide.u.base, first / 2);
        gl.drawArraysInstanced(gl.TRIANGLES, 0, 6, count / 2);
        this.drawCalls++;
      }
    } else {
      gl.uniform1i(this.seg.u.colors, T_LINE_COLORS);
      gl.uniform1i(this.seg.u.per, 2);
      gl.bindVertexArray(this.lineVao);
      for (const [first, count] of this.runs(r.lines, visible, this.drawable.segments * 2)) {
        gl.drawArrays(gl.LINES, first, count);
        this.drawCalls++;
      }
    }
    if (visible.size && this.parts.blocks) this.drawCalls += this.parts.blocks.draw('lines', blockFrame);

    if (this.parts.curves) this.drawCalls += this.parts.curves.render({ cx: view.cx, cy: view.cy, ppu: view.ppu, width: w, height: h, dpr, visible, light, lineweights });

    if (r.glyphs.length && visible.size) {
      use(this.glyph);
      this.mask.bind(T_VISIBLE, visible, r.layers);
      gl.uniform1i(this.glyph.u.visible, T_VISIBLE);
      gl.uniform1i(this.glyph.u.inst, T_INSTANCES);
      // no attributes: an empty VAO
      gl.bindVertexArray(null);
      for (const [mode, unit, firstAt, countAt] of [[gl.TRIANGLES, T_GLYPH_TRIS, 2, 3], [gl.LINES, T_GLYPH_LINES, 0, 1]] as const) {
        gl.uniform1i(this.glyph.u.mesh, unit);
        for (const g of r.glyphs) {
          // characters not yet arrived are left out
          const chars = Math.min(g[5], this.drawable.glyphs - g[4]);
          if (!g[countAt] || chars <= 0) continue;
          gl.uniform1i(this.glyph.u.meshFirst, g[firstAt]);
          gl.uniform1i(this.glyph.u.meshCount, g[countAt]);
          gl.uniform1i(this.glyph.u.instFirst, g[4]);
          gl.drawArrays(mode, 0, g[countAt] * chars);
          this.drawCalls++;
        }
      }
    }
    gl.bindVertexArray(null);
    if (depth) {
      gl.disable(gl.DEPTH_TEST);
      // the next frame's clear writes depth only through an open mask
      gl.depthMask(true);
    }
  }

  dispose() {
    this.snap?.dispose();
    this.parts.blocks?.dispose();
    this.parts.curves?.dispose();
    for (const b of this.buffers) this.gl.deleteBuffer(b);
    for (const t of this.textures) this.gl.deleteTexture(t);
    this.buffers = [];
    this.textures = [];
    this.mask.dispose();
    this.parts.images?.dispose();
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
