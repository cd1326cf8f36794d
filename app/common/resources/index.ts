import { billing } from "./billing";
import { cases } from "./cases";
import { clients } from "./clients";
import { ecfxJurisdictions, ignoredCases, judges, jurisdictions } from "./courts";
import { eventLogs } from "./event-logs";
import { documentProcessing, jurisdictionGroups, jurisdictionPreferences } from "./jurisdiction-preferences";
import { envelopes, inboxItems } from "./inbox";
import { matters } from "./matters";
import { departments, locations, practiceGroups } from "./organisation";
import { abbreviations, users } from "./people";
import { autoCaseCreation, notificationRules, preferenceGroups, templates } from "./notifications";
import { dmsCredentials, storagePolicies } from "./storage";
import {
  boxCredentials,
  clioCredentials,
  dmsCredentialDirectory,
  dropboxCredentials,
  fileVineCredentials,
  litifyCredentials,
  proLawCredentials,
  imanageCloudCredentials,
  imanageOnPremCredentials,
  netDocumentsClientCredentials,
  netDocumentsCloudCredentials,
  sharePointCloudCredentials,
  sharePointOnPremCredentials,
} from "./credentials";
import { providerCredentials } from "./provider-credentials";
import { securityRoles } from "./security-roles";
import { timekeepers } from "./timekeepers";
import { ethicalWalls } from "./walls";
import { webhooks } from "./webhooks";
import type { ResourceDef } from "./types";

/** Every entity of the registry, by key. */
export const REGISTRY = {
  clients,
  matters,
  cases,
  timekeepers,
  jurisdictions,
  "ecfx-jurisdictions": ecfxJurisdictions,
  judges,
  departments,
  locations,
  "practice-groups": practiceGroups,
  "ignored-cases": ignoredCases,
  users,
  "security-roles": securityRoles,
  abbreviations,
  "inbox-items": inboxItems,
  "ecfx-notification": envelopes,
  "preference-groups": preferenceGroups,
  templates,
  "notification-rule": notificationRules,
  "auto-case-creation": autoCaseCreation,
  "jurisdiction-groups": jurisdictionGroups,
  "jurisdiction-preferences": jurisdictionPreferences,
  "document-processing": documentProcessing,
  "storage-policies": storagePolicies,
  dms: dmsCredentials,
  "dms-imanage-cloud": imanageCloudCredentials,
  "dms-imanage-on-prem": imanageOnPremCredentials,
  "dms-netdocuments-cloud": netDocumentsCloudCredentials,
  "dms-netdocuments-client": netDocumentsClientCredentials,
  "dms-sharepoint-cloud": sharePointCloudCredentials,
  "dms-sharepoint-on-prem": sharePointOnPremCredentials,
  "dms-box": boxCredentials,
  "dms-dropbox": dropboxCredentials,
  "dms-clio": clioCredentials,
  "dms-litify": litifyCredentials,
  "dms-filevine": fileVineCredentials,
  "dms-prolaw": proLawCredentials,
  "dms-credentials": dmsCredentialDirectory,
  "provider-credentials": providerCredentials,
  "ethical-walls": ethicalWalls,
  "event-logs": eventLogs,
  webhooks,
  billing,
} satisfies Record<string, ResourceDef>;

export type RegistryKey = keyof typeof REGISTRY;

export function findResource(key: string): ResourceDef | undefined {
  return (REGISTRY as Record<string, ResourceDef>)[key];
}
