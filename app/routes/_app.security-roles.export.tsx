import type { LoaderFunctionArgs } from "@remix-run/node";
import { securityRoles } from "../common/resources/security-roles";
import { exportList } from "../components/table/export.server";

// The roles' CSV download. Named here because /security-roles/<id> (the role editor) and
// /<key>/export rank alike, and a tie between them is no answer at all.

export const loader = ({ request }: LoaderFunctionArgs) => exportList(request, securityRoles.key);
