export { writeDxf, writeDxfDetailed, type DxfWritten, type WriteDxfOptions } from './write.ts';
export { ACADVER } from './versions.ts';
