import { useCallback, useEffect, useState } from 'react';
import { App, Badge, Button, Empty, List, Space, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, PlusOutlined, ReloadOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { groupsApi, groupsBase, type Group } from '../../features/groups/api.ts';
import { GroupFormDialog } from '../../features/groups/GroupDialogs.tsx';
import { GroupPanel } from '../../features/groups/GroupPanel.tsx';
import '../../features/groups/groups.css';

/**
 * /yun/group (and /webH5/group on phones): my groups with member counts and introductions, create; the chosen
 * group (?id=) beside the list, or alone on a narrow screen with a way back.
 */
export function Groups() {
  const { t } = useTranslation('groups');
  const { message } = App.useApp();
  const { pathname } = useLocation();
  const base = groupsBase(pathname);
  const [params, setParams] = useSearchParams();
  const selected = params.get('id');
  const [groups, setGroups] = useState<Group[]>([]);
  const [loading, setLoading] = useState(false);
  const [creating, setCreating] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setGroups((await groupsApi.list()).list);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const select = (id: string | null) => setParams(id ? { id } : {}, { replace: false });

  return (
    <div className={`groups-page${selected ? ' has-selection' : ''}`} data-testid="groups-page">
      <div className="groups-list">
        <div className="toolbar">
          <Typography.Title level={4} style={{ margin: 0 }}>{t('groups.title')}</Typography.Title>
          <Space>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="group-create">{t('groups.create')}</Button>
            <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t('groups.refresh')} />
          </Space>
        </div>
        <List<Group>
          loading={loading}
          dataSource={groups}
          rowKey="groupId"
          locale={{ emptyText: <Empty data-testid="groups-empty" description={t('groups.empty')} /> }}
          renderItem={(g) => (
            <List.Item
              className={`group-row${g.groupId === selected ? ' selected' : ''}`}
              onClick={() => select(g.groupId)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && select(g.groupId)}
              role="button"
              tabIndex={0}
              aria-current={g.groupId === selected ? 'true' : undefined}
              data-testid={`group-row-${g.name}`}
            >
              <List.Item.Meta
                avatar={<Badge count={g.memberCount} size="small" color="#1677ff" overflowCount={999}><TeamOutlined className="group-avatar" /></Badge>}
                title={<Space size={6} wrap><span>{g.name}</span>{g.role === 'owner' && <Tag color="gold">{t('groups.role.owner')}</Tag>}</Space>}
                description={
                  <>
                    <div data-testid={`group-row-count-${g.name}`}>{t('groups.members', { count: g.memberCount })}</div>
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>{g.introduction || t('groups.noIntro')}</Typography.Paragraph>
                  </>
                }
              />
            </List.Item>
          )}
        />
      </div>
      <div className="groups-detail">
        {selected ? (
          <>
            <Button className="groups-back" type="link" icon={<ArrowLeftOutlined />} onClick={() => select(null)} data-testid="groups-back">{t('groups.back')}</Button>
            <GroupPanel key={selected} groupId={selected} base={base} onChanged={() => void load()} onGone={() => { select(null); void load(); }} />
          </>
        ) : (
          <Empty className="groups-pick" description={t('groups.pick')} />
        )}
      </div>
      <GroupFormDialog open={creating} onClose={() => setCreating(false)} onDone={(g) => { setCreating(false); void load(); select(g.groupId); }} />
    </div>
  );
}

// its routes (loaded lazily): group-routes.tsx
