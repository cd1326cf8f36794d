import { Grid, Stack } from "../utils/mantine";
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AccountCard } from "../components/profile/AccountCard";
import { AnalyticsForm } from "../components/profile/AnalyticsForm";
import { ChangePasswordForm } from "../components/profile/ChangePasswordForm";
import { RoleAccessCard } from "../components/profile/RoleAccessCard";
import { changePassword, isAnalyticsForm, loadAnalyticsOptOut, loadRole, saveAnalyticsOptOut } from "../components/profile/profile.server";
import { requireUser } from "../utils/auth.server";

export const handle = { titleKey: "pages.profile" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, api } = await requireUser(request);
  const [role, analyticsOptOut] = await Promise.all([loadRole(api, me), loadAnalyticsOptOut(api)]);
  return data({ me, role, analyticsOptOut });
}

export async function action({ request }: ActionFunctionArgs) {
  return (await isAnalyticsForm(request)) ? saveAnalyticsOptOut(request) : changePassword(request);
}

export default function Profile() {
  const { me, role, analyticsOptOut } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack>
          <AccountCard me={me} />
          <ChangePasswordForm lastResult={lastResult} />
          <AnalyticsForm optOut={analyticsOptOut} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <RoleAccessCard role={role} />
      </Grid.Col>
    </Grid>
  );
}
