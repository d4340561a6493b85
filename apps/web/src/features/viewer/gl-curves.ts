import { bucketSegments, CURVE_FLOATS, CURVE_GRID, curveTile, type Scene, type SceneCurveBucket } from '@cadcloud/cad/scene';
import { COLOR_FS, INK_GLSL, linkProgram, TIER_GLSL } from './gl-program.ts';
import { dataTexture, LayerMask } from './gl-textures.ts';

/**
 * Exact curves (scene format 4) drawn at the zoom of each frame. Records (3 RGBA32F texels: cx cy ux uy, vx vy t0
 * sweep, layer colour weight tier) are pulled from a texture by vertex number: vertex k of a draw is record
 * first + k / (n·per), segment (k mod n·per) / per, so a bucket of curves is one draw call whose segment count n
 * follows from its largest radius on screen (chord error ≤ 0.25 device px). No vertex buffers and no instancing
 * (software rasterisers pay ~11 µs per instance). A curve whose box is off screen, or whose layer is hidden, is
 * moved outside the clip volume; zoomed in, a bucket draws only the rows of tiles in view.
 */

// colours through the shared ink rule (gl-program.ts): ACI 7 white on dark, black on light
const CURVE_VS = `#version 300 es
uniform vec2 u_center;
uniform vec2 u_scale;
uniform float u_light;
uniform highp sampler2D u_rec;
uniform highp usampler2D u_visible;
uniform int u_w;
uniform int u_first;
uniform int u_n;
uniform int u_wide;
uniform vec2 u_half;
uniform float u_pxPerMm;
out vec4 v_color;
ivec2 texel(int i) { return ivec2(i % u_w, i / u_w); }
${INK_GLSL}
${TIER_GLSL}
// the point at t, relative to the view centre (the centre difference first keeps small curves exact far from the origin)
vec2 at(vec4 a, vec4 b, float t) { return (a.xy - u_center) + a.zw * cos(t) + b.xy * sin(t); }
const vec2 CORNERS[6] = vec2[6](vec2(0.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(0.0, -1.0), vec2(1.0, 1.0), vec2(0.0, 1.0));
void main() {
  int per = u_wide == 1 ? 6 : 2;
  int rec = gl_VertexID / (per * u_n);
  int k = gl_VertexID - rec * per * u_n;
  int seg = k / per;
  int corner = k - seg * per;
  int base = (u_first + rec) * 3;
  vec4 a = texelFetch(u_rec, texel(base), 0);
  vec4 b = texelFetch(u_rec, texel(base + 1), 0);
  vec4 c = texelFetch(u_rec, texel(base + 2), 0);
  uint layer = uint(c.x), rgb = uint(c.y);
  uint on = texelFetch(u_visible, ivec2(int(layer & 255u), int(layer >> 8u)), 0).r;
  float w = u_wide == 1 ? max(c.z * 0.01 * u_pxPerMm, 1.0) * 0.5 : 1.0;
  // the full ellipse's box, grown by the line's half width, against the clip volume
  vec2 ext = vec2(length(vec2(a.z, b.x)), length(vec2(a.w, b.y))) * abs(u_scale) + (w + 1.0) / u_half;
  vec2 mid = (a.xy - u_center) * u_scale;
  if (on == 0u || any(greaterThan(abs(mid) - ext, vec2(1.0)))) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    v_color = vec4(0.0);
    return;
  }
  float step = b.w / float(u_n);
  // the record's last float is its depth tier
  float z = tierZ(c.w);
  if (u_wide == 0) {
    gl_Position = vec4(at(a, b, b.z + step * float(seg + corner)) * u_scale, z, 1.0);
  } else {
    // a screen-space quad of the lineweight along the segment, square ends covering the joints (as gl-renderer's wide lines)
    vec2 s0 = at(a, b, b.z + step * float(seg)) * u_scale * u_half;
    vec2 s1 = at(a, b, b.z + step * float(seg + 1)) * u_scale * u_half;
    vec2 d = s1 - s0;
    float len = length(d);
    vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 n = vec2(-dir.y, dir.x);
    vec2 q = CORNERS[corner];
    vec2 p = mix(s0, s1, q.x) + n * q.y * w + dir * (q.x * 2.0 - 1.0) * w;
    gl_Position = vec4(p / u_half, z, 1.0);
  }
  v_color = ink(vec4(float((rgb >> 16u) & 255u), float((rgb >> 8u) & 255u), float(rgb & 255u), 255.0) / 255.0, u_light);
}`;
const FS = COLOR_FS;

const UNIFORMS = ['center', 'scale', 'light', 'rec', 'visible', 'w', 'first', 'n', 'wide', 'half', 'pxPerMm'] as const;
/** texture units (gl-renderer uses 0–5) */
const T_RECORDS = 6, T_VISIBLE = 7;
/** a bucket is culled by tiles when drawing it whole would take more vertices than this */
const CULL_MIN_VERTICES = 20_000;

export interface CurveFrame {
  /** view centre relative to the scene origin, CSS px per drawing unit */
  cx: number;
  cy: number;
  ppu: number;
  /** canvas size in CSS px and device pixel ratio */
  width: number;
  height: number;
  dpr: number;
  visible: Set<number>;
  light: boolean;
  lineweights: boolean;
}

export class GlCurves {
  private prog: WebGLProgram;
  private u = {} as Record<(typeof UNIFORMS)[number], WebGLUniformLocation | null>;
  private rec: WebGLTexture | null = null;
  private mask: LayerMask;
  private layers = 0;
  private buckets: SceneCurveBucket[] = [];
  /** tile of each record (bucket order), and whether each bucket's tiles ascend (else it is never culled) */
  private tiles = new Int32Array(0);
  private ordered: boolean[] = [];
  private grid: { bounds: Scene['meta']['bounds']; origin: [number, number] } | null = null;
  private readonly w: number;
  /** segments per curve of each bucket in the last frame (tests and the benchmark read it) */
  lastSegments: number[] = [];
  lastVertices = 0;

  constructor(private gl: WebGL2RenderingContext) {
    this.w = Math.min(4096, gl.getParameter(gl.MAX_TEXTURE_SIZE) as number);
    this.mask = new LayerMask(gl);
    const p = linkProgram(gl, CURVE_VS, FS);
    this.prog = p;
    for (const k of UNIFORMS) this.u[k] = gl.getUniformLocation(p, `u_${k}`);
  }

  setScene(scene: Scene) {
    const gl = this.gl;
    this.disposeTextures();
    const records = scene.curves ?? new Float32Array(0);
    const n = Math.floor(records.length / CURVE_FLOATS);
    this.buckets = n ? (scene.meta.curveBuckets ?? []) : [];
    this.layers = scene.meta.layers.length;
    this.grid = { bounds: scene.meta.bounds, origin: scene.meta.origin };
    this.tiles = new Int32Array(n);
    for (let i = 0; i < n; i++) this.tiles[i] = curveTile(records[i * CURVE_FLOATS], records[i * CURVE_FLOATS + 1], scene.meta.bounds, scene.meta.origin);
    this.ordered = this.buckets.map(([, , first, count]) => {
      for (let i = first + 1; i < first + count; i++) if (this.tiles[i] < this.tiles[i - 1]) return false;
      return true;
    });
    if (!n) return;
    // 3 texels per record
    this.rec = dataTexture(gl, T_RECORDS, this.w, records.subarray(0, n * CURVE_FLOATS), 4, gl.RGBA32F, gl.RGBA);
  }

  /** [first record, count] runs of bucket `b` whose tiles can hold a curve reaching the rectangle (relative to the origin). */
  private visibleRuns(b: number, x0: number, y0: number, x1: number, y1: number): [number, number][] {
    const [, , first, count, maxR] = this.buckets[b];
    const { bounds, origin } = this.grid!;
    const lo = curveTile(x0 - maxR, y0 - maxR, bounds, origin), hi = curveTile(x1 + maxR, y1 + maxR, bounds, origin);
    const c0 = lo % CURVE_GRID, r0 = Math.floor(lo / CURVE_GRID), c1 = hi % CURVE_GRID, r1 = Math.floor(hi / CURVE_GRID);
    const t = this.tiles, end = first + count;
    /** the first record of the bucket whose tile is ≥ key */
    const lower = (key: number) => {
      let a = first, z = end;
      while (a < z) {
        const m = (a + z) >> 1;
        if (t[m] < key) a = m + 1;
        else z = m;
      }
      return a;
    };
    const runs: [number, number][] = [];
    for (let r = r0; r <= r1; r++) {
      const a = lower(r * CURVE_GRID + c0), z = lower(r * CURVE_GRID + c1 + 1);
      if (z <= a) continue;
      const last = runs[runs.length - 1];
      if (last && last[0] + last[1] === a) last[1] += z - a;
      else runs.push([a, z - a]);
    }
    return runs;
  }

  /** Draws every bucket for this frame; returns the number of draw calls. */
  render(f: CurveFrame): number {
    const gl = this.gl;
    this.lastSegments = [];
    this.lastVertices = 0;
    if (!this.rec || !this.buckets.length || !f.visible.size || !f.width || !f.height) return 0;
    const sx = (2 * f.ppu) / f.width, sy = (2 * f.ppu) / f.height;
    gl.useProgram(this.prog);
    gl.uniform2f(this.u.center, f.cx, f.cy);
    gl.uniform2f(this.u.scale, sx, sy);
    gl.uniform1f(this.u.light, f.light ? 1 : 0);
    gl.uniform1i(this.u.w, this.w);
    gl.uniform1i(this.u.wide, f.lineweights ? 1 : 0);
    gl.uniform2f(this.u.half, (f.width * f.dpr) / 2, (f.height * f.dpr) / 2);
    gl.uniform1f(this.u.pxPerMm, (96 / 25.4) * f.dpr);
    // one byte per layer: the shader hides the records of layers not in `visible`
    this.mask.bind(T_VISIBLE, f.visible, this.layers);
    gl.uniform1i(this.u.visible, T_VISIBLE);
    gl.activeTexture(gl.TEXTURE0 + T_RECORDS);
    gl.bindTexture(gl.TEXTURE_2D, this.rec);
    gl.uniform1i(this.u.rec, T_RECORDS);
    gl.bindVertexArray(null);
    const per = f.lineweights ? 6 : 2;
    const mode = f.lineweights ? gl.TRIANGLES : gl.LINES;
    // the view in scene units (relative to the origin), a little larger: lineweights reach past a curve's box
    const margin = 64 / f.ppu;
    const x0 = f.cx - f.width / 2 / f.ppu - margin, x1 = f.cx + f.width / 2 / f.ppu + margin;
    const y0 = f.cy - f.height / 2 / f.ppu - margin, y1 = f.cy + f.height / 2 / f.ppu + margin;
    // [first record, count, segments] draws: neighbouring buckets drawn whole with the same segment count are one draw
    const draws: [number, number, number][] = [];
    this.buckets.forEach((bucket, b) => {
      const n = bucketSegments(bucket, f.ppu * f.dpr);
      this.lastSegments.push(n);
      const [, , first, count] = bucket;
      const runs = count * n * per > CULL_MIN_VERTICES && this.ordered[b] ? this.visibleRuns(b, x0, y0, x1, y1) : [[first, count] as [number, number]];
      for (const [at, k] of runs) {
        const last = draws[draws.length - 1];
        if (last && last[2] === n && last[0] + last[1] === at) last[1] += k;
        else draws.push([at, k, n]);
      }
    });
    let n = -1;
    for (const [at, k, segs] of draws) {
      if (segs !== n) gl.uniform1i(this.u.n, (n = segs));
      gl.uniform1i(this.u.first, at);
      gl.drawArrays(mode, 0, k * segs * per);
      this.lastVertices += k * segs * per;
    }
    return draws.length;
  }

  /** No curves to draw (a scene still arriving: its records come whole, with the first batch). */
  clear() {
    this.disposeTextures();
    this.buckets = [];
  }

  private disposeTextures() {
    if (this.rec) this.gl.deleteTexture(this.rec);
    this.rec = null;
  }

  dispose() {
    this.disposeTextures();
    this.mask.dispose();
    this.gl.deleteProgram(this.prog);
  }
}
