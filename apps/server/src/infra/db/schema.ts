import type { ColumnType, Generated } from 'kysely';

/**
 * The one database schema (SQLite and PostgreSQL). Times are epoch milliseconds (bigint in
 * PostgreSQL, read back as number by the pg type parser set in db.ts); booleans are 0/1 integers so
 * both dialects agree. Ids are random strings (see `newId()`).
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  call_secrets: CallSecretsTable;
  signed_nonces: SignedNoncesTable;
  blobs: BlobsTable;
  items: ItemsTable;
  upload_sessions: UploadSessionsTable;
  zip_tasks: ZipTasksTable;
  jobs: JobsTable;
  mail_outbox: MailOutboxTable;
  sso_accounts: SsoAccountsTable;
  sso_reset_tokens: SsoResetTokensTable;
  sso_attempts: SsoAttemptsTable;
  oidc_payloads: OidcPayloadsTable;
  fonts: FontsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  group_invitations: GroupInvitationsTable;
  group_shares: GroupSharesTable;
  shares: SharesTable;
  share_items: ShareItemsTable;
  share_extract_clients: ShareExtractClientsTable;
  share_extract_budget: ShareExtractBudgetTable;
  share_extract_challenges: ShareExtractChallengesTable;
  mail_send_counts: MailSendCountsTable;
  feedback: FeedbackTable;
  feedback_counts: MailSendCountsTable;
  public_likes: PublicLikesTable;
  public_collections: PublicCollectionsTable;
  public_messages: PublicMessagesTable;
  file_versions: FileVersionsTable;
  drawing_pictures: DrawingPicturesTable;
  thumbnail_variants: ThumbnailVariantsTable;
  drawing_failures: DrawingFailuresTable;
  file_locks: FileLocksTable;
  installation_secrets: InstallationSecretsTable;
  conversions: ConversionsTable;
  model3d_conversions: Model3dConversionsTable;
  membership_plans: MembershipPlansTable;
  entitlements: EntitlementsTable;
  orders: OrdersTable;
  payment_events: PaymentEventsTable;
  sandbox_payments: SandboxPaymentsTable;
  exchange_codes: ExchangeCodesTable;
  ad_slots: AdSlotsTable;
  companies: CompaniesTable;
  company_members: CompanyMembersTable;
  invoice_titles: InvoiceTitlesTable;
  invoices: InvoicesTable;
  invoice_orders: InvoiceOrdersTable;
  invoice_order_claims: InvoiceOrderClaimsTable;
}

/** An exchange code (migration 20261127T230200-exchange-codes; modules/exchange-codes): only its hash is stored. */
export interface ExchangeCodesTable {
  id: string;
  /** SHA-256 hex of the normalised code (upper case, no spaces or dashes) */
  code_hash: string;
  /** the code's last 4 characters, for the masked display */
  last4: string;
  batch_id: string;
  plan_code: string;
  periods: number;
  /** ExchangeCodeStatus: 0 not used, 1 exchanged, 2 expired, 3 void */
  status: number;
  expires_at: number | null;
  redeemed_by: string | null;
  redeemed_at: number | null;
  order_id: string | null;
  created_at: number;
}

/** An operator-managed ad slot (migration 20261127T230400-ads; modules/ads). */
export interface AdSlotsTable {
  slot: string;
  image_url: string;
  link_url: string;
  title: string;
  updated_at: number;
}

/** A company (migration 20261127T230800-companies-invoices; modules/invoices). */
export interface CompaniesTable {
  id: string;
  name: string;
  tax_id: string | null;
  created_at: number;
}

/** One invited e-mail of a company: invited → active (uid set) when accepted. */
export interface CompanyMembersTable {
  id: string;
  company_id: string;
  uid: string | null;
  /** admin | member */
  role: string;
  may_invoice: number;
  invited_email: string;
  /** invited | active */
  status: string;
  created_at: number;
}

/** A company's invoice title (company header). */
export interface InvoiceTitlesTable {
  id: string;
  company_id: string;
  name: string;
  tax_id: string;
  address: string;
  phone: string;
  bank: string;
  account: string;
  created_at: number;
}

/** One invoice request; status 1–5 (spec section 4) moves only through invoice-state.ts. */
export interface InvoicesTable {
  id: string;
  company_id: string;
  uid: string;
  status: number;
  /** JSON of the title's fields when requested */
  title: string;
  currency: string;
  amount_minor: number;
  reason: string | null;
  pdf_key: string | null;
  created_at: number;
  updated_at: number;
  issued_at: number | null;
}

/** The orders an invoice covers (kept after a void). */
export interface InvoiceOrdersTable {
  invoice_id: string;
  order_id: string;
}

/** An order on a live (not voided) invoice: at most one (primary key order_id). */
export interface InvoiceOrderClaimsTable {
  order_id: string;
  invoice_id: string;
}

/** One version of a catalog plan (migration 20261127T193000-membership; modules/membership). Never updated: an edit adds a version. */
export interface MembershipPlansTable {
  code: string;
  version: number;
  kind: string;
  /** JSON of membership.catalog.ts PlanDefinition */
  definition: string;
  created_at: number;
}

/** One purchase (migration 20261127T230100-orders; modules/orders). Status 0–7 (spec section 4) moves only through order-state.ts. */
export interface OrdersTable {
  id: string;
  uid: string;
  plan_code: string;
  plan_version: number;
  plan_kind: string;
  status: number;
  pay_status: number;
  /** OrderType: 1 first, 3 renewal (the user has or had an entitlement of the plan's kind) */
  order_type: number;
  pay_way: number | null;
  /** the provider serving the pay way when the order was made: sandbox | alipay | wechat */
  provider: string;
  /** qr | redirect */
  mode: string;
  currency: string;
  amount_minor: number;
  pay_amount_minor: number;
  provider_trade_id: string | null;
  client_type: number;
  created_at: number;
  paid_at: number | null;
  /** an unpaid order times out here (status 7) */
  expires_at: number;
  service_ends_at: number | null;
  queried_at: number | null;
  note: string | null;
}

/** A provider event applied once (unique provider + event_id), in the transaction of the status change it caused. */
export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  order_id: string;
  kind: string;
  amount_minor: number;
  currency: string;
  outcome: string;
  received_at: number;
}

/** The sandbox provider's own ledger (what a real provider keeps on its side). */
export interface SandboxPaymentsTable {
  order_id: string;
  amount_minor: number;
  currency: string;
  subject: string;
  mode: string;
  /** open | paid | declined | closed | refunded */
  state: string;
  trade_id: string;
  return_url: string;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

/** One granted period of a plan (modules/membership entitlements.repository.ts): active while starts_at <= now < ends_at. */
export interface EntitlementsTable {
  id: string;
  uid: string;
  plan_code: string;
  plan_version: number;
  kind: string;
  storage_bytes: number;
  starts_at: number;
  ends_at: number;
  /** 'trial' | 'admin' | 'order' | 'code'; with source_id unique: a grant is applied once */
  source: string;
  source_id: string;
  created_at: number;
}

/** A requested 3D conversion to GLB (migration 20261127T120000-model3d; modules/model3d). */
export interface Model3dConversionsTable {
  id: string;
  uid: string;
  source_id: string;
  source_name: string;
  /** the source's bytes when requested: the GLB is stored per md5 */
  source_md5: string;
  /** TRANSFORM_STATUS: 0 converting, 1 done, 2 failed */
  state: number;
  progress: Generated<number>;
  stage: string;
  /** 1 when it spends one of the user's free trials (not a super member); a failed one spends nothing */
  trial: Generated<number>;
  /** JSON of the model's ModelStats once converted */
  stats: string | null;
  error: string | null;
  /** JSON array of the error message's numbers (migration 20261127T192000-model3d-error-args) */
  error_args: string | null;
  detail: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** the digest of the files converted beside the model (an OBJ's MTL and textures …), null when none (migration 20261127T192000) */
  companions: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of the [written name, md5 | null] files looked for beside the model when converted (migration 20261127T230500) */
  companion_refs: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A requested conversion (migration 20261127T090000-conversions; modules/conversions). */
export interface ConversionsTable {
  id: string;
  uid: string;
  /** the source file (items.id) */
  source_id: string;
  source_name: string;
  /** the source's bytes when requested: repeated failures are counted per content */
  source_md5: string;
  target: string;
  version: string | null;
  /** JSON of the conversion options */
  options: string;
  /** TRANSFORM_STATUS: 0 converting, 1 done, 2 failed */
  state: number;
  progress: Generated<number>;
  stage: string;
  result_id: string | null;
  /** error code of a failed conversion */
  error: string | null;
  detail: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** The signing secrets every process shares (migration 20261127T063500-installation-secrets; infra/secrets.ts). */
export interface InstallationSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** Who changes a file's versions now, across processes (migration 20261127T063000-file-locks; modules/versions/file-lock.ts). */
export interface FileLocksTable {
  item_id: string;
  /** a random id of the holding call */
  owner: string;
  /** epoch ms; renewed while held, taken over after it passes (the holder died) */
  expires_at: number;
}

export interface UsersTable {
  id: string;
  /** subject from the OpenID Connect provider */
  sso_sub: string;
  email: string;
  name: string;
  vip_type: number;
  /** bytes; the spec's free tier default comes from config STORAGE_DEFAULT_QUOTA */
  storage_quota: number;
  /** bytes of private, non-trashed and trashed files (trash still counts until emptied) */
  storage_used: number;
  /** bytes held by the user's open upload sessions (the sum of their upload_sessions.reserved); count against the quota */
  storage_reserved: Generated<number>;
  /** 0 UnFreeze, 1 Freeze (section 4) */
  freeze: number;
  /** bumped by every change to the user's items: list answers are cached per revision */
  drive_rev: Generated<number>;
  created_at: number;
  /** set while an operator has disabled the account (no session resolves, none is made); null when enabled */
  disabled_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** when the account last became frozen; null while not frozen (migration 20261127T230300-freeze; modules/freeze) */
  frozen_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** the warning mail a week before the 3-month purge was sent at */
  purge_warned_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** the one-time free unfreeze (registered before 2017-10) keeps the account unfrozen until then */
  free_unfreeze_until: ColumnType<number | null, number | null | undefined, number | null>;
  /** the free unfreeze was taken then (once per account) */
  free_unfreeze_used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SessionsTable {
  /** sha256 of the ticket; the ticket itself is only in the cookie / utoken */
  ticket_hash: string;
  user_id: string;
  client_type: string;
  created_at: number;
  expires_at: number;
}

/** Call style 4's secret of a session (20261127T230600-call-styles), encrypted with the installation's key. */
export interface CallSecretsTable {
  ticket_hash: string;
  secret_enc: string;
  created_at: number;
  expires_at: number;
}

/** Signed requests (call style 3) already seen: a replay within the date window is refused. */
export interface SignedNoncesTable {
  nonce: string;
  expires_at: number;
}

export interface BlobsTable {
  /** hex MD5 of the content: the identity for instant upload (detectUpload) */
  md5: string;
  size: number;
  storage_key: string;
  ref_count: number;
  created_at: number;
}

/**
 * The pictures a drawing blob's IMAGEs name (migration 20261123T150000-drawing-pictures; modules/thumbnails): one
 * row per lower-cased base name, gone with the blob.
 */
export interface DrawingPicturesTable {
  blob_md5: string;
  /** lower-cased base name as the drawing writes it ('aerial.jpg') */
  name: string;
  /** the name a picture file must have without its extension to be found for it (drawings/picture-finder.ts) */
  stem: string;
}

/** A stored thumbnail drawn with an owner's pictures, so it can be deleted once nobody shows it or its blob goes. */
/** A scene build that failed (migrations/20261127T050000-drawing-failures.ts) */
export interface DrawingFailuresTable {
  blob_md5: string;
  engine: string;
  /** lower-cased layout name, or '*' when the drawing cannot be read at all */
  layout: string;
  /** SceneBuildError kind: parse, tooComplex, timeout, crash */
  kind: string;
  detail: string | null;
  failed_at: number;
}

export interface ThumbnailVariantsTable {
  /** `v1-<md5>-p<pictures>.png` */
  thumbkey: string;
  blob_md5: string;
}

export interface ItemsTable {
  id: string;
  uid: string;
  /** '0' is the root folder */
  parent_id: string;
  /** 0 Folder, 1 File */
  kind: number;
  name: string;
  /** lower-case extension for files ('dwg'), 'folder' for folders */
  type: string;
  size: number;
  blob_md5: string | null;
  version: number;
  descp: string;
  private_type: string;
  freeze: number;
  thumbkey: string | null;
  transform_status: number;
  browse_count: number;
  like_count: number;
  collection_count: number;
  leave_message_count: number;
  created_at: number;
  modified_at: number;
  /** set when in the recycle bin */
  deleted_at: number | null;
  /** id of the item the user deleted (the top of a deleted subtree); equals id for that item */
  trash_root: string | null;
  /** parent at deletion time, for restore */
  trash_parent_id: string | null;
  // also `published_at` (migration 20261123T142500-public-library): typed in ItemsPublicationColumns below, read and
  // written only by modules/library, so rows built elsewhere need not name it
}

export interface UploadSessionsTable {
  id: string;
  uid: string;
  parent_id: string;
  name: string;
  size: number;
  md5: string;
  received: number;
  /** 'rename' | 'version' (uploads: what a name clash does); added by 20261123T144500-upload-conflict */
  conflict: Generated<string>;
  /** bytes of the quota this session holds (chunks reserved as they arrive); added by 20261127T050000-upload-reservations */
  reserved: Generated<number>;
  /** 'chunked' (a part file on our disk) | 'direct' (a presigned PUT to S3) */
  kind: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface ZipTasksTable {
  id: string;
  uid: string;
  /** 1 download, 2 unzip */
  task_type: number;
  /** 0 BEFORE, 1 IN, 2 SUCCESS, 3 FAIL, 4 LOCK, 5 PASSWORD_ERR, 6 PASSWORD_LOADING */
  status: number;
  /** canonical JSON of {fileIds, folderIds} to reject duplicates */
  request_key: string;
  name: string;
  progress: number;
  result_key: string | null;
  result_size: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  // decompression tasks (task_type 2, modules/unzip); null or 0 on downloads
  /** the archive being decompressed */
  archive_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** the folder being filled, once extraction started */
  folder_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 'new': into a renamed folder when one of the archive's name exists */
  unzip_mode: ColumnType<string | null, string | null | undefined, string | null>;
  format: ColumnType<string | null, string | null | undefined, string | null>;
  entries_done: ColumnType<number, number | undefined, number>;
  entries_total: ColumnType<number, number | undefined, number>;
  bytes_done: ColumnType<number, number | undefined, number>;
  bytes_total: ColumnType<number, number | undefined, number>;
  /** JSON: the first 200 name reports (unzipEntryReportSchema) */
  reports: ColumnType<string | null, string | null | undefined, string | null>;
  /** AES-GCM with the installation's 'unzip-password' secret; null once the task ends */
  password_enc: ColumnType<string | null, string | null | undefined, string | null>;
  /** quota added to storage_used for the listed total before writing, settled when the task ends */
  reserved: ColumnType<number, number | undefined, number>;
  /** the asking user's clientInfo.language ("ko-KR"): a zip's legacy names may be EUC-KR or Shift-JIS */
  names_language: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface JobsTable {
  id: string;
  name: string;
  payload: string;
  /** waiting | active | completed | failed */
  state: string;
  run_at: number;
  attempts: number;
  max_attempts: number;
  progress: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  result: string | null;
  created_at: number;
  updated_at: number;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_addr: string;
  subject: string;
  text: string;
  html: string | null;
  /** stored | sent | failed */
  status: string;
  error: string | null;
  created_at: number;
}

export interface SsoAccountsTable {
  id: string;
  email: string;
  name: string;
  /** scrypt$N$r$p$salt$hash */
  password_hash: string;
  created_at: number;
}

export interface SsoAttemptsTable {
  id: string;
  key: string;
  at: number;
}

export interface SsoResetTokensTable {
  token_hash: string;
  account_id: string;
  expires_at: number;
  used_at: number | null;
}

export interface OidcPayloadsTable {
  id: string;
  type: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

/** The user's font library (migration 20261123T120000-fonts). */
export interface FontsTable {
  id: string;
  uid: string;
  /** with its extension, as the user sees it ('txt.shx') */
  name: string;
  /** lower-cased name: drawings name fonts in any case */
  name_key: string;
  /** 'ttf' | 'ttc' | 'shx' */
  type: string;
  size: number;
  blob_md5: string;
  /** spec section 9 code page: 1, 38, 39, 40, 41, 42, 1200 */
  codepage: number;
  is_bold: number;
  is_italic: number;
  /** 1 for an SHX big font (the "sub font" of a text style) */
  is_subfont: number;
  /** 1 when published: every user's drawings may use it */
  is_public: number;
  published_at: number | null;
  created_at: number;
  modified_at: number;
  /** set while in the font recycle bin */
  deleted_at: number | null;
}

/** Shares (migration 20261123T140500-shares; modules/shares). */
export interface SharesTable {
  id: string;
  /** random part of every share address (≥ 16 url-safe chars) */
  rand: string;
  /** the sharer */
  uid: string;
  /** link | easy | email | group */
  kind: string;
  group_id: string | null;
  /** extraction code: 4 or 6 digits, or 8 letters/digits (contracts share-extraction.ts) */
  code: string;
  /** '' or 4 letters/digits */
  password: string;
  /** 0: never expires */
  valid_days: number;
  created_at: number;
  /** null when valid_days is 0 */
  expires_at: number | null;
  cancelled_at: number | null;
  can_download: number;
  can_save: number;
  show_notes: number;
}

export interface ShareItemsTable {
  share_id: string;
  item_id: string;
  /** 0 folder, 1 file */
  kind: number;
}

/** Wrong extraction codes of one client (IPv4 address, IPv6 /64) on one share (migration 20261126T120000-share-guards). */
export interface ShareExtractClientsTable {
  share_id: string;
  client: string;
  failures: number;
  /** epoch ms: the client's next attempt is answered from then on (exponential backoff; a short hold while one runs) */
  next_at: number;
  last_failure_at: number;
}

/** A share's wrong codes from everyone in the current window and the one before (proof-of-work difficulty). */
export interface ShareExtractBudgetTable {
  share_id: string;
  window_start: number;
  failures: number;
  prev_failures: number;
}

/** Proof-of-work challenges already used: each proves one extraction attempt. Kept until they expire. */
export interface ShareExtractChallengesTable {
  id: string;
  share_id: string;
  expires_at: number;
}

/** Share e-mails (messages) a user sent in the current hour / day. */
export interface MailSendCountsTable {
  uid: string;
  /** 'hour' | 'day' */
  period: string;
  window_start: number;
  sent: number;
}

/** A group (migration 20261123T141000-groups; spec section 3, Group: members count, introduction). */
export interface GroupsTable {
  id: string;
  name: string;
  introduction: string;
  owner_uid: string;
  created_at: number;
  modified_at: number;
}

/** One member of a group; the owner is a member with role 'owner'. */
export interface GroupMembersTable {
  group_id: string;
  uid: string;
  /** 'owner' | 'member' */
  role: string;
  joined_at: number;
}

/** An invitation link: whoever is signed in and opens it before it expires joins the group. */
export interface GroupInvitationsTable {
  /** sha256 (hex) of the token; the token is only in the link */
  token_hash: string;
  group_id: string;
  created_by: string;
  created_at: number;
  expires_at: number;
}

/** A share of kind 'group' (shares module) sent to a group (migration 20261123T143500-group-shares). */
export interface GroupSharesTable {
  group_id: string;
  share_id: string;
  sharer_uid: string;
  created_at: number;
}

/** Version history of a file (migration 20261123T141500-file-versions). Each live row holds one blob reference. */
export interface FileVersionsTable {
  id: string;
  /** the file (items.id) */
  item_id: string;
  /** the file's owner */
  uid: string;
  /** V<number>, 1-based, never reused */
  number: number;
  blob_md5: string;
  size: number;
  /** file name the bytes arrived with */
  source_name: string;
  updater_uid: string;
  updater_name: string;
  /** VERSION_REMARK_TYPES: 1 create drawing, 2 overwrite upload, 3 rollback from Vx, 4 merged from VxZx, 5 online edit */
  remark_type: number;
  /** the x of "rollback from Vx" ('1'), or "x,z" of "merged from VxZx" */
  remark_from: string | null;
  /** the user's own remark (version/updateRemark) */
  remark: string;
  description: string;
  /** rollback: the version restored; copy: the cloud file copied */
  relation_id: string | null;
  /** 0 none, 1 version, 2 cloud file */
  relation_type: number;
  created_at: number;
  deleted_at: number | null;
}

/** items.published_at (migration 20261123T142500-public-library): when it was made public; null while private. */
export interface ItemsPublicationColumns {
  published_at: number | null;
}

/** Public library (migration 20261123T142500-public-library; modules/library): one like per (file, user). */
export interface PublicLikesTable {
  file_id: string;
  uid: string;
  created_at: number;
}

/** One collection ("favourite") per (file, user). */
export interface PublicCollectionsTable {
  file_id: string;
  uid: string;
  created_at: number;
}

/** A message left on a public drawing. */
export interface PublicMessagesTable {
  id: string;
  file_id: string;
  uid: string;
  content: string;
  created_at: number;
}

/** Feedback sent through /cloud/v5/advice/add (modules/feedback); reply set when the operator answered by mail. */
export interface FeedbackTable {
  id: string;
  uid: string | null;
  email: string;
  content: string;
  page_url: string | null;
  screenshot_key: string | null;
  ip: string;
  language: string;
  created_at: number;
  reply: string | null;
  replied_at: number | null;
}
