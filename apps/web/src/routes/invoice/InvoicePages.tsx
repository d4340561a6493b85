import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Checkbox, Descriptions, Empty, Form, Input, Popconfirm, Radio, Select, Space, Switch, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { INVOICE_STATUS_NAMES, InvoiceStatus, type InvoiceStatusCode } from '@cadcloud/contracts';
import { invoicesApi, type CompanyMember, type InvoiceableOrder, type InvoiceInfo, type InvoiceTitle } from '../../features/invoices/api.ts';
import { formatTime } from '../../lib/format.ts';
import { useInvoiceState } from './InvoiceShell.tsx';

/** Every list here: compact, unpaged, scrolling sideways inside itself on a phone instead of widening the page. */
const LIST_TABLE = { size: 'small', pagination: false, scroll: { x: 'max-content' } } as const;

const STATUS_COLOURS: Record<number, string> = { 0: 'default', 1: 'green', 2: 'processing', 3: 'red', 4: 'orange', 5: 'default' };

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation('invoices');
  return (
    <Tag color={STATUS_COLOURS[status]} data-testid="invoice-status" data-status={status}>
      {t(`status.${INVOICE_STATUS_NAMES[status as InvoiceStatusCode]}`)}
    </Tag>
  );
}

/** Runs a call and keeps its error for an inline message: invoice calls are silent (spec section 8), no toast. */
function useCall() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError((e as Error).message);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  const shown = error ? <Alert type="error" showIcon message={error} data-testid="invoice-error" style={{ marginBottom: 12 }} /> : null;
  return { run, busy, error: shown };
}

function useInvoices(status?: number) {
  const [list, setList] = useState<InvoiceInfo[] | null>(null);
  const { run, error } = useCall();
  useEffect(() => {
    void run(async () => setList((await invoicesApi.list(status)).invoices));
  }, [run, status]);
  return { list, error };
}

function InvoiceTable({ list }: { list: InvoiceInfo[] }) {
  const { t, i18n } = useTranslation('invoices');
  if (!list.length) return <Empty description={t('index.empty')} />;
  return (
    <Table
      rowKey="invoiceId"
      {...LIST_TABLE}
      dataSource={list}
      columns={[
        { title: t('invoice.id'), dataIndex: 'invoiceId', render: (id: string) => <Link to={`/invoice/detail?invoiceId=${id}`}>{id}</Link> },
        { title: t('title.name'), render: (_: unknown, r: InvoiceInfo) => r.title.name },
        { title: t('invoice.amount'), render: (_: unknown, r: InvoiceInfo) => `${r.amount} ${r.currency}` },
        { title: t('invoice.status'), dataIndex: 'status', render: (s: number) => <StatusTag status={s} /> },
        { title: t('invoice.createdAt'), dataIndex: 'createdAt', render: (v: number) => formatTime(v, i18n.language) },
      ]}
    />
  );
}

function NotMember() {
  const { t } = useTranslation('invoices');
  const { reload } = useInvoiceState();
  const [name, setName] = useState('');
  const [taxId, setTaxId] = useState('');
  const { run, busy, error } = useCall();
  return (
    <>
      <Alert type="info" showIcon message={t('company.none')} data-testid="invoice-no-company" />
      {/* or create one's own company and be its admin */}
      <section className="invoice-row" style={{ marginTop: 12 }} data-testid="company-create">
        <Input style={{ maxWidth: 260 }} placeholder={t('company.createName')} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        <Input style={{ maxWidth: 200 }} placeholder={t('company.createTaxId')} value={taxId} maxLength={64} onChange={(e) => setTaxId(e.target.value)} />
        <Button type="primary" loading={busy} disabled={!name.trim()} onClick={async () => (await run(() => invoicesApi.createCompany(name.trim(), taxId.trim()))) && void reload()}>
          {t('company.create')}
        </Button>
      </section>
      {error}
    </>
  );
}

/** Needs a company; renders `children` once the company is known. */
function MembersOnly({ children }: { children: ReactNode }) {
  const { loaded, company } = useInvoiceState();
  if (!loaded) return null;
  return company ? <>{children}</> : <NotMember />;
}

function Members() {
  const { t } = useTranslation('invoices');
  const [members, setMembers] = useState<CompanyMember[]>([]);
  const [email, setEmail] = useState('');
  const [may, setMay] = useState(false);
  const [sent, setSent] = useState(false);
  const { run, busy, error } = useCall();
  const load = useCallback(() => run(async () => setMembers((await invoicesApi.members()).members)), [run]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section data-testid="company-members">
      <h3>{t('company.members')}</h3>
      {error}
      <div className="invoice-row" style={{ marginBottom: 8 }}>
        <Input style={{ maxWidth: 260 }} placeholder={t('company.inviteEmail')} value={email} onChange={(e) => setEmail(e.target.value)} />
        <Checkbox checked={may} onChange={(e) => setMay(e.target.checked)}>
          {t('company.mayInvoice')}
        </Checkbox>
        <Button loading={busy} onClick={async () => (await run(() => invoicesApi.invite(email, may))) && (setSent(true), setEmail(''), void load())}>
          {t('company.invite')}
        </Button>
        {sent && <span>{t('company.invited')}</span>}
      </div>
      <Table
        rowKey="memberId"
        {...LIST_TABLE}
        dataSource={members}
        columns={[
          { title: t('company.inviteEmail'), dataIndex: 'email' },
          { title: t('company.role'), dataIndex: 'role', render: (r: string) => t(`company.role.${r}`) },
          { title: t('invoice.status'), dataIndex: 'status', render: (s: string) => t(`company.status.${s}`) },
          { title: t('company.mayInvoice'), render: (_: unknown, m: CompanyMember) => <Switch size="small" checked={m.mayInvoice} disabled={m.role === 'admin'} onChange={(v) => void run(() => invoicesApi.setMayInvoice(m.memberId, v)).then(load)} /> },
        ]}
      />
    </section>
  );
}

/** /invoice/index: the company, an invitation to accept (?acceptInvite=), my invoices and the start. */
export function InvoiceIndex() {
  const { t } = useTranslation('invoices');
  const { loaded, company, reload } = useInvoiceState();
  const [params, setParams] = useSearchParams();
  const [accepted, setAccepted] = useState(false);
  const { run, error } = useCall();
  const token = params.get('acceptInvite');
  useEffect(() => {
    if (!token) return;
    void run(async () => {
      await invoicesApi.accept(token);
      setAccepted(true);
      setParams({}, { replace: true });
      await reload();
    });
  }, [token, run, reload, setParams]);
  const { list, error: listError } = useInvoices();
  return (
    <div>
      <h2>{t('nav.index')}</h2>
      {error}
      {accepted && <Alert type="success" showIcon message={t('company.accepted')} style={{ marginBottom: 12 }} />}
      {loaded && !company && <NotMember />}
      {company && (
        <>
          <Descriptions size="small" column={1} bordered data-testid="invoice-company">
            <Descriptions.Item label={t('company.name')}>{company.companyName}</Descriptions.Item>
            <Descriptions.Item label={t('company.role')}>{t(`company.role.${company.role}`)}</Descriptions.Item>
            <Descriptions.Item label={t('company.mayInvoice')}>{company.mayInvoice ? '✓' : '✗'}</Descriptions.Item>
          </Descriptions>
          <div style={{ margin: '12px 0' }}>
            <Link to="/invoice/create">
              <Button type="primary">{t('index.start')}</Button>
            </Link>
          </div>
          <h3>{t('index.recent')}</h3>
          {listError}
          {list && <InvoiceTable list={list.slice(0, 10)} />}
          {company.role === 'admin' && <Members />}
        </>
      )}
    </div>
  );
}

/** A page of explanation: a heading and the text (book, notice, lite-intro). */
function TextPage({ name, children }: { name: 'lite' | 'book' | 'notice'; children?: ReactNode }) {
  const { t } = useTranslation('invoices');
  return (
    <div>
      <h2>{t(`${name}.title`)}</h2>
      <p className="invoice-text">{t(`${name}.text`)}</p>
      {children}
    </div>
  );
}

/** /invoice/lite-intro: the light client's introduction. */
export function InvoiceLiteIntro() {
  const { t } = useTranslation('invoices');
  return (
    <TextPage name="lite">
      <Link to="/invoice/create">
        <Button type="primary">{t('lite.start')}</Button>
      </Link>
    </TextPage>
  );
}

/** /invoice/create: pick paid orders not yet invoiced, choose a title (remembered as the company header), request. */
export function InvoiceCreate() {
  const { t, i18n } = useTranslation('invoices');
  const navigate = useNavigate();
  const { header, chooseHeader } = useInvoiceState();
  const [orders, setOrders] = useState<InvoiceableOrder[]>([]);
  const [titles, setTitles] = useState<InvoiceTitle[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [titleId, setTitleId] = useState<string | undefined>();
  const [hint, setHint] = useState<string | null>(null);
  const { run, busy, error } = useCall();
  useEffect(() => {
    void run(async () => {
      const [o, ti] = await Promise.all([invoicesApi.orders(), invoicesApi.titles()]);
      setOrders(o.orders);
      setTitles(ti.titles);
    });
  }, [run]);
  // the saved header preselects its title while it still exists
  useEffect(() => {
    if (!titleId && header && titles.some((x) => x.titleId === header.titleId)) setTitleId(header.titleId);
  }, [header, titles, titleId]);
  const submit = async () => {
    if (!picked.length) return setHint(t('create.pickOrder'));
    if (!titleId) return setHint(t('create.pickTitle'));
    setHint(null);
    const r = await run(() => invoicesApi.create(picked, titleId));
    if (r) navigate(`/invoice/detail?invoiceId=${r.invoiceId}`);
  };
  return (
    <MembersOnly>
      <h2>{t('nav.create')}</h2>
      {error}
      {hint && <Alert type="warning" showIcon message={hint} style={{ marginBottom: 12 }} />}
      <h3>{t('create.orders')}</h3>
      {orders.length ? (
        <Table
          rowKey="orderId"
          {...LIST_TABLE}
          dataSource={orders}
          rowSelection={{ selectedRowKeys: picked, onChange: (keys) => setPicked(keys as string[]), getCheckboxProps: (o: InvoiceableOrder) => ({ disabled: o.invoiceStatus !== InvoiceStatus.NOT_INVOICED, name: o.orderId }) }}
          columns={[
            { title: t('order.plan'), dataIndex: 'planCode' },
            { title: t('order.amount'), render: (_: unknown, o: InvoiceableOrder) => `${o.payAmount} ${o.currency}` },
            { title: t('order.paidAt'), dataIndex: 'paidAt', render: (v: number | null) => (v ? formatTime(v, i18n.language) : '') },
            { title: t('order.invoiceStatus'), dataIndex: 'invoiceStatus', render: (s: number) => <StatusTag status={s} /> },
          ]}
        />
      ) : (
        <Empty description={t('create.noOrders')} />
      )}
      <h3>{t('create.title')}</h3>
      <div className="invoice-row">
        <Select
          style={{ minWidth: 240 }}
          data-testid="invoice-title-select"
          value={titleId}
          placeholder={t('create.pickTitle')}
          options={titles.map((x) => ({ value: x.titleId, label: `${x.name} (${x.taxId})` }))}
          onChange={(v: string) => {
            setTitleId(v);
            const ti = titles.find((x) => x.titleId === v);
            if (ti) chooseHeader({ companyName: ti.name, titleId: ti.titleId });
          }}
        />
        <Link to="/invoice/addTitle">{t('create.addTitle')}</Link>
      </div>
      <div style={{ marginTop: 16 }}>
        <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="invoice-submit">
          {t('create.submit')}
        </Button>
      </div>
    </MembersOnly>
  );
}

/** /invoice/title: the company's titles. */
export function InvoiceTitles() {
  const { t } = useTranslation('invoices');
  const { header, chooseHeader } = useInvoiceState();
  const [titles, setTitles] = useState<InvoiceTitle[] | null>(null);
  const { run, error } = useCall();
  const load = useCallback(() => run(async () => setTitles((await invoicesApi.titles()).titles)), [run]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <MembersOnly>
      <h2>{t('nav.title')}</h2>
      {error}
      <div style={{ marginBottom: 12 }}>
        <Link to="/invoice/addTitle">
          <Button type="primary">{t('title.add')}</Button>
        </Link>
      </div>
      {titles && !titles.length && <Empty description={t('title.empty')} />}
      {titles && titles.length > 0 && (
        <Table
          rowKey="titleId"
          {...LIST_TABLE}
          dataSource={titles}
          columns={[
            { title: t('title.name'), dataIndex: 'name' },
            { title: t('title.taxId'), dataIndex: 'taxId' },
            { title: t('title.address'), render: (_: unknown, x: InvoiceTitle) => [x.address, x.phone].filter(Boolean).join(' ') },
            { title: t('title.bank'), render: (_: unknown, x: InvoiceTitle) => [x.bank, x.account].filter(Boolean).join(' ') },
            {
              title: '',
              render: (_: unknown, x: InvoiceTitle) => (
                <Space>
                  <Link to={`/invoice/addTitle?titleId=${x.titleId}`}>{t('title.edit')}</Link>
                  <Popconfirm title={t('title.delete')} onConfirm={() => void run(async () => { await invoicesApi.deleteTitle(x.titleId); if (header?.titleId === x.titleId) chooseHeader(null); }).then(load)}>
                    <Button size="small" type="link" danger>
                      {t('title.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
    </MembersOnly>
  );
}

const TITLE_FIELDS = ['name', 'taxId', 'address', 'phone', 'bank', 'account'] as const;

/** /invoice/addTitle (?titleId= edits one). */
export function InvoiceAddTitle() {
  const { t } = useTranslation('invoices');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const titleId = params.get('titleId') ?? undefined;
  const [form] = Form.useForm();
  const { run, busy, error } = useCall();
  useEffect(() => {
    if (!titleId) return;
    void run(async () => {
      const found = (await invoicesApi.titles()).titles.find((x) => x.titleId === titleId);
      if (found) form.setFieldsValue(found);
    });
  }, [titleId, run, form]);
  return (
    <MembersOnly>
      <h2>{titleId ? t('title.edit') : t('title.add')}</h2>
      {error}
      <Form
        form={form}
        layout="vertical"
        className="invoice-form"
        onFinish={async (v) => {
          if (await run(() => invoicesApi.saveTitle({ ...v, titleId }))) navigate('/invoice/title');
        }}
      >
        {TITLE_FIELDS.map((f) => (
          <Form.Item key={f} name={f} label={t(`title.${f}`)} rules={f === 'name' || f === 'taxId' ? [{ required: true, whitespace: true, message: t('title.required') }] : []} initialValue="">
            <Input data-testid={`title-${f}`} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={busy} data-testid="title-save">
          {t('title.save')}
        </Button>
      </Form>
    </MembersOnly>
  );
}

/** /invoice/record: every invoice, filtered by status. */
export function InvoiceRecord() {
  const { t } = useTranslation('invoices');
  const [status, setStatus] = useState<number | undefined>();
  const { list, error } = useInvoices(status);
  return (
    <MembersOnly>
      <h2>{t('nav.record')}</h2>
      {error}
      <Radio.Group size="small" value={status ?? 0} onChange={(e) => setStatus(e.target.value || undefined)} style={{ marginBottom: 12, display: 'flex', flexWrap: 'wrap' }}>
        <Radio.Button value={0}>{t('record.all')}</Radio.Button>
        {[1, 2, 3, 4, 5].map((s) => (
          <Radio.Button key={s} value={s}>
            {t(`status.${INVOICE_STATUS_NAMES[s as InvoiceStatusCode]}`)}
          </Radio.Button>
        ))}
      </Radio.Group>
      {list && <InvoiceTable list={list} />}
    </MembersOnly>
  );
}

function useInvoice() {
  const [params] = useSearchParams();
  const invoiceId = params.get('invoiceId') ?? '';
  const [inv, setInv] = useState<InvoiceInfo | null>(null);
  const call = useCall();
  useEffect(() => {
    // no invoice chosen (the address typed by hand): the page sends the user to the records instead of asking
    if (invoiceId) void call.run(async () => setInv(await invoicesApi.detail(invoiceId)));
  }, [invoiceId, call.run]);
  return { invoiceId, inv, setInv, ...call };
}

function InvoiceFacts({ inv }: { inv: InvoiceInfo }) {
  const { t, i18n } = useTranslation('invoices');
  return (
    <Descriptions size="small" column={1} bordered data-testid="invoice-detail">
      <Descriptions.Item label={t('invoice.id')}>{inv.invoiceId}</Descriptions.Item>
      <Descriptions.Item label={t('invoice.status')}>
        <StatusTag status={inv.status} />
      </Descriptions.Item>
      {inv.reason && <Descriptions.Item label={t('invoice.reason')}>{inv.reason}</Descriptions.Item>}
      <Descriptions.Item label={t('invoice.amount')}>{`${inv.amount} ${inv.currency}`}</Descriptions.Item>
      <Descriptions.Item label={t('title.name')}>{inv.title.name}</Descriptions.Item>
      <Descriptions.Item label={t('title.taxId')}>{inv.title.taxId}</Descriptions.Item>
      {(inv.title.address || inv.title.phone) && <Descriptions.Item label={t('title.address')}>{[inv.title.address, inv.title.phone].filter(Boolean).join(' ')}</Descriptions.Item>}
      {(inv.title.bank || inv.title.account) && <Descriptions.Item label={t('title.bank')}>{[inv.title.bank, inv.title.account].filter(Boolean).join(' ')}</Descriptions.Item>}
      <Descriptions.Item label={t('invoice.orders')}>{inv.orderIds.join(', ')}</Descriptions.Item>
      <Descriptions.Item label={t('invoice.requester')}>{inv.requesterEmail}</Descriptions.Item>
      <Descriptions.Item label={t('invoice.createdAt')}>{formatTime(inv.createdAt, i18n.language)}</Descriptions.Item>
    </Descriptions>
  );
}

/** /invoice/detail?invoiceId=: the invoice, its PDF when issued, the re-issue link when issued or failed. */
export function InvoiceDetail() {
  const { t } = useTranslation('invoices');
  const { invoiceId, inv, run, busy, error } = useInvoice();
  if (!invoiceId) return <Navigate to="/invoice/record" replace />;
  return (
    <MembersOnly>
      <h2>{t('invoice.detail')}</h2>
      {error}
      {inv && (
        <>
          <InvoiceFacts inv={inv} />
          <Space style={{ marginTop: 16 }} wrap>
            {inv.hasPdf && inv.status === InvoiceStatus.INVOICED && (
              <Button type="primary" loading={busy} data-testid="invoice-download" onClick={() => void run(async () => window.location.assign((await invoicesApi.download(inv.invoiceId)).url))}>
                {t('invoice.download')}
              </Button>
            )}
            {(inv.status === InvoiceStatus.INVOICED || inv.status === InvoiceStatus.FAILED) && (
              <Link to={`/invoice/reCreate?invoiceId=${inv.invoiceId}`}>
                <Button>{t('invoice.reCreate')}</Button>
              </Link>
            )}
          </Space>
        </>
      )}
    </MembersOnly>
  );
}

/** /invoice/reCreate?invoiceId=: confirm asking the operator to issue it again. */
export function InvoiceReCreate() {
  const { t } = useTranslation('invoices');
  const navigate = useNavigate();
  const { invoiceId, inv, run, busy, error } = useInvoice();
  if (!invoiceId) return <Navigate to="/invoice/record" replace />;
  return (
    <MembersOnly>
      <h2>{t('invoice.reCreate')}</h2>
      {error}
      {inv && (
        <>
          <p>{t('invoice.reCreateConfirm')}</p>
          <InvoiceFacts inv={inv} />
          <Button
            type="primary"
            style={{ marginTop: 16 }}
            loading={busy}
            data-testid="invoice-recreate"
            onClick={async () => {
              if (await run(() => invoicesApi.reCreate(inv.invoiceId))) navigate(`/invoice/detail?invoiceId=${inv.invoiceId}`);
            }}
          >
            {t('invoice.reCreate')}
          </Button>
        </>
      )}
    </MembersOnly>
  );
}

/** /invoice/book: the invoice rules. */
export const InvoiceBook = () => <TextPage name="book" />;

/** /invoice/notice: notes. */
export const InvoiceNotice = () => <TextPage name="notice" />;
