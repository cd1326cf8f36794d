import { clients } from "../../common/resources/clients";
import { matters } from "../../common/resources/matters";
import type { ResourceDef } from "../../common/resources/types";
import type { ApiError } from "../../utils/api.server";
import type { ApiClient } from "../../utils/auth.server";
import type { DraftValues } from "../../utils/wizard-state";
import { type Row, apiMessage, createRecord } from "../fields/record-api.server";
import { type MatterChoice, pointAtClient, pointAtMatter } from "./matter-choice";

// What the last step of a wizard does: one POST for most entities; for a case with a matter
// (and client) created in place, client → matter → case, in that order.

export type CreateOutcome =
  | { ok: true; id: string }
  | {
      ok: false;
      /** Field errors by input name, to be shown on the step that holds each input. */
      fieldErrors: Record<string, string[]>;
      /** A message for the whole form: a catalogue key or the API's own words. */
      formError?: string;
      /** Inputs to change in the draft: entries created before the failure are reused on retry. */
      draft: DraftValues;
      /** The failure was in a case created with its matter: 'Case creation failed: {error}'. */
      caseCreation?: boolean;
      /** An input of the part that failed, to show its step when no field is in error. */
      at?: string;
    };

/**
 * What the form says of a refusal: the API's own words for what the user can fix (a conflict, a
 * rule), the entity's creation failure of spec §8 when the API failed or could not be reached.
 */
const formErrorOf = (error: ApiError, def?: ResourceDef) => (error.status >= 500 ? (def?.creationFailedKey ?? "errors:itemCreation") : apiMessage(error));

function failure(error: ApiError, rename: (field: string) => string, draft: DraftValues = {}, def?: ResourceDef) {
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.body.fieldErrors ?? {})) (fieldErrors[rename(field)] ??= []).push(...messages);
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  return { ok: false as const, fieldErrors, formError: hasFieldErrors ? undefined : formErrorOf(error, def), draft };
}

const same = (field: string) => field;

export async function createRecordOf(api: ApiClient, def: ResourceDef, values: Row): Promise<CreateOutcome> {
  const created = await createRecord(api, def.apiPath, values);
  return created.ok ? { ok: true, id: String(created.data.id) } : failure(created.error, same, {}, def);
}

/**
 * A case whose matter may be new, and that matter's client too. Each entry created is written
 * back into the draft, so that when a later call fails the user retries without duplicates.
 */
export async function createCase(api: ApiClient, def: ResourceDef, values: Row, choice: MatterChoice): Promise<CreateOutcome> {
  let draft: DraftValues = {};
  const failed = (error: ApiError, rename: (field: string) => string, at?: string): CreateOutcome => {
    const result = failure(error, rename, draft);
    return { ...result, formError: apiMessage(error), caseCreation: true, at };
  };
  let matterId: string;
  if (choice.mode === "existing") {
    matterId = choice.matterId;
  } else {
    let clientId: string;
    if (choice.client.mode === "existing") {
      clientId = choice.client.id;
    } else {
      const client = await createRecord(api, clients.apiPath, { name: choice.client.name, unique_key: choice.client.unique_key });
      if (!client.ok) return failed(client.error, (f) => `client_${f}`, "client_name");
      clientId = String(client.data.id);
      draft = { ...draft, ...pointAtClient(clientId) };
    }
    const matter = await createRecord(api, matters.apiPath, { ...choice.matter, client_id: clientId });
    if (!matter.ok) return failed(matter.error, (f) => (f === "client_id" ? f : `matter_${f}`), "matter_name");
    matterId = String(matter.data.id);
    draft = { ...draft, ...pointAtMatter(matterId) };
  }
  const created = await createRecord(api, def.apiPath, { ...values, matter_id: matterId });
  if (!created.ok) return failed(created.error, same);
  return { ok: true, id: String(created.data.id) };
}
