import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { App, Button, Drawer, Progress, Result, Segmented, Slider, Space, Spin, Tooltip } from 'antd';
import { BorderOutlined, CameraOutlined, ColumnWidthOutlined, ExpandOutlined, PartitionOutlined, ProfileOutlined, ScissorOutlined, SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Object3D } from 'three';
import { TransformStatus, type Model3dStatus } from '@cadcloud/contracts';
import { model3dApi, MODEL3D_POLL_MS } from './api.ts';
import { ElementProperties, ModelTree } from './ModelPanels.tsx';
import { formatDistance, type Vec3 } from './measure3d.ts';
import type { Axis } from './section.ts';
import type { Engine, RenderMode, StandardView } from './engine.ts';

type Phase = { kind: 'status' } | { kind: 'error'; msg: string } | { kind: 'model'; url: string };

/**
 * /view3d?key={file id} (spec section 2): a converted 3D model in its own tab. Not converted: the spec's "not viewable
 * on the web" with a Convert button; converting: the progress, asked again every 5 s; failed: the server's message.
 */
export function View3dPage() {
  const { t } = useTranslation('model3d');
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const [status, setStatus] = useState<Model3dStatus | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'status' });

  const load = useCallback(async () => {
    try {
      const s = await model3dApi.status(key);
      setStatus(s);
      document.title = s.name;
      if (s.transformStatus === TransformStatus.SUCCESS_TRANSFORM && s.glbUrl) setPhase({ kind: 'model', url: s.glbUrl });
    } catch (e) {
      setPhase({ kind: 'error', msg: (e as Error).message });
    }
  }, [key]);
  useEffect(() => void load(), [load]);
  const converting = status?.transformStatus === TransformStatus.IN_TRANSFORM;
  useEffect(() => {
    if (!converting) return;
    const timer = setInterval(() => void load(), MODEL3D_POLL_MS);
    return () => clearInterval(timer);
  }, [converting, load]);

  const convert = async () => {
    try {
      const r = await model3dApi.transform([key]);
      if (!r.allDone) message.info(t('model3d.queued'));
      const s = r.list.find((x) => x.fileId === key);
      if (s) setStatus(s);
      await load();
    } catch (e) {
      // the server's messages (trials used up, already converting …) as they are
      message.error((e as Error).message);
    }
  };

  if (phase.kind === 'model') return <ModelView url={phase.url} status={status!} />;
  if (phase.kind === 'error') return <Result status="warning" title={phase.msg} data-testid="view3d-error" />;
  if (!status) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  const s = status.transformStatus;
  return (
    <div className="view3d-state" style={{ maxWidth: 560, margin: '10vh auto', padding: 16 }} data-testid="view3d-state">
      {s === TransformStatus.IN_TRANSFORM ? (
        <Result icon={<Spin />} title={status.name} subTitle={t('model3d.converting', { progress: status.progress })} extra={<Progress percent={status.progress} data-testid="view3d-progress" />} />
      ) : s === TransformStatus.FAIL_TRANSFORM ? (
        <Result status="error" title={t('model3d.failed')} subTitle={status.msg ?? ''} extra={<Button type="primary" onClick={convert} data-testid="view3d-convert">{t('model3d.retry')}</Button>} />
      ) : (
        <Result status="info" title={status.name} subTitle={t('model3d.notViewable')} extra={<Button type="primary" onClick={convert} data-testid="view3d-convert">{t('model3d.convert')}</Button>} />
      )}
    </div>
  );
}

const narrow = () => window.innerWidth < 768;

/** The loaded model: the three.js engine (a chunk of its own) and the toolbar and panels around it. */
function ModelView({ url, status }: { url: string; status: Model3dStatus }) {
  const { t } = useTranslation('model3d');
  const host = useRef<HTMLDivElement>(null);
  const [engine, setEngine] = useState<Engine | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [selected, setSelected] = useState<Object3D | null>(null);
  const [, setVersion] = useState(0);
  const [measure, setMeasure] = useState<{ on: boolean; d: number | null; n: number }>({ on: false, d: null, n: 0 });
  const [section, setSection] = useState<{ axis: Axis | 'off'; t: number; flip: boolean }>({ axis: 'off', t: 0.5, flip: false });
  const [phone, setPhone] = useState(narrow());
  const [panel, setPanel] = useState<'tree' | 'props' | null>(null);
  const bump = () => setVersion((v) => v + 1);

  useEffect(() => {
    const onResize = () => setPhone(narrow());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    let dead = false;
    let made: Engine | null = null;
    (async () => {
      try {
        const [{ Engine, parseGlb }, res] = await Promise.all([import('./engine.ts'), fetch(url, { credentials: 'same-origin' })]);
        if (!res.ok) throw new Error(String(res.status));
        const { model } = await parseGlb(await res.arrayBuffer(), status.stats?.upAxis);
        if (dead) return;
        made = new Engine(host.current!, {
          onSelect: (o) => setSelected(o),
          onMeasure: (p: Vec3[], d) => setMeasure((m) => ({ ...m, d, n: p.length })),
        });
        made.setModel(model);
        setEngine(made);
        // the browser test reads the engine (pixels, projection) through this
        (window as unknown as { __view3d?: Engine }).__view3d = made;
      } catch (e) {
        if (!dead) setFailed((e as Error).message);
      }
    })();
    return () => {
      dead = true;
      made?.dispose();
    };
  }, [url, status.stats?.upAxis]);

  useEffect(() => engine?.setSection(section.axis === 'off' ? null : { axis: section.axis, t: section.t, flip: section.flip }), [engine, section]);

  const shot = () => {
    const a = document.createElement('a');
    a.href = engine!.screenshot();
    a.download = `${status.name.replace(/\.[^.]+$/, '')}.png`;
    a.click();
  };

  if (failed) return <Result status="error" title={t('model3d.loadFailed')} subTitle={failed} data-testid="view3d-load-failed" />;
  const views: StandardView[] = ['iso', 'top', 'front', 'right', 'left', 'back', 'bottom'];
  const tree = engine?.model && <ModelTree model={engine.model} selected={selected} onSelect={(o) => engine.select(o)} onChange={() => (engine.visibilityChanged(), bump())} />;
  const props = <ElementProperties element={selected} />;
  return (
    <div className="view3d" style={{ position: 'fixed', inset: 0, display: 'flex', flexDirection: 'column' }}>
      <div className="view3d-toolbar" style={{ padding: 6, borderBottom: '1px solid #e5e7eb', background: '#fff' }}>
        <Space wrap size={4}>
          <strong style={{ maxWidth: phone ? 120 : 280, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'inline-block', verticalAlign: 'middle' }}>{status.name}</strong>
          <Button size="small" icon={<PartitionOutlined />} onClick={() => setPanel(panel === 'tree' ? null : 'tree')} data-testid="view3d-tree-toggle">{phone ? null : t('model3d.tree')}</Button>
          <Button size="small" icon={<ProfileOutlined />} onClick={() => setPanel(panel === 'props' ? null : 'props')} data-testid="view3d-props-toggle">{phone ? null : t('model3d.properties')}</Button>
          <Tooltip title={t('model3d.fit')}><Button size="small" icon={<ExpandOutlined />} onClick={() => engine?.fit()} data-testid="view3d-fit" /></Tooltip>
          <Segmented size="small" options={views.map((v) => ({ value: v, label: t(`model3d.view.${v}`) }))} onChange={(v) => engine?.fit(v as StandardView)} data-testid="view3d-views" />
          <Segmented size="small" options={[{ value: 'p', label: t('model3d.perspective') }, { value: 'o', label: t('model3d.orthographic') }]} onChange={(v) => (engine?.setOrthographic(v === 'o'), bump())} data-testid="view3d-projection" />
          <Segmented size="small" options={(['shaded', 'wireframe', 'edges'] as RenderMode[]).map((m) => ({ value: m, label: t(`model3d.mode.${m}`) }))} onChange={(m) => engine?.setMode(m as RenderMode)} data-testid="view3d-mode" />
          <span><ScissorOutlined /> {t('model3d.section')}</span>
          <Segmented size="small" value={section.axis} options={[{ value: 'off', label: t('model3d.section.off') }, { value: 'x', label: 'X' }, { value: 'y', label: 'Y' }, { value: 'z', label: 'Z' }]} onChange={(a) => setSection((s) => ({ ...s, axis: a as Axis | 'off' }))} data-testid="view3d-section" />
          {section.axis !== 'off' && (
            <>
              <span data-testid="view3d-section-slider" style={{ display: 'inline-block', width: 120, margin: '0 8px', verticalAlign: 'middle' }}><Slider min={0} max={100} value={Math.round(section.t * 100)} onChange={(v) => setSection((s) => ({ ...s, t: v / 100 }))} /></span>
              <Button size="small" icon={<SwapOutlined />} onClick={() => setSection((s) => ({ ...s, flip: !s.flip }))} data-testid="view3d-section-flip">{t('model3d.flip')}</Button>
            </>
          )}
          <Button size="small" type={measure.on ? 'primary' : 'default'} icon={<ColumnWidthOutlined />} onClick={() => { engine?.setMeasuring(!measure.on); setMeasure({ on: !measure.on, d: null, n: 0 }); }} data-testid="view3d-measure">{t('model3d.measure')}</Button>
          {measure.on && <span data-testid="view3d-distance">{measure.d !== null ? t('model3d.distance', { value: formatDistance(measure.d) }) : t('model3d.measure.hint')}</span>}
          <Tooltip title={t('model3d.screenshot')}><Button size="small" icon={<CameraOutlined />} onClick={shot} disabled={!engine} data-testid="view3d-screenshot" /></Tooltip>
          {status.stats && !phone && <span style={{ color: '#6b7280' }}><BorderOutlined /> {t('model3d.stats', { triangles: status.stats.triangles.toLocaleString() })}</span>}
        </Space>
      </div>
      <div style={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {!phone && panel === 'tree' && <aside style={{ width: 280, overflow: 'auto', padding: 8, borderRight: '1px solid #e5e7eb', background: '#fff' }} data-testid="view3d-tree">{tree}</aside>}
        <div ref={host} style={{ flex: 1, position: 'relative', minWidth: 0 }} data-testid="view3d-host">
          {!engine && <Spin tip={t('model3d.loading')} style={{ position: 'absolute', top: '40%', left: '50%' }}><div /></Spin>}
        </div>
        {!phone && panel === 'props' && <aside style={{ width: 300, overflow: 'auto', padding: 8, borderLeft: '1px solid #e5e7eb', background: '#fff' }}>{props}</aside>}
      </div>
      {phone && (
        <Drawer open={!!panel} placement="bottom" size="default" styles={{ wrapper: { height: '45vh' } }} mask={false} onClose={() => setPanel(null)} title={panel === 'tree' ? t('model3d.tree') : t('model3d.properties')}>
          <div data-testid={panel === 'tree' ? 'view3d-tree' : undefined}>{panel === 'tree' ? tree : props}</div>
        </Drawer>
      )}
    </div>
  );
}
