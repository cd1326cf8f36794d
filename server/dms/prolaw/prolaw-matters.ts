import { DmsTargetError, type FilingSubject } from "../dms-target";
import { PROLAW_KIND, type ProLawApi } from "./prolaw-api";
import { type ProLawMatter, itemsOf, proLawMatterSchema } from "./prolaw-types";

// ProLaw files every document on a matter. The filing's matter is found by its number (ProLaw's
// MatterID, the firm's matter number in ECFX), then by the firm's reference for it (ProLaw's
// internal MattersID, when the firm keeps it as the matter's reference); none is a refusal no
// retry mends.

const same = (a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "accent" }) === 0;

export async function findMatter(api: ProLawApi, subject: FilingSubject | undefined): Promise<ProLawMatter> {
  const matter = subject?.matter;
  if (!matter || (!matter.number && !matter.reference)) {
    const which = subject?.case.number ? `The case ${subject.case.number}` : "The case";
    throw new DmsTargetError(PROLAW_KIND, `${which} has no matter: ProLaw files documents on a matter`, false);
  }
  if (matter.number) {
    const page = await api.get("matters", `to look up matter ${matter.number}`, itemsOf(proLawMatterSchema), { matterId: matter.number });
    const found = page.Items.find((candidate) => same(candidate.MatterId, matter.number));
    if (found) return found;
  }
  if (matter.reference) {
    const found = await api.send(`matters/${encodeURIComponent(matter.reference)}`, `to look up matter ${matter.reference}`, proLawMatterSchema, {}, [404]);
    if (found) return found;
  }
  const named = [matter.number && `number ${matter.number}`, matter.reference && `reference ${matter.reference}`].filter(Boolean).join(" or ");
  throw new DmsTargetError(PROLAW_KIND, `ProLaw has no matter with the ${named} (matter "${matter.name}")`, false);
}
