// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { App as AntApp, message } from 'antd';
import { Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTMeshoptCompression } from '@gltf-transform/extensions';
import { meshopt, quantize } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer';
import { type Mesh, type Object3D, Raycaster, Vector3 } from 'three';
import { setLanguage } from '../../lib/i18n.ts';
import { stubBrowserApis } from '../../testing/jsdom.ts';
import { View3dPage } from './View3dPage.tsx';
import { ElementProperties, ModelTree } from './ModelPanels.tsx';
import { parseGlb } from './engine.ts';
import { buildTree, elementOf, hide, isolate, isShown, propertiesOf, showAll } from './scene-tree.ts';
import { BatchedElements } from './batches.ts';
import { distance, formatDistance, snapToVertex, type Vec3 } from './measure3d.ts';
import { keeps, sectionPlane, sectionPosition } from './section.ts';
import { convertOrOpen3d, is3d, Model3dProgress, useModel3dProgress } from './Model3dAction.tsx';
import { barPercent, Model3dRows } from './Model3dRows.tsx';
import type { Model3dTask } from '@cadcloud/contracts';

const ok = (bizData: unknown) => new Response(JSON.stringify({ rtnCode: '0000000', msg: 'success', bizData }), { headers: { 'content-type': 'application/json' } });
const fail = (rtnCode: string, msg: string) => new Response(JSON.stringify({ rtnCode, msg, bizData: { code: 'model3d.trials' } }), { headers: { 'content-type': 'application/json' } });
const status = (o: object) => ({ fileId: 'f1', transformStatus: 3, progress: 0, stage: 'queued', code: null, msg: null, glbUrl: null, stats: null, name: 'part.step', ...o });
let statusAnswer: object = status({});
let transformAnswer: Response | (() => Response) = ok({ list: [status({ transformStatus: 0, progress: 0 })], allDone: false });
const calls: { url: string; body: any }[] = [];
const revitAnswer = {
  version: '2023', build: '20220307_1515(x64)', title: 'Office & Lab', lastSavePath: 'C:\\Projects\\Office.rvt', centralModelPath: null, worksharing: 'Not enabled',
  clientName: 'Ada & Co', projectNumber: 'P-17', projectAddress: '1 Harbour Road\nKowloon', projectParameters: { 'Client Name': 'Ada & Co', 'Project Status': 'Design' }, details: {},
  advice: 'Revit files cannot be converted: export it to IFC from Revit',
};

/** The server's answers to the 3D calls. */
async function server(url: string, init: RequestInit) {
  calls.push({ url, body: JSON.parse(String(init?.body ?? '{}')) });
  if (url === '/cloud/v5/file/task/checkTaskStatus3D') return ok(statusAnswer);
  if (url === '/cloud/v5/file/task/transformBatch3D') return typeof transformAnswer === 'function' ? transformAnswer() : transformAnswer;
  if (url === '/cloud/v5/file/task/revitInfo3D') return ok(revitAnswer);
  if (url === '/cloud/v5/file/getFileInfo') return ok({ id: 'f1', name: 'Office.rvt', fileType: 1, thumbkey: 'v1-abc.png' });
  if (url === '/cloud/v5/file/task/checkTaskStatusBatch3D') return ok({ list: [status({ fileId: 'm1', name: 'm1.ifc', transformStatus: 0, progress: 40 })] });
  throw new TypeError(`unexpected ${url}`);
}

beforeAll(() => {
  stubBrowserApis();
  vi.stubGlobal('fetch', server);
  setLanguage('en');
});
afterEach(async () => {
  cleanup();
  message.destroy();
  vi.useRealTimers();
  calls.length = 0;
  await new Promise((r) => setTimeout(r, 20));
});
afterAll(() => vi.unstubAllGlobals());

const page = () =>
  render(
    <AntApp>
      <MemoryRouter initialEntries={['/view3d?key=f1']}>
        <Routes>
          <Route path="/view3d" element={<View3dPage />} />
        </Routes>
      </MemoryRouter>
    </AntApp>,
  );

/** A small GLB as the converter writes it: Z up in the scene's extras, a site with a wall (properties) and a door, meshopt-compressed. */
async function smallGlb(): Promise<ArrayBuffer> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('model').setExtras({ upAxis: 'Z' });
  doc.getRoot().setDefaultScene(scene);
  const box = (x0: number, x1: number, y0: number, y1: number, z0: number, z1: number) => {
    const pos: number[] = [];
    for (const z of [z0, z1]) for (const y of [y0, y1]) for (const x of [x0, x1]) pos.push(x, y, z);
    const idx = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
    const prim = doc.createPrimitive().setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(pos)).setBuffer(buffer)).setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(idx)).setBuffer(buffer));
    return doc.createMesh().addPrimitive(prim);
  };
  const site = doc.createNode('Site');
  const wall = doc.createNode('Wall').setMesh(box(0, 4, 0, 0.2, 0, 3)).setExtras({ properties: { IfcType: 'IfcWall', 'Pset_WallCommon.IsExternal': true } });
  const door = doc.createNode('Door').setMesh(box(1, 2, 0, 0.2, 0, 2)).setExtras({ properties: { IfcType: 'IfcDoor' } });
  site.addChild(wall).addChild(door);
  scene.addChild(site);
  await MeshoptEncoder.ready;
  await doc.transform(meshopt({ encoder: MeshoptEncoder }));
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.encoder': MeshoptEncoder });
  const glb = await io.writeBinary(doc);
  expect(doc.getRoot().listExtensionsUsed().map((e) => e.extensionName)).toContain('EXT_meshopt_compression');
  return glb.slice().buffer;
}

/**
 * A batched GLB as the converter writes one for many elements (packages/model3d glb/batch.ts): a wall (x 0–4), a door
 * (x 5–6) and a window (x 8–9) merged into one primitive, each element a node without a mesh holding its properties
 * and its triangles [batch, first, count]; the merged mesh under a node marked `batches: true`; quantized and
 * meshopt-compressed without reordering.
 */
async function batchedGlb(): Promise<ArrayBuffer> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('model').setExtras({ upAxis: 'Z' });
  doc.getRoot().setDefaultScene(scene);
  const pos: number[] = [];
  const idx: number[] = [];
  const box = (x0: number, x1: number, h: number) => {
    const base = pos.length / 3;
    for (const z of [0, h]) for (const y of [0, 0.2]) for (const x of [x0, x1]) pos.push(x, y, z);
    idx.push(...[0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5].map((i) => base + i));
  };
  box(0, 4, 3);
  box(5, 6, 2);
  box(8, 9, 1.5);
  const prim = doc.createPrimitive().setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(pos)).setBuffer(buffer)).setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(idx)).setBuffer(buffer));
  const site = doc.createNode('Site');
  [['Wall', 'IfcWall'], ['Door', 'IfcDoor'], ['Window', 'IfcWindow']].forEach(([name, type], i) => site.addChild(doc.createNode(name).setExtras({ properties: { type }, batches: [0, i * 12, 12] })));
  const holder = doc.createNode('').setExtras({ batches: true }).addChild(doc.createNode('batch 0').setMesh(doc.createMesh('batch 0').addPrimitive(prim)));
  scene.addChild(site).addChild(holder);
  await MeshoptEncoder.ready;
  await doc.transform(quantize({ quantizePosition: 16 }));
  doc.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.encoder': MeshoptEncoder });
  return (await io.writeBinary(doc)).slice().buffer;
}

const named = (root: Object3D, name: string) => root.getObjectByName(name)!;

describe('the /view3d page', () => {
  it('not converted: the spec\'s "not viewable on the web" with Convert, which asks transformBatch3D and says "added to the conversion list"', async () => {
    statusAnswer = status({});
    page();
    expect(await screen.findByText('This 3D model has not been converted and cannot be viewed on the web')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/cloud/v5/file/task/checkTaskStatus3D', body: { data: { fileId: 'f1' } } });
    statusAnswer = status({ transformStatus: 0, progress: 10, stage: 'read' });
    fireEvent.click(screen.getByTestId('view3d-convert'));
    expect(await screen.findByText('The file has been added to the conversion list and is being converted')).toBeTruthy();
    expect(calls.find((c) => c.url.endsWith('transformBatch3D'))?.body.data).toEqual({ fileIds: ['f1'], isTransForm: true });
    expect(await screen.findByText('Converting… 10%')).toBeTruthy();
  });

  it('converted, but an MTL or texture beside it changed since (stale): converted again on opening, once, with the reason', async () => {
    statusAnswer = status({ transformStatus: 1, progress: 100, glbUrl: '/glb', stale: true, name: 'crate.obj' });
    transformAnswer = ok({ list: [status({ transformStatus: 0, progress: 0, name: 'crate.obj' })], allDone: false });
    page();
    expect(await screen.findByText('The material or texture files beside this model changed: converting it again')).toBeTruthy();
    expect(await screen.findByText('Converting… 0%')).toBeTruthy();
    expect(calls.filter((c) => c.url.endsWith('transformBatch3D')).map((c) => c.body.data)).toEqual([{ fileIds: ['f1'], isTransForm: true }]);
    statusAnswer = status({});
    transformAnswer = ok({ list: [status({ transformStatus: 0, progress: 0 })], allDone: false });
  });

  it('converting: the progress, asked again every 5 s until it changes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    statusAnswer = status({ transformStatus: 0, progress: 40, stage: 'mesh' });
    page();
    expect(await screen.findByText('Converting… 40%', undefined, { timeout: 5000 })).toBeTruthy();
    const asked = calls.length;
    statusAnswer = status({ transformStatus: 0, progress: 80, stage: 'write' });
    await act(async () => void vi.advanceTimersByTime(4900));
    expect(calls.length).toBe(asked);
    await act(async () => void vi.advanceTimersByTime(200));
    // the poll's answer renders once the fetch resolves: more than findBy's default 1 s among the suite's parallel files
    expect(await screen.findByText('Converting… 80%', undefined, { timeout: 5000 })).toBeTruthy();
  });

  it("failed: the server's message and a way to convert again; a refusal (trials used up) is shown as it is", async () => {
    statusAnswer = status({ transformStatus: 2, code: 'model3d.failed', msg: 'Failed to convert the file format.' });
    transformAnswer = fail('1002', 'Your free 3D conversions are used up');
    page();
    expect(await screen.findByText('Failed to convert the file format.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('view3d-convert'));
    expect(await screen.findByText('Your free 3D conversions are used up')).toBeTruthy();
    transformAnswer = ok({ list: [status({ transformStatus: 0, progress: 0 })], allDone: false });
  });

  it('a Revit file: its preview, version and project information (client, number, address, other parameters) and the IFC advice; no Convert', async () => {
    statusAnswer = status({ name: 'Office.rvt' });
    page();
    await screen.findByTestId('revit-info');
    const text = screen.getByTestId('revit-details').textContent!;
    for (const s of ['2023 (20220307_1515(x64))', 'Office & Lab', 'Client name', 'Ada & Co', 'Project number', 'P-17', '1 Harbour Road', 'Kowloon', 'Project Status', 'Design']) expect(text).toContain(s);
    expect(screen.getByTestId('revit-advice').textContent).toContain('export it to IFC from Revit');
    await waitFor(() => expect(screen.getByTestId('revit-preview').getAttribute('src')).toBe('/cloud/v5/file/thumb/v1-abc.png'));
    expect(screen.queryByTestId('view3d-convert')).toBeNull();
    expect(calls.some((c) => c.url.endsWith('transformBatch3D'))).toBe(false);
    statusAnswer = status({});
  });

  it('a file the user may not see: the server\'s message', async () => {
    statusAnswer = status({});
    vi.stubGlobal('fetch', async () => fail('404', 'file does not exist'));
    page();
    expect(await screen.findByText('file does not exist')).toBeTruthy();
    vi.stubGlobal('fetch', server);
  });
});

describe('the model from a GLB (no WebGL needed)', () => {
  it('loads a meshopt-compressed GLB: Z-up turned upright, the tree of its nodes, hide / isolate / show all, the properties of a picked element', async () => {
    const { model } = await parseGlb(await smallGlb());
    // Z up: the wall's height (model Z 0–3) is the displayed Y
    expect(model.rotation.x).toBeCloseTo(-Math.PI / 2);
    const box = new (await import('three')).Box3().setFromObject(model);
    expect(box.max.y).toBeCloseTo(3, 2);
    expect(buildTree(model).map((n) => [n.title, n.children.map((c) => c.title)])).toEqual([['Site', ['Wall', 'Door']]]);

    let selected: Object3D | null = null;
    const onChange = vi.fn();
    const view = () => <ModelTree model={model} selected={selected} onSelect={(o) => (selected = o)} onChange={onChange} />;
    const { rerender } = render(view());
    fireEvent.click(screen.getByTestId('tree-Wall'));
    expect(selected!.name).toBe('Wall');
    rerender(view());
    fireEvent.click(screen.getByTestId('tree-hide'));
    expect(isShown(named(model, 'Wall'))).toBe(false);
    expect(isShown(named(model, 'Door'))).toBe(true);
    fireEvent.click(screen.getByTestId('tree-show-all'));
    expect(isShown(named(model, 'Wall'))).toBe(true);
    fireEvent.click(screen.getByTestId('tree-isolate'));
    expect([isShown(named(model, 'Wall')), isShown(named(model, 'Door')), isShown(named(model, 'Site'))]).toEqual([true, false, true]);
    expect(onChange).toHaveBeenCalledTimes(3);

    // a picked primitive of the wall's mesh: its element is the named node, with the properties the converter wrote
    let mesh: Object3D | null = null;
    named(model, 'Wall').traverse((o) => ((o as any).isMesh ? (mesh ??= o) : undefined));
    const element = elementOf(mesh!, model);
    expect(element.name).toBe('Wall');
    expect(propertiesOf(element)).toEqual([['IfcType', 'IfcWall'], ['Pset_WallCommon.IsExternal', 'true']]);
    cleanup();
    render(<ElementProperties element={element} />);
    expect(screen.getByText('IfcWall')).toBeTruthy();
    expect(screen.getByText('Wall')).toBeTruthy();
  });
});

describe('a batched model (elements as triangle ranges of merged meshes)', () => {
  it('the tree lists the elements (not the merged mesh); a ray picks the element owning the triangle; hide, isolate and the selection become draw groups; fit uses the shown elements', async () => {
    const { model } = await parseGlb(await batchedGlb());
    model.updateMatrixWorld(true);
    expect(buildTree(model).map((n) => [n.title, n.children.map((c) => c.title)])).toEqual([['Site', ['Wall', 'Door', 'Window']]]);
    const batches = BatchedElements.of(model, (m) => m.clone())!;
    expect(batches.meshes).toHaveLength(1);
    const mesh = batches.meshes[0];
    const groups = () => mesh.geometry.groups.map((g) => [g.start / 3, g.count / 3, g.materialIndex]);
    expect(groups()).toEqual([[0, 36, 0]]);
    expect(batches.elementAt(mesh, 13)!.name).toBe('Door');
    expect(batches.elementAt(mesh, 35)!.name).toBe('Window');

    // a ray down onto the door (model x 5.5, y 0.1; Z up turned to Y up: from above is +Y) hits the door's triangles
    const down = (x: number) => {
      const ray = new Raycaster(new Vector3(x, 10, -0.1), new Vector3(0, -1, 0));
      const hit = ray.intersectObject(model, true)[0];
      return hit && batches.elementAt(hit.object as Mesh, hit.faceIndex!)?.name;
    };
    expect([down(2), down(5.5), down(8.5), down(7)]).toEqual(['Wall', 'Door', 'Window', undefined]);
    expect(propertiesOf(named(model, 'Door'))).toEqual([['type', 'IfcDoor']]);

    // hidden: its triangles are not drawn and not picked; the shown box ends before it
    hide([named(model, 'Window')]);
    batches.refresh(null);
    expect(groups()).toEqual([[0, 24, 0]]);
    expect(down(8.5)).toBeUndefined();
    expect(batches.shownBox().max.x).toBeCloseTo(6, 3);
    // isolated: the door alone, the merged mesh itself still visible
    isolate(model, named(model, 'Door'));
    batches.refresh(null);
    expect(groups()).toEqual([[12, 12, 0]]);
    expect(isShown(mesh)).toBe(true);
    expect(batches.shownBox().min.x).toBeCloseTo(5, 3);
    // shown again with the door selected: its triangles drawn with the highlight (material 1)
    showAll(model);
    batches.refresh(named(model, 'Door'));
    expect(groups()).toEqual([[0, 12, 0], [12, 12, 1], [24, 12, 0]]);
    expect((mesh.material as unknown[]).length).toBe(2);
    // selecting the site highlights all of its elements
    batches.refresh(named(model, 'Site'));
    expect(groups()).toEqual([[0, 36, 1]]);
    // the edges of the shown triangles only
    hide([named(model, 'Wall')]);
    batches.refresh(null);
    expect(batches.shownGeometry(mesh).getIndex()!.count).toBe(72);
  });
});

describe('measurement and section maths', () => {
  // a camera looking down −Z at 100 px per unit, origin at (200, 200)
  const project = (p: Vec3): [number, number] => [200 + p[0] * 100, 200 - p[1] * 100];

  it('a click snaps to the nearest vertex within a few pixels, otherwise stays where it hit; the distance is in model units', () => {
    const corners: Vec3[] = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
    expect(snapToVertex([0.96, 0.03, 0], corners, project)).toEqual({ point: [1, 0, 0], snapped: true });
    expect(snapToVertex([0.5, 0.2, 0], corners, project)).toEqual({ point: [0.5, 0.2, 0], snapped: false });
    // the nearer of two vertices in range wins
    expect(snapToVertex([0.5, 0.5, 0], [[0.55, 0.5, 0], [0.52, 0.5, 0]], project).point).toEqual([0.52, 0.5, 0]);
    // 10 px away is outside the default 8 px
    expect(snapToVertex([0.9, 0, 0], corners, project).snapped).toBe(false);
    expect(snapToVertex([0.5, 0, 0], corners, () => null).snapped).toBe(false);
    expect(distance([0, 0, 0], [3, 4, 12])).toBe(13);
    expect(formatDistance(25.4)).toBe('25.4');
    expect(formatDistance(1 / 3)).toBe('0.333333');
    expect(formatDistance(12345.678)).toBe('12345.7');
  });

  it('the section plane moves across the box with the slider and flips which side is kept', () => {
    const box = { min: [0, -2, 10], max: [10, 2, 20] } as const;
    expect(sectionPosition(box, 'x', 0.25)).toBe(2.5);
    expect(sectionPosition(box, 'z', 2)).toBe(20);
    const p = sectionPlane(box, 'x', 0.25, false);
    expect(keeps(p, [1, 0, 15])).toBe(true);
    expect(keeps(p, [3, 0, 15])).toBe(false);
    const f = sectionPlane(box, 'x', 0.25, true);
    expect(keeps(f, [1, 0, 15])).toBe(false);
    expect(keeps(f, [3, 0, 15])).toBe(true);
    expect(keeps(sectionPlane(box, 'y', 0.5, false), [0, -0.1, 0])).toBe(true);
    expect(keeps(sectionPlane(box, 'y', 0.5, false), [0, 0.1, 0])).toBe(false);
  });
});

describe("the drive's Convert to 3D / Open 3D", () => {
  const t = (k: string) => ({ 'model3d.busy': 'There are 3D models being converting, please select again', 'model3d.queued': 'added' })[k] ?? k;
  const notify = () => ({ info: vi.fn(), warning: vi.fn(), error: vi.fn() });

  it('3D files by extension; converted ones open the viewer in a new tab, others are added to the conversion list; a converting one blocks', async () => {
    expect([is3d({ fileType: 1, name: 'a.STEP' }), is3d({ fileType: 1, name: 'a.dwg' }), is3d({ fileType: 0, name: 'x.stl' })]).toEqual([true, false, false]);
    const n = notify();
    const opened: string[] = [];
    expect(await convertOrOpen3d([{ id: 'f 1', name: 'a.stl', fileType: 1, transformStatus: 0 }], n, t, (h) => void opened.push(h))).toBe(false);
    expect(n.warning).toHaveBeenCalledWith('There are 3D models being converting, please select again');
    expect(calls).toHaveLength(0);

    transformAnswer = ok({ list: [status({ fileId: 'f 1', transformStatus: 1 })], allDone: true });
    expect(await convertOrOpen3d([{ id: 'f 1', name: 'a.stl', fileType: 1, transformStatus: 1 }], n, t, (h) => void opened.push(h))).toBe(false);
    expect(opened).toEqual(['/view3d?key=f%201']);

    transformAnswer = ok({ list: [status({ transformStatus: 0 })], allDone: false });
    expect(await convertOrOpen3d([{ id: 'f1', name: 'a.stl', fileType: 1, transformStatus: 3 }], n, t, (h) => void opened.push(h))).toBe(true);
    expect(n.info).toHaveBeenCalledWith('added');
    expect(opened).toHaveLength(1);

    transformAnswer = fail('1002', 'Super membership is required for 3D conversion');
    expect(await convertOrOpen3d([{ id: 'f1', name: 'a.stl', fileType: 1 }], n, t)).toBe(false);
    expect(n.error).toHaveBeenCalledWith('Super membership is required for 3D conversion');
    transformAnswer = ok({ list: [status({ transformStatus: 0, progress: 0 })], allDone: false });
  });
  it('a Revit file opens its information in the viewer\'s tab without asking for a conversion', async () => {
    const opened: string[] = [];
    expect(await convertOrOpen3d([{ id: 'r1', name: 'Office.RVT', fileType: 1, transformStatus: 3 }], notify(), t, (h) => void opened.push(h))).toBe(false);
    expect(opened).toEqual(['/view3d?key=r1']);
    expect(calls.some((c) => c.url.endsWith('transformBatch3D'))).toBe(false);
  });
});

describe('the drive list: progress of converting 3D models', () => {
  it('asks checkTaskStatusBatch3D for the converting 3D files only, and shows each one\'s progress by its name', async () => {
    const items = [
      { id: 'm1', name: 'm1.ifc', fileType: 1, transformStatus: 0 },
      { id: 'm2', name: 'm2.ifc', fileType: 1, transformStatus: 1 },
      { id: 'd1', name: 'plan.dwg', fileType: 1, transformStatus: 0 },
    ];
    function Rows() {
      const progress = useModel3dProgress(items);
      return <>{items.map((i) => <div key={i.id}>{i.name}<Model3dProgress status={progress.get(i.id)} /></div>)}</>;
    }
    render(<Rows />);
    expect((await screen.findByTestId('model3d-progress-m1.ifc')).dataset.progress).toBe('40');
    expect(screen.queryByTestId('model3d-progress-m2.ifc')).toBeNull();
    expect(calls.filter((c) => c.url.endsWith('checkTaskStatusBatch3D')).map((c) => c.body.data)).toEqual([{ fileIds: ['m1'] }]);
  });
});

describe("the task panel's 3D tab", () => {
  const task = (o: Partial<Model3dTask>): Model3dTask => ({ taskId: 't', fileId: 'f', name: 'a.step', transformStatus: 0, progress: 40, stage: 'mesh', code: null, msg: null, fileExists: true, createTimestamp: 0, finishTimestamp: null, ...o });
  const bar = (row: HTMLElement) => ({
    width: (row.querySelector('.ant-progress-track') as HTMLElement | null)?.style.width,
    active: !!row.querySelector('.ant-progress-status-active'),
    success: !!row.querySelector('.ant-progress-status-success'),
  });
  it('a converted model shows a full bar, not animated, even when its last reported progress was lower; a converting one animates at its progress', () => {
    render(
      <AntApp>
        <Model3dRows list={[task({ taskId: 'a', name: 'done.step', transformStatus: 1, progress: 40, stage: 'done' }), task({ taskId: 'b', name: 'busy.step' })]} onRetry={async () => undefined} />
      </AntApp>,
    );
    const [done, busy] = screen.getAllByTestId('model3d-row');
    expect(bar(done)).toEqual({ width: '100%', active: false, success: true });
    expect(bar(busy)).toEqual({ width: '40%', active: true, success: false });
    expect(barPercent({ transformStatus: 1, progress: 0 })).toBe(100);
  });
});
