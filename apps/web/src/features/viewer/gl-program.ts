/** GLSL shared by the viewer's passes. ACI 7 is white on a dark background and black on a light one, as in every CAD viewer. */
export const INK_GLSL = `
vec4 ink(vec4 color, float light) {
  vec3 c = color.rgb;
  // only the foreground ink, exactly 0xFFFFFF (packages/cad geometry/aci.ts): a white that stays white is 0xFEFEFE
  if (light > 0.5 && c.r > 0.998 && c.g > 0.998 && c.b > 0.998) c = vec3(0.0);
  return vec4(c, 1.0);
}`;

/**
 * Depth tiers (packages/cad/src/scene/tiers.ts): a WIPEOUT hides what comes before it in draw order, whatever order the
 * batches are drawn in. Wipeouts write their tier's depth first; every other pass tests against it (LEQUAL, no writes),
 * so a primitive of a lower tier is hidden under a wipeout and one of the same or a higher tier is drawn. Tier 0, all
 * of a drawing without wipeouts, is on the far plane. Colour textures carry the tier in their alpha as 255 - tier
 * (opaque for tier 0: the scenes of such drawings are unchanged).
 */
export const TIER_GLSL = `
float tierZ(float tier) { return 1.0 - tier / 128.0; }
float alphaTier(float a) { return 255.0 - floor(a * 255.0 + 0.5); }`;

/** The fragment shader of every pass: the colour the vertex shader chose. */
export const COLOR_FS = `#version 300 es
precision mediump float;
in vec4 v_color;
out vec4 outColor;
void main() { outColor = v_color; }`;

/**
 * One WebGL2 program from a vertex and a fragment shader, attribute locations bound before linking; a shader that
 * does not compile or link throws with the driver's log (the viewer then says WebGL is not usable here).
 */
export function linkProgram(gl: WebGL2RenderingContext, vs: string, fs: string, attribs: Record<string, number> = {}): WebGLProgram {
  const shader = (type: number, src: string) => {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s) ?? 'shader');
    return s;
  };
  const p = gl.createProgram()!;
  gl.attachShader(p, shader(gl.VERTEX_SHADER, vs));
  gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fs));
  for (const [a, i] of Object.entries(attribs)) gl.bindAttribLocation(p, i, a);
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p) ?? 'link');
  return p;
}
