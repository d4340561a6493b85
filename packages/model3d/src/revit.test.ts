import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { convertToGlb } from './convert.ts';
import { revitFile } from './fixtures/revit.ts';
import { NotRevit, readRevitInfo, readRevitPreview } from './revit.ts';

const png = () => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 90, b: 160 } } }).png().toBuffer();

describe('Revit .rvt: metadata and the preview, never geometry', () => {
  it('reads the version, build, title and save path of an RVT written as Revit writes its streams', () => {
    const info = readRevitInfo(revitFile({ version: '2022', build: '20210224_1515(x64)', title: 'Office & Lab' }));
    expect(info).toMatchObject({ version: '2022', build: '20210224_1515(x64)', title: 'Office & Lab', lastSavePath: 'C:\\Projects\\Office & Lab.rvt', worksharing: 'Not enabled' });
    expect(info.details).toMatchObject({ Author: 'Autodesk Revit', 'Locale when saved': 'ENU', product: 'Revit', 'product-version': '2022' });
  });

  it('reads the client name, project number and address from the ProjectInformation stream (a zip of one XML), and every other parameter', () => {
    const project = { 'Client Name': 'Ada & Co <Holdings>', 'Project Number': 'P-2026-017', 'Project Address': '1 Harbour Road\nKowloon', 'Project Status': 'Design', 'Template Version': '3.1' };
    const info = readRevitInfo(revitFile({ project }));
    expect(info).toMatchObject({ clientName: 'Ada & Co <Holdings>', projectNumber: 'P-2026-017', projectAddress: '1 Harbour Road\nKowloon', title: 'Office & Lab', version: '2021' });
    expect(info.projectParameters).toEqual(project);
  });

  it('reads them from PartAtom\'s features when Revit wrote them there; none when the file holds none; a damaged stream costs only them', () => {
    expect(readRevitInfo(revitFile({ project: { 'Client Name': 'Bo', 'Project Number': '42' }, projectInAtom: true }))).toMatchObject({ clientName: 'Bo', projectNumber: '42', projectAddress: null });
    expect(readRevitInfo(revitFile())).toMatchObject({ clientName: null, projectNumber: null, projectAddress: null, projectParameters: {} });
    const damaged = readRevitInfo(revitFile({ projectStream: new Uint8Array([0x50, 0x4b, 3, 4, 9, 9, 9]) }));
    expect(damaged).toMatchObject({ clientName: null, version: '2021', title: 'Office & Lab' });
  });

  it('reads the version of files before 2019 from "Autodesk Revit 2015 (Build: …)"', async () => {
    const CFB = (await import('cfb')).default;
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, '/BasicFileInfo', Buffer.concat([Buffer.from([1, 0, 0, 0, 9]), Buffer.from('Autodesk Revit 2015 (Build: 20140223_1515(x64))', 'utf16le')]));
    const info = readRevitInfo(new Uint8Array(CFB.write(cfb, { type: 'buffer' }) as Buffer));
    expect([info.version, info.build]).toEqual(['2015', '20140223_1515(x64)']);
  });

  it('finds the embedded PNG preview after its header, byte for byte; none when Revit saved none', async () => {
    const image = await png();
    const preview = readRevitPreview(revitFile({ png: image }));
    expect(Buffer.from(preview!).equals(image)).toBe(true);
    expect(await sharp(preview!).metadata()).toMatchObject({ format: 'png', width: 64, height: 48 });
    expect(readRevitPreview(revitFile())).toBeNull();
  });

  it('bytes that are not an RVT (not a compound file, or one without BasicFileInfo) are NotRevit', async () => {
    expect(() => readRevitInfo(new TextEncoder().encode('not really revit'))).toThrow(NotRevit);
    const CFB = (await import('cfb')).default;
    const other = CFB.utils.cfb_new();
    CFB.utils.cfb_add(other, '/WordDocument', Buffer.alloc(600, 1));
    expect(() => readRevitPreview(new Uint8Array(CFB.write(other, { type: 'buffer' }) as Buffer))).toThrow(NotRevit);
  });

  it('the converter refuses an RVT (no open reader of its geometry)', async () => {
    await expect(convertToGlb(revitFile({ png: await png() }), 'house.rvt')).rejects.toMatchObject({ kind: 'unsupported' });
  });
});
