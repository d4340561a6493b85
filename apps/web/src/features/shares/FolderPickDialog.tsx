import { useEffect, useState } from 'react';
import { App, Modal, Tree, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROOT_FOLDER_ID } from '@cadcloud/contracts';
import { filesApi } from '../files/api.ts';

type Node = { key: string; title: string; isLeaf?: boolean; children?: Node[] };

/** Where in the signed-in user's cloud to save shared items: the folder tree, loaded level by level. */
export function FolderPickDialog({ open, busy, onCancel, onPick }: { open: boolean; busy?: boolean; onCancel(): void; onPick(folderId: string): void }) {
  const { t } = useTranslation('shares');
  const { message } = App.useApp();
  const [tree, setTree] = useState<Node[]>([]);
  const [expanded, setExpanded] = useState<React.Key[]>([ROOT_FOLDER_ID]);
  const [selected, setSelected] = useState<string>(ROOT_FOLDER_ID);
  const load = async (node: { key: React.Key }) => {
    const { subFolders } = await filesApi.folderList(String(node.key));
    const kids: Node[] = subFolders.map((f) => ({ key: f.id, title: f.name, isLeaf: f.count === 0 }));
    const attach = (nodes: Node[]): Node[] => nodes.map((n) => (n.key === node.key ? { ...n, children: kids, isLeaf: kids.length === 0 } : n.children ? { ...n, children: attach(n.children) } : n));
    setTree((old) => attach(old));
  };
  useEffect(() => {
    if (!open) return;
    setSelected(ROOT_FOLDER_ID);
    setExpanded([ROOT_FOLDER_ID]);
    setTree([{ key: ROOT_FOLDER_ID, title: t('shares.page.myCloud') }]);
    void load({ key: ROOT_FOLDER_ID }).catch((e) => message.error((e as Error).message));
  }, [open]);
  return (
    <Modal open={open} title={t('shares.page.saveTitle')} okText={t('shares.ok')} cancelText={t('shares.cancel')} confirmLoading={busy} onOk={() => onPick(selected)} onCancel={onCancel} destroyOnHidden okButtonProps={{ 'data-testid': 'share-save-ok' } as ButtonProps}>
      <div className="share-label">{t('shares.page.saveTarget')}</div>
      <div data-testid="share-save-tree" style={{ maxHeight: 360, overflow: 'auto' }}>
        <Tree.DirectoryTree treeData={tree} loadData={load} selectedKeys={[selected]} expandedKeys={expanded} onExpand={setExpanded} onSelect={(keys) => keys[0] !== undefined && setSelected(String(keys[0]))} expandAction="doubleClick" />
      </div>
    </Modal>
  );
}
