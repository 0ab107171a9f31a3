import { logoResponse } from "~/server/branding/logo.server";

/** GET /branding/logo?v=<hash>: the agency's logo (issue 29), as the image type it was checked to be. */
export const loader = () => logoResponse();
