import type { Object3D } from 'three';

/**
 * The model tree of a loaded GLB (its node hierarchy: assemblies, IFC site / building / storey / element) and the
 * tree panel's hide / isolate / show all, as plain functions over three's Object3D (no WebGL needed).
 */
export interface TreeNode {
  key: string; // the Object3D's uuid
  title: string;
  children: TreeNode[];
}

/** A node's name as the converter wrote it, or its type for unnamed glTF nodes. */
export function nodeName(o: Object3D): string {
  return o.name || o.type;
}

/** The tree of `root`'s children: the glTF scene (marked `userData.gltfScene`) and unnamed single wrappers are skipped. */
export function buildTree(root: Object3D): TreeNode[] {
  // a batched model's merged meshes (userData.batches === true) are drawing, not elements: left out
  const kids = (o: Object3D) => o.children.filter((c) => c.userData?.batches !== true);
  const walk = (o: Object3D): TreeNode => ({ key: o.uuid, title: nodeName(o), children: kids(o).map(walk) });
  let top = root;
  while (kids(top).length === 1 && (!kids(top)[0].name || kids(top)[0].userData.gltfScene) && kids(top)[0].children.length) top = kids(top)[0];
  return kids(top).map(walk);
}

/** Objects by the tree's keys. */
export function indexByKey(root: Object3D): Map<string, Object3D> {
  const map = new Map<string, Object3D>();
  root.traverse((o) => map.set(o.uuid, o));
  return map;
}

/** Hides the objects (their whole subtrees). */
export function hide(objects: Iterable<Object3D>) {
  for (const o of objects) o.visible = false;
}

/** Shows every object under root. */
export function showAll(root: Object3D) {
  root.traverse((o) => (o.visible = true));
}

/**
 * Only `target` stays visible: its subtree and the path to it are shown, everything else hidden (siblings of every
 * ancestor), so isolating an element of a storey shows that element alone.
 */
export function isolate(root: Object3D, target: Object3D) {
  root.traverse((o) => (o.visible = false));
  target.traverse((o) => (o.visible = true));
  for (let p: Object3D | null = target.parent; p; p = p.parent) {
    p.visible = true;
    if (p === root) break;
  }
}

/** Whether `o` is drawn: itself and every ancestor up to the root visible. */
export function isShown(o: Object3D): boolean {
  for (let p: Object3D | null = o; p; p = p.parent) if (!p.visible) return false;
  return true;
}

/**
 * The properties of a picked object: the nearest node (itself or an ancestor) with `extras.properties` (GLTFLoader
 * puts a node's extras in userData), with its name first. glTF meshes of several primitives load as a Group of
 * Meshes: the picked primitive has no name of its own, so the named node above it is the element.
 */
export function elementOf(o: Object3D, root: Object3D): Object3D {
  for (let p: Object3D | null = o; p && p !== root; p = p.parent) if (p.name || p.userData?.properties) return p;
  return o;
}

export function propertiesOf(o: Object3D): [string, string][] {
  const props = (o.userData?.properties ?? {}) as Record<string, unknown>;
  return Object.entries(props).map(([k, v]) => [k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]);
}
