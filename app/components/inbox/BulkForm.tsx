import { Button, Checkbox, Group, Progress, Stack, Text } from "../../utils/mantine";
import { Form } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { INBOX_BULK_ACTIONS, type InboxBulkAction, MATCHING_MAX, isInboxBulkAction } from "../../common/inbox-bulk";
import { BULK_FIELDS, SCOPE } from "../../utils/inbox-bulk";
import { useHydrated } from "../../utils/use-hydrated";
import type { BulkRun } from "./use-bulk-run";

interface Props {
  /** Items matching the table's filters. */
  total: number;
  /** The rows on the page: "select all on this page" posts them. */
  pageIds: string[];
  selected: string[];
  matching: boolean;
  onMatchingChange(matching: boolean): void;
  run: BulkRun | null;
  onStart(action: InboxBulkAction): void;
  /** The plain table without JavaScript, so its row checkboxes post with this form. */
  children?: ReactNode;
}

function BulkProgress({ run }: { run: BulkRun }) {
  const { t } = useTranslation("inbox");
  const { processed, total } = run.tally;
  const label = t("bulk.progress", { processed, total });
  return (
    <Stack gap={4} data-testid="bulk-progress" data-running={run.running}>
      <Progress value={total ? Math.round((processed / total) * 100) : 0} size="lg" animated={run.running} aria-label={label} />
      <Text size="sm" role="status">
        {label}
      </Text>
    </Stack>
  );
}

/**
 * The inbox list's bulk actions. A real POST form: without JavaScript the buttons submit the ticked
 * rows (or the page, or every item matching the filters) and the server runs them all; with
 * JavaScript the submit is taken over and run in batches with a progress bar.
 */
export function BulkForm({ total, pageIds, selected, matching, onMatchingChange, run, onStart, children }: Props) {
  const { t } = useTranslation("inbox");
  const hydrated = useHydrated();
  const busy = run?.running === true;
  const nothing = !matching && selected.length === 0;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const action = ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value;
    if (isInboxBulkAction(action) && !busy) onStart(action);
  };

  return (
    <Form method="post" onSubmit={onSubmit} aria-label={t("bulk.title")} data-testid="bulk-form">
      <Stack gap="xs">
        {pageIds.map((id) => (
          <input key={id} type="hidden" name={BULK_FIELDS.pageIds} value={id} />
        ))}
        <Group gap="sm">
          {INBOX_BULK_ACTIONS.map((action) => (
            <Button key={action} type="submit" name={BULK_FIELDS.action} value={action} variant="default" size="xs" disabled={hydrated && (busy || nothing)}>
              {t(`bulk.${action}`)}
            </Button>
          ))}
          <Checkbox
            size="xs"
            name={BULK_FIELDS.scope}
            value={SCOPE.matching}
            label={t("bulk.allMatching", { count: total, max: MATCHING_MAX })}
            checked={matching}
            onChange={(event) => onMatchingChange(event.currentTarget.checked)}
            disabled={total === 0}
          />
          {hydrated ? (
            <Text size="sm" c="dimmed" data-testid="bulk-selected">
              {matching ? t("bulk.allMatchingSelected", { count: total }) : t("bulk.selected", { count: selected.length })}
            </Text>
          ) : null}
        </Group>
        <Text size="xs" c="dimmed">
          {t("bulk.retryWindow")}
        </Text>
        {run ? <BulkProgress run={run} /> : null}
        {children}
      </Stack>
    </Form>
  );
}
