import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

// Row types of the tables. Booleans are stored as 0/1 integers on both databases so that
// one set of queries serves SQLite and PostgreSQL; lists are JSON text.
type Bool = number;
type Json = string;
type Millis = number;

/** The firm's logo, apart from the firm row that every job reads (migration 053). */
export interface FirmLogoTable {
  firm_id: number;
  png: Buffer;
}

export interface FirmTable {
  id: Generated<number>;
  name: string;
  host_names: Json;
  signon_type: string;
  created_at: Millis;
  updated_at: Millis;
  max_case_deletions_on_import: number;
  default_daily_cadence_delivery_time: string;
  public_document_access: Bool;
  manually_process_notices: Bool;
  manual_process_emails: Json;
  store_notice_as_docket_text: Bool;
  max_email_attachment_size: number;
  primary_color: string;
  secondary_color: string;
  default_delivery_method: string;
  default_notification_cadence: string;
  internal_walls_enabled: Bool;
  storage_policy_hierarchy: Json;
  storage_policy_id: string | null;
  internal_walls_state: string;
  prefers_combined_documents: Bool;
  default_email_template_id: string | null;
  additional_receipt_emails: Json;
  error_notification_emails: Json;
  error_notification_level: string;
  ignored_case_statuses: Json;
  reply_to_email: string;
  wait_for_dms_attempt_to_notify: Bool;
  case_not_found_report_emails: Json;
  web_preferences: string;
  default_time_zone: string;
  dms_failure_report_emails: Json;
  import_warning_threshold: number;
  /** Largest import file, bytes. */
  max_import_size: Generated<number>;
  entitled_features: Json;
  accepted_email_domains: Json;
  ignored_email_domains: Json;
  /** Addresses and domains the firm counts as courts or e-filing providers (decision 092). */
  court_mail_senders: Json;
  extract_document_web_links: Bool;
  minutes_saved_per_notice: number;
  /** Hours after a tracked case's docket entry within which its e-mail notice is expected. */
  missed_notice_hours: Generated<number>;
  missed_notice_report_emails: Generated<Json>;
  is_default: Bool;
  /** Until when the error recipients have been told of the firm's events (0: not yet). */
  error_reported_until: Millis;
  /** Bumped by every change of the firm's dictionary: a kept copy of its words is stale when it differs. */
  dictionary_version: Generated<number>;
}

/** One entry of the catalogue in a firm's own words. */
export interface DictionaryEntryTable {
  firm_id: number;
  namespace: string;
  key: string;
  value: string;
  updated_at: Millis;
  updated_by: string;
}

export interface SecurityRoleTable {
  id: string;
  firm_id: number;
  name: string;
  is_system_defined: Bool;
  permissions: Json;
  created_at: Millis;
  updated_at: Millis;
}

export interface UserTable {
  id: string;
  firm_id: number;
  email: string;
  full_name: string;
  display_name: string;
  timekeeper_id: string | null;
  security_role_id: string;
  password_hash: string;
  token_version: number;
  created_at: Millis;
  updated_at: Millis;
}

export interface RefreshTokenTable {
  token_hash: string;
  family_id: string;
  user_id: string;
  firm_id: number;
  issued_at: Millis;
  expires_at: Millis;
  rotated_at: Millis | null;
  revoked_at: Millis | null;
  /** The single sign-on session the sign-in started (decision 099), carried through refreshes. */
  sso_session_id: Generated<string | null>;
}

export interface FirmSsoTable {
  firm_id: number;
  idp_entity_id: Generated<string>;
  idp_sso_url: Generated<string>;
  idp_slo_url: Generated<string>;
  /** JSON list of PEM certificates: several while the identity provider rolls its key over. */
  idp_certificates: Generated<string>;
  idp_metadata_url: Generated<string>;
  /** Sealed by the secret box. */
  sp_private_key: string;
  sp_certificate: string;
  /** Empty: the NameID is the user's e-mail address. */
  email_attribute: Generated<string>;
  break_glass_user_id: Generated<string | null>;
  group_attribute: Generated<string>;
  /** JSON object: identity provider group → security role id. */
  group_roles: Generated<string>;
  updated_at: Millis;
  oidc_issuer: Generated<string>;
  oidc_client_id: Generated<string>;
  /** Sealed by the secret box. */
  oidc_client_secret: Generated<string | null>;
}

export interface SsoRequestTable {
  id: string;
  firm_id: number;
  data: string;
  expires_at: Millis;
}

export interface SsoSessionTable {
  id: string;
  firm_id: number;
  user_id: string;
  method: string;
  issuer: string;
  subject: string;
  subject_format: string;
  session_index: string;
  /** OpenID Connect: the ID token the sign-in received, named to the issuer at sign-out. */
  id_token: string | null;
  created_at: Millis;
  ended_at: Millis | null;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_start: Millis;
  locked_until: Millis | null;
}

export interface PasswordResetTable {
  token_hash: string;
  user_id: string;
  firm_id: number;
  expires_at: Millis;
  used_at: Millis | null;
  created_at: Millis;
}

export interface OutboundMailTable {
  id: string;
  firm_id: number | null;
  purpose: string;
  to_addresses: Json;
  subject: string;
  text_body: string;
  html_body: string;
  raw: string;
  transport: string;
  status: string;
  error: string | null;
  created_at: Millis;
  inbox_item_id: string | null;
  /** The Message-ID header, kept so a mail sent again after a crash is the same message. */
  message_id: string | null;
}

/** A notice one mail tells about (several for a digest or a report): walls over any of them hide the mail. */
export interface OutboundMailNoticeTable {
  outbound_mail_id: string;
  inbox_item_id: string;
  firm_id: number;
}

/** One signed-in API call: its route pattern (never the address with its ids) and how long it took. */
export interface ApiCallTimingTable {
  firm_id: number;
  method: string;
  route: string;
  ms: number;
  at: Millis;
}

export interface InboxAddressTable {
  address: string;
  firm_id: number;
  created_at: Millis;
}

export interface InboxItemTable {
  id: string;
  firm_id: number;
  created_at: Millis;
  updated_at: Millis;
  status: string;
  action_required: string;
  disposition: string;
  disposition_text: string;
  reason: string;
  source: string;
  source_type: string;
  raw_content: Buffer;
  raw_size: number;
  message_id: string | null;
  /** The envelope sender (SMTP MAIL FROM); empty for an upload. */
  sender: string;
  /** The address of the message's From header (migration 065); empty for messages received before. */
  from_address: Generated<string>;
  recipients: Json;
  subject: string;
  snippet: string;
  parsed: Json | null;
  /** PARSER_VERSION of the parser that wrote `parsed`; an older one means the message is parsed again. */
  parser_version: number | null;
  /** Court, docket and entry of the notice the item carries, to find it as the original of a quoted notice. */
  notice_key: string | null;
  /** The message's readable body (MessageBody as JSON), kept with `parsed`. */
  message_body: Json | null;
  docket_index: number | null;
  parent_id: string | null;
  duplicate_of_id: string | null;
  case_id: string | null;
  /** The jurisdiction preference that applied to the notice, if any. */
  jurisdiction_preference_id: string | null;
  dms_status: string;
  hidden: Bool;
  attempts: number;
}

export interface JobTable {
  id: string;
  kind: string;
  firm_id: number;
  ref_id: string;
  run_at: Millis;
  attempts: number;
  locked_until: Millis | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Millis;
}

export interface EventLogTable {
  id: string;
  firm_id: number;
  inbox_item_id: string | null;
  level: string;
  event: string;
  detail: string;
  created_at: Millis;
}

export interface EnvelopeTable {
  id: string;
  firm_id: number;
  inbox_item_id: string;
  case_id: string;
  ecfx_jurisdiction_id: string | null;
  name: string;
  date: string | null;
  court_envelope_id: string | null;
  filed_by: string;
  service_contacts: Json;
  docket_text: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface BlobTable {
  sha256: string;
  size: number;
  content_type: string;
  created_at: Millis;
}

export interface DocumentTable {
  id: string;
  firm_id: number;
  envelope_id: string;
  processed_from_id: string;
  number: number;
  name: string;
  date: string | null;
  sealed: Bool;
  court_document_id: string | null;
  url: string | null;
  file_id: string | null;
  fetch_status: string;
  fetch_error: string | null;
  uploaded: Bool;
  stamped_by_court: Bool;
  /** When an unstamped copy was first fetched for a firm that waits for the court's stamp. */
  stamp_wait_started_at: Millis | null;
  /** The title asked of the extraction provider: pending (filing waits), extracted or failed; null when not asked. */
  title_extraction: ColumnType<string | null, string | null | undefined, string | null>;
  title_extraction_error: ColumnType<string | null, string | null | undefined, string | null>;
  dms_status: string;
  created_at: Millis;
}

/** The firm-data tables the code reads with types (the generic module reads them untyped). */
export interface CourtCaseTable {
  id: string;
  firm_id: number;
  name: string;
  case_number: string;
  case_number_normalized: string;
  matter_id: string | null;
  jurisdiction_id: string | null;
  judge_id: string | null;
  status: string;
  description: string;
  caption: string;
  storage_policy_id: string | null;
  reference_id: string | null;
  unique_key: string | null;
  created_at: Millis;
  updated_at: Millis;
  auto_case_creation_id: string | null;
}

/** Firm-owned rows every entity table starts with. */
interface EntityColumns {
  id: string;
  firm_id: number;
  created_at: Millis;
  updated_at: Millis;
  reference_id: string | null;
  unique_key: string | null;
}

export interface EmailTemplateTable extends EntityColumns {
  name: string;
  template: string;
}

export interface TimekeeperGroupTable extends EntityColumns {
  name: string;
  delivery_method: string;
  notification_cadence: string;
  email_template_id: string | null;
  daily_cadence_delivery_time: string | null;
  receive_daily_activity_report: Bool;
  time_zone: string;
}

export interface GenericCredentialTable extends EntityColumns {
  name: string;
  field: string;
}

/** A vendor DMS credential (spec §3): secrets are stored sealed (server/auth/secret-box.ts); flags are 0/1. */
interface VendorCredentialColumns extends EntityColumns {
  name: string;
  folder_creation_sync_delay: ColumnType<number, number | undefined, number>;
}

interface IManageCredentialColumns extends VendorCredentialColumns {
  /** "password" or "authorization_code"; NULL reads as "password" (migration 066). */
  sign_in: string | null;
  username: string | null;
  password: string | null;
  client_id: string | null;
  client_secret: string | null;
  database: string | null;
  customer_id: number | null;
  folder_id: string | null;
  author_field: string | null;
  document_class: string | null;
  document_sub_class: string | null;
  default_security: string | null;
  matter_workspace_search: ColumnType<number, number | undefined, number>;
  matter_workspace_search_path: string | null;
  custom_properties: ColumnType<string, string | undefined, string>;
}

export interface IManageOnPremCredentialTable extends IManageCredentialColumns {
  base_url: string | null;
  use_agent: ColumnType<number, number | undefined, number>;
}

export interface IManageCloudCredentialTable extends IManageCredentialColumns {
  cloud_environment: string | null;
}

export interface NetDocumentsCloudCredentialTable extends VendorCredentialColumns {
  basic_auth: string | null;
  refresh_token: string | null;
  recent_access_token: string | null;
  cloud_environment: string | null;
  default_cabinet: string | null;
  author_field: string | null;
  /** Migration 067: file into the matter workspace of the filing's client and matter. */
  matter_workspaces: ColumnType<number, number | undefined, number>;
}

export interface NetDocumentsClientCredentialTable extends VendorCredentialColumns {
  client_id: string | null;
  client_secret: string | null;
  repository: string | null;
  default_cabinet: string | null;
  author_field: string | null;
  region: string | null;
  create_folders: ColumnType<number, number | undefined, number>;
  matter_workspaces: ColumnType<number, number | undefined, number>;
}

export interface SharePointCloudCredentialTable extends VendorCredentialColumns {
  client_id: string | null;
  client_secret: string | null;
  author_field: string | null;
  signature: string | null;
  tenant_id: string | null;
  base_url: string | null;
}

export interface SharePointOnPremCredentialTable extends SharePointCloudCredentialTable {
  use_agent: ColumnType<number, number | undefined, number>;
  fed_auth_endpoint: string | null;
}

export interface BoxCredentialTable extends VendorCredentialColumns {
  client_key: string | null;
  client_secret: string | null;
  box_subject_type: string | null;
  box_subject_id: string | null;
}

export interface DropboxCredentialTable extends VendorCredentialColumns {
  app_key: string | null;
  app_secret: string | null;
  refresh_token: string | null;
  root_path: string | null;
}

export interface ClioCredentialTable extends VendorCredentialColumns {
  region: string | null;
  client_id: string | null;
  client_secret: string | null;
  create_calendar_entries: ColumnType<Bool, Bool | undefined, Bool>;
  calendar_id: number | null;
}

export interface LitifyCredentialTable extends VendorCredentialColumns {
  username: string | null;
  password: string | null;
  client_id: string | null;
  client_secret: string | null;
  instance_url: string | null;
  matter_column_name: string | null;
}

export interface FileVineCredentialTable extends VendorCredentialColumns {
  api_key: string | null;
  api_secret: string | null;
  hashtags: string | null;
  subdomain: string | null;
  billingItem: string | null;
  personalAccessToken: string | null;
  clientId: string | null;
  clientSecret: string | null;
}

export interface ProLawCredentialTable extends VendorCredentialColumns {
  api_key: string | null;
  base_url: string | null;
  use_agent: ColumnType<Bool, Bool | undefined, Bool>;
  add_parent_id: ColumnType<Bool, Bool | undefined, Bool>;
}

/** The firm's account with a court records provider (PACER); the password sealed. One per type per firm. */
export interface ProviderCredentialTable {
  id: string;
  firm_id: number;
  created_at: Millis;
  updated_at: Millis;
  provider_type: string;
  name: string;
  username: string;
  password: string | null;
  client_code: string | null;
  redaction_agreed: ColumnType<Bool, Bool | undefined, Bool>;
}

/** Every credential of every type, by id: which table (kind) holds it. A view. */
export interface DmsCredentialDirectoryView {
  id: string;
  firm_id: number;
  name: string;
  kind: string;
  created_at: Millis;
}

/** A credential's OAuth token, sealed. */
export interface DmsCredentialTokenTable {
  credential_id: string;
  firm_id: number;
  sealed: string;
  updated_at: Millis;
}

export interface StoragePolicyTable extends EntityColumns {
  name: string;
  store_documents: Bool;
  store_email: string;
  document_path: string | null;
  document_name: string | null;
  document_properties: Json;
  additional_storage_policy_id: string | null;
  dms_credential_id: string;
}

export interface NotificationRuleTable extends EntityColumns {
  name: string;
  template: string;
  include_emails: Json;
  exclude_emails: Json;
}

export interface EthicalWallTable extends EntityColumns {
  name: string;
  type: string;
  matter_id: string | null;
  client_id: string | null;
}

export interface AutoCaseCreationTable extends EntityColumns {
  name: string;
  party_email_domains: Json;
  matter_id: string | null;
  assignment_maintenance: string;
  assignments_ignore_import_deletion: Bool;
}

/** Rows of the jurisdiction preferences the pipeline reads (migrations 022-024). */
export interface JurisdictionPreferenceTable {
  id: string;
  firm_id: number;
  created_at: Millis;
  updated_at: Millis;
  order: number;
  name: string;
  description: string | null;
  enabled: Bool;
  auto_case_creation_id: string | null;
  document_processing_id: string | null;
  party_email_domains: Json;
}

export interface DocumentProcessingTable {
  id: string;
  firm_id: number;
  created_at: Millis;
  updated_at: Millis;
  name: string;
  wait_for_stamp: Bool;
  max_minutes_wait_for_stamp: number | null;
  release_unstamped_while_waiting: Bool;
  minutes_wait_before_unstamped_release: number | null;
  extraction_enabled: Bool;
  extraction_provider: string;
  billing_party: string;
  customer_id: string | null;
  queue_name: string | null;
  extraction_auth_path: string | null;
  extraction_client_id: string | null;
  extraction_client_secret: string | null;
  extraction_client_url: string | null;
  extraction_customer_id: string | null;
  extraction_queue_name: string | null;
}

export interface NotificationTable {
  id: string;
  firm_id: number;
  inbox_item_id: string;
  timekeeper_id: string | null;
  timekeeper_group_id: string | null;
  email: string;
  cadence: string;
  delivery_method: string;
  status: string;
  reason: string;
  outbound_mail_id: string | null;
  digest_run_id: string | null;
  created_at: Millis;
  sent_at: Millis | null;
}

export interface DigestRunTable {
  id: string;
  firm_id: number;
  timekeeper_group_id: string;
  local_date: string;
  kind: string;
  status: string;
  created_at: Millis;
}

export interface DmsRecordTable {
  id: string;
  firm_id: number;
  inbox_item_id: string;
  document_id: string | null;
  storage_policy_id: string;
  what: string;
  status: string;
  location: string | null;
  /** Where the write was meant to go, recorded before it (status "writing"). */
  intended_location: string | null;
  /**
   * For the firm's own file store: the intended file as a path below the firm's storage root.
   * Unique per firm, so two filings never intend one file.
   */
  intended_path: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 of the bytes written, so a retry recognises its own copy. */
  content_hash: string | null;
  /** The folder `location` is relative to, relative to the firm's storage root, as resolved when stored. */
  root: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where a person opens the stored document in the DMS, when the DMS has such a link. */
  link: ColumnType<string | null, string | null | undefined, string | null>;
  error: string | null;
  attempts: number;
  created_at: Millis;
  updated_at: Millis;
}

export interface TimekeeperTable extends EntityColumns {
  full_name: string;
  sort_name: string;
  email: string;
  title: string;
  status: string;
  is_attorney: Bool;
  billable: Bool;
  location_id: string | null;
  department_id: string | null;
  practice_group_id: string | null;
  timekeeper_group_id: string | null;
  user_defined_fields: Json;
  storage_policy_id: string | null;
  additional_receipt_emails: Json;
}

export interface ClientTable extends EntityColumns {
  name: string;
  status: string;
  open_date: string | null;
  originating_timekeeper_id: string | null;
  storage_policy_id: string | null;
}

export interface MatterTable extends EntityColumns {
  name: string;
  description: string;
  status: string;
  client_id: string;
  location_id: string | null;
  practice_group_id: string | null;
  area_of_law_id: string | null;
  originating_timekeeper_id: string | null;
  billing_timekeeper_id: string | null;
  supervising_timekeeper_id: string | null;
  storage_policy_id: string | null;
}

export interface NamedEntityTable extends EntityColumns {
  name: string;
  storage_policy_id: string | null;
}

/** ECFX Track: a case's subscription (spec §4 case tracking), priced when it was taken. */
export interface CaseTrackingTable {
  case_id: string;
  firm_id: number;
  state: "TRACKED" | "STOPPED" | "UNSUBSCRIBED";
  subscribed_at: Millis;
  stopped_at: Millis | null;
  resumed_at: Millis | null;
  monthly_fee_cents: number;
  per_document_cents: number;
  currency: string;
  updated_at: Millis;
}

/** One stretch of paid tracking, subscribe or resume to stop or unsubscribe: what billing reads. */
export interface CaseTrackingPeriodTable {
  id: string;
  firm_id: number;
  case_id: string;
  started_at: Millis;
  ended_at: Millis | null;
  monthly_fee_cents: number;
  per_document_cents: number;
  currency: string;
  documents: number;
}

/** A court docket entry already turned into an inbox item for a case (tracking or retrieve). */
export interface CaseDocketEntryTable {
  firm_id: number;
  case_id: string;
  entry_key: string;
  inbox_item_id: string;
  period_id: string | null;
  published_at: Millis;
  created_at: Millis;
  /** When missed-notice reconciliation decided the entry (its notice came, or a missed notice was raised). */
  checked_at: Millis | null;
}

/** A tracked entry with no e-mail notice in time: the item raised for it, and the notice that came later. */
export interface MissedNoticeTable {
  firm_id: number;
  case_id: string;
  entry_key: string;
  inbox_item_id: string;
  raised_at: Millis;
  notice_item_id: string | null;
  resolved_at: Millis | null;
}

/** The last case retrieve (spec §4 case retrieve status). */
export interface CaseRetrieveTable {
  case_id: string;
  firm_id: number;
  status: string;
  mode: string;
  reason: string;
  updated_at: Millis;
}

type LinkRow<Owner extends string, Value extends string> = Record<Owner | Value, string> & { firm_id: number };

export interface WebhookTable {
  id: string;
  firm_id: number;
  created_at: Millis;
  updated_at: Millis;
  name: string;
  url: string;
  events: Json;
  type: string;
  payload_version: string;
  enabled: Bool;
  /** The signing secret, sealed with a key of the installation (server/auth/webhook-secret.ts). */
  secret_sealed: string;
  secret_shown: Bool;
  created_by: string | null;
  failing_since: Millis | null;
}

export interface WebhookDeliveryTable {
  id: string;
  firm_id: number;
  webhook_id: string;
  event: string;
  /** The event's id, the same in every delivery of it (a re-send too), so receivers can ignore repeats. */
  event_id: string;
  payload_version: string;
  inbox_item_id: string | null;
  attempts: number;
  status: string;
  last_status_code: number | null;
  last_error: string | null;
  last_response: string | null;
  next_attempt_at: Millis | null;
  body: string;
  created_at: Millis;
  updated_at: Millis;
}

/** The installation's price of one service kind (spec §3 service kinds, time units, currency). */
export interface BillingPriceTable {
  service_kind: string;
  amount_cents: number;
  time_unit: string;
  per_document_cents: number;
  currency: string;
  updated_at: Millis;
}

/** A firm's subscription to a service kind, at the prices of the day it began. */
export interface FirmServiceTable {
  id: string;
  firm_id: number;
  service_kind: string;
  amount_cents: number;
  time_unit: string;
  per_document_cents: number;
  currency: string;
  started_at: Millis;
  ended_at: Millis | null;
}

/** The last number given: the next invoice or credit note takes the one after it. */
export interface InvoiceCounterTable {
  name: string;
  last_number: number;
}

/** An issued invoice or credit note: never changed after issue. */
export interface InvoiceTable {
  id: string;
  firm_id: number;
  number: number;
  kind: "INVOICE" | "CREDIT_NOTE";
  issue_key: string;
  corrects_invoice_id: string | null;
  month: string;
  period_start: Millis;
  period_end: Millis;
  currency: string;
  total_cents: number;
  note: string;
  created_at: Millis;
}

export interface InvoiceLineTable {
  id: string;
  invoice_id: string;
  firm_id: number;
  position: number;
  service_kind: string;
  case_id: string | null;
  description: string;
  quantity: string;
  amount_cents: number;
}

/** A hosted checkout opened to pay an invoice. */
export interface InvoiceCheckoutTable {
  session_id: string;
  invoice_id: string;
  firm_id: number;
  amount_cents: number;
  url: string;
  created_by: string;
  created_at: Millis;
}

/** The one payment of an invoice. */
export interface InvoicePaymentTable {
  invoice_id: string;
  firm_id: number;
  provider: string;
  session_id: string;
  event_id: string;
  amount_cents: number;
  currency: string;
  paid_at: Millis;
}

/** A firm's billing settings: its cost code, its LEDES law firm id, minutes per notice by timekeeper title. */
export interface BillingSettingTable {
  firm_id: number;
  cost_code: string | null;
  law_firm_id: string;
  review_minutes: string;
  updated_at: Millis;
}

/** A court cost incurred for a firm, once per source, to pass on to its client. */
export interface CourtCostTable {
  id: string;
  firm_id: number;
  source_key: string;
  kind: "PACER_DOCUMENT" | "ECFX_TRACK";
  case_id: string | null;
  matter_id: string | null;
  client_id: string | null;
  document_id: string | null;
  incurred_at: Millis;
  pages: number | null;
  amount_cents: number;
  description: string;
  cost_code: string | null;
}

export interface DB {
  firm: FirmTable;
  firm_logo: FirmLogoTable;
  security_role: SecurityRoleTable;
  app_user: UserTable;
  refresh_token: RefreshTokenTable;
  firm_sso: FirmSsoTable;
  sso_request: SsoRequestTable;
  sso_replay: { firm_id: number; assertion_id: string; expires_at: Millis };
  sso_session: SsoSessionTable;
  login_throttle: LoginThrottleTable;
  password_reset: PasswordResetTable;
  outbound_mail: OutboundMailTable;
  outbound_mail_notice: OutboundMailNoticeTable;
  inbox_address: InboxAddressTable;
  inbox_item: InboxItemTable;
  job: JobTable;
  dictionary_entry: DictionaryEntryTable;
  event_log: EventLogTable;
  envelope: EnvelopeTable;
  blob: BlobTable;
  document: DocumentTable;
  court_case: CourtCaseTable;
  jurisdiction_ecfx: { jurisdiction_id: string; ecfx_jurisdiction_id: string; firm_id: number };
  ignored_case: { id: string; firm_id: number; name: string; name_normalized: string; ecfx_jurisdiction_id: string };
  timekeeper: TimekeeperTable;
  client: ClientTable;
  matter: MatterTable;
  location: NamedEntityTable;
  practice_group: NamedEntityTable;
  jurisdiction: Omit<NamedEntityTable, "storage_policy_id">;
  case_timekeeper: LinkRow<"case_id", "timekeeper_id">;
  email_template: EmailTemplateTable;
  timekeeper_group: TimekeeperGroupTable;
  generic_credential: GenericCredentialTable;
  storage_policy: StoragePolicyTable;
  notification_rule: NotificationRuleTable;
  ethical_wall: EthicalWallTable;
  ethical_wall_timekeeper: LinkRow<"wall_id", "timekeeper_id">;
  auto_case_creation: AutoCaseCreationTable;
  auto_case_creation_timekeeper: LinkRow<"rule_id", "timekeeper_id">;
  jurisdiction_group_jurisdiction: LinkRow<"group_id", "jurisdiction_id">;
  jurisdiction_preference: JurisdictionPreferenceTable;
  jurisdiction_preference_group: LinkRow<"preference_id", "group_id">;
  jurisdiction_preference_rule: LinkRow<"preference_id", "rule_id">;
  document_processing: DocumentProcessingTable;
  notification: NotificationTable;
  digest_run: DigestRunTable;
  dms_record: DmsRecordTable;
  imanage_on_prem_credential: IManageOnPremCredentialTable;
  imanage_cloud_credential: IManageCloudCredentialTable;
  net_documents_cloud_credential: NetDocumentsCloudCredentialTable;
  net_documents_client_credential: NetDocumentsClientCredentialTable;
  share_point_cloud_credential: SharePointCloudCredentialTable;
  share_point_on_prem_credential: SharePointOnPremCredentialTable;
  box_client_credential_grant_credential: BoxCredentialTable;
  dropbox_credential: DropboxCredentialTable;
  clio_credential: ClioCredentialTable;
  litify_credential: LitifyCredentialTable;
  file_vine_credential: FileVineCredentialTable;
  pro_law_credential: ProLawCredentialTable;
  dms_credential_directory: DmsCredentialDirectoryView;
  dms_credential_token: DmsCredentialTokenTable;
  provider_credential: ProviderCredentialTable;
  api_call_timing: ApiCallTimingTable;
  webhook: WebhookTable;
  webhook_delivery: WebhookDeliveryTable;
  case_tracking: CaseTrackingTable;
  case_tracking_period: CaseTrackingPeriodTable;
  case_docket_entry: CaseDocketEntryTable;
  missed_notice: MissedNoticeTable;
  case_retrieve: CaseRetrieveTable;
  scim_token: ScimTokenTable;
  scim_user: ScimUserTable;
  scim_group: ScimGroupTable;
  scim_group_member: LinkRow<"group_id", "user_id">;
  billing_price: BillingPriceTable;
  firm_service: FirmServiceTable;
  invoice_counter: InvoiceCounterTable;
  invoice: InvoiceTable;
  invoice_line: InvoiceLineTable;
  invoice_checkout: InvoiceCheckoutTable;
  invoice_payment: InvoicePaymentTable;
  billing_setting: BillingSettingTable;
  court_cost: CourtCostTable;
}

/** A firm's SCIM provisioning token: only its hash is kept (decision 101). */
export interface ScimTokenTable {
  id: string;
  firm_id: number;
  token_hash: string;
  label: string;
  created_by: string;
  created_at: Millis;
  last_used_at: Millis | null;
  revoked_at: Millis | null;
}

/** What an identity provider says of a user beyond the user record. */
export interface ScimUserTable {
  user_id: string;
  firm_id: number;
  external_id: string | null;
  given_name: string;
  family_name: string;
  /** 0: deactivated by the identity provider; the user cannot sign in. */
  active: number;
}

/** An identity provider's group; its security role is the firm's explicit mapping, none by default. */
export interface ScimGroupTable {
  id: string;
  firm_id: number;
  display_name: string;
  external_id: string | null;
  security_role_id: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export type FirmRow = Selectable<FirmTable>;
export type NewFirm = Insertable<FirmTable>;
export type FirmUpdate = Updateable<FirmTable>;
export type UserRow = Selectable<UserTable>;
export type SecurityRoleRow = Selectable<SecurityRoleTable>;
export type OutboundMailRow = Selectable<OutboundMailTable>;
