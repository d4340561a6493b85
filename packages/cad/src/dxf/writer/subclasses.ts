import type { Pair } from '../../model/drawing.ts';

/**
 * Subclass markers (100) for an entity read from a file that had none (R12, or a 2000 file written by a tool that
 * leaves them out): 2000 on, each group belongs under its class's marker, and readers such as ezdxf and AutoCAD
 * refuse an LWPOLYLINE without AcDbPolyline. The groups each class holds are those of the DXF reference.
 */
interface Part {
  marker: string;
  /** the codes this class takes; the part without `take` gets the codes no other part takes */
  take?: Set<number>;
}

/** codes of AcDbEntity (what every entity has before its own class) */
const ENTITY_CODES = new Set([8, 6, 62, 67, 370, 420, 430, 440, 48, 60, 347, 348, 284, 390, 92, 310, 160]);
const xyz = (...bases: number[]) => bases.flatMap((b) => [b, b + 10, b + 20]);
const set = (...codes: number[]) => new Set(codes);

function partsOf(type: string, pairs: readonly Pair[]): Part[] {
  const flags = Number(pairs.find((p) => p[0] === 70)?.[1] ?? 0);
  switch (type) {
    case 'LINE': return [{ marker: 'AcDbLine' }];
    case 'POINT': return [{ marker: 'AcDbPoint' }];
    case 'CIRCLE': return [{ marker: 'AcDbCircle' }];
    case 'ARC': return [{ marker: 'AcDbCircle' }, { marker: 'AcDbArc', take: set(50, 51) }];
    case 'TEXT': return [{ marker: 'AcDbText' }, { marker: 'AcDbText', take: set(73) }];
    case 'ATTDEF': return [{ marker: 'AcDbText' }, { marker: 'AcDbAttributeDefinition', take: set(3, 2, 70, 73, 74, 280) }];
    case 'ATTRIB': return [{ marker: 'AcDbText' }, { marker: 'AcDbAttribute', take: set(2, 70, 73, 74, 280) }];
    case 'SOLID': case 'TRACE': return [{ marker: 'AcDbTrace' }];
    case '3DFACE': return [{ marker: 'AcDbFace' }];
    case 'SHAPE': return [{ marker: 'AcDbShape' }];
    case 'INSERT': return [{ marker: 'AcDbBlockReference' }];
    case 'VIEWPORT': return [{ marker: 'AcDbViewport' }];
    case 'LWPOLYLINE': return [{ marker: 'AcDbPolyline' }];
    case 'MTEXT': return [{ marker: 'AcDbMText' }];
    case 'ELLIPSE': return [{ marker: 'AcDbEllipse' }];
    case 'SPLINE': return [{ marker: 'AcDbSpline' }];
    case 'HATCH': return [{ marker: 'AcDbHatch' }];
    case 'LEADER': return [{ marker: 'AcDbLeader' }];
    case 'XLINE': return [{ marker: 'AcDbXline' }];
    case 'RAY': return [{ marker: 'AcDbRay' }];
    case 'TOLERANCE': return [{ marker: 'AcDbFcf' }];
    case 'MLINE': return [{ marker: 'AcDbMline' }];
    case 'IMAGE': return [{ marker: 'AcDbRasterImage' }];
    case 'WIPEOUT': return [{ marker: 'AcDbRasterImage' }, { marker: 'AcDbWipeout', take: set() }];
    case 'POLYLINE':
      return [{ marker: flags & 64 ? 'AcDbPolyFaceMesh' : flags & 16 ? 'AcDbPolygonMesh' : flags & 8 ? 'AcDb3dPolyline' : 'AcDb2dPolyline' }];
    case 'VERTEX': {
      const own = flags & 128 && !(flags & 64) ? 'AcDbFaceRecord' : flags & 128 ? 'AcDbPolyFaceMeshVertex' : flags & 64 ? 'AcDbPolygonMeshVertex' : flags & 32 ? 'AcDb3dPolylineVertex' : 'AcDb2dVertex';
      return [{ marker: 'AcDbVertex', take: set() }, { marker: own }];
    }
    case 'DIMENSION': {
      const dim: Part = { marker: 'AcDbDimension' };
      switch (flags & 7) {
        case 0: return [dim, { marker: 'AcDbAlignedDimension', take: set(...xyz(13, 14)) }, { marker: 'AcDbRotatedDimension', take: set(50, 52) }];
        case 1: return [dim, { marker: 'AcDbAlignedDimension', take: set(...xyz(13, 14), 50) }];
        case 2: return [dim, { marker: 'AcDb2LineAngularDimension', take: set(...xyz(13, 14, 15, 16)) }];
        case 3: return [dim, { marker: 'AcDbDiametricDimension', take: set(...xyz(15), 40) }];
        case 4: return [dim, { marker: 'AcDbRadialDimension', take: set(...xyz(15), 40) }];
        case 5: return [dim, { marker: 'AcDb3PointAngularDimension', take: set(...xyz(13, 14, 15)) }];
        default: return [dim, { marker: 'AcDbOrdinateDimension', take: set(...xyz(13, 14)) }];
      }
    }
    default: return [];
  }
}

/** The pairs with their subclass markers: unchanged when they have some already. */
export function withSubclasses(type: string, pairs: Pair[]): Pair[] {
  if (pairs.some((p) => p[0] === 100)) return pairs;
  const parts = partsOf(type, pairs);
  const common: Pair[] = [];
  const own: Pair[][] = parts.map(() => []);
  const xdata: Pair[] = [];
  const rest = Math.max(0, parts.findIndex((p) => !p.take));
  for (const p of pairs) {
    if (xdata.length || p[0] >= 1000) {
      xdata.push(p);
      continue;
    }
    if (ENTITY_CODES.has(p[0]) || !parts.length) {
      common.push(p);
      continue;
    }
    let at = rest;
    for (let i = parts.length - 1; i >= 0; i--) if (parts[i].take?.has(p[0])) at = i;
    own[at].push(p);
  }
  const out: Pair[] = [[100, 'AcDbEntity'], ...common];
  parts.forEach((part, i) => out.push([100, part.marker], ...own[i]));
  return [...out, ...xdata];
}
