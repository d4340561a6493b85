import { useMemo } from 'react';
import { Button, Descriptions, Empty, Space, Tree } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined, AimOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Object3D } from 'three';
import { buildTree, hide, indexByKey, isolate, isShown, nodeName, propertiesOf, showAll, type TreeNode } from './scene-tree.ts';

/**
 * The model tree of the loaded GLB (its node hierarchy) with hide, isolate and show all on the selected node.
 * `version` changes when visibility changes, so the titles (greyed when hidden) are drawn again.
 */
export function ModelTree({ model, selected, onSelect, onChange }: { model: Object3D; selected: Object3D | null; onSelect(o: Object3D | null): void; onChange(): void }) {
  const { t } = useTranslation('model3d');
  const tree = useMemo(() => buildTree(model), [model]);
  const byKey = useMemo(() => indexByKey(model), [model]);
  const title = (n: TreeNode) => {
    const o = byKey.get(n.key)!;
    return <span style={{ opacity: isShown(o) ? 1 : 0.4 }} data-testid={`tree-${n.title}`}>{n.title}</span>;
  };
  const data = (nodes: TreeNode[]): any[] => nodes.map((n) => ({ key: n.key, title: title(n), children: data(n.children) }));
  const act = (fn: () => void) => {
    fn();
    onChange();
  };
  return (
    <div className="model3d-tree">
      <Space wrap size={4} style={{ marginBottom: 8 }}>
        <Button size="small" icon={<EyeInvisibleOutlined />} disabled={!selected} onClick={() => act(() => hide([selected!]))} data-testid="tree-hide">{t('model3d.hide')}</Button>
        <Button size="small" icon={<AimOutlined />} disabled={!selected} onClick={() => act(() => isolate(model, selected!))} data-testid="tree-isolate">{t('model3d.isolate')}</Button>
        <Button size="small" icon={<EyeOutlined />} onClick={() => act(() => showAll(model))} data-testid="tree-show-all">{t('model3d.showAll')}</Button>
      </Space>
      <Tree blockNode defaultExpandAll treeData={data(tree)} selectedKeys={selected ? [selected.uuid] : []} onSelect={(keys) => onSelect(keys.length ? (byKey.get(String(keys[0])) ?? null) : null)} />
    </div>
  );
}

/** The selected element's name and properties (`extras.properties`: IFC property sets, STEP product names, layers …). */
export function ElementProperties({ element }: { element: Object3D | null }) {
  const { t } = useTranslation('model3d');
  if (!element) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('model3d.noSelection')} />;
  const items = [[t('model3d.name'), nodeName(element)], ...propertiesOf(element)].map(([label, children], i) => ({ key: String(i), label, children }));
  return <Descriptions size="small" column={1} bordered items={items} data-testid="element-properties" />;
}
