import type { Scene } from '@cadcloud/cad/scene';

// ACI 7 is white on a dark background and black on a light one, as in every CAD viewer (both vertex shaders)
const INK = `
vec4 ink(vec4 color, float light) {
  vec3 c = color.rgb;
  if (light > 0.5 && c.r > 0.93 && c.g > 0.93 && c.b > 0.93) c = vec3(0.0);
  return vec4(c, 1.0);
}`;

const VS = `#version 300 es
in vec2 a_pos;
in vec4 a_color;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
out vec4 v_color;
${INK}
void main() {
  gl_Position = vec4(a_pos * u_scale + u_offset, 0.0, 1.0);
  gl_PointSize = 2.0;
  v_color = ink(a_color, u_light);
}`;
// Lineweight display: each segment is an instance drawn as a screen-space quad of its width (WebGL lines
// are always 1 px). The segment's two vertices are read straight from the line buffer as instance data.
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

/**
 * Draws a compiled scene with WebGL2: two vertex buffers (lines, triangles) uploaded once, then each frame
 * is one uniform update and one draw call per run of visible layers. Pan and zoom never touch the buffers.
 */
export class GlRenderer {
  private gl: WebGL2RenderingContext;
  private program: WebGLProgram;
  private lineVao: WebGLVertexArrayObject | null = null;
  private triVao: WebGLVertexArrayObject | null = null;
  private buffers: WebGLBuffer[] = [];
  private scene: Scene | null = null;
  private u: { scale: WebGLUniformLocation; offset: WebGLUniformLocation; light: WebGLUniformLocation };
  private wide: WebGLProgram;
  private wu: Record<'scale' | 'offset' | 'half' | 'light' | 'pxPerMm', WebGLUniformLocation>;
  private wideVao: WebGLVertexArrayObject | null = null;
  private wideBuffers: { pos: WebGLBuffer; col: WebGLBuffer; wt: WebGLBuffer } | null = null;
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
    const link = (vs: string, attribs: string[]) => {
      const p = gl.createProgram()!;
      gl.attachShader(p, compile(gl.VERTEX_SHADER, vs));
      gl.attachShader(p, compile(gl.FRAGMENT_SHADER, FS));
      attribs.forEach((a, i) => gl.bindAttribLocation(p, i, a));
      gl.linkProgram(p);
      if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p) ?? 'link');
      return p;
    };
    const p = link(VS, ['a_pos', 'a_color']);
    this.program = p;
    this.u = { scale: gl.getUniformLocation(p, 'u_scale')!, offset: gl.getUniformLocation(p, 'u_offset')!, light: gl.getUniformLocation(p, 'u_light')! };
    const w = link(WIDE_VS, ['a_corner', 'a_p0', 'a_p1', 'a_color', 'a_weight']);
    this.wide = w;
    this.wu = { scale: gl.getUniformLocation(w, 'u_scale')!, offset: gl.getUniformLocation(w, 'u_offset')!, half: gl.getUniformLocation(w, 'u_half')!, light: gl.getUniformLocation(w, 'u_light')!, pxPerMm: gl.getUniformLocation(w, 'u_pxPerMm')! };
  }

  setScene(scene: Scene) {
    const gl = this.gl;
    for (const b of this.buffers) gl.deleteBuffer(b);
    this.buffers = [];
    const vao = (pos: Float32Array, col: Uint8Array) => {
      const v = gl.createVertexArray()!;
      gl.bindVertexArray(v);
      const pb = gl.createBuffer()!;
      gl.bindBuffer(gl.ARRAY_BUFFER, pb);
      gl.bufferData(gl.ARRAY_BUFFER, pos, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(0);
      gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
      const cb = gl.createBuffer()!;
      gl.bindBuffer(gl.ARRAY_BUFFER, cb);
      gl.bufferData(gl.ARRAY_BUFFER, col, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(1);
      gl.vertexAttribPointer(1, 4, gl.UNSIGNED_BYTE, true, 0, 0);
      this.buffers.push(pb, cb);
      gl.bindVertexArray(null);
      return v;
    };
    this.lineVao = vao(scene.linePositions, scene.lineColors);
    this.triVao = vao(scene.triPositions, scene.triColors);
    this.wideVao = this.wideLines(scene);
    this.scene = scene;
  }

  /** Instance layout over the same line data: a_p0/a_p1 from the positions (16 bytes per segment), the first vertex's colour, the weight. */
  private wideLines(scene: Scene): WebGLVertexArrayObject {
    const gl = this.gl;
    const v = gl.createVertexArray()!;
    gl.bindVertexArray(v);
    const corner = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, corner);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1]), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
    const upload = (data: ArrayBufferView) => {
      const b = gl.createBuffer()!;
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      return b;
    };
    const pos = upload(scene.linePositions), col = upload(scene.lineColors), wt = upload(scene.lineWeights);
    for (const a of [1, 2, 3, 4]) {
      gl.enableVertexAttribArray(a);
      gl.vertexAttribDivisor(a, 1);
    }
    this.wideBuffers = { pos, col, wt };
    this.bindWideAt(0);
    this.buffers.push(corner, pos, col, wt);
    gl.bindVertexArray(null);
    return v;
  }

  /** WebGL2 has no base instance: a run starting at segment `seg` re-points the instance attributes there. */
  private bindWideAt(seg: number) {
    const gl = this.gl;
    const b = this.wideBuffers!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b.pos);
    gl.vertexAttribPointer(1, 2, gl.FLOAT, false, 16, seg * 16);
    gl.vertexAttribPointer(2, 2, gl.FLOAT, false, 16, seg * 16 + 8);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.col);
    gl.vertexAttribPointer(3, 4, gl.UNSIGNED_BYTE, true, 8, seg * 8);
    gl.bindBuffer(gl.ARRAY_BUFFER, b.wt);
    gl.vertexAttribPointer(4, 1, gl.UNSIGNED_BYTE, false, 1, seg);
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
    if (!this.scene || !w || !h) return;
    gl.useProgram(this.program);
    const sx = (2 * view.ppu) / w, sy = (2 * view.ppu) / h;
    gl.uniform2f(this.u.scale, sx, sy);
    gl.uniform2f(this.u.offset, -view.cx * sx, -view.cy * sy);
    gl.uniform1f(this.u.light, light ? 1 : 0);
    gl.bindVertexArray(this.triVao);
    for (const [first, count] of this.runs(this.scene.meta.triRanges, visible)) {
      gl.drawArrays(gl.TRIANGLES, first, count);
      this.drawCalls++;
    }
    if (lineweights) {
      gl.useProgram(this.wide);
      gl.uniform2f(this.wu.scale, sx, sy);
      gl.uniform2f(this.wu.offset, -view.cx * sx, -view.cy * sy);
      gl.uniform2f(this.wu.half, this.canvas.width / 2, this.canvas.height / 2);
      gl.uniform1f(this.wu.light, light ? 1 : 0);
      gl.uniform1f(this.wu.pxPerMm, (96 / 25.4) * dpr);
      gl.bindVertexArray(this.wideVao);
      for (const [first, count] of this.runs(this.scene.meta.lineRanges, visible)) {
        // vertex `first` is segment first/2: instanced attributes start there
        this.bindWideAt(first / 2);
        gl.drawArraysInstanced(gl.TRIANGLES, 0, 6, count / 2);
        this.drawCalls++;
      }
    } else {
      gl.bindVertexArray(this.lineVao);
      for (const [first, count] of this.runs(this.scene.meta.lineRanges, visible)) {
        gl.drawArrays(gl.LINES, first, count);
        this.drawCalls++;
      }
    }
    gl.bindVertexArray(null);
  }

  dispose() {
    for (const b of this.buffers) this.gl.deleteBuffer(b);
    this.buffers = [];
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
