/**
 * How far one conversion has come, as convertToGlb reports it: the stage it is in and its percent of the whole
 * conversion (0–100). Each stage owns a span of the percent; an importer that knows how many parts it reads (occt's
 * meshes, web-ifc's elements, rhino3dm's objects) moves through its span part by part. The spans are rough weights of
 * where the time goes on the models measured (reading and tessellating dominate CAD, compressing dominates scans).
 */
export type Model3dStage = 'parse' | 'import' | 'document' | 'thumbnail' | 'compress' | 'write';

export interface Model3dProgress {
  stage: Model3dStage;
  percent: number;
}

export type OnModel3dProgress = (p: Model3dProgress) => void;

/** each stage's span of the percent: [from, to) */
const SPANS: Record<Model3dStage, [number, number]> = {
  // occt reads and tessellates a STEP in one call (50 boxes: 6 s of 9 s); web-ifc's time is in its streamed import
  parse: [0, 55],
  import: [55, 75],
  document: [75, 78],
  thumbnail: [78, 82],
  compress: [82, 95],
  write: [95, 100],
};

/** An importer's report: `done` of `total` parts read (total 0: unknown, the stage only). */
export type ImportProgress = (done: number, total: number) => void;

/**
 * Turns stage changes and part counts into percents for `sink`, passing on a report only when the whole percent or
 * the stage changes: an IFC of 20 000 elements sends about a hundred messages out of its thread, not 20 000.
 */
export function progressReporter(sink: OnModel3dProgress | undefined) {
  let last: Model3dProgress | null = null;
  const send = (stage: Model3dStage, fraction: number) => {
    if (!sink) return;
    const [from, to] = SPANS[stage];
    const percent = Math.floor(from + (to - from) * Math.min(1, Math.max(0, fraction)));
    // never backwards: an estimated total that was too small does not pull the bar back
    if (last && (percent < last.percent || (percent === last.percent && stage === last.stage))) return;
    last = { stage, percent };
    sink(last);
  };
  return {
    stage: (stage: Model3dStage) => send(stage, 0),
    /** the importers' callback: the parts read so far move through the import stage */
    parts: ((done, total) => send('import', total > 0 ? done / total : 0)) as ImportProgress,
  };
}
