import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { acceptSamlResponse } from "../utils/sso.server";

// The assertion consumer service: the identity provider posts the signed sign-in here.
export const loader = () => redirect("/login");

export const action = ({ request }: ActionFunctionArgs) => acceptSamlResponse(request);
