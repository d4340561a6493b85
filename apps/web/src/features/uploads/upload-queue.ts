import { MAX_CONCURRENT_UPLOADS, type UploadConflict } from '@cadcloud/contracts';

export type UploadStatus = 'waiting' | 'hashing' | 'uploading' | 'success' | 'instant' | 'failed';

export interface UploadEntry {
  id: number;
  file: Blob;
  name: string;
  relativePath?: string;
  parentId: string;
  /** chosen before the upload when a file of this name is in the folder ('version': becomes its next version) */
  conflict?: UploadConflict;
  size: number;
  status: UploadStatus;
  loaded: number;
  error?: string;
}

/** Does one upload; reports bytes sent; resolves 'instant' when the server had the bytes already. */
export type UploadRunner = (entry: UploadEntry, report: (patch: Partial<UploadEntry>) => void) => Promise<'success' | 'instant'>;

/**
 * The upload task list: at most 3 uploads run at once (spec section 4); waiting ones start as slots free;
 * finished ones can be cleared; a failed one can be retried.
 */
export class UploadQueue {
  private entries: UploadEntry[] = [];
  private listeners = new Set<() => void>();
  private nextId = 1;
  private snapshot: readonly UploadEntry[] = [];
  onFinished?: (entry: UploadEntry) => void;

  constructor(
    private readonly runner: UploadRunner,
    readonly maxConcurrent = MAX_CONCURRENT_UPLOADS,
  ) {}

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getSnapshot = () => this.snapshot;

  private emit() {
    this.snapshot = this.entries.map((e) => ({ ...e }));
    this.listeners.forEach((l) => l());
  }

  add(files: { file: Blob; name: string; relativePath?: string; parentId: string; conflict?: UploadConflict }[]) {
    for (const f of files) this.entries.push({ id: this.nextId++, ...f, size: f.file.size, status: 'waiting', loaded: 0 });
    this.emit();
    this.pump();
  }

  get running() {
    return this.entries.filter((e) => e.status === 'hashing' || e.status === 'uploading').length;
  }

  private pump() {
    while (this.running < this.maxConcurrent) {
      const next = this.entries.find((e) => e.status === 'waiting');
      if (!next) return;
      this.start(next);
    }
  }

  private start(entry: UploadEntry) {
    entry.status = 'hashing';
    this.emit();
    const report = (patch: Partial<UploadEntry>) => {
      Object.assign(entry, patch);
      this.emit();
    };
    this.runner(entry, report)
      .then((how) => {
        entry.status = how;
        entry.loaded = entry.size;
        this.onFinished?.(entry);
      })
      .catch((e: Error) => {
        entry.status = 'failed';
        entry.error = e.message;
      })
      .finally(() => {
        this.emit();
        this.pump();
      });
  }

  retry(id: number) {
    const e = this.entries.find((x) => x.id === id);
    if (e?.status === 'failed') {
      e.status = 'waiting';
      e.error = undefined;
      e.loaded = 0;
      this.emit();
      this.pump();
    }
  }

  clearFinished() {
    this.entries = this.entries.filter((e) => e.status !== 'success' && e.status !== 'instant');
    this.emit();
  }
}
