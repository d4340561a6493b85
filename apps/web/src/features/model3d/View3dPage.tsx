import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { App, Button, Checkbox, Drawer, Progress, Result, Segmented, Slider, Space, Spin, Tooltip } from 'antd';
import { BorderOutlined, CameraOutlined, ColumnWidthOutlined, ExpandOutlined, PartitionOutlined, ProfileOutlined, ScissorOutlined, SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Object3D } from 'three';
import { TransformStatus, type Model3dStatus } from '@cadcloud/contracts';
import { model3dApi, MODEL3D_POLL_MS } from './api.ts';
import { sharesApi } from '../shares/api.ts';
import { ElementProperties, ModelTree } from './ModelPanels.tsx';
import { MeasurePanel } from './MeasurePanel.tsx';
import { isRevit, RevitInfoPanel } from './RevitInfo.tsx';
import type { MeasureResult } from './measure-tool.ts';
import type { Axis } from './section.ts';
import type { DrawnLevel, Engine, RenderMode, StandardView } from './engine.ts';
import { fetchWithProgress, type Received } from './fetch-progress.ts';
import { formatSize } from '../../lib/format.ts';

type Phase = { kind: 'status' } | { kind: 'error'; msg: string } | { kind: 'model'; url: string; lodUrl: string | null };

/**
 * /view3d?key={file id} (spec section 2): a converted 3D model in its own tab. Not converted: the spec's "not viewable
 * on the web" with a Convert button; converting: the progress, asked again every 5 s; failed: the server's message.
 */
export function View3dPage() {
  const { t } = useTranslation('model3d');
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  // opened from a share: the sharer's conversion seen through the share token; a recipient converts nothing
  const shareToken = params.get('shareToken') ?? '';
  const [status, setStatus] = useState<Model3dStatus | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'status' });

  // a model whose MTL or textures changed since it was converted is converted again once, on opening
  const reconverted = useRef(false);
  const load = useCallback(async () => {
    try {
      const s = shareToken ? await sharesApi.status3D(shareToken, key) : await model3dApi.status(key);
      if (s.stale && !reconverted.current) {
        reconverted.current = true;
        try {
          const again = (await model3dApi.transform([key])).list.find((x) => x.fileId === key);
          if (again?.transformStatus === TransformStatus.IN_TRANSFORM) {
            message.info(t('model3d.companionsChanged'));
            setStatus(again);
            document.title = again.name;
            return;
          }
        } catch (e) {
          // refused (trials used up …): the model as it was converted, and why
          message.warning((e as Error).message);
        }
      }
      setStatus(s);
      document.title = s.name;
      if (s.transformStatus === TransformStatus.SUCCESS_TRANSFORM && s.glbUrl) setPhase({ kind: 'model', url: s.glbUrl, lodUrl: s.lodUrl ?? null });
    } catch (e) {
      setPhase({ kind: 'error', msg: (e as Error).message });
    }
  }, [key, shareToken, message, t]);
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

  if (phase.kind === 'model') return <ModelView url={phase.url} lodUrl={phase.lodUrl} status={status!} />;
  if (phase.kind === 'error') return <Result status="warning" title={phase.msg} data-testid="view3d-error" />;
  if (!status) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  // a Revit file converts to nothing: what it tells of itself instead (its owner's; a share shows the plain state)
  if (isRevit(status.name) && !shareToken) return <RevitInfoPanel fileId={key} name={status.name} />;
  const s = status.transformStatus;
  return (
    <div className="view3d-state" style={{ maxWidth: 560, margin: '10vh auto', padding: 16 }} data-testid="view3d-state">
      {s === TransformStatus.IN_TRANSFORM ? (
        <Result icon={<Spin />} title={status.name} subTitle={t('model3d.converting', { progress: status.progress })} extra={<Progress percent={status.progress} data-testid="view3d-progress" />} />
      ) : s === TransformStatus.FAIL_TRANSFORM ? (
        <Result status="error" title={t('model3d.failed')} subTitle={status.msg ?? ''} extra={!shareToken && <Button type="primary" onClick={convert} data-testid="view3d-convert">{t('model3d.retry')}</Button>} />
      ) : (
        <Result status="info" title={status.name} subTitle={t('model3d.notViewable')} extra={!shareToken && <Button type="primary" onClick={convert} data-testid="view3d-convert">{t('model3d.convert')}</Button>} />
      )}
    </div>
  );
}

const narrow = () => window.innerWidth < 768;

/** The loaded model: the three.js engine (a chunk of its own) and the toolbar and panels around it. */
/**
 * A big model comes as two GLBs (the converter's coarse level, a few MB, and the full model): both are fetched at once,
 * the coarse one is shown as soon as it is there and the full one, its bytes counted on screen, takes its place when
 * it has arrived; afterwards the coarse one is drawn while the camera moves (engine.ts).
 */
function ModelView({ url, lodUrl, status }: { url: string; lodUrl: string | null; status: Model3dStatus }) {
  const { t } = useTranslation('model3d');
  const host = useRef<HTMLDivElement>(null);
  const [engine, setEngine] = useState<Engine | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [selected, setSelected] = useState<Object3D | null>(null);
  const [, setVersion] = useState(0);
  const [measure, setMeasure] = useState<MeasureResult | null>(null);
  const [section, setSection] = useState<{ axis: Axis | 'off'; t: number; flip: boolean; caps: boolean }>({ axis: 'off', t: 0.5, flip: false, caps: true });
  const [phone, setPhone] = useState(narrow());
  const [panel, setPanel] = useState<'tree' | 'props' | null>(null);
  const [received, setReceived] = useState<Received | null>(null);
  const [level, setLevel] = useState<DrawnLevel | null>(null);
  const bump = () => setVersion((v) => v + 1);

  useEffect(() => {
    const onResize = () => setPhone(narrow());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    let dead = false;
    // held in an object: the closures below set it, and TypeScript would narrow a plain `let` to null
    const made: { engine: Engine | null } = { engine: null };
    const stop = new AbortController();
    const upAxis = status.stats?.upAxis;
    (async () => {
      try {
        const engineModule = import('./engine.ts');
        const full = fetchWithProgress(url, setReceived, stop.signal);
        const start = (model: Parameters<Engine['setModel']>[0], coarse: boolean, E: typeof Engine) => {
          const created = new E(host.current!, {
            onSelect: (o) => setSelected(o),
            onMeasure: setMeasure,
            onLevel: (l) => {
              setLevel(l);
              // the browser test reads the order the levels came in
              ((window as unknown as { __view3dLevels?: DrawnLevel[] }).__view3dLevels ??= []).push(l);
            },
          });
          made.engine = created;
          created.setModel(model, coarse);
          setEngine(created);
          // the browser test and the bench read the engine (pixels, projection, levels) through this
          (window as unknown as { __view3d?: Engine }).__view3d = created;
        };
        const { Engine: E, parseGlb } = await engineModule;
        if (lodUrl) {
          // the coarse level first; should it fail, the full model still comes
          const coarse = await fetchWithProgress(lodUrl, () => undefined, stop.signal)
            .then((b) => parseGlb(b, upAxis))
            .catch((e) => (console.warn(`the coarse level did not load: ${(e as Error).message}`), null));
          if (dead) return;
          if (coarse) start(coarse.model, true, E);
        }
        const { model } = await parseGlb(await full, upAxis);
        if (dead) return;
        if (made.engine) made.engine.setFullModel(model);
        else start(model, false, E);
        setReceived(null);
        bump();
      } catch (e) {
        if (!dead) setFailed((e as Error).message);
      }
    })();
    return () => {
      dead = true;
      stop.abort();
      made.engine?.dispose();
    };
  }, [url, lodUrl, status.stats?.upAxis]);

  useEffect(() => {
    engine?.setSectionCaps(section.caps);
    engine?.setSection(section.axis === 'off' ? null : { axis: section.axis, t: section.t, flip: section.flip });
  }, [engine, section]);

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
              <span data-testid="view3d-section-caps"><Checkbox checked={section.caps} onChange={(e) => setSection((s) => ({ ...s, caps: e.target.checked }))}>{t('model3d.section.caps')}</Checkbox></span>
            </>
          )}
          <Button size="small" type={measure ? 'primary' : 'default'} icon={<ColumnWidthOutlined />} onClick={() => engine?.measure.setMode(measure ? null : 'distance')} data-testid="view3d-measure">{t('model3d.measure')}</Button>
          <Tooltip title={t('model3d.screenshot')}><Button size="small" icon={<CameraOutlined />} onClick={shot} disabled={!engine} data-testid="view3d-screenshot" /></Tooltip>
          {status.stats && !phone && <span style={{ color: '#6b7280' }}><BorderOutlined /> {t('model3d.stats', { triangles: status.stats.triangles.toLocaleString() })}</span>}
        </Space>
      </div>
      <div style={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {!phone && panel === 'tree' && <aside style={{ width: 280, overflow: 'auto', padding: 8, borderRight: '1px solid #e5e7eb', background: '#fff' }} data-testid="view3d-tree">{tree}</aside>}
        <div ref={host} style={{ flex: 1, position: 'relative', minWidth: 0 }} data-testid="view3d-host">
          {measure && <MeasurePanel result={measure} onMode={(m) => engine?.measure.setMode(m)} />}
          {!engine && <Spin tip={t('model3d.loading')} style={{ position: 'absolute', top: '40%', left: '50%' }}><div /></Spin>}
          {received && (
            <div data-testid="view3d-bytes" style={{ position: 'absolute', left: 8, right: 8, bottom: 8, maxWidth: 360, padding: '4px 8px', background: 'rgba(255,255,255,0.85)', borderRadius: 4, fontSize: 12 }}>
              {t('model3d.loadingDetail', { loaded: formatSize(received.loaded), total: received.total ? formatSize(received.total) : '…' })}
              {received.total ? <Progress size="small" showInfo={false} percent={Math.round((100 * received.loaded) / received.total)} /> : null}
            </div>
          )}
          {engine && level === 'coarse' && <span data-testid="view3d-coarse" style={{ position: 'absolute', top: 8, right: 8, fontSize: 12, color: '#6b7280' }}>{t('model3d.coarse')}</span>}
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
