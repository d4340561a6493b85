/// <reference lib="webworker" />
import { SegmentGrid } from './feature-edges.ts';
import { answerEdgesRequest, type EdgesRequest } from './edges-protocol.ts';

/**
 * The 3D viewer's edges worker: feature edges of meshes (for snapping and the edges mode) found off the page's
 * thread, so the first snap on a big model does not freeze it (about a second per million triangles).
 */
const attrs = new Map<number, Float32Array>();
self.onmessage = (e: MessageEvent<EdgesRequest>) => {
  try {
    const answer = answerEdgesRequest(e.data, attrs);
    self.postMessage(answer, 'grid' in answer ? SegmentGrid.transferables(answer.grid) : []);
  } catch (err) {
    self.postMessage({ id: e.data.id, error: String(err) });
  }
};
