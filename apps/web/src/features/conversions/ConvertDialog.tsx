import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Checkbox, Form, Input, InputNumber, Modal, Radio, Select, Spin, Typography, message, type ButtonProps } from 'antd';
import { FileSyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ConversionOptions } from '@cadcloud/contracts';
import type { Item } from '../files/api.ts';
import { taskEvents } from '../tasks/task-events.ts';
import { conversionsApi, IN_TRANSFORM, isConvertible, isPdf, type ConversionTarget, type ConversionTargets } from './api.ts';
import { conversionEvents } from './conversion-events.ts';

const PICTURES = new Set(['png', 'jpg', 'bmp']);
// the calibration draws the PDF with pdf.js: loaded when asked for, not with the dialog
const PdfCalibrate = lazy(() => import('./PdfCalibrate.tsx').then((m) => ({ default: m.PdfCalibrate })));

/** "1,3-5" → [1, 3, 4, 5]; blank → all pages (undefined); anything else → null (not valid). */
export function parsePages(text: string): number[] | undefined | null {
  if (!text.trim()) return undefined;
  const pages: number[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) return null;
    const a = Number(m[1]), b = Number(m[2] ?? m[1]);
    if (a < 1 || b < a || b - a > 1000) return null;
    for (let p = a; p <= b; p++) pages.push(p);
  }
  return pages.length > 1000 ? null : [...new Set(pages)];
}
/** A rectangle of the drawing in its units: the viewer's current view (the viewer's ViewArea). */
export type ViewArea = NonNullable<ConversionOptions['area']>;

const PAPERS = ['fit', 'A4', 'A3', 'A2', 'A1', 'A0'] as const;

/**
 * The convert dialog: target (only those the server writes), version for DXF/DWG, layouts, paper for PDF, width for
 * pictures. A PDF converts to a drawing (the server's `pdfTargets`: DXF), each page a layout or all stacked in model
 * space, at the plot scale 1:N it was printed at or calibrated by one known distance on its first page converted (one PDF). Started conversions show in the task panel's conversion tab. `currentLayout`: the layout the viewer shows
 * (one file open), which "current layout" sends by name; without it (the drive's toolbar) the drawing's default.
 * `currentView`: the drawing rectangle the viewer shows, read when the conversion starts: a picture's area may be
 * the drawing's extents or that view (of the layout shown); without it (toolbar, phone) the extents.
 */
export function ConvertDialog({ files, currentLayout, currentView, open, onClose, onStarted }: { files: Pick<Item, 'id' | 'name'>[]; currentLayout?: string; currentView?: () => ViewArea | undefined; open: boolean; onClose: () => void; onStarted?: () => void }) {
  const { t } = useTranslation('conversions');
  const [targets, setTargets] = useState<ConversionTargets | null>(null);
  const [target, setTarget] = useState<ConversionTarget>('pdf');
  const [version, setVersion] = useState('2018');
  const [layouts, setLayouts] = useState<'current' | 'all'>('all');
  const [paper, setPaper] = useState<(typeof PAPERS)[number]>('fit');
  const [width, setWidth] = useState(2000);
  const [area, setArea] = useState<'extents' | 'view'>('extents');
  const [placement, setPlacement] = useState<'layouts' | 'stack'>('layouts');
  const [pagesText, setPagesText] = useState('');
  const pages = parsePages(pagesText);
  // the plot scale 1:N the PDF was printed at (drawing units = PDF mm × N); blank: the PDF's own size
  const [scale, setScale] = useState<number | null>(null);
  // calibration by one known distance (one PDF): two points on the first page converted and their true length
  const [calibrating, setCalibrating] = useState(false);
  const [calibrate, setCalibrate] = useState<ConversionOptions['calibrate']>();
  const [busy, setBusy] = useState(false);
  // any PDF among the files: only what a PDF converts to is offered (for every file)
  const fromPdf = files.some((f) => isPdf(f));
  const calibratable = fromPdf && files.length === 1;
  const calibrated = calibratable && calibrating;
  const offered: ConversionTarget[] = targets ? (fromPdf ? targets.pdfTargets ?? [] : targets.targets) : [fromPdf ? 'dxf' : 'pdf'];
  useEffect(() => {
    if (open) conversionsApi.targets().then(setTargets, (e) => message.error(e.message));
  }, [open]);
  useEffect(() => {
    if (fromPdf) setTarget('dxf');
  }, [fromPdf]);

  const start = async () => {
    setBusy(true);
    try {
      const options: ConversionOptions = fromPdf ? {} : { layouts: layouts === 'current' && currentLayout ? [currentLayout] : layouts };
      if (fromPdf && placement === 'stack') options.stack = true;
      if (fromPdf && pages) options.pages = pages;
      if (calibrated && calibrate) options.calibrate = calibrate;
      else if (fromPdf && scale && scale > 0) options.scale = scale;
      if (target === 'pdf') options.paper = paper;
      if (PICTURES.has(target)) options.width = width;
      const shown = PICTURES.has(target) && area === 'view' && currentView ? currentView() : undefined;
      if (shown) {
        // the view is of the layout shown: that layout is the one drawn
        options.area = shown;
        if (currentLayout) options.layouts = [currentLayout];
      }
      await conversionsApi.transform(files.map((f) => f.id), target, target === 'dxf' || target === 'dwg' ? version : undefined, options);
      // section 4: "added to the conversion list and being converted"
      message.success(t('convert.queued'));
      onClose();
      onStarted?.();
      conversionEvents.changed();
      taskEvents.open('convert');
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('convert.title', { count: files.length })} onCancel={onClose} onOk={start} okText={t('convert.start')} confirmLoading={busy} okButtonProps={{ disabled: !targets || (fromPdf && pages === null) || (calibrated && !calibrate), 'data-testid': 'convert-start' } as ButtonProps} destroyOnHidden>
      <Form layout="vertical" data-testid="convert-dialog">
        <Form.Item label={t('convert.target')}>
          <Select value={target} onChange={setTarget} data-testid="convert-target" options={offered.map((x) => ({ value: x, label: t(fromPdf ? `convert.pdf.target.${x}` : `convert.target.${x}`) }))} />
        </Form.Item>
        {/* a PDF becomes a drawing: where its pages go, which, and at what plot scale */}
        {fromPdf && (
          <>
            <Form.Item label={t('convert.pdf.placement')}>
              <Radio.Group value={placement} onChange={(e) => setPlacement(e.target.value)} data-testid="convert-pdf-placement">
                <Radio value="layouts">{t('convert.pdf.layouts')}</Radio>
                <Radio value="stack">{t('convert.pdf.stack')}</Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item label={t('convert.pdf.pages')} validateStatus={pages === null ? 'error' : undefined} help={pages === null ? t('convert.pdf.pagesInvalid') : undefined}>
              <Input value={pagesText} onChange={(e) => setPagesText(e.target.value)} placeholder={t('convert.pdf.pagesAll')} data-testid="convert-pdf-pages" />
            </Form.Item>
            <Form.Item label={t('convert.pdf.scale')} extra={t('convert.pdf.scaleHelp')}>
              <InputNumber disabled={calibrated} min={0.0001} max={1_000_000} value={scale} onChange={(v) => setScale(typeof v === 'number' && v > 0 ? v : null)} prefix="1 :" placeholder="1" style={{ width: '100%' }} data-testid="convert-pdf-scale" />
            </Form.Item>
            {calibratable && (
              <Form.Item>
                <Checkbox checked={calibrating} onChange={(e) => setCalibrating(e.target.checked)} data-testid="convert-pdf-calibrate">{t('convert.pdf.calibrate')}</Checkbox>
                {calibrating && (
                  <Suspense fallback={<Spin />}>
                    <PdfCalibrate fileId={files[0].id} page={pages?.[0] ?? 1} onChange={setCalibrate} />
                  </Suspense>
                )}
              </Form.Item>
            )}
          </>
        )}
        {(target === 'dxf' || target === 'dwg') && (
          <Form.Item label={t('convert.version')}>
            <Select value={version} onChange={setVersion} data-testid="convert-version" options={(targets?.versions ?? []).map((v) => ({ value: v, label: v }))} />
          </Form.Item>
        )}
        {target !== 'dxf' && target !== 'dwg' && !fromPdf && (
          <Form.Item label={t('convert.layouts')}>
            <Radio.Group value={layouts} onChange={(e) => setLayouts(e.target.value)} data-testid="convert-layouts">
              <Radio value="all">{t('convert.layouts.all')}</Radio>
              <Radio value="current">
                {t('convert.layouts.current')}
                {currentLayout ? ` (${currentLayout === 'Model' ? t('convert.layouts.model') : currentLayout})` : ''}
              </Radio>
            </Radio.Group>
          </Form.Item>
        )}
        {target === 'pdf' && (
          <Form.Item label={t('convert.paper')}>
            <Select value={paper} onChange={setPaper} data-testid="convert-paper" options={PAPERS.map((p) => ({ value: p, label: p === 'fit' ? t('convert.paper.fit') : p }))} />
          </Form.Item>
        )}
        {PICTURES.has(target) && currentView && (
          <Form.Item label={t('convert.area')}>
            <Radio.Group value={area} onChange={(e) => setArea(e.target.value)} data-testid="convert-area">
              <Radio value="extents">{t('convert.area.extents')}</Radio>
              <Radio value="view">{t('convert.area.view')}</Radio>
            </Radio.Group>
          </Form.Item>
        )}
        {PICTURES.has(target) && (
          <Form.Item label={t('convert.width')}>
            <InputNumber min={16} max={16000} value={width} onChange={(v) => setWidth(Number(v) || 2000)} data-testid="convert-width" />
          </Form.Item>
        )}
        {targets && (
          <Typography.Text type="secondary" data-testid="convert-allowance">
            {targets.premium || targets.freePerMonth === null ? t('convert.premium') : t('convert.allowance', { used: targets.usedThisMonth, total: targets.freePerMonth })}
          </Typography.Text>
        )}
      </Form>
    </Modal>
  );
}

/** The drive's toolbar "transform": drawings only, none of them converting (section 4 blocks actions meanwhile). */
export function ConvertButton({ items, onStarted, block }: { items: Item[]; onStarted?: () => void; block?: boolean }) {
  const { t } = useTranslation('conversions');
  const [open, setOpen] = useState(false);
  const files = items.filter(isConvertible);
  const enabled = items.length > 0 && files.length === items.length && !items.some((i) => i.transformStatus === IN_TRANSFORM);
  return (
    <>
      <Button icon={<FileSyncOutlined />} disabled={!enabled} block={block} onClick={() => setOpen(true)} data-testid="btn-transform" title={items.some((i) => i.transformStatus === IN_TRANSFORM) ? t('convert.busy') : items.length && !enabled ? t('convert.onlyDrawings') : undefined}>
        {t('convert.toolbar')}
      </Button>
      <ConvertDialog files={files} open={open} onClose={() => setOpen(false)} onStarted={onStarted} />
    </>
  );
}
