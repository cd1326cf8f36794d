import { Alert, Button, Input, Stack, Text } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, MaxPartSizeExceededError, data, unstable_createMemoryUploadHandler } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CardSection } from "../components/inbox/CardSection";
import { ApiError } from "../utils/api.server";
import { requireUser } from "../utils/auth.server";
import { readMultipartForm } from "../utils/request-body.server";
import { redirectWithToast } from "../utils/toast.server";

export const handle = { titleKey: "pages.inboxItems" };

const MAX_UPLOAD = 50 * 1024 * 1024;

export async function loader({ request }: LoaderFunctionArgs) {
  const { me } = await requireUser(request, "inboxItemAccess");
  if (me.userRole.inboxItemAccess !== "FULL") throw new Response(null, { status: 302, headers: { Location: "/success" } });
  return data(null);
}

/** A refused upload: the form again with the reason, and a 4xx status that says so. */
const refused = (error: string, status = 400) => data({ error }, { status });

/** An .eml file goes through the same path as mail received by the SMTP inbox. */
export async function action({ request }: ActionFunctionArgs) {
  const { api } = await requireUser(request, "inboxItemAccess");
  let form: FormData;
  try {
    form = await readMultipartForm(request, unstable_createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD }), (e) => e instanceof MaxPartSizeExceededError);
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return refused("inbox:upload.tooLarge", 413);
    throw error;
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return refused("errors:emptyUpload");
  if (!/\.eml$/i.test(file.name)) return refused("inbox:upload.wrongType");
  try {
    const { data: created } = await api.json<{ id: string }>("/api/v1/inbox/upload", {
      method: "POST",
      body: Buffer.from(await file.arrayBuffer()),
      contentType: "message/rfc822",
    });
    return redirectWithToast(request, `/inbox-items/id/${created.id}`, { type: "success", key: "inbox:upload.done" });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return refused(error.body.message ?? "errors:somethingWrong", error.status);
    throw error;
  }
}

export default function UploadEmail() {
  const { t } = useTranslation("inbox");
  const result = useActionData<typeof action>();
  return (
    <CardSection title={t("upload.title")}>
      <Form method="post" encType="multipart/form-data">
        <Stack maw={560} gap="sm">
          <Text size="sm" data-testid="upload-accepts">
            {t("upload.accepts")}
          </Text>
          <Text size="sm" data-testid="upload-then">
            {t("upload.then")}
          </Text>
          {result?.error ? (
            <Alert color="red" role="alert" data-testid="upload-error">
              {t(result.error)}
            </Alert>
          ) : null}
          {/* A native file input: the same control with and without JavaScript, in any browser. */}
          <Input.Wrapper label={t("upload.file")} required>
            <input type="file" name="file" accept=".eml,message/rfc822" required aria-label={t("upload.file")} />
          </Input.Wrapper>
          <Button type="submit">{t("upload.submit")}</Button>
        </Stack>
      </Form>
    </CardSection>
  );
}
