import type { LoaderFunctionArgs } from "@remix-run/node";
import { continueIdpLogout } from "../utils/sso.server";

// After /logout ended a single sign-on session here: on to the identity provider's logout (SAML or OpenID Connect).
export const loader = ({ request }: LoaderFunctionArgs) => continueIdpLogout(request);
