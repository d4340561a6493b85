import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { INVOICE_STATUS_NAMES, InvoiceStatus, type InvoiceStatusCode } from '@cadcloud/contracts';
import { operatorApi, type OperatorFeedback, type OperatorInvoice } from '../../features/operator/api.ts';
import { formatTime } from '../../lib/format.ts';
import { StatusTag } from '../invoice/InvoicePages.tsx';
import '../invoice/invoice.css';

const PAGE_SIZE = 20;
const TABLE = { size: 'small', scroll: { x: 'max-content' } } as const;
/** what the operator acts on: a request (invoicing) or a re-issue request */
const OPEN = new Set<number>([InvoiceStatus.INVOICING, InvoiceStatus.REISSUING]);

/** Runs an operator call, keeping its error for the message above the table. */
function useRun(after: () => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (fn: () => Promise<unknown>) => {
      setError(null);
      try {
        await fn();
        await after();
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    },
    [after],
  );
  return { error, run };
}

function Invoices() {
  const { t, i18n } = useTranslation('invoices');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; invoices: OperatorInvoice[] }>({ total: 0, invoices: [] });
  const [failing, setFailing] = useState<OperatorInvoice | null>(null);
  const [reason, setReason] = useState('');
  const fileFor = useRef<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const load = useCallback(async () => setData(await operatorApi.invoices(status, page, PAGE_SIZE)), [status, page]);
  const { error, run } = useRun(load);
  useEffect(() => {
    void run(async () => undefined);
  }, [run]);

  return (
    <>
      {error && <Alert type="error" showIcon message={error} data-testid="operator-error" style={{ marginBottom: 8 }} />}
      <Space wrap style={{ marginBottom: 8 }}>
        <Select
          style={{ minWidth: 160 }}
          value={status ?? 0}
          onChange={(v) => (setPage(1), setStatus(v || undefined))}
          options={[{ value: 0, label: t('record.all') }, ...[1, 2, 3, 4, 5].map((s) => ({ value: s, label: t(`status.${INVOICE_STATUS_NAMES[s as InvoiceStatusCode]}`) }))]}
        />
      </Space>
      <input
        ref={picker}
        type="file"
        accept="application/pdf,.pdf"
        hidden
        data-testid="operator-pdf"
        onChange={(e) => {
          const file = e.target.files?.[0];
          const id = fileFor.current;
          e.target.value = '';
          if (file && id) void run(() => operatorApi.issue(id, file));
        }}
      />
      <Table
        rowKey="invoiceId"
        {...TABLE}
        dataSource={data.invoices}
        locale={{ emptyText: t('op.empty') }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, size: 'small' }}
        onRow={(r) => ({ 'data-testid': `operator-invoice-${r.invoiceId}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('op.company'), dataIndex: 'companyName' },
          { title: t('op.titleName'), render: (_: unknown, r: OperatorInvoice) => `${r.title.name} (${r.title.taxId})` },
          { title: t('op.orders'), render: (_: unknown, r: OperatorInvoice) => r.orderIds.join(', ') },
          { title: t('op.amount'), render: (_: unknown, r: OperatorInvoice) => `${r.amount} ${r.currency}` },
          { title: t('op.status'), dataIndex: 'status', render: (s: number) => <StatusTag status={s} /> },
          { title: t('op.requestedAt'), dataIndex: 'createdAt', render: (v: number) => formatTime(v, i18n.language) },
          {
            title: t('op.actions'),
            render: (_: unknown, r: OperatorInvoice) => (
              <Space size={4} wrap>
                {OPEN.has(r.status) && (
                  <Button size="small" type="primary" data-testid="operator-issue" onClick={() => ((fileFor.current = r.invoiceId), picker.current?.click())}>
                    {t('op.issue')}
                  </Button>
                )}
                {OPEN.has(r.status) && (
                  <Button size="small" data-testid="operator-fail" onClick={() => (setReason(''), setFailing(r))}>
                    {t('op.fail')}
                  </Button>
                )}
                {r.status !== InvoiceStatus.VOIDED && (
                  <Popconfirm title={t('op.voidConfirm')} okText={t('op.ok')} cancelText={t('op.cancel')} onConfirm={() => run(() => operatorApi.void(r.invoiceId))}>
                    <Button size="small" danger data-testid="operator-void">{t('op.void')}</Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={failing !== null}
        title={t('op.fail')}
        okText={t('op.ok')}
        cancelText={t('op.cancel')}
        okButtonProps={{ disabled: !reason.trim() }}
        onCancel={() => setFailing(null)}
        onOk={() => {
          const id = failing!.invoiceId;
          setFailing(null);
          void run(() => operatorApi.fail(id, reason.trim()));
        }}
      >
        <Input.TextArea value={reason} maxLength={500} placeholder={t('op.reason')} onChange={(e) => setReason(e.target.value)} data-testid="operator-reason" />
      </Modal>
    </>
  );
}

function Feedback() {
  const { t, i18n } = useTranslation('invoices');
  const [openOnly, setOpenOnly] = useState(true);
  const [list, setList] = useState<OperatorFeedback[]>([]);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const load = useCallback(async () => setList((await operatorApi.feedback(openOnly)).feedback), [openOnly]);
  const { error, run } = useRun(load);
  useEffect(() => {
    void run(async () => undefined);
  }, [run]);

  return (
    <>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 8 }} />}
      <Space style={{ marginBottom: 8 }}>
        <Switch checked={openOnly} onChange={setOpenOnly} data-testid="operator-open-only" /> {t('op.openOnly')}
      </Space>
      <Table
        rowKey="id"
        {...TABLE}
        pagination={false}
        dataSource={list}
        locale={{ emptyText: t('op.empty') }}
        onRow={(f) => ({ 'data-testid': `operator-feedback-${f.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('op.requestedAt'), dataIndex: 'createdAt', render: (v: number) => formatTime(v, i18n.language) },
          { title: t('op.email'), dataIndex: 'email' },
          { title: t('op.content'), dataIndex: 'content', render: (v: string) => <div style={{ maxWidth: 360, whiteSpace: 'pre-wrap' }}>{v}</div> },
          { title: t('op.page'), dataIndex: 'pageUrl' },
          {
            title: t('op.reply'),
            render: (_: unknown, f: OperatorFeedback) =>
              f.reply !== null ? (
                <div style={{ maxWidth: 320, whiteSpace: 'pre-wrap' }} data-testid="operator-replied">
                  <b>{t('op.replied')}</b> {f.repliedAt ? formatTime(f.repliedAt, i18n.language) : ''}: {f.reply}
                </div>
              ) : (
                <Space.Compact style={{ minWidth: 260 }}>
                  <Input.TextArea autoSize data-testid="operator-reply-text" value={drafts[f.id] ?? ''} maxLength={5000} onChange={(e) => setDrafts((d) => ({ ...d, [f.id]: e.target.value }))} />
                  <Button type="primary" data-testid="operator-reply-send" disabled={!(drafts[f.id] ?? '').trim()} onClick={() => run(() => operatorApi.reply(f.id, drafts[f.id]!.trim()))}>
                    {t('op.send')}
                  </Button>
                </Space.Compact>
              ),
          },
        ]}
      />
    </>
  );
}

/** /operator (issue 23): invoice requests and feedback for the accounts OPERATOR_EMAILS names; the server checks every call. */
export function OperatorPage() {
  const { t } = useTranslation('invoices');
  return (
    <div className="invoice-shell" data-testid="operator-page">
      <h2>{t('op.title')}</h2>
      <Tabs items={[{ key: 'invoices', label: t('op.tab.invoices'), children: <Invoices /> }, { key: 'feedback', label: t('op.tab.feedback'), children: <Feedback /> }]} />
    </div>
  );
}
