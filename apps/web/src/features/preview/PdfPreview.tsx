import { useEffect, useRef, useState } from 'react';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { getDocument, type PDFDocumentProxy } from './pdfjs.ts';

/** One page, drawn when it comes near the window (a 300-page PDF does not draw 300 canvases up front). */
function PdfPage({ doc, n, width }: { doc: PDFDocumentProxy; n: number; width: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(n === 1);
  const [ratio, setRatio] = useState(1.414);
  useEffect(() => {
    void doc.getPage(n).then((p) => {
      const v = p.getViewport({ scale: 1 });
      setRatio(v.height / v.width);
    });
  }, [doc, n]);
  useEffect(() => {
    const el = canvas.current;
    if (!el || near) return;
    const io = new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '600px' });
    io.observe(el);
    return () => io.disconnect();
  }, [near]);
  useEffect(() => {
    if (!near || !width) return;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    void doc.getPage(n).then((page) => {
      const el = canvas.current;
      if (!el) return;
      const dpr = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (width / page.getViewport({ scale: 1 }).width) * dpr });
      el.width = Math.floor(viewport.width);
      el.height = Math.floor(viewport.height);
      task = page.render({ canvas: el, viewport });
      task.promise.then(() => el.setAttribute('data-drawn', '1'), () => undefined);
    });
    return () => task?.cancel();
  }, [doc, n, near, width]);
  return <canvas ref={canvas} className="pdf-page" data-testid={`pdf-page-${n}`} style={{ width, height: width * ratio }} />;
}

/** A PDF page by page in the browser (pdf.js), fitted to the window's width; phones scroll through it. */
export function PdfPreview({ data }: { data: ArrayBuffer | null }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!data) return;
    // isEvalSupported: false — the CSP allows no eval; pdf.js then interprets fonts instead of compiling them
    const task = getDocument({ data: new Uint8Array(data), isEvalSupported: false });
    task.promise.then(setDoc, () => setFailed(true));
    return () => void task.destroy();
  }, [data]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.min(1000, el.clientWidth - 16));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return (
    <div className="pdf-preview" ref={box} data-testid="pdf-preview" data-pages={doc?.numPages ?? 0}>
      {failed ? <Alert type="error" title={t('preview.failed')} /> : !doc ? <Spin /> : Array.from({ length: doc.numPages }, (_, i) => <PdfPage key={i} doc={doc} n={i + 1} width={width} />)}
    </div>
  );
}
