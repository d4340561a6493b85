export * from './model/drawing.ts';
export { parseDxf, KNOWN_ENTITY_TYPES, pairValue } from './dxf/reader.ts';
export { drawingInfo } from './info.ts';
export { decodeEscapes } from './dxf/codepage.ts';
export { flattenModelSpace, flattenEntities, plainMText, type Flattened, type FlattenOptions, type Polyline2, type TextRun, type EntityRef, type Affine } from './geometry/flatten.ts';
export { renderSvg, boundsOf } from './render/svg.ts';
export { aciToRgb } from './geometry/aci.ts';
export { parseDwg, dwgToDxf, stopDwgWorker } from './dwg/dwg-reader.ts';
export { renderPng } from './render/png.ts';
