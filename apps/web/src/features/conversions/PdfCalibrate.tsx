import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Alert, Button, InputNumber, Select, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConversionOptions } from '@cadcloud/contracts';
import { filesApi } from '../files/api.ts';
import { fileBytes } from '../preview/preview-kind.ts';
import { getDocument, OPS, type PDFPageProxy } from '../preview/pdfjs.ts';
import { calibrationOf, LENGTH_UNITS, nearestVertex, pathVertices, pdfMillimetres, pdfPointAt, viewportPointAt, type LengthUnit, type PathOps, type Pt, type Transform } from './calibrate-math.ts';

/** how near (CSS pixels) a tap must come to a path's end point to snap to it: a finger's width on a phone */
const SNAP_PX = 12;

/**
 * Calibration by one known distance (issue 17 part 5): the PDF's page drawn (pdf.js) the width of the dialog, two
 * taps or clicks on it (each snapped to the nearest path end point within a finger's width) marking a distance, and
 * its true length in mm, cm or m. Reports `options.calibrate` (points in PDF user space, y up) once all are given,
 * else undefined.
 */
export function PdfCalibrate({ fileId, page, onChange }: { fileId: string; page: number; onChange: (c: ConversionOptions['calibrate']) => void }) {
  const { t } = useTranslation('conversions');
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [pdfPage, setPdfPage] = useState<PDFPageProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [width, setWidth] = useState(0);
  const [drawn, setDrawn] = useState(false);
  // the page as drawn: its viewport's transform (PDF user space → CSS pixels) and size
  const [view, setView] = useState<{ transform: Transform; width: number; height: number } | null>(null);
  const [vertices, setVertices] = useState<Pt[]>([]);
  const [points, setPoints] = useState<Pt[]>([]);
  const [length, setLength] = useState<number | null>(null);
  const [unit, setUnit] = useState<LengthUnit>('mm');

  useEffect(() => {
    let gone = false;
    let destroy: (() => void) | undefined;
    setPdfPage(null);
    setFailed(false);
    setPoints([]);
    fileBytes(fileId, filesApi.download)
      .then((b) => b.arrayBuffer())
      .then((data) => {
        // isEvalSupported: false, as the preview (the CSP allows no eval)
        const task = getDocument({ data: new Uint8Array(data), isEvalSupported: false });
        destroy = () => void task.destroy();
        if (gone) destroy();
        return task.promise;
      })
      .then((doc) => doc.getPage(Math.min(page, doc.numPages)))
      .then(async (p) => {
        if (gone) return;
        setPdfPage(p);
        // the page's path end points, for snapping
        const list = await p.getOperatorList();
        if (!gone) setVertices(pathVertices(list, OPS as unknown as PathOps));
      })
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
      destroy?.();
    };
  }, [fileId, page]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const el = canvas.current;
    if (!pdfPage || !el || !width) return;
    const css = pdfPage.getViewport({ scale: width / pdfPage.getViewport({ scale: 1 }).width });
    setView({ transform: Array.from(css.transform), width: css.width, height: css.height });
    const dpr = window.devicePixelRatio || 1;
    const viewport = pdfPage.getViewport({ scale: css.scale * dpr });
    el.width = Math.floor(viewport.width);
    el.height = Math.floor(viewport.height);
    setDrawn(false);
    const task = pdfPage.render({ canvas: el, viewport });
    task.promise.then(() => setDrawn(true), () => undefined);
    return () => task.cancel();
  }, [pdfPage, width]);

  useEffect(() => {
    onChange(calibrationOf(points[0] ?? null, points[1] ?? null, length, unit));
  }, [points, length, unit, onChange]);

  const pick = (e: MouseEvent<HTMLCanvasElement>) => {
    if (!view) return;
    const r = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    // the nearest path end point within a finger's width, in PDF user space; else the tapped point itself
    const near = nearestVertex(vertices.map((v) => viewportPointAt(view.transform, v[0], v[1])), x, y, SNAP_PX);
    const at = pdfPointAt(view.transform, ...(near ?? [x, y]));
    setPoints((ps) => (ps.length >= 2 ? [at] : [...ps, at]));
  };

  const px = view ? points.map((p) => viewportPointAt(view.transform, p[0], p[1])) : [];
  return (
    <div data-testid="convert-pdf-calibrate-panel">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>{t('convert.pdf.calibrateHelp', { page })}</Typography.Paragraph>
      <div ref={box} style={{ position: 'relative', width: '100%', maxWidth: '100%', border: '1px solid rgba(0,0,0,0.15)', minHeight: 80 }}>
        {failed && <Alert type="error" title={t('convert.pdf.calibrateFailed')} />}
        {!failed && !pdfPage && <Spin style={{ position: 'absolute', left: '50%', top: 24 }} />}
        <canvas
          ref={canvas}
          onClick={pick}
          data-testid="convert-pdf-calibrate-canvas"
          data-drawn={drawn ? '1' : undefined}
          data-snap-points={vertices.length}
          style={{ display: failed ? 'none' : 'block', width: view?.width ?? '100%', height: view?.height ?? 0, cursor: 'crosshair', touchAction: 'manipulation' }}
        />
        {view && (
          <svg width={view.width} height={view.height} style={{ position: 'absolute', left: 0, top: 0, pointerEvents: 'none' }} data-testid="convert-pdf-calibrate-overlay">
            {px.length === 2 && <line x1={px[0][0]} y1={px[0][1]} x2={px[1][0]} y2={px[1][1]} stroke="#fa541c" strokeWidth={2} />}
            {px.map((p, i) => <circle key={i} cx={p[0]} cy={p[1]} r={5} fill="none" stroke="#fa541c" strokeWidth={2} />)}
          </svg>
        )}
      </div>
      <Space wrap style={{ marginTop: 8 }}>
        <Typography.Text data-testid="convert-pdf-calibrate-points">
          {points.length === 2 ? t('convert.pdf.calibrateMeasured', { mm: pdfMillimetres(points[0], points[1]).toFixed(2) }) : t('convert.pdf.calibratePoints', { count: points.length })}
        </Typography.Text>
        {points.length > 0 && <Button size="small" onClick={() => setPoints([])} data-testid="convert-pdf-calibrate-clear">{t('convert.pdf.calibrateClear')}</Button>}
      </Space>
      <Space.Compact style={{ width: '100%', marginTop: 8 }}>
        <InputNumber min={0.000001} value={length} onChange={(v) => setLength(typeof v === 'number' && v > 0 ? v : null)} placeholder={t('convert.pdf.calibrateLength')} style={{ width: '100%' }} data-testid="convert-pdf-calibrate-length" />
        <Select value={unit} onChange={setUnit} style={{ width: 90 }} data-testid="convert-pdf-calibrate-unit" options={Object.keys(LENGTH_UNITS).map((u) => ({ value: u, label: u }))} />
      </Space.Compact>
    </div>
  );
}
