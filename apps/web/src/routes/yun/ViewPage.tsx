import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { filesApi } from '../../features/files/api.ts';
import { Viewer, type ViewArea } from '../../features/viewer/Viewer.tsx';
import { ConvertAction } from '../../features/conversions/ConvertAction.tsx';
import { isConvertible } from '../../features/conversions/api.ts';

/** /yun/view/{fileId}: a drawing in the full-window viewer; back returns to the list it was opened from. */
export function ViewPage() {
  const { fileId } = useParams();
  // ?versionId=: an earlier version from the version history (owner only)
  const versionId = useSearchParams()[0].get('versionId') ?? undefined;
  // the version page passes "name · V2" as the title
  const locationState = useLocation().state as { title?: string } | null;
  const versionTitle = versionId ? locationState?.title : undefined;
  const navigate = useNavigate();
  const [name, setName] = useState<string>();
  // the owner's own drawing (getFileInfo answers the owner only) can be converted from here
  const [own, setOwn] = useState<{ id: string; name: string; type: string } | null>(null);
  // the layout the viewer shows: Convert's "current layout" is this one, not the drawing's default
  const [layout, setLayout] = useState<string>();
  // what the viewer shows when Convert starts: "current view" reads it then, not on every pan
  const view = useRef<(() => ViewArea) | null>(null);
  useEffect(() => {
    const show = (i: { name: string }) => {
      setName(i.name);
      document.title = i.name;
    };
    // another user's public drawing: getFileInfo is owner-only, the product item call answers for public items
    filesApi.getFileInfo(fileId!).then((i) => {
      show(i);
      setOwn(i);
    }, () => filesApi.getProductItem(fileId!).then(show, () => undefined));
  }, [fileId]);
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/yun/drawing'));
  return <Viewer key={`${fileId}:${versionId ?? ''}`} fileId={fileId!} versionId={versionId} name={versionTitle ?? name} onBack={back} onUploadFont={() => navigate('/yun/font')} onLayout={setLayout} onView={(get) => (view.current = get)} extra={own && !versionId && isConvertible({ fileType: 1, type: own.type }) ? <ConvertAction file={own} layout={layout} currentView={() => view.current?.()} size="small" /> : undefined} />;
}
