import type { DxfVersion } from '../../convert/targets.ts';

/** $ACADVER of each version we write (DXF reference, HEADER section). */
export const ACADVER: Record<DxfVersion, string> = {
  R12: 'AC1009',
  '2000': 'AC1015',
  '2004': 'AC1018',
  '2007': 'AC1021',
  '2010': 'AC1024',
  '2013': 'AC1027',
  '2018': 'AC1032',
};

/** What a version can hold, asked by the parts of the writer instead of comparing version strings everywhere. */
export interface VersionTraits {
  version: DxfVersion;
  acadver: string;
  /** R12: no subclass markers, owners, objects, classes or layouts beyond model and one paper space */
  r12: boolean;
  /** 2004 on: true colour (420), colour names (430), transparency (440) */
  trueColor: boolean;
  /** 2007 on: the file is UTF-8; before, the code page of $DWGCODEPAGE with \U+ escapes for the rest */
  utf8: boolean;
}

export function traitsOf(version: DxfVersion): VersionTraits {
  const acadver = ACADVER[version];
  return { version, acadver, r12: version === 'R12', trueColor: acadver >= 'AC1018', utf8: acadver >= 'AC1021' };
}

/**
 * The first version that has each entity type (AutoCAD's DXF references of each release). A type not listed is
 * taken to exist in every version from 2000 on; R12's own list is in r12.ts.
 */
export const ENTITY_SINCE: Record<string, string> = {
  ACAD_TABLE: 'AC1018',
  MULTILEADER: 'AC1021',
  MLEADER: 'AC1021',
  SURFACE: 'AC1021',
  PLANESURFACE: 'AC1021',
  EXTRUDEDSURFACE: 'AC1021',
  LOFTEDSURFACE: 'AC1021',
  REVOLVEDSURFACE: 'AC1021',
  SWEPTSURFACE: 'AC1021',
  NURBSURFACE: 'AC1027',
  HELIX: 'AC1021',
  LIGHT: 'AC1021',
  SECTIONOBJECT: 'AC1021',
  PDFUNDERLAY: 'AC1021',
  DWFUNDERLAY: 'AC1021',
  DGNUNDERLAY: 'AC1021',
  MESH: 'AC1024',
  GEOPOSITIONMARKER: 'AC1024',
  POINTCLOUD: 'AC1024',
  POINTCLOUDEX: 'AC1027',
};
