import type { Scene } from '@cadcloud/cad/scene';
import { COLOR_FS, INK_GLSL, linkProgram, TIER_GLSL } from './gl-program.ts';
import { dataTexture } from './gl-textures.ts';

/**
 * Instanced block meshes (scene format 4) for GlRenderer: one draw per mesh and kind covers all its INSERTs, vertex k
 * of instance i being gl_VertexID = i·n + k, like the glyphs. The mesh vertex, its segment's or triangle's colour,
 * layer and lineweight, and the instance's placement are read from textures by vertex number: no per-instance
 * attributes (software renderers pay a setup per instance). A primitive whose own layer is hidden is moved outside
 * the clip volume, as baked geometry of that layer is not drawn. The lineweight display draws each mesh segment as a
 * screen-space quad of six vertices (as the renderer's wide lines).
 */

const INK = INK_GLSL + TIER_GLSL;

const BLOCK_VS = `#version 300 es
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_light;
uniform int u_w;
uniform highp sampler2D u_pos;
uniform highp sampler2D u_col;
uniform highp usampler2D u_layer;
uniform highp usampler2D u_weight;
uniform highp sampler2D u_inst;
uniform highp usampler2D u_visible;
uniform int u_meshFirst;
uniform int u_meshCount;
uniform int u_instFirst;
uniform int u_perPrim;
uniform int u_wide;
uniform vec2 u_half;
uniform float u_pxPerMm;
out vec4 v_color;
ivec2 texel(int i) { return ivec2(i % u_w, i / u_w); }
${INK}
const vec2 CORNERS[6] = vec2[6](vec2(0.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(0.0, -1.0), vec2(1.0, 1.0), vec2(0.0, 1.0));
void main() {
  // a wide segment is 6 vertices: 3 per mesh vertex
  int per = u_wide == 1 ? u_meshCount * 3 : u_meshCount;
  int i = gl_VertexID / per;
  int k = gl_VertexID - i * per;
  int at = (u_instFirst + i) * 2;
  vec4 m = texelFetch(u_inst, texel(at), 0);
  vec4 t = texelFetch(u_inst, texel(at + 1), 0);
  mat2 M = mat2(m.x, m.y, m.z, m.w);
  int prim;
  vec4 pos;
  if (u_wide == 1) {
    int s = k / 6;
    vec2 corner = CORNERS[k - s * 6];
    int v0 = u_meshFirst + s * 2;
    prim = v0 / 2;
    vec2 s0 = ((M * texelFetch(u_pos, texel(v0), 0).xy + t.xy) * u_scale + u_offset) * u_half;
    vec2 s1 = ((M * texelFetch(u_pos, texel(v0 + 1), 0).xy + t.xy) * u_scale + u_offset) * u_half;
    vec2 d = s1 - s0;
    float len = length(d);
    vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 n = vec2(-dir.y, dir.x);
    float weight = float(texelFetch(u_weight, texel(prim), 0).r);
    float w = max(weight * 0.01 * u_pxPerMm, 1.0) * 0.5;
    vec2 p = mix(s0, s1, corner.x) + n * corner.y * w + dir * (corner.x * 2.0 - 1.0) * w;
    pos = vec4(p / u_half, 0.0, 1.0);
  } else {
    int v = u_meshFirst + k;
    prim = v / u_perPrim;
    pos = vec4((M * texelFetch(u_pos, texel(v), 0).xy + t.xy) * u_scale + u_offset, 0.0, 1.0);
  }
  uint layer = texelFetch(u_layer, texel(prim), 0).r;
  uint on = texelFetch(u_visible, ivec2(int(layer & 255u), int(layer >> 8u)), 0).r;
  // the instance's depth tier (its 8th float): a block holding a wipeout is never instanced, so it is all the INSERT's
  pos.z = tierZ(t.w);
  gl_Position = on == 0u ? vec4(2.0, 2.0, 2.0, 1.0) : pos;
  gl_PointSize = 2.0;
  v_color = ink(texelFetch(u_col, texel(prim), 0), u_light);
}`;

const FS = COLOR_FS;

const UNIFORMS = ['scale', 'offset', 'light', 'w', 'pos', 'col', 'layer', 'weight', 'inst', 'visible', 'meshFirst', 'meshCount', 'instFirst', 'perPrim', 'wide', 'half', 'pxPerMm'] as const;

/** texture units (GlRenderer uses 0–5) */
const U_LINE_POS = 6, U_LINE_COL = 7, U_LINE_LAYER = 8, U_LINE_WEIGHT = 9, U_TRI_POS = 10, U_TRI_COL = 11, U_TRI_LAYER = 12, U_INST = 13;

/** What one frame of GlRenderer tells the block pass. */
export interface BlockFrame {
  scale: [number, number];
  offset: [number, number];
  light: boolean;
  /** the lineweight display is on: segments as quads */
  wide: boolean;
  /** half the canvas in device pixels, device pixels per mm of lineweight */
  half: [number, number];
  pxPerMm: number;
  /** binds the layer-visibility texture (one byte per layer, 256 wide) and answers its unit */
  visibility: () => number;
}

export class GlBlocks {
  private program: WebGLProgram;
  private u = {} as Record<(typeof UNIFORMS)[number], WebGLUniformLocation | null>;
  private textures: WebGLTexture[] = [];
  /** each texture's unit: bound again before every draw (the curve and picture passes use units 6–8 too) */
  private units: [number, WebGLTexture][] = [];
  private blocks: [number, number, number, number, number, number][] = [];

  constructor(private gl: WebGL2RenderingContext, private w: number) {
    const p = linkProgram(gl, BLOCK_VS, FS);
    this.program = p;
    for (const k of UNIFORMS) this.u[k] = gl.getUniformLocation(p, `u_${k}`);
  }

  /** `data` as a texture of `w`-texel rows on `unit`. */
  private texture(unit: number, data: Float32Array | Uint8Array | Uint32Array, components: number, internal: number, format: number) {
    const t = dataTexture(this.gl, unit, this.w, data, components, internal, format);
    this.textures.push(t);
    this.units.push([unit, t]);
  }

  setScene(scene: Scene) {
    const gl = this.gl;
    this.release();
    this.blocks = scene.meta.blocks ?? [];
    if (!this.blocks.length) return;
    this.texture(U_LINE_POS, scene.blockLinePositions, 2, gl.RG32F, gl.RG);
    this.texture(U_LINE_COL, scene.blockLineColors, 4, gl.RGBA8, gl.RGBA);
    this.texture(U_LINE_LAYER, scene.blockLineLayers, 1, gl.R32UI, gl.RED_INTEGER);
    this.texture(U_LINE_WEIGHT, scene.blockLineWeights, 1, gl.R8UI, gl.RED_INTEGER);
    this.texture(U_TRI_POS, scene.blockTriPositions, 2, gl.RG32F, gl.RG);
    this.texture(U_TRI_COL, scene.blockTriColors, 4, gl.RGBA8, gl.RGBA);
    this.texture(U_TRI_LAYER, scene.blockTriLayers, 1, gl.R32UI, gl.RED_INTEGER);
    this.texture(U_INST, scene.blockInstances, 4, gl.RGBA32F, gl.RGBA);
  }

  /** Draws every mesh's triangles or segments (after the baked ones of that kind); answers the draw calls made. */
  draw(kind: 'tris' | 'lines', f: BlockFrame): number {
    if (!this.blocks.length) return 0;
    const gl = this.gl, u = this.u;
    // the renderer goes on with the program it had
    const previous = gl.getParameter(gl.CURRENT_PROGRAM) as WebGLProgram | null;
    gl.useProgram(this.program);
    for (const [unit, t] of this.units) {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, t);
    }
    gl.uniform2f(u.scale, f.scale[0], f.scale[1]);
    gl.uniform2f(u.offset, f.offset[0], f.offset[1]);
    gl.uniform1f(u.light, f.light ? 1 : 0);
    gl.uniform1i(u.w, this.w);
    gl.uniform1i(u.visible, f.visibility());
    gl.uniform1i(u.inst, U_INST);
    gl.uniform1i(u.weight, U_LINE_WEIGHT);
    const tris = kind === 'tris', wide = !tris && f.wide;
    gl.uniform1i(u.pos, tris ? U_TRI_POS : U_LINE_POS);
    gl.uniform1i(u.col, tris ? U_TRI_COL : U_LINE_COL);
    gl.uniform1i(u.layer, tris ? U_TRI_LAYER : U_LINE_LAYER);
    gl.uniform1i(u.perPrim, tris ? 3 : 2);
    gl.uniform1i(u.wide, wide ? 1 : 0);
    gl.uniform2f(u.half, f.half[0], f.half[1]);
    gl.uniform1f(u.pxPerMm, f.pxPerMm);
    // no attributes: an empty VAO
    gl.bindVertexArray(null);
    const mode = tris || wide ? gl.TRIANGLES : gl.LINES;
    let calls = 0;
    for (const b of this.blocks) {
      const first = tris ? b[2] : b[0], count = tris ? b[3] : b[1];
      if (!count || !b[5]) continue;
      gl.uniform1i(u.meshFirst, first);
      gl.uniform1i(u.meshCount, count);
      gl.uniform1i(u.instFirst, b[4]);
      gl.drawArrays(mode, 0, (wide ? count * 3 : count) * b[5]);
      calls++;
    }
    gl.useProgram(previous);
    return calls;
  }

  /** No meshes to draw (a scene still arriving: they come whole, with the first batch). */
  clear() {
    this.release();
    this.blocks = [];
  }

  private release() {
    for (const t of this.textures) this.gl.deleteTexture(t);
    this.textures = [];
    this.units = [];
  }

  dispose() {
    this.release();
    this.gl.deleteProgram(this.program);
  }
}
