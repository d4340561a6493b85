import {
  AmbientLight, Box3, Color, DirectionalLight, Group, HemisphereLight, LineBasicMaterial, LineSegments, type Mesh, type Material,
  type MeshStandardMaterial, type Object3D, OrthographicCamera, PerspectiveCamera, Plane, Raycaster, Scene, Sphere, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { elementOf, isShown } from './scene-tree.ts';
import type { Vec3 } from './measure3d.ts';
import { EdgesService } from './edges-service.ts';
import { MeasureTool, type MeasureResult } from './measure-tool.ts';
import { BatchedElements } from './batches.ts';
import { chunkBatches } from './chunks.ts';
import { keeps, sectionPlane, type Axis } from './section.ts';
import { SectionCaps } from './section-caps.ts';

export type StandardView = 'top' | 'bottom' | 'front' | 'back' | 'left' | 'right' | 'iso';
export type RenderMode = 'shaded' | 'wireframe' | 'edges';

/** Where the camera looks from, in the displayed frame (Y up; a Z-up model is turned upright on load). */
const VIEW_DIRS: Record<StandardView, [number, number, number]> = {
  top: [0, 1, 0], bottom: [0, -1, 0], front: [0, 0, 1], back: [0, 0, -1], left: [-1, 0, 0], right: [1, 0, 0], iso: [1, 1, 1],
};

/** Loads a GLB (meshopt-compressed, quantized) into a three.js scene: the model under a wrapper that turns Z-up upright. */
export async function parseGlb(data: ArrayBuffer, upAxis?: 'Y' | 'Z'): Promise<{ gltf: GLTF; model: Group }> {
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  const gltf = await loader.parseAsync(data, '');
  const model = new Group();
  model.name = '';
  // the converter writes the source's up axis in the scene's extras: Z-up (CAD, IFC) is turned so that Z points up on screen
  // (`upAxis`: the status's stats say it too, for a GLB whose scene extras were lost)
  if ((gltf.scene.userData?.upAxis ?? upAxis) === 'Z') model.rotation.x = -Math.PI / 2;
  gltf.scene.userData.gltfScene = true; // the tree starts below it
  // each object's glTF node number: a big model's coarse level and full model pair up by it (same nodes)
  for (const [o, a] of gltf.parser.associations) if (a?.nodes !== undefined && 'isObject3D' in o) (o as Object3D).userData.gltfNode = a.nodes;
  model.add(gltf.scene);
  model.updateMatrixWorld(true);
  return { gltf, model };
}

export interface EngineEvents {
  onSelect(element: Object3D | null): void;
  /** the measurement so far; null when measuring stops */
  onMeasure(result: MeasureResult | null): void;
  /** which level is drawn: the coarse one (before the full model arrived, or while the camera moves) or the full */
  onLevel?(level: DrawnLevel): void;
}

export type DrawnLevel = 'coarse' | 'full';

/** the camera at rest this long after the last move draws the full model again */
const REST_MS = 250;

/**
 * The 3D viewer: renderer, perspective/orthographic cameras with OrbitControls (mouse and touch: orbit, pan, pinch),
 * fit and standard views, shaded/wireframe/edges, a section plane, picking and measurement. Draws on demand.
 */
export class Engine {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  private perspective = new PerspectiveCamera(45, 1, 0.01, 1000);
  private ortho = new OrthographicCamera(-1, 1, 1, -1, 0.01, 1000);
  camera: PerspectiveCamera | OrthographicCamera = this.perspective;
  controls: OrbitControls;
  model: Group | null = null;
  private dirty = true;
  private radius = 1;
  private mode: RenderMode = 'shaded';
  private edgeLines: LineSegments[] | null = null;
  /** resolves once the edges mode's lines asked last are all drawn (tests wait for it) */
  edgesDrawn: Promise<void> = Promise.resolve();
  private selected: { element: Object3D; restore: [Mesh, Material | Material[]][] } | null = null;
  /** distance and angle measurement (measure-tool.ts) */
  readonly measure: MeasureTool;
  /** feature edges found in a worker (snapping, the edges mode) */
  readonly edges = new EdgesService();
  /** the merged meshes of a batched model and its elements' triangle ranges (null: a mesh per element) */
  private batches: BatchedElements | null = null;
  private section: { axis: Axis; t: number; flip: boolean } | null = null;
  /** the cut faces of closed solids while the section is on (section-caps.ts) */
  private caps = new SectionCaps();
  private capsOn = true;
  private resize: ResizeObserver;
  private down: { x: number; y: number } | null = null;
  /** a big model's coarse level (lod.ts of the converter: the same nodes) once the full model replaced it */
  private coarse: Group | null = null;
  /** the model first shown was the coarse level: the full one is still coming */
  private awaitingFull = false;
  private moving = false;
  private restTimer: ReturnType<typeof setTimeout> | undefined;
  /** draw the coarse level while the camera moves (the bench turns it off to compare) */
  lodWhileMoving = true;
  /** split a batched model's merged meshes into spatial chunks the camera culls (chunks.ts; the bench turns it off to compare) */
  chunking = true;
  private drawn: DrawnLevel = 'full';
  private levelTold = false;

  constructor(
    private host: HTMLElement,
    private events: EngineEvents,
  ) {
    // preserveDrawingBuffer: the screenshot reads the canvas after the frame; stencil: the section's caps
    this.renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true, stencil: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(new Color('#eef1f5'));
    this.renderer.domElement.style.touchAction = 'none';
    this.renderer.domElement.dataset.testid = 'view3d-canvas';
    host.appendChild(this.renderer.domElement);
    this.scene.add(new HemisphereLight(0xffffff, 0x8d8d8d, 1.0), new AmbientLight(0xffffff, 0.2));
    const sun = new DirectionalLight(0xffffff, 1.2);
    sun.position.set(1, 2, 1.5);
    this.scene.add(sun, this.caps.group);
    this.measure = new MeasureTool(this, host, this.scene, events.onMeasure);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    // orbit, pan, zoom and pinch: the coarse level while they last, the full model once the camera rests. A press
    // that does not move the camera (a click that selects or places a measuring point) keeps the full model: the
    // level changes at the first change of the camera after the press, not at the press
    let pressed = false;
    let moved = false;
    this.controls.addEventListener('start', () => ((pressed = true), (moved = false)));
    this.controls.addEventListener('change', () => {
      if (pressed && !moved) (moved = true), this.beginMove();
      this.invalidate();
    });
    this.controls.addEventListener('end', () => {
      if (moved) this.endMove();
      pressed = moved = false;
    });
    this.resize = new ResizeObserver(() => this.fitCanvas());
    this.resize.observe(host);
    this.fitCanvas();
    const el = this.renderer.domElement;
    el.addEventListener('pointerdown', this.onDown);
    el.addEventListener('pointerup', this.onUp);
    el.addEventListener('pointermove', this.onMove);
    el.addEventListener('pointerleave', this.onLeave);
    this.renderer.setAnimationLoop(() => {
      if (!this.dirty) return;
      this.dirty = false;
      this.renderer.render(this.scene, this.camera);
      this.measure.layout();
    });
  }

  dispose() {
    clearTimeout(this.restTimer);
    this.renderer.setAnimationLoop(null);
    this.measure.dispose();
    this.edges.dispose();
    this.caps.dispose();
    this.resize.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }

  invalidate() {
    this.dirty = true;
  }

  /** Draws now (the screenshot and tests read the pixels right after). */
  renderNow() {
    this.renderer.render(this.scene, this.camera);
    this.dirty = false;
  }

  /** The model to show; `coarse`: it is a big model's coarse level, and setFullModel follows with the full one. */
  setModel(model: Group, coarse = false) {
    this.model = model;
    this.awaitingFull = coarse;
    this.batches = this.batchesOf(model);
    this.scene.add(model);
    this.radius = this.bounds().getBoundingSphere(new Sphere()).radius || 1;
    this.fit('iso');
    this.showLevel(coarse ? 'coarse' : 'full');
  }

  /**
   * The full model arrived: it takes the coarse level's place (the view, the section and the mode stay); the coarse
   * level is kept, out of the scene, to be drawn while the camera moves.
   */
  setFullModel(full: Group) {
    const coarse = this.awaitingFull ? this.model : null;
    if (!coarse) return this.setModel(full);
    this.select(null);
    // the coarse level's edges go: drawn while moving they would cost what the coarse level saves
    for (const e of this.edgeLines ?? []) e.removeFromParent();
    this.edgeLines = null;
    this.scene.remove(coarse);
    this.coarse = coarse;
    this.awaitingFull = false;
    this.model = full;
    this.batches = this.batchesOf(full);
    this.scene.add(full);
    this.setMode(this.mode);
    if (this.moving && this.lodWhileMoving) this.showLevel('coarse');
    else this.showLevel('full');
  }

  private batchesOf(model: Group): BatchedElements | null {
    if (this.chunking) chunkBatches(model);
    return BatchedElements.of(model, highlighted);
  }

  get level(): DrawnLevel {
    return this.drawn;
  }

  /** The camera starts moving: the coarse level is drawn instead of the full model (when there is one). */
  beginMove() {
    clearTimeout(this.restTimer);
    this.moving = true;
    if (this.coarse && this.lodWhileMoving) this.showLevel('coarse');
  }

  /** The camera stopped: the full model again once it has rested REST_MS (a wheel zoom is many short moves). */
  endMove() {
    clearTimeout(this.restTimer);
    this.restTimer = setTimeout(() => {
      this.moving = false;
      if (this.coarse) this.showLevel('full');
    }, REST_MS);
  }

  /**
   * Puts the level into the scene. Hidden and isolated elements stay hidden on the coarse level: its nodes are the
   * full model's (same glTF node numbers), their visibility is copied over before it is drawn.
   */
  private showLevel(level: DrawnLevel) {
    if (this.coarse && this.model) {
      const full = this.model;
      const coarse = this.coarse;
      if (level === 'coarse') {
        const shown = new Map<number, boolean>();
        full.traverse((o) => o.userData.gltfNode !== undefined && shown.set(o.userData.gltfNode as number, o.visible));
        coarse.traverse((o) => {
          const v = shown.get(o.userData.gltfNode as number);
          if (v !== undefined) o.visible = v;
        });
        this.scene.remove(full);
        this.scene.add(coarse);
      } else {
        this.scene.remove(coarse);
        this.scene.add(full);
      }
    }
    this.updateCaps();
    this.renderer.domElement.dataset.level = level;
    if (this.drawn !== level || !this.levelTold) {
      this.drawn = level;
      this.levelTold = true;
      this.events.onLevel?.(level);
    }
    this.invalidate();
  }

  private bounds(): Box3 {
    const box = new Box3();
    if (!this.model) return box;
    this.model.updateMatrixWorld(true);
    this.model.traverse((o) => {
      if ((o as Mesh).isMesh && isShown(o) && !this.batches?.isBatch(o)) box.expandByObject(o, false);
    });
    if (this.batches) box.union(this.batches.shownBox());
    return box.isEmpty() ? new Box3().setFromObject(this.model) : box;
  }

  /** The model's world box (all of it, shown or not): the section slider runs across it. */
  modelBox(): Box3 {
    return this.model ? new Box3().setFromObject(this.model) : new Box3();
  }

  private fitCanvas() {
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(w, h);
    this.perspective.aspect = w / h;
    this.perspective.updateProjectionMatrix();
    this.updateOrtho();
    this.invalidate();
  }

  private updateOrtho() {
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.host.clientHeight);
    const r = this.radius * 1.1;
    const aspect = w / h;
    Object.assign(this.ortho, aspect >= 1 ? { left: -r * aspect, right: r * aspect, top: r, bottom: -r } : { left: -r, right: r, top: r / aspect, bottom: -r / aspect });
    this.ortho.updateProjectionMatrix();
  }

  /** Fits the shown part of the model, looking from `view` (the current direction when not given). */
  fit(view?: StandardView) {
    const sphere = this.bounds().getBoundingSphere(new Sphere());
    const r = sphere.radius || 1;
    const dir = view ? new Vector3(...VIEW_DIRS[view]).normalize() : this.camera.position.clone().sub(this.controls.target).normalize();
    // the narrower of the two angles of view (a phone's canvas is taller than wide)
    const vfov = (this.perspective.fov * Math.PI) / 180;
    const hfov = 2 * Math.atan(Math.tan(vfov / 2) * this.perspective.aspect);
    const dist = r / Math.sin(Math.min(vfov, hfov) / 2);
    for (const cam of [this.perspective, this.ortho]) {
      cam.near = dist / 1000;
      cam.far = dist * 100;
      cam.position.copy(sphere.center).addScaledVector(dir, dist);
      // looking straight down or up: the screen's up is −Z (the model's front at the bottom)
      cam.up.set(0, 1, 0);
      if (Math.abs(dir.y) > 0.999) cam.up.set(0, 0, -Math.sign(dir.y));
      cam.lookAt(sphere.center);
      cam.updateProjectionMatrix();
    }
    this.radius = r;
    this.ortho.zoom = 1;
    this.updateOrtho();
    this.controls.target.copy(sphere.center);
    this.controls.update();
    this.invalidate();
  }

  get orthographic() {
    return this.camera === this.ortho;
  }

  setOrthographic(on: boolean) {
    const from = this.camera;
    const to = on ? this.ortho : this.perspective;
    if (from === to) return;
    to.position.copy(from.position);
    to.up.copy(from.up);
    to.lookAt(this.controls.target);
    this.camera = to;
    this.controls.object = to;
    this.controls.update();
    this.invalidate();
  }

  private meshes(): Mesh[] {
    const list: Mesh[] = [];
    this.model?.traverse((o) => (o as Mesh).isMesh && list.push(o as Mesh));
    return list;
  }

  setMode(mode: RenderMode) {
    this.mode = mode;
    const coarse: Mesh[] = [];
    this.coarse?.traverse((o) => (o as Mesh).isMesh && coarse.push(o as Mesh));
    for (const m of [...this.meshes(), ...coarse]) for (const mat of ([] as Material[]).concat(m.material)) (mat as MeshStandardMaterial).wireframe = mode === 'wireframe';
    if (mode === 'edges' && !this.edgeLines) {
      const lines: LineSegments[] = (this.edgeLines = []);
      const lineMat = new LineBasicMaterial({ color: 0x1f2937 });
      // each mesh's edges come from the worker and are drawn as they arrive (the page stays responsive meanwhile)
      const asked = this.meshes().map(async (m) => {
        // a merged mesh: the edges of its shown elements only
        const found = await this.edges.request(this.batches?.isBatch(m) ? this.batches.shownGeometry(m) : m.geometry);
        if (this.edgeLines !== lines) return; // visibility changed meanwhile: a newer set is being made
        const e = new LineSegments(found.geometry, lineMat);
        e.name = '';
        e.userData.edges = true;
        e.raycast = () => undefined;
        e.visible = this.mode === 'edges';
        m.add(e);
        lines.push(e);
        this.invalidate();
      });
      this.edgesDrawn = Promise.all(asked).then(() => undefined, () => undefined);
    }
    for (const e of this.edgeLines ?? []) e.visible = mode === 'edges';
    this.invalidate();
  }

  /** After the tree hid, isolated or showed elements: a batched model's draw groups (and edges) follow. */
  visibilityChanged() {
    this.updateCaps();
    if (this.batches) {
      this.batches.refresh(this.selected?.element ?? null);
      if (this.edgeLines) {
        for (const e of this.edgeLines) (e.geometry.dispose(), e.removeFromParent());
        this.edgeLines = null;
        this.setMode(this.mode);
      }
    }
    this.invalidate();
  }

  /** The element a hit belongs to: a merged mesh's triangle names it, otherwise the nearest named node. */
  private elementOfHit(hit: { object: Object3D; faceIndex?: number | null }): Object3D {
    const mesh = hit.object as Mesh;
    if (this.batches?.isBatch(mesh) && hit.faceIndex != null) return this.batches.elementAt(mesh, hit.faceIndex) ?? mesh;
    return elementOf(hit.object, this.model!);
  }

  get renderMode() {
    return this.mode;
  }

  /** The section plane across `axis` at `t` (0–1 of the model's box), or none. */
  setSection(section: { axis: Axis; t: number; flip: boolean } | null) {
    this.section = section;
    if (!section) this.renderer.clippingPlanes = [];
    else {
      const b = this.modelBox();
      const p = sectionPlane({ min: b.min.toArray(), max: b.max.toArray() }, section.axis, section.t, section.flip);
      this.renderer.clippingPlanes = [new Plane(new Vector3(...p.normal), p.constant)];
    }
    this.updateCaps();
    this.invalidate();
  }

  /** Whether the section draws the cut faces of closed solids (on by default). */
  setSectionCaps(on: boolean) {
    this.capsOn = on;
    this.updateCaps();
    this.invalidate();
  }

  get sectionCaps() {
    return this.capsOn;
  }

  /** The caps follow the plane, the level drawn and what is shown. */
  private updateCaps() {
    const drawn = this.coarse?.parent ? this.coarse : this.model; // the level in the scene now
    const plane = this.capsOn ? (this.renderer.clippingPlanes[0] ?? null) : null;
    const sphere = this.modelBox().getBoundingSphere(new Sphere());
    this.caps.update(drawn, plane, sphere.center, sphere.radius || 1);
  }

  /** Whether the section plane (if any) keeps a world point. */
  kept(p: Vec3): boolean {
    const plane = this.renderer.clippingPlanes[0];
    return !plane || keeps({ normal: plane.normal.toArray(), constant: plane.constant }, p);
  }

  /** The first shown, not cut-away surface under a canvas point (CSS pixels), and the pick ray. */
  pickAt(x: number, y: number) {
    if (!this.model) return null;
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new Vector2((x / rect.width) * 2 - 1, -(y / rect.height) * 2 + 1);
    const ray = new Raycaster();
    ray.setFromCamera(ndc, this.camera);
    for (const hit of ray.intersectObject(this.model, true)) {
      if (!(hit.object as Mesh).isMesh || !isShown(hit.object)) continue;
      if (this.batches?.isBatch(hit.object) && !isShown(this.elementOfHit(hit))) continue;
      if (!this.kept(hit.point.toArray())) continue;
      return { hit, ray: ray.ray };
    }
    return null;
  }

  /** The element's hit under a canvas point (CSS pixels), skipping hidden and cut-away parts. */
  pick(x: number, y: number) {
    return this.pickAt(x, y)?.hit ?? null;
  }

  /** A world point to CSS pixels of the canvas. */
  project = (p: Vec3): [number, number] | null => {
    const v = new Vector3(...p).project(this.camera);
    if (v.z > 1 || v.z < -1) return null;
    const el = this.renderer.domElement;
    return [((v.x + 1) / 2) * el.clientWidth, ((1 - v.y) / 2) * el.clientHeight];
  };

  private onDown = (e: PointerEvent) => {
    this.down = { x: e.clientX, y: e.clientY };
  };

  private canvasPoint(e: PointerEvent): [number, number] {
    const rect = this.renderer.domElement.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  }

  private onUp = (e: PointerEvent) => {
    // a click, not the end of an orbit
    if (!this.down || Math.hypot(e.clientX - this.down.x, e.clientY - this.down.y) > 4) return;
    this.click(...this.canvasPoint(e), e.pointerType === 'touch');
  };

  private onMove = (e: PointerEvent) => {
    // a mouse moving with no button down: the snap marker follows (a finger has no hover; a drag orbits)
    if (e.pointerType !== 'mouse' || e.buttons) this.measure.unhover();
    else this.measure.hover(...this.canvasPoint(e));
  };

  private onLeave = () => this.measure.unhover();

  /** A click at canvas CSS pixels: selects the element, or in measure mode places a (snapped) point. */
  click(x: number, y: number, touch = false) {
    if (this.measure.mode) return this.measure.click(x, y, touch);
    const hit = this.pick(x, y);
    this.select(hit ? this.elementOfHit(hit) : null);
  }

  select(element: Object3D | null) {
    if (this.selected) for (const [mesh, mat] of this.selected.restore) mesh.material = mat;
    this.selected = null;
    if (element) {
      const restore: [Mesh, Material | Material[]][] = [];
      element.traverse((o) => {
        const m = o as Mesh;
        if (!m.isMesh) return;
        if (this.batches?.isBatch(m)) return; // a merged mesh highlights the element's triangles by its groups
        restore.push([m, m.material]);
        // an array only where there was one: a mesh without groups draws nothing with an array of materials
        m.material = Array.isArray(m.material) ? m.material.map(highlighted) : highlighted(m.material);
      });
      this.selected = { element, restore };
      this.setMode(this.mode);
    }
    this.batches?.refresh(element);
    this.events.onSelect(element);
    this.invalidate();
  }

  /** The canvas as a PNG data URL. */
  screenshot(): string {
    this.renderNow();
    return this.renderer.domElement.toDataURL('image/png');
  }
}

/** A selected element's material: tinted towards the app's blue (an emissive glow washed light faces out to the background's colour). */
function highlighted(mat: Material): Material {
  const c = mat.clone() as MeshStandardMaterial;
  c.color?.lerp(new Color(0x1677ff), 0.6);
  c.emissive?.set(0x0b3d91);
  c.emissiveIntensity = 0.2;
  return c;
}
