import { useNavigate, useParams } from 'react-router';
import { PublicDetail } from '../../features/library/PublicDetail.tsx';

/** /yun/public/{fileId}: a public drawing's detail and messages; "open" goes to the viewer. */
export function LibraryDetail() {
  const { fileId } = useParams();
  const navigate = useNavigate();
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/yun/public'));
  return <PublicDetail key={fileId} fileId={fileId!} onBack={back} onView={(item) => navigate(`/yun/view/${item.id}`)} />;
}
