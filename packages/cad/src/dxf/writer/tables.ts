import type { Pair } from '../../model/drawing.ts';
import type { TagWriter } from './tags.ts';
import type { DxfOut } from './write.ts';

/** Names the entities use, by table: each gets a record when the drawing's tables lack it. */
export interface TableNames {
  layers: Set<string>;
  linetypes: Set<string>;
  styles: Set<string>;
  dimStyles: Set<string>;
  appids: Set<string>;
}

interface RecordHandles {
  layers: string[];
  linetypes: string[];
  styles: string[];
  dimStyles: string[];
}

/**
 * TABLES in the order AutoCAD writes them (VPORT, LTYPE, LAYER, STYLE, VIEW, UCS, APPID, DIMSTYLE, and from 2000
 * on BLOCK_RECORD). Records come from the drawing's tables with their handles; VPORT, VIEW and UCS, which the
 * model does not keep, are written as a new drawing has them (one *Active viewport over the extents).
 */
export function writeTables(w: TagWriter, out: DxfOut, handles: RecordHandles): void {
  const { d, t } = out;
  const r12 = t.r12;
  const table = (name: string, records: () => void, subclass?: string) => {
    const head = out.handles.fresh();
    w.put(0, 'TABLE');
    w.put(2, name);
    if (!r12) {
      w.put(5, head);
      w.put(330, '0');
      w.put(100, 'AcDbSymbolTable');
    }
    w.put(70, 0);
    if (!r12 && subclass) {
      w.put(100, subclass);
      w.put(71, 0);
    }
    tableHead = head;
    records();
    w.put(0, 'ENDTAB');
  };
  let tableHead = '';
  const record = (type: string, handle: string, subclass: string, name: string, flags = 0) => {
    w.put(0, type);
    w.put(type === 'DIMSTYLE' && !r12 ? 105 : 5, handle);
    if (!r12) {
      w.put(330, tableHead);
      w.put(100, 'AcDbSymbolTableRecord');
      w.put(100, subclass);
    }
    w.put(2, name);
    w.put(70, flags);
  };
  const upper = (names: Iterable<string>) => new Set([...names].map((n) => n.toUpperCase()));

  out.section(w, 'TABLES', () => {
    table('VPORT', () => {
      const min = d.header.extMin, max = d.header.extMax;
      const ok = min && max && max.x >= min.x && max.y >= min.y && Number.isFinite(max.x - min.x) && Math.abs(max.x) < 1e15;
      const cx = ok ? (min.x + max.x) / 2 : 0, cy = ok ? (min.y + max.y) / 2 : 0;
      const height = ok ? Math.max(max.y - min.y, (max.x - min.x) / 1.5, 1) * 1.1 : 100;
      record('VPORT', out.handles.fresh(), 'AcDbViewportTableRecord', '*Active');
      w.pairs([[10, 0], [20, 0], [11, 1], [21, 1], [12, cx], [22, cy], [13, 0], [23, 0], [14, 1], [24, 1], [15, 0], [25, 0], [16, 0], [26, 0], [36, 1], [17, 0], [27, 0], [37, 0], [40, height], [41, 1.5], [42, 50], [43, 0], [44, 0], [50, 0], [51, 0], [71, 0], [72, 1000], [73, 1], [74, 3], [75, 0], [76, 0], [77, 0], [78, 0]]);
      if (!r12) w.pairs([[281, 0], [65, 1], [110, 0], [120, 0], [130, 0], [111, 1], [121, 0], [131, 0], [112, 0], [122, 1], [132, 0], [79, 0], [146, 0]]);
    });

    table('LTYPE', () => {
      const written = new Set<string>();
      const lt = (handle: string, name: string, description: string, pattern: number[]) => {
        written.add(name.toUpperCase());
        record('LTYPE', handle, 'AcDbLinetypeTableRecord', name);
        w.put(3, description);
        w.put(72, 65);
        w.put(73, pattern.length);
        w.put(40, pattern.reduce((s, x) => s + Math.abs(x), 0));
        for (const x of pattern) {
          w.put(49, x);
          if (!r12) w.put(74, 0);
        }
      };
      d.linetypes.forEach((l, i) => {
        // R12's LTYPE table has no BYBLOCK / BYLAYER records
        if (r12 && /^by(block|layer)$/i.test(l.name)) return;
        if (!written.has(l.name.toUpperCase())) lt(handles.linetypes[i], l.name, l.description, l.pattern);
      });
      const needed = r12 ? ['Continuous'] : ['ByBlock', 'ByLayer', 'Continuous'];
      for (const n of [...needed, ...out.names.linetypes, ...d.layers.map((l) => l.linetype)]) {
        if (!written.has(n.toUpperCase()) && !(r12 && /^by(block|layer)$/i.test(n))) lt(out.handles.fresh(), n, n === 'Continuous' ? 'Solid line' : '', []);
      }
    });

    table('LAYER', () => {
      const written = new Set<string>();
      const layer = (handle: string, name: string, color: number, on: boolean, flags: number, linetype: string, more: Pair[]) => {
        written.add(name.toUpperCase());
        record('LAYER', handle, 'AcDbLayerTableRecord', name, flags);
        w.put(62, on ? color || 7 : -(color || 7));
        w.put(6, linetype);
        if (!r12) w.pairs(more);
      };
      d.layers.forEach((l, i) => {
        if (written.has(l.name.toUpperCase())) return;
        const more: Pair[] = [];
        if (l.trueColor !== undefined && t.trueColor) more.push([420, l.trueColor]);
        if (l.plot === false) more.push([290, 0]);
        more.push([370, l.lineweight], [390, out.objects.plotStyleNormal]);
        layer(handles.layers[i], l.name, l.color, l.on, (l.frozen ? 1 : 0) | (l.locked ? 4 : 0), l.linetype || 'Continuous', more);
      });
      for (const n of ['0', ...out.names.layers]) if (!written.has(n.toUpperCase())) layer(out.handles.fresh(), n, 7, true, 0, 'Continuous', [[370, -3], [390, out.objects.plotStyleNormal]]);
    });

    table('STYLE', () => {
      const written = new Set<string>();
      const style = (handle: string, name: string, flags: number, height: number, width: number, oblique: number, font: string, bigFont: string) => {
        written.add(name.toUpperCase());
        record('STYLE', handle, 'AcDbTextStyleTableRecord', name, flags);
        w.pairs([[40, height], [41, width], [50, oblique], [71, 0], [42, 2.5], [3, font], [4, bigFont]]);
      };
      d.textStyles.forEach((s, i) => {
        // shape-file styles have no name; two such are not the same record
        if (s.name && written.has(s.name.toUpperCase())) return;
        style(handles.styles[i], s.name, s.flags ?? 0, s.height ?? 0, s.widthFactor || 1, s.oblique, s.font, s.bigFont);
      });
      for (const n of ['Standard', ...out.names.styles]) if (!written.has(n.toUpperCase())) style(out.handles.fresh(), n, 0, 0, 1, 0, 'txt', '');
    });

    table('VIEW', () => {});
    table('UCS', () => {});

    table('APPID', () => {
      for (const n of upper(out.names.appids)) record('APPID', out.handles.fresh(), 'AcDbRegAppTableRecord', n);
    });

    table(
      'DIMSTYLE',
      () => {
        const written = new Set<string>();
        (d.dimStyles ?? []).forEach((s, i) => {
          if (written.has(s.name.toUpperCase())) return;
          written.add(s.name.toUpperCase());
          record('DIMSTYLE', handles.dimStyles[i], 'AcDbDimStyleTableRecord', s.name, Number(s.pairs.find((p) => p[0] === 70)?.[1] ?? 0) & ~16);
          w.pairs(dimStyleVars(s.pairs, out));
        });
        for (const n of ['Standard', ...out.names.dimStyles]) {
          if (written.has(n.toUpperCase())) continue;
          written.add(n.toUpperCase());
          record('DIMSTYLE', out.handles.fresh(), 'AcDbDimStyleTableRecord', n);
        }
      },
      'AcDbDimStyleTable',
    );

    if (!r12) {
      table('BLOCK_RECORD', () => {
        for (const b of out.blocks) {
          record('BLOCK_RECORD', b.record, 'AcDbBlockTableRecord', b.name);
          // every block record names its layout (0 for blocks that are not one's)
          w.put(340, b.layout?.handle || '0');
          if (t.acadver >= 'AC1021') w.pairs([[70, 0], [280, 1], [281, 0]]);
        }
      });
    }
  });
}

/**
 * A DIMSTYLE's variables as the version has them: R12 has the ones before 2000's pointers (codes under 300, no
 * handles); from 2000 on the pointers stay when the record they name is written, else go (the default is used).
 */
function dimStyleVars(pairs: Pair[], out: DxfOut): Pair[] {
  const res: Pair[] = [];
  for (const p of pairs) {
    const [c, v] = p;
    if (c === 2 || c === 5 || c === 70 || c === 100 || c === 105 || c === 102 || c === 330 || c >= 1000) continue;
    if (out.t.r12) {
      if ((c >= 3 && c <= 7 && c !== 5) || (c >= 40 && c <= 48) || (c >= 71 && c <= 78) || (c >= 140 && c <= 147) || (c >= 170 && c <= 178)) res.push(p);
      continue;
    }
    if (c >= 340 && c <= 349) {
      const mapped = out.remap.get(String(v).toUpperCase());
      if (mapped) res.push([c, mapped]);
      continue;
    }
    res.push(p);
  }
  return res;
}
