import { CONVERSION_PATHS, type Conversion, type ConversionOptions, type ConversionTarget } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

export type { Conversion, ConversionTarget };

export interface ConversionTargets {
  targets: ConversionTarget[];
  versions: string[];
  pdfToDrawing: boolean;
  /** what a PDF converts to (DXF) */
  pdfTargets: ConversionTarget[];
  freePerMonth: number | null;
  usedThisMonth: number;
  premium: boolean;
}

export interface FileTransformStatus {
  fileId: string;
  transformStatus: number;
  progress: number;
  stage: string;
  resultFileId: string | null;
  resultName: string | null;
  taskId: string | null;
  code: string | null;
  msg: string | null;
}

export const conversionsApi = {
  targets: () => call<ConversionTargets>(CONVERSION_PATHS.targets, {}),
  transform: (fileIds: string[], target: ConversionTarget, version?: string, options?: ConversionOptions) => call<{ list: Conversion[] }>(CONVERSION_PATHS.transformBatch, { fileIds, target, version, options }),
  status: (fileIds: string[]) => call<{ list: FileTransformStatus[] }>(CONVERSION_PATHS.checkTaskStatusBatch, { fileIds }),
  list: (page = 1, pageSize = 50) => call<{ list: Conversion[]; total: number }>(CONVERSION_PATHS.list, { page, pageSize }),
  retry: (taskId: string) => call<{ list: Conversion[] }>(CONVERSION_PATHS.retry, { taskId }),
};

/** Section 4's transform status. */
export const IN_TRANSFORM = 0;
export const SUCCESS_TRANSFORM = 1;
export const FAIL_TRANSFORM = 2;
/** Extensions the server converts (contracts CONVERTIBLE_DRAWING_TYPES), and PDFs, which become drawings (CONVERTIBLE_PDF_TYPES). */
const DRAWINGS = new Set(['dwg', 'dxf', 'dws', 'dwt']);
export const isPdf = (i: { name?: string; type?: string }) => (i.type ?? i.name?.split('.').pop() ?? '').toLowerCase() === 'pdf';
export const isConvertible = (i: { fileType: number; type: string }) => i.fileType === 1 && (DRAWINGS.has(i.type.toLowerCase()) || isPdf(i));
