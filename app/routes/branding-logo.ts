import { logoResponse } from "~/server/branding/logo.server";

/** GET /branding/logo?v=<hash>: the agency's logo (ADRs 268, 293), as the image type it was checked to be. */
export const loader = () => logoResponse();
