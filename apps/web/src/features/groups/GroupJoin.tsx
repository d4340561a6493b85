import { useEffect, useState } from 'react';
import { App, Button, Card, Result, Space, Spin, Typography } from 'antd';
import { TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { groupsApi, groupsBase, type GroupInviteInfo } from './api.ts';
import './groups.css';

/**
 * An invitation link (/yun/group/join/{token}, /webH5/group/join/{token}): signed in (the app's sign-in wrapper
 * sends a visitor through the login site and back here), the user sees the group and joins it.
 */
export function GroupJoin() {
  const { t } = useTranslation('groups');
  const { message } = App.useApp();
  const { token } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const base = groupsBase(pathname);
  const [info, setInfo] = useState<GroupInviteInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    groupsApi.inviteInfo(token!).then(setInfo, (e) => setError((e as Error).message));
  }, [token]);
  const openGroup = (groupId: string) => navigate(`${base}/group?id=${encodeURIComponent(groupId)}`, { replace: true });
  const join = async () => {
    setBusy(true);
    try {
      const g = await groupsApi.join(token!);
      message.success(t('groups.join.done', { name: g.name }));
      openGroup(g.groupId);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (error) {
    return (
      <div className="group-join" data-testid="group-join-error">
        <Result status="warning" title={t('groups.join.failed')} subTitle={error} extra={<Button onClick={() => navigate(`${base}/group`)}>{t('groups.back')}</Button>} />
      </div>
    );
  }
  if (!info) return <div className="group-join"><Spin /></div>;
  return (
    <div className="group-join" data-testid="group-join">
      <Card>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('groups.join.invited', { owner: info.ownerName })}</Typography.Text>
          <Space align="center">
            <TeamOutlined className="group-avatar" />
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="group-join-name">{info.name}</Typography.Title>
          </Space>
          <div>{t('groups.members', { count: info.memberCount })}</div>
          <Typography.Paragraph type="secondary" className="group-intro">{info.introduction || t('groups.noIntro')}</Typography.Paragraph>
          {info.isMember ? (
            <Space direction="vertical">
              <Typography.Text>{t('groups.join.already')}</Typography.Text>
              <Button type="primary" onClick={() => openGroup(info.groupId)} data-testid="group-join-open">{t('groups.join.open')}</Button>
            </Space>
          ) : (
            <Button type="primary" size="large" block loading={busy} onClick={() => void join()} data-testid="group-join-button">{t('groups.join.button')}</Button>
          )}
        </Space>
      </Card>
    </div>
  );
}
