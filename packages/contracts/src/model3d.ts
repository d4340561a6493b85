import { z } from 'zod';

/**
 * 3D models (issue 21; spec sections 1, 2, 4, 5, 7): a 3D file in the drive is converted (super membership, or one of
 * the free trials) to one GLB by a background job, and opened at `/view3d?key={encodeURIComponent(fileId)}` in a new
 * tab. The GLB keeps node names, the hierarchy and each node's properties (`extras.properties`), and its root's
 * `extras.upAxis` says 'Z' or 'Y'. The spec's four calls, with these fields.
 */
export const MODEL3D_PATHS = {
  transformBatch3D: '/cloud/v5/file/task/transformBatch3D',
  checkTransformSuplus3D: '/cloud/v5/file/task/checkTransformSuplus3D',
  checkTaskStatus3D: '/cloud/v5/file/task/checkTaskStatus3D',
  checkTaskStatusBatch3D: '/cloud/v5/file/task/checkTaskStatusBatch3D',
  /** ours (the spec shows no list of 3D conversions): the task panel's 3D tab */
  list3D: '/cloud/v5/file/task/list3D',
  /** ours: a shared 3D file's conversion, for whoever holds the share token (the viewer in share mode) */
  shareStatus3D: '/cloud/v5/share/status3D',
  /** not in the spec: what a Revit .rvt tells without a reader of its geometry (its preview is the file's thumbnail) */
  revitInfo3D: '/cloud/v5/file/task/revitInfo3D',
} as const;

/** what a running 3D conversion does now, in order (model3d_conversions.stage): the web app names each one */
export const MODEL3D_STAGES = ['queued', 'read', 'parse', 'import', 'document', 'thumbnail', 'compress', 'write', 'store', 'done', 'failed'] as const;

/** The web route of the 3D viewer (spec section 2); with a share token, a shared model seen through its share. */
export function view3dHref(fileId: string, shareToken?: string): string {
  return `/view3d?key=${encodeURIComponent(fileId)}${shareToken ? `&shareToken=${encodeURIComponent(shareToken)}` : ''}`;
}

const id = z.string().min(1).max(64);

export const transformBatch3DRequest = z.object({
  fileIds: z.array(id).min(1).max(100),
  /** the spec's flag: true converts; false only asks what would happen (rights, statuses) */
  isTransForm: z.boolean().optional(),
  ctoken: z.any().optional(),
  uid: z.any().optional(),
});

export const model3dStatusSchema = z.object({
  fileId: z.string(),
  transformStatus: z.number().describe('3 never converted, 0 converting, 1 done, 2 failed (TransformStatus)'),
  progress: z.number().describe('percent 0–100'),
  stage: z.string().describe(`what the conversion does now: ${MODEL3D_STAGES.join(', ')}`),
  code: z.string().nullable().describe('error code of a failed conversion'),
  msg: z.string().nullable().describe("the spec's message of a failed conversion, in the caller's language"),
  /** a download link of the GLB (signed, short-lived, checked against the grant on use) once converted */
  glbUrl: z.string().nullable(),
  /**
   * a big model's coarse level of detail (a small GLB of the same nodes, simplified meshes): the viewer shows it first
   * while the full GLB arrives, and while the camera moves. Signed and checked like glbUrl; null when there is none
   */
  lodUrl: z.string().nullable(),
  /** the converted model's numbers, once converted */
  stats: z
    .object({
      triangles: z.number(), nodes: z.number(), bbox: z.object({ min: z.array(z.number()), max: z.array(z.number()) }), upAxis: z.enum(['Y', 'Z']),
      vertices: z.number().optional(),
      lod: z.object({ triangles: z.number(), bytes: z.number() }).optional().describe('the coarse level: its triangles and bytes'),
    })
    .nullable(),
  name: z.string().describe("the source file's name"),
  /** the owner's converted model whose files beside it changed since (an MTL or texture uploaded later): converting again picks them up */
  stale: z.boolean().optional(),
});
export type Model3dStatus = z.infer<typeof model3dStatusSchema>;

export const transformBatch3DResult = z.object({
  list: z.array(model3dStatusSchema),
  /** true when every file was converted already: the web app opens the first in the viewer (spec section 4) */
  allDone: z.boolean(),
});

export const checkTransformSuplus3DRequest = z.object({ fileId: id.optional(), ctoken: z.any().optional() });
export const checkTransformSuplus3DResult = z.object({
  /** conversions left for this account: null = unlimited (super membership, or the operator made 3D free) */
  remaining: z.number().nullable(),
  superMember: z.boolean(),
});

export const checkTaskStatus3DRequest = z.object({ fileId: id, hoops: z.any().optional(), ctoken: z.any().optional() });
export const checkTaskStatusBatch3DRequest = z.object({ fileIds: z.array(id).min(1).max(500), ctoken: z.any().optional(), type: z.any().optional() });
export const checkTaskStatusBatch3DResult = z.object({ list: z.array(model3dStatusSchema) });

/** One 3D conversion as the task panel's 3D tab shows it: the latest of each source file of the caller's. */
export const model3dTaskSchema = z.object({
  taskId: z.string(),
  fileId: z.string().describe('the source file'),
  name: z.string().describe("the source's name (as it was converted, when the file is gone)"),
  transformStatus: z.number().describe('0 converting, 1 done, 2 failed (TransformStatus)'),
  progress: z.number().describe('percent 0–100'),
  stage: z.string().describe(`what the conversion does now: ${MODEL3D_STAGES.join(', ')}`),
  code: z.string().nullable().describe('error code of a failed conversion'),
  msg: z.string().nullable().describe("the spec's message of a failed conversion, in the caller's language"),
  /** true while the source is still the caller's with the converted bytes: the viewer opens it, a retry converts it */
  fileExists: z.boolean(),
  createTimestamp: z.number(),
  finishTimestamp: z.number().nullable(),
});
export type Model3dTask = z.infer<typeof model3dTaskSchema>;
export const list3DRequest = z.object({ page: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(200).default(50), ctoken: z.any().optional() });
export const list3DResult = z.object({ list: z.array(model3dTaskSchema), total: z.number() });
export const shareStatus3DRequest = z.object({ shareToken: z.string().optional().describe('or the x-share-token header'), fileId: id });
export const revitInfo3DRequest = z.object({ fileId: id, ctoken: z.any().optional() });
export const revitInfo3DResult = z.object({
  version: z.string().nullable().describe('the Revit release that saved it, e.g. "2021"'),
  build: z.string().nullable(),
  title: z.string().nullable().describe("the project's (or family's) title"),
  lastSavePath: z.string().nullable(),
  centralModelPath: z.string().nullable(),
  worksharing: z.string().nullable(),
  clientName: z.string().nullable().describe("Project Information's client name, when the file's streams hold it"),
  projectNumber: z.string().nullable(),
  projectAddress: z.string().nullable().describe('may hold line breaks'),
  projectParameters: z.record(z.string(), z.string()).describe('every Project Information parameter by its display name (custom ones too)'),
  details: z.record(z.string(), z.string()).describe("the file's other metadata lines (author, locale, product …) as written"),
  /** the geometry needs an IFC export from Revit: this says so in the caller's language */
  advice: z.string(),
});
export type RevitInfo3D = z.infer<typeof revitInfo3DResult>;
