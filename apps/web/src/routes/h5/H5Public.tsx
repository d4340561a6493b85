import { useNavigate, useParams } from 'react-router';
import { LibraryList } from '../../features/library/LibraryList.tsx';
import { PublicDetail } from '../../features/library/PublicDetail.tsx';

/** /webH5/info/publicplatform: the public library on a phone; a card opens its detail, "open" the viewer. */
export function H5Public() {
  const navigate = useNavigate();
  return <LibraryList kind="public" onOpen={(item) => navigate(`/webH5/info/publicplatform/${item.id}`)} />;
}

/** /webH5/info/publicplatform/{fileId} */
export function H5PublicDetail() {
  const { fileId } = useParams();
  const navigate = useNavigate();
  return <PublicDetail key={fileId} fileId={fileId!} onBack={() => navigate('/webH5/info/publicplatform')} onView={(item) => navigate(`/yun/view/${item.id}`)} />;
}
