import { Document, type Material, type Mesh, type Node as GltfNode, type Texture } from '@gltf-transform/core';
import type { Scene, SceneMesh, SceneNode, SceneTexture } from '../scene.ts';

/**
 * The neutral scene as a glTF document: one glTF node per scene node (its name, matrix and, in `extras`, its
 * properties), the node's meshes as the primitives of one glTF mesh, one material per colour (and texture image,
 * embedded once however many materials use it).
 */
export function sceneToDocument(scene: Scene): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const gltfScene = doc.createScene('model').setExtras({ upAxis: scene.upAxis });
  doc.getRoot().setDefaultScene(gltfScene);
  const materials = new Map<string, Material>();
  const instances = new Map<SceneMesh, Mesh>();

  const textures = new Map<Uint8Array, Texture>();
  const material = (color: SceneMesh['color'], texture?: SceneTexture): Material => {
    const rgba = color ? [color[0], color[1], color[2], color[3] ?? 1] : [0.8, 0.8, 0.8, 1];
    const key = rgba.map((c) => c.toFixed(4)).join(',') + (texture ? ` ${texture.name}` : '');
    let m = materials.get(key);
    if (!m) {
      m = doc.createMaterial(`color ${key}`).setBaseColorFactor(rgba as [number, number, number, number]).setMetallicFactor(0).setRoughnessFactor(0.8).setDoubleSided(true);
      if (rgba[3] < 1) m.setAlphaMode('BLEND');
      if (texture) {
        let t = textures.get(texture.image);
        if (!t) textures.set(texture.image, (t = doc.createTexture(texture.name).setImage(texture.image).setMimeType(texture.mimeType).setURI(texture.name)));
        m.setBaseColorTexture(t);
      }
      materials.set(key, m);
    }
    return m;
  };

  const primitive = (m: SceneMesh) => {
    const count = m.positions.length / 3;
    // triangles as given; unindexed ones (three's loaders) are indexed by welding at the finish
    const positions = m.indices || m.mode === 'lines' || count % 3 === 0 ? m.positions : m.positions.subarray(0, (count - (count % 3)) * 3);
    const textured = m.texture && m.uvs && m.uvs.length / 2 === count ? m.texture : undefined;
    const p = doc.createPrimitive().setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer)).setMaterial(material(m.color, textured));
    if (m.mode === 'lines') p.setMode(1); // LINES
    if (textured) p.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(m.indices ? m.uvs! : m.uvs!.subarray(0, (positions.length / 3) * 2)).setBuffer(buffer));
    if (m.indices) p.setIndices(doc.createAccessor().setType('SCALAR').setArray(count > 65535 ? m.indices : Uint16Array.from(m.indices)).setBuffer(buffer));
    if (m.colors && m.colors.length === m.positions.length) p.setAttribute('COLOR_0', doc.createAccessor().setType('VEC3').setArray(m.indices ? m.colors : m.colors.subarray(0, positions.length)).setBuffer(buffer));
    if (m.normals && m.normals.length === m.positions.length) p.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(m.indices ? m.normals : m.normals.subarray(0, positions.length)).setBuffer(buffer));
    return p;
  };

  const build = (n: SceneNode): GltfNode => {
    const g = doc.createNode(n.name);
    if (n.matrix) g.setMatrix(n.matrix as Parameters<GltfNode['setMatrix']>[0]);
    if (n.properties && Object.keys(n.properties).length) g.setExtras({ properties: n.properties });
    const meshes = n.meshes.filter((m) => m.positions.length >= (m.mode === 'lines' ? 6 : 9));
    // a scene mesh that is a node's only one is written once, however many nodes place it (instances)
    const reused = meshes.length === 1 ? instances.get(meshes[0]) : undefined;
    if (reused) g.setMesh(reused);
    else if (meshes.length) {
      const mesh = doc.createMesh(meshes[0].name ?? n.name);
      for (const m of meshes) mesh.addPrimitive(primitive(m));
      if (meshes.length === 1) instances.set(meshes[0], mesh);
      g.setMesh(mesh);
    }
    for (const c of n.children) g.addChild(build(c));
    return g;
  };
  for (const r of scene.roots) gltfScene.addChild(build(r));
  return doc;
}
