import { useCallback, useEffect, useState } from 'react';
import { App, Button, Descriptions, Empty, Input, List, Result, Space, Spin, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, EyeOutlined, FolderOpenOutlined, LockOutlined, MessageOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PUBLIC_MESSAGE_MAX } from '@cadcloud/contracts';
import { formatSize, formatTime } from '../../lib/format.ts';
import { libraryApi, type PublicItem, type PublicMessage } from './api.ts';
import { MarkButtons, PublicThumb, useMarks } from './PublicCard.tsx';

function Marks({ item }: { item: PublicItem }) {
  const marks = useMarks(item);
  return <MarkButtons marks={marks} size="middle" />;
}

/**
 * One public drawing: thumbnail, publisher, counts (opening this page counts a browse), like, collect, open in the
 * viewer, and the messages (anyone signed in may leave one; each deletes only their own). The owner may make it
 * private from here.
 */
export function PublicDetail({ fileId, onBack, onView }: { fileId: string; onBack: () => void; onView: (item: PublicItem) => void }) {
  const { t, i18n } = useTranslation('library');
  const { message, modal } = App.useApp();
  const [item, setItem] = useState<PublicItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [messages, setMessages] = useState<PublicMessage[]>([]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);

  const loadMessages = useCallback(async () => {
    try {
      setMessages((await libraryApi.messages(fileId)).list);
    } catch (e) {
      message.error((e as Error).message);
    }
  }, [fileId]);

  useEffect(() => {
    let live = true;
    libraryApi.detail(fileId).then(
      (d) => live && setItem(d),
      (e) => live && setError((e as Error).message),
    );
    void loadMessages();
    return () => {
      live = false;
    };
  }, [fileId]);

  const send = async () => {
    if (!text.trim()) return;
    setSending(true);
    try {
      const m = await libraryApi.addMessage(fileId, text);
      setMessages((l) => [m, ...l]);
      setItem((i) => (i ? { ...i, leaveMessageCount: i.leaveMessageCount + 1, totalMessageCount: i.totalMessageCount + 1 } : i));
      setText('');
      message.success(t('library.message.sent'));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setSending(false);
    }
  };
  const remove = async (m: PublicMessage) => {
    try {
      await libraryApi.deleteMessage(m.id);
      setMessages((l) => l.filter((x) => x.id !== m.id));
      setItem((i) => (i ? { ...i, leaveMessageCount: Math.max(0, i.leaveMessageCount - 1), totalMessageCount: Math.max(0, i.totalMessageCount - 1) } : i));
      message.success(t('library.message.deleted'));
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const unpublish = () =>
    modal.confirm({
      title: t('library.unpublish.title'),
      content: t('library.unpublish.confirm', { count: 1 }),
      okText: t('library.ok'),
      cancelText: t('library.cancel'),
      onOk: async () => {
        try {
          await libraryApi.setPrivateType([fileId], '1');
          message.success(t('library.unpublish.ok'));
          onBack();
        } catch (e) {
          message.error((e as Error).message);
        }
      },
    });

  if (error) return <Result status="warning" title={error} extra={<Button onClick={onBack}>{t('library.back')}</Button>} />;
  if (!item) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  return (
    <div className="public-detail" data-testid="public-detail">
      <Button type="link" icon={<ArrowLeftOutlined />} onClick={onBack} style={{ paddingLeft: 0 }}>{t('library.back')}</Button>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ width: 220, maxWidth: '100%', height: 160, overflow: 'hidden', padding: 8, display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fff', border: '1px solid #f0f0f0', borderRadius: 8, cursor: 'pointer' }} onClick={() => onView(item)}>
          <PublicThumb item={item} size={72} />
        </div>
        <div style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Typography.Title level={4} style={{ marginTop: 0, wordBreak: 'break-all' }} data-testid="public-detail-name">{item.name}</Typography.Title>
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('library.field.owner')}>{item.isOwner ? <Tag color="blue">{t('library.mine')}</Tag> : item.ownerName}</Descriptions.Item>
            <Descriptions.Item label={t('library.field.published')}>{formatTime(item.publishTimestamp, i18n.language)}</Descriptions.Item>
            <Descriptions.Item label={t('library.field.size')}>{formatSize(item.size)}</Descriptions.Item>
          </Descriptions>
          <Space wrap style={{ margin: '8px 0' }}>
            <span><EyeOutlined /> {t('library.count.browse')} <b data-testid="public-browse-count">{item.browseCount}</b></span>
            <span><MessageOutlined /> {t('library.count.message')} <b>{item.totalMessageCount}</b></span>
          </Space>
          <div>
            <Space wrap>
              <Button type="primary" icon={<FolderOpenOutlined />} onClick={() => onView(item)} data-testid="public-open">{t('library.open')}</Button>
              <Marks item={item} />
              {item.isOwner === 1 && <Button icon={<LockOutlined />} onClick={unpublish} data-testid="public-unpublish">{t('library.unpublish')}</Button>}
            </Space>
          </div>
        </div>
      </div>
      <Typography.Title level={5} style={{ marginTop: 24 }}>{t('library.messages')}</Typography.Title>
      <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
        <Input.TextArea value={text} onChange={(e) => setText(e.target.value)} maxLength={PUBLIC_MESSAGE_MAX} autoSize={{ minRows: 1, maxRows: 4 }} placeholder={t('library.message.placeholder')} data-testid="message-input" />
        <Button type="primary" loading={sending} disabled={!text.trim()} onClick={() => void send()} data-testid="message-send">{t('library.message.send')}</Button>
      </Space.Compact>
      {messages.length ? (
        <List
          dataSource={messages}
          renderItem={(m) => (
            <List.Item
              data-testid="message-item"
              actions={m.isMine ? [<Button key="d" type="text" danger size="small" icon={<DeleteOutlined />} onClick={() => void remove(m)} aria-label={t('library.message.delete')} data-testid="message-delete" />] : []}
            >
              <List.Item.Meta title={<span>{m.userName} <small style={{ color: '#999', fontWeight: 'normal' }}>{formatTime(m.createTimestamp, i18n.language)}</small></span>} description={<span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', color: 'rgba(0,0,0,0.88)' }}>{m.content}</span>} />
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('library.message.empty')} />
      )}
    </div>
  );
}
