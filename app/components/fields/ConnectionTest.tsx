import { Alert, Button, Card, List, Stack, Text, ThemeIcon } from "../../utils/mantine";
import { Form, useNavigation } from "@remix-run/react";
import { IconCheck, IconX } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { INTENT_FIELD } from "../../utils/wizard-state";
import type { ConnectionReport } from "./connection-report";

/** "Test connection" on a credential's page: a plain form post, so it works without JavaScript. */
export function ConnectionTest({ action, report, verifiedAgainst }: { action: string; report?: ConnectionReport; verifiedAgainst?: string }) {
  const { t } = useTranslation();
  const busy = useNavigation().formData?.get(INTENT_FIELD) === "test-connection";
  const words = (text: string) => (/^[a-z]+:[\w.]+$/.test(text) ? t(text) : text);
  return (
    <Card withBorder data-testid="connection-test">
      <Stack gap="sm">
        <Form method="post" action={action}>
          <Button type="submit" name={INTENT_FIELD} value="test-connection" variant="default" loading={busy}>
            {t("storage:connection.run")}
          </Button>
        </Form>
        {verifiedAgainst ? (
          <Text size="sm" c="dimmed" data-testid="verified-against">
            {t("storage:connection.verifiedAgainst", { sources: verifiedAgainst })}
          </Text>
        ) : null}
        {report ? (
          <Alert color={report.ok ? "green" : "red"} title={t(report.ok ? "storage:connection.ok" : "storage:connection.failed")} role="status">
            <List spacing="xs" size="sm" center>
              {report.steps.map((step, index) => (
                <List.Item
                  key={index}
                  icon={
                    <ThemeIcon
                      color={step.ok ? "green" : "red"}
                      size={20}
                      radius="xl"
                      aria-label={t(step.ok ? "storage:connection.stepOk" : "storage:connection.stepFailed")}
                    >
                      {step.ok ? <IconCheck size={14} /> : <IconX size={14} />}
                    </ThemeIcon>
                  }
                >
                  <Text size="sm" fw={600} span>
                    {words(step.step)}
                  </Text>
                  <Text size="sm" span>
                    {" "}
                    {words(step.detail)}
                  </Text>
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}
