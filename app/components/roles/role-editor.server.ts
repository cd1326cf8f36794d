import { randomUUID } from "node:crypto";
import { data, redirect } from "@remix-run/node";
import { type AccessLevel, isAccessLevel } from "../../common/access";
import { decodeMessage, encodeMessage } from "../../../proto/codec.server";
import { securityRoles } from "../../common/resources/security-roles";
import { accessKeyOf, fieldAccessKeyOf, fieldPermissionsKeyOf, isAdminRole, resourceTypes } from "../../common/role-message";
import { errorOf } from "../../utils/api.server";
import { type ApiClient, forgetSignedInUsers, requireUser } from "../../utils/auth.server";
import { readForm } from "../../utils/request-body.server";
import { redirectWithToast } from "../../utils/toast.server";
import { INTENT_FIELD } from "../../utils/wizard-state";
import { apiMessage, pickerData } from "../fields/record-api.server";
import { type MatrixRow, type RoleEditorData, type RoleValues, USERS_INPUT as USERS, accessInput, areaWasInput, fieldInput } from "./role-values";

// The role page's server side. The role is read from the API as the binary UserSecurityRole
// message and saved the same way; the form holds one radio group per resource type and field.

const PROTOBUF = "application/x-protobuf";
const LIST = `/${securityRoles.key}`;
const rolePath = (id: string) => `${LIST}/${encodeURIComponent(id)}`;
const apiRolePath = (id?: string) => `/api/v1/user-security-role${id ? `/${encodeURIComponent(id)}` : ""}`;

const levelOr = (value: unknown, fallback: AccessLevel): AccessLevel => (isAccessLevel(value) ? value : fallback);

function valuesOfMessage(role: Record<string, unknown>): RoleValues {
  const matrix: MatrixRow[] = resourceTypes().map((type) => {
    const access = levelOr(role[accessKeyOf(type.name)], "DENY");
    const detail = (role[fieldPermissionsKeyOf(type.name)] ?? {}) as Record<string, unknown>;
    return { type: type.name, access, fields: type.fields.map((name) => ({ name, access: levelOr(detail[fieldAccessKeyOf(name)], access) })) };
  });
  return { name: String(role.name ?? ""), userIds: Array.isArray(role.userIds) ? role.userIds.map(String) : [], matrix };
}

/**
 * What the form posted; a radio group left unset (a tampered form) counts as No Access. A field
 * left at the level its area had when the page was drawn moves with the area: raising Cases
 * from No Access to Read Only opens its fields too, unless one was set otherwise.
 */
function valuesOfForm(form: FormData): RoleValues {
  const matrix: MatrixRow[] = resourceTypes().map((type) => {
    const access = levelOr(form.get(accessInput(type.name)), "DENY");
    const was = form.get(areaWasInput(type.name));
    const fields = type.fields.map((name) => {
      const posted = levelOr(form.get(fieldInput(type.name, name)), "DENY");
      return { name, access: posted === was ? access : posted };
    });
    return { type: type.name, access, fields };
  });
  return { name: String(form.get("name") ?? ""), userIds: form.getAll(USERS).map(String).filter(Boolean), matrix };
}

function messageOf(values: RoleValues): Uint8Array {
  const message: Record<string, unknown> = { name: values.name, userIds: values.userIds };
  for (const row of values.matrix) {
    message[accessKeyOf(row.type)] = row.access;
    if (row.fields.length) message[fieldPermissionsKeyOf(row.type)] = Object.fromEntries(row.fields.map((f) => [fieldAccessKeyOf(f.name), f.access]));
  }
  return encodeMessage("UserSecurityRole", message);
}

async function readRole(api: ApiClient, id: string) {
  const response = await api.raw(apiRolePath(id), { accept: PROTOBUF });
  if (!response.ok) {
    const error = await errorOf(response, apiRolePath(id));
    if (error.status === 404) throw data({ key: "errors:notFound" }, { status: 404 });
    if (error.status === 403) throw redirect("/success");
    throw error;
  }
  return decodeMessage("UserSecurityRole", new Uint8Array(await response.arrayBuffer()));
}

async function editorData(
  api: ApiClient,
  id: string | null,
  values: RoleValues,
  fixed: boolean,
  canWrite: boolean,
  query?: string,
  step = 0,
): Promise<RoleEditorData> {
  const pickers = await pickerData(api, [{ name: USERS, reference: "users", selected: values.userIds, query }]);
  const users = pickers[USERS]!;
  return { id, step, values, fixed, canWrite, users, userNames: Object.fromEntries(users.options.map((o) => [o.value, o.label])) };
}

/** The first step's rules (spec §5: a name, at least one user), checked before the rights are asked for. */
function firstStepErrors(values: RoleValues): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!values.name.trim()) errors.name = ["errors:required"];
  if (values.userIds.length === 0) errors[USERS] = ["errors:roleAtLeastOneUser"];
  return errors;
}

const blankRole = (): RoleValues => valuesOfMessage({});

export async function loadRoleEditor(request: Request, id: string | null) {
  const { me, api } = await requireUser(request, securityRoles.accessKey);
  const canWrite = me.userRole.firmAccess === "FULL";
  if (!id && !canWrite) throw redirect("/success");
  const role = id ? await readRole(api, id) : null;
  const values = role ? valuesOfMessage(role) : blankRole();
  const fixed = role ? isAdminRole({ name: values.name, is_system_defined: Boolean(role.isSystemDefined) }) : false;
  const pageTitle = id
    ? { key: "wizard:detailTitle", values: { resource: securityRoles.key, title: values.name } }
    : { key: "wizard:newTitle", values: { resource: securityRoles.key } };
  return data({ editor: await editorData(api, id, values, fixed, canWrite), pageTitle });
}

/** Save (create or update), search the users without JavaScript, or delete in two steps. */
export async function roleEditorAction(request: Request, id: string | null) {
  const { me, api } = await requireUser(request, securityRoles.accessKey);
  if (me.userRole.firmAccess !== "FULL") throw redirect("/success");
  const form = await readForm(request);
  const intent = String(form.get(INTENT_FIELD) ?? "save");

  if (id && intent === "delete") return data({ confirmDelete: true as const });
  if (id && intent === "confirm-delete") {
    const response = await api.raw(apiRolePath(id), { method: "DELETE" });
    if (!response.ok) {
      const error = await errorOf(response, apiRolePath(id));
      return redirectWithToast(request, rolePath(id), { type: "error", text: apiMessage(error) });
    }
    forgetSignedInUsers();
    return redirectWithToast(request, LIST, { type: "success", key: "wizard:deleted", values: { resource: securityRoles.key } });
  }

  const values = valuesOfForm(form);
  const answer = async (errors: { fieldErrors?: Record<string, string[]>; formError?: string } = {}, query?: string, step = 0) =>
    // A fresh key draws the form again from what the server read back, as without JavaScript.
    data({ editor: await editorData(api, id, values, false, true, query, step), ...errors, formKey: randomUUID() });
  if (intent === `narrow:${USERS}`) return answer({}, String(form.get(`pick.${USERS}`) ?? ""));
  // A new role's steps: on to the rights once the first step holds, back to it at any time.
  if (!id && intent === "next") {
    const fieldErrors = firstStepErrors(values);
    return Object.keys(fieldErrors).length ? answer({ fieldErrors }) : answer({}, undefined, 1);
  }
  if (!id && intent === "back") return answer();

  const response = await api.raw(apiRolePath(id ?? undefined), {
    method: id ? "PUT" : "POST",
    body: Buffer.from(messageOf(values)),
    contentType: PROTOBUF,
    accept: PROTOBUF,
  });
  if (response.ok) {
    const saved = decodeMessage("UserSecurityRole", new Uint8Array(await response.arrayBuffer()));
    // Users of this console follow the change on their next page, not a few seconds later.
    forgetSignedInUsers();
    const toast = id ? { key: "wizard:saved" } : { key: "wizard:created", values: { resource: securityRoles.key } };
    return redirectWithToast(request, rolePath(String(saved.id)), { type: "success", ...toast });
  }
  const error = await errorOf(response, apiRolePath(id ?? undefined));
  // The Administrator role is only ever shown: a refused post to it draws it as stored.
  const stored = id ? await readRole(api, id) : null;
  if (stored && isAdminRole({ name: String(stored.name), is_system_defined: Boolean(stored.isSystemDefined) })) {
    return data({ editor: await editorData(api, id, valuesOfMessage(stored), true, true), formError: apiMessage(error), formKey: randomUUID() });
  }
  const fieldErrors = Object.fromEntries(Object.entries(error.body.fieldErrors ?? {}).filter(([field]) => field === "name" || field === USERS));
  // A refused new role is drawn at its first step, where the name (the usual reason: taken) is.
  return answer({ fieldErrors, formError: Object.keys(fieldErrors).length ? undefined : apiMessage(error) });
}
