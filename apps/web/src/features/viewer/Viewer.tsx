import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button, Drawer, Dropdown, Progress, Result, Segmented, Select, Space, Tooltip, message } from 'antd';
import { AimOutlined, BgColorsOutlined, BorderOuterOutlined, CheckOutlined, ColumnWidthOutlined, CompressOutlined, LeftOutlined, MoreOutlined, NodeIndexOutlined, SearchOutlined, SelectOutlined, UnorderedListOutlined, ProfileOutlined, LineHeightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { entityBounds, nearestBlockVertex, pickEntity, snapPoint, type Scene } from '@cadcloud/cad/scene';
import { openScene } from './scene-api.ts';
import { streamInto, type SceneLoad } from './scene-load.ts';
import { GlRenderer, type View } from './gl-renderer.ts';
import { fetchPicture } from './pictures-api.ts';
import { angleAt, areaOf, distance, fmt, unitSymbol, type Pt } from './measure.ts';
import { formatArea, formatLinear, marksUnits } from './linear-units.ts';
import { FindPanel, InfoPanel, LayersPanel, hex } from './ViewerPanels.tsx';
import { useRightGate } from '../pay/UpgradePrompt.tsx';
import { fitView, isEmptyScene, LW_KEY, openLayers, THEME_KEY } from './view-fit.ts';
import { blankReason } from './blank-reason.ts';
import { dropEarlyPaint, markWholeFrame, takeEarlyPaint } from './early-frame.ts';

/** A rectangle of the drawing in its own units (as `toWorld` gives them): what the viewer shows. */
export interface ViewArea {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

type Tool = 'select' | 'distance' | 'area' | 'angle' | 'coords';
const TOOLS: [Tool, React.ReactNode][] = [['select', <SelectOutlined />], ['distance', <ColumnWidthOutlined />], ['area', <BorderOuterOutlined />], ['angle', <NodeIndexOutlined />], ['coords', <AimOutlined />]];
const BATCH_REDRAW_MS = 400;
/** frames slower than this (under ~20 per second) are drawn from a snapshot while the view moves */
const SLOW_FRAME_MS = 50;
/** the movement has stopped when no frame was asked for this long: the drawing is drawn sharp */
const SHARPEN_AFTER_MS = 150;

/** What a page built on the viewer may drive (the compare page): where the scene comes from, a view to zoom to, layers kept hidden. */
export interface ViewerHooks {
  source?: (layout: string, onProgress: (loaded: number, total: number) => void) => Promise<Scene>;
  /** zoomed to whenever a new object is given */
  focus?: { minX: number; minY: number; maxX: number; maxY: number } | null;
  /** scene layer names not drawn */
  hiddenLayers?: string[];
  /** an entity (index into the scene's entities) to select and outline, like a click on it */
  select?: number | null;
  /** how a scene layer is named in the layer list (the compare overlay's state layers are translated) */
  layerLabel?: (name: string) => string;
}

/**
 * The online viewer: one layout's scene drawn by WebGL, with layers, layouts, measuring, text search,
 * entity properties and a dark/light background. Desktop and phone share it (touch: drag pans, pinch zooms).
 */
export function Viewer({ fileId, name, phone, onBack, onUploadFont, onLayout, onView, extra, shareToken, versionId, hooks }: { fileId: string; name?: string; phone?: boolean; onBack?: () => void; onUploadFont?: () => void; /** the layout shown, each time another is drawn (Convert's "current layout") */ onLayout?: (layout: string) => void; /** when a layout is drawn: a getter of the drawing rectangle the viewer shows at the moment it is called (Convert's "current view") */ onView?: (view: () => ViewArea) => void; extra?: React.ReactNode; shareToken?: string; versionId?: string; hooks?: ViewerHooks }) {
  const { t } = useTranslation('viewer');
  // measuring and switching layers are premium tools (spec section 6): the server says whether this user has them
  const tools = useRightGate('viewerTools');
  const wrap = useRef<HTMLDivElement>(null);
  // the WebGL canvas is made here, not by React: it may be the one the early painter already drew into
  const glHost = useRef<HTMLDivElement>(null);
  const glCanvas = useRef<HTMLCanvasElement | null>(null);
  const overlay = useRef<HTMLCanvasElement>(null);
  const renderer = useRef<GlRenderer | null>(null);
  const view = useRef<View>({ cx: 0, cy: 0, ppu: 1 });
  const [scene, setScene] = useState<Scene | null>(null);
  // the scene's download (format 4 arrives in batches, drawn as they come); `whole` once all of it, entities too
  const load = useRef<SceneLoad | null>(null);
  const firstOpen = useRef(true);
  const [whole, setWhole] = useState(false);
  const [layout, setLayout] = useState('Model');
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);
  /** the user's layer switches (true on, false off) over the file's own state */
  const [choice, setChoice] = useState<Map<number, boolean>>(new Map());
  const [light, setLight] = useState(() => localStorage.getItem(THEME_KEY) === '1');
  // off by default, as AutoCAD's LWDISPLAY: thin lines read best on screen and draw fastest
  const [weights, setWeights] = useState(() => localStorage.getItem(LW_KEY) === '1');
  const [tool, setTool] = useState<Tool>('select');
  const [points, setPoints] = useState<Pt[]>([]);
  const [areaClosed, setAreaClosed] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [query, setQuery] = useState('');
  const [panel, setPanel] = useState<'layers' | 'find' | 'info' | null>(phone ? null : 'layers');
  const frame = useRef(0);
  const [panelsReady, setPanelsReady] = useState(false);
  /** base names of IMAGE pictures the drive does not have (their frames are drawn) */
  const [missingPictures, setMissingPictures] = useState<string[]>([]);

  const visible = useMemo(() => (scene ? openLayers(scene.meta, (_, name) => !!hooks?.hiddenLayers?.includes(name), choice) : new Set<number>()), [scene, choice, hooks?.hiddenLayers]);
  // a loaded layout that shows nothing says why (only unreadable solids, all layers off …), never a blank canvas
  const blank = useMemo(() => (scene && whole ? blankReason(scene, visible) : null), [scene, whole, visible]);

  // ---- coordinates: screen (CSS px in the canvas) ↔ drawing
  const size = () => ({ w: glCanvas.current?.clientWidth ?? 1, h: glCanvas.current?.clientHeight ?? 1 });
  const toWorld = useCallback((sx: number, sy: number): Pt => {
    const { w, h } = size();
    const [ox, oy] = scene?.meta.origin ?? [0, 0];
    return { x: view.current.cx + (sx - w / 2) / view.current.ppu + ox, y: view.current.cy - (sy - h / 2) / view.current.ppu + oy };
  }, [scene]);
  const toScreen = useCallback((x: number, y: number) => {
    const { w, h } = size();
    const [ox, oy] = scene?.meta.origin ?? [0, 0];
    return { x: (x - ox - view.current.cx) * view.current.ppu + w / 2, y: h / 2 - (y - oy - view.current.cy) * view.current.ppu };
  }, [scene]);
  // the canvas's corners in drawing units, read when asked (a Convert of the current view), never on every pan
  useEffect(() => {
    if (!scene) return;
    onView?.(() => {
      const { w, h } = size();
      const a = toWorld(0, h), b = toWorld(w, 0);
      return { minX: a.x, minY: a.y, maxX: b.x, maxY: b.y };
    });
  }, [scene, toWorld]);

  /** whether the overlay canvas holds anything (measuring, a selection, fallback text) */
  const overlayInked = useRef(false);
  const drawOverlay = useCallback(() => {
    const c = overlay.current;
    if (!c || !scene) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(c.clientWidth * dpr), h = Math.round(c.clientHeight * dpr);
    // an overlay with nothing on it, then and now, is left alone: resizing or clearing a canvas of the viewer's size
    // every frame (a new backing store, composited again over the drawing) cost a software-rendered frame ms
    const fallbackTexts = !scene.meta.fonts && scene.meta.texts.length > 0 && scene.meta.texts.length < 20000;
    const content = fallbackTexts || points.length > 0 || selected !== null;
    if (c.width !== w || c.height !== h) {
      c.width = w;
      c.height = h;
    } else if (!content && !overlayInked.current) return;
    overlayInked.current = content;
    const g = c.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, c.clientWidth, c.clientHeight);
    // text the server could not turn into geometry (no text engine fonts) is drawn here, readable sizes only
    if (fallbackTexts) {
      for (const tx of scene.meta.texts) {
        const px = tx.height * view.current.ppu;
        if (px < 4 || !visible.has(scene.meta.layers.findIndex((l) => l.name === scene.meta.entities[tx.entity]?.layer))) continue;
        const p = toScreen(tx.x, tx.y);
        const col = scene.meta.entities[tx.entity]?.color ?? 0xffffff;
        g.save();
        g.translate(p.x, p.y);
        g.rotate((-tx.rotation * Math.PI) / 180);
        g.fillStyle = light && col === 0xffffff ? '#000' : hex(col);
        g.font = `${px}px sans-serif`;
        tx.text.split('\n').forEach((line, i) => g.fillText(line, 0, i * px * 1.4));
        g.restore();
      }
    }
    if (points.length) {
      g.strokeStyle = '#ff9f1a';
      g.fillStyle = 'rgba(255,159,26,0.15)';
      g.lineWidth = 2;
      g.beginPath();
      points.forEach((p, i) => {
        const s = toScreen(p.x, p.y);
        if (i === 0) g.moveTo(s.x, s.y);
        else g.lineTo(s.x, s.y);
      });
      if (tool === 'area' && areaClosed) {
        g.closePath();
        g.fill();
      }
      g.stroke();
      for (const p of points) {
        const s = toScreen(p.x, p.y);
        g.strokeRect(s.x - 4, s.y - 4, 8, 8);
      }
    }
    if (selected !== null) {
      const b = entityBounds(scene, selected);
      if (b) {
        const a = toScreen(b.minX, b.maxY), z = toScreen(b.maxX, b.minY);
        g.strokeStyle = '#1677ff';
        g.setLineDash([6, 4]);
        g.strokeRect(a.x - 3, a.y - 3, z.x - a.x + 6, z.y - a.y + 6);
      }
    }
  }, [scene, whole, points, tool, areaClosed, selected, light, visible, toScreen]);

  /** batches of the download in the last frame drawn: once all are there, its end (the entity table) draws nothing new */
  const drawnBatches = useRef(-1);
  /** how long the last full frame took to show (render until the next animation frame), and the timer that redraws sharp */
  const fullFrameMs = useRef(0);
  const sharpen = useRef(0);
  /**
   * The next frame. `moving` (pan, zoom, pinch): on a drawing whose frames are slow (a large one on a software
   * rasteriser), the last full frame is drawn moved instead, and the drawing sharp once the movement has stopped.
   */
  const redraw = useCallback((moving = false) => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      const r = renderer.current;
      if (!r) return;
      clearTimeout(sharpen.current);
      if (moving && fullFrameMs.current > SLOW_FRAME_MS && r.drawSnapshot(view.current, light)) {
        drawOverlay();
        sharpen.current = window.setTimeout(() => redrawLatest.current(), SHARPEN_AFTER_MS);
        return;
      }
      const t0 = performance.now(), drawn = { ...view.current };
      r.render(drawn, visible, light, weights);
      const renders = r.renders;
      requestAnimationFrame(() => {
        fullFrameMs.current = performance.now() - t0;
        // still on screen (nothing drawn since): kept for the movement that may come
        if (fullFrameMs.current > SLOW_FRAME_MS && r.renders === renders && renderer.current === r) r.takeSnapshot(drawn);
      });
      drawnBatches.current = load.current?.reader.batches ?? -1;
      drawOverlay();
      // the first frame of this page, unless the early painter drew it (the viewer benchmark reads the marks)
      if (!performance.getEntriesByName('cad:first-frame').length) requestAnimationFrame(() => performance.getEntriesByName('cad:first-frame').length || performance.mark('cad:first-frame'));
      if ((load.current?.reader.done ?? true) && !performance.getEntriesByName('cad:whole-frame').length) requestAnimationFrame(markWholeFrame);
    });
  }, [visible, light, weights, drawOverlay]);

  // a download's batches redraw through the newest redraw (its layers, theme), at most every BATCH_REDRAW_MS: on a
  // software rasteriser a frame of a large drawing takes long, and the batches keep coming meanwhile
  const redrawLatest = useRef(redraw);
  redrawLatest.current = redraw;
  const batchTimer = useRef(0);
  const redrawSoon = useCallback(() => {
    batchTimer.current ||= window.setTimeout(() => {
      batchTimer.current = 0;
      redrawLatest.current();
    }, BATCH_REDRAW_MS);
  }, []);

  // until the user moves the view, a new canvas size (the side panel appearing after the first frame, a rotated
  // phone) shows the whole drawing again; after that the view stays where the user put it
  const moved = useRef(false);
  const fit = useCallback((b?: { minX: number; minY: number; maxX: number; maxY: number }) => {
    if (!scene) return;
    const { w, h } = size();
    view.current = fitView(scene.meta, w, h, b);
    // zooming to a part (found text, a change) is a view the user asked for; the whole drawing is the default
    moved.current = !!b;
    redraw();
  }, [scene, redraw]);

  // ---- load the scene of the current layout
  useEffect(() => {
    let gone = false;
    setError(null);
    setProgress(0);
    const onProgress = (l: number, total: number) => total && setProgress(Math.round((l / total) * 100));
    let head: Promise<Scene>, done: Promise<Scene>;
    if (hooks?.source) {
      load.current = null;
      head = done = hooks.source(layout, onProgress);
    } else {
      const o = openScene(fileId, layout, { shareToken, versionId });
      o.load.onProgress(onProgress);
      load.current = o.load;
      ({ head, done } = o);
    }
    const l = load.current;
    head.then((s) => {
      if (gone) return;
      // a drawing saved on its sheet (an empty model space, as many R12 drawings are): open its first paper layout,
      // as CAD programs open the tab the drawing was saved on
      if (firstOpen.current && s.meta.layout === 'Model' && s.meta.layouts.length > 1 && isEmptyScene(s) && !hooks?.source) {
        firstOpen.current = false;
        setLayout(s.meta.layouts.find((n) => n !== 'Model')!);
        return;
      }
      firstOpen.current = false;
      // the two promises may settle in either order when the download was over before the viewer asked
      setWhole(!l || l.reader.done);
      setScene(s);
      onLayout?.(s.meta.layout);
      setChoice(new Map());
      setSelected(null);
      setPoints([]);
    }, () => undefined);
    done.then(
      () => !gone && setWhole(true),
      (e: Error & { code?: string; rtnCode?: string }) => {
        if (gone) return;
        // no answer or no envelope (network, proxy): the spec's "Failed to obtain drawings!"
        const text = e.code ? e.message : t('viewer.obtainFailed');
        if (layout !== 'Model' && scene) {
          message.error(e.code ? e.message : t('viewer.layoutFailed'));
          setLayout(scene.meta.layout);
        } else setError(text);
      },
    );
    return () => {
      gone = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fileId, layout]);

  useLayoutEffect(() => {
    const c = document.createElement('canvas');
    c.className = 'viewer-gl';
    c.dataset.testid = 'viewer-canvas';
    c.style.touchAction = 'none';
    glHost.current!.appendChild(c);
    glCanvas.current = c;
    return () => c.remove();
  }, []);

  useEffect(() => {
    if (!scene || !glCanvas.current) return;
    performance.mark('cad:scene-committed');
    try {
      // the drawing link's first frame, drawn before the app booted: keep its canvas, context and buffers
      const early = !renderer.current && !hooks?.source && layout === 'Model' ? takeEarlyPaint(fileId, versionId, scene) : null;
      if (early) {
        early.canvas.style.cssText = '';
        early.canvas.className = 'viewer-gl';
        early.canvas.dataset.testid = 'viewer-canvas';
        early.canvas.style.touchAction = 'none';
        glHost.current!.replaceChild(early.canvas, glCanvas.current);
        glCanvas.current = early.canvas;
        early.skeleton.remove();
        renderer.current = early.renderer;
      } else {
        dropEarlyPaint();
        renderer.current ??= new GlRenderer(glCanvas.current);
      }
      // the rest of the download goes to the GPU as it comes, drawn batch by batch
      const l = load.current;
      // a frame that already shows every batch is the whole drawing; otherwise the redraw marks it
      if (l && l.reader.scene === scene) streamInto(renderer.current, l, { adopted: !!early, batch: redrawSoon, whole: () => (drawnBatches.current !== l.reader.batches ? redrawLatest.current() : requestAnimationFrame(markWholeFrame)) });
      else if (!early) renderer.current.setScene(scene);
      if (!early) performance.mark('cad:gl-uploaded');
    } catch (e) {
      setError((e as Error).message);
      return;
    }
    fit();
    // the side panel (hundreds of layers on some drawings) renders after the drawing's first frame
    const f = requestAnimationFrame(() => requestAnimationFrame(() => setPanelsReady(true)));
    return () => cancelAnimationFrame(f);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scene]);
  // IMAGE pictures: fetched after the first frame (never delaying it), each redraws when it arrives; not on the
  // compare page, whose scene is not the file's
  useEffect(() => {
    setMissingPictures([]);
    if (!scene?.meta.images?.length || hooks?.source) return;
    let gone = false;
    const f = requestAnimationFrame(() => requestAnimationFrame(() => {
      void renderer.current?.images.load((file) => fetchPicture(fileId, file, scene.meta.layout, { shareToken, versionId }), () => !gone && redrawLatest.current()).then((missing) => !gone && setMissingPictures(missing));
    }));
    return () => {
      gone = true;
      cancelAnimationFrame(f);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scene]);
  useEffect(() => () => {
    clearTimeout(sharpen.current);
    renderer.current?.dispose();
    dropEarlyPaint();
  }, []);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => void (hooks?.focus && scene && fit(hooks.focus)), [hooks?.focus]);
  useEffect(() => void (hooks?.select !== undefined && setSelected(hooks.select)), [hooks?.select, scene]);
  useEffect(() => redraw(), [redraw]);
  useEffect(() => {
    const ro = new ResizeObserver(() => (moved.current ? redraw() : fit()));
    if (wrap.current) ro.observe(wrap.current);
    return () => ro.disconnect();
  }, [redraw, fit]);
  useEffect(() => localStorage.setItem(THEME_KEY, light ? '1' : '0'), [light]);
  useEffect(() => localStorage.setItem(LW_KEY, weights ? '1' : '0'), [weights]);

  // ---- snapping: the nearest drawn vertex, curve centre or arc end within 10 px makes measurements exact
  const snap = useCallback((sx: number, sy: number): Pt => {
    const w0 = toWorld(sx, sy);
    if (!scene) return w0;
    const hit = snapPoint(scene, w0.x, w0.y, 10 / view.current.ppu, visible);
    // vertices of instanced blocks, when nearer
    const [ox, oy] = scene.meta.origin;
    const best = hit ? (hit.x - w0.x) ** 2 + (hit.y - w0.y) ** 2 : (10 / view.current.ppu) ** 2;
    const inBlock = nearestBlockVertex(scene, w0.x - ox, w0.y - oy, best, visible);
    return inBlock ? { x: inBlock[0] + ox, y: inBlock[1] + oy } : hit ?? w0;
  }, [scene, toWorld, visible]);

  const onClickAt = (sx: number, sy: number) => {
    // picking and snapping read the whole drawing and its entity table
    if (!scene || !whole) return;
    if (tool === 'select') {
      const w0 = toWorld(sx, sy);
      const id = pickEntity(scene, w0.x, w0.y, 6 / view.current.ppu, visible);
      setSelected(id);
      if (id !== null) setPanel('info');
      return;
    }
    const p = snap(sx, sy);
    const max = tool === 'distance' ? 2 : tool === 'angle' ? 3 : tool === 'coords' ? 1 : Infinity;
    setAreaClosed(false);
    setPoints((old) => (old.length >= max || areaClosed ? [p] : [...old, p]));
    // on a phone the result floats over the drawing; a drawer would cover the next tap
    if (!phone) setPanel('info');
  };

  // ---- pointer input: drag pans, wheel and pinch zoom about the pointer, a still click acts
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const down = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  const local = (e: { clientX: number; clientY: number }) => {
    const r = glCanvas.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const zoomAt = (sx: number, sy: number, factor: number) => {
    moved.current = true;
    const before = toWorld(sx, sy);
    view.current.ppu *= factor;
    const after = toWorld(sx, sy);
    view.current.cx += before.x - after.x;
    view.current.cy += before.y - after.y;
    redraw(true);
  };
  const handlers = {
    onPointerDown: (e: React.PointerEvent) => {
      (e.target as Element).setPointerCapture(e.pointerId);
      pointers.current.set(e.pointerId, local(e));
      down.current = pointers.current.size === 1 ? { ...local(e), moved: false } : null;
    },
    onPointerMove: (e: React.PointerEvent) => {
      const prev = pointers.current.get(e.pointerId);
      if (!prev) return;
      const now = local(e);
      if (pointers.current.size === 2) {
        const [a, b] = [...pointers.current.entries()].map(([id, p]) => (id === e.pointerId ? now : p));
        const [pa, pb] = [...pointers.current.values()];
        const d0 = Math.hypot(pa.x - pb.x, pa.y - pb.y), d1 = Math.hypot(a.x - b.x, a.y - b.y);
        if (d0 > 0) zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, d1 / d0);
      } else {
        moved.current = true;
        view.current.cx -= (now.x - prev.x) / view.current.ppu;
        view.current.cy += (now.y - prev.y) / view.current.ppu;
        redraw(true);
      }
      if (down.current && Math.hypot(now.x - down.current.x, now.y - down.current.y) > 4) down.current.moved = true;
      pointers.current.set(e.pointerId, now);
    },
    onPointerUp: (e: React.PointerEvent) => {
      pointers.current.delete(e.pointerId);
      if (down.current && !down.current.moved) onClickAt(down.current.x, down.current.y);
      down.current = null;
    },
    onPointerCancel: (e: React.PointerEvent) => {
      pointers.current.delete(e.pointerId);
      down.current = null;
    },
    onWheel: (e: React.WheelEvent) => {
      const p = local(e);
      zoomAt(p.x, p.y, Math.exp(-e.deltaY * 0.0015));
    },
    onDoubleClick: () => tool === 'area' && points.length > 2 && setAreaClosed(true),
  };

  // tests and support read the view through this handle (drawing ↔ screen, draw calls)
  useEffect(() => {
    (window as unknown as { __cadViewer?: unknown }).__cadViewer = scene && whole && { toScreen, toWorld, center: () => toWorld(size().w / 2, size().h / 2), ppu: () => view.current.ppu, layout: scene.meta.layout, drawCalls: () => renderer.current?.drawCalls ?? 0, renders: () => renderer.current?.renders ?? 0, snapshots: () => renderer.current?.snapshots ?? 0, sharp: () => !renderer.current?.showingSnapshot, canvas: glCanvas.current };
  }, [scene, whole, toScreen, toWorld]);

  // lengths and areas in the drawing's own units ($INSUNITS), written in its unit format ($LUNITS/$LUPREC) as
  // AutoCAD's DIST does; a unitless drawing says so, and feet-and-inch formats carry their own marks
  const unit = scene ? unitSymbol(scene.meta.units) : null;
  const lu = scene?.meta.linearUnits;
  const len = (v: number) => (lu ? formatLinear(v, lu) : fmt(v));
  const inUnits = (text: string, squared = false) => (marksUnits(lu) ? text : `${text} · ${unit ? t('viewer.measure.unit', { u: squared ? `${unit}², ${unit}` : unit }) : t('viewer.measure.unitless')}`);
  const measureText = (() => {
    if (tool === 'distance' && points.length === 2) return inUnits(t('viewer.measure.distance', { d: len(distance(points[0], points[1])), dx: len(Math.abs(points[1].x - points[0].x)), dy: len(Math.abs(points[1].y - points[0].y)) }));
    if (tool === 'angle' && points.length === 3) return t('viewer.measure.angle', { a: fmt(angleAt(points[0], points[1], points[2])) });
    if (tool === 'coords' && points.length === 1) return inUnits(t('viewer.measure.coords', { x: len(points[0].x), y: len(points[0].y) }));
    if (tool === 'area' && points.length > 2) {
      const r = areaOf(points);
      const a = lu ? formatArea(r.area, lu) : { area: fmt(r.area) };
      // square inches and square feet, as AutoCAD's AREA writes them for feet-and-inch drawings
      return inUnits(t('viewer.measure.area', { a: a.squareFeet ? `${a.area} in² (${a.squareFeet} ft²)` : a.area, p: len(r.perimeter) }), true);
    }
    return tool === 'select' ? null : t(`viewer.hint.${tool}`);
  })();

  const found = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q && scene ? scene.meta.texts.filter((x) => x.text.toLowerCase().includes(q)).slice(0, 200) : [];
  }, [query, scene, whole]);
  const zoomToText = (i: number) => {
    const x = found[i];
    const w = x.height * Math.max(...x.text.split('\n').map((l) => l.length)) * 0.9;
    fit({ minX: x.x - x.height, minY: x.y - x.height * 2, maxX: x.x + w + x.height, maxY: x.y + x.height * 3 });
    setSelected(x.entity);
  };

  if (error) return <Result status="warning" title={<span data-testid="viewer-error">{error}</span>} extra={<Space>{onBack && <Button onClick={onBack}>{t('viewer.back')}</Button>}{extra}</Space>} />;

  const chooseTool = (v: Tool) => {
    if (v !== 'select' && !tools.allowed) {
      tools.prompt();
      return;
    }
    setTool(v);
    setPoints([]);
    setAreaClosed(false);
  };

  const panelBody = !scene || !panelsReady ? null : panel === 'layers' ? (
    <LayersPanel scene={scene} visible={visible} label={hooks?.layerLabel} onChange={(i, on) => (tools.allowed ? setChoice((c) => new Map(c).set(i, on)) : tools.prompt())} onAll={(on) => (tools.allowed ? setChoice(new Map(scene.meta.layers.map((_, i) => [i, on]))) : tools.prompt())} />
  ) : panel === 'find' ? (
    <FindPanel query={query} onQuery={setQuery} found={found} onPick={zoomToText} />
  ) : panel === 'info' ? (
    <InfoPanel scene={scene} selected={selected} measureText={measureText} onUploadFont={onUploadFont} missingPictures={missingPictures} />
  ) : null;

  return (
    <div className={`viewer ${phone ? 'viewer-phone' : ''} ${light ? 'viewer-light' : ''}`} data-testid="viewer">
      <div className="viewer-bar">
        {onBack && <Button type="text" icon={<LeftOutlined />} onClick={onBack} aria-label={t('viewer.back')} />}
        {name && <span className="viewer-name" title={name} data-testid="viewer-name">{name}</span>}
        {scene && scene.meta.layouts.length > 1 && (
          <Select size="small" value={layout} onChange={setLayout} data-testid="viewer-layout" style={{ minWidth: 110 }} options={scene.meta.layouts.map((l) => ({ value: l, label: l === 'Model' ? t('viewer.model') : l }))} />
        )}
        {/* a phone's bar is one row of 360–430 px: the tools become one menu, the display switches another */}
        {phone ? (
          <Dropdown trigger={['click']} menu={{ selectable: true, selectedKeys: [tool], items: TOOLS.map(([v, icon]) => ({ key: v, icon, label: <span data-testid={`viewer-tool-${v}`}>{t(`viewer.tool.${v}`)}</span> })), onClick: ({ key }) => chooseTool(key as Tool) }}>
            <Button size="small" type={tool === 'select' ? 'default' : 'primary'} icon={TOOLS.find(([v]) => v === tool)![1]} aria-label={t(`viewer.tool.${tool}`)} data-testid="viewer-tools" />
          </Dropdown>
        ) : (
          <Segmented size="small" value={tool} onChange={(v) => chooseTool(v as Tool)} data-testid="viewer-tools" options={TOOLS.map(([v, icon]) => ({ value: v, icon, title: t(`viewer.tool.${v}`) }))} />
        )}
        <span className="viewer-spacer" />
        <Tooltip title={t('viewer.layers')}><Button size="small" type={panel === 'layers' ? 'primary' : 'default'} icon={<UnorderedListOutlined />} onClick={() => setPanel(panel === 'layers' ? null : 'layers')} data-testid="viewer-btn-layers" /></Tooltip>
        <Tooltip title={t('viewer.find')}><Button size="small" type={panel === 'find' ? 'primary' : 'default'} icon={<SearchOutlined />} onClick={() => setPanel(panel === 'find' ? null : 'find')} data-testid="viewer-btn-find" /></Tooltip>
        <Tooltip title={t('viewer.properties')}><Button size="small" type={panel === 'info' ? 'primary' : 'default'} icon={<ProfileOutlined />} onClick={() => setPanel(panel === 'info' ? null : 'info')} data-testid="viewer-btn-info" /></Tooltip>
        {phone ? (
          <Dropdown trigger={['click']} menu={{ items: [
            { key: 'weights', icon: <LineHeightOutlined />, label: <span data-testid="viewer-lineweights">{t('viewer.lineweights')} {weights && <CheckOutlined />}</span> },
            { key: 'theme', icon: <BgColorsOutlined />, label: <span data-testid="viewer-theme">{light ? t('viewer.theme.dark') : t('viewer.theme.light')}</span> },
            { key: 'fit', icon: <CompressOutlined />, label: <span data-testid="viewer-fit">{t('viewer.fit')}</span> },
          ], onClick: ({ key }) => (key === 'weights' ? setWeights(!weights) : key === 'theme' ? setLight(!light) : fit()) }}>
            <Button size="small" icon={<MoreOutlined />} aria-label={t('viewer.more')} data-testid="viewer-more" />
          </Dropdown>
        ) : (
          <>
            <Tooltip title={t('viewer.lineweights')}><Button size="small" type={weights ? 'primary' : 'default'} icon={<LineHeightOutlined />} onClick={() => setWeights(!weights)} data-testid="viewer-lineweights" /></Tooltip>
            <Tooltip title={light ? t('viewer.theme.dark') : t('viewer.theme.light')}><Button size="small" icon={<BgColorsOutlined />} onClick={() => setLight(!light)} data-testid="viewer-theme" /></Tooltip>
            <Tooltip title={t('viewer.fit')}><Button size="small" icon={<CompressOutlined />} onClick={() => fit()} data-testid="viewer-fit" /></Tooltip>
          </>
        )}
        {extra}
      </div>
      <div className="viewer-body">
        <div className="viewer-canvas" ref={wrap}>
          <div ref={glHost} className="viewer-gl" style={{ cursor: tool === 'select' ? 'default' : 'crosshair', touchAction: 'none' }} {...handlers} />
          <canvas ref={overlay} className="viewer-overlay" />
          {!scene && <div className="viewer-loading"><Progress type="circle" percent={progress} size={72} /><div>{t('viewer.loading')}</div></div>}
          {scene && !whole && !hooks?.source && <Progress className="viewer-streaming" percent={progress} showInfo={false} size="small" strokeLinecap="square" data-testid="viewer-streaming" />}
          {phone && measureText && <div className="viewer-float" data-testid="viewer-measure-float">{measureText}</div>}
          {blank && <div className="viewer-blank" role="status" data-testid="viewer-blank" data-reason={blank.key}>{t(blank.key, { list: blank.list })}</div>}
        </div>
        {!phone && panelBody && <div className="viewer-panel">{panelBody}</div>}
      </div>
      {phone && <Drawer placement="bottom" open={!!panelBody} onClose={() => setPanel(null)} height="55%" title={panel && t(`viewer.panel.${panel}`)}>{panelBody}</Drawer>}
    </div>
  );
}
