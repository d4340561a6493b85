import { type BufferAttribute, BufferGeometry, Float32BufferAttribute, type InterleavedBufferAttribute } from 'three';
import { type FeatureEdges, SegmentGrid } from './feature-edges.ts';
import { answerEdgesRequest, type EdgesAnswer, type EdgesRequest } from './edges-protocol.ts';

type Positions = BufferAttribute | InterleavedBufferAttribute;

/**
 * Feature edges found in a worker, per geometry, lazily (the mesh a snap hits; the meshes the edges mode draws): ask
 * with `request`, look with `ready` (null until the worker answered). The page only copies the triangles asked for
 * (and once per position attribute its positions); welding, edge finding and the grid happen in the worker.
 */
export class EdgesService {
  private worker: Worker | null = null;
  private attrIds = new WeakMap<Positions, number>();
  private nextAttr = 1;
  private nextId = 1;
  private waiting = new Map<number, { resolve: (e: FeatureEdges) => void; reject: (e: Error) => void }>();
  private found = new WeakMap<BufferGeometry, FeatureEdges>();
  private asked = new WeakMap<BufferGeometry, Promise<FeatureEdges>>();
  /** answers that came from the worker (the browser tests check the page did not do the work) */
  workerAnswers = 0;
  /** the page's own cache where there are no workers (tests in jsdom) */
  private local = new Map<number, Float32Array>();

  constructor(private makeWorker: (() => Worker) | null = defaultWorker()) {}

  ready(geometry: BufferGeometry): FeatureEdges | null {
    return this.found.get(geometry) ?? null;
  }

  request(geometry: BufferGeometry): Promise<FeatureEdges> {
    let p = this.asked.get(geometry);
    if (!p) {
      p = this.send(geometry).then((edges) => (this.found.set(geometry, edges), edges));
      this.asked.set(geometry, p);
    }
    return p;
  }

  dispose() {
    this.worker?.terminate();
    this.worker = null;
    for (const w of this.waiting.values()) w.reject(new Error('edges service closed'));
    this.waiting.clear();
  }

  private send(geometry: BufferGeometry): Promise<FeatureEdges> {
    const pos = geometry.getAttribute('position') as Positions;
    let attr = this.attrIds.get(pos);
    const req: EdgesRequest = { id: this.nextId++, attr: attr ?? this.nextAttr, index: geometry.index ? Uint32Array.from(geometry.index.array as ArrayLike<number>) : null };
    if (attr === undefined) {
      attr = this.nextAttr++;
      this.attrIds.set(pos, attr);
      req.positions = realPositions(pos);
    }
    if (!this.worker && this.makeWorker) {
      this.worker = this.makeWorker();
      this.worker.onmessage = (e: MessageEvent<EdgesAnswer>) => (this.workerAnswers++, this.answered(e.data));
    }
    return new Promise<FeatureEdges>((resolve, reject) => {
      this.waiting.set(req.id, { resolve, reject });
      if (this.worker) this.worker.postMessage(req, [req.index?.buffer, req.positions?.buffer].filter((b): b is ArrayBuffer => !!b));
      else queueMicrotask(() => this.answered(answerEdgesRequest(req, this.local)));
    });
  }

  private answered(a: EdgesAnswer) {
    const w = this.waiting.get(a.id);
    if (!w) return;
    this.waiting.delete(a.id);
    if ('error' in a) return w.reject(new Error(a.error));
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute(a.grid.segments, 3));
    w.resolve({ geometry, grid: new SegmentGrid(a.grid) });
  }
}

/** The worker bundled by Vite (no CDN); none where the page has no workers. */
function defaultWorker(): (() => Worker) | null {
  if (typeof Worker === 'undefined') return null;
  return () => new Worker(new URL('./edges.worker.ts', import.meta.url), { type: 'module' });
}

/** The positions as numbers (a quantized attribute's getX… answer the real values), in a new array. */
function realPositions(pos: Positions): Float32Array {
  if (!('isInterleavedBufferAttribute' in pos) && pos.array instanceof Float32Array && !pos.normalized) return pos.array.slice(0, pos.count * 3);
  const out = new Float32Array(pos.count * 3);
  for (let i = 0; i < pos.count; i++) (out[i * 3] = pos.getX(i)), (out[i * 3 + 1] = pos.getY(i)), (out[i * 3 + 2] = pos.getZ(i));
  return out;
}
