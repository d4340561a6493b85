import type { Drawing, Pair } from '../../model/drawing.ts';
import type { TagWriter } from './tags.ts';
import { redecodeHeaderString, writableCodePage } from './tags.ts';
import type { VersionTraits } from './versions.ts';

/** the variables the writer sets itself, whatever the source said */
const OWN = new Set(['$ACADVER', '$ACADMAINTVER', '$DWGCODEPAGE', '$HANDSEED', '$HANDLING', '$LASTSAVEDBY']);

/** R12's header variables that carry the drawing (units, limits, extents, current names, dimension defaults) */
const R12_VARS = new Set([
  '$INSBASE', '$EXTMIN', '$EXTMAX', '$LIMMIN', '$LIMMAX', '$ORTHOMODE', '$REGENMODE', '$FILLMODE', '$QTEXTMODE', '$MIRRTEXT',
  '$LTSCALE', '$ATTMODE', '$TEXTSIZE', '$TRACEWID', '$TEXTSTYLE', '$CLAYER', '$CELTYPE', '$CECOLOR', '$DIMSCALE', '$DIMASZ',
  '$DIMEXO', '$DIMDLI', '$DIMEXE', '$DIMTP', '$DIMTM', '$DIMTXT', '$DIMCEN', '$DIMTSZ', '$DIMTOL', '$DIMLIM', '$DIMTIH', '$DIMTOH',
  '$DIMSE1', '$DIMSE2', '$DIMTAD', '$DIMZIN', '$DIMBLK', '$DIMASO', '$DIMSHO', '$DIMPOST', '$DIMAPOST', '$DIMALT', '$DIMALTD',
  '$DIMALTF', '$DIMLFAC', '$DIMTOFL', '$DIMTVP', '$DIMTIX', '$DIMSOXD', '$DIMSAH', '$DIMBLK1', '$DIMBLK2', '$DIMSTYLE', '$DIMCLRD',
  '$DIMCLRE', '$DIMCLRT', '$DIMTFAC', '$DIMGAP', '$LUNITS', '$LUPREC', '$SKETCHINC', '$FILLETRAD', '$AUNITS', '$AUPREC', '$MENU',
  '$ELEVATION', '$PELEVATION', '$THICKNESS', '$LIMCHECK', '$CHAMFERA', '$CHAMFERB', '$SKPOLY', '$TDCREATE', '$TDUPDATE',
  '$TDINDWG', '$TDUSRTIMER', '$USRTIMER', '$ANGBASE', '$ANGDIR', '$PDMODE', '$PDSIZE', '$PLINEWID', '$COORDS', '$SPLFRAME',
  '$SPLINETYPE', '$SPLINESEGS', '$ATTDIA', '$ATTREQ', '$SURFTAB1', '$SURFTAB2', '$SURFTYPE', '$SURFU', '$SURFV', '$UCSNAME',
  '$UCSORG', '$UCSXDIR', '$UCSYDIR', '$PUCSNAME', '$PUCSORG', '$PUCSXDIR', '$PUCSYDIR', '$USERI1', '$USERI2', '$USERI3', '$USERI4',
  '$USERI5', '$USERR1', '$USERR2', '$USERR3', '$USERR4', '$USERR5', '$WORLDVIEW', '$SHADEDGE', '$SHADEDIF', '$TILEMODE', '$MAXACTVP',
  '$PINSBASE', '$PLIMCHECK', '$PEXTMIN', '$PEXTMAX', '$PLIMMIN', '$PLIMMAX', '$UNITMODE', '$VISRETAIN', '$PLINEGEN', '$PSLTSCALE',
]);

/** a group code that holds a handle: a variable naming an object this writer does not keep is left out */
const isHandleCode = (c: number) => c === 5 || c === 105 || (c >= 320 && c <= 369) || (c >= 390 && c <= 399);

/**
 * HEADER: the source's variables as read (all their groups), less the ones that name objects by handle; R12 keeps
 * its own list. $ACADVER, $DWGCODEPAGE and $HANDSEED are the writer's.
 */
export function writeHeader(w: TagWriter, d: Drawing, t: VersionTraits, seed: string): void {
  w.put(0, 'SECTION');
  w.put(2, 'HEADER');
  w.put(9, '$ACADVER');
  w.put(1, t.acadver);
  w.put(9, '$DWGCODEPAGE');
  w.put(3, writableCodePage(d.header.codePage));
  const groups: [string, Pair[]][] = d.header.groups ?? Object.entries(d.header.vars).map(([n, v]) => [n, [[typeof v === 'number' ? 70 : 1, v]]]);
  const seen = new Set<string>();
  for (const [name, pairs] of groups) {
    if (OWN.has(name) || seen.has(name) || !pairs.length) continue;
    if (t.r12 && !R12_VARS.has(name)) continue;
    if (pairs.some(([c]) => isHandleCode(c))) continue;
    if (!t.trueColor && pairs.some(([c]) => c === 420 || c === 430 || c === 440)) continue;
    seen.add(name);
    w.put(9, name);
    for (const [c, v] of pairs) w.put(c, typeof v === 'string' ? redecodeHeaderString(v, d.header.version, d.header.codePage) : v);
  }
  if (!t.r12 && !seen.has('$INSUNITS')) {
    w.put(9, '$INSUNITS');
    w.put(70, d.header.units);
  }
  if (t.r12) {
    w.put(9, '$HANDLING');
    w.put(70, 1);
  }
  w.put(9, '$HANDSEED');
  w.put(5, seed);
  w.put(0, 'ENDSEC');
}
