import { useNavigate } from 'react-router';
import { LibraryList } from '../../features/library/LibraryList.tsx';
import type { LibraryKind } from '../../features/library/api.ts';

/** /yun/public (everyone's public drawings), /yun/myPublic, /yun/myCollection, /yun/myLike. */
export function Library({ kind }: { kind: LibraryKind }) {
  const navigate = useNavigate();
  return <LibraryList key={kind} kind={kind} onOpen={(item) => navigate(`/yun/public/${item.id}`)} />;
}
