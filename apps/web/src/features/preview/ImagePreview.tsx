import { useEffect, useRef, useState } from 'react';
import { Button, Spin, Tooltip } from 'antd';
import { LeftOutlined, RightOutlined, RotateRightOutlined, ZoomInOutlined, ZoomOutOutlined, ExpandOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface View {
  scale: number;
  x: number;
  y: number;
  rotate: number;
}
const FIT: View = { scale: 1, x: 0, y: 0, rotate: 0 };
const clampScale = (s: number) => Math.min(32, Math.max(0.1, s));

/**
 * A picture fitted to the window: zoom (buttons, wheel, pinch-free double tap), pan by dragging (mouse or finger),
 * rotate in quarter turns, previous/next picture of the folder. The transform is CSS only: the bytes are decoded once.
 */
export function ImagePreview(props: { src: string | null; name: string; onPrev?: () => void; onNext?: () => void }) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>(FIT);
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  useEffect(() => setView(FIT), [props.src]);
  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft') props.onPrev?.();
      if (e.key === 'ArrowRight') props.onNext?.();
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [props.onPrev, props.onNext]);
  const zoom = (f: number) => setView((v) => ({ ...v, scale: clampScale(v.scale * f) }));
  return (
    <div className="image-preview" data-testid="image-preview">
      <div
        className="image-preview-stage"
        data-testid="image-stage"
        onWheel={(e) => zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2)}
        onPointerDown={(e) => {
          drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
          (e.target as Element).setPointerCapture?.(e.pointerId);
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (!d || d.id !== e.pointerId) return;
          const dx = e.clientX - d.x, dy = e.clientY - d.y;
          drag.current = { id: d.id, x: e.clientX, y: e.clientY };
          setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
        }}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onDoubleClick={() => setView((v) => (v.scale === 1 ? { ...v, scale: 2 } : { ...FIT, rotate: v.rotate }))}
      >
        {props.src ? (
          <img
            src={props.src}
            alt={props.name}
            draggable={false}
            data-testid="image-preview-img"
            data-scale={view.scale}
            data-rotate={view.rotate}
            style={{ transform: `translate(${view.x}px, ${view.y}px) rotate(${view.rotate}deg) scale(${view.scale})` }}
          />
        ) : (
          <Spin />
        )}
      </div>
      <div className="image-preview-tools">
        <Tooltip title={t('preview.prev')}><Button shape="circle" icon={<LeftOutlined />} disabled={!props.onPrev} onClick={props.onPrev} aria-label={t('preview.prev')} data-testid="image-prev" /></Tooltip>
        <Tooltip title={t('preview.zoomOut')}><Button shape="circle" icon={<ZoomOutOutlined />} onClick={() => zoom(1 / 1.5)} aria-label={t('preview.zoomOut')} data-testid="image-zoom-out" /></Tooltip>
        <Tooltip title={t('preview.fit')}><Button shape="circle" icon={<ExpandOutlined />} onClick={() => setView(FIT)} aria-label={t('preview.fit')} data-testid="image-fit" /></Tooltip>
        <Tooltip title={t('preview.zoomIn')}><Button shape="circle" icon={<ZoomInOutlined />} onClick={() => zoom(1.5)} aria-label={t('preview.zoomIn')} data-testid="image-zoom-in" /></Tooltip>
        <Tooltip title={t('preview.rotate')}><Button shape="circle" icon={<RotateRightOutlined />} onClick={() => setView((v) => ({ ...v, rotate: (v.rotate + 90) % 360 }))} aria-label={t('preview.rotate')} data-testid="image-rotate" /></Tooltip>
        <Tooltip title={t('preview.next')}><Button shape="circle" icon={<RightOutlined />} disabled={!props.onNext} onClick={props.onNext} aria-label={t('preview.next')} data-testid="image-next" /></Tooltip>
      </div>
    </div>
  );
}
