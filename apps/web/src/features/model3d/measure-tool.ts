import { BufferGeometry, Group, Line, LineBasicMaterial, Matrix3, type Mesh, type Object3D, type Intersection, type Ray, Vector3 } from 'three';
import type { FeatureEdges } from './feature-edges.ts';
import type { EdgesService } from './edges-service.ts';
import { angleAt, distance, faceAngle, formatAngle, formatDistance, type Project, SNAP_PX, SNAP_PX_TOUCH, snapPoint, type SnapKind, type Vec3 } from './measure3d.ts';

export type MeasureMode = 'distance' | 'angle' | 'faces';

/** What the panel shows; the points also in the model's own coordinates (the source file's, before turning Z up). */
export interface MeasureResult {
  mode: MeasureMode;
  points: { at: Vec3; model: Vec3; kind: SnapKind }[];
  distance: number | null;
  /** b − a in model coordinates (distance mode) */
  delta: Vec3 | null;
  /** degrees: the angle at the second point (angle mode), or between the two faces (faces mode) */
  angle: number | null;
}

/** What the tool needs of the viewer. */
export interface MeasureHost {
  model: Object3D | null;
  camera: Object3D;
  /** the first shown, not cut-away surface hit along the pointer's ray, and the ray */
  pickAt(x: number, y: number): { hit: Intersection; ray: Ray } | null;
  project: Project;
  /** false for a point the section plane cuts away */
  kept(p: Vec3): boolean;
  invalidate(): void;
  /** feature edges per geometry, found in a worker */
  edges: EdgesService;
}

type Picked = NonNullable<ReturnType<MeasureHost['pickAt']>>;

const POINTS: Record<MeasureMode, number> = { distance: 2, angle: 3, faces: 2 };
const COLOR = '#ff4d4f';

/**
 * Distance, three-point angle and face-to-face angle measurement: the pointer snaps to a vertex, a feature edge or the
 * face (a marker of its own shape shows which: square, diamond, circle), clicks place the points, and the result is
 * drawn in the scene (lines, the angle's arc) with an HTML label that follows the camera.
 */
export class MeasureTool {
  mode: MeasureMode | null = null;
  private points: { at: Vec3; kind: SnapKind; normal: Vec3 | null }[] = [];
  private lines = new Group();
  private overlay: HTMLDivElement;
  private marker: HTMLDivElement;
  private label: HTMLDivElement;
  private hovered: { at: Vec3; kind: SnapKind } | null = null;
  private pending: [number, number] | null = null;
  /** a model so big that one pick takes longer than a frame: snap on click only, not while the pointer moves */
  private hoverTooSlow = false;
  private clicks: Promise<void> = Promise.resolve();

  constructor(
    private host: MeasureHost,
    parent: HTMLElement,
    scene: Object3D,
    private onChange: (r: MeasureResult | null) => void,
  ) {
    this.overlay = el('div', 'position:absolute;inset:0;pointer-events:none;overflow:hidden');
    this.overlay.dataset.testid = 'view3d-measure-overlay';
    this.marker = el('div', 'position:absolute;display:none;box-sizing:border-box');
    this.marker.dataset.testid = 'view3d-snap';
    this.label = el('div', `position:absolute;display:none;transform:translate(-50%,-130%);padding:1px 6px;border-radius:4px;background:${COLOR};color:#fff;font:12px/18px sans-serif;white-space:nowrap`);
    this.label.dataset.testid = 'view3d-measure-label';
    this.overlay.append(this.marker, this.label);
    parent.appendChild(this.overlay);
    this.lines.name = '';
    this.lines.renderOrder = 10;
    scene.add(this.lines);
  }

  dispose() {
    this.overlay.remove();
  }

  /** Starts measuring in `mode` (anew), or stops (null). */
  setMode(mode: MeasureMode | null) {
    this.mode = mode;
    this.clear();
    this.hovered = null;
    this.onChange(mode ? this.result() : null);
  }

  private clear() {
    this.points = [];
    this.drawLines();
    for (const dot of [...this.overlay.querySelectorAll('[data-point]')]) dot.remove();
    this.layout();
    this.host.invalidate();
  }

  /**
   * The snapped point under canvas CSS pixel (x, y), with the face's normal (world). Snaps to the hit mesh's feature
   * edges once the worker found them; until then to the hit triangle's corners (and asks the worker).
   */
  snapAt(x: number, y: number, touch = false, onEdges?: () => void): { at: Vec3; kind: SnapKind; normal: Vec3 | null } | null {
    const picked = this.host.pickAt(x, y);
    if (!picked) return null;
    const geometry = (picked.hit.object as Mesh).geometry;
    const edges = this.host.edges.ready(geometry);
    if (!edges && this.mode !== 'faces') this.host.edges.request(geometry).then(onEdges, () => undefined);
    return this.snapHit(picked, x, y, touch, edges);
  }

  /** The same, waiting for the hit mesh's edges (a click: the point placed is the exact snap, never a provisional one). */
  async snapAtExact(x: number, y: number, touch = false): Promise<{ at: Vec3; kind: SnapKind; normal: Vec3 | null } | null> {
    const picked = this.host.pickAt(x, y);
    if (!picked) return null;
    const geometry = (picked.hit.object as Mesh).geometry;
    const edges = this.mode === 'faces' ? null : (this.host.edges.ready(geometry) ?? (await this.host.edges.request(geometry)));
    return this.snapHit(picked, x, y, touch, edges);
  }

  private snapHit({ hit, ray }: Picked, x: number, y: number, touch: boolean, edgesOfMesh: FeatureEdges | null): { at: Vec3; kind: SnapKind; normal: Vec3 | null } {
    const mesh = hit.object as Mesh;
    const normal = hit.face ? (hit.face.normal.clone().applyMatrix3(new Matrix3().getNormalMatrix(mesh.matrixWorld)).normalize().toArray() as Vec3) : null;
    if (this.mode === 'faces') return { at: hit.point.toArray(), kind: 'face', normal };
    const px = touch ? SNAP_PX_TOUCH : SNAP_PX;
    // the snap radius in the mesh's frame: px screen pixels at the hit's depth, with a margin
    const right = new Vector3().setFromMatrixColumn(this.host.camera.matrixWorld, 0);
    const s0 = this.host.project(hit.point.toArray());
    const s1 = this.host.project(hit.point.clone().add(right).toArray());
    const perPx = s0 && s1 ? 1 / Math.max(1e-9, Math.hypot(s1[0] - s0[0], s1[1] - s0[1])) : 0;
    const local = mesh.worldToLocal(hit.point.clone()).toArray();
    const rLocal = (1.5 * px * perPx) / (mesh.matrixWorld.getMaxScaleOnAxis() || 1);
    const toWorld = (p: Vec3): Vec3 => new Vector3(...p).applyMatrix4(mesh.matrixWorld).toArray();
    const grid = edgesOfMesh?.grid;
    const edges = grid ? grid.near(local, rLocal).map((s) => grid.segment(s).map(toWorld) as [Vec3, Vec3]) : [];
    const vertices: Vec3[] = edges.flat();
    if (hit.face) {
      const pos = mesh.geometry.getAttribute('position');
      for (const i of [hit.face.a, hit.face.b, hit.face.c]) vertices.push(new Vector3().fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld).toArray());
    }
    const snapped = snapPoint({ pointer: [x, y], origin: ray.origin.toArray(), dir: ray.direction.toArray(), hit: hit.point.toArray(), vertices, edges, project: this.host.project, px, kept: (p) => this.host.kept(p) });
    return { at: snapped.point, kind: snapped.kind, normal };
  }

  /** The pointer moved (not dragging): the snap marker follows it, at most once a frame. */
  hover(x: number, y: number) {
    if (!this.mode || this.hoverTooSlow) return;
    const first = !this.pending;
    this.pending = [x, y];
    if (!first) return;
    requestAnimationFrame(() => {
      if (!this.pending || !this.mode) return;
      const [px, py] = this.pending;
      this.pending = null;
      const t0 = performance.now();
      // the mesh's edges arrived from the worker: snap again where the pointer rests
      this.hovered = this.snapAt(px, py, false, () => this.hovered && !this.pending && this.hover(px, py));
      if (performance.now() - t0 > 30) this.hoverTooSlow = true;
      this.layout();
    });
  }

  /** The pointer left the canvas or started dragging. */
  unhover() {
    this.pending = null;
    this.hovered = null;
    this.layout();
  }

  /** A click (or tap) at canvas CSS pixels places the next point; after a full measurement it starts a new one. */
  click(x: number, y: number, touch = false): Promise<void> {
    // one click after the other: a second click must not overtake a first still waiting for its mesh's edges
    this.clicks = this.clicks.then(() => this.place(x, y, touch)).catch(() => undefined);
    return this.clicks;
  }

  /** Resolves once every click so far has placed its point (tests wait for it). */
  settled(): Promise<void> {
    return this.clicks;
  }

  private async place(x: number, y: number, touch: boolean) {
    if (!this.mode) return;
    const mode = this.mode;
    const p = await this.snapAtExact(x, y, touch);
    if (!p || this.mode !== mode) return;
    if (this.points.length >= POINTS[this.mode]) this.clear();
    this.points.push(p);
    const dot = el('div', markerStyle(p.kind, true));
    dot.dataset.point = p.kind;
    this.overlay.appendChild(dot);
    this.drawLines();
    this.layout();
    this.host.invalidate();
    this.onChange(this.result());
  }

  private drawLines() {
    for (const c of [...this.lines.children]) {
      this.lines.remove(c);
      (c as Line).geometry.dispose();
    }
    const at = this.points.map((p) => new Vector3(...p.at));
    const mat = new LineBasicMaterial({ color: COLOR, depthTest: false });
    const line = (pts: Vector3[]) => {
      const l = new Line(new BufferGeometry().setFromPoints(pts), mat);
      l.renderOrder = 10;
      l.raycast = () => undefined;
      this.lines.add(l);
    };
    if (this.mode === 'faces') return;
    if (at.length >= 2) line(at.slice(0, this.mode === 'angle' ? 3 : 2));
    if (this.mode === 'angle' && at.length === 3) {
      // the arc at the apex, a third of the shorter arm
      const [a, b, c] = at;
      const u = a.clone().sub(b);
      const v = c.clone().sub(b);
      const r = Math.min(u.length(), v.length()) / 3;
      u.normalize();
      v.normalize();
      const arc: Vector3[] = [];
      for (let i = 0; i <= 24; i++) arc.push(slerp(u, v, i / 24).multiplyScalar(r).add(b));
      line(arc);
    }
  }

  /** The measurement so far. */
  result(): MeasureResult {
    const mode = this.mode ?? 'distance';
    const model = this.host.model;
    const points = this.points.map((p) => ({ at: p.at, kind: p.kind, model: (model ? model.worldToLocal(new Vector3(...p.at)).toArray() : p.at) as Vec3 }));
    const full = points.length === POINTS[mode];
    const r: MeasureResult = { mode, points, distance: null, delta: null, angle: null };
    if (!full) return r;
    if (mode === 'distance') {
      r.distance = distance(points[0].model, points[1].model);
      r.delta = [0, 1, 2].map((k) => points[1].model[k] - points[0].model[k]) as unknown as Vec3;
    } else if (mode === 'angle') r.angle = angleAt(points[0].at, points[1].at, points[2].at);
    else if (this.points[0].normal && this.points[1].normal) r.angle = faceAngle(this.points[0].normal, this.points[1].normal);
    return r;
  }

  /** Puts the HTML marks where their points are on screen now (after every frame drawn). */
  layout() {
    const place = (e: HTMLElement, p: Vec3 | null) => {
      const s = p && this.host.project(p);
      e.style.display = s ? 'block' : 'none';
      if (s) [e.style.left, e.style.top] = [`${s[0]}px`, `${s[1]}px`];
    };
    place(this.marker, this.hovered?.at ?? null);
    if (this.hovered) {
      this.marker.style.cssText = markerStyle(this.hovered.kind, false) + `;left:${this.marker.style.left};top:${this.marker.style.top}`;
      this.marker.dataset.snap = this.hovered.kind;
    }
    const dots = this.overlay.querySelectorAll<HTMLElement>('[data-point]');
    dots.forEach((d, i) => place(d, this.points[i]?.at ?? null));
    const r = this.mode ? this.result() : null;
    const text = r?.distance != null ? formatDistance(r.distance) : r?.angle != null ? formatAngle(r.angle) : null;
    this.label.textContent = text;
    // on the line's middle; an angle at its apex; a face angle between the two faces
    const anchor = !text ? null : r!.mode === 'angle' ? this.points[1].at : mid(this.points[0].at, this.points[1].at);
    place(this.label, anchor);
  }
}

function el(tag: 'div', css: string): HTMLDivElement {
  const e = document.createElement(tag);
  e.style.cssText = css;
  return e;
}

/** A vertex is a square, an edge point a diamond, a face point a circle; placed points are filled. */
function markerStyle(kind: SnapKind, filled: boolean): string {
  const shape = kind === 'vertex' ? '' : kind === 'edge' ? 'transform:translate(-50%,-50%) rotate(45deg) scale(0.85);' : 'border-radius:50%;';
  return `position:absolute;box-sizing:border-box;width:12px;height:12px;transform:translate(-50%,-50%);${shape}border:2px solid ${COLOR};background:${filled ? COLOR : 'rgba(255,255,255,0.6)'};pointer-events:none`;
}

function mid(a: Vec3, b: Vec3): Vec3 {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
}

/** The unit vector a fraction t of the way from unit u to unit v (the angle's arc). */
function slerp(u: Vector3, v: Vector3, t: number): Vector3 {
  const angle = u.angleTo(v);
  if (angle < 1e-6) return u.clone();
  const s = Math.sin(angle);
  return u.clone().multiplyScalar(Math.sin((1 - t) * angle) / s).add(v.clone().multiplyScalar(Math.sin(t * angle) / s));
}

