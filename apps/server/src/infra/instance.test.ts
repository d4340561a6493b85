import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INSTANCE_ID, instanceTempName, sweepOrphanTemp } from './instance.ts';

describe('sweepOrphanTemp: what a killed server left in a temp folder', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("removes a dead instance's files and folders (a decompression's unpacked files), keeps the live ones and folders nobody owns", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-sweep-'));
    dirs.push(dir);
    const dead = 'i0123456789ab-un7z-1-aaaaaa';
    const live = instanceTempName('-', 'un7z');
    mkdirSync(path.join(dir, dead, 'out'), { recursive: true });
    writeFileSync(path.join(dir, dead, 'out', 'half.dwg'), 'x');
    mkdirSync(path.join(dir, live));
    writeFileSync(path.join(dir, 'i0123456789ab-unzip-src-1-bbbbbb.part'), 'x');
    writeFileSync(path.join(dir, instanceTempName('.part', 'unzip-src')), 'x');
    mkdirSync(path.join(dir, 'someone-elses-folder'));
    const removed = await sweepOrphanTemp(dir, new Set([INSTANCE_ID]), () => true);
    expect(removed.sort()).toEqual([dead, 'i0123456789ab-unzip-src-1-bbbbbb.part'].sort());
    expect(existsSync(path.join(dir, live))).toBe(true);
    expect(existsSync(path.join(dir, 'someone-elses-folder'))).toBe(true);
  });
});
