import { Box3, BufferAttribute, BufferGeometry, type Material, type Mesh, type Object3D, Vector3 } from 'three';
import { isShown } from './scene-tree.ts';

/**
 * Elements drawn from merged primitives (the converter batches models of many elements, packages/model3d
 * glb/batch.ts): the merged meshes sit under one node marked `extras.batches = true`, and each element's node keeps
 * its name and properties with `extras.batches` = [batch, first triangle, triangle count] repeated. The tree's
 * hide / isolate / show all still set the elements' `visible`; here they become each merged mesh's draw groups: shown
 * elements' triangles with material 0, the selected element's with material 1 (the highlight), hidden ones not drawn
 * (and not picked: three's raycast only tests triangles of a group that has a material).
 */
export const isBatchHolder = (o: Object3D) => o.userData?.batches === true;

interface Range {
  first: number;
  count: number;
  element: Object3D;
}

export class BatchedElements {
  /** the merged meshes, by their batch number */
  readonly meshes: Mesh[];
  /** per merged mesh, its elements' ranges by first triangle */
  private ranges: Range[][];

  private constructor(
    private holder: Object3D,
    model: Object3D,
    highlight: (m: Material) => Material,
  ) {
    this.meshes = holder.children.filter((c) => (c as Mesh).isMesh) as Mesh[];
    this.ranges = this.meshes.map(() => []);
    model.traverse((o) => {
      const r = o.userData?.batches;
      if (!Array.isArray(r) || isBatchHolder(o)) return;
      for (let i = 0; i + 2 < r.length; i += 3) this.ranges[r[i]]?.push({ first: r[i + 1], count: r[i + 2], element: o });
    });
    for (const list of this.ranges) list.sort((a, b) => a.first - b.first);
    for (const m of this.meshes) {
      const base = Array.isArray(m.material) ? m.material[0] : m.material;
      m.material = [base, highlight(base)];
    }
    this.refresh(null);
  }

  /** the batches of a loaded model, or null when it has none (a model of few elements keeps a mesh per node) */
  static of(model: Object3D, highlight: (m: Material) => Material): BatchedElements | null {
    let holder: Object3D | undefined;
    model.traverse((o) => {
      if (!holder && isBatchHolder(o)) holder = o;
    });
    return holder ? new BatchedElements(holder, model, highlight) : null;
  }

  isBatch(o: Object3D): boolean {
    return o.parent === this.holder && (o as Mesh).isMesh;
  }

  /** the element owning triangle `face` of a merged mesh */
  elementAt(mesh: Mesh, face: number): Object3D | null {
    const list = this.ranges[this.meshes.indexOf(mesh)] ?? [];
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = list[mid];
      if (face < r.first) hi = mid - 1;
      else if (face >= r.first + r.count) lo = mid + 1;
      else return r.element;
    }
    return null;
  }

  /**
   * The draw groups after a change of visibility or selection: consecutive shown triangles of one material make one
   * group. The holder and the merged meshes themselves stay visible (isolate hides everything else first).
   */
  refresh(selected: Object3D | null) {
    this.holder.visible = true;
    const inSelection = (o: Object3D) => {
      for (let p: Object3D | null = o; p && selected; p = p.parent) if (p === selected) return true;
      return false;
    };
    this.meshes.forEach((mesh, b) => {
      mesh.visible = true;
      const g = mesh.geometry;
      g.clearGroups();
      let open: { start: number; count: number; materialIndex: number } | null = null;
      for (const r of this.ranges[b]) {
        if (!isShown(r.element)) continue;
        const materialIndex = inSelection(r.element) ? 1 : 0;
        if (open && open.materialIndex === materialIndex && open.start + open.count === r.first * 3) open.count += r.count * 3;
        else {
          if (open) g.addGroup(open.start, open.count, open.materialIndex);
          open = { start: r.first * 3, count: r.count * 3, materialIndex };
        }
      }
      if (open) g.addGroup(open.start, open.count, open.materialIndex);
    });
  }

  /** the triangles drawn of a merged mesh, as a geometry sharing its attributes (for its edges) */
  shownGeometry(mesh: Mesh): BufferGeometry {
    const g = mesh.geometry;
    const index = g.getIndex()!;
    const total = g.groups.reduce((n, x) => n + x.count, 0);
    const out = new (index.array.constructor as Uint16ArrayConstructor | Uint32ArrayConstructor)(total);
    let k = 0;
    for (const x of g.groups) {
      out.set(index.array.subarray(x.start, x.start + x.count) as never, k);
      k += x.count;
    }
    const shown = new BufferGeometry();
    for (const [name, attr] of Object.entries(g.attributes)) shown.setAttribute(name, attr);
    shown.setIndex(new BufferAttribute(out, 1));
    return shown;
  }

  /** the world box of the shown elements' triangles (empty when none is shown) */
  shownBox(): Box3 {
    const box = new Box3();
    const v = new Vector3();
    for (const mesh of this.meshes) {
      const local = new Box3();
      const pos = mesh.geometry.getAttribute('position');
      const index = mesh.geometry.getIndex()!;
      for (const x of mesh.geometry.groups) for (let i = x.start; i < x.start + x.count; i++) local.expandByPoint(v.fromBufferAttribute(pos, index.getX(i)));
      if (!local.isEmpty()) box.union(local.applyMatrix4(mesh.matrixWorld));
    }
    return box;
  }
}
