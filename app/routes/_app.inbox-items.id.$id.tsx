import { Grid, Stack } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CardCase } from "../components/inbox/CardCase";
import { CardFollow } from "../components/inbox/CardFollow";
import { CardHeader } from "../components/inbox/CardHeader";
import { CardHistory } from "../components/inbox/CardHistory";
import { CardOutcomes } from "../components/inbox/CardOutcomes";
import { CardSection } from "../components/inbox/CardSection";
import { OriginalEmail } from "../components/inbox/OriginalEmail";
import { ParsedNotice } from "../components/inbox/ParsedNotice";
import { allows } from "../common/access";
import { requireUser } from "../utils/auth.server";
import { reprocessOntoCase, runInboxIntent } from "../utils/inbox-actions.server";
import { loadInboxCard, loadOriginalEmail } from "../utils/inbox.server";
import { redirectWithToast } from "../utils/toast.server";
import { readForm } from "../utils/request-body.server";

export const handle = { titleKey: "pages.inboxItems" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { me, api } = await requireUser(request, "inboxItemAccess");
  const id = params.id ?? "";
  const card = await loadInboxCard(api, id);
  const email = await loadOriginalEmail(api, id);
  const caseQuery = new URL(request.url).searchParams.get("caseQuery")?.trim() ?? "";
  let caseOptions: { id: string; label: string }[] = [];
  if (caseQuery && allows(me.userRole.caseAccess, "read")) {
    const { data: rows } = await api.json<{ id: string; name: string; case_number: string }[]>(
      `/api/v1/case/search?max=20&freeText=${encodeURIComponent(caseQuery)}`,
    );
    caseOptions = rows.map((r) => ({ id: r.id, label: `${r.case_number} — ${r.name}` }));
  }
  const canChange = allows(me.userRole.inboxItemAccess, "write");
  return data({ card, email, caseQuery, caseOptions, canChange });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api } = await requireUser(request, "inboxItemAccess");
  const form = await readForm(request);
  form.set("item", params.id ?? "");
  if (!form.getAll("id").length) form.append("id", params.id ?? "");
  if (form.get("intent") === "reprocess") {
    const outcome = await reprocessOntoCase(api, form);
    // The card again, with the API's warning and a button to confirm (a plain form without JavaScript).
    if ("warning" in outcome) return data({ mismatch: outcome }, { status: 409 });
    return redirectWithToast(request, `/inbox-items/id/${params.id}`, outcome);
  }
  const toast = await runInboxIntent(api, form);
  return redirectWithToast(request, `/inbox-items/id/${params.id}`, toast);
}

export default function InboxCardPage() {
  const { card, email, caseQuery, caseOptions, canChange } = useLoaderData<typeof loader>();
  const mismatch = useActionData<typeof action>()?.mismatch;
  const { t } = useTranslation("inbox");
  return (
    <Stack>
      <CardHeader item={card.item} canChange={canChange} />
      <CardFollow status={card.item.status ?? ""} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <CardSection title={t("card.parsed")} testId="card-parsed">
              <ParsedNotice parsed={card.item.parsed} />
            </CardSection>
            <CardCase card={card} canChange={canChange} caseQuery={caseQuery} caseOptions={caseOptions} mismatch={mismatch} />
            <CardOutcomes card={card} />
            <OriginalEmail itemId={card.item.id} email={email} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <CardHistory card={card} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
