import { z } from 'zod';

/**
 * Drawing compare (issue 4 part 7): two versions of one file, what was added, removed and modified, and an
 * overlay scene. `a` is the older version, `b` the newer (any two of the file's live versions).
 */
export const COMPARE_PATHS = {
  scene: '/cloud/v5/version/compare/scene',
  changes: '/cloud/v5/version/compare/changes',
} as const;

const id = z.string().min(1).max(64);

export const compareRequest = z.object({
  fileId: id,
  a: id.describe('versionId of the older version (A)'),
  b: id.describe('versionId of the newer version (B)'),
  layout: z.string().max(255).default('Model'),
  ctoken: z.any().optional(),
});
export type CompareRequest = z.input<typeof compareRequest>;

export const COMPARE_ASPECTS = ['geometry', 'layer', 'colour', 'text', 'linetype', 'lineweight'] as const;

export const compareChangeSchema = z.object({
  kind: z.enum(['added', 'removed', 'modified']),
  handleA: z.string().optional(),
  handleB: z.string().optional(),
  type: z.string().describe('entity type, e.g. LINE, INSERT'),
  layer: z.string(),
  what: z.array(z.enum(COMPARE_ASPECTS)).describe('what differs, for a modified entity'),
  bounds: z.object({ minX: z.number(), minY: z.number(), maxX: z.number(), maxY: z.number() }).describe('drawing units: where to zoom'),
});
export type CompareChange = z.infer<typeof compareChangeSchema>;

export const compareCountsSchema = z.object({ added: z.number(), removed: z.number(), modified: z.number(), unchanged: z.number() });

export const compareChangesResult = z.object({
  fileId: z.string(),
  a: z.object({ versionId: z.string(), number: z.number() }),
  b: z.object({ versionId: z.string(), number: z.number() }),
  layout: z.string(),
  counts: compareCountsSchema,
  changes: z.array(compareChangeSchema),
});
export type CompareChangesResult = z.infer<typeof compareChangesResult>;
