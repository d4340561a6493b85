/**
 * The command line as a V8 start-up snapshot (scripts/build.mjs builds `cad.blob` from this file's CommonJS bundle;
 * the `cad` launcher beside it starts node from the blob). A conversion is a fresh process, and before its drawing
 * was read it spent ~70 ms compiling and linking its modules (the commands, pdfkit, opentype.js, node's streams and
 * zlib), reading the bundled fonts and compiling each function at its first call. In the snapshot all of that is
 * done once, at build time: the modules are loaded, the bundled fonts read, and a small drawing converted to PDF so
 * the functions a conversion calls are compiled; a process started from it deserialises that heap and runs `main`,
 * the same commands as `cad.mjs` runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startupSnapshot } from 'node:v8';
import vm from 'node:vm';
import './v8-flags.ts';
import { main } from './main.ts';
import { installEsmImport } from '../require-cached.ts';
import { prewarmBundledFonts } from '../text/index.ts';

/**
 * A drawing of what most drawings hold (lines, a circle, an arc, a polyline with a bulge, a solid hatch, a block
 * insert, TEXT and MTEXT), on model space and a paper layout with a viewport: converting it to PDF compiles the
 * reader's, the flattening's, the text engine's and the PDF writer's code the snapshot then keeps.
 */
const WARM_UP_DXF = [
  '0', 'SECTION', '2', 'HEADER', '9', '$INSUNITS', '70', '4', '0', 'ENDSEC',
  '0', 'SECTION', '2', 'TABLES', '0', 'TABLE', '2', 'LAYER', '70', '2',
  '0', 'LAYER', '2', '0', '70', '0', '62', '7', '6', 'CONTINUOUS',
  '0', 'LAYER', '2', 'Walls', '70', '0', '62', '1', '6', 'CONTINUOUS', '370', '50',
  '0', 'ENDTAB', '0', 'ENDSEC',
  '0', 'SECTION', '2', 'BLOCKS',
  '0', 'BLOCK', '8', '0', '2', 'Door', '70', '0', '10', '0.0', '20', '0.0', '30', '0.0',
  '0', 'LINE', '8', '0', '10', '0.0', '20', '0.0', '30', '0.0', '11', '9.0', '21', '0.0', '31', '0.0',
  '0', 'ARC', '8', '0', '10', '0.0', '20', '0.0', '30', '0.0', '40', '9.0', '50', '0.0', '51', '90.0',
  '0', 'ENDBLK', '8', '0',
  '0', 'ENDSEC',
  '0', 'SECTION', '2', 'ENTITIES',
  '0', 'LINE', '5', 'A1', '8', 'Walls', '10', '0.0', '20', '0.0', '30', '0.0', '11', '100.25', '21', '0.0', '31', '0.0',
  '0', 'CIRCLE', '5', 'A2', '8', 'Walls', '10', '50.0', '20', '40.0', '30', '0.0', '40', '10.5',
  '0', 'ARC', '5', 'A3', '8', '0', '10', '20.0', '20', '20.0', '30', '0.0', '40', '5.0', '50', '10.0', '51', '200.0',
  '0', 'LWPOLYLINE', '5', 'A4', '8', 'Walls', '100', 'AcDbEntity', '100', 'AcDbPolyline', '90', '4', '70', '1',
  '10', '0.0', '20', '50.0', '10', '30.0', '20', '50.0', '42', '0.5', '10', '30.0', '20', '80.0', '10', '0.0', '20', '80.0',
  '0', 'HATCH', '5', 'A5', '8', '0', '10', '0.0', '20', '0.0', '30', '0.0', '2', 'SOLID', '70', '1', '71', '0', '91', '1',
  '92', '2', '72', '0', '73', '1', '93', '3', '10', '60.0', '20', '60.0', '10', '80.0', '20', '60.0', '10', '70.0', '20', '75.0',
  '75', '0', '76', '1', '98', '0',
  '0', 'INSERT', '5', 'A6', '8', '0', '2', 'Door', '10', '10.0', '20', '10.0', '30', '0.0', '50', '30.0',
  '0', 'TEXT', '5', 'A7', '8', '0', '10', '5.0', '20', '90.0', '30', '0.0', '40', '3.5', '1', 'Warm-up 1:100', '7', 'STANDARD',
  '0', 'MTEXT', '5', 'A8', '8', 'Walls', '10', '5.0', '20', '100.0', '30', '0.0', '40', '2.5', '71', '1', '1', 'Two\\Plines',
  '0', 'ENDSEC', '0', 'EOF', '',
].join('\n');

async function warmUp(): Promise<void> {
  await prewarmBundledFonts();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cad-snapshot-'));
  const log = console.log;
  try {
    const file = path.join(dir, 'warm-up.dxf');
    writeFileSync(file, WARM_UP_DXF);
    console.log = () => undefined; // the command's JSON line
    const code = await main(['convert', file, path.join(dir, 'warm-up.pdf'), '--all-layouts']);
    if (code !== 0) throw new Error(`the snapshot's warm-up conversion exited ${code}`);
  } finally {
    console.log = log;
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * import() of an ES module (pdfjs-dist for a PDF source): a snapshot's code has no module loader of its own for
 * import(), so it goes through a script compiled with node's default one, made at the first import. Node warns at
 * its first use that this option is experimental: that one warning is dropped (not the user's business).
 */
let esmImport: ((id: string) => Promise<unknown>) | undefined;
function importFromSnapshot(id: string): Promise<unknown> {
  if (!esmImport) {
    const emit = process.emitWarning;
    process.emitWarning = function (this: unknown, ...args: Parameters<typeof emit>) {
      if (String(args[0]).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
      return emit.apply(this, args);
    } as typeof emit;
    const script = new vm.Script('(id) => import(id)', { filename: __filename, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    esmImport = script.runInThisContext() as (id: string) => Promise<unknown>;
  }
  return esmImport(id);
}

/** import() while the snapshot is built: node's own modules only (the bundled fonts' reader imports node:module, fs, path) */
function importBuiltin(id: string): Promise<unknown> {
  const m = process.getBuiltinModule(id);
  if (!m) return Promise.reject(new Error(`${id} cannot be imported while the start-up snapshot is built`));
  return Promise.resolve({ ...m, default: m });
}

installEsmImport(importBuiltin);
warmUp().catch((e) => {
  console.error(e);
  process.exit(1);
});
startupSnapshot.setDeserializeMainFunction(() => {
  installEsmImport(importFromSnapshot);
  // in a process started from a snapshot, argv[1] is the first argument
  void main(process.argv.slice(1)).then((code) => process.exit(code));
});
