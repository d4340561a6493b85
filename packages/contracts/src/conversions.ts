import { z } from 'zod';

/**
 * Conversion of drawings (issue 17): to PDF, pictures and other DXF/DWG versions, as durable background tasks.
 * Beside the spec's 3D calls (`file/task/transformBatch3D`, `checkTaskStatusBatch3D`) in the same family.
 */
export const CONVERSION_PATHS = {
  transformBatch: '/cloud/v5/file/task/transformBatch',
  checkTaskStatusBatch: '/cloud/v5/file/task/checkTaskStatusBatch',
  list: '/cloud/v5/file/task/transformList',
  retry: '/cloud/v5/file/task/transformRetry',
  targets: '/cloud/v5/file/task/transformTargets',
} as const;

// an item's transform status (section 4) is TransformStatus in rules.ts

export const CONVERSION_TARGETS = ['pdf', 'png', 'jpg', 'bmp', 'dxf', 'dwg'] as const;
export type ConversionTarget = (typeof CONVERSION_TARGETS)[number];
/** DXF/DWG versions a save-as may ask for (section 9 names 2000–2013; issue 17 adds R12 and 2018). */
export const CONVERSION_VERSIONS = ['R12', '2000', '2004', '2007', '2010', '2013', '2018'] as const;
/** The spec's polling timer (section 7), used for conversion progress too. */
export const CONVERSION_POLL_MS = 5000;
/** Sources a conversion accepts: the spec's drawing types the engine reads (and PDF, when a drawing target takes it). */
export const CONVERTIBLE_DRAWING_TYPES = ['dwg', 'dxf', 'dws', 'dwt'] as const;
/** Sources that become drawings (issue 17 part 5): a PDF converts to the drawing targets the server lists in `pdfTargets`. */
export const CONVERTIBLE_PDF_TYPES = ['pdf'] as const;

const id = z.string().min(1).max(64);

export const conversionOptionsSchema = z
  .object({
    layouts: z.union([z.literal('all'), z.literal('current'), z.array(z.string().min(1).max(255)).max(256)]).optional().describe("'all', 'current' (the drawing's default layout) or layout names"),
    paper: z.enum(['fit', 'A0', 'A1', 'A2', 'A3', 'A4', 'ANSI_A', 'ANSI_B', 'ANSI_C', 'ANSI_D', 'ANSI_E']).optional().describe('PDF: paper of layouts that have none'),
    orientation: z.enum(['portrait', 'landscape']).optional(),
    width: z.coerce.number().int().min(16).max(16_000).optional().describe('pictures: width in pixels'),
    height: z.coerce.number().int().min(16).max(16_000).optional(),
    background: z.enum(['white', 'black', 'transparent']).optional(),
    area: z
      .object({ minX: z.number().finite(), minY: z.number().finite(), maxX: z.number().finite(), maxY: z.number().finite() })
      .strict()
      .refine((a) => a.maxX > a.minX && a.maxY > a.minY, 'area: max must exceed min')
      .optional()
      .describe("pictures: the rectangle drawn, in drawing units (the viewer's current view); default the drawing's extents"),
    pages: z.array(z.number().int().min(1).max(100_000)).max(1000).optional().describe('PDF source: the pages converted (default all)'),
    stack: z.boolean().optional().describe('PDF source: pages one under another in model space instead of one layout each'),
    calibrate: z
      .object({ from: z.tuple([z.number(), z.number()]), to: z.tuple([z.number(), z.number()]), mm: z.number().positive() })
      .strict()
      .optional()
      .describe('PDF source: scale by one known distance: two points on the first page converted (PDF points) and their true length (mm); default the PDF\'s own units'),
    scale: z
      .number()
      .positive()
      .max(1_000_000)
      .optional()
      .describe('PDF source: the plot scale 1:N it was printed at: drawing units are the PDF\'s millimetres times N (default 1; a calibration takes its place)'),
  })
  .strict();
export type ConversionOptions = z.infer<typeof conversionOptionsSchema>;

export const transformBatchRequest = z.object({
  fileIds: z.array(id).min(1).max(100),
  target: z.enum(CONVERSION_TARGETS),
  version: z.enum(CONVERSION_VERSIONS).optional().describe('dxf/dwg targets: the version written'),
  options: conversionOptionsSchema.optional(),
  ctoken: z.any().optional(),
});
export type TransformBatchRequest = z.input<typeof transformBatchRequest>;

/** One conversion as the task panel and /yun/transformer show it. */
export const conversionSchema = z.object({
  taskId: z.string(),
  fileId: z.string().describe('the source file'),
  sourceName: z.string(),
  target: z.enum(CONVERSION_TARGETS),
  version: z.string().nullable(),
  transformStatus: z.number().describe('0 converting, 1 done, 2 failed (section 4)'),
  progress: z.number().describe('percent 0–100'),
  stage: z.string().describe('what the job does now: queued, read, draw, write, store'),
  resultFileId: z.string().nullable().describe('the converted file, next to the source, once done and while it exists'),
  resultName: z.string().nullable(),
  code: z.string().nullable().describe('error code of a failed conversion'),
  msg: z.string().nullable().describe("the spec's message of a failed conversion, in the caller's language"),
  createTimestamp: z.number(),
  finishTimestamp: z.number().nullable(),
});
export type Conversion = z.infer<typeof conversionSchema>;

export const transformBatchResult = z.object({ list: z.array(conversionSchema) });

export const checkTaskStatusBatchRequest = z.object({ fileIds: z.array(id).min(1).max(500), ctoken: z.any().optional() });
export const fileTransformStatusSchema = z.object({
  fileId: z.string(),
  transformStatus: z.number().describe('3 never converted, 0 converting, 1 done, 2 failed'),
  progress: z.number(),
  stage: z.string(),
  resultFileId: z.string().nullable(),
  resultName: z.string().nullable(),
  taskId: z.string().nullable(),
  code: z.string().nullable(),
  msg: z.string().nullable(),
});
export const checkTaskStatusBatchResult = z.object({ list: z.array(fileTransformStatusSchema) });

export const transformListRequest = z.object({ page: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(200).default(50) });
export const transformListResult = z.object({ list: z.array(conversionSchema), total: z.number() });

export const transformRetryRequest = z.object({ taskId: id });

export const transformTargetsResult = z.object({
  targets: z.array(z.enum(CONVERSION_TARGETS)).describe('targets this server can write'),
  versions: z.array(z.string()),
  pdfToDrawing: z.boolean().describe('whether a PDF may be converted to a drawing target'),
  pdfTargets: z.array(z.enum(CONVERSION_TARGETS)).describe('targets a PDF source converts to (dxf; dwg once a writer exists)'),
  freePerMonth: z.number().nullable().describe('conversions a free account gets a month (null: unlimited)'),
  usedThisMonth: z.number(),
  premium: z.boolean(),
});
