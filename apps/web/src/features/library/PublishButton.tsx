import { App, Button, Tag, Typography } from 'antd';
import { GlobalOutlined, LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isPublishableName, type Item } from '@cadcloud/contracts';
import { useUser } from '../auth/user.tsx';
import { libraryApi } from './api.ts';

/** What a selection of drive items allows: publish (all private drawings), unpublish (all public), or a reason not to. */
export function publishAction(items: readonly Item[]): 'publish' | 'unpublish' | 'notDrawing' | 'mixed' | 'none' {
  if (!items.length) return 'none';
  if (items.some((i) => i.fileType !== 1 || !isPublishableName(i.name))) return 'notDrawing';
  if (items.every((i) => i.privateType === '1')) return 'publish';
  if (items.every((i) => i.privateType === '0')) return 'unpublish';
  return 'mixed';
}

/**
 * The drive toolbar's "Make public" / "Make private" button and the spec's public-drawing dialog: a confirmation
 * that says public drawings do not count toward storage. Non-drawings and folders are refused with the spec's
 * message before anything is sent (the server refuses them too).
 */
export function PublishButton({ items, onDone }: { items: readonly Item[]; onDone: (text: string) => unknown }) {
  const { t } = useTranslation('library');
  const { message, modal } = App.useApp();
  const { user } = useUser();
  const action = publishAction(items);
  const unpublish = action === 'unpublish';
  const click = () => {
    if (action === 'notDrawing') return void message.error(t('library.publish.onlyDrawings'));
    if (action === 'mixed') return void message.error(t('library.publish.mixed'));
    if (action === 'none') return;
    modal.confirm({
      title: unpublish ? t('library.unpublish.title') : t('library.publish.title'),
      icon: unpublish ? <LockOutlined /> : <GlobalOutlined />,
      content: (
        <div data-testid="publish-dialog">
          <p>{unpublish ? t('library.unpublish.confirm', { count: items.length }) : t('library.publish.confirm', { count: items.length })}</p>
          {!unpublish && <Typography.Text type="secondary">{t('library.publish.storageNote')}</Typography.Text>}
        </div>
      ),
      okText: t('library.ok'),
      cancelText: t('library.cancel'),
      onOk: async () => {
        try {
          await libraryApi.setPrivateType(items.map((i) => i.id), unpublish ? '1' : '0', user?.name);
          await onDone(unpublish ? t('library.unpublish.ok') : t('library.publish.ok'));
        } catch (e) {
          message.error((e as Error).message);
        }
      },
    });
  };
  return (
    <Button icon={unpublish ? <LockOutlined /> : <GlobalOutlined />} disabled={action === 'none'} onClick={click} data-testid="btn-publish">
      {unpublish ? t('library.unpublish') : t('library.publish')}
    </Button>
  );
}

/** A small "Public" mark beside a drive item that is in the public library. */
export function PublicTag({ item }: { item: Pick<Item, 'privateType' | 'fileType' | 'name'> }) {
  const { t } = useTranslation('library');
  if (item.fileType !== 1 || item.privateType !== '0') return null;
  return <Tag color="green" style={{ marginInlineStart: 6 }} data-testid={`public-tag-${item.name}`}>{t('library.public.tag')}</Tag>;
}
