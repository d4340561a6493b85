// The bench's page (bench/model3d-viewer.bench.ts): the viewer's own Engine (apps/web engine.ts) in a bare page,
// without the React shell around it, loading the converter's coarse level and full GLB from the bench's server.
import { Engine, parseGlb } from '../../apps/web/src/features/model3d/engine.ts';

const host = document.getElementById('host')!;
const w = window as unknown as Record<string, unknown>;

w.openModel = async (full: string, lod: string | null, chunking = true) => {
  const engine = new Engine(host, { onSelect: () => undefined, onMeasure: () => undefined });
  // spatial chunks the camera culls (chunks.ts), or the converter's merged meshes as they are (to compare)
  engine.chunking = chunking;
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

/**
 * Frame times of a still view with half the model off screen: the iso view moved sideways by the model's radius
 * (its centre at the canvas' left edge), the full model drawn (not moving); and the same view fitted, all of it on
 * screen. Each frame: the render call and a 1-pixel readPixels. Answers the triangles drawn too (culled ones are not).
 */
w.halfView = async (frames: number) => {
  const engine = w.engine as Engine;
  engine.fit('iso');
  const gl = engine.renderer.getContext();
  const px = new Uint8Array(4);
  const measure = async () => {
    const times: number[] = [];
    for (let i = 0; i < frames; i++) {
      const t = performance.now();
      engine.renderNow();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      times.push(performance.now() - t);
      await new Promise((r) => requestAnimationFrame(r));
    }
    return { times, triangles: engine.renderer.info.render.triangles, calls: engine.renderer.info.render.calls };
  };
  const whole = await measure();
  const cam = engine.camera;
  const right = cam.position.clone().setFromMatrixColumn(cam.matrixWorld, 0);
  // the visible half-width at the target, for either camera: from the projection of a point one unit to the right
  const target = engine.controls.target.clone();
  const a = target.clone().project(cam);
  const b = target.clone().add(right).project(cam);
  const shift = 1 / Math.max(1e-9, b.x - a.x); // one NDC unit (half the canvas' width) in world units
  cam.position.addScaledVector(right, shift);
  engine.controls.target.addScaledVector(right, shift);
  cam.updateMatrixWorld();
  const half = await measure();
  return { whole, half };
};
