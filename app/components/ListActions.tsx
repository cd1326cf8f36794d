import { Button } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ResourceDef } from "../common/resources/types";
import { isImportable } from "../common/import/format";

/** What a list page offers beside "New": import for entities that take files, and the entity's own other way in. */
export function ListActions({ def, fullAccess }: { def: ResourceDef; fullAccess: boolean }) {
  const { t } = useTranslation();
  if (!fullAccess) return null;
  return (
    <>
      {isImportable(def) ? (
        <Button component={Link} to={`/${def.key}/import`} variant="default">
          {t("transfer:import.title")}
        </Button>
      ) : null}
      {def.extraAction ? (
        <Button component={Link} to={def.extraAction.path} variant="default">
          {t(def.extraAction.labelKey)}
        </Button>
      ) : null}
    </>
  );
}
