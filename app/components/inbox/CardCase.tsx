import { Anchor, Stack, Text } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { REGISTRY } from "../../common/resources";
import { recordPath } from "../../common/resources/types";
import type { CaseMismatch } from "../../utils/inbox-actions.server";
import type { InboxCard } from "../../common/inbox-card";
import { CardSection } from "./CardSection";
import { CasePicker } from "./CasePicker";

interface Props {
  card: InboxCard;
  canChange: boolean;
  caseQuery: string;
  caseOptions: { id: string; label: string }[];
  /** The API's warning about the case just picked, to be confirmed. */
  mismatch?: CaseMismatch;
}

/** The case wizard's address, filled from the notice (the wizard reads fields of the same names). */
function newCaseFrom(draft: NonNullable<InboxCard["caseDraft"]>): string {
  const params = new URLSearchParams({ name: draft.name, case_number: draft.case_number });
  if (draft.jurisdiction_id) params.set("jurisdiction_id", draft.jurisdiction_id);
  return `/${REGISTRY.cases.key}/new?${params}`;
}

/** The case the item is filed on, or the picker for a notice that found none, and the jurisdiction preference that applied. */
export function CardCase({ card, canChange, caseQuery, caseOptions, mismatch }: Props) {
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
      <Text size="sm" mt="xs" data-testid="card-preference">
        {t("card.preference")}{" "}
        {card.preference ? (
          <Anchor component={Link} to={recordPath(REGISTRY["jurisdiction-preferences"], card.preference.id)}>
            {card.preference.name}
          </Anchor>
        ) : (
          t("card.noPreference")
        )}
      </Text>
      {needsCase && canChange ? (
        <Stack mt="sm" gap="xs">
          <Text size="sm" fw={600}>
            {t("card.pickCase")}
          </Text>
          <CasePicker query={caseQuery} options={caseOptions} mismatch={mismatch} />
          {card.caseDraft ? (
            <Anchor component={Link} to={newCaseFrom(card.caseDraft)} size="sm" data-testid="card-create-case">
              {t("card.createCase")}
            </Anchor>
          ) : null}
        </Stack>
      ) : null}
    </CardSection>
  );
}
