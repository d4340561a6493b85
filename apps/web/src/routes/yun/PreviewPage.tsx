import { useEffect, useMemo, useState } from 'react';
import { Button, Result, Spin } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { filesApi, type Item } from '../../features/files/api.ts';
import { fileBytes, previewKind } from '../../features/preview/preview-kind.ts';
import { ImagePreview } from '../../features/preview/ImagePreview.tsx';
import { PdfPreview } from '../../features/preview/PdfPreview.tsx';

/** /yun/preview/{fileId}: a picture (with the folder's other pictures) or a PDF in the full window, desktop and phone. */
export function PreviewPage() {
  const { fileId } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [item, setItem] = useState<Item | null | 'missing'>(null);
  const [bytes, setBytes] = useState<Blob | null>(null);
  const [siblings, setSiblings] = useState<Item[]>([]);
  useEffect(() => {
    setBytes(null);
    filesApi.getFileInfo(fileId!).then((i) => {
      setItem(i);
      document.title = i.name;
      return fileBytes(i.id, filesApi.download).then(setBytes);
    }).catch(() => setItem('missing'));
  }, [fileId]);
  const parentId = item && item !== 'missing' ? item.parentId : null;
  useEffect(() => {
    if (parentId === null) return;
    // previous/next walk the folder's pictures in name order, as the list shows them
    filesApi.unionList({ parentId, pageSize: 10_000, sort: 'name' }).then((p) => setSiblings(p.list.filter((i) => previewKind(i) === 'image')), () => setSiblings([]));
  }, [parentId]);
  const src = useMemo(() => (bytes ? URL.createObjectURL(bytes) : null), [bytes]);
  useEffect(() => () => void (src && URL.revokeObjectURL(src)), [src]);
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null);
  useEffect(() => {
    setPdf(null);
    if (bytes && item && item !== 'missing' && previewKind(item) === 'pdf') void bytes.arrayBuffer().then(setPdf);
  }, [bytes, item]);

  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/yun/index'));
  if (item === null) return <Spin />;
  if (item === 'missing') return <Result status="404" title={t('preview.failed')} extra={<Button onClick={back}>{t('preview.back')}</Button>} />;
  const kind = previewKind(item);
  const at = siblings.findIndex((s) => s.id === item.id);
  const go = (n: number) => (siblings[n] ? () => navigate(`/yun/preview/${siblings[n].id}`, { replace: true }) : undefined);
  return (
    <div className="preview-page">
      <div className="preview-header">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('preview.back')} data-testid="preview-back" />
        <span className="preview-name" title={item.name} data-testid="preview-name">{item.name}</span>
        {kind === 'image' && at >= 0 && siblings.length > 1 && <span className="preview-count">{at + 1} / {siblings.length}</span>}
      </div>
      {kind === 'image' ? <ImagePreview src={src} name={item.name} onPrev={at > 0 ? go(at - 1) : undefined} onNext={at >= 0 ? go(at + 1) : undefined} /> : kind === 'pdf' ? <PdfPreview data={pdf} /> : <Result status="info" title={t('preview.unsupported')} />}
    </div>
  );
}
