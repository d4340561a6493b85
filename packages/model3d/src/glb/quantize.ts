// gltf-transform's quantize() for the merged primitives of a batched document (batch.ts), with the same arithmetic in
// typed-array loops: its own pass reads and writes every vertex through Accessor.getElement/setElement (a third of the
// writing of a 55 000-element IFC). The output is the one quantize() writes (the same node transforms, quantized
// values, accessor order, KHR_mesh_quantization); anything this copy does not cover (morph targets, skins, texture
// coordinates, a mesh placed by a node with children or by several nodes) is left to quantize() itself.
import { type Accessor, type Document, Node, PropertyType } from '@gltf-transform/core';
import { KHRMeshQuantization } from '@gltf-transform/extensions';
import { dedup, quantize } from '@gltf-transform/functions';

type Mat4 = number[];

/** gl-matrix's mat4.multiply, as quantize() composes the node's matrix with the dequantization */
function multiply(a: Mat4, b: Mat4): Mat4 {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) {
    const b0 = b[c * 4], b1 = b[c * 4 + 1], b2 = b[c * 4 + 2], b3 = b[c * 4 + 3];
    for (let r = 0; r < 4; r++) out[c * 4 + r] = b0 * a[r] + b1 * a[4 + r] + b2 * a[8 + r] + b3 * a[12 + r];
  }
  return out;
}

/** gl-matrix's mat4.invert (the same operations in the same order: the same rounding) */
function invert(a: Mat4): Mat4 {
  const [a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33] = a;
  const b00 = a00 * a11 - a01 * a10, b01 = a00 * a12 - a02 * a10, b02 = a00 * a13 - a03 * a10, b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11, b05 = a02 * a13 - a03 * a12, b06 = a20 * a31 - a21 * a30, b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30, b09 = a21 * a32 - a22 * a31, b10 = a21 * a33 - a23 * a31, b11 = a22 * a33 - a23 * a32;
  const det = 1 / (b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06);
  return [
    (a11 * b11 - a12 * b10 + a13 * b09) * det, (a02 * b10 - a01 * b11 - a03 * b09) * det, (a31 * b05 - a32 * b04 + a33 * b03) * det, (a22 * b04 - a21 * b05 - a23 * b03) * det,
    (a12 * b08 - a10 * b11 - a13 * b07) * det, (a00 * b11 - a02 * b08 + a03 * b07) * det, (a32 * b02 - a30 * b05 - a33 * b01) * det, (a20 * b05 - a22 * b02 + a23 * b01) * det,
    (a10 * b10 - a11 * b08 + a13 * b06) * det, (a01 * b08 - a00 * b10 - a03 * b06) * det, (a30 * b04 - a31 * b02 + a33 * b00) * det, (a21 * b02 - a20 * b04 - a23 * b00) * det,
    (a11 * b07 - a10 * b09 - a12 * b06) * det, (a00 * b09 - a01 * b07 + a02 * b06) * det, (a31 * b01 - a30 * b03 - a32 * b00) * det, (a20 * b03 - a21 * b01 + a22 * b00) * det,
  ];
}

/** quantize()'s uniform remapping of [-1, 1] (signed) or [0, 1] to `bits` in the array type */
function quantizeValues(src: Float32Array, ctor: Int16ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor | Uint16ArrayConstructor, bits: number) {
  const out = new ctor(src.length);
  const signBits = ctor === Int16Array || ctor === Int8Array ? 1 : 0;
  const quantBits = bits - signBits;
  const storageBits = ctor.BYTES_PER_ELEMENT * 8 - signBits;
  const scale = Math.pow(2, quantBits) - 1;
  const lo = storageBits - quantBits;
  const hi = 2 * quantBits - storageBits;
  const low = signBits > 0 ? -1 : 0;
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    let q = Math.round(Math.abs(Math.min(Math.max(v, low), 1)) * scale);
    q = (q << lo) | (q >> hi);
    out[i] = q * Math.sign(v);
  }
  return out;
}

const SETTINGS: Record<string, { ctor: Int16ArrayConstructor | Uint8ArrayConstructor; bits: number }> = { NORMAL: { ctor: Int16Array, bits: 10 }, COLOR_0: { ctor: Uint8Array, bits: 8 } };

/** true when every mesh is what batch.ts writes: float POSITION (NORMAL, COLOR_0), indexed, one childless node each */
function covered(doc: Document): boolean {
  for (const mesh of doc.getRoot().listMeshes()) {
    const parents = mesh.listParents().filter((p): p is Node => p instanceof Node);
    if (parents.length !== 1 || parents[0].listChildren().length || parents[0].getSkin()) return false;
    for (const p of mesh.listPrimitives()) {
      if (p.listTargets().length || !p.getIndices() || p.getIndices()!.getCount() < p.getAttribute('POSITION')!.getCount() / 2) return false;
      for (const s of p.listSemantics()) if ((s !== 'POSITION' && !SETTINGS[s]) || !(p.getAttribute(s)!.getArray() instanceof Float32Array)) return false;
    }
  }
  return true;
}

/** quantize({ quantizePosition: positionBits }) (mesh volumes, 10-bit normals, 8-bit colours), in typed arrays */
export async function quantizeMerged(doc: Document, positionBits: number): Promise<void> {
  if (!covered(doc)) {
    await doc.transform(quantize({ pattern: /.*/, patternTargets: /.*/, quantizePosition: positionBits }));
    return;
  }
  const replaced: Accessor[] = [];
  for (const mesh of doc.getRoot().listMeshes()) {
    // the mesh's volume: its positions' bounds (quantize's getPositionQuantizationVolume)
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (const p of mesh.listPrimitives()) {
      const a = p.getAttribute('POSITION')!.getArray() as Float32Array;
      for (let i = 0; i < a.length; i += 3)
        for (let k = 0; k < 3; k++) {
          if (a[i + k] < min[k]) min[k] = a[i + k];
          if (a[i + k] > max[k]) max[k] = a[i + k];
        }
    }
    const scale = Math.max((max[0] - min[0]) / 2, (max[1] - min[1]) / 2, (max[2] - min[2]) / 2);
    const offset = [min[0] + (max[0] - min[0]) / 2, min[1] + (max[1] - min[1]) / 2, min[2] + (max[2] - min[2]) / 2];
    // fromRotationTranslationScale(identity, offset, [scale × 3]), composed into the node's matrix
    const transform = [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0, offset[0], offset[1], offset[2], 1];
    const node = mesh.listParents().find((p): p is Node => p instanceof Node)!;
    node.setMatrix(multiply(node.getMatrix(), transform) as Parameters<Node['setMatrix']>[0]);
    const m = invert(transform);
    for (const prim of mesh.listPrimitives()) {
      for (const semantic of prim.listSemantics()) {
        const src = prim.getAttribute(semantic)!;
        const array = src.getArray() as Float32Array;
        let values = array;
        const { ctor, bits } = semantic === 'POSITION' ? { ctor: positionBits <= 8 ? Int8Array : Int16Array, bits: positionBits } : SETTINGS[semantic];
        if (semantic === 'POSITION') {
          // gl-matrix's transformMat4 (w = 1), stored as 32-bit floats as setElement does
          values = new Float32Array(array.length);
          for (let i = 0; i < array.length; i += 3) {
            const x = array[i], y = array[i + 1], z = array[i + 2];
            const w = m[3] * x + m[7] * y + m[11] * z + m[15] || 1;
            values[i] = (m[0] * x + m[4] * y + m[8] * z + m[12]) / w;
            values[i + 1] = (m[1] * x + m[5] * y + m[9] * z + m[13]) / w;
            values[i + 2] = (m[2] * x + m[6] * y + m[10] * z + m[14]) / w;
          }
        }
        // src.clone() with its array replaced (clone() would copy the float array first, to be thrown away)
        const dst = doc.createAccessor(src.getName()).setType(src.getType()).setBuffer(src.getBuffer()).setExtras(src.getExtras()).setArray(quantizeValues(values, ctor, bits)).setNormalized(true);
        prim.setAttribute(semantic, dst);
        replaced.push(src);
      }
      const indices = prim.getIndices()!;
      if (prim.getAttribute('POSITION')!.getCount() < 65535 && !(indices.getArray() instanceof Uint16Array)) indices.setArray(new Uint16Array(indices.getArray()!));
    }
  }
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  // quantize()'s clean-up: the float accessors replaced go (prune), equal accessors are merged (dedup)
  for (const a of replaced) if (a.listParents().every((p) => p.propertyType === PropertyType.ROOT)) a.dispose();
  await doc.transform(dedup({ propertyTypes: [PropertyType.ACCESSOR, PropertyType.MATERIAL, PropertyType.SKIN], keepUniqueNames: true }));
}
