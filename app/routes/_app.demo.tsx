import { Alert, Button, Card, Checkbox, Stack, Text, Title } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { allows } from "../common/access";
import type { DemoResetResult } from "../common/demo-reset";
import { ApiError } from "../utils/api.server";
import { requireUser } from "../utils/auth.server";
import { redirectWithToast } from "../utils/toast.server";
import { useHydrated } from "../utils/use-hydrated";

// The demo installation's reset (decision 048). The layout answers 404 where the installation is
// not a demo or the firm is not the demo firm; the API refuses the reset there too.

export const handle = { titleKey: "pages.demo" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { me } = await requireUser(request, "firmAccess");
  return data({ canReset: allows(me.userRole.firmAccess, "write") });
}

export async function action({ request }: ActionFunctionArgs) {
  const { api } = await requireUser(request, "firmAccess");
  const form = await request.formData();
  if (form.get("confirm") !== "yes") return data({ error: "demo.confirmRequired" }, { status: 400 });
  try {
    const { data: result } = await api.json<DemoResetResult>("/api/v1/demo/reset", { method: "POST" });
    const values = {
      notices: result.removed.notices,
      cases: result.removed.cases,
      files: result.removed.files,
      addedCases: result.added.cases,
      addedNotices: result.added.notices,
    };
    return redirectWithToast(request, "/demo", { type: "success", key: "demo.done", values });
  } catch (error) {
    // The worker is still busy with the firm's notices: the API says so in the catalogue's words.
    if (error instanceof ApiError && error.status === 409) return redirectWithToast(request, "/demo", { type: "error", text: error.body.message });
    throw error;
  }
}

export default function DemoReset() {
  const { canReset } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  return (
    <Stack maw={760}>
      <Card withBorder>
        <Title order={2} size="h4" mb="xs">
          {t("demo.title")}
        </Title>
        <Text size="sm" mb="xs">
          {t("demo.intro")}
        </Text>
        <Text size="sm" mb="md">
          {t("demo.worker")}
        </Text>
        {canReset ? (
          <Form method="post" data-hydrated={hydrated || undefined} aria-label={t("demo.title")}>
            <Stack gap="sm" align="flex-start">
              <Checkbox name="confirm" value="yes" label={t("demo.confirm")} error={posted?.error ? t(posted.error) : undefined} />
              <Button type="submit" color="red" loading={busy}>
                {t("demo.submit")}
              </Button>
            </Stack>
          </Form>
        ) : (
          <Alert color="yellow">{t("demo.adminsOnly")}</Alert>
        )}
      </Card>
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
