import { Alert, Button, Checkbox, Empty, Input, List, Space, Tag } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Scene, SceneText } from '@cadcloud/cad/scene';

export const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`;

/** The side panels of the viewer (a bottom drawer on phones): layers, text search, properties and measures. */
export function LayersPanel({ scene, visible, onChange, onAll, label }: { scene: Scene; visible: Set<number>; onChange(i: number, on: boolean): void; onAll(on: boolean): void; label?: (name: string) => string }) {
  const { t } = useTranslation('viewer');
  return (
    <div data-testid="viewer-layers">
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => onAll(true)}>{t('viewer.allOn')}</Button>
        <Button size="small" onClick={() => onAll(false)}>{t('viewer.allOff')}</Button>
      </Space>
      <List size="small" dataSource={scene.meta.layers.map((l, i) => ({ l, i }))} renderItem={({ l, i }) => (
        <List.Item>
          {/* a layer off or frozen in the drawing starts unchecked; the user may switch it on (nothing is saved) */}
          <Checkbox data-testid={`layer-${l.name}`} checked={visible.has(i)} onChange={(e) => onChange(i, e.target.checked)}>
            <span className="layer-swatch" style={{ background: hex(l.color) }} /> {label ? label(l.name) : l.name}
          </Checkbox>
        </List.Item>
      )} />
    </div>
  );
}

export function FindPanel({ query, onQuery, found, onPick }: { query: string; onQuery(q: string): void; found: SceneText[]; onPick(i: number): void }) {
  const { t } = useTranslation('viewer');
  return (
    <div>
      <Input.Search allowClear placeholder={t('viewer.find')} value={query} onChange={(e) => onQuery(e.target.value)} data-testid="viewer-find" />
      {query && !found.length ? <Empty description={t('viewer.find.none')} /> : (
        <List size="small" dataSource={found} renderItem={(x, i) => <List.Item className="clickable" data-testid="viewer-find-result" onClick={() => onPick(i)}>{x.text.split('\n')[0]}</List.Item>} />
      )}
    </div>
  );
}

export function InfoPanel({ scene, selected, measureText, onUploadFont, missingPictures = [] }: { scene: Scene; selected: number | null; measureText: string | null; onUploadFont?: () => void; missingPictures?: string[] }) {
  const { t } = useTranslation('viewer');
  const entity = selected !== null ? scene.meta.entities[selected] : undefined;
  const notDrawn = Object.entries(scene.meta.notDrawn);
  const substituted = scene.meta.fonts?.substituted ?? [];
  const lw = (v?: number) => (v === undefined || v === -1 ? 'ByLayer' : v === -2 ? 'ByBlock' : v < 0 ? t('prop.default') : `${(v / 100).toFixed(2)} mm`);
  return (
    <div data-testid="viewer-info">
      {measureText && <Alert type="info" message={measureText} data-testid="viewer-measure" style={{ marginBottom: 8 }} />}
      {entity && (
        <table className="props" data-testid="viewer-props"><tbody>
          <tr><th>{t('prop.type')}</th><td>{entity.type}</td></tr>
          {entity.block !== undefined && <tr><th>{t('prop.block')}</th><td data-testid="viewer-prop-block">{entity.block}</td></tr>}
          <tr><th>{t('prop.handle')}</th><td>{entity.handle ?? '—'}</td></tr>
          <tr><th>{t('prop.layer')}</th><td>{entity.layer}</td></tr>
          <tr><th>{t('prop.color')}</th><td><span className="layer-swatch" style={{ background: hex(entity.color) }} /> {hex(entity.color)}</td></tr>
          <tr><th>{t('prop.linetype')}</th><td>{entity.linetype ?? 'ByLayer'}</td></tr>
          <tr><th>{t('prop.lineweight')}</th><td>{lw(entity.lineweight)}</td></tr>
        </tbody></table>
      )}
      {notDrawn.length > 0 && <p className="muted" data-testid="viewer-not-drawn">{t('viewer.notDrawn', { list: notDrawn.map(([k, v]) => `${k} ×${v}`).join(', ') })}</p>}
      {missingPictures.length > 0 && <p className="muted" data-testid="viewer-pictures-missing">{t('viewer.picturesMissing', { list: missingPictures.join(', ') })}</p>}
      {scene.meta.fonts && (
        <div data-testid="viewer-fonts">
          <b>{t('viewer.fonts')}</b>: {scene.meta.fonts.requested.join(', ') || '—'}
          {substituted.map((s) => <div key={s.name}><Tag color="orange">{t('viewer.fonts.substituted', { name: s.name, with: s.with })}</Tag></div>)}
          {substituted.length > 0 && onUploadFont && <Button size="small" icon={<UploadOutlined />} onClick={onUploadFont} data-testid="viewer-upload-font">{t('viewer.fonts.upload')}</Button>}
        </div>
      )}
    </div>
  );
}
