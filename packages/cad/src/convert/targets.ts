/**
 * What a drawing can be converted to (issue 17). One list for the engine, the command line and the server's
 * conversion jobs, so the dialog never offers a target no writer exists for.
 */
export const CONVERT_TARGETS = ['pdf', 'png', 'jpg', 'bmp', 'dxf', 'dwg'] as const;
export type ConvertTarget = (typeof CONVERT_TARGETS)[number];

/** DXF versions our writer produces (spec section 9 names 2000–2013 for save-as; R12 and 2018 are asked for by issue 17). */
export const DXF_VERSIONS = ['R12', '2000', '2004', '2007', '2010', '2013', '2018'] as const;
export type DxfVersion = (typeof DXF_VERSIONS)[number];

export const TARGET_MIME: Record<ConvertTarget, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  bmp: 'image/bmp',
  dxf: 'image/vnd.dxf',
  dwg: 'image/vnd.dwg',
};

/**
 * Targets this build can write. DWG waits for our own DWG writer (a later issue): until it lands the answer
 * leaves it out rather than pretending.
 */
export function writableTargets(): ConvertTarget[] {
  return CONVERT_TARGETS.filter((t) => t !== 'dwg');
}
