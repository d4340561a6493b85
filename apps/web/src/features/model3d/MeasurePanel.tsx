import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAngle, formatDistance } from './measure3d.ts';
import type { MeasureMode, MeasureResult } from './measure-tool.ts';

/**
 * The measurement panel over the 3D view: the kind of measurement, what to click, and the result (a distance with its
 * ΔX ΔY ΔZ in the model's own coordinates and units, or an angle), with what each point snapped to.
 */
export function MeasurePanel({ result, onMode }: { result: MeasureResult; onMode(m: MeasureMode): void }) {
  const { t } = useTranslation('model3d');
  const modes: MeasureMode[] = ['distance', 'angle', 'faces'];
  const { mode, points } = result;
  const hint = mode === 'distance' ? t('model3d.measure.hint') : t(`model3d.measure.hint.${mode}`);
  return (
    <div data-testid="view3d-measure-panel" style={{ position: 'absolute', left: 8, bottom: 8, maxWidth: 'calc(100% - 16px)', padding: 8, background: 'rgba(255,255,255,0.94)', border: '1px solid #e5e7eb', borderRadius: 6, fontSize: 12, zIndex: 2 }}>
      <Segmented size="small" value={mode} options={modes.map((m) => ({ value: m, label: t(`model3d.measure.mode.${m}`) }))} onChange={(m) => onMode(m as MeasureMode)} data-testid="view3d-measure-mode" />
      {mode === 'distance' ? (
        <div data-testid="view3d-distance" style={{ marginTop: 6, fontWeight: 600 }}>{result.distance !== null ? t('model3d.distance', { value: formatDistance(result.distance) }) : hint}</div>
      ) : (
        <div data-testid="view3d-angle" style={{ marginTop: 6, fontWeight: 600 }}>{result.angle !== null ? t('model3d.angle', { value: formatAngle(result.angle) }) : hint}</div>
      )}
      {result.delta && <div data-testid="view3d-delta">{t('model3d.delta', { x: formatDistance(result.delta[0]), y: formatDistance(result.delta[1]), z: formatDistance(result.delta[2]) })} ({t('model3d.measure.units')})</div>}
      {points.length > 0 && <div data-testid="view3d-snaps" style={{ color: '#6b7280' }}>{points.map((p) => t(`model3d.snap.${p.kind}`)).join(' → ')}</div>}
    </div>
  );
}
