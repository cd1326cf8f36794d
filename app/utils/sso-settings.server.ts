import { data } from "@remix-run/node";
import { allows } from "../common/access";
import { ApiError, errorOf } from "./api.server";
import { requireUser } from "./auth.server";
import { readForm } from "./request-body.server";
import { redirectWithToast } from "./toast.server";

// The single sign-on settings page's server half: the API keeps and checks everything.

export interface SsoSettings {
  signon_type: string;
  sp_entity_id: string;
  sp_acs_url: string;
  sp_slo_url: string;
  idp_metadata_url: string;
  idp_entity_id: string;
  idp_sso_url: string;
  idp_slo_url: string;
  idp_certificates: string;
  email_attribute: string;
  break_glass_email: string;
  group_attribute: string;
  group_roles: string;
  oidc_issuer: string;
  oidc_client_id: string;
  oidc_redirect_url: string;
  oidc_logout_url: string;
  oidc_client_secret_kept: boolean;
}

const FORM_FIELDS = [
  "idp_metadata_url",
  "idp_metadata_xml",
  "idp_entity_id",
  "idp_sso_url",
  "idp_slo_url",
  "idp_certificates",
  "email_attribute",
  "break_glass_email",
  "group_attribute",
  "group_roles",
  "oidc_issuer",
  "oidc_client_id",
  "oidc_client_secret",
] as const;

export async function loadSsoSettings(request: Request) {
  const { me, api } = await requireUser(request, "firmAccess");
  const { data: settings } = await api.json<SsoSettings>("/api/v1/firm/sso");
  return data({ settings, canEdit: allows(me.userRole.firmAccess, "write") });
}

export async function saveSsoSettings(request: Request) {
  const { api } = await requireUser(request, "firmAccess");
  const form = await readForm(request);
  const values = Object.fromEntries(FORM_FIELDS.map((name) => [name, String(form.get(name) ?? "")]));
  const response = await api.raw("/api/v1/firm/sso", { method: "PUT", json: values }).catch((error: unknown) => {
    if (error instanceof ApiError) return null;
    throw error;
  });
  if (response?.ok) return redirectWithToast(request, "/single-sign-on", { type: "success", key: "firm:saved" });
  const error = response ? await errorOf(response, "/api/v1/firm/sso") : null;
  // What was typed stays on the form, with the API's reasons beside the fields.
  return data(
    { values, error: error?.body.message ?? "errors:settingsUpdate", fieldErrors: error?.body.fieldErrors ?? {} },
    { status: error && error.status < 500 ? error.status : 503 },
  );
}
