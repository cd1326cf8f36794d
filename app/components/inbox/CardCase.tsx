import { Anchor, Stack, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { InboxCard } from "../../utils/inbox.server";
import { CardSection } from "./CardSection";
import { CasePicker } from "./CasePicker";

interface Props {
  card: InboxCard;
  canChange: boolean;
  caseQuery: string;
  caseOptions: { id: string; label: string }[];
}

/** The case the item is filed on, or the picker for a notice that found none. */
export function CardCase({ card, canChange, caseQuery, caseOptions }: Props) {
  const { t } = useTranslation("inbox");
  const { item } = card;
  const needsCase = !card.case && item.disposition !== "Split" && item.parsed?.kind === "notice";
  return (
    <CardSection title={t("card.case")}>
      {card.case ? (
        <Anchor component={Link} to={`/cases/${card.case.id}`} data-testid="card-case">
          {card.case.case_number} — {card.case.name}
        </Anchor>
      ) : (
        <Text size="sm">{t("card.noCase")}</Text>
      )}
      {needsCase && canChange ? (
        <Stack mt="sm" gap="xs">
          <Text size="sm" fw={600}>
            {t("card.pickCase")}
          </Text>
          <CasePicker query={caseQuery} options={caseOptions} />
        </Stack>
      ) : null}
    </CardSection>
  );
}
