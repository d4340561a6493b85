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
