// The bench's page (bench/model3d-viewer.bench.ts): the viewer's own Engine (apps/web engine.ts) in a bare page,
// without the React shell around it, loading the converter's coarse level and full GLB from the bench's server.
import { Engine, parseGlb } from '../../apps/web/src/features/model3d/engine.ts';

const host = document.getElementById('host')!;
const w = window as unknown as Record<string, unknown>;

w.openModel = async (full: string, lod: string | null) => {
  const engine = new Engine(host, { onSelect: () => undefined, onMeasure: () => undefined });
  const get = async (u: string) => (await fetch(u)).arrayBuffer();
  if (lod) engine.setModel((await parseGlb(await get(lod))).model, true);
  const { model } = await parseGlb(await get(full));
  if (lod) engine.setFullModel(model);
  else engine.setModel(model);
  w.engine = engine;
  return true;
};

/**
 * Orbits the camera once around the model in `frames` steps while "moving" (the coarse level drawn when `lod` is on)
 * and answers each frame's time: the render call and a 1-pixel readPixels, which waits for SwiftShader's rasterising.
 */
w.orbit = async (frames: number, lod: boolean) => {
  const engine = w.engine as Engine;
  engine.lodWhileMoving = lod;
  engine.beginMove();
  const gl = engine.renderer.getContext();
  const px = new Uint8Array(4);
  const cam = engine.camera;
  const target = engine.controls.target;
  const times: number[] = [];
  const triangles: number[] = [];
  for (let i = 0; i < frames; i++) {
    const a = (2 * Math.PI) / frames;
    const dx = cam.position.x - target.x;
    const dz = cam.position.z - target.z;
    cam.position.x = target.x + dx * Math.cos(a) - dz * Math.sin(a);
    cam.position.z = target.z + dx * Math.sin(a) + dz * Math.cos(a);
    cam.lookAt(target);
    const t = performance.now();
    engine.renderNow();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    times.push(performance.now() - t);
    triangles.push(engine.renderer.info.render.triangles);
    await new Promise((r) => requestAnimationFrame(r));
  }
  engine.endMove();
  return { times, triangles: triangles[0], level: engine.level };
};
