import { useMemo } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ComparePage } from '../../features/compare/ComparePage.tsx';
import { isPhone } from '../../lib/device.ts';
import '../../features/compare/compare.css';

/** /yun/version/{fileId}/compare?a={versionId}&b={versionId}: two versions of a drawing compared in the viewer. */
export function Compare() {
  const { fileId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const a = params.get('a') ?? '', b = params.get('b') ?? '';
  const query = useMemo(() => ({ fileId: fileId!, a, b }), [fileId, a, b]);
  const phone = isPhone();
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate(`/yun/version/${encodeURIComponent(fileId!)}`));
  return <ComparePage key={`${fileId}/${a}/${b}`} query={query} phone={phone} onBack={back} />;
}
