// FBX, COLLADA (DAE), 3DS and 3MF through assimpjs (assimp in WebAssembly, BSD/MIT; its WASM from node_modules),
// which writes glTF 2 binary; that GLB then goes the glTF pass-through's way. Files the model names (textures, a DAE's
// parts) are handed to assimp from the files given beside it. assimp turns a 3DS's Z up into glTF's Y up. The object
// names it drops (3MF, 3DS without keyframes) are read from the source (source-names.ts).
import type { Document } from '@gltf-transform/core';
import { badInput } from '../errors.ts';
import type { Model3dLimits } from '../limits.ts';
import { loadEmscripten } from './emscripten.ts';
import { importGltf } from './gltf.ts';
import { sourceNames } from './source-names.ts';

interface AssimpResult {
  IsSuccess(): boolean;
  FileCount(): number;
  GetErrorCode(): string;
  GetFile(i: number): { GetContent(): Uint8Array };
}
interface Assimp {
  FileList: new () => { AddFile(name: string, content: Uint8Array): void };
  ConvertFileList(files: InstanceType<Assimp['FileList']>, format: string): AssimpResult;
}

export async function importAssimp(input: Uint8Array, fileName: string, extraFiles: Map<string, Uint8Array>, limits: Model3dLimits): Promise<Document> {
  const ajs = await loadEmscripten<Assimp>('assimpjs');
  const files = new ajs.FileList();
  files.AddFile(fileName, input);
  for (const [name, bytes] of extraFiles) files.AddFile(name, bytes);
  let r: AssimpResult;
  try {
    r = ajs.ConvertFileList(files, 'glb2');
  } catch (e) {
    throw badInput(`${fileName} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!r.IsSuccess() || !r.FileCount()) throw badInput(`${fileName} could not be read (${r.GetErrorCode()})`);
  const doc = await importGltf(r.GetFile(0).GetContent().slice(), true, new Map(), limits);
  if (!doc.getRoot().listMeshes().length) throw badInput(`${fileName} holds no meshes`);
  const ext = fileName.toLowerCase().split('.').pop();
  if (ext === '3ds' || ext === '3mf') {
    const names = sourceNames(input, ext);
    for (const n of doc.getRoot().listNodes()) {
      const own = names.get(n.getName());
      if (own) (n.setName(own), n.getMesh()?.setName(own));
    }
  }
  return doc;
}
