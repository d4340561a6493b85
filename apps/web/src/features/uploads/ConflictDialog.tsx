import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Button, Checkbox, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { UploadConflict } from '@cadcloud/contracts';
import { filesApi, type Item } from '../files/api.ts';
import { isViewable } from '../viewer/viewable.ts';
import { md5OfFile } from './md5.ts';

/** What to do with one chosen file whose name is already a file in the target folder ('open': it is that file already). */
export type ConflictChoice = UploadConflict | 'skip' | 'open';
/** `same`: the file in the folder has the very bytes being uploaded (only "open it" or "skip" make sense then). */
export type ConflictAsk = (name: string, index: number, total: number, same?: Item) => Promise<{ choice: ConflictChoice; all: boolean }>;
/** The file of the folder that holds the same bytes as `f`, or null. */
export type SameBytes<T> = (f: T) => Promise<Item | null>;

/** The live files directly in a folder by name (folders do not clash with files). */
export async function filesIn(parentId: string): Promise<Map<string, Item>> {
  const page = await filesApi.unionList({ parentId, pageSize: 10_000 });
  return new Map(page.list.filter((i) => i.fileType === 1).map((i) => [i.name, i]));
}

/**
 * Whether a chosen file is byte for byte the file of that name in the folder: the list gives the owner their own
 * files' MD5 (items.presenter.ts), so the chosen file is hashed only when the sizes already agree. Uploading it again
 * would only fail ("the same file cannot be uploaded twice"), whatever the answer to the name question.
 */
export function sameBytesAs(existing: ReadonlyMap<string, Item>): SameBytes<{ name: string; file?: Blob }> {
  return async (f) => {
    const there = existing.get(f.name);
    if (!there?.fileMD5 || !f.file || there.size !== f.file.size) return null;
    return (await md5OfFile(f.file)).toLowerCase() === there.fileMD5.toLowerCase() ? there : null;
  };
}

/**
 * Decides each clashing file before anything is uploaded: a file going straight into the folder (not inside a dropped
 * folder) whose name is in `existing` is asked about, one at a time, until "apply to all" answers the rest.
 * Skipped files are left out; the others carry their conflict choice ('version' or 'rename').
 */
export async function planUploads<T extends { name: string; relativePath?: string }>(files: T[], existing: { has(name: string): boolean }, ask: ConflictAsk, same?: SameBytes<T>): Promise<(T & { conflict?: UploadConflict })[]> {
  const clashes = files.filter((f) => !f.relativePath?.includes('/') && existing.has(f.name));
  const out: (T & { conflict?: UploadConflict })[] = [];
  let forAll: ConflictChoice | null = null;
  let n = 0;
  for (const f of files) {
    if (!clashes.includes(f)) {
      out.push(f);
      continue;
    }
    n++;
    // the same bytes are already there: say so (and offer to open it) instead of offering a new version or a copy
    const there = same ? await same(f).catch(() => null) : null;
    if (there) {
      await ask(f.name, n, clashes.length, there);
      continue;
    }
    let choice = forAll;
    if (!choice) {
      const a = await ask(f.name, n, clashes.length);
      choice = a.choice;
      if (a.all) forAll = a.choice;
    }
    if (choice === 'version' || choice === 'rename') out.push({ ...f, conflict: choice });
  }
  return out;
}

/**
 * The "file already exists" question as a hook: render `element`, then `plan(files, parentId)` asks about every
 * clashing file ("Upload as a new version" / "Keep both (rename)" / "Skip", with "apply to all") and resolves to the
 * files to upload.
 */
export function useUploadConflicts(options: { open?: (item: Item) => void } = {}): { plan: <T extends { name: string; relativePath?: string }>(files: T[], parentId: string) => Promise<(T & { conflict?: UploadConflict })[]>; element: ReactNode } {
  const { t } = useTranslation('versions');
  const navigate = useNavigate();
  const [question, setQuestion] = useState<null | { name: string; index: number; total: number; same?: Item }>(null);
  const toOpen = useRef<Item | null>(null);
  const openItem = options.open ?? ((item: Item) => navigate(isViewable(item) ? `/yun/view/${item.id}` : `/yun/index?folderId=${item.parentId}`));
  const [all, setAll] = useState(false);
  const resolver = useRef<((a: { choice: ConflictChoice; all: boolean }) => void) | null>(null);

  const ask: ConflictAsk = useCallback(
    (name, index, total, same) =>
      new Promise((resolve) => {
        resolver.current = resolve;
        setAll(false);
        setQuestion({ name, index, total, same });
      }),
    [],
  );
  const answer = (choice: ConflictChoice) => {
    if (choice === 'open' && question?.same) toOpen.current = question.same;
    const r = resolver.current;
    resolver.current = null;
    setQuestion(null);
    r?.({ choice, all });
  };
  const plan = useCallback(
    async <T extends { name: string; relativePath?: string }>(files: T[], parentId: string) => {
      if (!files.some((f) => !f.relativePath?.includes('/'))) return files;
      // the listing could not be read: upload as before (the server keeps both)
      const existing = await filesIn(parentId).catch(() => new Map<string, Item>());
      toOpen.current = null;
      const planned = await planUploads(files, existing, ask, sameBytesAs(existing));
      // "Open it": after the plan, so the other chosen files are still uploaded
      if (toOpen.current) openItem(toOpen.current);
      return planned;
    },
    [ask, openItem],
  );

  const remaining = question ? question.total - question.index + 1 : 0;
  const element = (
    <Modal
      open={!!question}
      title={question?.same ? t('versions.conflict.sameTitle') : t('versions.conflict.title')}
      onCancel={() => answer('skip')}
      maskClosable={false}
      width={520}
      footer={
        question?.same ? (
          <div className="conflict-actions" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'flex-end' }}>
            <Button onClick={() => answer('skip')} data-testid="conflict-skip">{t('versions.conflict.ok')}</Button>
            <Button type="primary" onClick={() => answer('open')} data-testid="conflict-open">{t('versions.conflict.open')}</Button>
          </div>
        ) : (
        <div className="conflict-actions" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'flex-end' }}>
          <Button onClick={() => answer('skip')} data-testid="conflict-skip">{t('versions.conflict.skip')}</Button>
          <Button onClick={() => answer('rename')} data-testid="conflict-rename">{t('versions.conflict.rename')}</Button>
          <Button type="primary" onClick={() => answer('version')} data-testid="conflict-version">{t('versions.conflict.version')}</Button>
        </div>
        )
      }
    >
      <div data-testid="conflict-dialog">
        <p style={{ wordBreak: 'break-word' }} data-testid="conflict-name">{t(question?.same ? 'versions.conflict.same' : 'versions.conflict.exists', { name: question?.name ?? '' })}</p>
        {question && question.total > 1 && <p><small>{t('versions.conflict.progress', { n: question.index, total: question.total })}</small></p>}
        {remaining > 1 && !question?.same && (
          <Checkbox checked={all} onChange={(e) => setAll(e.target.checked)} data-testid="conflict-all">
            {t('versions.conflict.applyAll', { count: remaining })}
          </Checkbox>
        )}
      </div>
    </Modal>
  );
  return { plan, element };
}
