import { Button } from "../../utils/mantine";
import { Row } from "../Row";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { resourceTitleKey } from "../../common/resources/types";

/** Links to the list pages of one family (the DMS credential types), the current one marked. */
export function SiblingTabs({ current, keys }: { current: string; keys: string[] }) {
  const { t } = useTranslation();
  if (keys.length < 2) return null;
  return (
    <Row component="nav" gap={6} aria-label={t("table:siblings")} data-testid="sibling-tabs">
      {keys.map((key) => (
        <Button
          key={key}
          component={Link}
          to={`/${key}`}
          size="xs"
          variant={key === current ? "filled" : "default"}
          aria-current={key === current ? "page" : undefined}
        >
          {t(resourceTitleKey(key))}
        </Button>
      ))}
    </Row>
  );
}
