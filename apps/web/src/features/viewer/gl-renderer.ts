import type { Scene } from '@cadcloud/cad/scene';

const VS = `#version 300 es
in vec2 a_pos;
in vec4 a_color;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
out vec4 v_color;
void main() {
  gl_Position = vec4(a_pos * u_scale + u_offset, 0.0, 1.0);
  gl_PointSize = 2.0;
  vec3 c = a_color.rgb;
  // ACI 7 is white on a dark background and black on a light one, as in every CAD viewer
  if (u_light > 0.5 && c.r > 0.93 && c.g > 0.93 && c.b > 0.93) c = vec3(0.0);
  v_color = vec4(c, 1.0);
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
    const p = gl.createProgram()!;
    gl.attachShader(p, compile(gl.VERTEX_SHADER, VS));
    gl.attachShader(p, compile(gl.FRAGMENT_SHADER, FS));
    gl.bindAttribLocation(p, 0, 'a_pos');
    gl.bindAttribLocation(p, 1, 'a_color');
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p) ?? 'link');
    this.program = p;
    this.u = { scale: gl.getUniformLocation(p, 'u_scale')!, offset: gl.getUniformLocation(p, 'u_offset')!, light: gl.getUniformLocation(p, 'u_light')! };
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
    this.scene = scene;
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

  render(view: View, visible: Set<number>, light: boolean) {
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
    gl.bindVertexArray(this.lineVao);
    for (const [first, count] of this.runs(this.scene.meta.lineRanges, visible)) {
      gl.drawArrays(gl.LINES, first, count);
      this.drawCalls++;
    }
    gl.bindVertexArray(null);
  }

  dispose() {
    for (const b of this.buffers) this.gl.deleteBuffer(b);
    this.buffers = [];
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
