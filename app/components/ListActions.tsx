import { useTranslation } from "react-i18next";
import type { ResourceDef } from "../common/resources/types";
import { isImportable } from "../common/import/format";
import { PlainButtonLink } from "./PlainButtonLink";

/** What a list page offers beside "New": import for entities that take files, and the entity's own other way in. */
export function ListActions({ def, fullAccess }: { def: ResourceDef; fullAccess: boolean }) {
  const { t } = useTranslation();
  if (!fullAccess) return null;
  return (
    <>
      {isImportable(def) ? (
        <PlainButtonLink to={`/${def.key}/import`} variant="default">
          {t("transfer:import.title")}
        </PlainButtonLink>
      ) : null}
      {def.extraAction ? (
        <PlainButtonLink to={def.extraAction.path} variant="default">
          {t(def.extraAction.labelKey)}
        </PlainButtonLink>
      ) : null}
    </>
  );
}
