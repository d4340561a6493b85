import {
  BackSide, Color, DecrementWrapStencilOp, DoubleSide, FrontSide, Group, IncrementWrapStencilOp, type Material, type Mesh, MeshBasicMaterial,
  NotEqualStencilFunc, type Object3D, type Plane, PlaneGeometry, Mesh as ThreeMesh, ReplaceStencilOp, Vector3, AlwaysStencilFunc,
} from 'three';
import { isShown } from './scene-tree.ts';

/** the cut face's colour: apart from the background and the selection's blue, seen at once as "cut" */
export const CAP_COLOR = new Color(0xc2410c);

/**
 * Section caps: where the section plane cuts a closed solid, the cut face is drawn (solid material, not a hollow
 * shell), by the stencil buffer as three.js' clipping-stencil example does. Every shown mesh is drawn twice more
 * into the stencil only, clipped like the model: its back faces add one, its front faces take one away; along a pixel's
 * ray the count is not zero exactly where the ray enters the kept half inside a solid. A plane lying in the section
 * plane is then drawn where the count is not zero (and where nothing kept is in front of it: depth test on).
 * Needs a renderer made with `stencil: true`. Open shells have no inside: their caps may come out partial.
 */
export class SectionCaps {
  readonly group = new Group();
  private back = stencilMaterial(BackSide, IncrementWrapStencilOp);
  private front = stencilMaterial(FrontSide, DecrementWrapStencilOp);
  private cap: ThreeMesh;
  private writers = new Group();

  constructor() {
    this.group.name = '';
    this.writers.name = '';
    const mat = new MeshBasicMaterial({
      color: CAP_COLOR, side: DoubleSide, stencilWrite: true, stencilRef: 0, stencilFunc: NotEqualStencilFunc,
      stencilFail: ReplaceStencilOp, stencilZFail: ReplaceStencilOp, stencilZPass: ReplaceStencilOp,
    });
    this.cap = new ThreeMesh(new PlaneGeometry(1, 1), mat);
    this.cap.name = '';
    // after every stencil writer (they are drawn at 1)
    this.cap.renderOrder = 2;
    this.cap.raycast = () => undefined;
    this.cap.userData.sectionCap = true;
    this.group.add(this.writers, this.cap);
    this.group.visible = false;
  }

  /**
   * The caps for `plane` over the meshes of `model` shown now (called again after hide, isolate, a change of level);
   * none when `plane` is null. `radius` and `centre`: the model's bounding sphere (the cap plane covers it).
   */
  update(model: Object3D | null, plane: Plane | null, centre: Vector3, radius: number) {
    for (const w of [...this.writers.children]) w.removeFromParent();
    this.group.visible = !!(model && plane);
    if (!model || !plane) return;
    model.updateMatrixWorld(true);
    model.traverse((o) => {
      const m = o as Mesh;
      if (!m.isMesh || m.userData.sectionCap || !isShown(m)) return;
      // a mesh drawn by groups (a batch's shown elements) keeps them: one stencil material for every group's index
      const slots = Math.max(1, ...m.geometry.groups.map((g) => (g.materialIndex ?? 0) + 1));
      for (const mat of [this.back, this.front]) {
        const w = new ThreeMesh(m.geometry, m.geometry.groups.length ? Array<Material>(slots).fill(mat) : mat);
        w.name = '';
        w.matrixAutoUpdate = false;
        w.matrix.copy(m.matrixWorld);
        w.matrixWorld.copy(m.matrixWorld);
        w.renderOrder = 1;
        w.raycast = () => undefined;
        w.userData.sectionCap = true;
        this.writers.add(w);
      }
    });
    // in the plane, a hair into the kept side (exactly on it the clipping may or may not keep a pixel)
    const at = plane.coplanarPoint(new Vector3()).addScaledVector(plane.normal, radius * 1e-5);
    const size = (centre.distanceTo(at) + radius) * 2.2;
    this.cap.scale.set(size, size, 1);
    this.cap.position.copy(at);
    this.cap.lookAt(at.clone().sub(plane.normal));
    this.cap.updateMatrixWorld(true);
  }

  dispose() {
    this.back.dispose();
    this.front.dispose();
    (this.cap.material as Material).dispose();
    this.cap.geometry.dispose();
  }
}

function stencilMaterial(side: typeof FrontSide | typeof BackSide, op: typeof IncrementWrapStencilOp | typeof DecrementWrapStencilOp): MeshBasicMaterial {
  return new MeshBasicMaterial({
    side, depthWrite: false, depthTest: false, colorWrite: false,
    stencilWrite: true, stencilFunc: AlwaysStencilFunc, stencilFail: op, stencilZFail: op, stencilZPass: op,
  });
}
