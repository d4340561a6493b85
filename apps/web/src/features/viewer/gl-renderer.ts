import type { Scene } from '@cadcloud/cad/scene';

// ACI 7 is white on a dark background and black on a light one, as in every CAD viewer (every vertex shader)
const INK = `
vec4 ink(vec4 color, float light) {
  vec3 c = color.rgb;
  if (light > 0.5 && c.r > 0.93 && c.g > 0.93 && c.b > 0.93) c = vec3(0.0);
  return vec4(c, 1.0);
}`;

// Segments and triangles are instances: one instance carries a primitive's corners, its colour (and weight), so
// nothing is stored per vertex. A segment instance is 2 vertices (gl.LINES), a triangle instance 3.
const SEG_VS = `#version 300 es
in vec2 a_p0;
in vec2 a_p1;
in vec4 a_color;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
out vec4 v_color;
${INK}
void main() {
  vec2 p = gl_VertexID == 0 ? a_p0 : a_p1;
  gl_Position = vec4(p * u_scale + u_offset, 0.0, 1.0);
  gl_PointSize = 2.0;
  v_color = ink(a_color, u_light);
}`;
const TRI_VS = `#version 300 es
in vec2 a_p0;
in vec2 a_p1;
in vec2 a_p2;
in vec4 a_color;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
out vec4 v_color;
${INK}
void main() {
  vec2 p = gl_VertexID == 0 ? a_p0 : gl_VertexID == 1 ? a_p1 : a_p2;
  gl_Position = vec4(p * u_scale + u_offset, 0.0, 1.0);
  v_color = ink(a_color, u_light);
}`;
// Lineweight display: each segment is an instance drawn as a screen-space quad of its width (WebGL lines
// are always 1 px), from the same instance data as the thin segments.
const WIDE_VS = `#version 300 es
in vec2 a_corner;
in vec2 a_p0;
in vec2 a_p1;
in vec4 a_color;
in float a_weight;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform vec2 u_half;
uniform float u_light;
uniform float u_pxPerMm;
out vec4 v_color;
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
  gl_Position = vec4(p / u_half, 0.0, 1.0);
  v_color = ink(a_color, u_light);
}`;
// Instanced glyphs: the glyph's mesh (cap height 1) per vertex, its placement (2×2 matrix + offset), colour and
// layer per character. A character of a hidden layer is moved outside the clip volume.
const GLYPH_VS = `#version 300 es
in vec2 a_pos;
in vec4 a_m;
in vec2 a_t;
in vec4 a_color;
in uint a_layer;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
uniform highp usampler2D u_visible;
out vec4 v_color;
${INK}
void main() {
  uint on = texelFetch(u_visible, ivec2(int(a_layer & 255u), int(a_layer >> 8u)), 0).r;
  vec2 p = vec2(a_m.x * a_pos.x + a_m.z * a_pos.y, a_m.y * a_pos.x + a_m.w * a_pos.y) + a_t;
  gl_Position = on == 0u ? vec4(2.0, 2.0, 2.0, 1.0) : vec4(p * u_scale + u_offset, 0.0, 1.0);
  v_color = ink(a_color, u_light);
}`;

const FS = `#version 300 es
precision mediump float;
in vec4 v_color;
out vec4 outColor;
void main() { outColor = v_color; }`;

export interface View {
  /** view centre in scene coordinates (relative to the scene origin) */
  cx: number;
  cy: number;
  /** CSS pixels per drawing unit */
  ppu: number;
}

type Uniforms = Record<'scale' | 'offset' | 'light' | 'half' | 'pxPerMm' | 'visible', WebGLUniformLocation | null>;

/**
 * Draws a compiled scene with WebGL2: segments, triangles and glyph instances uploaded once (each array once:
 * thin and wide lines share the segment buffers), then each frame is a uniform update and one draw call per run
 * of visible layers, plus one or two per instanced glyph. Pan and zoom never touch the buffers. The scene's
 * arrays stay with the caller (picking and snapping read the positions); the renderer keeps only GL objects.
 */
export class GlRenderer {
  private gl: WebGL2RenderingContext;
  private seg: { p: WebGLProgram; u: Uniforms };
  private wide: { p: WebGLProgram; u: Uniforms };
  private tri: { p: WebGLProgram; u: Uniforms };
  private glyph: { p: WebGLProgram; u: Uniforms };
  private segVao: WebGLVertexArrayObject | null = null;
  private triVao: WebGLVertexArrayObject | null = null;
  private glyphLineVao: WebGLVertexArrayObject | null = null;
  private glyphTriVao: WebGLVertexArrayObject | null = null;
  private segBuf: { pos: WebGLBuffer; col: WebGLBuffer; wt: WebGLBuffer } | null = null;
  private triBuf: { pos: WebGLBuffer; col: WebGLBuffer } | null = null;
  private instBuf: { m: WebGLBuffer; col: WebGLBuffer; layer: WebGLBuffer } | null = null;
  private visTex: WebGLTexture | null = null;
  private visKey = '';
  private buffers: WebGLBuffer[] = [];
  /** what render() needs of the scene: ranges and glyph table, not the arrays */
  private ranges: { lines: [number, number, number][]; tris: [number, number, number][]; glyphs: [number, number, number, number, number, number][]; layers: number } | null = null;
  drawCalls = 0;

  constructor(readonly canvas: HTMLCanvasElement) {
    const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error('WebGL2 is not available');
    this.gl = gl;
    const compile = (type: number, src: string) => {
      const s = gl.createShader(type)!;
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s) ?? 'shader');
      return s;
    };
    const link = (vs: string, attribs: Record<string, number>) => {
      const p = gl.createProgram()!;
      gl.attachShader(p, compile(gl.VERTEX_SHADER, vs));
      gl.attachShader(p, compile(gl.FRAGMENT_SHADER, FS));
      for (const [a, i] of Object.entries(attribs)) gl.bindAttribLocation(p, i, a);
      gl.linkProgram(p);
      if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p) ?? 'link');
      const u = {} as Uniforms;
      for (const k of ['scale', 'offset', 'light', 'half', 'pxPerMm', 'visible'] as const) u[k] = gl.getUniformLocation(p, `u_${k}`);
      return { p, u };
    };
    // one attribute layout for thin and wide segments, so both draw from one VAO
    this.seg = link(SEG_VS, { a_p0: 0, a_p1: 1, a_color: 2 });
    this.wide = link(WIDE_VS, { a_p0: 0, a_p1: 1, a_color: 2, a_weight: 3, a_corner: 4 });
    this.tri = link(TRI_VS, { a_p0: 0, a_p1: 1, a_color: 2, a_p2: 3 });
    this.glyph = link(GLYPH_VS, { a_pos: 0, a_m: 1, a_t: 2, a_color: 3, a_layer: 4 });
  }

  private upload(data: ArrayBufferView) {
    const gl = this.gl;
    const b = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    this.buffers.push(b);
    return b;
  }

  setScene(scene: Scene) {
    const gl = this.gl;
    for (const b of this.buffers) gl.deleteBuffer(b);
    this.buffers = [];
    for (const v of [this.segVao, this.triVao, this.glyphLineVao, this.glyphTriVao]) if (v) gl.deleteVertexArray(v);
    const instanced = (locs: number[]) => {
      for (const a of locs) {
        gl.enableVertexAttribArray(a);
        gl.vertexAttribDivisor(a, 1);
      }
    };

    // segments: positions (16 bytes a segment), colour, weight per instance; the wide quad's corners per vertex
    this.segVao = gl.createVertexArray()!;
    gl.bindVertexArray(this.segVao);
    this.segBuf = { pos: this.upload(scene.linePositions), col: this.upload(scene.lineSegmentColors), wt: this.upload(scene.lineWeights) };
    instanced([0, 1, 2, 3]);
    this.upload(new Float32Array([0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1]));
    gl.enableVertexAttribArray(4);
    gl.vertexAttribPointer(4, 2, gl.FLOAT, false, 0, 0);
    this.segAt(0);

    this.triVao = gl.createVertexArray()!;
    gl.bindVertexArray(this.triVao);
    this.triBuf = { pos: this.upload(scene.triPositions), col: this.upload(scene.triangleColors) };
    instanced([0, 1, 2, 3]);
    this.triAt(0);

    // glyphs: two VAOs (line mesh, triangle mesh) over the same instance buffers
    const glyphs = scene.meta.glyphs ?? [];
    this.glyphLineVao = this.glyphTriVao = null;
    if (glyphs.length) {
      this.instBuf = { m: this.upload(scene.glyphInstances), col: this.upload(scene.glyphInstanceColors), layer: this.upload(scene.glyphInstanceLayers) };
      const meshVao = (mesh: Float32Array) => {
        const v = gl.createVertexArray()!;
        gl.bindVertexArray(v);
        this.upload(mesh);
        gl.enableVertexAttribArray(0);
        gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
        instanced([1, 2, 3, 4]);
        this.instAt(0);
        return v;
      };
      this.glyphLineVao = meshVao(scene.glyphLinePositions);
      this.glyphTriVao = meshVao(scene.glyphTriPositions);
    }
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    this.ranges = { lines: scene.meta.lineRanges, tris: scene.meta.triRanges, glyphs, layers: scene.meta.layers.length };
    this.visKey = '';
  }

  /** WebGL2 has no base instance: a run starting at segment `seg` re-points the instance attributes there (bound VAO). */
  private segAt(seg: number) {
    const gl = this.gl;
    const b = this.segBuf!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b.pos);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 16, seg * 16);
    gl.vertexAttribPointer(1, 2, gl.FLOAT, false, 16, seg * 16 + 8);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.col);
    gl.vertexAttribPointer(2, 4, gl.UNSIGNED_BYTE, true, 4, seg * 4);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.wt);
    gl.vertexAttribPointer(3, 1, gl.UNSIGNED_BYTE, false, 1, seg);
  }

  private triAt(tri: number) {
    const gl = this.gl;
    const b = this.triBuf!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b.pos);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 24, tri * 24);
    gl.vertexAttribPointer(1, 2, gl.FLOAT, false, 24, tri * 24 + 8);
    gl.vertexAttribPointer(3, 2, gl.FLOAT, false, 24, tri * 24 + 16);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.col);
    gl.vertexAttribPointer(2, 4, gl.UNSIGNED_BYTE, true, 4, tri * 4);
  }

  private instAt(inst: number) {
    const gl = this.gl;
    const b = this.instBuf!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b.m);
    gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 24, inst * 24);
    gl.vertexAttribPointer(2, 2, gl.FLOAT, false, 24, inst * 24 + 16);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.col);
    gl.vertexAttribPointer(3, 4, gl.UNSIGNED_BYTE, true, 4, inst * 4);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.layer);
    gl.vertexAttribIPointer(4, 1, gl.UNSIGNED_SHORT, 2, inst * 2);
  }

  /** Layer visibility for the glyph shader: one byte per layer in a 256-wide integer texture. */
  private visibility(visible: Set<number>) {
    const gl = this.gl;
    const n = Math.max(1, this.ranges!.layers);
    const key = [...visible].sort((a, b) => a - b).join(',') + `/${n}`;
    if (key === this.visKey && this.visTex) return;
    this.visKey = key;
    const w = 256, h = Math.ceil(n / w);
    const data = new Uint8Array(w * h);
    for (const l of visible) if (l < data.length) data[l] = 1;
    if (this.visTex) gl.deleteTexture(this.visTex);
    this.visTex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.visTex);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8UI, w, h, 0, gl.RED_INTEGER, gl.UNSIGNED_BYTE, data);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  }

  /** Merged [first, count] runs of the visible layers' ranges: adjacent visible layers become one draw. */
  private runs(ranges: [number, number, number][], visible: Set<number>): [number, number][] {
    const out: [number, number][] = [];
    for (const [layer, first, count] of ranges) {
      if (!visible.has(layer)) continue;
      const last = out[out.length - 1];
      if (last && last[0] + last[1] === first) last[1] += count;
      else out.push([first, count]);
    }
    return out;
  }

  /** `lineweights`: draw segments at their lineweight (CSS px per mm of lineweight, as AutoCAD's LWDISPLAY). */
  render(view: View, visible: Set<number>, light: boolean, lineweights = false) {
    const gl = this.gl;
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    if (light) gl.clearColor(1, 1, 1, 1);
    else gl.clearColor(0.129, 0.157, 0.188, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    this.drawCalls = 0;
    const r = this.ranges;
    if (!r || !w || !h) return;
    const sx = (2 * view.ppu) / w, sy = (2 * view.ppu) / h;
    const use = (prog: { p: WebGLProgram; u: Uniforms }) => {
      gl.useProgram(prog.p);
      gl.uniform2f(prog.u.scale, sx, sy);
      gl.uniform2f(prog.u.offset, -view.cx * sx, -view.cy * sy);
      gl.uniform1f(prog.u.light, light ? 1 : 0);
    };

    use(this.tri);
    gl.bindVertexArray(this.triVao);
    for (const [first, count] of this.runs(r.tris, visible)) {
      // vertex `first` is triangle first/3
      this.triAt(first / 3);
      gl.drawArraysInstanced(gl.TRIANGLES, 0, 3, count / 3);
      this.drawCalls++;
    }

    use(lineweights ? this.wide : this.seg);
    if (lineweights) {
      gl.uniform2f(this.wide.u.half, this.canvas.width / 2, this.canvas.height / 2);
      gl.uniform1f(this.wide.u.pxPerMm, (96 / 25.4) * dpr);
    }
    gl.bindVertexArray(this.segVao);
    for (const [first, count] of this.runs(r.lines, visible)) {
      // vertex `first` is segment first/2
      this.segAt(first / 2);
      if (lineweights) gl.drawArraysInstanced(gl.TRIANGLES, 0, 6, count / 2);
      else gl.drawArraysInstanced(gl.LINES, 0, 2, count / 2);
      this.drawCalls++;
    }

    if (r.glyphs.length && visible.size) {
      use(this.glyph);
      this.visibility(visible);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, this.visTex);
      gl.uniform1i(this.glyph.u.visible, 0);
      for (const [vao, mode, firstAt, countAt] of [[this.glyphTriVao, gl.TRIANGLES, 2, 3], [this.glyphLineVao, gl.LINES, 0, 1]] as const) {
        gl.bindVertexArray(vao);
        for (const g of r.glyphs) {
          if (!g[countAt] || !g[5]) continue;
          this.instAt(g[4]);
          gl.drawArraysInstanced(mode, g[firstAt], g[countAt], g[5]);
          this.drawCalls++;
        }
      }
    }
    gl.bindVertexArray(null);
  }

  dispose() {
    for (const b of this.buffers) this.gl.deleteBuffer(b);
    this.buffers = [];
    if (this.visTex) this.gl.deleteTexture(this.visTex);
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
