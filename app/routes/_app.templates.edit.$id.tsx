import { Anchor, Group, Stack } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TemplateEditorForm } from "../components/templates/TemplateEditorForm";
import { templateEditorAction, templateEditorData } from "../components/templates/template-editor.server";
import { templates } from "../common/resources/notifications";

export function loader({ request, params }: LoaderFunctionArgs) {
  return templateEditorData(request, params.id);
}

export function action({ request, params }: ActionFunctionArgs) {
  return templateEditorAction(request, params.id);
}

/** Spec §2: /templates/edit/{id} edits one template, with a preview and a full-screen editor. */
export default function TemplateEditorPage() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <Stack>
      <Group gap="lg">
        <Anchor component={Link} to={`/${templates.key}`} size="sm">
          {t("wizard:backToList", { resource: templates.key })}
        </Anchor>
        <Anchor component={Link} to={`/${templates.key}/${encodeURIComponent(loaded.id)}`} size="sm">
          {t("resources:templates.editor.details")}
        </Anchor>
      </Group>
      <TemplateEditorForm
        id={loaded.id}
        values={posted?.values ?? loaded.values}
        canWrite={loaded.canWrite}
        preview={posted?.preview ?? loaded.preview}
        notices={loaded.notices}
        result={posted?.result}
      />
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
