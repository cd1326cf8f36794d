import { z } from "zod";
import { cases } from "../../common/resources/cases";
import { clients } from "../../common/resources/clients";
import { matters } from "../../common/resources/matters";

// The matter step of the case wizard: an existing matter, or a new matter created in place,
// whose client is in turn an existing one or a new one (name and number). The rules of each
// part are the entity's own, so the API will not refuse what this step accepted.

export const MATTER_CHOICE_INPUTS = [
  "matter_mode",
  "matter_id",
  "matter_name",
  "matter_unique_key",
  "client_mode",
  "client_id",
  "client_name",
  "client_unique_key",
] as const;

export const CHOICE_MODES = ["existing", "new"] as const;
export type ChoiceMode = (typeof CHOICE_MODES)[number];

const existingMatter = cases.schema.pick({ matter_id: true });
const newMatter = matters.schema.pick({ name: true, unique_key: true });
const existingClient = matters.schema.pick({ client_id: true });
const newClient = clients.schema.pick({ name: true, unique_key: true });

const raw = z.object({
  matter_mode: z.enum(CHOICE_MODES).default("existing"),
  matter_id: z.string().optional(),
  matter_name: z.string().optional(),
  matter_unique_key: z.string().optional(),
  client_mode: z.enum(CHOICE_MODES).default("existing"),
  client_id: z.string().optional(),
  client_name: z.string().optional(),
  client_unique_key: z.string().optional(),
});

type RawChoice = z.infer<typeof raw>;

/** What the step decided, with every part validated by its entity's schema. */
export type MatterChoice =
  | { mode: "existing"; matterId: string }
  | { mode: "new"; matter: { name: string; unique_key: string }; client: { mode: "existing"; id: string } | { mode: "new"; name: string; unique_key: string } };

/** Runs a part's schema; its issues are reported on this step's inputs (prefix + field). */
function part<T>(schema: z.ZodType<T>, input: unknown, prefix: string, ctx: z.RefinementCtx): T | undefined {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: "custom", path: [`${prefix}${String(issue.path[0])}`], message: issue.message });
  return undefined;
}

function decide(v: RawChoice, ctx: z.RefinementCtx): MatterChoice {
  if (v.matter_mode === "existing") {
    const matter = part(existingMatter, { matter_id: v.matter_id }, "", ctx);
    return { mode: "existing", matterId: matter?.matter_id ?? "" };
  }
  const matter = part(newMatter, { name: v.matter_name, unique_key: v.matter_unique_key }, "matter_", ctx);
  const client =
    v.client_mode === "existing"
      ? { mode: "existing" as const, id: part(existingClient, { client_id: v.client_id }, "", ctx)?.client_id ?? "" }
      : {
          mode: "new" as const,
          ...(part(newClient, { name: v.client_name, unique_key: v.client_unique_key }, "client_", ctx) ?? { name: "", unique_key: "" }),
        };
  return { mode: "new", matter: matter ?? { name: "", unique_key: "" }, client };
}

export const matterChoiceSchema = raw.transform((v, ctx) => decide(v, ctx));

/** Raw inputs that make the step point at an entry already created (so a retry never duplicates it). */
export function pointAtClient(clientId: string): Record<string, string> {
  return { client_mode: "existing", client_id: clientId };
}

export function pointAtMatter(matterId: string): Record<string, string> {
  return { matter_mode: "existing", matter_id: matterId };
}
