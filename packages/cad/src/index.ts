export * from './model/drawing.ts';
export { parseDxf, KNOWN_ENTITY_TYPES, pairValue } from './dxf/reader.ts';
export { drawingInfo } from './info.ts';
export { decodeEscapes } from './dxf/codepage.ts';
