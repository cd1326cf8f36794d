// `ecfx firm create`: a firm with its first administrator, as an installation without demo data
// (the container) begins. Uses the same settings as `npm start` (DATABASE_URL, ECFX_DATA_DIR).
//
// Exit status: 0 created, 1 refused or failed, 2 usage error.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { firmName, normaliseHostName } from "../../app/common/firm-schema";
import { emailField, passwordField, requiredText } from "../../app/common/validation";
import { openContext } from "../bootstrap";
import { catalogueMessage } from "../lib/errors";
import { commandConfig, usageExit } from "./command-start";
import { createFirm, createUser } from "../firm/create-firm";
import { hostNamesOfOtherFirms, implicitHostNames } from "../firm/firm-repository";
import { hostNameRefusal } from "../firm/host-names";

const USAGE = `usage: ecfx firm create --name NAME --admin-email EMAIL --admin-name FULL-NAME [options]
  --name NAME          the firm's name
  --admin-email EMAIL  the first administrator's e-mail address: their sign-in
  --admin-name NAME    the administrator's full name
  --inbox ADDRESS      the firm's inbox address, where courts' notices are sent (repeatable; one at least)
  --host NAME          a host name the firm's users reach the console at (repeatable); the first
                       firm also answers at the console's own address (ECFX_PUBLIC_URL)
  --password-stdin     read the administrator's password from standard input; without it a
                       password is made and printed once
`;

/** What every installation without a firm prints at start: how to begin. */
export const FIRST_FIRM_HINT = `There is no firm yet. Create the first firm and its administrator:
  npx ecfx firm create --name "Your Firm LLP" --admin-email you@your-firm.example --admin-name "Your Name" --inbox notices@your-firm.example
  (in the container: docker exec -it CONTAINER npx ecfx firm create …; npx ecfx firm create --help says more)`;

const options = z.object({
  name: firmName(),
  adminEmail: emailField(),
  adminName: requiredText(200),
  inboxes: z.array(emailField()).min(1, "errors:required"),
  hosts: z.array(z.string().transform(normaliseHostName).pipe(z.string().min(1, "errors:hostNameInvalid"))),
  passwordStdin: z.boolean(),
});
type Options = z.infer<typeof options>;

const FLAGS: Record<string, keyof Options> = {
  "--name": "name",
  "--admin-email": "adminEmail",
  "--admin-name": "adminName",
  "--inbox": "inboxes",
  "--host": "hosts",
};

function parseArgs(argv: readonly string[]): Options | string {
  const [action, ...rest] = argv;
  if (action === "-h" || action === "--help") return "";
  if (action !== "create") return action ? `unknown action ${action}` : "an action is needed";
  const raw: Record<string, unknown> = { name: "", adminEmail: "", adminName: "", inboxes: [], hosts: [], passwordStdin: false };
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = (rest[i] ?? "").split(/=(.*)/s, 2) as [string, string | undefined];
    const key = FLAGS[flag];
    if (key) {
      const value = inline ?? rest[++i] ?? "";
      if (Array.isArray(raw[key])) (raw[key] as string[]).push(value);
      else raw[key] = value;
    } else if (flag === "--password-stdin") raw.passwordStdin = true;
    else if (flag === "-h" || flag === "--help") return "";
    else return `unknown option ${flag}`;
  }
  const parsed = options.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = Object.entries(FLAGS).find(([, key]) => key === issue.path[0])?.[0] ?? `--${String(issue.path[0])}`;
  return `${flag}: ${catalogueMessage(issue.message)}`;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export async function firmCommand(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  if (typeof opts === "string") return usageExit("firm", opts, USAGE);
  const typed = opts.passwordStdin ? passwordField().safeParse(await readStdin()) : undefined;
  if (typed && !typed.success) return usageExit("firm", `the password: ${catalogueMessage(typed.error.issues[0]!.message)}`, USAGE);
  const password = typed?.data ?? randomBytes(15).toString("base64url");
  const config = commandConfig();
  if (!config) return 1;
  const ctx = await openContext(config);
  try {
    const db = ctx.database.db;
    const refuse = (text: string) => {
      process.stderr.write(`ecfx firm: ${text}\n`);
      return 1;
    };
    if (await db.selectFrom("app_user").select("id").where("email", "=", opts.adminEmail).executeTakeFirst()) {
      return refuse(`a user with e-mail ${opts.adminEmail} already exists`);
    }
    const usedInbox = await db.selectFrom("inbox_address").select("address").where("address", "in", opts.inboxes).executeTakeFirst();
    if (usedInbox) return refuse(`${usedInbox.address} is already a firm's inbox`);
    // The operator may give a firm a name under localhost (a developer's machine); every other rule holds (decision 090).
    const refusal = hostNameRefusal(opts.hosts, opts.hosts, await hostNamesOfOtherFirms(ctx.database, undefined, implicitHostNames(config.publicUrl)));
    if (refusal) return refuse(refusal.message);
    const isDefault = !(await db.selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirst());
    const now = ctx.clock.now();
    const firm = await createFirm(ctx.database, { name: opts.name, hostNames: [...new Set(opts.hosts)], isDefault }, now);
    const displayName = opts.adminName.split(/\s+/)[0]!;
    await createUser(
      ctx.database,
      { firmId: firm.firmId, email: opts.adminEmail, fullName: opts.adminName, displayName, roleId: firm.roles.Administrator, password },
      now,
    );
    for (const address of new Set(opts.inboxes)) await db.insertInto("inbox_address").values({ address, firm_id: firm.firmId, created_at: now }).execute();
    const reached = [...(isDefault ? [config.publicUrl] : []), ...opts.hosts.map((host) => `host ${host}`)];
    const lines = [
      `Created firm ${firm.firmId}, ${opts.name}${reached.length ? `, at ${reached.join(", ")}` : ""}.`,
      `Administrator: ${opts.adminEmail}${typed ? "" : `, password ${password} (shown once: change it after signing in)`}.`,
      `Inbox: ${[...new Set(opts.inboxes)].join(", ")}.`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    return 0;
  } finally {
    await ctx.database.close();
  }
}
