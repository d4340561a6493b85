import { linkProgram } from './gl-program.ts';
import type { View } from './gl-renderer.ts';

/**
 * The last full frame of a drawing as a texture, drawn moved and scaled while the user pans and zooms: one textured
 * quad instead of the whole drawing. On a software rasteriser a frame of a large drawing takes a second or more; the
 * viewer then shows the snapshot under the pointer at once and draws the drawing sharp again when the movement stops.
 * What lies outside the snapshot shows as background until then.
 */

// the quad from gl_VertexID (no attributes): its corners in clip space from u_rect, the texture over it whole
const VS = `#version 300 es
uniform vec4 u_rect;
out vec2 v_uv;
void main() {
  vec2 t = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  v_uv = t;
  gl_Position = vec4(mix(u_rect.xy, u_rect.zw, t), 0.0, 1.0);
}`;
const FS = `#version 300 es
precision mediump float;
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 outColor;
void main() { outColor = texture(u_tex, v_uv); }`;

/** A texture unit no other pass uses (gl-renderer.ts 0–5, gl-curves.ts 6–7, gl-blocks.ts 6–13, gl-images.ts 20). */
const UNIT = 21;

/** What a snapshot shows: the view it was drawn with and the canvas size then (CSS pixels and device pixels). */
interface Shot {
  view: View;
  w: number;
  h: number;
  pw: number;
  ph: number;
}

export class GlSnapshot {
  private program: WebGLProgram | null = null;
  private rect: WebGLUniformLocation | null = null;
  private texUniform: WebGLUniformLocation | null = null;
  private tex: WebGLTexture | null = null;
  private shot: Shot | null = null;
  private size = { w: 0, h: 0 };

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /** Copies what the canvas shows now (a full frame drawn with `view` on a canvas of w × h CSS pixels). */
  take(view: View, w: number, h: number) {
    const gl = this.gl;
    const pw = gl.drawingBufferWidth, ph = gl.drawingBufferHeight;
    this.tex ??= gl.createTexture();
    gl.activeTexture(gl.TEXTURE0 + UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.tex);
    if (this.size.w !== pw || this.size.h !== ph) {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, pw, ph, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      this.size = { w: pw, h: ph };
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.copyTexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 0, 0, pw, ph);
    this.shot = { view: { ...view }, w, h, pw, ph };
  }

  /** Forgets the snapshot (the drawing changed: layers, theme, lineweights, a new scene). */
  clear() {
    this.shot = null;
  }

  /** There is a snapshot taken at this canvas size (CSS and device pixels). */
  fits(w: number, h: number): boolean {
    const s = this.shot;
    return !!s && s.w === w && s.h === h && s.pw === this.gl.drawingBufferWidth && s.ph === this.gl.drawingBufferHeight;
  }

  /** Draws the snapshot where `view` puts it on the canvas (which `fits`, cleared first by the caller). */
  draw(view: View, w: number, h: number) {
    const s = this.shot!, gl = this.gl;
    if (!this.program) {
      this.program = linkProgram(gl, VS, FS);
      this.rect = gl.getUniformLocation(this.program, 'u_rect');
      this.texUniform = gl.getUniformLocation(this.program, 'u_tex');
    }
    // the snapshot's corners in the world, then where the current view puts them (clip space)
    const clipX = (x: number) => ((x - view.cx) * 2 * view.ppu) / w;
    const clipY = (y: number) => ((y - view.cy) * 2 * view.ppu) / h;
    const hw = w / 2 / s.view.ppu, hh = h / 2 / s.view.ppu;
    gl.useProgram(this.program);
    gl.uniform4f(this.rect, clipX(s.view.cx - hw), clipY(s.view.cy - hh), clipX(s.view.cx + hw), clipY(s.view.cy + hh));
    gl.activeTexture(gl.TEXTURE0 + UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.tex);
    gl.uniform1i(this.texUniform, UNIT);
    gl.bindVertexArray(null);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  dispose() {
    if (this.tex) this.gl.deleteTexture(this.tex);
    if (this.program) this.gl.deleteProgram(this.program);
    this.tex = null;
    this.program = null;
    this.shot = null;
  }
}
