import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { securityRoles } from "../common/resources/security-roles";
import { requireUser } from "../utils/auth.server";
import { Alert, Anchor, Stack } from "../utils/mantine";

// Roles are not imported: the permission matrix and its rules live in the role editor. Named here
// because /security-roles/<id> (the role editor) and /<key>/import rank alike.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, securityRoles.accessKey);
  return data({ pageTitle: { key: "transfer:import.heading", values: { resource: securityRoles.key } } });
}

export default function SecurityRolesImport() {
  const { t } = useTranslation();
  return (
    <Stack maw={720}>
      <Alert color="blue" data-testid="roles-not-imported">
        {t("roles:notImported")}
      </Alert>
      <Anchor component={Link} to={`/${securityRoles.key}/new`}>
        {t("roles:createInEditor")}
      </Anchor>
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
