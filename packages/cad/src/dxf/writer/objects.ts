import type { Drawing, Pair } from '../../model/drawing.ts';
import type { TagWriter } from './tags.ts';
import type { VersionTraits } from './versions.ts';
import type { DxfOut, OutLayout } from './write.ts';

/** Handles of the objects every file from 2000 on has (the '' ones do not exist in the version written). */
export interface ObjectHandles {
  root: string;
  groups: string;
  layouts: string;
  mlineStyles: string;
  mlineStandard: string;
  plotSettings: string;
  plotStyles: string;
  plotStyleNormal: string;
  images: string;
  mleaderStyles: string;
  mleaderStandard: string;
  tableStyles: string;
  tableStandard: string;
}

/** classes of the objects this writer makes: DXF name, C++ class, application, proxy flags, is an entity */
const OWN_CLASSES: [string, string, string, number, number][] = [
  ['ACDBDICTIONARYWDFLT', 'AcDbDictionaryWithDefault', 'ObjectDBX Classes', 0, 0],
  ['ACDBPLACEHOLDER', 'AcDbPlaceHolder', 'ObjectDBX Classes', 0, 0],
  ['LAYOUT', 'AcDbLayout', 'ObjectDBX Classes', 0, 0],
  ['TABLESTYLE', 'AcDbTableStyle', 'ObjectDBX Classes', 4095, 0],
  ['MLEADERSTYLE', 'AcDbMLeaderStyle', 'ACDB_MLEADERSTYLE_CLASS', 4095, 0],
  ['IMAGEDEF', 'AcDbRasterImageDef', 'ISM', 0, 0],
];

/**
 * CLASSES: the source's records (they name the classes of its entities, IMAGE, WIPEOUT, MULTILEADER …), then the
 * ones for the objects written here that the source did not list. 2004 on counts instances (91): written as 0,
 * as AutoCAD's own files do for classes it recounts on open.
 */
export function writeClasses(w: TagWriter, d: Drawing, t: VersionTraits, usedTypes: Set<string>): void {
  w.put(0, 'SECTION');
  w.put(2, 'CLASSES');
  const seen = new Set<string>();
  const put = (name: string, cpp: string, app: string, flags: number, wasProxy: number, isEntity: number) => {
    if (seen.has(name)) return;
    seen.add(name);
    w.put(0, 'CLASS');
    w.put(1, name);
    w.put(2, cpp);
    w.put(3, app);
    w.put(90, flags);
    if (t.acadver >= 'AC1018') w.put(91, 0);
    w.put(280, wasProxy);
    w.put(281, isEntity);
  };
  for (const c of d.classes ?? []) {
    const get = (code: number) => c.find((p) => p[0] === code)?.[1];
    const name = String(get(1) ?? '');
    if (!name) continue;
    const isEntity = Number(get(281) ?? 0);
    // an entity class whose entities this version does not hold is not listed
    if (isEntity && !usedTypes.has(name)) continue;
    put(name, String(get(2) ?? ''), String(get(3) ?? ''), Number(get(90) ?? 0), Number(get(280) ?? 0), isEntity);
  }
  for (const [name, cpp, app, flags, isEntity] of OWN_CLASSES) {
    if (name === 'MLEADERSTYLE' && t.acadver < 'AC1021') continue;
    if (name === 'TABLESTYLE' && t.acadver < 'AC1018') continue;
    if (name === 'IMAGEDEF' && !Object.keys(d.imageDefs ?? {}).length) continue;
    put(name, cpp, app, flags, 0, isEntity);
  }
  w.put(0, 'ENDSEC');
}

/**
 * OBJECTS: the root dictionary and the dictionaries a drawing must have (groups, layouts, multiline styles, plot
 * settings, plot style names with "Normal", images, and from 2004 / 2007 table and multileader styles), each
 * style with its Standard record, the image definitions and one LAYOUT per layout with the source's plot settings.
 */
export function writeObjects(w: TagWriter, out: DxfOut, imageDefs: (readonly [string, string])[]): void {
  const { d, t } = out;
  const o = out.objects;
  const dictionary = (handle: string, owner: string, entries: [string, string][], hard = false) => {
    w.put(0, 'DICTIONARY');
    w.put(5, handle);
    w.put(330, owner);
    w.put(100, 'AcDbDictionary');
    if (hard) w.put(280, 0);
    w.put(281, 1);
    for (const [name, h] of entries) {
      w.put(3, name);
      w.put(350, h);
    }
  };
  const head = (type: string, handle: string, owner: string) => {
    w.put(0, type);
    w.put(5, handle);
    w.put(102, '{ACAD_REACTORS');
    w.put(330, owner);
    w.put(102, '}');
    w.put(330, owner);
  };

  out.section(w, 'OBJECTS', () => {
    const root: [string, string][] = [
      ['ACAD_GROUP', o.groups],
      ['ACAD_LAYOUT', o.layouts],
      ['ACAD_MLINESTYLE', o.mlineStyles],
      ['ACAD_PLOTSETTINGS', o.plotSettings],
      ['ACAD_PLOTSTYLENAME', o.plotStyles],
    ];
    if (imageDefs.length) root.push(['ACAD_IMAGE_DICT', o.images]);
    if (o.mleaderStyles) root.push(['ACAD_MLEADERSTYLE', o.mleaderStyles]);
    if (o.tableStyles) root.push(['ACAD_TABLESTYLE', o.tableStyles]);
    root.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    dictionary(o.root, '0', root, true);
    dictionary(o.groups, o.root, []);
    dictionary(o.layouts, o.root, out.layouts.map((l) => [l.name, l.handle]));
    dictionary(o.mlineStyles, o.root, [['Standard', o.mlineStandard]]);
    dictionary(o.plotSettings, o.root, []);

    // plot style names: a dictionary with a default, its one entry "Normal" (what every layer's 390 names)
    w.put(0, 'ACDBDICTIONARYWDFLT');
    w.put(5, o.plotStyles);
    w.put(330, o.root);
    w.put(100, 'AcDbDictionary');
    w.put(281, 1);
    w.put(3, 'Normal');
    w.put(350, o.plotStyleNormal);
    w.put(100, 'AcDbDictionaryWithDefault');
    w.put(340, o.plotStyleNormal);
    head('ACDBPLACEHOLDER', o.plotStyleNormal, o.plotStyles);

    head('MLINESTYLE', o.mlineStandard, o.mlineStyles);
    w.pairs([[100, 'AcDbMlineStyle'], [2, 'Standard'], [70, 0], [3, ''], [62, 256], [51, 90], [52, 90], [71, 2], [49, 0.5], [62, 256], [6, 'BYLAYER'], [49, -0.5], [62, 256], [6, 'BYLAYER']]);

    if (imageDefs.length) {
      dictionary(o.images, o.root, imageDefs.map(([old, h], i) => [imageName(d.imageDefs![old].file, i), h]));
      for (const [old, h] of imageDefs) {
        const def = d.imageDefs![old];
        head('IMAGEDEF', h, o.images);
        w.pairs([[100, 'AcDbRasterImageDef'], [90, 0], [1, def.file], [10, def.width], [20, def.height], [11, 1], [21, 1], [280, 1], [281, 0]]);
      }
    }
    if (o.tableStyles) {
      dictionary(o.tableStyles, o.root, [['Standard', o.tableStandard]]);
      head('TABLESTYLE', o.tableStandard, o.tableStyles);
      w.pairs(tableStyle());
    }
    if (o.mleaderStyles) {
      dictionary(o.mleaderStyles, o.root, [['Standard', o.mleaderStandard]]);
      head('MLEADERSTYLE', o.mleaderStandard, o.mleaderStyles);
      w.pairs(mleaderStyle(out));
    }
    for (const l of out.layouts) writeLayout(w, l, o.layouts, t);
  });
}

function imageName(file: string, i: number): string {
  const base = file.split(/[\\/]/).pop()?.replace(/\.[^.]*$/, '') || `image${i}`;
  return base;
}

/** plot settings codes a LAYOUT carries over from its source (paper, plot area, scale, plotter and style names) */
const PLOT_CODES = new Set([1, 2, 4, 6, 7, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 140, 141, 142, 143, 70, 72, 73, 74, 75, 76, 77, 78, 147, 148, 149]);
/** AcDbLayout codes carried over (limits, insertion base, extents, UCS) */
const LAYOUT_CODES = new Set([70, 10, 20, 11, 21, 12, 22, 32, 14, 24, 34, 15, 25, 35, 146, 13, 23, 33, 16, 26, 36, 17, 27, 37, 76]);

function writeLayout(w: TagWriter, l: OutLayout, dict: string, t: VersionTraits) {
  w.put(0, 'LAYOUT');
  w.put(5, l.handle);
  w.put(102, '{ACAD_REACTORS');
  w.put(330, dict);
  w.put(102, '}');
  w.put(330, dict);
  const src = l.pairs ?? [];
  const at = src.findIndex((p) => p[0] === 100 && p[1] === 'AcDbLayout');
  const plot = src.slice(0, at < 0 ? src.length : at).filter((p) => PLOT_CODES.has(p[0]));
  const lay = at < 0 ? [] : src.slice(at + 1).filter((p) => LAYOUT_CODES.has(p[0]) && p[0] !== 1);
  w.put(100, 'AcDbPlotSettings');
  if (plot.length) w.pairs(plot.filter((p) => t.acadver >= 'AC1018' || (p[0] !== 148 && p[0] !== 149)));
  else w.pairs([[1, ''], [2, 'none_device'], [4, ''], [6, ''], [40, 0], [41, 0], [42, 0], [43, 0], [44, 0], [45, 0], [46, 0], [47, 0], [48, 0], [49, 0], [140, 0], [141, 0], [142, 1], [143, 1], [70, 688], [72, 0], [73, 0], [74, 5], [7, ''], [75, 16], [147, 1], [76, 0], [77, 2], [78, 300]]);
  w.put(100, 'AcDbLayout');
  w.put(1, l.name);
  const lp: Pair[] = lay.length ? lay : [[70, 1], [71, l.tabOrder], [10, 0], [20, 0], [11, 420], [21, 297], [12, 0], [22, 0], [32, 0], [14, 0], [24, 0], [34, 0], [15, 0], [25, 0], [35, 0], [146, 0], [13, 0], [23, 0], [33, 0], [16, 1], [26, 0], [36, 0], [17, 0], [27, 1], [37, 0], [76, 0]];
  let tab = false;
  for (const p of lp) {
    w.put(p[0], p[1]);
    if (p[0] === 70 && !tab) {
      w.put(71, l.tabOrder);
      tab = true;
    }
  }
  w.put(330, l.block.record);
}

function tableStyle(): Pair[] {
  return [[100, 'AcDbTableStyle'], [3, 'Standard'], [70, 0], [71, 0], [40, 0.06], [41, 0.06], [280, 0], [281, 0]];
}

function mleaderStyle(out: DxfOut): Pair[] {
  const byBlock = out.d.linetypes.find((l) => /^byblock$/i.test(l.name));
  const lt = byBlock ? out.remap.get(byBlock.handle?.toUpperCase() ?? '') : undefined;
  const style = out.d.textStyles.find((s) => /^standard$/i.test(s.name));
  const st = style ? out.remap.get(style.handle?.toUpperCase() ?? '') : undefined;
  const pairs: Pair[] = [[100, 'AcDbMLeaderStyle'], [179, 2], [170, 2], [171, 1], [172, 0], [90, 2], [40, 0], [41, 0], [173, 1], [91, -1056964608], [92, -2]];
  if (lt) pairs.push([340, lt]);
  pairs.push([290, 1], [42, 2], [291, 1], [43, 8], [3, 'Standard'], [44, 4], [300, '']);
  if (st) pairs.push([342, st]);
  pairs.push([174, 1], [178, 1], [175, 1], [176, 0], [93, -1056964608], [45, 4], [292, 0], [297, 0], [46, 4], [94, -1056964608], [47, 1], [49, 1], [140, 1], [293, 1], [141, 0], [294, 1], [177, 0], [142, 1], [295, 0], [296, 0], [143, 3.75], [271, 0], [272, 9], [273, 9]);
  return pairs;
}
