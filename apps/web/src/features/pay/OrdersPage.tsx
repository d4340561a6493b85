import { useCallback, useEffect, useState } from 'react';
import { App, Button, Descriptions, Modal, Result, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ORDER_STATUS_NAMES, OrderStatus, PAY_POLL_MS, type OrderInfo, type OrderStatusCode } from '@cadcloud/contracts';
import { ApiError } from '../../lib/api.ts';
import { formatTime } from '../../lib/format.ts';
import { useUser } from '../auth/user.tsx';
import { formatMoney, payApi } from './api.ts';

const PAGE_SIZE = 10;
const STATUS_COLORS: Record<number, string> = { 0: 'gold', 1: 'green', 2: 'default', 3: 'default', 4: 'red', 5: 'purple', 6: 'blue', 7: 'default' };

/** Spec section 4's status names by code (0 unpaid … 7 timed out). */
export function OrderStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('pay');
  const name = ORDER_STATUS_NAMES[status as OrderStatusCode];
  return <Tag color={STATUS_COLORS[status]} data-testid="order-status">{name ? t(`status.${name}`) : String(status)}</Tag>;
}

export function CodeStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('pay');
  return <Tag data-testid="code-status">{t(`codeStatus.${status}`, { defaultValue: String(status) })}</Tag>;
}

function useOrderText() {
  const { t, i18n } = useTranslation('pay');
  return {
    t,
    time: (ms: number | null) => (ms ? formatTime(ms, i18n.language) : '—'),
    money: (o: OrderInfo, amount: number) => formatMoney(amount, o.currency),
    plan: (o: OrderInfo) => t(`plan.${o.planCode}`, { defaultValue: o.planCode }),
    channel: (o: OrderInfo) => (o.payWay === null ? t('channel.code') : t(`pay.way.${o.payWay}`, { defaultValue: String(o.payWay) })),
    type: (o: OrderInfo) => t(`type.${o.orderType}`, { defaultValue: String(o.orderType) }),
  };
}

/** One order's detail with its exchange-code records (index, code, status). */
function OrderDetail({ orderId, onClose }: { orderId: string; onClose(): void }) {
  const x = useOrderText();
  const [order, setOrder] = useState<OrderInfo | null>(null);
  useEffect(() => {
    void payApi.detail(orderId).then(setOrder, () => onClose());
  }, [orderId]);
  return (
    <Modal open title={x.t('order.detail')} onCancel={onClose} footer={null} width={560}>
      <div data-testid="order-detail">
      {order && (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={x.t('order.id')}>{order.orderId}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.service')}>{x.plan(order)}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.status')}><OrderStatusTag status={order.status} /></Descriptions.Item>
            <Descriptions.Item label={x.t('order.amount')}>{x.money(order, order.amount)}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.payAmount')}>{x.money(order, order.payAmount)}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.channel')}>{x.channel(order)}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.type')}>{x.type(order)}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.time')}>{x.time(order.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.payTime')}>{x.time(order.paidAt)}</Descriptions.Item>
            <Descriptions.Item label={x.t('order.serviceEnds')}>{x.time(order.serviceEndsAt)}</Descriptions.Item>
          </Descriptions>
          <h4 style={{ marginTop: 16 }}>{x.t('order.codes')}</h4>
          <Table size="small" rowKey="index" pagination={false} dataSource={order.exchangeCodes} locale={{ emptyText: x.t('order.noCodes') }} data-testid="order-codes"
            columns={[
              { title: x.t('code.index'), dataIndex: 'index' },
              { title: x.t('code.code'), dataIndex: 'code' },
              { title: x.t('code.status'), dataIndex: 'status', render: (s: number) => <CodeStatusTag status={s} /> },
            ]} />
        </>
      )}
      </div>
    </Modal>
  );
}

/** After the provider's page sent the payer back (`?paid={orderId}`): the success state once the order is paid. */
function PaidBanner({ orderId, onPaid }: { orderId: string; onPaid(): void }) {
  const { t } = useTranslation('pay');
  const [paid, setPaid] = useState(false);
  useEffect(() => {
    let stopped = false;
    const check = () => payApi.status(orderId).then((s) => {
      if (stopped) return;
      if (s.status === OrderStatus.PAID) {
        setPaid(true);
        onPaid();
      } else if (s.status === OrderStatus.UNPAID || s.status === OrderStatus.CONFIRMING) timer = setTimeout(check, PAY_POLL_MS);
    }, () => undefined);
    let timer = setTimeout(check, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [orderId]);
  return paid ? <Result status="success" title={t('paid.title')} data-testid="paid-result" style={{ padding: 16 }} /> : <Result status="info" title={t('paid.waiting')} style={{ padding: 16 }} />;
}

/** My Orders (/yun/order, /webH5/order): status, amounts, channel, times and type; detail; cancel an unpaid order. */
export function OrdersPage() {
  const x = useOrderText();
  const { message, modal } = App.useApp();
  const { refresh: refreshUser } = useUser();
  const [params] = useSearchParams();
  const paidId = params.get('paid');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; orders: OrderInfo[] } | null>(null);
  const [detail, setDetail] = useState<string | null>(null);
  const load = useCallback(() => payApi.list(page, PAGE_SIZE).then(setData, (e: Error) => message.error(e.message)), [page]);
  useEffect(() => {
    void load();
  }, [load]);

  const cancel = (o: OrderInfo) =>
    modal.confirm({
      title: x.t('order.cancelConfirm'),
      okText: x.t('common.ok'),
      cancelText: x.t('common.cancel'),
      onOk: async () => {
        try {
          await payApi.cancel(o.orderId);
          message.success(x.t('order.cancelled'));
        } catch (e) {
          // the server's reason ('Cannot cancel the order of {0}')
          message.error(e instanceof ApiError ? e.message : String(e));
        }
        await load();
      },
    });

  return (
    <div className="pay-page" data-testid="orders-page">
      <h2 className="page-title">{x.t('order.title')}</h2>
      {paidId && <PaidBanner orderId={paidId} onPaid={() => { void load(); void refreshUser().catch(() => undefined); }} />}
      <Table
        rowKey="orderId"
        size="small"
        scroll={{ x: 'max-content' }}
        dataSource={data?.orders ?? []}
        loading={!data}
        locale={{ emptyText: x.t('order.empty') }}
        data-testid="orders-table"
        onRow={(o) => ({ 'data-order': o.orderId } as React.HTMLAttributes<HTMLElement>)}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false, hideOnSinglePage: true }}
        columns={[
          { title: x.t('order.time'), key: 'time', render: (_, o) => x.time(o.createdAt) },
          { title: x.t('order.service'), key: 'service', render: (_, o) => x.plan(o) },
          { title: x.t('order.amount'), key: 'amount', render: (_, o) => <span data-testid="order-amount">{x.money(o, o.amount)}</span> },
          { title: x.t('order.channel'), key: 'channel', render: (_, o) => x.channel(o) },
          { title: x.t('order.payTime'), key: 'payTime', render: (_, o) => x.time(o.paidAt) },
          { title: x.t('order.type'), key: 'type', render: (_, o) => x.type(o) },
          { title: x.t('order.status'), key: 'status', render: (_, o) => <OrderStatusTag status={o.status} /> },
          {
            title: x.t('order.actions'),
            key: 'actions',
            render: (_, o) => (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => setDetail(o.orderId)} data-testid="order-detail-button">{x.t('order.detail')}</Button>
                {o.status === OrderStatus.UNPAID && <Button size="small" type="link" danger onClick={() => cancel(o)} data-testid="order-cancel">{x.t('order.cancel')}</Button>}
              </Space>
            ),
          },
        ]}
      />
      {detail && <OrderDetail orderId={detail} onClose={() => setDetail(null)} />}
    </div>
  );
}
