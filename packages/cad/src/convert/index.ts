export { convertDrawing, chosenLayouts, type ConvertOptions, type ConvertSupport, type Converted } from './convert.ts';
export { CONVERT_TARGETS, DXF_VERSIONS, TARGET_MIME, writableTargets, type ConvertTarget, type DxfVersion } from './targets.ts';
export { loadConvertText } from './support.ts';
export { isPdfName, pdfTargets, readConvertSource, type PdfSourceOptions } from './source.ts';
