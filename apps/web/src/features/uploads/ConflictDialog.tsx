import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Button, Checkbox, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UploadConflict } from '@cadcloud/contracts';
import { filesApi } from '../files/api.ts';

/** What to do with one chosen file whose name is already a file in the target folder. */
export type ConflictChoice = UploadConflict | 'skip';
export type ConflictAsk = (name: string, index: number, total: number) => Promise<{ choice: ConflictChoice; all: boolean }>;

/** The names of the live files directly in a folder (folders do not clash with files). */
export async function fileNamesIn(parentId: string): Promise<Set<string>> {
  const page = await filesApi.unionList({ parentId, pageSize: 10_000 });
  return new Set(page.list.filter((i) => i.fileType === 1).map((i) => i.name));
}

/**
 * Decides each clashing file before anything is uploaded: a file going straight into the folder (not inside a dropped
 * folder) whose name is in `existing` is asked about, one at a time, until "apply to all" answers the rest.
 * Skipped files are left out; the others carry their conflict choice ('version' or 'rename').
 */
export async function planUploads<T extends { name: string; relativePath?: string }>(files: T[], existing: Set<string>, ask: ConflictAsk): Promise<(T & { conflict?: UploadConflict })[]> {
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
    let choice = forAll;
    if (!choice) {
      const a = await ask(f.name, n, clashes.length);
      choice = a.choice;
      if (a.all) forAll = a.choice;
    }
    if (choice !== 'skip') out.push({ ...f, conflict: choice });
  }
  return out;
}

/**
 * The "file already exists" question as a hook: render `element`, then `plan(files, parentId)` asks about every
 * clashing file ("Upload as a new version" / "Keep both (rename)" / "Skip", with "apply to all") and resolves to the
 * files to upload.
 */
export function useUploadConflicts(): { plan: <T extends { name: string; relativePath?: string }>(files: T[], parentId: string) => Promise<(T & { conflict?: UploadConflict })[]>; element: ReactNode } {
  const { t } = useTranslation('versions');
  const [question, setQuestion] = useState<null | { name: string; index: number; total: number }>(null);
  const [all, setAll] = useState(false);
  const resolver = useRef<((a: { choice: ConflictChoice; all: boolean }) => void) | null>(null);

  const ask: ConflictAsk = useCallback(
    (name, index, total) =>
      new Promise((resolve) => {
        resolver.current = resolve;
        setAll(false);
        setQuestion({ name, index, total });
      }),
    [],
  );
  const answer = (choice: ConflictChoice) => {
    const r = resolver.current;
    resolver.current = null;
    setQuestion(null);
    r?.({ choice, all });
  };
  const plan = useCallback(
    async <T extends { name: string; relativePath?: string }>(files: T[], parentId: string) => {
      if (!files.some((f) => !f.relativePath?.includes('/'))) return files;
      // the listing could not be read: upload as before (the server keeps both)
      const existing = await fileNamesIn(parentId).catch(() => new Set<string>());
      return planUploads(files, existing, ask);
    },
    [ask],
  );

  const remaining = question ? question.total - question.index + 1 : 0;
  const element = (
    <Modal
      open={!!question}
      title={t('versions.conflict.title')}
      onCancel={() => answer('skip')}
      maskClosable={false}
      width={520}
      footer={
        <div className="conflict-actions" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'flex-end' }}>
          <Button onClick={() => answer('skip')} data-testid="conflict-skip">{t('versions.conflict.skip')}</Button>
          <Button onClick={() => answer('rename')} data-testid="conflict-rename">{t('versions.conflict.rename')}</Button>
          <Button type="primary" onClick={() => answer('version')} data-testid="conflict-version">{t('versions.conflict.version')}</Button>
        </div>
      }
    >
      <div data-testid="conflict-dialog">
        <p style={{ wordBreak: 'break-word' }} data-testid="conflict-name">{t('versions.conflict.exists', { name: question?.name ?? '' })}</p>
        {question && question.total > 1 && <p><small>{t('versions.conflict.progress', { n: question.index, total: question.total })}</small></p>}
        {remaining > 1 && (
          <Checkbox checked={all} onChange={(e) => setAll(e.target.checked)} data-testid="conflict-all">
            {t('versions.conflict.applyAll', { count: remaining })}
          </Checkbox>
        )}
      </div>
    </Modal>
  );
  return { plan, element };
}
