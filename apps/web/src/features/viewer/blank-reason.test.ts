import { describe, expect, it } from 'vitest';
import { compileScene, flattenLayout, layoutNames, parseDxf } from '@cadcloud/cad';
import { writeAsciiDxf, type FixtureEntity } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { blankReason } from './blank-reason.ts';
import { openLayers } from './view-fit.ts';

const line = (layer: string): FixtureEntity => ({ type: 'LINE', pairs: [[8, layer], [10, 0], [20, 0], [30, 0], [11, 10], [21, 10], [31, 0]] });
const solid = (h: string): FixtureEntity => ({ type: '3DSOLID', pairs: [[5, h], [8, '0'], [100, 'AcDbModelerGeometry'], [70, 1], [1, 'not ACIS']] });
const sceneOf = (o: Parameters<typeof writeAsciiDxf>[0]) => {
  const d = parseDxf(writeAsciiDxf(o));
  return compileScene(d, flattenLayout(d, 'Model', { curves: true, blockInstances: true })!, { layout: 'Model', layouts: layoutNames(d) });
};
const reason = (o: Parameters<typeof writeAsciiDxf>[0], hidden?: string[]) => {
  const s = sceneOf(o);
  return blankReason(s, openLayers(s.meta, (_, name) => !!hidden?.includes(name)));
};

describe('why a layout shows nothing', () => {
  it('names the cause: unreadable solids, other undrawn entities, layers off in the file or here, nothing at all', () => {
    expect(reason({ entities: [solid('A1'), solid('A2')] })).toEqual({ key: 'viewer.blank.solids', list: '3DSOLID ×2' });
    expect(reason({ entities: [solid('A1'), { type: 'ACME_WIDGET', pairs: [[8, '0']] }] })).toEqual({ key: 'viewer.blank.notDrawn', list: '3DSOLID ×1, ACME_WIDGET ×1' });
    expect(reason({ layers: ['0', 'Walls'], layerColors: { Walls: -7 }, entities: [line('Walls'), solid('A1')] })).toEqual({ key: 'viewer.blank.layersOff' });
    expect(reason({ layers: ['0', 'Notes'], entities: [line('Notes')] }, ['Notes'])).toEqual({ key: 'viewer.blank.layersOff' });
    expect(reason({ entities: [] })).toEqual({ key: 'viewer.blank.empty' });
    expect(reason({ layers: ['0', 'Notes'], entities: [line('Notes'), solid('A1')] })).toBeNull();
  });
});
